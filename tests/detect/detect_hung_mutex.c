// SPDX-License-Identifier: GPL-2.0
/*
 * DELIBERATELY BROKEN: a task returns with a mutex still held, and the
 * test then waits for that mutex forever. The parallel backend's hung-task
 * watchdog must report the blocked task, the mutex and its holder within
 * KSHIM_HUNG_TIMEOUT; the deterministic backend reports a hang at once
 * (tests/meson.build: detect_hung_mutex_*).
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>

static DEFINE_MUTEX(leaked_mutex);

static void lock_and_forget(void *unused)
{
	mutex_lock(&leaked_mutex);	/* BUG: never unlocked */
}

static void test_leaked_mutex_blocks_forever(void)
{
	struct task_struct *t = kshim_task_run(lock_and_forget, NULL,
					       "leaker", -1);

	kshim_task_join(t);
	mutex_lock(&leaked_mutex);
	mutex_unlock(&leaked_mutex);
}

static const struct kshim_test hung_tests[] = {
	KSHIM_TEST(test_leaked_mutex_blocks_forever),
	{ }
};

KSHIM_SUITES({ "detect_hung_mutex", NULL, NULL, hung_tests });
