/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/thread_info.h: thread_info sits at the start of task_struct
 * (CONFIG_THREAD_INFO_IN_TASK). Only the flag word is kept; there are no
 * kernel stacks, signals or syscalls.
 */
#ifndef _KSHIM_ASM_THREAD_INFO_H
#define _KSHIM_ASM_THREAD_INFO_H

struct thread_info {
	unsigned long flags;
	unsigned long syscall_work;
	u32 cpu;
};

#define INIT_THREAD_INFO(tsk)	{ .flags = 0 }
#define THREAD_SIZE		(16 * 1024)

#define TIF_NOTIFY_RESUME	1
#define TIF_SIGPENDING		2
#define TIF_NEED_RESCHED	3
#define TIF_NOTIFY_SIGNAL	4
#define TIF_MEMDIE		5
#define TIF_POLLING_NRFLAG	6
#define TIF_NEED_RESCHED_LAZY	7

#define _TIF_NOTIFY_RESUME	(1 << TIF_NOTIFY_RESUME)
#define _TIF_SIGPENDING		(1 << TIF_SIGPENDING)
#define _TIF_NEED_RESCHED	(1 << TIF_NEED_RESCHED)
#define _TIF_NOTIFY_SIGNAL	(1 << TIF_NOTIFY_SIGNAL)
#define _TIF_POLLING_NRFLAG	(1 << TIF_POLLING_NRFLAG)

#endif
