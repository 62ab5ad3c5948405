// SPDX-License-Identifier: GPL-2.0
/*
 * Finding, XFS's design as shipped: without logged xattrs (the larp
 * debug knob, off by default in 6.12), an xattr change is not atomic
 * across a crash, and what a crash leaves behind is an inode that
 * xfs_repair -n says it would strip of every xattr. Found by the
 * generator's crash test (test_xfs_fsstress_crash) before it turned
 * larp on.
 *
 * Setting a remote value, or replacing any value, takes several
 * transactions (fs/xfs/libxfs/xfs_attr.c's state machine,
 * xfs_attr_set_iter()): the new entry is added with XFS_ATTR_INCOMPLETE
 * (xfs_attr3_leaf_add_work(): for a remote value always, for a
 * replacement when !XFS_DA_OP_LOGGED), the remote blocks are allocated
 * and written, and only a later transaction clears the flag
 * (xfs_attr3_leaf_clearflag()) or flips it with the old entry's
 * (xfs_attr3_leaf_flipflags()). Without larp no intent is logged for
 * the whole change, so recovery cannot finish it: a power failure in
 * between leaves the INCOMPLETE entry on disk. The kernel skips such
 * entries on lookup (the xattr is simply absent, or the old value
 * stays), so the namespace checks of the generator pass; xfs_repair -n
 * reports "attribute entry ... is INCOMPLETE" and "would clear attr
 * fork", and xfs_repair would drop every xattr of that inode with it.
 * With larp on (the ATTRI/ATTRD intents) the default suite's crash test
 * recovers every such change and repair is clean.
 *
 * This test: the generator with an xattr-heavy mix and larp off, the
 * power cut at a seeded point, recovery, then xfs_repair -n, swept over
 * seeds (tests/meson.build) until repair complains with these words.
 */
#include <linux/fs.h>
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

static void test_crash_in_xattr_changes_without_larp(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd_reordering };
	struct xfs_power_cut pc = { .f = &fx, .mode = KSHIM_CRASH_KEEP_RANDOM };
	u64 rng = kshim_seed();
	struct fsstress_config cfg = {
		.seed = kshim_seed(),
		.tasks = TASKS,
		.ops = OPS,
		.log_force = force_log,
		.rename_notempty = -EEXIST,
		.history = true,
		/* The power cut a quarter to three quarters of the way. */
		.crash_after = TASKS * OPS / 4 +
			       kshim_random(&rng) % (TASKS * OPS / 2),
		.crash = xfs_fixture_cut_the_power,
		.crash_arg = &pc,
	};
	struct fsstress *fs;
	char err[128];

	KSHIM_ASSERT_EQ_FATAL(fsstress_parse_mix(
		"only:create=4,setxattr=10,removexattr=2,logforce=1",
		cfg.weights, err, sizeof(err)), 0);
	fs = fsstress_new(&cfg);
	kshim_test_known_warn("Assertion failed: new_size <= XFS_ISIZE(ip)");
	xfs_fixture_mount_new(&fx);
	fsstress_start(fs, kshim_xfs_sb(fx.x));
	fsstress_join(fs);
	KSHIM_ASSERT_FATAL(fsstress_crashed(fs));
	KSHIM_ASSERT_EQ(pc.err, 0);
	xfs_fixture_unmount(&fx);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	fsstress_check_recovered(fs, kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_EQ(fsstress_failures(fs), 0);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);	/* xfs_repair -n */
	fsstress_free(fs);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_crash_in_xattr_changes_without_larp),
	{ }
};

KSHIM_SUITES({ "attr_incomplete", NULL, NULL, tests });
