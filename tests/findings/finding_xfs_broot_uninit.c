// SPDX-License-Identifier: GPL-2.0
/*
 * Finding, mechanism found: 6.12 logs four bytes of the in-core bmap
 * btree root that it never wrote.
 *
 * When a data fork outgrows its extent list, xfs_bmap_extents_to_btree()
 * gets the in-core root from xfs_iroot_realloc(), a kmalloc() without
 * __GFP_ZERO (fs/xfs/libxfs/xfs_inode_fork.c), and fills its header with
 * xfs_bmbt_init_block() -> __xfs_btree_init_block(), which sets every
 * long-format header field but bb_crc (fs/xfs/libxfs/xfs_btree.c: magic,
 * level, numrecs, siblings, blkno, owner, uuid, pad, lsn). The in-core
 * root is never written to disk in that form (xfs_bmbt_to_bmdr() drops
 * the header), but xfs_inode_item_format_data_fork() copies it whole into
 * the log as the XLOG_REG_TYPE_IBROOT region (fs/xfs/xfs_inode_item.c),
 * so four bytes of old heap memory reach the iclog, its CRC and the disk.
 * Harmless to recovery, which rebuilds the root from the logged records;
 * it is what KMSAN reports as an uninit-value, and it makes the log's
 * bytes depend on what the heap held. valgrind reported it first, in
 * scenario_reclaim_stalls ("Use of uninitialised value" in crc32_body()
 * under xlog_cksum(), the memory allocated in xfs_iroot_realloc()).
 *
 * kshim's slab fills memory allocated without __GFP_ZERO with SLUB's
 * POISON_INUSE bytes (0x5a), so the bytes the kernel never wrote are
 * known: this test grows the root directory until its data fork is a
 * btree and asserts that bb_crc holds something the kernel wrote. It
 * fails on 6.12 (tests/meson.build expects that, with these words).
 * A fix zeroing the new root (kzalloc, or bb_crc = 0 in the block
 * initialiser) makes it pass, and the finding test then fails: time to
 * drop it.
 */
#include <linux/kernel.h>
#include <linux/poison.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include "xfs_fixture.h"
#include "xfs_inode.h"
#include "xfs_inode_ops.h"

/* Far more than 512-byte inodes need: their fork holds 21 extents. */
#define MAX_FILES	20000

static void test_in_core_bmap_root_is_fully_initialised(void)
{
	struct xfs_fixture fx = { };
	struct xfs_inode *dp, *ip;
	struct xfs_btree_block *root;
	char name[32];
	int i;

	xfs_fixture_mount_new(&fx);
	dp = fx.mp->m_rootip;
	/*
	 * New directory blocks and inode chunks come from the same AG in
	 * turn, so the directory's blocks are not contiguous and its
	 * extent list soon outgrows the inode.
	 */
	for (i = 0; i < MAX_FILES &&
		    dp->i_df.if_format != XFS_DINODE_FMT_BTREE; i++) {
		snprintf(name, sizeof(name), "f%05d", i);
		KSHIM_ASSERT_EQ_FATAL(xfs_test_create(fx.mp, name, &ip), 0);
		xfs_irele(ip);
	}
	KSHIM_ASSERT_EQ_FATAL(dp->i_df.if_format, XFS_DINODE_FMT_BTREE);
	root = dp->i_df.if_broot;
	kshim_info("root directory: btree data fork after %d files; in-core "
		   "root bb_crc %#x\n", i, le32_to_cpu(root->bb_u.l.bb_crc));
	if (root->bb_u.l.bb_crc == cpu_to_le32(POISON_INUSE * 0x01010101u))
		kshim_info("in-core bmap root: bb_crc never written, logged "
			   "as XLOG_REG_TYPE_IBROOT\n");
	KSHIM_ASSERT(root->bb_u.l.bb_crc !=
		     cpu_to_le32(POISON_INUSE * 0x01010101u));
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_in_core_bmap_root_is_fully_initialised),
	{ }
};

KSHIM_SUITES({ "broot", NULL, NULL, tests });
