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

#endif
