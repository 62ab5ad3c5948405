/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/current.h: the current kshim task. A thread that calls into
 * kernel code without being a kshim task (the test's main thread, a
 * liburcu helper) is adopted as one on first use (kshim_task.c).
 */
#ifndef _KSHIM_ASM_CURRENT_H
#define _KSHIM_ASM_CURRENT_H
struct task_struct;
struct task_struct *kshim_current(void);
#define get_current()	kshim_current()
#define current		kshim_current()
#endif
