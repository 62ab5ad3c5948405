/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/sched.h: a task_struct with the fields the compiled kernel
 * code reads (flags, comm, pid, journal_info, reclaim_state, ...) plus
 * kshim's own state, and the sleep/wake API, implemented by the task
 * runtime (kshim_task.c and the scheduler backend). Constants keep the
 * kernel's values. Lost: signals (never pending), cgroups, the real
 * scheduler's policies; see docs/FAKES.md.
 */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/thread_info.h>
#include <linux/preempt.h>
#include <linux/list.h>
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/smp.h>
#include <linux/timer.h>	/* the kernel's sched.h reaches it too (kthread.h relies on it) */
#include <asm/current.h>
#include <uapi/linux/sched.h>	/* SCHED_* policies */
#include <linux/sched/prio.h>
#include <linux/plist_types.h>	/* as the real one: swap.h relies on it */
#include <linux/spinlock_types.h>
#include <linux/refcount_types.h>
#include <asm/processor.h>	/* struct thread_struct */
#include <linux/task_io_accounting.h>	/* as the real one: task_io_accounting_ops.h relies on it */

/*
 * Named at file scope by the real task_struct's members and the headers
 * the real sched.h pulls in; prototypes in fs/internal.h and
 * linux/syscalls.h rely on it (else each is a new, parameter-local type).
 */
struct files_struct;
struct ipc_namespace;

#define TASK_RUNNING			0x00000000
#define TASK_INTERRUPTIBLE		0x00000001
#define TASK_UNINTERRUPTIBLE		0x00000002
#define __TASK_STOPPED			0x00000004
#define __TASK_TRACED			0x00000008
#define EXIT_DEAD			0x00000010
#define EXIT_ZOMBIE			0x00000020
#define EXIT_TRACE			(EXIT_ZOMBIE | EXIT_DEAD)
#define TASK_PARKED			0x00000040
#define TASK_DEAD			0x00000080
#define TASK_WAKEKILL			0x00000100
#define TASK_WAKING			0x00000200
#define TASK_NOLOAD			0x00000400
#define TASK_NEW			0x00000800
#define TASK_RTLOCK_WAIT		0x00001000
#define TASK_FREEZABLE			0x00002000
#define __TASK_FREEZABLE_UNSAFE		0
#define TASK_FROZEN			0x00008000
#define TASK_STATE_MAX			0x00010000
#define TASK_ANY			(TASK_STATE_MAX-1)
#define TASK_FREEZABLE_UNSAFE		(TASK_FREEZABLE | __TASK_FREEZABLE_UNSAFE)
#define TASK_KILLABLE			(TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_STOPPED			(TASK_WAKEKILL | __TASK_STOPPED)
#define TASK_TRACED			__TASK_TRACED
#define TASK_IDLE			(TASK_UNINTERRUPTIBLE | TASK_NOLOAD)
#define TASK_NORMAL			(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

#define PF_VCPU			0x00000001
#define PF_IDLE			0x00000002
#define PF_EXITING		0x00000004
#define PF_POSTCOREDUMP		0x00000008
#define PF_IO_WORKER		0x00000010
#define PF_WQ_WORKER		0x00000020
#define PF_FORKNOEXEC		0x00000040
#define PF_MCE_PROCESS		0x00000080
#define PF_SUPERPRIV		0x00000100
#define PF_DUMPCORE		0x00000200
#define PF_SIGNALED		0x00000400
#define PF_MEMALLOC		0x00000800
#define PF_NPROC_EXCEEDED	0x00001000
#define PF_USED_MATH		0x00002000
#define PF_USER_WORKER		0x00004000
#define PF_NOFREEZE		0x00008000
#define PF_KCOMPACTD		0x00010000
#define PF_KSWAPD		0x00020000
#define PF_MEMALLOC_NOFS	0x00040000
#define PF_MEMALLOC_NOIO	0x00080000
#define PF_LOCAL_THROTTLE	0x00100000
#define PF_KTHREAD		0x00200000
#define PF_RANDOMIZE		0x00400000
#define PF_NO_NOTIFY_SIGNAL	0x00800000
#define PF_NO_SETAFFINITY	0x04000000
#define PF_MCE_EARLY		0x08000000
#define PF_MEMALLOC_PIN		0x10000000
#define PF_BLOCK_TS		0x20000000
#define PF_SUSPEND_TASK		0x80000000

#define SCHED_FIXEDPOINT_SHIFT	10
#define SCHED_FIXEDPOINT_SCALE	(1L << SCHED_FIXEDPOINT_SHIFT)
#define SCHED_CAPACITY_SHIFT	SCHED_FIXEDPOINT_SHIFT
#define SCHED_CAPACITY_SCALE	(1L << SCHED_CAPACITY_SHIFT)

#define TASK_COMM_LEN		16
#define MAX_SCHEDULE_TIMEOUT	LONG_MAX

struct reclaim_state;
struct blk_plug;
struct kshim_task;
struct mm_struct;
struct cred;
struct io_context;

