// SPDX-License-Identifier: GPL-2.0
/*
 * Wait queues, simple wait queues, completions and wait_bit/wait_var, all
 * the REAL kernel/sched/{wait,swait,completion,wait_bit}.c (compiled by
 * kernel-shim/kernel/kshim_sched_utility.c), driven by kshim tasks that are real
 * threads, plus the "set state, check, schedule()" protocol of kshim's
 * schedule()/try_to_wake_up() that all of them stand on.
 *
 * How the tests know a waiter is asleep: the waiter's condition is a
 * function that counts its false evaluations. The wait_event-style macros
 * (wait_event*, swait_event*, wait_var_event*) evaluate the condition once
 * before queueing (the fast path), then loop: queue and set the task state,
 * evaluate the condition, schedule() if it is false. So the second false
 * evaluation (ASLEEP) means queued and going to sleep, and each wake-up
 * with the condition still false adds one. kshim tasks are never woken
 * spuriously (schedule() returns only once a wake-up set the task
 * TASK_RUNNING), so such a waiter stays queued and asleep until a wake-up
 * picks it; the waiters a wake-up did not pick neither return nor look at
 * their condition again. Waiting for a state is done by polling with
 * schedule_timeout_uninterruptible(1), which does not use the code under
 * test; a poll gives up after 20 s and the test fails.
 *
 * A lost wake-up hangs a test instead of failing it: the meson timeout of
 * this binary is short for that reason.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include <linux/wait_bit.h>
#include <linux/swait.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>

#define BIG_TIMEOUT	(10 * HZ)	/* never expires in a passing test */
#define ASLEEP		2		/* false evaluations: see above */

/*
 * A timed wait ended by a wake-up returns the jiffies left: at most the
 * timeout, and here far more than half of it (a test wakes its waiters
 * within milliseconds; 1, "woken, but no time left", would be wrong).
 */
#define ASSERT_REMAINING(ret)						\
do {									\
	KSHIM_ASSERT((ret) > BIG_TIMEOUT / 2);				\
	KSHIM_ASSERT((ret) <= BIG_TIMEOUT);				\
} while (0)

/* Poll until cond holds (true) or 20 s passed (false). */
#define POLL_UNTIL(cond)						\
({									\
	unsigned long __end = READ_ONCE(jiffies) + 20 * HZ;		\
	bool __ok;							\
	while (!(__ok = (cond)) &&					\
	       time_before(READ_ONCE(jiffies), __end))			\
		schedule_timeout_uninterruptible(1);			\
	__ok;								\
})

