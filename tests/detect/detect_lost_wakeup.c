// SPDX-License-Identifier: GPL-2.0
/*
 * DELIBERATELY BROKEN: the waiter checks its condition *before* setting
 * its task state, so a wake-up that lands between the check and the state
 * store is lost and the waiter sleeps forever. The deterministic backend
 * must find a seed where that happens and report the waiter blocked in
 * schedule() (tests/meson.build: detect_lost_wakeup).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>

static int flag;
static struct task_struct *waiter;

static void lost_wakeup_waiter(void *unused)
{
	if (!READ_ONCE(flag)) {			/* BUG: check, then set state */
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

static void lost_wakeup_waker(void *unused)
{
	WRITE_ONCE(flag, 1);
	wake_up_process(waiter);
}

static void test_lost_wakeup_hangs_in_some_schedule(void)
{
	struct task_struct *waker;

	waiter = kshim_task_run(lost_wakeup_waiter, NULL, "lw_waiter", 0);
	waker = kshim_task_run(lost_wakeup_waker, NULL, "lw_waker", 1);
	kshim_task_join(waker);
	kshim_task_join(waiter);
	KSHIM_ASSERT_EQ(READ_ONCE(flag), 1);
}

static const struct kshim_test lw_tests[] = {
	KSHIM_TEST(test_lost_wakeup_hangs_in_some_schedule),
	{ }
};

KSHIM_SUITES({ "detect_lost_wakeup", NULL, NULL, lw_tests });