struct task_struct {
	struct thread_info	thread_info;	/* first: current_thread_info() */
	unsigned int		__state;
	unsigned int		flags;
	pid_t			pid;
	pid_t			tgid;		/* == pid: every task is a thread group leader */
	int			prio;
	int			static_prio;	/* DEFAULT_PRIO: task_nice() is 0 */
	unsigned int		policy;		/* SCHED_NORMAL */
	char			comm[TASK_COMM_LEN];
	void			*journal_info;
	struct reclaim_state	*reclaim_state;
	struct blk_plug		*plug;
	/* block/bio.c reads it: bios queued by a ->submit_bio() recursion.
	 * kshim's submit_bio() never recurses into a driver, so NULL. */
	struct bio_list		*bio_list;
	struct mm_struct	*mm;
	int			rcu_read_lock_nesting;
	void			*worker_private;	/* struct kthread */
	struct kshim_task	*kshim;		/* runtime-private state */
	/* Read by the real linux/pid.h inlines; kshim has no struct pid
	 * (NULL) and no process tree (real_parent is the task itself). */
	struct pid		*thread_pid;
	struct task_struct __rcu *real_parent;
	/* Read by the real linux/cred.h and linux/ioprio.h inlines. Every
	 * task has kshim's root credentials (kshim_task.c) and no I/O
	 * context (default I/O priority). */
	const struct cred __rcu	*real_cred;
	const struct cred __rcu	*cred;
	const struct cred __rcu	*ptracer_cred;	/* nothing traces: NULL */
	struct io_context	*io_context;
	spinlock_t		alloc_lock;
	int			pagefault_disabled;	/* linux/uaccess.h */
	/* linux/sched/task.h's get_task_struct()/put_task_struct(): 1 while
	 * the runtime owns the task; dropping to 0 is a bug (kshim_task.c). */
	refcount_t		usage;
	struct rcu_head		rcu;
	void			*stack;
	refcount_t		stack_refcount;	/* linux/sched/task_stack.h */
	struct thread_struct	thread;		/* asm/processor.h */
	unsigned int		personality;	/* linux/personality.h */
	/* mm/page-writeback.c's per-task dirty throttling state */
	int			nr_dirtied;
	int			nr_dirtied_pause;
	unsigned long		dirty_paused_when;
	/* fs/namei.c's path walk state and the task's root, cwd and umask
	 * (fs_struct), and its namespaces: kshim/vfs.h never walks a path,
	 * so NULL (a path walk would crash on them). */
	struct nameidata	*nameidata;
	struct fs_struct	*fs;
	struct files_struct	*files;		/* no descriptor table either */
	struct nsproxy		*nsproxy;
	/* kernel/task_work.c's list: fput() defers the last close of a
	 * file to it; kshim/vfs.h runs it where a system call would return
	 * to user space. */
	struct callback_head	*task_works;
	raw_spinlock_t		pi_lock;	/* task_work.c's cancel takes it */
};

/* The real linux/sched.h's per-task thread-flag helpers. */
#define set_tsk_thread_flag(tsk, flag) \
	set_ti_thread_flag(&(tsk)->thread_info, flag)
#define clear_tsk_thread_flag(tsk, flag) \
	clear_ti_thread_flag(&(tsk)->thread_info, flag)
#define test_and_set_tsk_thread_flag(tsk, flag) \
	test_and_set_ti_thread_flag(&(tsk)->thread_info, flag)
#define test_and_clear_tsk_thread_flag(tsk, flag) \
	test_and_clear_ti_thread_flag(&(tsk)->thread_info, flag)
#define test_tsk_thread_flag(tsk, flag) \
	test_ti_thread_flag(&(tsk)->thread_info, flag)
/* kernel/pid.c: capget() and friends find tasks by number (loud:
 * kshim has no pid table). */
struct task_struct *find_task_by_vpid(pid_t nr);

/* kernel/sched/core.c: makes a task running in user mode enter the
 * kernel. No kshim task is ever in user mode: nothing to do. */
static inline void kick_process(struct task_struct *tsk) { }

/* kernel/sched/core.c: kswapd binds itself to its node's CPUs. kshim's
 * schedulers place no task on a CPU by affinity (one node, and the
 * deterministic backend picks the next task from the seed): a no-op. */
struct cpumask;
static inline int set_cpus_allowed_ptr(struct task_struct *p,
				       const struct cpumask *new_mask)
{
	return 0;
}

#define task_cpu(p)		((p)->thread_info.cpu)
#define task_nice(p)		PRIO_TO_NICE((p)->static_prio)
#define task_is_running(t)	(READ_ONCE((t)->__state) == TASK_RUNNING)
/* As the kernel's: the copy, then BUF (callers print it with %s). */
#define get_task_comm(buf, tsk)	\
	({ strscpy(buf, (tsk)->comm, sizeof(buf)); (char *)(buf); })

void kshim_set_task_state(unsigned int state);
#define __set_current_state(s)	WRITE_ONCE(current->__state, (s))
#define set_current_state(s)	kshim_set_task_state(s)
#define set_special_state(s)	kshim_set_task_state(s)

void schedule(void);
void io_schedule(void);
long schedule_timeout(long timeout);
long schedule_timeout_interruptible(long timeout);
long schedule_timeout_killable(long timeout);
long schedule_timeout_uninterruptible(long timeout);
long schedule_timeout_idle(long timeout);
long io_schedule_timeout(long timeout);
void schedule_preempt_disabled(void);
int wake_up_process(struct task_struct *tsk);
int wake_up_state(struct task_struct *tsk, unsigned int state);
void yield(void);
int kshim_cond_resched(void);
#define cond_resched()		kshim_cond_resched()
#define need_resched()		false
struct spinlock;
int __cond_resched_lock(struct spinlock *lock);
#define cond_resched_lock(lock)	__cond_resched_lock(lock)
#define sched_clock()		ktime_get_ns()

/* No signals are ever delivered to kshim tasks. */
#define signal_pending(p)		0
#define fatal_signal_pending(p)		0
#define signal_pending_state(s, p)	0
#define __fatal_signal_pending(p)	0

/* Memory allocation profiling is off. */
#define alloc_tag_save(_tag)			NULL
#define alloc_tag_restore(_tag, _old)		do { } while (0)

#define io_schedule_prepare()		0
#define io_schedule_finish(token)	do { (void)(token); } while (0)

/* The real sched.h reaches pid.h too: task_pid_nr() and friends. */
#include <linux/pid.h>

#endif
