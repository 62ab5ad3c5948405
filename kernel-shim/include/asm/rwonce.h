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

#define __READ_ONCE(x)	__atomic_load_n(&(x), __ATOMIC_RELAXED)

#define __WRITE_ONCE(x, val)						\
do {									\
	typeof(x) __wo_v = (val);					\
	__atomic_store_n(&(x), __wo_v, __ATOMIC_RELAXED);		\
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
