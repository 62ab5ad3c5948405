/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/mmu_context.h: kshim has one address space, the host
 * process's, and kernel tasks have no mm (current->mm is NULL), so there
 * is never a context to switch. The generic header supplies the rest.
 */
#ifndef _KSHIM_ASM_MMU_CONTEXT_H
#define _KSHIM_ASM_MMU_CONTEXT_H

struct mm_struct;
struct task_struct;

static inline void switch_mm(struct mm_struct *prev, struct mm_struct *next,
			     struct task_struct *tsk)
{
}

#include <asm-generic/mmu_context.h>
#endif
