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
	/* Time advances only when every task is blocked (deterministic). */
	bool virtual_time;
	/* Block the current task while *word == val (spurious returns ok). */
	void (*wait)(u32 *word, u32 val, const char *what);
	/* The same for at most ns of the backend's clock; false on timeout. */
	bool (*wait_timeout)(u32 *word, u32 val, u64 ns, const char *what);
	/* Wake up to nr tasks blocked in wait() on word. */
	void (*wake)(u32 *word, int nr);
	/* A place where another task may run. */
	void (*switch_point)(enum kshim_switch_reason why, const void *obj);
	/* The backend's clock, and a busy-wait of ns on it (udelay()). */
	u64 (*clock_ns)(void);
	void (*spin_ns)(u64 ns);
	/* Run kshim_task_body(t's kshim task) as a new task, end it after. */
	int (*task_start)(struct task_struct *t);
	/* Wait until t has ended; its memory is freed by the caller. */
	void (*task_join)(struct task_struct *t);
	/* The calling host thread becomes t / stops being a task. */
	void (*task_adopt)(struct task_struct *t);
	void (*task_forget)(struct task_struct *t);
	/* RCU read-side sections and grace periods. */
	void (*rcu_read_lock)(void);
	void (*rcu_read_unlock)(void);
	void (*synchronize_rcu)(void);
};

extern const struct kshim_sched_ops *kshim_sched;
extern const struct kshim_sched_ops kshim_sched_parallel;

/*
 * What a blocked task waits for: a sleeping lock, a wait queue, a
 * completion... (SLEEP), a contended spinlock (SPIN), which kshim
 * sleeps on instead of spinning but which the kernel spins on, or a
 * simulated CPU another task holds in an atomic section (CPU).
 */
enum kshim_wait_kind {
	KSHIM_WAIT_SLEEP,
	KSHIM_WAIT_SPIN,
	KSHIM_WAIT_CPU,		/* for a simulated CPU: a run-queue wait */
};

/*
 * An observer of every wait, when set (NULL by default: one load per
 * wait). The memory-pressure model (kshim/vmscan.h) uses it to find
 * tasks that sleep inside reclaim. begin() runs in the task about to
 * block; its result is handed to end() when the wait returns.
 */
struct kshim_wait_observer {
	u64 (*begin)(const char *what, enum kshim_wait_kind kind);
	void (*end)(u64 cookie);
};
extern const struct kshim_wait_observer *kshim_wait_observer;

static inline void kshim_wait_as(u32 *word, u32 val, const char *what,
				 enum kshim_wait_kind kind)
{
	const struct kshim_wait_observer *o = __atomic_load_n(&kshim_wait_observer, __ATOMIC_RELAXED);
	u64 cookie;

	if (likely(!o)) {
		kshim_sched->wait(word, val, what);
		return;
	}
	cookie = o->begin(what, kind);
	kshim_sched->wait(word, val, what);
	o->end(cookie);
}
static inline void kshim_wait(u32 *word, u32 val, const char *what)
{
	kshim_wait_as(word, val, what, KSHIM_WAIT_SLEEP);
}
static inline bool kshim_wait_timeout(u32 *word, u32 val, u64 ns,
				      const char *what)
{
	const struct kshim_wait_observer *o = __atomic_load_n(&kshim_wait_observer, __ATOMIC_RELAXED);
	u64 cookie;
	bool woken;

	if (likely(!o))
		return kshim_sched->wait_timeout(word, val, ns, what);
	cookie = o->begin(what, KSHIM_WAIT_SLEEP);
	woken = kshim_sched->wait_timeout(word, val, ns, what);
	o->end(cookie);
	return woken;
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
struct task_struct *kshim_task_create_ex(void (*fn)(void *), void *arg,
					 const char *name, int cpu,
					 unsigned int state,
					 unsigned int pf_flags,
					 void *worker_private);

/* The kshim clock in ns since start (kshim_time.c). */
u64 kshim_clock_ns(void);

/* Simulated CPUs: nr_cpu_ids, from KSHIM_NCPUS (default at build time). */
void kshim_cpus_init(void);
void kshim_cpu_claim(int cpu);
bool kshim_cpu_try_claim(int cpu);
void kshim_cpu_release(int cpu);
/* The task holding CPU for an atomic section, or NULL. */
struct task_struct *kshim_cpu_holder(int cpu);
/*
 * The interrupt window of a held CPU: its owner spins (cpu_relax()) with
 * interrupts on, so an interrupt may run there, as on a real CPU, and
 * the owner goes on only after it. Opened and closed by the owner; an
 * interrupt borrows the CPU through an open window and returns it.
 */
void kshim_cpu_open_irq_window(int cpu);
void kshim_cpu_close_irq_window(int cpu);
bool kshim_cpu_try_borrow(int cpu);
void kshim_cpu_return(int cpu);
/*
 * The calling task stands for an interrupt (the timer tick, a disk's
 * completions): its atomic sections are not held off by a task that only
 * disabled preemption on its CPU, as an interrupt is not. When its CPU
 * is taken it runs them on another free CPU, or on a CPU whose owner
 * spins with interrupts on (kshim_task.c).
 */
void kshim_task_set_interrupt(void);

/* The deterministic backend's choices start over as from SEED
 * (kshim_sched_det.c); nothing in the parallel backend. */
void kshim_det_reseed(u64 seed);

#endif
