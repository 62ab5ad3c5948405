/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/bitops.h: the generic version, as Kbuild's generic-y would
 * give, with one change: test_bit() reads the word with a relaxed __atomic
 * load instead of generic_test_bit()'s volatile one. The kernel defines
 * test_bit() as atomic (generic-non-atomic.h says so, and KCSAN
 * instruments it as an atomic read); ThreadSanitizer treats a volatile
 * read as plain and would report every test_bit() racing with set_bit()
 * or clear_bit_unlock() (wait_on_bit(), page flags) as a data race. Same
 * code on x86 (a plain mov), as READ_ONCE() in asm/rwonce.h.
 */
#include <asm-generic/bitops.h>

#ifndef _KSHIM_ASM_BITOPS_H
#define _KSHIM_ASM_BITOPS_H

static __always_inline bool
kshim_test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return 1UL & (__atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_RELAXED) >>
		      (nr & (BITS_PER_LONG - 1)));
}

#undef arch_test_bit
#define arch_test_bit kshim_test_bit

#endif
