// SPDX-License-Identifier: GPL-2.0
/*
 * Loud stubs: XFS functions that the compiled XFS files (the log, the
 * transaction and buffer layers, xfs_mount.c, libxfs) reference on paths
 * the log tests never take. Each aborts with its name if called (DESIGN.md
 * rule 3): a test that reaches one has found a path kshim must then
 * compile real, or fake and list in docs/FAKES.md.
 *
 * Defined by name only, with no kernel header, so that no prototype is
 * copied (a stub never returns, so its type does not matter).
 */
#include <kshim/runtime.h>

#define LOUD(name)							\
	void name(void);						\
	void name(void)							\
	{								\
		kshim_unimplemented(#name);				\
	}

/* xfs_inode.c, xfs_icache.c, xfs_inode_item.c: no inodes yet (the inode
 * cache is the next step, docs/FAKES.md). */
LOUD(xfs_iget)
LOUD(xfs_irele)
LOUD(xfs_ilock)
LOUD(xfs_iunlock)
LOUD(xfs_ilock_attr_map_shared)
LOUD(xfs_ilock_data_map_shared)
LOUD(xfs_assert_ilocked)
LOUD(xfs_lock_inodes)
LOUD(xfs_lock_two_inodes)
LOUD(xfs_sort_inodes)
LOUD(xfs_is_always_cow_inode)
LOUD(xfs_iunlink_log_inode)
LOUD(xfs_iunlink_lookup)
LOUD(xfs_iunlink_reload_next)
LOUD(xfs_inode_item_init)
LOUD(xfs_buf_inode_iodone)
LOUD(xfs_buf_inode_io_fail)
LOUD(xfs_inodegc_flush)
LOUD(xfs_inodegc_start)
LOUD(xfs_inodegc_stop)
LOUD(xfs_inodegc_register_shrinker)
LOUD(xfs_reclaim_inodes)
LOUD(xfs_blockgc_flush_all)
LOUD(xfs_blockgc_start)
LOUD(xfs_blockgc_stop)
LOUD(xfs_blockgc_worker)
LOUD(xfs_inode_set_eofblocks_tag)
LOUD(xfs_inode_set_cowblocks_tag)
LOUD(xfs_inode_clear_cowblocks_tag)

/* Deferred operations of the intent items (xfs_*_item.c): no extent,
 * rmap, refcount, attr or exchange intents are logged. */
LOUD(xfs_extent_free_defer_add)
LOUD(xfs_rmap_defer_add)
LOUD(xfs_refcount_defer_add)
LOUD(xfs_bmap_defer_add)
LOUD(xfs_attr_defer_add)
LOUD(xfs_exchmaps_defer_add)
LOUD(xfs_icreate_log)

/* Data I/O paths: xfs_iomap.c, xfs_bmap_util.c, xfs_file.c,
 * xfs_filestream.c, xfs_discard.c, fs/remap_range.c, fs/iomap (what
 * xfs_reflink.c, compiled for the CoW recovery at mount, calls on its
 * file paths). */
LOUD(xfs_bmbt_to_iomap)
LOUD(xfs_iomap_inode_sequence)
LOUD(xfs_zero_extent)
LOUD(xfs_buffered_write_iomap_ops)
LOUD(xfs_flush_unmap_range)
LOUD(xfs_zero_range)
LOUD(xfs_ilock2_io_mmap)
LOUD(xfs_iunlock2_io_mmap)
LOUD(xfs_ilock_demote)
LOUD(generic_remap_file_range_prep)
LOUD(iomap_file_unshare)
LOUD(xfs_filestream_select_ag)
LOUD(xfs_discard_extents)

/* xfs_super.c: the VFS mount is not used; kshim mounts the log itself. */

/* block/bdev.c: no filesystem freeze. */
LOUD(bdev_freeze)
