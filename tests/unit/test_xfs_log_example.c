// SPDX-License-Identifier: GPL-2.0
/*
 * What a synchronous log force promises (docs/writing-a-test.md's
 * example). Commits covered by xfs_log_force_seq(XFS_LOG_SYNC) are on
 * stable storage: a power failure after it must not lose them, and log
 * recovery at the next mount must give back exactly the state after
 * some prefix of the commits, never a mix.
 */
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include "xfs_fixture.h"

#define FORCED		20	/* commits before the synchronous force */
#define LATER		10	/* commits after it, which a crash may lose */

static void crash_after_force(enum kshim_crash_mode mode)
{
	/*
	 * A slow device: a write that a force failed to wait for is still
	 * in flight when the power fails, whatever the schedule.
	 */
	struct xfs_fixture fx = { .dev = &dev_slow_disk };
	unsigned int i;
	u64 prefix;

	xfs_fixture_mount_new(&fx);
	for (i = 0; i < FORCED; i++)
		xfs_fixture_commit(&fx, BIT(i), 200);
	KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
	/* The AIL writes the blocks back: into the cache, not durable. */
	xfs_ail_push_all(fx.mp->m_ail);
	for (i = 0; i < LATER; i++)
		xfs_fixture_commit(&fx, BIT(i), 200);
	/* Start writing the later commits, and cut the power at once. */
	KSHIM_ASSERT_EQ(xfs_log_force(fx.mp, 0), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, mode), 0);

	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT(kshim_printk_contains("Starting recovery"));
	prefix = xfs_fixture_check_prefix(&fx);
	kshim_info("crash mode %d: %llu of %llu cached writes kept; "
		   "recovered up to commit %llu of %llu, forced up to %llu\n",
		   mode, fx.crashed.kept, fx.crashed.cached, prefix,
		   fx.committed, fx.durable);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static void test_forced_commits_survive_losing_the_cache(void)
{
	crash_after_force(KSHIM_CRASH_DROP_ALL);
}

static void test_recovery_gives_a_prefix_when_the_cache_keeps_some(void)
{
	crash_after_force(KSHIM_CRASH_KEEP_RANDOM);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_forced_commits_survive_losing_the_cache),
	KSHIM_TEST(test_recovery_gives_a_prefix_when_the_cache_keeps_some),
	{ }
};

KSHIM_SUITES({ "example", NULL, NULL, tests });
