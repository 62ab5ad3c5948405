// SPDX-License-Identifier: GPL-2.0
/*
 * Crash consistency of the namespace: the operation generator runs
 * (support/fsstress.h) and the power fails at a seeded point in the
 * middle of it, with tasks in their operations, inodegc and the AIL
 * busy. The device's volatile cache is dropped, partly kept, or kept
 * with torn writes. Then the remount's real recovery (inode items,
 * intents, unlinked lists), and the checks: recovery succeeds, each
 * task's directory tree is its model as it was after some operation
 * between the last one a completed log force or sync covered and the one
 * in flight (operations are atomic), and the image passes xfs_repair -n.
 * A failing seed replays from the line kshim prints.
 */
#include <linux/fs.h>
#include <linux/delay.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"
#include "fsstress.h"

#define TASKS	4
#define OPS	150

static int force_log(struct super_block *sb)
{
	return xfs_log_force(XFS_M(sb), XFS_LOG_SYNC);
}

/*
 * As in test_xfs_log's crash_run(): a metadata block torn by the crash
 * (only possible when a block spans several sectors) can carry its new
 * LSN in the first sector and old bytes after it; recovery skips it (the
 * block says it is newer) and the CRC check refuses it: the mount fails
 * with -EFSBADCRC. XFS's design, detected and never silently wrong:
 * accepted only then. With 4 KiB sectors nothing tears a block.
 */
static void crash_in_the_middle(enum kshim_crash_mode mode, unsigned int sector)
{
	struct xfs_fixture fx = { .dev = &dev_ssd_reordering,
				  .sector_size = sector };
	int err;
	u64 rng = kshim_seed() + mode + sector;
	struct fsstress_config cfg = {
		.seed = kshim_seed() + mode + sector,
		.tasks = TASKS,
		.ops = OPS,
		.log_force = force_log,
		.rename_notempty = -EEXIST,
		.history = true,
	};
	/* The crash point: a quarter to three quarters of the way. */
	unsigned long at = TASKS * OPS / 4 +
			   kshim_random(&rng) % (TASKS * OPS / 2);
	struct fsstress *fs = fsstress_new(&cfg);
	unsigned int i;

	kshim_test_known_warn("Assertion failed: new_size <= XFS_ISIZE(ip)");
	/*
	 * Logged xattrs (the larp knob, /sys/fs/xfs/debug/larp): an xattr
	 * change is an intent recovery finishes. Without them XFS does not
	 * make xattr changes atomic across a crash: a remote value or a
	 * replacement left half done is an INCOMPLETE entry the kernel skips
	 * and xfs_repair -n reports (finding_xfs_attr_incomplete_after_crash
	 * keeps that). fstests' attribute replay tests set it the same way.
	 */
	xfs_globals.larp = true;
	xfs_fixture_mount_new(&fx);
	fsstress_start(fs, kshim_xfs_sb(fx.x));
	while (fsstress_done(fs) < at)
		msleep(1);
	fsstress_power_going(fs);
	KSHIM_ASSERT_EQ(xfs_fixture_power_cut(&fx, mode), 0);
	fsstress_join(fs);
	xfs_fixture_unmount(&fx);

	err = xfs_fixture_remount(&fx);
	kshim_info("caches: %llu of %llu cached writes kept, %llu torn; mount %d\n",
		   fx.crashed.kept, fx.crashed.cached, fx.crashed.torn, err);
	if (err == -EFSBADCRC && fx.crashed.torn && sector < 4096) {
		KSHIM_ASSERT(kshim_printk_contains("Metadata CRC error"));
		xfs_fixture_remove(&fx);
		fsstress_free(fs);
		xfs_globals.larp = false;
		return;
	}
	KSHIM_ASSERT_EQ_FATAL(err, 0);
	fsstress_check_recovered(fs, kshim_xfs_sb(fx.x));
	for (i = 0; i < TASKS; i++)
		kshim_info("crash mode %d after %lu operations: task %u "
			   "recovered to operation %ld (forced %lu, in flight %lu)\n",
			   mode, at, i, fsstress_recovered_at(fs, i),
			   fsstress_durable(fs, i), fsstress_last(fs, i));
	KSHIM_ASSERT_EQ(fsstress_failures(fs), 0);
	if (fsstress_failures(fs))
		kshim_info("first: %s\n", fsstress_first_failure(fs));
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
	fsstress_free(fs);
	xfs_globals.larp = false;
}

static void test_crash_dropping_the_cache(void)
{
	crash_in_the_middle(KSHIM_CRASH_DROP_ALL, 512);
}

static void test_crash_keeping_some_of_the_cache(void)
{
	crash_in_the_middle(KSHIM_CRASH_KEEP_RANDOM, 512);
}

static void test_crash_tearing_writes_on_4k_sectors(void)
{
	crash_in_the_middle(KSHIM_CRASH_TEAR, 4096);
}

static void test_crash_tearing_writes_on_512_byte_sectors(void)
{
	crash_in_the_middle(KSHIM_CRASH_TEAR, 512);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_crash_dropping_the_cache),
	KSHIM_TEST(test_crash_keeping_some_of_the_cache),
	KSHIM_TEST(test_crash_tearing_writes_on_4k_sectors),
	KSHIM_TEST(test_crash_tearing_writes_on_512_byte_sectors),
	{ }
};

KSHIM_SUITES({ "xfs_fsstress_crash", NULL, NULL, tests });
