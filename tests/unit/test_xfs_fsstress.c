// SPDX-License-Identifier: GPL-2.0
/*
 * The operation generator (support/fsstress.h) on XFS: tasks create,
 * link, rename, unlink and remove files and directories, set and remove
 * xattrs of every form, write, read, fsync, fallocate and truncate files
 * (buffered, O_DIRECT, O_DSYNC), sync, force the log and drop the caches
 * at once, each checking every result and every byte read against its
 * model; then the whole tree and every file's contents are checked,
 * again after a remount, and the image must pass xfs_repair -n.
 * Enough operations to empty directories and free inodes (inodegc, the
 * unlinked lists, inode cluster freeing).
 *
 * KSHIM_FSSTRESS_TASKS, _OPS, _MIX (fsstress_parse_mix()) and _PROGRESS
 * change the run (./kshim fsstress sets them); the seed is the run's.
 */
#include <linux/fs.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/host.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"
#include "fsstress.h"

static int force_log(struct super_block *sb)
{
	return xfs_log_force(XFS_M(sb), XFS_LOG_SYNC);
}

static unsigned long env_ulong(const char *name, unsigned long dflt)
{
	const char *s = kshim_host_getenv(name);

	return s && *s ? kshim_host_strtoull(s) : dflt;
}

static void run(struct xfs_fixture fx)
{
	struct fsstress_config cfg = {
		.seed = kshim_seed(),
		.tasks = env_ulong("KSHIM_FSSTRESS_TASKS", 4),
		.ops = env_ulong("KSHIM_FSSTRESS_OPS", 400),
		.progress = env_ulong("KSHIM_FSSTRESS_PROGRESS", 0),
		.log_force = force_log,
		/* xfs_rename(): "target directory must be empty" is -EEXIST. */
		.rename_notempty = -EEXIST,
	};
	const char *mix = kshim_host_getenv("KSHIM_FSSTRESS_MIX");
	struct fsstress *fs;
	char err[128];

	if (fsstress_parse_mix(mix, cfg.weights, err, sizeof(err)))
		kshim_fatal("KSHIM_FSSTRESS_MIX: %s", err);
	/*
	 * 6.12.117's xfs_attr_inactive() trips an XFS_DEBUG assertion when
	 * it frees a file under 4 KiB whose xattrs reached a leaf block
	 * (finding_xfs_attr_inactive_assert.c has the analysis). The
	 * generator makes such files all the time; the finding test keeps
	 * the failure, and here it is counted and printed, not failed on.
	 */
	kshim_test_known_warn("Assertion failed: new_size <= XFS_ISIZE(ip)");
	fs = fsstress_new(&cfg);
	xfs_fixture_mount_new(&fx);
	fsstress_run(fs, kshim_xfs_sb(fx.x));
	xfs_fixture_unmount(&fx);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	fsstress_check(fs, kshim_xfs_sb(fx.x));
	fsstress_print(fs);
	KSHIM_ASSERT_EQ(fsstress_failures(fs), 0);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
	fsstress_free(fs);
}

/* The geometries fstests configurations cover. */
static void test_fsstress_defaults(void)
{
	run((struct xfs_fixture) { 0 });
}

static void test_fsstress_rmapbt(void)
{
	run((struct xfs_fixture) { .mkfs_opts = "-m rmapbt=1" });
}

static void test_fsstress_1k_blocks(void)
{
	run((struct xfs_fixture) { .mkfs_opts = "-b size=1024" });
}

static void test_fsstress_4k_sectors(void)
{
	run((struct xfs_fixture) { .sector_size = 4096 });
}

/* The smallest log mkfs.xfs allows for 64 MiB (its "-l size=" floor). */
static void test_fsstress_smallest_log(void)
{
	run((struct xfs_fixture) { .mkfs_opts = "-l size=2736b" });
}

static void test_fsstress_external_log(void)
{
	run((struct xfs_fixture) { .log_size = 16 << 20 });
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_fsstress_defaults),
	KSHIM_TEST(test_fsstress_rmapbt),
	KSHIM_TEST(test_fsstress_1k_blocks),
	KSHIM_TEST(test_fsstress_4k_sectors),
	KSHIM_TEST(test_fsstress_smallest_log),
	KSHIM_TEST(test_fsstress_external_log),
	{ }
};

KSHIM_SUITES({ "xfs_fsstress", NULL, NULL, tests });
