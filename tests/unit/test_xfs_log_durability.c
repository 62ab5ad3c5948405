// SPDX-License-Identifier: GPL-2.0
/*
 * What a clean unmount promises about commits nobody forced. Commits
 * that only reached the CIL are neither in the log nor in place; the
 * unmount (xfs_unmountfs(): xfs_log_force(), empty the AIL, unmount
 * record) must still put every one of them on disk and leave a clean
 * log. So the next mount runs no recovery and finds every commit in
 * place, and a power failure right after that mount loses none of them.
 *
 * Also: xfs_logprint reads a log of many checkpoints that a power
 * failure cut off, and recovery brings back every forced one.
 */
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include "xfs_fixture.h"

#define COMMITS		40	/* unforced commits before the unmount */
#define CHECKPOINTS	16	/* forced checkpoints before the crash */

/* A seeded mask of one to three scratch blocks. */
static u32 random_blocks(u64 *rng)
{
	u32 mask = 0;
	unsigned int n = 1 + kshim_random(rng) % 3;

	while (n--)
		mask |= BIT(kshim_random(rng) % XFS_FIXTURE_BLOCKS);
	return mask;
}

/*
 * An unmount must make commits durable that no force covered: it is the
 * only point at which XFS promises that the in-memory CIL is on disk.
 */
static void test_unmount_makes_unforced_commits_durable(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd_reordering };
	u64 rng = kshim_seed() | 1;
	unsigned int i;
	u64 prefix;

	xfs_fixture_mount_new(&fx);
	for (i = 0; i < COMMITS; i++)
		xfs_fixture_commit(&fx, random_blocks(&rng),
				   16 + kshim_random(&rng) % 1000);
	KSHIM_ASSERT_EQ(fx.durable, 0);	/* nothing was forced */
	xfs_fixture_unmount(&fx);

	/* A clean log: no recovery, every commit already in place. */
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT(!kshim_printk_contains("Starting recovery"));
	KSHIM_ASSERT(kshim_printk_contains("Ending clean mount"));
	prefix = xfs_fixture_check_prefix(&fx);
	KSHIM_ASSERT_EQ(prefix, fx.committed);

	/* Power fails at once: whatever the mount wrote may go, the commits
	 * may not. */
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_KEEP_RANDOM), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	prefix = xfs_fixture_check_prefix(&fx);
	KSHIM_ASSERT_EQ(prefix, fx.committed);
	kshim_info("%llu unforced commits; after unmount, mount and crash "
		   "(%llu of %llu cached writes kept): recovered %llu\n",
		   fx.committed, fx.crashed.kept, fx.crashed.cached, prefix);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * A log of many checkpoints, cut off by a power failure, is one that
 * xfsprogs can read, and recovery replays all the forced checkpoints,
 * in order, also for a block relogged in several of them (which once
 * caught the fixture forcing an older checkpoint than the commit's).
 */
static void test_logprint_reads_a_crashed_log_of_many_checkpoints(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	u64 rng = kshim_seed() | 1;
	unsigned int i;
	u64 prefix;

	xfs_fixture_mount_new(&fx);
	for (i = 0; i < CHECKPOINTS; i++) {
		xfs_fixture_commit(&fx, random_blocks(&rng), 200);
		KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
	}
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_DROP_ALL), 0);

	xfs_fixture_logprint(&fx);	/* ends the test unless it exits 0 */

	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT(kshim_printk_contains("Starting recovery"));
	prefix = xfs_fixture_check_prefix(&fx);
	KSHIM_ASSERT_EQ(fx.durable, fx.committed);
	KSHIM_ASSERT_EQ(prefix, fx.committed);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_unmount_makes_unforced_commits_durable),
	KSHIM_TEST(test_logprint_reads_a_crashed_log_of_many_checkpoints),
	{ }
};

KSHIM_SUITES({ "durability", NULL, NULL, tests });
