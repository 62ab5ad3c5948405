/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/cmpxchg.h: xchg/cmpxchg on any 1/2/4/8-byte object, fully
 * ordered as the kernel's are, with the compiler's __atomic builtins.
 */
#ifndef _KSHIM_ASM_CMPXCHG_H
#define _KSHIM_ASM_CMPXCHG_H

#define arch_xchg(ptr, v)						\
({									\
	__typeof__(*(ptr)) __x_new = (v), __x_old;			\
	__atomic_exchange((ptr), &__x_new, &__x_old, __ATOMIC_SEQ_CST);	\
	__x_old;							\
})

#define __kshim_cmpxchg(ptr, o, n, succ, fail)				\
({									\
	__typeof__(*(ptr)) __c_old = (o), __c_new = (n);		\
	__atomic_compare_exchange((ptr), &__c_old, &__c_new, 0,		\
				  succ, fail);				\
	__c_old;							\
})

#define arch_cmpxchg(ptr, o, n)						\
	__kshim_cmpxchg(ptr, o, n, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
#define arch_cmpxchg_relaxed(ptr, o, n)					\
	__kshim_cmpxchg(ptr, o, n, __ATOMIC_RELAXED, __ATOMIC_RELAXED)
#define arch_cmpxchg_acquire(ptr, o, n)					\
	__kshim_cmpxchg(ptr, o, n, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)
#define arch_cmpxchg_release(ptr, o, n)					\
	__kshim_cmpxchg(ptr, o, n, __ATOMIC_RELEASE, __ATOMIC_RELAXED)
#define arch_cmpxchg64(ptr, o, n)		arch_cmpxchg(ptr, o, n)
#define arch_cmpxchg64_relaxed(ptr, o, n)	arch_cmpxchg_relaxed(ptr, o, n)
#define arch_cmpxchg_local(ptr, o, n)		arch_cmpxchg(ptr, o, n)
#define arch_cmpxchg64_local(ptr, o, n)		arch_cmpxchg(ptr, o, n)

#define arch_try_cmpxchg(ptr, oldp, n)					\
({									\
	__typeof__(*(ptr)) __t_new = (n);				\
	__atomic_compare_exchange((ptr), (oldp), &__t_new, 0,		\
				  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);	\
})
#define arch_try_cmpxchg64(ptr, oldp, n)	arch_try_cmpxchg(ptr, oldp, n)
#define arch_try_cmpxchg_local(ptr, oldp, n)	arch_try_cmpxchg(ptr, oldp, n)

#endif
