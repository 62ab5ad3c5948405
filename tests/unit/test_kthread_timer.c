// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel threads and timers as kernel code relies on them: a kthread
 * sleeps until woken, kthread_stop() returns its function's value (or
 * -EINTR if it never ran) and waits for it; park/unpark stop it at
 * kthread_parkme(); a timer fires no earlier than its expiry, from
 * softirq context; timer_delete_sync() waits for a running callback;
 * timer_shutdown() keeps a timer from being armed again; msleep() and
 * schedule_timeout() sleep at least as long as asked; memory freed with a
 * timer armed in it is reported, as debugobjects does. In the
 * deterministic backend time is virtual, so long sleeps cost nothing.
 */
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/timer.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/completion.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/percpu.h>
#include <linux/workqueue.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>
#include <kshim/host.h>
#include <kshim/runtime.h>

static atomic_t kt_runs;

static int count_until_stopped(void *data)
{
	while (!kthread_should_stop()) {
		atomic_inc(&kt_runs);
		msleep(1);
	}
	return 42;
}

static void test_kthread_run_and_stop_returns_value(void)
{
	struct task_struct *t;

	atomic_set(&kt_runs, 0);
	t = kthread_run(count_until_stopped, NULL, "counter/%d", 7);
	KSHIM_ASSERT_FATAL(!IS_ERR(t));
	KSHIM_ASSERT(!strcmp(t->comm, "counter/7"));
	KSHIM_ASSERT(t->flags & PF_KTHREAD);
	while (atomic_read(&kt_runs) < 3)
		msleep(1);
	KSHIM_ASSERT_EQ(kthread_stop(t), 42);
}

static int must_not_run(void *data)
{
	atomic_inc(&kt_runs);
	return 0;
}

static void test_kthread_created_asleep_never_runs_if_stopped(void)
{
	struct task_struct *t;

	atomic_set(&kt_runs, 0);
	t = kthread_create(must_not_run, NULL, "sleeper");
	KSHIM_ASSERT_FATAL(!IS_ERR(t));
	msleep(10);			/* not woken: must not have run */
	KSHIM_ASSERT_EQ(atomic_read(&kt_runs), 0);
	KSHIM_ASSERT_EQ(kthread_stop(t), -EINTR);
	KSHIM_ASSERT_EQ(atomic_read(&kt_runs), 0);
}

static atomic_t park_loops;

static int parkable(void *data)
{
	while (!kthread_should_stop()) {
		if (kthread_should_park())
			kthread_parkme();
		atomic_inc(&park_loops);
		msleep(1);
	}
	return 0;
}

static void test_kthread_park_stops_it_unpark_resumes(void)
{
	struct task_struct *t = kthread_run(parkable, NULL, "parkable");
	int n;

	while (atomic_read(&park_loops) < 2)
		msleep(1);
	KSHIM_ASSERT_EQ(kthread_park(t), 0);
	n = atomic_read(&park_loops);
	msleep(20);
	KSHIM_ASSERT_EQ(atomic_read(&park_loops), n);	/* parked: no loop */
	KSHIM_ASSERT_EQ(READ_ONCE(t->__state), TASK_PARKED);
	kthread_unpark(t);
	while (atomic_read(&park_loops) == n)
		msleep(1);
	KSHIM_ASSERT_EQ(kthread_stop(t), 0);
}

struct timer_probe {
	struct timer_list timer;
	unsigned long fired_at;
	bool in_softirq;
	atomic_t fired;
	struct completion done;
};

static void probe_fn(struct timer_list *t)
{
	struct timer_probe *p = from_timer(p, t, timer);

	p->fired_at = jiffies;
	p->in_softirq = in_serving_softirq();
	atomic_inc(&p->fired);
	complete(&p->done);
}

static void test_timer_fires_no_earlier_than_expiry(void)
{
	struct timer_probe p = { };
	unsigned long expires;

	timer_setup(&p.timer, probe_fn, 0);
	init_completion(&p.done);
	expires = jiffies + 5;
	mod_timer(&p.timer, expires);
	KSHIM_ASSERT(timer_pending(&p.timer));
	wait_for_completion(&p.done);
	KSHIM_ASSERT(time_after_eq(p.fired_at, expires));
	KSHIM_ASSERT(p.in_softirq);
	KSHIM_ASSERT(!timer_pending(&p.timer));
	KSHIM_ASSERT_EQ(atomic_read(&p.fired), 1);
	KSHIM_ASSERT_EQ(timer_delete_sync(&p.timer), 0);
}

