/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wbfs: kshim's small filesystem for driving the real writeback code
 * (writeback/kshim_wbfs.c). It is glue, not the thing under test: a real
 * super_block (fs/super.c's sget()), real inodes (fs/inode.c), real page
 * cache (mm/filemap.c) written through the real generic_perform_write(),
 * and ->writepages built on the real writeback_iter() that writes each
 * dirty folio to the block device through real bios.
 *
 * Block mapping: each file owns one contiguous extent of the device,
 * reserved when it is created (its maximum size) and never reused. An
 * inode's metadata is one 512-byte sector in an inode table at the start
 * of the device, written by ->write_inode.
 */
#ifndef _KSHIM_WBFS_H
#define _KSHIM_WBFS_H

#include <linux/fs.h>
#include <linux/writeback.h>

struct kshim_bdev;

struct kshim_wbfs_inode_stats {
	unsigned long writepages_calls;	/* ->writepages passes over it */
	unsigned long pages_submitted;
	unsigned long pages_written;	/* completed without error */
	unsigned long write_inode_calls;
	u64 last_written_ns;		/* kshim clock at the last completion */
};

/* Mount a wbfs on an open kshim block device (its own bdi, registered on
 * the real bdi workqueue). max_inodes sizes the inode table. */
struct super_block *kshim_wbfs_mount(struct kshim_bdev *kb,
				     unsigned int max_inodes);
/* The same on another device, but on @other's bdi (its flusher and its
 * b_dirty/b_io/b_more_io lists), as two filesystems on partitions of one
 * disk. Unmount it before @other, whose unmount unregisters the bdi. */
struct super_block *kshim_wbfs_mount_sharing_bdi(struct kshim_bdev *kb,
						 unsigned int max_inodes,
						 struct super_block *other);
/* Unmount: the real generic_shutdown_super() (sync, evict, bdi). Every
 * file must have been released. */
void kshim_wbfs_umount(struct super_block *sb);

/* A new regular file with room for max_bytes: a referenced, hashed
 * inode with one link. ERR_PTR on error (-ENOSPC when the device or the
 * inode table is full). */
struct inode *kshim_wbfs_create(struct super_block *sb, u64 max_bytes);
/* Unlink and drop the reference: iput() evicts the inode (waiting for
 * its writeback). */
void kshim_wbfs_release(struct inode *inode);

/* Write through the page cache (generic_perform_write(), dirty
 * throttling included). Returns bytes written or a negative errno. */
ssize_t kshim_wbfs_write(struct inode *inode, loff_t pos, const void *buf,
			 size_t len);
/*
 * Give the file a ->writepage (one folio to the device), which page
 * reclaim's pageout() calls for a dirty folio; by default wbfs has only
 * ->writepages, as XFS and most 6.12 filesystems. Set before the file
 * has page cache.
 */
void kshim_wbfs_set_writepage(struct inode *inode, bool on);
/* Dirty only the timestamps, as a lazytime mount does (I_DIRTY_TIME). */
void kshim_wbfs_touch_time(struct inode *inode);

/* Read back what a file's extent holds on the device (not the page
 * cache): how a test checks that writeback wrote the data. */
int kshim_wbfs_read_disk(struct inode *inode, loff_t pos, void *buf,
			 size_t len);

void kshim_wbfs_get_stats(struct inode *inode,
			  struct kshim_wbfs_inode_stats *st);
/* Where a file lives on the device: its data extent and its inode's
 * sector, for a fault rule (kshim_bdev_add_fault()) that hits only one. */
void kshim_wbfs_sectors(struct inode *inode, sector_t *data_start,
			u64 *data_sectors, sector_t *inode_sector);
/* Bytes the filesystem has written to the device (data and inodes). */
u64 kshim_wbfs_bytes_written(struct super_block *sb);
/* Data pages submitted whose bios have not completed (all files). */
long kshim_wbfs_pages_in_flight(struct super_block *sb);

#endif
