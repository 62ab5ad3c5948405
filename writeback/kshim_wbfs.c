// SPDX-License-Identifier: GPL-2.0
/*
 * wbfs: the filesystem side of the writeback tests (kshim/wbfs.h). Glue
 * around the real VFS, page cache and writeback code; see the header for
 * the block mapping. What is real: sget(), new_inode(), iput()/evict(),
 * generic_perform_write(), folio dirtying and accounting, writeback_iter(),
 * the flusher and its lists, generic_shutdown_super(). What this file
 * adds: where blocks are, and the bios.
 */
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>
#include <linux/backing-dev.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/uio.h>
#include <linux/slab.h>
#include <linux/highmem.h>
#include <kshim/bdev.h>
#include <kshim/sched.h>
#include <kshim/wbfs.h>

#define WBFS_INODE_SECTOR(ino)	(1 + (ino))	/* sector 0: the "superblock" */

struct wbfs_sb {
	struct kshim_bdev *kb;
	struct block_device *bdev;
	unsigned int max_inodes;
	spinlock_t lock;		/* the allocators below */
	unsigned long next_ino;
	sector_t next_sector;		/* extents: a bump allocator */
	sector_t nr_sectors;
	atomic64_t bytes_written;
	atomic_long_t pages_in_flight;	/* data pages submitted, not completed */
};

struct wbfs_inode {
	struct inode vfs;
	sector_t start;			/* first sector of the extent */
	u64 max_bytes;			/* extent length */
	atomic_long_t writepages_calls;
	atomic_long_t pages_submitted;
	atomic_long_t pages_written;
	atomic_long_t write_inode_calls;
	atomic64_t last_written_ns;
};

static inline struct wbfs_inode *WBFS_I(struct inode *inode)
{
	return container_of(inode, struct wbfs_inode, vfs);
}

static inline struct wbfs_sb *WBFS_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

/* ==== Data: ->writepages on the real writeback_iter() ===================== */

/*
 * Completion, in hard-irq context. A bio holds folios of one inode; the
 * statistics are updated before any folio leaves writeback, since the
 * last folio_end_writeback() may let an evicting task free the inode.
 */
static void wbfs_data_end_io(struct bio *bio)
{
	int err = blk_status_to_errno(bio->bi_status);
	struct folio_iter fi;
	struct wbfs_inode *wi = NULL;
	long pages = 0;

	bio_for_each_folio_all(fi, bio) {
		wi = WBFS_I(fi.folio->mapping->host);
		pages += folio_nr_pages(fi.folio);
		if (err)
			mapping_set_error(fi.folio->mapping, err);
	}
	if (wi && !err) {
		atomic_long_add(pages, &wi->pages_written);
		atomic64_set(&wi->last_written_ns, kshim_clock_ns());
	}
	if (wi)
		atomic_long_sub(pages, &WBFS_SB(wi->vfs.i_sb)->pages_in_flight);
	bio_for_each_folio_all(fi, bio)
		folio_end_writeback(fi.folio);
	bio_put(bio);
}

static void wbfs_submit(struct wbfs_sb *fs, struct bio *bio)
{
	atomic64_add(bio->bi_iter.bi_size, &fs->bytes_written);
	submit_bio(bio);
}

static int wbfs_writepages(struct address_space *mapping,
			   struct writeback_control *wbc)
{
	struct inode *inode = mapping->host;
	struct wbfs_inode *wi = WBFS_I(inode);
	struct wbfs_sb *fs = WBFS_SB(inode->i_sb);
	struct folio *folio = NULL;
	struct bio *bio = NULL;
	sector_t next = 0;
	int error = 0;

