// SPDX-License-Identifier: GPL-2.0
/*
 * Finding, mechanism found: on an XFS_DEBUG kernel, 6.12.117 asserts
 * when it frees a file smaller than one block whose xattrs left the
 * inode (a leaf or node attribute fork). Found by the operation
 * generator (test_xfs_fsstress) on its first run.
 *
 * Between 6.12.107 and 6.12.117 the stable series changed
 * xfs_attr_inactive() (fs/xfs/xfs_attr_inactive.c) to "invalidate and
 * truncate all blocks but leave the root block": it calls
 *	xfs_itruncate_extents(&trans, dp, XFS_ATTR_FORK,
 *			      XFS_FSB_TO_B(mp, mp->m_attr_geo->fsbcount));
 * and then invalidates the root block itself. 6.12.107 truncated the
 * attribute fork to 0. xfs_itruncate_extents_flags()
 * (fs/xfs/xfs_inode.c) begins with ASSERT(new_size <= XFS_ISIZE(ip)),
 * a check of the data fork's size that it makes whatever the fork:
 * XFS_ISIZE() of an empty regular file is 0, and the new size is one
 * attribute block (4096 bytes), so every inactivation of a file under
 * 4 KiB with a block-based attribute fork trips it (directories whose
 * size is under the block size too). Without XFS_DEBUG the ASSERT is
 * compiled out and the truncation is right; with it (fstests' usual
 * configuration) it is a WARN, or a BUG with bug_on_assert set.
 *
 * This test makes such a file through the VFS (kshim/vfs.h): empty,
 * with 40 user xattrs (a leaf block), unlinked; its last iput() queues
 * inodegc, and the unmount runs the inactivation. It fails on
 * 6.12.117 with "Assertion failed: new_size <= XFS_ISIZE(ip)"
 * (tests/meson.build expects it). A fix (the ASSERT only for the data
 * fork, or the attribute fork's truncation not checked against the data
 * size) makes it pass, and the finding test then fails: time to drop it,
 * and the kshim_test_known_warn() in test_xfs_fsstress.c.
 */
#include <linux/fs.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"
#include "xfs_inode.h"

static void test_freeing_a_small_file_with_leaf_xattrs(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root, *f;
	char name[32], value[64];
	int i;

	memset(value, 'v', sizeof(value));
	xfs_fixture_mount_new(&fx);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(root, "f", 0644, &f), 0);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "user.attr%02d", i);
		KSHIM_ASSERT_EQ(kshim_vfs_setxattr(f, name, value,
						   sizeof(value), 0), 0);
	}
	KSHIM_ASSERT_EQ(XFS_I(d_inode(f))->i_af.if_format,
			XFS_DINODE_FMT_EXTENTS);
	kshim_vfs_put(f);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "f"), 0);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_freeing_a_small_file_with_leaf_xattrs),
	{ }
};

KSHIM_SUITES({ "attr_inactive", NULL, NULL, tests });
