/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/smp.h: the current CPU is the simulated CPU of the current
 * kshim task (kshim_task.c). There are no IPIs.
 */
#ifndef _KSHIM_ASM_SMP_H
#define _KSHIM_ASM_SMP_H
int kshim_cpu_id(void);
#define raw_smp_processor_id() kshim_cpu_id()
#endif
