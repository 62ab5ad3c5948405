// SPDX-License-Identifier: GPL-2.0
/*
 * A fixture of test_shard.py, not a test of its own (meson runs it only
 * through that script): a binary whose one test fails in a seed sweep's
 * run of a seed and passes in the sweep's replay of it, as a run does
 * when something outside the seed changes it. What tells the two apart
 * is KSHIM_RESULTS_FD, which the sweep sets for its runs and not for the
 * replay (kshim_test_main.c). With it, test_shard.py checks that a sweep
 * says plainly that such a failure did not replay, and prints the output
 * of the run that failed, the failure's only report.
 */
#include <linux/kernel.h>
#include <kshim/host.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>

static void test_fails_only_in_the_sweeps_own_run(void)
{
	bool in_sweep = kshim_host_getenv("KSHIM_RESULTS_FD");
	/* And a failure that replays, to check it is not called one that
	 * does not. */
	bool always = kshim_host_getenv("FIXTURE_FAILS_ALWAYS");

	if (in_sweep)
		kshim_info("fixture: the sweep's own run of the seed fails here\n");
	KSHIM_ASSERT(!in_sweep && !always);
}

static const struct kshim_test fixture_tests[] = {
	KSHIM_TEST(test_fails_only_in_the_sweeps_own_run),
	{ }
};

KSHIM_SUITES({ "fixture_sweep_not_replaying", NULL, NULL, fixture_tests });
