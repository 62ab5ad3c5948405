/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/processor.h: cpu_relax() is a switch point. A busy-wait loop
 * in kernel code must let the task it waits for run, which in the
 * deterministic backend only happens if cpu_relax() yields.
 */
#ifndef _KSHIM_ASM_PROCESSOR_H
#define _KSHIM_ASM_PROCESSOR_H
/* x86 reaches these through its processor.h, and kernel headers rely on it. */
#include <linux/errno.h>
#include <linux/bug.h>

void kshim_cpu_relax(void);
#define cpu_relax()	kshim_cpu_relax()
#define TASK_SIZE	(~0UL >> 1)
/* mm/util.c's mmap layout helpers name them; no task has a user stack or
 * an mmap base (current->mm is NULL). x86-64's unmapped base. */
#define TASK_UNMAPPED_BASE	(TASK_SIZE / 3)
#define KSTK_ESP(task)		0UL

/* The architecture's per-task register state: kshim tasks are host
 * threads or fibers, so there is none to keep. linux/sched/task.h names
 * the field (the usercopy whitelist). */
struct thread_struct {
	unsigned long unused;
};
#endif
