/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/swab.h: no arch byte swaps; uapi/linux/swab.h uses the compiler builtins. */
