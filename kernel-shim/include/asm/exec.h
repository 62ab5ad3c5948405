/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/exec.h: kshim execs nothing; linux/binfmts.h includes it
 * for the stack alignment of a new program, x86's definition.
 */
#ifndef _KSHIM_ASM_EXEC_H
#define _KSHIM_ASM_EXEC_H
extern unsigned long arch_align_stack(unsigned long sp);
#endif
