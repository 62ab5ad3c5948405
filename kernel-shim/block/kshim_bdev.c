// SPDX-License-Identifier: GPL-2.0
/*
 * What a filesystem asks of block/bdev.c, on kshim's devices
 * (kshim/bdev.h): find a device by path and open it by number, as
 * get_tree_bdev() and XFS's external log device do, set the superblock's
 * block size, and sync or invalidate a device's (empty) page cache. block/bdev.c is not compiled (its devices are
 * inodes of the bdev pseudo-filesystem); these are listed fakes
 * (docs/FAKES.md). Linked with the VFS (it needs mm/backing-dev.c): a
 * disk gets its backing_dev_info the first time a filesystem opens it,
 * for setup_bdev_super()'s sb->s_bdi, and loses it when it is closed.
 */
#include <linux/backing-dev.h>
#include <linux/blkdev.h>
#include <linux/fs.h>
#include <linux/string.h>
#include <linux/writeback.h>
#include "kshim_blk.h"

/* "/dev/NAME" or "NAME", NAME a kshim disk's name. */
int lookup_bdev(const char *pathname, dev_t *dev)
{
	const char *name = pathname;
	struct kshim_bdev *kb;

	if (!pathname || !*pathname)
		return -EINVAL;
	if (!strncmp(name, "/dev/", 5))
		name += 5;
	kb = kshim_bdev_find(name, 0);
	if (!kb) {
		pr_err("kshim: lookup_bdev: no kshim device is called %s\n",
		       pathname);
		return -ENOENT;
	}
	*dev = kb->bdev->bd_dev;
	return 0;
}

static int disk_bdi(struct kshim_bdev *kb)
{
	struct backing_dev_info *bdi;
	int err;

	if (kb->gd->bdi)
		return 0;
	bdi = bdi_alloc(NUMA_NO_NODE);
	if (!bdi)
		return -ENOMEM;
	err = bdi_register(bdi, "%s", kb->gd->disk_name);
	if (err) {
		bdi_put(bdi);
		return err;
	}
	kb->gd->bdi = bdi;
	return 0;
}

/*
 * The device's one open file (kshim_bdev_file()): bdev_fput() leaves it
 * open. One holder at a time, as an exclusive open would have.
 */
struct file *bdev_file_open_by_dev(dev_t dev, blk_mode_t mode, void *holder,
				   const struct blk_holder_ops *hops)
{
	struct kshim_bdev *kb = kshim_bdev_find(NULL, dev);
	struct block_device *bdev;
	int err;

	if (!kb)
		return ERR_PTR(-ENXIO);
	bdev = kb->bdev;
	if (holder) {
		if (bdev->bd_holder && bdev->bd_holder != holder)
			return ERR_PTR(-EBUSY);
		bdev->bd_holder = holder;
		bdev->bd_holder_ops = hops;
	}
	err = disk_bdi(kb);
	if (err)
		return ERR_PTR(err);
	return kb->file;
}

struct file *bdev_file_open_by_path(const char *path, blk_mode_t mode,
				    void *holder,
				    const struct blk_holder_ops *hops)
{
	dev_t dev;
	int err = lookup_bdev(path, &dev);

	if (err)
		return ERR_PTR(err);
	return bdev_file_open_by_dev(dev, mode, holder, hops);
}

void kshim_bdev_vfs_release(struct kshim_bdev *kb)
{
	struct backing_dev_info *bdi = kb->gd->bdi;

	kb->bdev->bd_holder = NULL;
	kb->bdev->bd_holder_ops = NULL;
	if (bdi) {
		kb->gd->bdi = NULL;
		bdi_unregister(bdi);
		bdi_put(bdi);
	}
}

/* block/bdev.c's: the block size the device allows, on the superblock. */
int sb_set_blocksize(struct super_block *sb, int size)
{
	if (set_blocksize(sb->s_bdev_file, size))
		return 0;
	sb->s_blocksize = size;
	sb->s_blocksize_bits = blksize_bits(size);
	return sb->s_blocksize;
}

int sb_min_blocksize(struct super_block *sb, int size)
{
	int minsize = bdev_logical_block_size(sb->s_bdev);

	if (size < minsize)
		size = minsize;
	return sb_set_blocksize(sb, size);
}

/* ==== No block-device inodes (block/bdev.c) ==============================
 * kshim's block devices have no page cache: filesystems write through
 * bios (kshim/bdev.h), so syncing a device's page cache has nothing to
 * write, exactly. No block device is a filesystem inode, so the bdev
 * pseudo-filesystem never exists. */

struct super_block *blockdev_superblock __ro_after_init;

/* start_kernel()'s vfs_caches_init() calls it to mount that filesystem. */
void __init bdev_cache_init(void)
{
}

int sync_blockdev(struct block_device *bdev)
{
	return 0;
}

int sync_blockdev_nowait(struct block_device *bdev)
{
	return 0;
}

/* Nothing cached to drop either (XFS calls it as it closes a device). */
void invalidate_bdev(struct block_device *bdev)
{
}

void sync_bdevs(bool wait)
{
}
