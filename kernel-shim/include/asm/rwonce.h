/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/rwonce.h: READ_ONCE/WRITE_ONCE as relaxed __atomic accesses
 * rather than volatile ones. Same code on x86 (a plain mov), but
 * ThreadSanitizer sees them as marked accesses, as KCSAN does, and does not
 * report the kernel's deliberate lockless reads as races. Written whole
 * because asm-generic/rwonce.h defines __WRITE_ONCE unconditionally.
 */
#ifndef _KSHIM_ASM_RWONCE_H
#define _KSHIM_ASM_RWONCE_H

/*
 * The access is done on the unsigned integer of the object's size, through
 * a union, so that a struct the size of a word (pte_t, pmd_t...: the real
 * linux/pgtable.h READ_ONCEs them) is one relaxed atomic access too, as a
 * plain volatile word access is in the kernel.
 */
#define __kshim_rwonce_int(x)						\
	typeof(__builtin_choose_expr(sizeof(x) == 1, (unsigned char)0,	\
	       __builtin_choose_expr(sizeof(x) == 2, (unsigned short)0,	\
	       __builtin_choose_expr(sizeof(x) == 4, (unsigned int)0,	\
				     (unsigned long long)0))))

/*
 * A READ_ONCE() of a pointer is a consume load, the others are relaxed.
 * The kernel's READ_ONCE() orders the accesses that depend on the value
 * it read (address dependencies: asm-generic/rwonce.h, "Use __READ_ONCE()
 * instead of READ_ONCE() if you do not require any atomicity or
 * dependency ordering guarantees"; Alpha puts a barrier in it for that),
 * and rcu_dereference() is a READ_ONCE() of the pointer that heads them.
 * ThreadSanitizer does not follow dependencies: with a relaxed load, a
 * reader of an object published by rcu_assign_pointer() (a release
 * store) would be reported racing with the initialisation of that object
 * (lib/rhashtable.c's new bucket table, seen by xfs_buf_lookup()). C11's
 * consume is exactly dependency ordering; GCC implements it as acquire,
 * which is the same plain load on x86. Only pointers: they head the
 * dependencies the kernel relies on, and keeping integer READ_ONCE()s
 * relaxed keeps TSan from seeing a control dependency as ordering.
 */
#define __kshim_rwonce_order(x)						\
	__builtin_choose_expr(__builtin_classify_type(x) == 5 /* pointer */, \
			      __ATOMIC_CONSUME, __ATOMIC_RELAXED)

#define __READ_ONCE(x)							\
({									\
	union { typeof(x) __v; __kshim_rwonce_int(x) __i; } __ro_u;	\
	__ro_u.__i = __atomic_load_n(					\
		(const volatile __kshim_rwonce_int(x) *)&(x),		\
		__kshim_rwonce_order(x));				\
	__ro_u.__v;							\
})

#define __WRITE_ONCE(x, val)						\
do {									\
	union { typeof(x) __v; __kshim_rwonce_int(x) __i; } __wo_u =	\
		{ .__v = (val) };					\
	__atomic_store_n((volatile __kshim_rwonce_int(x) *)&(x),	\
			 __wo_u.__i, __ATOMIC_RELAXED);			\
} while (0)

#include <linux/compiler_types.h>

#define compiletime_assert_rwonce_type(t)					\
	compiletime_assert(__native_word(t) || sizeof(t) == sizeof(long long),	\
		"Unsupported access size for {READ,WRITE}_ONCE().")

#define READ_ONCE(x)							\
({									\
	compiletime_assert_rwonce_type(x);				\
	__READ_ONCE(x);							\
})

#define WRITE_ONCE(x, val)						\
do {									\
	compiletime_assert_rwonce_type(x);				\
	__WRITE_ONCE(x, val);						\
} while (0)

static __always_inline unsigned long __read_once_word_nocheck(const void *addr)
{
	return __READ_ONCE(*(unsigned long *)addr);
}

#define READ_ONCE_NOCHECK(x)						\
({									\
	compiletime_assert(sizeof(x) == sizeof(unsigned long),		\
		"Unsupported access size for READ_ONCE_NOCHECK().");	\
	(typeof(x))__read_once_word_nocheck(&(x));			\
})

/*
 * A deliberate over-read up to the end of an aligned word (strscpy() and
 * friends): the kernel exempts it from KASAN, kshim from ASan.
 */
static __attribute__((__no_sanitize_address__)) noinline
unsigned long read_word_at_a_time(const void *addr)
{
	return *(unsigned long *)addr;
}

#endif
