// SPDX-License-Identifier: GPL-2.0
/*
 * DELIBERATELY BROKEN: an ordering bug of depth 2. The bug shows only if
 * task "long" has run all its DEPTH2_STEPS steps and set "mid" (one
 * ordering constraint) and task "short" then runs its single step before
 * "long" sets "end" (a second one). A uniform random walk almost always
 * runs "short" early; PCT finds it when "long" has the higher priority
 * and a priority change point falls right after "mid". README records the
 * number of seeds each strategy needs (tests/meson.build: detect_order_*).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>

#define DEPTH2_STEPS	20

static int mid, end, hit;

static void order_long(void *unused)
{
	int i;

	for (i = 0; i < DEPTH2_STEPS; i++)
		cond_resched();
	WRITE_ONCE(mid, 1);
	cond_resched();
	WRITE_ONCE(end, 1);
}

static void order_short(void *unused)
{
	cond_resched();
	if (READ_ONCE(mid) && !READ_ONCE(end))
		WRITE_ONCE(hit, 1);
}

static void test_depth2_order_never_happens(void)
{
	struct task_struct *l = kshim_task_run(order_long, NULL, "order_long", 0);
	struct task_struct *s = kshim_task_run(order_short, NULL, "order_short", 1);

	kshim_task_join(l);
	kshim_task_join(s);
	KSHIM_ASSERT_EQ(READ_ONCE(hit), 0);	/* fails on the bad ordering */
}

static const struct kshim_test order_tests[] = {
	KSHIM_TEST(test_depth2_order_never_happens),
	{ }
};

KSHIM_SUITES({ "detect_order_depth2", NULL, NULL, order_tests });
