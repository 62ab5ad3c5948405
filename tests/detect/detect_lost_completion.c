// SPDX-License-Identifier: GPL-2.0
/*
 * DELIBERATELY BROKEN: a task waits for a completion that the error path
 * of its worker forgets to complete. The deterministic backend's hang
 * report must say what the waiter waits for (a completion), not only
 * that it sleeps in schedule() (tests/meson.build: detect_lost_completion).
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/errno.h>
#include <linux/sched.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>

struct job {
	struct completion done;
	int error;
};

static void run_job(void *arg)
{
	struct job *j = arg;

	j->error = -EIO;
	if (j->error)
		return;		/* BUG: returns without complete(&j->done) */
	complete(&j->done);
}

static void test_waiter_of_a_lost_completion(void)
{
	struct job j;

	init_completion(&j.done);
	kshim_task_run(run_job, &j, "job", -1);
	wait_for_completion(&j.done);
}

static const struct kshim_test lost_completion_tests[] = {
	KSHIM_TEST(test_waiter_of_a_lost_completion),
	{ }
};

KSHIM_SUITES({ "detect_lost_completion", NULL, NULL, lost_completion_tests });
