// SPDX-License-Identifier: GPL-2.0
/*
 * DELIBERATELY BROKEN: a work function waits for its own completion with
 * flush_work() on itself, a deadlock the kernel's lockdep reports. kshim
 * WARNs (it has no lockdep graph, but knows the item it is running), and
 * an unexpected WARN fails the test: the seed sweep must catch it at once
 * and name the work item's task (tests/meson.build: detect_work_self_flush).
 */
#include <linux/kernel.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <kshim/ktest.h>

static struct work_struct self_flusher;
static DECLARE_COMPLETION(ran);

static void flushes_itself(struct work_struct *work)
{
	flush_work(work);		/* BUG: waits for itself */
	complete(&ran);
}

static void test_work_flushing_itself(void)
{
	INIT_WORK(&self_flusher, flushes_itself);
	queue_work(system_wq, &self_flusher);
	wait_for_completion(&ran);
	flush_work(&self_flusher);
}

static const struct kshim_test self_flush_tests[] = {
	KSHIM_TEST(test_work_flushing_itself),
	{ }
};

KSHIM_SUITES({ "detect_work_self_flush", NULL, NULL, self_flush_tests });
