/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/barrier.h: memory barriers as C11 fences and acquire/release
 * accesses, so the compiler and ThreadSanitizer both know the ordering.
 * asm-generic/barrier.h derives the rest.
 */
#ifndef _KSHIM_ASM_BARRIER_H
#define _KSHIM_ASM_BARRIER_H

#define __mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define __rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define __wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)

#define __smp_mb()	__mb()
#define __smp_rmb()	__rmb()
#define __smp_wmb()	__wmb()

#define __smp_store_release(p, v)					\
do {									\
	typeof(*(p)) __sr_v = (v);					\
	__atomic_store_n((p), __sr_v, __ATOMIC_RELEASE);		\
} while (0)

#define __smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)

#define __smp_mb__before_atomic()	__mb()
#define __smp_mb__after_atomic()	__mb()

#include <asm-generic/barrier.h>

#endif