static void test_mod_timer_moves_and_delete_cancels(void)
{
	struct timer_probe p = { };

	timer_setup(&p.timer, probe_fn, 0);
	init_completion(&p.done);
	mod_timer(&p.timer, jiffies + 10 * HZ);
	KSHIM_ASSERT_EQ(mod_timer(&p.timer, jiffies + 20 * HZ), 1);
	KSHIM_ASSERT_EQ(timer_delete(&p.timer), 1);	/* was pending */
	KSHIM_ASSERT_EQ(timer_delete(&p.timer), 0);	/* no longer */
	msleep(50);
	KSHIM_ASSERT_EQ(atomic_read(&p.fired), 0);
}

struct slow_timer {
	struct timer_list timer;
	atomic_t entered, left;
};

static void slow_fn(struct timer_list *t)
{
	struct slow_timer *s = from_timer(s, t, timer);

	atomic_inc(&s->entered);
	mdelay(20);			/* busy, as a callback may be */
	atomic_inc(&s->left);
}

static void test_timer_delete_sync_waits_for_running_callback(void)
{
	struct slow_timer s = { };

	timer_setup(&s.timer, slow_fn, 0);
	mod_timer(&s.timer, jiffies);
	while (!atomic_read(&s.entered))
		cond_resched();
	timer_delete_sync(&s.timer);
	KSHIM_ASSERT_EQ(atomic_read(&s.left), 1);	/* it finished first */
}

static void test_timer_shutdown_cannot_be_rearmed(void)
{
	struct timer_probe p = { };

	timer_setup(&p.timer, probe_fn, 0);
	init_completion(&p.done);
	mod_timer(&p.timer, jiffies + HZ);
	KSHIM_ASSERT_EQ(timer_shutdown_sync(&p.timer), 1);
	KSHIM_ASSERT_EQ(mod_timer(&p.timer, jiffies + 1), 0);
	KSHIM_ASSERT(!timer_pending(&p.timer));
	msleep(20);
	KSHIM_ASSERT_EQ(atomic_read(&p.fired), 0);
}

static void test_msleep_and_schedule_timeout_sleep_long_enough(void)
{
	unsigned long start = jiffies;
	long left;

	msleep(40);
	KSHIM_ASSERT(time_after_eq(jiffies, start + msecs_to_jiffies(40)));
	start = jiffies;
	left = schedule_timeout_uninterruptible(3);
	KSHIM_ASSERT_EQ(left, 0);
	KSHIM_ASSERT(time_after_eq(jiffies, start + 3));
	KSHIM_ASSERT_EQ(READ_ONCE(current->__state), TASK_RUNNING);
}

/* Virtual time: 30 s of sleep must not take 30 s of wall time. */
static void test_virtual_time_long_sleep_is_free(void)
{
	unsigned long long wall = kshim_host_clock_ns();
	unsigned long start = jiffies;

	if (!kshim_sched->virtual_time)
		return;		/* the parallel backend sleeps for real */
	msleep(30000);
	KSHIM_ASSERT(time_after_eq(jiffies, start + 30 * HZ));
	KSHIM_ASSERT(kshim_host_clock_ns() - wall < 10ULL * NSEC_PER_SEC);
}

/*
 * Freeing memory that holds an armed timer is the use after free
 * CONFIG_DEBUG_OBJECTS_TIMERS reports ("ODEBUG: free active"): kshim
 * warns at the free, names a delayed_work's function (%ps), and takes the
 * timer off its list, so that it never fires into the freed memory.
 */
