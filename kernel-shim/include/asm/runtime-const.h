/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/runtime-const.h: fs/dcache.c's hash table pointer and
 * shift, patched into the code at boot on x86; the generic fallback
 * (plain loads of the variables) as on architectures without it.
 */
#include <asm-generic/runtime-const.h>
