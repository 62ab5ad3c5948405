/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/sched/signal.h: the real one is the signal machinery
 * (signal_struct, sighand_struct, the uapi/arch signal frames) and reads
 * task_struct fields kshim's task does not have. kshim tasks never get
 * signals: signal_pending() and friends are 0 (linux/sched.h), which is
 * what this header offers the compiled code.
 */
#ifndef _LINUX_SCHED_SIGNAL_H
#define _LINUX_SCHED_SIGNAL_H

#include <linux/sched.h>
/* The real one reaches it through linux/sched/task.h; linux/fs.h relies
 * on that (get_user()). */
#include <linux/uaccess.h>
/* The real one includes it: kernel_siginfo_t and the sigset helpers
 * (linux/compat.h relies on them). */
#include <linux/signal.h>
#include <uapi/linux/resource.h>

/* No process has resource limits in kshim: every limit is unlimited. */
static inline unsigned long task_rlimit(const struct task_struct *task,
					unsigned int limit)
{
	return RLIM_INFINITY;
}
static inline unsigned long rlimit(unsigned int limit)
{
	return RLIM_INFINITY;
}

/* kshim tasks get no signals: loud (kshim_stubs_vfs.c). With no
 * resource limits, inode_newsize_ok() never sends SIGXFSZ. */
int send_sig(int sig, struct task_struct *p, int priv);

/* No process list: every kshim task is a process of one thread, on
 * kshim's own task list. The only walk over all processes compiled is
 * fs/fs_struct.c's chroot_fs_refs(), for pivot_root(), which no kshim
 * path reaches: the walk aborts with its name. */
void __noreturn kshim_unimplemented(const char *func);
#define for_each_process_thread(p, t)					\
	for ((p) = (t) = NULL,						\
	     kshim_unimplemented("for_each_process_thread (no process list)"); \
	     (t);)

/* The real header's: task_work.c's TWA_SIGNAL notification. */
static inline bool __set_notify_signal(struct task_struct *task)
{
	return !test_and_set_tsk_thread_flag(task, TIF_NOTIFY_SIGNAL) &&
	       !wake_up_state(task, TASK_INTERRUPTIBLE);
}

static inline void set_notify_signal(struct task_struct *task)
{
	if (__set_notify_signal(task))
		kick_process(task);
}

#endif
