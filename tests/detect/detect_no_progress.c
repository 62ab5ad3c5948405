// SPDX-License-Identifier: GPL-2.0
/*
 * DELIBERATELY BROKEN: the test waits, in an msleep() retry loop, for a
 * flag no task will ever set, while a helper task sleeps interruptibly on
 * a wait queue nobody wakes. No task is blocked uninterruptibly for long
 * (each msleep() is 10 ms), so the hung-task watchdog alone would never
 * fire and the run would sit until meson's timeout. The parallel backend
 * must report that the run stopped making progress, with every task's
 * state, within about KSHIM_HUNG_TIMEOUT; the deterministic backend
 * reports a livelock at KSHIM_DET_MAX_STEPS (tests/meson.build:
 * detect_no_progress_*).
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/wait.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>

static DECLARE_WAIT_QUEUE_HEAD(nobody_wakes);
static int never_set;

static void sleep_interruptibly(void *unused)
{
	/* BUG: nothing sets never_set or wakes nobody_wakes. */
	wait_event_interruptible(nobody_wakes, READ_ONCE(never_set));
}

static void test_waits_for_a_flag_nobody_sets(void)
{
	kshim_task_run(sleep_interruptibly, NULL, "sleeper", -1);
	while (!READ_ONCE(never_set))
		msleep(10);
}

static const struct kshim_test no_progress_tests[] = {
	KSHIM_TEST(test_waits_for_a_flag_nobody_sets),
	{ }
};

KSHIM_SUITES({ "detect_no_progress", NULL, NULL, no_progress_tests });
