// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel threads with kernel/kthread.c's contract: a new kthread sleeps
 * until its first wake-up; kthread_stop() makes kthread_should_stop()
 * true, wakes the thread, waits for threadfn to return and returns its
 * value (-EINTR if it never ran); park/unpark stop a thread at
 * kthread_parkme(). Each kthread is a kshim task. Lost: kthreadd, cpusets
 * and affinity masks (kthread_bind() only sets the simulated CPU),
 * kthread_exit() from inside threadfn, the freezer (CONFIG_FREEZER is off).
 */
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/err.h>
#include <kshim/sched.h>
#include <kshim/runtime.h>
#include "kshim_internal.h"

struct kthread {
	int (*threadfn)(void *);
	void *data;
	bool should_stop;
	bool should_park;
	struct completion parked;
	struct completion exited;
	int result;
	struct task_struct *task;
};

static struct kthread *to_kthread(struct task_struct *k)
{
	struct kthread *kt = k->worker_private;

	/*
	 * Only kthread_create_on_node() gives a task a worker_private, and
	 * its struct kthread names the task. k->flags is not read: it is the
	 * kthread's own word, changed without a lock by the kthread itself
	 * (memalloc_nofs_save() in xfsaild) while another task stops it.
	 */
	if (!kt || kt->task != k)
		kshim_fatal("%s is not a kthread", k->comm);
	return kt;
}

static void kthread_main(void *arg)
{
	struct kthread *kt = arg;

	/* Created sleeping: run only once woken (or stopped). */
	schedule();
	if (READ_ONCE(kt->should_stop))
		kt->result = -EINTR;
	else
		kt->result = kt->threadfn(kt->data);
	complete(&kt->exited);
}

struct task_struct *kthread_create_on_node(int (*threadfn)(void *data),
					   void *data, int node,
					   const char namefmt[], ...)
{
	struct kthread *kt = kzalloc(sizeof(*kt), GFP_KERNEL);
	struct task_struct *t;
	char name[TASK_COMM_LEN];
	va_list ap;

	if (!kt)
		return ERR_PTR(-ENOMEM);
	va_start(ap, namefmt);
	vsnprintf(name, sizeof(name), namefmt, ap);
	va_end(ap);
	kt->threadfn = threadfn;
	kt->data = data;
	init_completion(&kt->parked);
	init_completion(&kt->exited);
	t = kshim_task_create_ex(kthread_main, kt, name, -1,
				 TASK_UNINTERRUPTIBLE, PF_KTHREAD, kt);
	kt->task = t;
	return t;
}

struct task_struct *kthread_create_on_cpu(int (*threadfn)(void *data),
					  void *data, unsigned int cpu,
					  const char *namefmt)
{
	struct task_struct *t = kthread_create_on_node(threadfn, data, 0,
						       namefmt, cpu);

	if (!IS_ERR(t))
		kthread_bind(t, cpu);
	return t;
}

void kthread_bind(struct task_struct *k, unsigned int cpu)
{
	if (cpu >= nr_cpu_ids)
		kshim_fatal("kthread_bind(%s, %u): no such CPU", k->comm, cpu);
	k->thread_info.cpu = cpu;
	k->kshim->bound = true;
}

bool kthread_should_stop(void)
{
	struct kthread *kt = current->worker_private;

	return kt && READ_ONCE(kt->should_stop);
}

bool kthread_should_park(void)
{
	struct kthread *kt = current->worker_private;

	return kt && READ_ONCE(kt->should_park);
}

bool kthread_should_stop_or_park(void)
{
	return kthread_should_stop() || kthread_should_park();
}

bool kthread_freezable_should_stop(bool *was_frozen)
{
	if (was_frozen)
		*was_frozen = false;
	return kthread_should_stop();
}

void *kthread_data(struct task_struct *k)
{
	return to_kthread(k)->data;
}

void *kthread_func(struct task_struct *k)
{
	return to_kthread(k)->threadfn;
}

void kthread_parkme(void)
{
	struct kthread *kt = to_kthread(current);

	for (;;) {
		set_current_state(TASK_PARKED);
		if (!READ_ONCE(kt->should_park))
			break;
		complete(&kt->parked);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

int kthread_park(struct task_struct *k)
{
	struct kthread *kt = to_kthread(k);

	if (completion_done(&kt->exited))
		return -ENOSYS;
	WRITE_ONCE(kt->should_park, true);
	if (k != current) {
		wake_up_process(k);
		wait_for_completion(&kt->parked);
	}
	return 0;
}

void kthread_unpark(struct task_struct *k)
{
	struct kthread *kt = to_kthread(k);

	if (!READ_ONCE(kt->should_park))
		return;
	reinit_completion(&kt->parked);
	WRITE_ONCE(kt->should_park, false);
	wake_up_state(k, TASK_PARKED);
}

int kthread_stop(struct task_struct *k)
{
	struct kthread *kt = to_kthread(k);
	int ret;

	WRITE_ONCE(kt->should_stop, true);
	kthread_unpark(k);
	wake_up_process(k);
	wait_for_completion(&kt->exited);
	ret = kt->result;
	kshim_task_join(k);
	kfree(kt);
	return ret;
}

int kthread_stop_put(struct task_struct *k)
{
	return kthread_stop(k);
}

void kthread_exit(long result)
{
	kshim_unimplemented(__func__);
}
