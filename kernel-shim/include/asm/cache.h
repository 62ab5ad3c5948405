/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/cache.h: 64-byte cache lines, as on the x86-64 hosts kshim runs on. */
#ifndef _KSHIM_ASM_CACHE_H
#define _KSHIM_ASM_CACHE_H
#define L1_CACHE_SHIFT	6
#define L1_CACHE_BYTES	(1 << L1_CACHE_SHIFT)
#endif
