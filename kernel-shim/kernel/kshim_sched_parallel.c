// SPDX-License-Identifier: GPL-2.0
/*
 * The parallel backend: every task is a host thread running truly
 * concurrently; blocking is a futex wait, switch points are nothing (the
 * host scheduler preempts anywhere), time is the host's monotonic clock,
 * RCU is liburcu. For ThreadSanitizer, valgrind and raw stress; not
 * reproducible.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <kshim/host.h>
#include <kshim/sched.h>
#include "kshim_internal.h"

/* What the hung-task watchdog reads (kshim_hung_task.c). */
static struct kshim_task *blocking(const char *what)
{
	struct task_struct *t = kshim_host_tls_get();
	struct kshim_task *kt = t ? t->kshim : NULL;

	if (kt) {
		WRITE_ONCE(kt->blocked_on, what);
		WRITE_ONCE(kt->blocked_since, kshim_host_clock_ns());
	}
	return kt;
}

static void unblocked(struct kshim_task *kt)
{
	if (kt)
		WRITE_ONCE(kt->blocked_since, 0);
}

static void parallel_wait(u32 *word, u32 val, const char *what)
{
	struct kshim_task *kt = blocking(what);

	kshim_host_futex_wait(word, val);
	unblocked(kt);
}

static bool parallel_wait_timeout(u32 *word, u32 val, u64 ns,
				  const char *what)
{
	struct kshim_task *kt = blocking(what);
	bool woken;

	if (kt)
		WRITE_ONCE(kt->timed_sleep, true);
	woken = kshim_host_futex_wait_timeout(word, val, ns);
	if (kt)
		WRITE_ONCE(kt->timed_sleep, false);
	unblocked(kt);
	return woken;
}

static void parallel_wake(u32 *word, int nr)
{
	kshim_host_futex_wake(word, nr);
}

static void parallel_switch_point(enum kshim_switch_reason why,
				  const void *obj)
{
	/* Busy-wait loops must let the task they wait for run. */
	if (why == KSHIM_SW_CPU_RELAX)
		kshim_host_yield();
}

static u64 parallel_clock_ns(void)
{
	return kshim_host_clock_ns();
}

static void parallel_spin_ns(u64 ns)
{
	u64 end = kshim_host_clock_ns() + ns;

	while (kshim_host_clock_ns() < end)
		kshim_host_yield();
}

static void thread_main(void *arg)
{
	struct kshim_task *kt = arg;

	kshim_host_tls_set(&kt->task);
	kshim_host_rcu_register();
	kshim_task_body(kt);
	kshim_host_rcu_unregister();
	kshim_host_tls_set(NULL);
}

static int parallel_task_start(struct task_struct *t)
{
	unsigned long id;
	int err = kshim_host_thread_start(thread_main, t->kshim, &id);

	if (!err)
		t->kshim->backend = (void *)id;
	return err;
}

static void parallel_task_join(struct task_struct *t)
{
	kshim_host_thread_join((unsigned long)t->kshim->backend);
}

static void parallel_task_adopt(struct task_struct *t)
{
	kshim_host_tls_set(t);
	kshim_host_rcu_register();
}

static void parallel_task_forget(struct task_struct *t)
{
	kshim_host_rcu_unregister();
	kshim_host_tls_set(NULL);
}

const struct kshim_sched_ops kshim_sched_parallel = {
	.name		= "parallel",
	.virtual_time	= false,
	.wait		= parallel_wait,
	.wait_timeout	= parallel_wait_timeout,
	.wake		= parallel_wake,
	.switch_point	= parallel_switch_point,
	.clock_ns	= parallel_clock_ns,
	.spin_ns	= parallel_spin_ns,
	.task_start	= parallel_task_start,
	.task_join	= parallel_task_join,
	.task_adopt	= parallel_task_adopt,
	.task_forget	= parallel_task_forget,
	.rcu_read_lock	= kshim_host_rcu_read_lock,
	.rcu_read_unlock = kshim_host_rcu_read_unlock,
	.synchronize_rcu = kshim_host_synchronize_rcu,
};

const struct kshim_sched_ops *kshim_sched = &kshim_sched_parallel;
/* kshim/sched.h: nobody observes waits until a test sets it. */
const struct kshim_wait_observer *kshim_wait_observer;