	atomic_long_inc(&wi->writepages_calls);
	while ((folio = writeback_iter(mapping, wbc, folio, &error))) {
		sector_t sector = wi->start + (folio_pos(folio) >> SECTOR_SHIFT);
		size_t len = folio_size(folio);

		/* writeback_iter() hands the folio locked and cleaned for
		 * I/O; the filesystem starts writeback and unlocks. */
		folio_start_writeback(folio);
		folio_unlock(folio);
		atomic_long_add(folio_nr_pages(folio), &wi->pages_submitted);
		atomic_long_add(folio_nr_pages(folio), &fs->pages_in_flight);
		if (bio && (sector != next || !bio_add_folio(bio, folio, len, 0))) {
			wbfs_submit(fs, bio);
			bio = NULL;
		}
		if (!bio) {
			bio = bio_alloc(fs->bdev, BIO_MAX_VECS,
					REQ_OP_WRITE | wbc_to_write_flags(wbc),
					GFP_NOFS);
			bio->bi_iter.bi_sector = sector;
			bio->bi_end_io = wbfs_data_end_io;
			bio_add_folio_nofail(bio, folio, len, 0);
		}
		next = sector + (len >> SECTOR_SHIFT);
	}
	if (bio)
		wbfs_submit(fs, bio);
	return error;
}

/*
 * No read path: every folio of a file is created by a write and stays in
 * the page cache until the inode is evicted, so a folio that is not
 * uptodate is new and its unwritten part is zero, as the extent was.
 * Page reclaim (kshim/vmscan.h) breaks that: it drops clean folios, and a
 * later partial write of one would zero the rest. A test that runs
 * reclaim over wbfs files must not write them again (no read path yet).
 */
static int wbfs_write_begin(struct file *file, struct address_space *mapping,
			    loff_t pos, unsigned int len, struct folio **foliop,
			    void **fsdata)
{
	struct wbfs_inode *wi = WBFS_I(mapping->host);
	struct folio *folio;

	if (pos + len > wi->max_bytes)
		return -ENOSPC;
	folio = __filemap_get_folio(mapping, pos >> PAGE_SHIFT, FGP_WRITEBEGIN,
				    mapping_gfp_mask(mapping));
	if (IS_ERR(folio))
		return PTR_ERR(folio);
	if (!folio_test_uptodate(folio)) {
		folio_zero_range(folio, 0, folio_size(folio));
		folio_mark_uptodate(folio);
	}
	*foliop = folio;
	return 0;
}

static int wbfs_write_end(struct file *file, struct address_space *mapping,
			  loff_t pos, unsigned int len, unsigned int copied,
			  struct folio *folio, void *fsdata)
{
	struct inode *inode = mapping->host;
	bool grew = false;

	if (pos + copied > inode->i_size) {
		i_size_write(inode, pos + copied);
		grew = true;
	}
	if (copied)
		folio_mark_dirty(folio);
	folio_unlock(folio);
	folio_put(folio);
	if (grew)
		mark_inode_dirty(inode);
	return copied;
}

static const struct address_space_operations wbfs_aops = {
	.dirty_folio	= filemap_dirty_folio,
	.writepages	= wbfs_writepages,
	.write_begin	= wbfs_write_begin,
	.write_end	= wbfs_write_end,
};

/*
 * ->writepage: one folio, as page reclaim's pageout() asks for it (6.12's
 * filesystems mostly have none, XFS included: then reclaim cannot write
 * a dirty folio and leaves it to the flushers). pageout() hands the folio
 * locked and cleaned for I/O; the filesystem starts writeback, unlocks
 * and submits, as ->writepages does for each folio.
 */
static int wbfs_writepage(struct page *page, struct writeback_control *wbc)
{
	struct folio *folio = page_folio(page);
	struct inode *inode = folio->mapping->host;
	struct wbfs_inode *wi = WBFS_I(inode);
	struct wbfs_sb *fs = WBFS_SB(inode->i_sb);
	struct bio *bio;

	folio_start_writeback(folio);
	folio_unlock(folio);
	atomic_long_add(folio_nr_pages(folio), &wi->pages_submitted);
	atomic_long_add(folio_nr_pages(folio), &fs->pages_in_flight);
	bio = bio_alloc(fs->bdev, 1, REQ_OP_WRITE | wbc_to_write_flags(wbc),
			GFP_NOFS);
	bio->bi_iter.bi_sector = wi->start + (folio_pos(folio) >> SECTOR_SHIFT);
	bio->bi_end_io = wbfs_data_end_io;
	bio_add_folio_nofail(bio, folio, folio_size(folio), 0);
	wbfs_submit(fs, bio);
	return 0;
}

