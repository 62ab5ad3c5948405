// SPDX-License-Identifier: GPL-2.0
/*
 * DELIBERATELY BROKEN: two tasks take two mutexes in opposite orders
 * (ABBA). Not every interleaving deadlocks; the deterministic backend's
 * seed sweep must find one that does and report both tasks, the lock each
 * holds and the one it waits for (tests/meson.build: detect_abba).
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>

static DEFINE_MUTEX(lock_a);
static DEFINE_MUTEX(lock_b);

static void abba_ab(void *unused)
{
	mutex_lock(&lock_a);
	cond_resched();
	mutex_lock(&lock_b);
	mutex_unlock(&lock_b);
	mutex_unlock(&lock_a);
}

static void abba_ba(void *unused)
{
	mutex_lock(&lock_b);
	cond_resched();
	mutex_lock(&lock_a);
	mutex_unlock(&lock_a);
	mutex_unlock(&lock_b);
}

static void test_abba_deadlocks_in_some_schedule(void)
{
	struct task_struct *t1 = kshim_task_run(abba_ab, NULL, "abba_ab", 0);
	struct task_struct *t2 = kshim_task_run(abba_ba, NULL, "abba_ba", 1);

	kshim_task_join(t1);
	kshim_task_join(t2);
	KSHIM_ASSERT(!mutex_is_locked(&lock_a) && !mutex_is_locked(&lock_b));
}

static const struct kshim_test abba_tests[] = {
	KSHIM_TEST(test_abba_deadlocks_in_some_schedule),
	{ }
};

KSHIM_SUITES({ "detect_abba", NULL, NULL, abba_tests });
