/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the runtime's own files share and tests never see: the private
 * part of a task, and the start-up hooks of each runtime file.
 */
#ifndef _KSHIM_INTERNAL_H
#define _KSHIM_INTERNAL_H

#include <linux/sched.h>
#include <kshim/sched.h>

#define KSHIM_HELD_LOCKS_MAX	16

struct kshim_lock;

struct kshim_task {
	struct task_struct task;
	int preempt_count;
	bool irqs_off;
	bool cpu_owned;
	bool cpu_borrowed;	/* an interrupt on a CPU another task holds */
	bool adopted;		/* a host thread that was not started by kshim */
	bool interrupt;		/* kshim_task_set_interrupt() */
	/* kthread_bind(): a per-CPU kworker. It runs only while no other
	 * task holds its CPU (preemption or interrupts off), as on a real
	 * CPU; the det backend keeps to that (kshim_sched_det.c). */
	bool bound;
	void (*fn)(void *);
	void *arg;
	void *backend;		/* the scheduler backend's per-task state */
	/* For reports: the locks this task holds, and the one it waits for. */
	struct kshim_lock *held[KSHIM_HELD_LOCKS_MAX];
	unsigned long held_ip[KSHIM_HELD_LOCKS_MAX];	/* where taken */
	int nr_held;
	struct kshim_lock *waiting_for;
	/* Parallel backend: since when and on what the task is blocked. */
	u64 blocked_since;		/* 0: not blocked */
	const char *blocked_on;
	/* In a sleep with a timeout (schedule_timeout(), msleep()): it wakes
	 * by itself, so it is no hang in the making. */
	bool timed_sleep;
	unsigned long host_thread;	/* its host thread (parallel), for its stack */
	struct kshim_task *next_all;	/* every live task, for reports */
	struct kshim_task *prev_all;
};

/* Walk every live task (kshim_task.c keeps the list). */
void kshim_tasks_lock(void);
void kshim_tasks_unlock(void);
struct kshim_task *kshim_tasks_first(void);
bool kshim_task_live_locked(struct task_struct *t);
/* kshim_lock.c: "holds LOCK, taken at SITE" lines of a task, for reports. */
void kshim_lock_print_held(struct kshim_task *kt);
/* kshim_wait_object.c: what a task in schedule() waits for, from its
 * call chain ("a completion"...); NULL if it cannot be told. */
const char *kshim_wait_object(void *const *where, int n);
void kshim_hung_task_start(void);
void kshim_hung_task_stop(void);

static inline struct kshim_task *kshim_task_of(struct task_struct *t)
{
	return t->kshim;
}

/* kshim_task.c: the body every backend runs a task's fiber/thread with. */
void kshim_task_body(void *kshim_task);
/* Adopt the calling host thread as a task named name (kshim_runtime.c). */
struct task_struct *kshim_task_adopt(const char *name);

/* Start-up and exit of the runtime's parts, in kshim_runtime.c order. */
void kshim_seed_init(void);		/* lib/kshim_random.c */
void kshim_printk_init(void);
void kshim_slab_init(void);
/* Pages allocated on behalf of CALLER (named by the leak check). */
struct page *kshim_alloc_pages_caller(gfp_t gfp, unsigned int order,
				      unsigned long caller);
void kshim_page_alloc_init(void);
/* kshim_slab.c: count an allocation and decide whether to fail it. */
bool kshim_alloc_should_fail(gfp_t gfp);
void kshim_rcu_init(void);
void kshim_rcu_exit(void);
void kshim_time_init(void);
void kshim_time_exit(void);
/* The deterministic backend advanced virtual time: catch jiffies up. */
void kshim_time_update_jiffies(void);
/* Memory being freed holds no pending timer (kshim_time.c). */
void kshim_timer_check_free(const void *addr, size_t size);
long kshim_percpu_outstanding(void);
void kshim_cpuhp_run_dead_callbacks(void);
void kshim_percpu_mark_boot_done(void);
void kshim_alloc_mark_boot_done(void);
void kshim_page_mark_boot_done(void);
void kshim_task_forget_current(void);

/* Backends. */
extern const struct kshim_sched_ops kshim_sched_det;
void kshim_sched_select(void);
void kshim_det_print_summary(void);

#endif
