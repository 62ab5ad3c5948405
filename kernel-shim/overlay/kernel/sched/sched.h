/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's stand-in for the kernel's kernel/sched/sched.h, found first by
 * the quoted #include "sched.h" of
 * kernel-shim/kernel/kshim_sched_utility.c (its -iquote order puts
 * BUILDDIR/kernel-overlay/kernel/sched before the tree's kernel/sched;
 * see scripts/build/tree.py). The real file is the
 * scheduler core: run queues, scheduling classes, PELT, bandwidth, cgroups.
 * kshim has no run queues (tasks are threads, kshim_task.c), so this one
 * declares only what the real completion.c, swait.c, wait_bit.c and wait.c
 * use of it:
 *
 *  - the kernel headers they reach through the real sched.h: wait queues,
 *    simple wait queues, wait_bit, completions, kthread (wait_woken()'s
 *    kthread_should_stop_or_park()), hash (bit_waitqueue()), sched/debug
 *    (the __sched section attribute) and the poll masks of
 *    __wake_up_pollfree() (EPOLLHUP, POLLFREE);
 *  - the wake flags WF_* with the kernel's values (kshim's
 *    try_to_wake_up() ignores them: no CPU selection, no sync wake-ups);
 *  - the kernel's declarations of try_to_wake_up() (kshim_task.c),
 *    swake_up_all_locked() and __prepare_to_swait() (the real swait.c).
 *
 * wait_bit_init() (__init, declared in linux/wait_bit.h) is called by
 * kshim_runtime_init(), as start_kernel() -> sched_init() does.
 */
#ifndef _KERNEL_SCHED_SCHED_H
#define _KERNEL_SCHED_SCHED_H

#include <linux/sched.h>
#include <linux/sched/debug.h>
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/wait_bit.h>
#include <linux/swait.h>
#include <linux/completion.h>
#include <uapi/linux/eventpoll.h>	/* EPOLLHUP */
#include <uapi/linux/poll.h>		/* POLLFREE */

/* Wake flags. The first three directly map to some SD flag value */
#define WF_EXEC			0x02 /* Wakeup after exec; maps to SD_BALANCE_EXEC */
#define WF_FORK			0x04 /* Wakeup after fork; maps to SD_BALANCE_FORK */
#define WF_TTWU			0x08 /* Wakeup;            maps to SD_BALANCE_WAKE */

#define WF_SYNC			0x10 /* Waker goes to sleep after wakeup */
#define WF_MIGRATED		0x20 /* Internal use, task got migrated */
#define WF_CURRENT_CPU		0x40 /* Prefer to move the wakee to the current CPU. */
#define WF_RQ_SELECTED		0x80 /* ->select_task_rq() was called */

extern void swake_up_all_locked(struct swait_queue_head *q);
extern void __prepare_to_swait(struct swait_queue_head *q, struct swait_queue *wait);

extern int try_to_wake_up(struct task_struct *tsk, unsigned int state, int wake_flags);

#endif
