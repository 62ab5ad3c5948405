/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/io.h: there is no MMIO or port I/O in kshim. */
#ifndef _KSHIM_ASM_IO_H
#define _KSHIM_ASM_IO_H
#endif
