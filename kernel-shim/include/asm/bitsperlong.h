/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/bitsperlong.h: a 64-bit machine. */
#ifndef _KSHIM_ASM_BITSPERLONG_H
#define _KSHIM_ASM_BITSPERLONG_H
#define __BITS_PER_LONG 64
#include <asm-generic/bitsperlong.h>
#endif