static const struct address_space_operations wbfs_aops_writepage = {
	.dirty_folio	= filemap_dirty_folio,
	.writepages	= wbfs_writepages,
	.writepage	= wbfs_writepage,
	.write_begin	= wbfs_write_begin,
	.write_end	= wbfs_write_end,
};

void kshim_wbfs_set_writepage(struct inode *inode, bool on)
{
	inode->i_mapping->a_ops = on ? &wbfs_aops_writepage : &wbfs_aops;
}

/* ==== Inodes ============================================================= */

struct wbfs_raw_inode {
	__le64 ino, size, mtime_sec, start;
};

static void wbfs_inode_end_io(struct bio *bio)
{
	__free_page(bio->bi_private);
	bio_put(bio);
}

/* One sector per inode; WB_SYNC_ALL waits for it, as a data-integrity
 * sync must. */
static int wbfs_write_inode(struct inode *inode, struct writeback_control *wbc)
{
	struct wbfs_inode *wi = WBFS_I(inode);
	struct wbfs_sb *fs = WBFS_SB(inode->i_sb);
	struct page *page = alloc_page(GFP_NOFS | __GFP_ZERO);
	struct wbfs_raw_inode *raw;
	struct bio *bio;
	int err = 0;

	if (!page)
		return -ENOMEM;
	atomic_long_inc(&wi->write_inode_calls);
	raw = page_address(page);
	raw->ino = cpu_to_le64(inode->i_ino);
	raw->size = cpu_to_le64(i_size_read(inode));
	raw->mtime_sec = cpu_to_le64(inode_get_mtime_sec(inode));
	raw->start = cpu_to_le64(wi->start);
	bio = bio_alloc(fs->bdev, 1, REQ_OP_WRITE | wbc_to_write_flags(wbc),
			GFP_NOFS);
	bio->bi_iter.bi_sector = WBFS_INODE_SECTOR(inode->i_ino);
	__bio_add_page(bio, page, SECTOR_SIZE, 0);
	atomic64_add(SECTOR_SIZE, &fs->bytes_written);
	if (wbc->sync_mode == WB_SYNC_ALL) {
		err = submit_bio_wait(bio);
		bio_put(bio);
		__free_page(page);
		return err;
	}
	bio->bi_private = page;
	bio->bi_end_io = wbfs_inode_end_io;
	submit_bio(bio);
	return 0;
}

static struct inode *wbfs_alloc_inode(struct super_block *sb)
{
	struct wbfs_inode *wi = kzalloc(sizeof(*wi), GFP_KERNEL);

	if (!wi)
		return NULL;
	/* What the kernel's inode slab constructor does. */
	inode_init_once(&wi->vfs);
	return &wi->vfs;
}

static void wbfs_free_inode(struct inode *inode)
{
	kfree(WBFS_I(inode));
}

static const struct super_operations wbfs_sops = {
	.alloc_inode	= wbfs_alloc_inode,
	.free_inode	= wbfs_free_inode,
	.write_inode	= wbfs_write_inode,
};

struct inode *kshim_wbfs_create(struct super_block *sb, u64 max_bytes)
{
	struct wbfs_sb *fs = WBFS_SB(sb);
	sector_t sectors = round_up(max(max_bytes, 1ULL), PAGE_SIZE) >> SECTOR_SHIFT;
	struct wbfs_inode *wi;
	struct inode *inode;
	unsigned long ino;
	sector_t start;

	spin_lock(&fs->lock);
	if (fs->next_ino >= fs->max_inodes ||
	    fs->next_sector + sectors > fs->nr_sectors) {
		spin_unlock(&fs->lock);
		return ERR_PTR(-ENOSPC);
	}
	ino = ++fs->next_ino;
	start = fs->next_sector;
	fs->next_sector += sectors;
	spin_unlock(&fs->lock);