static void test_freeing_an_armed_timer_warns_and_disarms_it(void)
{
	struct timer_probe *p = kzalloc(sizeof(*p), GFP_KERNEL);
	unsigned long warns = kshim_warn_count();

	KSHIM_ASSERT_FATAL(p != NULL);
	timer_setup(&p->timer, probe_fn, 0);
	init_completion(&p->done);
	/* A second away: under valgrind, the free comes well before. */
	mod_timer(&p->timer, jiffies + HZ);
	kshim_test_expect_warns(1);
	kfree(p);
	KSHIM_ASSERT_EQ(kshim_warn_count(), warns + 1);
	KSHIM_ASSERT(strstr(kshim_printk_buffer(),
			    "ODEBUG: free active (active state 0) object: "));
	KSHIM_ASSERT(strstr(kshim_printk_buffer(),
			    "object type: timer_list hint: probe_fn+0x0/0x"));
	msleep(1200);		/* past the timer's expiry: it does not fire */
}

static void never_runs(struct work_struct *work)
{
	KSHIM_ASSERT(false);
}

/* free_percpu() too, which the kernel's debugobjects does not check:
 * how the per-CPU inodegc work was found (finding_xfs_inodegc_timer_freed). */
static void test_freeing_percpu_with_delayed_work_armed_names_the_work(void)
{
	struct delayed_work __percpu *dw = alloc_percpu(struct delayed_work);

	KSHIM_ASSERT_FATAL(dw != NULL);
	INIT_DELAYED_WORK(per_cpu_ptr(dw, 0), never_runs);
	queue_delayed_work(system_wq, per_cpu_ptr(dw, 0), HZ);
	kshim_test_expect_warns(1);
	free_percpu(dw);
	KSHIM_ASSERT(strstr(kshim_printk_buffer(),
			    "hint: delayed_work_timer_fn+0x0/0x"));
	KSHIM_ASSERT(strstr(kshim_printk_buffer(),
			    "ODEBUG: the timer is the delayed_work of never_runs\n"));
	msleep(1200);
}

/* What was freed without a timer armed is no report. */
static void test_freeing_a_disarmed_timer_is_quiet(void)
{
	struct timer_probe *p = kzalloc(sizeof(*p), GFP_KERNEL);
	unsigned long warns = kshim_warn_count();

	KSHIM_ASSERT_FATAL(p != NULL);
	timer_setup(&p->timer, probe_fn, 0);
	mod_timer(&p->timer, jiffies + HZ);
	timer_delete_sync(&p->timer);
	kfree(p);
	KSHIM_ASSERT_EQ(kshim_warn_count(), warns);
}

static void test_jiffies_start_near_wrap(void)
{
	/* As the kernel: INITIAL_JIFFIES makes jiffies wrap 5 min in. */
	KSHIM_ASSERT(time_after_eq(jiffies, (unsigned long)INITIAL_JIFFIES));
	KSHIM_ASSERT(jiffies_to_msecs(HZ) == 1000);
	KSHIM_ASSERT_EQ(msecs_to_jiffies(1000), HZ);
}

static const struct kshim_test kthread_tests[] = {
	KSHIM_TEST(test_kthread_run_and_stop_returns_value),
	KSHIM_TEST(test_kthread_created_asleep_never_runs_if_stopped),
	KSHIM_TEST(test_kthread_park_stops_it_unpark_resumes),
	{ }
};

static const struct kshim_test timer_tests[] = {
	KSHIM_TEST(test_timer_fires_no_earlier_than_expiry),
	KSHIM_TEST(test_mod_timer_moves_and_delete_cancels),
	KSHIM_TEST(test_timer_delete_sync_waits_for_running_callback),
	KSHIM_TEST(test_timer_shutdown_cannot_be_rearmed),
	KSHIM_TEST(test_msleep_and_schedule_timeout_sleep_long_enough),
	KSHIM_TEST(test_virtual_time_long_sleep_is_free),
	KSHIM_TEST(test_jiffies_start_near_wrap),
	KSHIM_TEST(test_freeing_an_armed_timer_warns_and_disarms_it),
	KSHIM_TEST(test_freeing_percpu_with_delayed_work_armed_names_the_work),
	KSHIM_TEST(test_freeing_a_disarmed_timer_is_quiet),
	{ }
};

KSHIM_SUITES({ "kthread", NULL, NULL, kthread_tests },
	     { "timer", NULL, NULL, timer_tests });
