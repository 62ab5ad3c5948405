// SPDX-License-Identifier: GPL-2.0
/*
 * Finding (logged xattrs, the larp debug knob: XFS_DEBUG kernels with
 * /sys/fs/xfs/debug/larp=1): replacing an xattr with a remote value can
 * clear the INCOMPLETE flag in the wrong block. The attribute fork was in
 * node form; the replace's removal half shrinks it to leaf form, and its
 * add half then reads "the leaf" at the node form's leaf block number,
 * which by then holds the new remote value. The read's verifier catches
 * it, and the filesystem shuts down:
 *	Metadata corruption detected at xfs_attr3_leaf_header_check+0xf/..,
 *	    xfs_attr3_rmt block 0x18058
 *	Corruption of in-memory data (0x8) detected at
 *	    xfs_defer_finish_noroll  Shutting down filesystem.
 * with xfs_attr3_leaf_read < xfs_attr3_leaf_clearflag <
 * xfs_attr_rmtval_alloc < xfs_attr_set_iter < xfs_attr_finish_item, from
 * fsstress's setxattr of "user.x1" with a 3763-byte value over an
 * existing x1.
 *
 * Found by the generator's crash test (test_xfs_fsstress_crash): in the
 * parallel backend under load, test_crash_keeping_some_of_the_cache shut
 * down this way before its crash (its operations then failed with -EIO);
 * in the det backend, test_forced_shutdown_in_the_middle at seed 7496 of
 * 4001..8000, before its seeded shutdown.
 *
 * The mechanism (gdb on the inode's xattr state machine at seed 7496):
 *  1. with larp a replace is a removal, then an add
 *     (xfs_attr_init_replace_state()). The removal runs in node form
 *     (XFS_DAS_NODE_REMOVE .. NODE_REMOVE_ATTR); xfs_da3_node_lookup_int()
 *     sets args->blkno to the leaf's dablk, 1;
 *  2. the removal joins the tree back to one leaf, at dablk 0, and frees
 *     dablk 1: the fork is in leaf form (one extent, 3 -> 1);
 *  3. the add runs in leaf form (XFS_DAS_LEAF_ADD): xfs_attr_leaf_addname()
 *     reads block 0 and adds the entry there, INCOMPLETE, but does not set
 *     args->blkno (older kernels' xfs_attr_leaf_addname() did,
 *     "args->blkno = 0", before the delayed-attribute rework); it is
 *     still 1;
 *  4. XFS_DAS_LEAF_SET_RMT: xfs_attr_rmt_find_hole() finds dablk 1 free,
 *     and the value is written there (args->rmtblkno = 1);
 *  5. xfs_attr3_leaf_clearflag() reads the leaf at args->blkno, 1: the
 *     remote value block. Its header is XFS_ATTR3_RMT_MAGIC, the leaf check
 *     fails with -EFSCORRUPTED, and the transaction's failure shuts the
 *     filesystem down. xfs_attr3_leaf_flipflags() reads args->blkno too.
 * A fix would set args->blkno = 0 where the leaf-form add reads block 0.
 * Without larp a replace adds first and removes after, in one form.
 *
 * This binary is test_xfs_fsstress_crash.c running the one test that
 * showed it in the det backend; the wide test cannot name it as known (a
 * shutdown, not a WARN). When it is no longer caught, sweep wider
 * (-t test_forced_shutdown_in_the_middle --seeds 1..8000 --jobs 2: about
 * 4 minutes) and move the range in tests/meson.build.
 */
#define FSSTRESS_CRASH_FINDING_LARP_BLKNO 1
#include "../unit/test_xfs_fsstress_crash.c"
