// SPDX-License-Identifier: GPL-2.0
/*
 * RCU: read-side sections and grace periods from the backend (liburcu in
 * the parallel backend, kshim_sched_det.c's in the deterministic one),
 * callbacks queued here and run by a kshim task
 * after a grace period, as the kernel's rcuc/rcuog kthreads would. Lost:
 * expedited grace periods are ordinary ones; no callback batching by CPU.
 */
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/completion.h>
#include <kshim/host.h>
#include <kshim/sched.h>
#include <kshim/runtime.h>

static struct rcu_head *cb_head;
static struct rcu_head **cb_tail = &cb_head;
static u32 cb_lock;
static u32 cb_queued;		/* futex word: callbacks ever queued */
static u32 cb_done;		/* futex word: callbacks ever run */
static bool cb_stop;
static struct task_struct *cb_task;

static void cb_lock_acquire(void)
{
	kshim_raw_lock(&cb_lock);
}

static void cb_lock_release(void)
{
	kshim_raw_unlock(&cb_lock);
}

void __rcu_read_lock(void)
{
	current->rcu_read_lock_nesting++;
	kshim_sched->rcu_read_lock();
}

void __rcu_read_unlock(void)
{
	current->rcu_read_lock_nesting--;
	kshim_sched->rcu_read_unlock();
}

void synchronize_rcu(void)
{
	might_sleep();
	if (current->rcu_read_lock_nesting)
		kshim_fatal("synchronize_rcu() inside an RCU read-side section");
	kshim_sched->synchronize_rcu();
}

void synchronize_rcu_expedited(void)
{
	synchronize_rcu();
}

/* The callback worker sleeps on cb_queued and must be woken. */
static u32 cb_worker_idle;
#define RCU_BATCH_NS	(1000 * 1000)	/* 1 ms */

void call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	head->func = func;
	head->next = NULL;
	cb_lock_acquire();
	*cb_tail = head;
	cb_tail = &head->next;
	cb_lock_release();
	__atomic_add_fetch(&cb_queued, 1, __ATOMIC_SEQ_CST);
	/* A worker gathering a batch picks this up without a wake-up. */
	if (__atomic_load_n(&cb_worker_idle, __ATOMIC_SEQ_CST))
		kshim_wake(&cb_queued, 1);
}

/*
 * kfree_rcu(): the kernel stores the object's offset from its rcu_head in
 * ->func (small values are offsets, see __is_kvfree_rcu_offset()).
 */
void kvfree_call_rcu(struct rcu_head *head, void *ptr)
{
	if (!head) {
		synchronize_rcu();
		kvfree(ptr);
		return;
	}
	call_rcu(head, (rcu_callback_t)((char *)head - (char *)ptr));
}

/*
 * With real time, let callbacks gather for a moment before a grace
 * period starts, as the kernel's grace periods (milliseconds) batch them:
 * one grace period per callback would cost a membarrier() IPI to every
 * CPU each time. Virtual time keeps the immediate start, so
 * deterministic schedules do not depend on a delay.
 */
static void rcu_gather_batch(void)
{
	u32 never = 0;

	kshim_wait_timeout(&never, 0, RCU_BATCH_NS, "rcu batch");
}

static void rcu_cb_worker(void *unused)
{
	for (;;) {
		u32 queued = __atomic_load_n(&cb_queued, __ATOMIC_SEQ_CST);
		struct rcu_head *list;
		u32 n = 0;

		cb_lock_acquire();
		list = cb_head;
		cb_head = NULL;
		cb_tail = &cb_head;
		cb_lock_release();
		if (!list) {
			if (READ_ONCE(cb_stop))
				return;
			__atomic_store_n(&cb_worker_idle, 1, __ATOMIC_SEQ_CST);
			if (__atomic_load_n(&cb_queued, __ATOMIC_SEQ_CST) == queued)
				kshim_wait(&cb_queued, queued, "rcu callbacks");
			__atomic_store_n(&cb_worker_idle, 0, __ATOMIC_SEQ_CST);
			if (!kshim_sched->virtual_time && !READ_ONCE(cb_stop))
				rcu_gather_batch();
			continue;
		}
		kshim_sched->synchronize_rcu();
		while (list) {
			struct rcu_head *next = list->next;
			unsigned long off = (unsigned long)list->func;

			if (off < 4096)
				kvfree((char *)list - off);
			else
				list->func(list);
			list = next;
			n++;
		}
		__atomic_add_fetch(&cb_done, n, __ATOMIC_SEQ_CST);
		kshim_wake(&cb_done, INT_MAX);
	}
}

/* Wait until every callback queued before the call has run. */
void rcu_barrier(void)
{
	u32 target = __atomic_load_n(&cb_queued, __ATOMIC_SEQ_CST);

	might_sleep();
	for (;;) {
		u32 done = __atomic_load_n(&cb_done, __ATOMIC_SEQ_CST);

		if ((s32)(done - target) >= 0)
			return;
		kshim_wait(&cb_done, done, "rcu_barrier");
	}
}

void kshim_rcu_init(void)
{
	cb_task = kshim_task_run(rcu_cb_worker, NULL, "rcu_cb", -1);
}

void kshim_rcu_exit(void)
{
	rcu_barrier();
	WRITE_ONCE(cb_stop, true);
	__atomic_add_fetch(&cb_queued, 1, __ATOMIC_SEQ_CST);
	kshim_wake(&cb_queued, 1);
	kshim_task_join(cb_task);
}
