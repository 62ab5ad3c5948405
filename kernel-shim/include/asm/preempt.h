/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/preempt.h: the preempt count belongs to the current kshim
 * task. Entering an atomic section (count 0 -> 1, or interrupts off) makes
 * the task the owner of its simulated CPU until it leaves, so two tasks on
 * one simulated CPU never run per-CPU code at the same time, as on a real
 * machine (kshim_cpu.c). There is no preemption: CONFIG_PREEMPTION is off,
 * so preempt_enable() never reschedules.
 */
#ifndef _KSHIM_ASM_PREEMPT_H
#define _KSHIM_ASM_PREEMPT_H

#include <linux/compiler.h>

#define PREEMPT_ENABLED	(0)

int *kshim_preempt_count_ptr(void);
void kshim_preempt_count_add(int val);
void kshim_preempt_count_sub(int val);

static __always_inline int preempt_count(void)
{
	return READ_ONCE(*kshim_preempt_count_ptr());
}
static __always_inline volatile int *preempt_count_ptr(void)
{
	return kshim_preempt_count_ptr();
}
static __always_inline void preempt_count_set(int pc)
{
	*kshim_preempt_count_ptr() = pc;
}
#define init_task_preempt_count(p) do { } while (0)
#define init_idle_preempt_count(p, cpu) do { } while (0)
static __always_inline void set_preempt_need_resched(void) { }
static __always_inline void clear_preempt_need_resched(void) { }
static __always_inline bool test_preempt_need_resched(void) { return false; }
static __always_inline void __preempt_count_add(int val)
{
	kshim_preempt_count_add(val);
}
static __always_inline void __preempt_count_sub(int val)
{
	kshim_preempt_count_sub(val);
}
static __always_inline bool __preempt_count_dec_and_test(void)
{
	kshim_preempt_count_sub(1);
	return false;
}
static __always_inline bool should_resched(int preempt_offset)
{
	return false;
}
#endif
