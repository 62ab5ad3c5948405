/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/ptrace.h: kshim never takes a trap or an interrupt from
 * user mode, so pt_regs exists only as a type that interrupt-handler
 * signatures mention. Every accessor says "kernel mode, no registers".
 */
#ifndef _KSHIM_ASM_PTRACE_H
#define _KSHIM_ASM_PTRACE_H

#ifndef __ASSEMBLY__
struct pt_regs {
	unsigned long ip, sp, flags;
};

#define user_mode(regs)			0
#define instruction_pointer(regs)	((regs)->ip)
#define user_stack_pointer(regs)	((regs)->sp)
#define profile_pc(regs)		instruction_pointer(regs)
#define current_pt_regs()		((struct pt_regs *)0)
#endif

#endif