	inode = new_inode(sb);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	wi = WBFS_I(inode);
	wi->start = start;
	wi->max_bytes = sectors << SECTOR_SHIFT;
	inode->i_ino = ino;
	inode->i_mode = S_IFREG | 0644;
	inode->i_mapping->a_ops = &wbfs_aops;
	inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
	/* Only hashed inodes go on the writeback lists (__mark_inode_dirty()). */
	insert_inode_hash(inode);
	return inode;
}

/* As unlink and the last close: no links, so iput() evicts it. */
void kshim_wbfs_release(struct inode *inode)
{
	clear_nlink(inode);
	iput(inode);
}

ssize_t kshim_wbfs_write(struct inode *inode, loff_t pos, const void *buf,
			 size_t len)
{
	struct file file = {
		.f_mapping = inode->i_mapping,
		.f_inode = inode,
		.f_mode = FMODE_WRITE,
	};
	struct kvec kv = { .iov_base = (void *)buf, .iov_len = len };
	struct iov_iter iter;
	struct kiocb iocb;
	ssize_t ret;

	init_sync_kiocb(&iocb, &file);
	iocb.ki_pos = pos;
	iov_iter_kvec(&iter, ITER_SOURCE, &kv, 1, len);
	inode_lock(inode);
	ret = generic_perform_write(&iocb, &iter);
	inode_unlock(inode);
	return ret;
}

void kshim_wbfs_touch_time(struct inode *inode)
{
	inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
	__mark_inode_dirty(inode, I_DIRTY_TIME);
}

int kshim_wbfs_read_disk(struct inode *inode, loff_t pos, void *buf,
			 size_t len)
{
	struct wbfs_inode *wi = WBFS_I(inode);
	struct wbfs_sb *fs = WBFS_SB(inode->i_sb);
	struct page *page;
	int err = 0;

	if (pos < 0 || pos + len > wi->max_bytes)
		return -EINVAL;
	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	while (len && !err) {
		loff_t base = round_down(pos, PAGE_SIZE);
		size_t off = pos - base, n = min_t(size_t, len, PAGE_SIZE - off);
		struct bio *bio = bio_alloc(fs->bdev, 1, REQ_OP_READ, GFP_KERNEL);

		bio->bi_iter.bi_sector = wi->start + (base >> SECTOR_SHIFT);
		__bio_add_page(bio, page, PAGE_SIZE, 0);
		err = submit_bio_wait(bio);
		bio_put(bio);
		memcpy(buf, page_address(page) + off, n);
		buf += n;
		pos += n;
		len -= n;
	}
	__free_page(page);
	return err;
}

void kshim_wbfs_get_stats(struct inode *inode,
			  struct kshim_wbfs_inode_stats *st)
{
	struct wbfs_inode *wi = WBFS_I(inode);

	st->writepages_calls = atomic_long_read(&wi->writepages_calls);
	st->pages_submitted = atomic_long_read(&wi->pages_submitted);
	st->pages_written = atomic_long_read(&wi->pages_written);
	st->write_inode_calls = atomic_long_read(&wi->write_inode_calls);
	st->last_written_ns = atomic64_read(&wi->last_written_ns);
}

void kshim_wbfs_sectors(struct inode *inode, sector_t *data_start,
			u64 *data_sectors, sector_t *inode_sector)
{
	struct wbfs_inode *wi = WBFS_I(inode);

	*data_start = wi->start;
	*data_sectors = wi->max_bytes >> SECTOR_SHIFT;
	*inode_sector = WBFS_INODE_SECTOR(inode->i_ino);
}

u64 kshim_wbfs_bytes_written(struct super_block *sb)
{
	return atomic64_read(&WBFS_SB(sb)->bytes_written);
}

