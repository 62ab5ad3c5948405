// SPDX-License-Identifier: GPL-2.0
/*
 * Completions without timeouts, for issue 2's code (shrinker_free() waits
 * for the last shrinker_put()). The waiter blocks in the backend on the
 * "done" count itself; complete_all() sets it to UINT_MAX as the kernel
 * does. Timed waits belong to the task runtime and abort until it exists.
 * Lost against kernel/sched/completion.c: FIFO wake order of waiters.
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/swait.h>
#include <linux/sched.h>
#include <kshim/sched.h>
#include <kshim/runtime.h>

void __init_swait_queue_head(struct swait_queue_head *q, const char *name,
			     struct lock_class_key *key)
{
	raw_spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->task_list);
}

void complete(struct completion *x)
{
	u32 old = __atomic_load_n(&x->done, __ATOMIC_RELAXED);

	while (old != UINT_MAX &&
	       !__atomic_compare_exchange_n(&x->done, &old, old + 1, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
	kshim_wake(&x->done, 1);
}

void complete_on_current_cpu(struct completion *x)
{
	complete(x);
}

void complete_all(struct completion *x)
{
	__atomic_store_n(&x->done, UINT_MAX, __ATOMIC_SEQ_CST);
	kshim_wake(&x->done, INT_MAX);
}

bool try_wait_for_completion(struct completion *x)
{
	u32 old = __atomic_load_n(&x->done, __ATOMIC_RELAXED);

	while (old) {
		if (old == UINT_MAX)
			return true;
		if (__atomic_compare_exchange_n(&x->done, &old, old - 1, 0,
						__ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED))
			return true;
	}
	return false;
}

bool completion_done(struct completion *x)
{
	return __atomic_load_n(&x->done, __ATOMIC_SEQ_CST) != 0;
}

void wait_for_completion(struct completion *x)
{
	might_sleep();
	while (!try_wait_for_completion(x))
		kshim_wait(&x->done, 0, "completion");
}

void wait_for_completion_io(struct completion *x)
{
	wait_for_completion(x);
}

/* No signals are ever delivered to kshim tasks. */
int wait_for_completion_interruptible(struct completion *x)
{
	wait_for_completion(x);
	return 0;
}

int wait_for_completion_killable(struct completion *x)
{
	wait_for_completion(x);
	return 0;
}
