/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's scheduler interface: every primitive that blocks, wakes or may
 * switch tasks goes through these ops, so a backend is swapped in one
 * place. Today there is the parallel backend (real threads, futexes);
 * the deterministic backend (one task at a time, seeded choice at every
 * switch point) plugs in here without touching the callers.
 */
#ifndef _KSHIM_SCHED_H
#define _KSHIM_SCHED_H

#include <linux/types.h>

struct task_struct;

enum kshim_switch_reason {
	KSHIM_SW_LOCK_ACQUIRE,
	KSHIM_SW_LOCK_RELEASE,
	KSHIM_SW_COND_RESCHED,
	KSHIM_SW_CPU_RELAX,
	KSHIM_SW_WAKE,
};

struct kshim_sched_ops {
	const char *name;
	/* Block the current task while *word == val (spurious returns ok). */
	void (*wait)(u32 *word, u32 val, const char *what);
	/* Wake up to nr tasks blocked in wait() on word. */
	void (*wake)(u32 *word, int nr);
	/* A place where another task may run. */
	void (*switch_point)(enum kshim_switch_reason why, const void *obj);
	/* Let ns of the backend's clock pass for the current task. */
	void (*sleep_ns)(u64 ns);
	/* Start fn(arg) as a new task; returns 0 or -errno. */
	int (*task_start)(struct task_struct *t, void (*fn)(void *), void *arg);
	void (*task_join)(struct task_struct *t);
};

extern const struct kshim_sched_ops *kshim_sched;
extern const struct kshim_sched_ops kshim_sched_parallel;

static inline void kshim_wait(u32 *word, u32 val, const char *what)
{
	kshim_sched->wait(word, val, what);
}
static inline void kshim_wake(u32 *word, int nr)
{
	kshim_sched->wake(word, nr);
}
static inline void kshim_switch_point(enum kshim_switch_reason why,
				      const void *obj)
{
	kshim_sched->switch_point(why, obj);
}

/*
 * Tasks. kshim_task_run() starts a kernel task (its own thread in the
 * parallel backend) on simulated CPU cpu (-1: round robin) and
 * kshim_task_join() waits for it and frees it.
 */
struct task_struct *kshim_task_run(void (*fn)(void *), void *arg,
				   const char *name, int cpu);
void kshim_task_join(struct task_struct *t);
struct task_struct *kshim_task_create(void (*fn)(void *), void *arg,
				      const char *name, int cpu,
				      unsigned int state);

/* The kshim clock in ns since start (kshim_time.c). */
u64 kshim_clock_ns(void);

/* Simulated CPUs: nr_cpu_ids, from KSHIM_NCPUS (default at build time). */
void kshim_cpus_init(void);
void kshim_cpu_claim(int cpu);
void kshim_cpu_release(int cpu);

#endif