long kshim_wbfs_pages_in_flight(struct super_block *sb)
{
	return atomic_long_read(&WBFS_SB(sb)->pages_in_flight);
}

/* ==== Mount and unmount ================================================== */

static void wbfs_kill_sb(struct super_block *sb)
{
	struct wbfs_sb *fs = WBFS_SB(sb);

	kill_anon_super(sb);	/* generic_shutdown_super(): sync, evict */
	kfree(fs);
}

static struct file_system_type wbfs_type = {
	.name		= "kshim_wbfs",
	.kill_sb	= wbfs_kill_sb,
};

static struct super_block *wbfs_mount(struct kshim_bdev *kb,
				      unsigned int max_inodes,
				      struct super_block *bdi_of)
{
	struct block_device *bdev = kshim_bdev_bdev(kb);
	struct super_block *sb;
	struct inode *root;
	struct wbfs_sb *fs;
	sector_t data;
	int err;

	if (bdev_logical_block_size(bdev) != SECTOR_SIZE) {
		pr_err("kshim_wbfs: needs a 512-byte sector device\n");
		return ERR_PTR(-EINVAL);
	}
	data = round_up(WBFS_INODE_SECTOR(max_inodes) + 1,
			PAGE_SIZE >> SECTOR_SHIFT);
	if (data >= bdev_nr_sectors(bdev)) {
		pr_err("kshim_wbfs: device too small for %u inodes\n",
		       max_inodes);
		return ERR_PTR(-ENOSPC);
	}
	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs)
		return ERR_PTR(-ENOMEM);
	fs->kb = kb;
	fs->bdev = bdev;
	fs->max_inodes = max_inodes;
	fs->next_sector = data;
	fs->nr_sectors = bdev_nr_sectors(bdev);
	spin_lock_init(&fs->lock);

	/* As a mount does: a new superblock, returned with s_umount held. */
	sb = sget(&wbfs_type, NULL, set_anon_super, 0, NULL);
	if (IS_ERR(sb)) {
		kfree(fs);
		return sb;
	}
	sb->s_fs_info = fs;
	sb->s_op = &wbfs_sops;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_bdev = NULL;	/* data goes through bios, not the bdev's cache */
	if (bdi_of) {
		/*
		 * Another sb's bdi, as two filesystems on one disk share its
		 * bdi_writeback: both sbs' inodes on one set of lists. Not
		 * SB_I_PERSB_BDI: the owner unregisters it; each sb holds a
		 * reference (put by fs/super.c when the sb is freed).
		 */
		sb->s_bdi = bdi_get(bdi_of->s_bdi);
		err = 0;
	} else {
		err = super_setup_bdi(sb);
	}
	if (err) {
		deactivate_locked_super(sb);
		return ERR_PTR(err);
	}
	/* A root directory: fs-writeback.c only writes a superblock that
	 * has one (super_trylock_shared()). Empty; files are made by
	 * kshim_wbfs_create(), not by name. */
	root = new_inode(sb);
	if (root) {
		root->i_ino = 0;	/* file numbers start at 1 */
		root->i_mode = S_IFDIR | 0755;
		set_nlink(root, 2);
	}
	sb->s_root = d_make_root(root);
	if (!sb->s_root) {
		deactivate_locked_super(sb);
		return ERR_PTR(-ENOMEM);
	}
	sb->s_flags |= SB_ACTIVE;
	smp_wmb();
	sb->s_flags |= SB_BORN;
	up_write(&sb->s_umount);
	return sb;
}

struct super_block *kshim_wbfs_mount(struct kshim_bdev *kb,
				     unsigned int max_inodes)
{
	return wbfs_mount(kb, max_inodes, NULL);
}

struct super_block *kshim_wbfs_mount_sharing_bdi(struct kshim_bdev *kb,
						 unsigned int max_inodes,
						 struct super_block *other)
{
	return wbfs_mount(kb, max_inodes, other);
}

void kshim_wbfs_umount(struct super_block *sb)
{
	down_write(&sb->s_umount);
	deactivate_locked_super(sb);
}
