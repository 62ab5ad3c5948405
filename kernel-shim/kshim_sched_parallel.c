// SPDX-License-Identifier: GPL-2.0
/*
 * The parallel backend: every task is a host thread running truly
 * concurrently; blocking is a futex wait, switch points are nothing (the
 * host scheduler preempts anywhere). For ThreadSanitizer, valgrind and
 * raw stress; not reproducible.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <kshim/host.h>
#include <kshim/sched.h>

unsigned long kshim_task_thread(struct task_struct *t);
void kshim_task_set_thread(struct task_struct *t, unsigned long id);

static void parallel_wait(u32 *word, u32 val, const char *what)
{
	kshim_host_futex_wait(word, val);
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

static void parallel_sleep_ns(u64 ns)
{
	kshim_host_sleep_ns(ns);
}

static int parallel_task_start(struct task_struct *t, void (*fn)(void *),
			       void *arg)
{
	unsigned long id;
	int err = kshim_host_thread_start(fn, arg, &id);

	if (!err)
		kshim_task_set_thread(t, id);
	return err;
}

static void parallel_task_join(struct task_struct *t)
{
	kshim_host_thread_join(kshim_task_thread(t));
}

const struct kshim_sched_ops kshim_sched_parallel = {
	.name		= "parallel",
	.wait		= parallel_wait,
	.wake		= parallel_wake,
	.switch_point	= parallel_switch_point,
	.sleep_ns	= parallel_sleep_ns,
	.task_start	= parallel_task_start,
	.task_join	= parallel_task_join,
};

const struct kshim_sched_ops *kshim_sched = &kshim_sched_parallel;
