/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/atomic.h: the arch_atomic and arch_atomic64 primitives that
 * linux/atomic/atomic-arch-fallback.h builds every other atomic_*() from.
 * Value-returning operations are fully ordered, the others relaxed, as the
 * kernel's memory model (Documentation/atomic_t.txt) requires.
 *
 * One exception: atomic_read() is a load-acquire, as every load is on x86,
 * the architecture kshim stands in for (it is the same mov). The kernel's
 * memory model orders the stores that depend on a read (a control
 * dependency); ThreadSanitizer does not know control dependencies, and a
 * relaxed atomic_read() makes it report the common "wait for the count to
 * drop to zero, then reuse the memory" pattern (wb_wait_for_completion()
 * and the on-stack wb_completion of sync_inodes_sb()) as a race.
 */
#ifndef _KSHIM_ASM_ATOMIC_H
#define _KSHIM_ASM_ATOMIC_H

#include <linux/types.h>
#include <asm/cmpxchg.h>
#include <asm/barrier.h>

#define __KSHIM_ATOMIC_OPS(pfx, atype, type)					\
static __always_inline type pfx##_read(const atype *v)		\
{ return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE); }		\
static __always_inline void pfx##_set(atype *v, type i)		\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }		\
static __always_inline type pfx##_read_acquire(const atype *v)	\
{ return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE); }		\
static __always_inline void pfx##_set_release(atype *v, type i)	\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELEASE); }		\
static __always_inline void pfx##_add(type i, atype *v)		\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }		\
static __always_inline void pfx##_sub(type i, atype *v)		\
{ __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); }		\
static __always_inline void pfx##_and(type i, atype *v)		\
{ __atomic_fetch_and(&v->counter, i, __ATOMIC_RELAXED); }		\
static __always_inline void pfx##_or(type i, atype *v)		\
{ __atomic_fetch_or(&v->counter, i, __ATOMIC_RELAXED); }		\
static __always_inline void pfx##_xor(type i, atype *v)		\
{ __atomic_fetch_xor(&v->counter, i, __ATOMIC_RELAXED); }		\
static __always_inline type pfx##_add_return(type i, atype *v)	\
{ return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static __always_inline type pfx##_sub_return(type i, atype *v)	\
{ return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static __always_inline type pfx##_fetch_add(type i, atype *v)	\
{ return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static __always_inline type pfx##_fetch_sub(type i, atype *v)	\
{ return __atomic_fetch_sub(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static __always_inline type pfx##_fetch_and(type i, atype *v)	\
{ return __atomic_fetch_and(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static __always_inline type pfx##_fetch_or(type i, atype *v)		\
{ return __atomic_fetch_or(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static __always_inline type pfx##_fetch_xor(type i, atype *v)	\
{ return __atomic_fetch_xor(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static __always_inline type pfx##_xchg(atype *v, type i)		\
{ return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST); }	\
static __always_inline type pfx##_cmpxchg(atype *v, type o, type n)	\
{									\
	__atomic_compare_exchange_n(&v->counter, &o, n, 0,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	return o;							\
}									\
static __always_inline bool pfx##_try_cmpxchg(atype *v, type *o, type n) \
{									\
	return __atomic_compare_exchange_n(&v->counter, o, n, 0,	\
				__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);	\
}

__KSHIM_ATOMIC_OPS(arch_atomic, atomic_t, int)
__KSHIM_ATOMIC_OPS(arch_atomic64, atomic64_t, s64)

/* As every 64-bit arch's asm/atomic64*.h (ATOMIC_LONG_INIT() needs it). */
#define ATOMIC64_INIT(i)	{ (i) }

/* Tell atomic-arch-fallback.h which primitives exist. */
#define arch_atomic_read arch_atomic_read
#define arch_atomic_set arch_atomic_set
#define arch_atomic_read_acquire arch_atomic_read_acquire
#define arch_atomic_set_release arch_atomic_set_release
#define arch_atomic_add arch_atomic_add
#define arch_atomic_sub arch_atomic_sub
#define arch_atomic_and arch_atomic_and
#define arch_atomic_or arch_atomic_or
#define arch_atomic_xor arch_atomic_xor
#define arch_atomic_add_return arch_atomic_add_return
#define arch_atomic_sub_return arch_atomic_sub_return
#define arch_atomic_fetch_add arch_atomic_fetch_add
#define arch_atomic_fetch_sub arch_atomic_fetch_sub
#define arch_atomic_fetch_and arch_atomic_fetch_and
#define arch_atomic_fetch_or arch_atomic_fetch_or
#define arch_atomic_fetch_xor arch_atomic_fetch_xor
#define arch_atomic_xchg arch_atomic_xchg
#define arch_atomic_cmpxchg arch_atomic_cmpxchg
#define arch_atomic_try_cmpxchg arch_atomic_try_cmpxchg
#define arch_atomic64_read arch_atomic64_read
#define arch_atomic64_set arch_atomic64_set
#define arch_atomic64_read_acquire arch_atomic64_read_acquire
#define arch_atomic64_set_release arch_atomic64_set_release
#define arch_atomic64_add arch_atomic64_add
#define arch_atomic64_sub arch_atomic64_sub
#define arch_atomic64_and arch_atomic64_and
#define arch_atomic64_or arch_atomic64_or
#define arch_atomic64_xor arch_atomic64_xor
#define arch_atomic64_add_return arch_atomic64_add_return
#define arch_atomic64_sub_return arch_atomic64_sub_return
#define arch_atomic64_fetch_add arch_atomic64_fetch_add
#define arch_atomic64_fetch_sub arch_atomic64_fetch_sub
#define arch_atomic64_fetch_and arch_atomic64_fetch_and
#define arch_atomic64_fetch_or arch_atomic64_fetch_or
#define arch_atomic64_fetch_xor arch_atomic64_fetch_xor
#define arch_atomic64_xchg arch_atomic64_xchg
#define arch_atomic64_cmpxchg arch_atomic64_cmpxchg
#define arch_atomic64_try_cmpxchg arch_atomic64_try_cmpxchg

#endif