static int wq_len(struct wait_queue_head *wq)
{
	unsigned long flags;
	int n;

	spin_lock_irqsave(&wq->lock, flags);
	n = list_count_nodes(&wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
	return n;
}

static int swq_len(struct swait_queue_head *q)
{
	unsigned long flags;
	int n;

	raw_spin_lock_irqsave(&q->lock, flags);
	n = list_count_nodes(&q->task_list);
	raw_spin_unlock_irqrestore(&q->lock, flags);
	return n;
}

/* x->done as completion.c's lockers see it. */
static unsigned int comp_done_count(struct completion *x)
{
	unsigned long flags;
	unsigned int done;

	raw_spin_lock_irqsave(&x->wait.lock, flags);
	done = x->done;
	raw_spin_unlock_irqrestore(&x->wait.lock, flags);
	return done;
}

static unsigned int task_state(struct task_struct *t)
{
	return READ_ONCE(t->__state);
}

/* ==== wait_event() and friends ========================================== */

static void test_wait_event_condition_already_true(void)
{
	DECLARE_WAIT_QUEUE_HEAD_ONSTACK(wq);
	int one = 1;

	wait_event(wq, READ_ONCE(one));
	/* True at once: the whole timeout is left; with 0 left, 1. */
	KSHIM_ASSERT_EQ(wait_event_timeout(wq, READ_ONCE(one), 7), 7);
	KSHIM_ASSERT_EQ(wait_event_timeout(wq, READ_ONCE(one), 0), 1);
	KSHIM_ASSERT_EQ(wait_event_interruptible(wq, READ_ONCE(one)), 0);
	KSHIM_ASSERT_EQ(wait_event_killable(wq, READ_ONCE(one)), 0);
	KSHIM_ASSERT_EQ(wait_event_interruptible_timeout(wq, READ_ONCE(one), 7), 7);
	KSHIM_ASSERT(!waitqueue_active(&wq));
	KSHIM_ASSERT_EQ(task_state(current), TASK_RUNNING);
}

enum wait_kind {
	WK_PLAIN,		/* wait_event */
	WK_INTERRUPTIBLE,	/* wait_event_interruptible */
	WK_KILLABLE,		/* wait_event_killable */
	WK_IDLE,		/* wait_event_idle */
	WK_TIMEOUT,		/* wait_event_timeout */
	WK_INTR_TIMEOUT,	/* wait_event_interruptible_timeout */
	WK_KILLABLE_TIMEOUT,	/* wait_event_killable_timeout */
	WK_NR
};

static const unsigned int wait_kind_state[WK_NR] = {
	[WK_PLAIN] = TASK_UNINTERRUPTIBLE,
	[WK_INTERRUPTIBLE] = TASK_INTERRUPTIBLE,
	[WK_KILLABLE] = TASK_KILLABLE,
	[WK_IDLE] = TASK_IDLE,
	[WK_TIMEOUT] = TASK_UNINTERRUPTIBLE,
	[WK_INTR_TIMEOUT] = TASK_INTERRUPTIBLE,
	[WK_KILLABLE_TIMEOUT] = TASK_KILLABLE,
};

struct one_waiter {
	struct wait_queue_head wq;
	enum wait_kind kind;
	int cond;
	atomic_t evals;		/* condition evaluations */
	atomic_t false_evals;
	long ret;
	int done;
};

static bool one_cond(struct one_waiter *w)
{
	bool c = READ_ONCE(w->cond);

	atomic_inc(&w->evals);
	if (!c)
		atomic_inc(&w->false_evals);
	return c;
}

static void one_waiter_fn(void *arg)
{
	struct one_waiter *w = arg;
	long ret = 0;

	switch (w->kind) {
	case WK_PLAIN:
		wait_event(w->wq, one_cond(w));
		break;
	case WK_INTERRUPTIBLE:
		ret = wait_event_interruptible(w->wq, one_cond(w));
		break;
	case WK_KILLABLE:
		ret = wait_event_killable(w->wq, one_cond(w));
		break;
	case WK_IDLE:
		wait_event_idle(w->wq, one_cond(w));
		break;
	case WK_TIMEOUT:
		ret = wait_event_timeout(w->wq, one_cond(w), BIG_TIMEOUT);
		break;
	case WK_INTR_TIMEOUT:
		ret = wait_event_interruptible_timeout(w->wq, one_cond(w),
						       BIG_TIMEOUT);
		break;
	case WK_KILLABLE_TIMEOUT:
		ret = wait_event_killable_timeout(w->wq, one_cond(w),
						  BIG_TIMEOUT);
		break;
	default:
		break;
	}
	w->ret = ret;
	smp_store_release(&w->done, 1);
}

/*
 * Every flavour sleeps in its own task state, is not released by a
 * wake-up while its condition is false (it re-queues and sleeps again),
 * and returns once the condition is true and it is woken: 0, or for the
 * timed ones the jiffies left (most of the timeout).
 */
static void test_wait_event_flavours_woken_by_other_task(void)
{
	static const char *const names[WK_NR] = {
		"plain", "interruptible", "killable", "idle", "timeout",
		"intr_timeout", "killable_timeout",
	};
	enum wait_kind k;

	for (k = 0; k < WK_NR; k++) {
		struct one_waiter w = { .kind = k };
		struct task_struct *t;
		bool slept;

		pr_info("wait_event flavour %s\n", names[k]);
		init_waitqueue_head(&w.wq);
		t = kshim_task_run(one_waiter_fn, &w, "waiter", -1);
		slept = POLL_UNTIL(atomic_read(&w.false_evals) >= ASLEEP);
		KSHIM_ASSERT(slept);
		if (slept) {
			KSHIM_ASSERT_EQ(atomic_read(&w.false_evals), ASLEEP);
			KSHIM_ASSERT_EQ(task_state(t), wait_kind_state[k]);
			KSHIM_ASSERT_EQ(wq_len(&w.wq), 1);
			KSHIM_ASSERT(waitqueue_active(&w.wq));

			/* Woken with the condition still false: sleeps on. */
			wake_up(&w.wq);
			KSHIM_ASSERT(POLL_UNTIL(atomic_read(&w.false_evals) >= ASLEEP + 1));
			KSHIM_ASSERT_EQ(atomic_read(&w.false_evals), ASLEEP + 1);
			KSHIM_ASSERT_EQ(task_state(t), wait_kind_state[k]);
			KSHIM_ASSERT_EQ(wq_len(&w.wq), 1);
			KSHIM_ASSERT(!smp_load_acquire(&w.done));
		}

		WRITE_ONCE(w.cond, 1);
		wake_up(&w.wq);
		kshim_task_join(t);
		KSHIM_ASSERT(w.done);
		KSHIM_ASSERT_EQ(atomic_read(&w.evals), ASLEEP + 2);
		if (k >= WK_TIMEOUT) {
			ASSERT_REMAINING(w.ret);
		} else {
			KSHIM_ASSERT_EQ(w.ret, 0);
		}
		KSHIM_ASSERT(!waitqueue_active(&w.wq));
	}
}

/* Timed waits whose condition never comes true return 0 after timeout. */
static void test_wait_event_timeout_expires(void)
{
	DECLARE_WAIT_QUEUE_HEAD_ONSTACK(wq);
	int never = 0;
	unsigned long start;
	long ret;

	start = READ_ONCE(jiffies);
	ret = wait_event_timeout(wq, READ_ONCE(never), HZ / 25);
	KSHIM_ASSERT_EQ(ret, 0);
	KSHIM_ASSERT(time_after_eq(READ_ONCE(jiffies), start + HZ / 25));

	start = READ_ONCE(jiffies);
	ret = wait_event_interruptible_timeout(wq, READ_ONCE(never), 3);
	KSHIM_ASSERT_EQ(ret, 0);
	KSHIM_ASSERT(time_after_eq(READ_ONCE(jiffies), start + 3));

	ret = wait_event_killable_timeout(wq, READ_ONCE(never), 2);
	KSHIM_ASSERT_EQ(ret, 0);
	ret = wait_event_idle_timeout(wq, READ_ONCE(never), 2);
	KSHIM_ASSERT_EQ(ret, 0);

	/* Each left the queue and the task running. */
	KSHIM_ASSERT(!waitqueue_active(&wq));
	KSHIM_ASSERT_EQ(task_state(current), TASK_RUNNING);
}

/*
 * waitqueue_active() follows the queue; prepare_to_wait() queues once and
 * sets the state; a wake-up of a task that has not slept yet makes it
 * runnable (schedule() then returns at once) and, for an autoremove entry,
 * dequeues it; a default_wake_function entry stays queued.
 */
static void test_waitqueue_active_and_prepare_finish(void)
{
	DECLARE_WAIT_QUEUE_HEAD_ONSTACK(wq);
	DECLARE_WAITQUEUE(plain, current);
	DEFINE_WAIT(auto_entry);

	KSHIM_ASSERT(!waitqueue_active(&wq));
	KSHIM_ASSERT(!wq_has_sleeper(&wq));

	add_wait_queue(&wq, &plain);
	KSHIM_ASSERT(waitqueue_active(&wq));
	KSHIM_ASSERT(wq_has_sleeper(&wq));
	KSHIM_ASSERT_EQ(wq_len(&wq), 1);
	remove_wait_queue(&wq, &plain);
	KSHIM_ASSERT(!waitqueue_active(&wq));

	prepare_to_wait(&wq, &auto_entry, TASK_UNINTERRUPTIBLE);
	prepare_to_wait(&wq, &auto_entry, TASK_UNINTERRUPTIBLE);
	KSHIM_ASSERT_EQ(wq_len(&wq), 1);	/* queued once */
	KSHIM_ASSERT_EQ(task_state(current), TASK_UNINTERRUPTIBLE);
	wake_up(&wq);
	KSHIM_ASSERT_EQ(task_state(current), TASK_RUNNING);
	KSHIM_ASSERT(list_empty(&auto_entry.entry));	/* autoremoved */
	KSHIM_ASSERT(!waitqueue_active(&wq));
	schedule();				/* already woken: returns */
	finish_wait(&wq, &auto_entry);

	/* A wake-up in a state the task is not in does nothing. */
	prepare_to_wait(&wq, &auto_entry, TASK_UNINTERRUPTIBLE);
	wake_up_interruptible(&wq);
	KSHIM_ASSERT_EQ(task_state(current), TASK_UNINTERRUPTIBLE);
	KSHIM_ASSERT_EQ(wq_len(&wq), 1);
	finish_wait(&wq, &auto_entry);
	KSHIM_ASSERT_EQ(task_state(current), TASK_RUNNING);
	KSHIM_ASSERT(!waitqueue_active(&wq));

	/* default_wake_function: woken, but the entry stays queued. */
	add_wait_queue(&wq, &plain);
	set_current_state(TASK_INTERRUPTIBLE);
	wake_up_interruptible(&wq);
	KSHIM_ASSERT_EQ(task_state(current), TASK_RUNNING);
	KSHIM_ASSERT_EQ(wq_len(&wq), 1);
	remove_wait_queue(&wq, &plain);
	KSHIM_ASSERT(!waitqueue_active(&wq));
}

/* ==== racy handoffs: a lost wake-up hangs ================================= */

enum handoff_kind {
	HO_PREPARE,		/* prepare_to_wait + schedule + finish_wait */
	HO_PREPARE_EXCL,	/* prepare_to_wait_exclusive ... */
	HO_WAIT_WOKEN,		/* add_wait_queue + wait_woken */
	HO_SWAIT,		/* swait_event_exclusive + swake_up_one */
	HO_VAR,			/* wait_var_event + wake_up_var */
	HO_STATE,		/* set_current_state + schedule + wake_up_process */
};

struct handoff {
	enum handoff_kind kind;
	unsigned long iters;
	int turn;
	struct wait_queue_head wq;
	struct swait_queue_head swq;
	struct task_struct *task[2];
	struct completion start;
	unsigned long count[2];
	unsigned long sleeps[2];
};

struct handoff_arg {
	struct handoff *h;
	int me;
};

static void handoff_wait_turn(struct handoff *h, int me)
{
	switch (h->kind) {
	case HO_PREPARE:
	case HO_PREPARE_EXCL: {
		DEFINE_WAIT(wait);

		for (;;) {
			if (h->kind == HO_PREPARE)
				prepare_to_wait(&h->wq, &wait, TASK_UNINTERRUPTIBLE);
			else
				prepare_to_wait_exclusive(&h->wq, &wait,
							  TASK_UNINTERRUPTIBLE);
			if (READ_ONCE(h->turn) == me)
				break;
			h->sleeps[me]++;
			schedule();
		}
		finish_wait(&h->wq, &wait);
		break;
	}
	case HO_WAIT_WOKEN: {
		DEFINE_WAIT_FUNC(wait, woken_wake_function);

		add_wait_queue(&h->wq, &wait);
		while (READ_ONCE(h->turn) != me) {
			h->sleeps[me]++;
			wait_woken(&wait, TASK_UNINTERRUPTIBLE,
				   MAX_SCHEDULE_TIMEOUT);
		}
		remove_wait_queue(&h->wq, &wait);
		break;
	}
	case HO_SWAIT:
		swait_event_exclusive(h->swq, READ_ONCE(h->turn) == me);
		break;
	case HO_VAR:
		wait_var_event(&h->turn, READ_ONCE(h->turn) == me);
		break;
	case HO_STATE:
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (READ_ONCE(h->turn) == me)
				break;
			h->sleeps[me]++;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		break;
	}
}

static void handoff_give_turn(struct handoff *h, int other)
{
	WRITE_ONCE(h->turn, other);
	switch (h->kind) {
	case HO_PREPARE:
	case HO_PREPARE_EXCL:
	case HO_WAIT_WOKEN:
		wake_up(&h->wq);
		break;
	case HO_SWAIT:
		swake_up_one(&h->swq);
		break;
	case HO_VAR:
		smp_mb();	/* turn before wake_up_var()'s waitqueue_active() */
		wake_up_var(&h->turn);
		break;
	case HO_STATE:
		wake_up_process(h->task[other]);
		break;
	}
}

static void handoff_fn(void *arg)
{
	struct handoff_arg *a = arg;
	struct handoff *h = a->h;
	unsigned long i;

	wait_for_completion(&h->start);
	for (i = 0; i < h->iters; i++) {
		handoff_wait_turn(h, a->me);
		h->count[a->me]++;
		handoff_give_turn(h, !a->me);
	}
}

/*
 * Two tasks pass a turn back and forth, iters times each; each pass needs
 * the other task's wake-up.
 */
static void run_handoff(enum handoff_kind kind, unsigned long iters)
{
	struct handoff h = { .kind = kind, .iters = iters };
	struct handoff_arg a[2] = { { &h, 0 }, { &h, 1 } };
	int i;

	init_waitqueue_head(&h.wq);
	init_swait_queue_head(&h.swq);
	init_completion(&h.start);
	for (i = 0; i < 2; i++)
		h.task[i] = kshim_task_run(handoff_fn, &a[i], "handoff", -1);
	complete_all(&h.start);	/* h.task[] is set for both */
	/*
	 * Task 1 gives the last turn, to task 0, which may have returned by
	 * then: join task 1 first, so task 0 is not freed under its
	 * wake_up_process().
	 */
	kshim_task_join(h.task[1]);
	kshim_task_join(h.task[0]);
	KSHIM_ASSERT_EQ(h.count[0], iters);
	KSHIM_ASSERT_EQ(h.count[1], iters);
	KSHIM_ASSERT_EQ(h.turn, 0);
	KSHIM_ASSERT(!waitqueue_active(&h.wq));
	KSHIM_ASSERT(!swq_has_sleeper(&h.swq));
	/* The turn really was waited for, not found by luck every time. */
	if (kind == HO_PREPARE || kind == HO_PREPARE_EXCL ||
	    kind == HO_WAIT_WOKEN || kind == HO_STATE)
		KSHIM_ASSERT(h.sleeps[0] + h.sleeps[1] > 0);
}

static void test_prepare_to_wait_handoff(void)
{
	run_handoff(HO_PREPARE, kshim_test_scale(5000));
}

static void test_prepare_to_wait_exclusive_handoff(void)
{
	run_handoff(HO_PREPARE_EXCL, kshim_test_scale(5000));
}

static void test_wait_woken_handoff(void)
{
	run_handoff(HO_WAIT_WOKEN, kshim_test_scale(5000));
}

static void test_swait_handoff(void)
{
	run_handoff(HO_SWAIT, kshim_test_scale(5000));
}

static void test_wait_var_event_handoff(void)
{
	run_handoff(HO_VAR, kshim_test_scale(5000));
}

/* kshim's schedule()/try_to_wake_up(): 10000 handoffs each way. */
static void test_set_state_schedule_wake_up_process_handoff(void)
{
	run_handoff(HO_STATE, kshim_test_scale(10000));
}

/* ==== exclusive waiters =================================================== */

#define NR_WAITERS	5

struct group {
	struct wait_queue_head wq;
	struct swait_queue_head swq;
	int go;
	atomic_t false_evals[NR_WAITERS];
	int exited[NR_WAITERS];
	atomic_t nr_exited;
	bool exclusive[NR_WAITERS];
	int ret[NR_WAITERS];
	bool swait;
};

struct group_arg {
	struct group *g;
	int i;
};

static bool group_cond(struct group *g, int i)
{
	if (READ_ONCE(g->go))
		return true;
	atomic_inc(&g->false_evals[i]);
	return false;
}

static void group_waiter_fn(void *arg)
{
	struct group_arg *a = arg;
	struct group *g = a->g;
	int i = a->i, ret = 0;

	if (g->swait) {
		switch (i % 2) {
		case 0:
			swait_event_idle_exclusive(g->swq, group_cond(g, i));
			break;
		case 1:
			ret = swait_event_interruptible_exclusive(g->swq,
							group_cond(g, i));
			break;
		}
	} else if (!g->exclusive[i]) {
		wait_event(g->wq, group_cond(g, i));
	} else {
		switch (i % 3) {
		case 0:
			wait_event_idle_exclusive(g->wq, group_cond(g, i));
			break;
		case 1:
			ret = wait_event_interruptible_exclusive(g->wq,
							group_cond(g, i));
			break;
		case 2:
			ret = wait_event_killable_exclusive(g->wq,
							group_cond(g, i));
			break;
		}
	}
	g->ret[i] = ret;
	WRITE_ONCE(g->exited[i], 1);
	atomic_inc_return(&g->nr_exited);	/* fully ordered: exited[] first */
}

static int group_queued(struct group *g)
{
	return g->swait ? swq_len(&g->swq) : wq_len(&g->wq);
}

/*
 * Start the waiters one by one, each asleep before the next starts, so
 * they queue in index order. All are started even if one does not sleep.
 */
static bool group_start(struct group *g, struct group_arg *a,
			struct task_struct **t)
{
	bool ok = true;
	int i;

	for (i = 0; i < NR_WAITERS; i++) {
		a[i].g = g;
		a[i].i = i;
		t[i] = kshim_task_run(group_waiter_fn, &a[i], "waiter", -1);
		if (!POLL_UNTIL(atomic_read(&g->false_evals[i]) >= ASLEEP))
			ok = false;
	}
	return ok && group_queued(g) == NR_WAITERS;
}

static int group_nr_exited(struct group *g)
{
	return atomic_read(&g->nr_exited);
}

/*
 * After a wake-up: exactly n waiters in all have returned, and the rest
 * are still queued and have not looked at the condition again (they were
 * not woken). A woken waiter re-queues itself before it sees the condition
 * (the loop of ___wait_event() starts with prepare_to_wait_event()), so
 * the queue is only counted once the woken ones have returned. The short
 * settle gives a wrongly woken waiter time to return too; in the
 * deterministic backend it is exact, since virtual time only passes when
 * every task is blocked.
 */
static void group_expect_exited(struct group *g, int n)
{
	int i;

	KSHIM_ASSERT(POLL_UNTIL(group_nr_exited(g) >= n));
	schedule_timeout_uninterruptible(2);
	KSHIM_ASSERT_EQ(group_nr_exited(g), n);
	smp_rmb();				/* nr_exited before exited[] */
	KSHIM_ASSERT_EQ(group_queued(g), NR_WAITERS - n);
	for (i = 0; i < NR_WAITERS; i++)
		if (!READ_ONCE(g->exited[i]))
			KSHIM_ASSERT_EQ(atomic_read(&g->false_evals[i]), ASLEEP);
}

static void group_finish(struct group *g, struct task_struct **t)
{
	int i;

	/* Release everyone even after a failure, then join. */
	WRITE_ONCE(g->go, 1);
	if (g->swait)
		swake_up_all(&g->swq);
	else
		wake_up_all(&g->wq);
	for (i = 0; i < NR_WAITERS; i++)
		kshim_task_join(t[i]);
	for (i = 0; i < NR_WAITERS; i++)
		KSHIM_ASSERT_EQ(g->ret[i], 0);
	KSHIM_ASSERT_EQ(group_queued(g), 0);
}

/*
 * Exclusive waiters queue at the tail in order: wake_up() wakes exactly
 * the first, wake_up_nr(2) the next two, wake_up_all() the rest.
 * __wake_up() returns how many exclusive waiters it woke.
 */
static void test_exclusive_waiters_wake_one_nr_all(void)
{
	struct group g = { };
	struct group_arg a[NR_WAITERS];
	struct task_struct *t[NR_WAITERS];
	int i;

	init_waitqueue_head(&g.wq);
	for (i = 0; i < NR_WAITERS; i++)
		g.exclusive[i] = true;
	if (!group_start(&g, a, t)) {
		KSHIM_ASSERT(!"waiters did not all go to sleep");
		goto out;
	}
	KSHIM_ASSERT(waitqueue_active(&g.wq));

	WRITE_ONCE(g.go, 1);
	KSHIM_ASSERT_EQ(__wake_up(&g.wq, TASK_NORMAL, 1, NULL), 1);	/* wake_up() */
	group_expect_exited(&g, 1);
	KSHIM_ASSERT(READ_ONCE(g.exited[0]));		/* FIFO */

	KSHIM_ASSERT_EQ(__wake_up(&g.wq, TASK_NORMAL, 2, NULL), 2);	/* wake_up_nr() */
	group_expect_exited(&g, 3);
	KSHIM_ASSERT(READ_ONCE(g.exited[1]) &&
		     READ_ONCE(g.exited[2]));

	wake_up_all(&g.wq);
	group_expect_exited(&g, NR_WAITERS);
	KSHIM_ASSERT(!waitqueue_active(&g.wq));
out:
	group_finish(&g, t);
}

/*
 * Non-exclusive waiters queue at the head and are all woken by any
 * wake-up; the exclusive ones behind them count against nr.
 */
static void test_mixed_waiters_wake_up(void)
{
	struct group g = { };
	struct group_arg a[NR_WAITERS];
	struct task_struct *t[NR_WAITERS];

	init_waitqueue_head(&g.wq);
	/* 0, 2, 4 exclusive; 1, 3 not. */
	g.exclusive[0] = g.exclusive[2] = g.exclusive[4] = true;
	if (!group_start(&g, a, t)) {
		KSHIM_ASSERT(!"waiters did not all go to sleep");
		goto out;
	}

	WRITE_ONCE(g.go, 1);
	KSHIM_ASSERT_EQ(__wake_up(&g.wq, TASK_NORMAL, 1, NULL), 1);	/* wake_up() */
	group_expect_exited(&g, 3);		/* 2 and 4 still wait */
	KSHIM_ASSERT(READ_ONCE(g.exited[0]) &&
		     READ_ONCE(g.exited[1]) &&
		     READ_ONCE(g.exited[3]));
	KSHIM_ASSERT(!READ_ONCE(g.exited[2]) &&
		     !READ_ONCE(g.exited[4]));
out:
	group_finish(&g, t);
}

/* ==== simple wait queues ================================================== */

/* swake_up_one() wakes the first queued waiter only; swake_up_all() all. */
static void test_swait_wake_one_and_all(void)
{
	struct group g = { .swait = true };
	struct group_arg a[NR_WAITERS];
	struct task_struct *t[NR_WAITERS];

	init_swait_queue_head(&g.swq);
	KSHIM_ASSERT(!swq_has_sleeper(&g.swq));
	if (!group_start(&g, a, t)) {
		KSHIM_ASSERT(!"waiters did not all go to sleep");
		goto out;
	}
	KSHIM_ASSERT(swq_has_sleeper(&g.swq));

	WRITE_ONCE(g.go, 1);
	swake_up_one(&g.swq);
	group_expect_exited(&g, 1);
	KSHIM_ASSERT(READ_ONCE(g.exited[0]));		/* FIFO */

	swake_up_one(&g.swq);
	group_expect_exited(&g, 2);
	KSHIM_ASSERT(READ_ONCE(g.exited[1]));

	swake_up_all(&g.swq);
	group_expect_exited(&g, NR_WAITERS);
	KSHIM_ASSERT(!swq_has_sleeper(&g.swq));
out:
	group_finish(&g, t);
}

static void test_swait_timeout(void)
{
	DECLARE_SWAIT_QUEUE_HEAD_ONSTACK(swq);
	int never = 0, one = 1;
	unsigned long start = READ_ONCE(jiffies);

	KSHIM_ASSERT_EQ(swait_event_timeout_exclusive(swq, READ_ONCE(never), 3), 0);
	KSHIM_ASSERT(time_after_eq(READ_ONCE(jiffies), start + 3));
	KSHIM_ASSERT_EQ(swait_event_idle_timeout_exclusive(swq, READ_ONCE(never), 2), 0);
	KSHIM_ASSERT_EQ(swait_event_timeout_exclusive(swq, READ_ONCE(one), 9), 9);
	KSHIM_ASSERT(!swq_has_sleeper(&swq));
	KSHIM_ASSERT_EQ(task_state(current), TASK_RUNNING);
}

/* ==== completions ========================================================= */

static void test_completion_counting_single_task(void)
{
	DECLARE_COMPLETION_ONSTACK(c);
	unsigned long start;

	KSHIM_ASSERT(!completion_done(&c));
	KSHIM_ASSERT(!try_wait_for_completion(&c));

	complete(&c);
	complete(&c);
	complete(&c);
	KSHIM_ASSERT(completion_done(&c));
	KSHIM_ASSERT(try_wait_for_completion(&c));
	wait_for_completion(&c);			/* done: returns */
	KSHIM_ASSERT_EQ(wait_for_completion_timeout(&c, 9), 9);
	KSHIM_ASSERT(!completion_done(&c));
	KSHIM_ASSERT(!try_wait_for_completion(&c));

	start = READ_ONCE(jiffies);
	KSHIM_ASSERT_EQ(wait_for_completion_timeout(&c, 5), 0);
	KSHIM_ASSERT(time_after_eq(READ_ONCE(jiffies), start + 5));
	KSHIM_ASSERT_EQ(wait_for_completion_interruptible_timeout(&c, 2), 0);
	KSHIM_ASSERT_EQ(wait_for_completion_killable_timeout(&c, 2), 0);
	KSHIM_ASSERT_EQ(wait_for_completion_io_timeout(&c, 2), 0);
	KSHIM_ASSERT(!swq_has_sleeper(&c.wait));
	KSHIM_ASSERT_EQ(task_state(current), TASK_RUNNING);

	complete_all(&c);
	KSHIM_ASSERT_EQ(c.done, UINT_MAX);
	complete(&c);				/* saturated */
	KSHIM_ASSERT_EQ(c.done, UINT_MAX);
	KSHIM_ASSERT(try_wait_for_completion(&c));
	KSHIM_ASSERT(try_wait_for_completion(&c));
	wait_for_completion(&c);
	KSHIM_ASSERT_EQ(wait_for_completion_interruptible(&c), 0);
	KSHIM_ASSERT_EQ(wait_for_completion_killable(&c), 0);
	KSHIM_ASSERT(completion_done(&c));

	reinit_completion(&c);
	KSHIM_ASSERT(!completion_done(&c));
	KSHIM_ASSERT(!try_wait_for_completion(&c));
}

struct comp_group {
	struct completion c;
	int kind[NR_WAITERS];
	long ret[NR_WAITERS];
	atomic_t nr_exited;
	int exit_order[NR_WAITERS];
};

struct comp_arg {
	struct comp_group *cg;
	int i;
};

static void comp_waiter_fn(void *arg)
{
	struct comp_arg *a = arg;
	struct comp_group *cg = a->cg;
	int i = a->i;
	long ret = 0;

	switch (cg->kind[i]) {
	case 0:
		wait_for_completion(&cg->c);
		break;
	case 1:
		ret = wait_for_completion_timeout(&cg->c, BIG_TIMEOUT);
		break;
	case 2:
		ret = wait_for_completion_interruptible(&cg->c);
		break;
	case 3:
		ret = wait_for_completion_killable_timeout(&cg->c, BIG_TIMEOUT);
		break;
	case 4:
		wait_for_completion_io(&cg->c);
		break;
	}
	cg->ret[i] = ret;
	WRITE_ONCE(cg->exit_order[atomic_inc_return(&cg->nr_exited) - 1], i);
}

/* Waiter i uses wait flavour i; each is queued before the next starts. */
static bool comp_start(struct comp_group *cg, struct comp_arg *a,
		       struct task_struct **t)
{
	bool ok = true;
	int i;

	init_completion(&cg->c);
	for (i = 0; i < NR_WAITERS; i++) {
		cg->kind[i] = i;
		a[i].cg = cg;
		a[i].i = i;
		t[i] = kshim_task_run(comp_waiter_fn, &a[i], "comp", -1);
		if (!POLL_UNTIL(swq_len(&cg->c.wait) == i + 1))
			ok = false;
	}
	return ok;
}

static void comp_check_returns(struct comp_group *cg)
{
	int i;

	for (i = 0; i < NR_WAITERS; i++) {
		if (cg->kind[i] == 1 || cg->kind[i] == 3) {
			ASSERT_REMAINING(cg->ret[i]);
		} else {
			KSHIM_ASSERT_EQ(cg->ret[i], 0);
		}
	}
}

/* complete() wakes exactly one waiter, the longest waiting (FIFO). */
static void test_complete_wakes_one_in_order(void)
{
	struct comp_group cg = { };
	struct comp_arg a[NR_WAITERS];
	struct task_struct *t[NR_WAITERS];
	int i;

	if (!comp_start(&cg, a, t)) {
		KSHIM_ASSERT(!"waiters did not queue");
		complete_all(&cg.c);
		goto join;
	}
	for (i = 0; i < NR_WAITERS; i++) {
		complete(&cg.c);
		KSHIM_ASSERT_EQ(swq_len(&cg.c.wait), NR_WAITERS - 1 - i);
		KSHIM_ASSERT(POLL_UNTIL(atomic_read(&cg.nr_exited) == i + 1));
		KSHIM_ASSERT_EQ(READ_ONCE(cg.exit_order[i]), i);
		KSHIM_ASSERT_EQ(comp_done_count(&cg.c), 0);	/* consumed */
	}
join:
	for (i = 0; i < NR_WAITERS; i++)
		kshim_task_join(t[i]);
	comp_check_returns(&cg);
}

/* complete_all() wakes every waiter and leaves the completion done. */
static void test_complete_all_wakes_all(void)
{
	struct comp_group cg = { };
	struct comp_arg a[NR_WAITERS];
	struct task_struct *t[NR_WAITERS];
	int i;

	KSHIM_ASSERT(comp_start(&cg, a, t));
	complete_all(&cg.c);	/* also releases them after a failure */
	KSHIM_ASSERT_EQ(swq_len(&cg.c.wait), 0);
	for (i = 0; i < NR_WAITERS; i++)
		kshim_task_join(t[i]);
	KSHIM_ASSERT_EQ(atomic_read(&cg.nr_exited), NR_WAITERS);
	KSHIM_ASSERT_EQ(cg.c.done, UINT_MAX);
	KSHIM_ASSERT(completion_done(&cg.c));
	comp_check_returns(&cg);
	reinit_completion(&cg.c);
	KSHIM_ASSERT(!completion_done(&cg.c));
}

struct comp_stream {
	struct completion c;
	unsigned long n;
	unsigned long got;
};

static void comp_producer_fn(void *arg)
{
	struct comp_stream *s = arg;
	unsigned long i;

	for (i = 0; i < s->n; i++)
		complete(&s->c);
}

static void comp_consumer_fn(void *arg)
{
	struct comp_stream *s = arg;
	unsigned long i;

	for (i = 0; i < s->n; i++) {
		if (i & 1)
			wait_for_completion(&s->c);
		else if (wait_for_completion_timeout(&s->c, BIG_TIMEOUT) == 0)
			break;
		s->got++;
	}
}

/* Counting across tasks: n complete() let exactly n waits through. */
static void test_completion_counting_racy(void)
{
	struct comp_stream s = { .n = kshim_test_scale(10000) };
	struct task_struct *p, *c;

	init_completion(&s.c);
	c = kshim_task_run(comp_consumer_fn, &s, "consumer", -1);
	p = kshim_task_run(comp_producer_fn, &s, "producer", -1);
	kshim_task_join(p);
	kshim_task_join(c);
	KSHIM_ASSERT_EQ(s.got, s.n);
	KSHIM_ASSERT_EQ(s.c.done, 0);
	KSHIM_ASSERT(!try_wait_for_completion(&s.c));
}

/* ==== wait_var_event / wait_on_bit ======================================== */

struct var_waiter {
	unsigned long *var;
	int kind;
	long ret;
	atomic_t false_evals;
};

static bool var_cond(struct var_waiter *w)
{
	if (READ_ONCE(*w->var))
		return true;
	atomic_inc(&w->false_evals);
	return false;
}

static void var_waiter_fn(void *arg)
{
	struct var_waiter *w = arg;

	switch (w->kind) {
	case 0:
		wait_var_event(w->var, var_cond(w));
		break;
	case 1:
		w->ret = wait_var_event_timeout(w->var, var_cond(w), BIG_TIMEOUT);
		break;
	case 2:
		w->ret = wait_var_event_killable(w->var, var_cond(w));
		break;
	}
}

/*
 * wait_var_event() waiters share the hashed bit_wait_table: a wake_up_var()
 * of another variable in the same bucket must not wake them
 * (var_wake_function() filters on the address).
 */
static void test_wait_var_event_filters_by_address(void)
{
	static unsigned long vars[300];
	unsigned long *a = NULL, *b = NULL;
	int i, j, k;

	/* 300 variables, 256 buckets: two share one. */
	for (i = 0; i < ARRAY_SIZE(vars) && !a; i++)
		for (j = 0; j < i; j++)
			if (__var_waitqueue(&vars[i]) == __var_waitqueue(&vars[j])) {
				a = &vars[i];
				b = &vars[j];
				break;
			}
	KSHIM_ASSERT_FATAL(a && b);

	for (k = 0; k < 3; k++) {
		struct var_waiter w = { .var = a, .kind = k };
		struct wait_queue_head *wq = __var_waitqueue(a);
		struct task_struct *t;
		bool slept;

		WRITE_ONCE(*a, 0);
		t = kshim_task_run(var_waiter_fn, &w, "var", -1);
		slept = POLL_UNTIL(atomic_read(&w.false_evals) >= ASLEEP);
		KSHIM_ASSERT(slept);
		if (slept) {
			KSHIM_ASSERT_EQ(wq_len(wq), 1);
			wake_up_var(b);			/* same bucket, other var */
			KSHIM_ASSERT_EQ(wq_len(wq), 1);
			KSHIM_ASSERT(task_state(t) != TASK_RUNNING);
			wake_up_var(a);			/* a itself, still 0 */
			KSHIM_ASSERT(POLL_UNTIL(atomic_read(&w.false_evals) >= ASLEEP + 1));
			KSHIM_ASSERT_EQ(wq_len(wq), 1);
		}
		WRITE_ONCE(*a, 1);
		smp_mb();
		wake_up_var(a);
		kshim_task_join(t);
		if (k == 1) {
			ASSERT_REMAINING(w.ret);
		} else {
			KSHIM_ASSERT_EQ(w.ret, 0);
		}
		KSHIM_ASSERT_EQ(wq_len(wq), 0);
	}

	/* Timed out: 0. */
	WRITE_ONCE(*a, 0);
	KSHIM_ASSERT_EQ(wait_var_event_timeout(a, READ_ONCE(*a), 3), 0);
	KSHIM_ASSERT_EQ(wq_len(__var_waitqueue(a)), 0);
}

#define TEST_BIT	3

struct bit_waiter {
	unsigned long word;
	int ret;
	int done;
};

static void bit_waiter_fn(void *arg)
{
	struct bit_waiter *w = arg;

	w->ret = wait_on_bit(&w->word, TEST_BIT, TASK_UNINTERRUPTIBLE);
	smp_store_release(&w->done, 1);
}

/*
 * wait_on_bit() returns at once for a clear bit, sleeps while it is set,
 * is not woken by wake_up_bit() while the bit is still set
 * (wake_bit_function() filters), and returns 0 after
 * clear_and_wake_up_bit(). wait_on_bit_timeout() gives -EAGAIN.
 */
static void test_wait_on_bit(void)
{
	struct bit_waiter w = { };
	struct wait_queue_head *wq = bit_waitqueue(&w.word, TEST_BIT);
	struct task_struct *t;
	unsigned long start;
	bool queued;

	KSHIM_ASSERT_EQ(wait_on_bit(&w.word, TEST_BIT, TASK_UNINTERRUPTIBLE), 0);

	set_bit(TEST_BIT, &w.word);
	start = READ_ONCE(jiffies);
	KSHIM_ASSERT_EQ(wait_on_bit_timeout(&w.word, TEST_BIT,
					    TASK_UNINTERRUPTIBLE, 3), -EAGAIN);
	KSHIM_ASSERT(time_after_eq(READ_ONCE(jiffies), start + 3));
	KSHIM_ASSERT_EQ(wq_len(wq), 0);

	t = kshim_task_run(bit_waiter_fn, &w, "bit", -1);
	queued = POLL_UNTIL(wq_len(wq) == 1 &&
			    task_state(t) == TASK_UNINTERRUPTIBLE);
	KSHIM_ASSERT(queued);
	if (queued) {
		wake_up_bit(&w.word, TEST_BIT);	/* bit still set: no wake */
		KSHIM_ASSERT_EQ(wq_len(wq), 1);
		KSHIM_ASSERT_EQ(task_state(t), TASK_UNINTERRUPTIBLE);
		KSHIM_ASSERT(!smp_load_acquire(&w.done));
	}
	clear_and_wake_up_bit(TEST_BIT, &w.word);
	kshim_task_join(t);
	KSHIM_ASSERT(w.done);
	KSHIM_ASSERT_EQ(w.ret, 0);
	KSHIM_ASSERT_EQ(wq_len(wq), 0);
}

struct bit_lock {
	unsigned long word;
	unsigned long counter;		/* protected by the bit lock */
	unsigned long iters;
	int inside;
	int overlaps;
};

static void bit_lock_fn(void *arg)
{
	struct bit_lock *bl = arg;
	unsigned long i;

	for (i = 0; i < bl->iters; i++) {
		wait_on_bit_lock(&bl->word, 0, TASK_UNINTERRUPTIBLE);
		if (xchg(&bl->inside, 1))
			WRITE_ONCE(bl->overlaps, 1);
		bl->counter++;
		if (i % 16 == 0)
			cond_resched();
		WRITE_ONCE(bl->inside, 0);
		clear_and_wake_up_bit(0, &bl->word);
	}
}

/* wait_on_bit_lock() as a sleeping lock: mutual exclusion, no lost wake-up. */
static void test_wait_on_bit_lock_excludes(void)
{
	struct bit_lock bl = { .iters = kshim_test_scale(2000) };
	struct task_struct *t[4];
	int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		t[i] = kshim_task_run(bit_lock_fn, &bl, "bitlock", -1);
	for (i = 0; i < ARRAY_SIZE(t); i++)
		kshim_task_join(t[i]);
	KSHIM_ASSERT_EQ(bl.counter, ARRAY_SIZE(t) * bl.iters);
	KSHIM_ASSERT_EQ(bl.overlaps, 0);
	KSHIM_ASSERT_EQ(bl.word, 0);
	KSHIM_ASSERT_EQ(wq_len(bit_waitqueue(&bl.word, 0)), 0);
}

/* ==== wait_event_interruptible_locked (do_wait_intr) ====================== */

struct locked_waiter {
	struct wait_queue_head wq;
	int cond;
	int ret;
};

static void locked_waiter_fn(void *arg)
{
	struct locked_waiter *w = arg;

	spin_lock(&w->wq.lock);
	w->ret = wait_event_interruptible_locked(w->wq, w->cond);
	spin_unlock(&w->wq.lock);
}

/* The condition is set and woken under the queue's own lock. */
static void test_wait_event_interruptible_locked(void)
{
	struct locked_waiter w = { };
	struct task_struct *t;

	init_waitqueue_head(&w.wq);
	t = kshim_task_run(locked_waiter_fn, &w, "locked", -1);
	KSHIM_ASSERT(POLL_UNTIL(wq_len(&w.wq) == 1));
	spin_lock(&w.wq.lock);
	w.cond = 1;
	wake_up_locked(&w.wq);
	spin_unlock(&w.wq.lock);
	kshim_task_join(t);
	KSHIM_ASSERT_EQ(w.ret, 0);
	KSHIM_ASSERT_EQ(wq_len(&w.wq), 0);
}

static const struct kshim_test wait_tests[] = {
	KSHIM_TEST(test_wait_event_condition_already_true),
	KSHIM_TEST(test_wait_event_flavours_woken_by_other_task),
	KSHIM_TEST(test_wait_event_timeout_expires),
	KSHIM_TEST(test_waitqueue_active_and_prepare_finish),
	KSHIM_TEST(test_exclusive_waiters_wake_one_nr_all),
	KSHIM_TEST(test_mixed_waiters_wake_up),
	KSHIM_TEST(test_wait_event_interruptible_locked),
	{ }
};

static const struct kshim_test handoff_tests[] = {
	KSHIM_TEST(test_prepare_to_wait_handoff),
	KSHIM_TEST(test_prepare_to_wait_exclusive_handoff),
	KSHIM_TEST(test_wait_woken_handoff),
	KSHIM_TEST(test_swait_handoff),
	KSHIM_TEST(test_wait_var_event_handoff),
	KSHIM_TEST(test_set_state_schedule_wake_up_process_handoff),
	{ }
};

static const struct kshim_test swait_tests[] = {
	KSHIM_TEST(test_swait_wake_one_and_all),
	KSHIM_TEST(test_swait_timeout),
	{ }
};

static const struct kshim_test completion_tests[] = {
	KSHIM_TEST(test_completion_counting_single_task),
	KSHIM_TEST(test_complete_wakes_one_in_order),
	KSHIM_TEST(test_complete_all_wakes_all),
	KSHIM_TEST(test_completion_counting_racy),
	{ }
};

static const struct kshim_test wait_bit_tests[] = {
	KSHIM_TEST(test_wait_var_event_filters_by_address),
	KSHIM_TEST(test_wait_on_bit),
	KSHIM_TEST(test_wait_on_bit_lock_excludes),
	{ }
};

KSHIM_SUITES({ "wait_queue", NULL, NULL, wait_tests },
	     { "handoff", NULL, NULL, handoff_tests },
	     { "swait", NULL, NULL, swait_tests },
	     { "completion", NULL, NULL, completion_tests },
	     { "wait_bit", NULL, NULL, wait_bit_tests });
