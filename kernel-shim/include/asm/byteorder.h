/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/byteorder.h: the harness runs on little-endian hosts only. */
#ifndef _KSHIM_ASM_BYTEORDER_H
#define _KSHIM_ASM_BYTEORDER_H
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "kshim supports little-endian hosts only"
#endif
#include <linux/byteorder/little_endian.h>
#endif
