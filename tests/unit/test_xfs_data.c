// SPDX-License-Identifier: GPL-2.0
/*
 * XFS file data through the real VFS, iomap and XFS's own writeback
 * (kshim/vfs.h's file calls, docs/data.md): buffered writes into real
 * page-cache folios and reads back, holes, unwritten extents and their
 * conversion at I/O completion (xfs_end_io() -> xfs_iomap_write_unwritten()),
 * fallocate's modes, truncation, O_DIRECT, O_APPEND, RWF_NOWAIT, and
 * what fsync, fdatasync and O_DSYNC promise across a power failure (with
 * the log on the data device or a device of its own) and what they cost
 * in cache flushes; sub-block direct writes; writes on a full
 * filesystem (into preallocation or a last block, and taking back
 * another file's speculative preallocation); writes, copies on write
 * and unshares the device fails; fallocate on an O_DSYNC file; and
 * writeback revalidating a mapping changed under a pass.
 * Every file's contents are checked byte for byte against a model, again
 * after a remount (the page cache gone: the bytes came from the device),
 * and every image passes xfs_repair -n (xfs_fixture_remove()).
 *
 * With tests/unit/patches/example-fsync-skips-log-force.patch
 * (xfs_file_fsync() never forces the log),
 * test_synced_data_survives_power_cut fails at every seed tried: the
 * files come back empty after the power cut (docs/data.md).
 */
#include <linux/fs.h>
#include <linux/falloc.h>
#include <linux/pagemap.h>
#include <linux/stat.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/backing-dev.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include <kshim/sysctl.h>
#include "xfs_fixture.h"
#include "xfs_data_model.h"
#include "xfs_inode.h"
#include "xfs_bmap.h"
#include "xfs_bit.h"
#include "xfs_fsops.h"
#include <kshim/bdev.h>
#include <kshim/xfs.h>

/*
 * Buffered writes of a seeded pattern at unaligned offsets, over page
 * boundaries and past EOF, leaving holes: what reads back is the model,
 * holes read as zeroes, the size is the end of the last write. The
 * writes dirty page-cache folios; fsync writes them back through XFS's
 * writepages (delayed allocation converted), and after a remount the
 * same bytes come from the device.
 */
static void test_buffered_write_read_back(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	u64 s = kshim_seed();
	struct kstat st;

	mopen(&m[0], root, "f", O_RDWR | O_CREAT | O_EXCL);
	mwrite(&m[0], s, 100, 3 * PAGE_SIZE + 77, 0);
	mwrite(&m[0], s + 1, 5 * PAGE_SIZE - 9, 18, 0);	/* across a page */
	mwrite(&m[0], s + 2, 40 * KB + 1, 50 * KB, 0);	/* past EOF */
	mwrite(&m[0], s + 3, 200 * KB + 3, 1000, 0);	/* a hole before */
	mwrite(&m[0], s + 4, 2 * PAGE_SIZE, 10, 0);	/* overwrite */
	KSHIM_ASSERT(dirty_in_cache(m[0].f));
	mcheck(&m[0], "in the page cache");
	/* Delayed allocation: no blocks on disk before writeback. */
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 200 * KB), 2);

	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	KSHIM_ASSERT(!dirty_in_cache(m[0].f));
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 200 * KB), 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 150 * KB), -1);	/* the hole */
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(m[0].f->f_path.dentry, &st), 0);
	/* Sparse: far fewer blocks than the size. */
	KSHIM_ASSERT(st.blocks * 512 < 150 * KB);
	KSHIM_ASSERT(st.blocks * 512 >= 90 * KB);

	remount(&fx, &root, m, 1);
	KSHIM_ASSERT(!dirty_in_cache(m[0].f));
	mcheck(&m[0], "after a remount");
	finish(&fx, root, m, 1);
}

/*
 * fallocate() allocates unwritten extents: they read as zeroes, and a
 * write into them is converted to written at I/O completion
 * (xfs_end_io() on XFS's own workqueue, xfs_iomap_write_unwritten()):
 * after writeback and a remount the written range is a written extent
 * with the data, the rest still unwritten and zero.
 */
static void test_unwritten_extents_convert_at_completion(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	u64 s = kshim_seed();

	mopen(&m[0], root, "prealloc", O_RDWR | O_CREAT);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, 0, 0, 256 * KB), 0);
	msize(&m[0], 256 * KB);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 0), 1);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 255 * KB), 1);
	mcheck(&m[0], "preallocated");
	/* KEEP_SIZE past EOF: blocks, no size. */
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_KEEP_SIZE,
					    256 * KB, 64 * KB), 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 300 * KB), 1);
	mcheck(&m[0], "preallocated past EOF");

	mwrite(&m[0], s, 64 * KB + 5, 70 * KB, 0);
	mwrite(&m[0], s + 1, 250 * KB, 10 * KB, 0);	/* into KEEP_SIZE */
	mcheck(&m[0], "written into");
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);
	KSHIM_ASSERT(!dirty_in_cache(m[0].f));

	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 0), 1);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 100 * KB), 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 128 * KB), 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 140 * KB), 1);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 255 * KB), 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 259 * KB), 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 300 * KB), 1);
	finish(&fx, root, m, 1);
}

static void shift(struct mfile *m, loff_t from, loff_t to)
{
	memmove(m->want + to, m->want + from, m->size - from);
}

/*
 * Punch hole, zero range, collapse range and insert range: the contents
 * after each, in the page cache and after a remount. Collapse and insert
 * need block-aligned ranges (-EINVAL otherwise).
 */
static void test_punch_zero_collapse_insert(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	u64 s = kshim_seed();

	mopen(&m[0], root, "shapes", O_RDWR | O_CREAT);
	mwrite(&m[0], s, 0, 128 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);

	/* Punch an unaligned range: partial blocks zeroed, whole freed. */
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_PUNCH_HOLE |
					    FALLOC_FL_KEEP_SIZE,
					    8 * KB + 100, 16 * KB), 0);
	memset(m[0].want + 8 * KB + 100, 0, 16 * KB);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 12 * KB), -1);
	mcheck(&m[0], "punched");
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_PUNCH_HOLE,
					    0, 4096), -EOPNOTSUPP);

	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_ZERO_RANGE,
					    30 * KB + 7, 9 * KB), 0);
	memset(m[0].want + 30 * KB + 7, 0, 9 * KB);
	mcheck(&m[0], "zeroed");

	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_COLLAPSE_RANGE,
					    40 * KB + 1, 8 * KB), -EINVAL);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_COLLAPSE_RANGE,
					    40 * KB, 8 * KB), 0);
	shift(&m[0], 48 * KB, 40 * KB);
	msize(&m[0], m[0].size - 8 * KB);
	mcheck(&m[0], "collapsed");

	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_INSERT_RANGE,
					    4 * KB, 12 * KB), 0);
	m[0].size += 12 * KB;
	shift(&m[0], 4 * KB, 16 * KB);
	memset(m[0].want + 4 * KB, 0, 12 * KB);
	mcheck(&m[0], "inserted");
	/* Write into the inserted hole, past the old end too. */
	mwrite(&m[0], s + 1, 6 * KB + 3, 3 * KB, 0);
	mwrite(&m[0], s + 2, m[0].size - 100, 300, 0);
	mcheck(&m[0], "written after insert");

	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	finish(&fx, root, m, 1);
}

/*
 * ftruncate down into the middle of a block (the tail of the block is
 * zeroed on disk by iomap_truncate_page(), so truncating up again reads
 * zeroes, not old data), then up; O_TRUNC on open.
 */
static void test_truncate_down_and_up(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[2] = { };
	u64 s = kshim_seed();

	mopen(&m[0], root, "t", O_RDWR | O_CREAT);
	mwrite(&m[0], s, 0, 40 * KB + 11, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[0].f, 5000), 0);
	msize(&m[0], 5000);
	mcheck(&m[0], "truncated down");
	KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[0].f, 20000), 0);
	msize(&m[0], 20000);
	mcheck(&m[0], "truncated up");
	KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[0].f, -1), -EINVAL);

	/* The same through the device: synced, remounted, up again. */
	KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[0].f, 3000), 0);
	msize(&m[0], 3000);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[0].f, 9000), 0);
	msize(&m[0], 9000);
	mcheck(&m[0], "up after a remount");

	/* O_TRUNC empties an existing file; O_CREAT | O_EXCL refuses it. */
	mopen(&m[1], root, "o", O_RDWR | O_CREAT);
	mwrite(&m[1], s + 1, 0, 10 * KB, 0);
	mclose(&m[1]);
	KSHIM_ASSERT_EQ(kshim_vfs_open(root, "o", O_RDWR | O_CREAT | O_EXCL,
				       0644, &m[1].f), -EEXIST);
	mopen(&m[1], root, "o", O_WRONLY | O_TRUNC);
	msize(&m[1], 0);
	mclose(&m[1]);
	mopen(&m[1], root, "o", O_RDONLY);
	mcheck(&m[1], "O_TRUNC");
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[1].f, "x", 1, 0, 0), -EBADF);
	finish(&fx, root, m, 2);
}

/*
 * O_DIRECT: block-aligned writes and reads go to the device without the
 * page cache (-EINVAL when unaligned); a direct read sees buffered data
 * written before it (the range is written back first), and a buffered
 * read sees direct writes.
 */
static void test_direct_io(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[2] = { };
	u64 s = kshim_seed();
	size_t len = 64 * KB;
	u8 *buf = kmalloc(len, GFP_KERNEL | __GFP_NOFAIL);
	size_t i;

	mopen(&m[0], root, "d", O_RDWR | O_CREAT | O_DIRECT);
	mwrite(&m[0], s, 0, len, 0);
	KSHIM_ASSERT(!dirty_in_cache(m[0].f));
	KSHIM_ASSERT_EQ(m[0].f->f_mapping->nrpages, 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 0), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[0].f, buf, 100, 512, 0), -EINVAL);
	memset(buf, 0, len);
	KSHIM_ASSERT_EQ(kshim_vfs_pread(m[0].f, buf, len, 0, 0), (ssize_t)len);
	KSHIM_ASSERT_EQ(memcmp(buf, m[0].want, len), 0);

	/* Buffered on another open file of the same inode, then direct. */
	mopen(&m[1], root, "d", O_RDWR);
	kvfree(m[1].want);
	m[1].want = m[0].want;	/* the same model */
	for (i = 0; i < 8 * KB; i++)
		buf[i] = m[0].want[16 * KB + 10 + i] = pat(s + 1, i);
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[1].f, buf, 8 * KB, 16 * KB + 10, 0),
			8 * KB);
	KSHIM_ASSERT(dirty_in_cache(m[1].f));
	KSHIM_ASSERT_EQ(kshim_vfs_pread(m[0].f, buf, len, 0, 0), (ssize_t)len);
	KSHIM_ASSERT_EQ(memcmp(buf, m[0].want, len), 0);
	/* Direct over cached pages: the cached copy is invalidated. */
	mwrite(&m[0], s + 2, 16 * KB, 8 * KB, 0);
	m[1].size = m[0].size;
	mcheck(&m[1], "buffered after direct");
	/* Direct past EOF extends the file. */
	mwrite(&m[0], s + 3, len, 4 * KB, 0);
	m[1].size = m[0].size;
	mcheck(&m[1], "extended by direct I/O");
	m[1].want = NULL;
	mclose(&m[1]);

	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	kfree(buf);
	finish(&fx, root, m, 1);
}

/*
 * Reflink (the image has reflink=1, mkfs.xfs's default): a clone shares
 * the source's blocks; a later write to either file copies the block it
 * writes (copy on write) and leaves the other file's bytes and block as
 * they were. A dedupe shares equal ranges and refuses different ones
 * (-EBADE); the remap rules' -EINVALs; all of it after a remount.
 */
static void test_reflink_clone_then_copy_on_write(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[2] = { };
	u64 s = kshim_seed();

	mopen(&m[0], root, "src", O_RDWR | O_CREAT);
	mopen(&m[1], root, "dst", O_RDWR | O_CREAT);
	mwrite(&m[0], s, 0, 64 * KB + 100, 0);	/* dirty: clone writes it */

	/* Whole blocks at 0 to dst at 16 KiB; the last 100 bytes up to the
	 * source's end of file, past dst's. */
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[0].f, 0, m[1].f, 16 * KB,
					      64 * KB), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[0].f, 64 * KB, m[1].f,
					      80 * KB, 100), 0);
	memcpy(m[1].want + 16 * KB, m[0].want, 64 * KB + 100);
	m[1].size = 80 * KB + 100;
	mcheck(&m[1], "cloned");
	KSHIM_ASSERT(xfs_is_reflink_inode(XFS_I(file_inode(m[0].f))));
	KSHIM_ASSERT(xfs_is_reflink_inode(XFS_I(file_inode(m[1].f))));
	KSHIM_ASSERT_EQ(disk_block(m[1].f, 20 * KB), disk_block(m[0].f, 4 * KB));
	KSHIM_ASSERT(disk_block(m[0].f, 4 * KB) != NULLFSBLOCK);

	/* The remap rules: unaligned starts and lengths not at EOF,
	 * overlap within one file, a source range past EOF. */
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[0].f, 100, m[1].f, 0, 4096),
			-EINVAL);
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[0].f, 0, m[1].f, 0, 5000),
			-EINVAL);
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[0].f, 0, m[0].f, 4096,
					      8192), -EINVAL);
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[0].f, 128 * KB, m[1].f, 0,
					      4096), -EINVAL);

	/* Copy on write, both ways: buffered into the source, direct
	 * into the destination. */
	mwrite(&m[0], s + 1, 4 * KB + 10, 6 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	mwrite(&m[1], s + 2, 48 * KB, 4 * KB, RWF_DSYNC);
	mcheck(&m[0], "source written after the clone");
	mcheck(&m[1], "destination after the source's write");
	KSHIM_ASSERT(disk_block(m[0].f, 4 * KB) != disk_block(m[1].f, 20 * KB));
	KSHIM_ASSERT(disk_block(m[0].f, 32 * KB) != disk_block(m[1].f, 48 * KB));
	KSHIM_ASSERT_EQ(disk_block(m[0].f, 40 * KB), disk_block(m[1].f, 56 * KB));

	/* Dedupe: equal bytes (src 36..44 KiB, dst 52..60 KiB) are
	 * shared; different ones refused. */
	KSHIM_ASSERT_EQ(kshim_vfs_dedupe_range(m[0].f, 36 * KB, m[1].f,
					       52 * KB, 8 * KB), 8 * KB);
	KSHIM_ASSERT_EQ(kshim_vfs_dedupe_range(m[0].f, 0, m[1].f, 0, 8 * KB),
			-EBADE);
	mcheck(&m[1], "deduped");

	remount(&fx, &root, m, 2);
	mcheck(&m[0], "source after a remount");
	mcheck(&m[1], "destination after a remount");
	finish(&fx, root, m, 2);
}

/* O_APPEND and RWF_APPEND write at EOF whatever the position; RWF_NOWAIT
 * on a read never waits for the device. */
static void test_append_and_nowait(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	u64 s = kshim_seed();
	u8 b[100];
	ssize_t ret;
	size_t i;

	mopen(&m[0], root, "a", O_RDWR | O_CREAT | O_APPEND);
	mwrite(&m[0], s, 0, 1000, 0);
	for (i = 0; i < sizeof(b); i++)
		b[i] = m[0].want[1000 + i] = pat(s + 1, i);
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[0].f, b, sizeof(b), 0, 0), 100);
	m[0].size = 1100;
	mcheck(&m[0], "O_APPEND");
	mclose(&m[0]);

	mopen(&m[0], root, "a", O_RDWR);
	for (i = 0; i < sizeof(b); i++)
		b[i] = m[0].want[1100 + i] = pat(s + 2, i);
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[0].f, b, sizeof(b), 10, RWF_APPEND),
			100);
	m[0].size = 1200;
	mcheck(&m[0], "RWF_APPEND");
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[0].f, b, 1, 0, 0x1000), -EOPNOTSUPP);

	remount(&fx, &root, m, 1);
	/*
	 * Nothing cached after the remount: the read starts readahead and
	 * returns -EAGAIN rather than wait for it (filemap_get_pages()),
	 * unless that I/O has completed by the time it looks, which a slow
	 * host (TSan, parallel backend) lets happen: then the data. In the
	 * det backend the device's I/O takes virtual time and the read
	 * looks first: -EAGAIN, always (a read that waited would not).
	 */
	ret = kshim_vfs_pread(m[0].f, b, sizeof(b), 0, RWF_NOWAIT);
	if (!strcmp(kshim_sched->name, "det"))
		KSHIM_ASSERT_EQ(ret, -EAGAIN);
	KSHIM_ASSERT(ret == -EAGAIN || ret == sizeof(b));
	if (ret == sizeof(b))
		KSHIM_ASSERT_EQ(memcmp(b, m[0].want, sizeof(b)), 0);
	mcheck(&m[0], "after a remount");
	KSHIM_ASSERT_EQ(kshim_vfs_pread(m[0].f, b, sizeof(b), 0, RWF_NOWAIT),
			100);
	KSHIM_ASSERT_EQ(memcmp(b, m[0].want, sizeof(b)), 0);
	finish(&fx, root, m, 1);
}

/*
 * What a power failure must not take: data and size covered by a
 * completed fsync(), fdatasync() of an overwrite (no metadata to log:
 * only the cache flush makes it durable), an RWF_DSYNC write, and a
 * write on an O_DSYNC file. The device's whole volatile cache is lost;
 * recovery runs at the remount.
 */
static void synced_data_survives_power_cut(struct xfs_fixture *f)
{
	struct xfs_fixture fx = *f;
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[4] = { };
	u64 s = kshim_seed();
	unsigned int i;

	/* The files exist, empty, on the device: what is lost below is
	 * data and sizes, not the names. */
	mopen(&m[0], root, "fsync", O_RDWR | O_CREAT);
	mopen(&m[1], root, "fdatasync", O_RDWR | O_CREAT);
	mopen(&m[2], root, "rwf_dsync", O_RDWR | O_CREAT);
	mopen(&m[3], root, "o_dsync", O_RDWR | O_CREAT | O_DSYNC);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);

	mwrite(&m[0], s, 0, 30 * KB + 1, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);

	mwrite(&m[1], s + 1, 0, 20 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[1].f, 1), 0);
	mwrite(&m[1], s + 2, 4 * KB + 3, 5 * KB, 0);	/* overwrite */
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[1].f, 1), 0);

	mwrite(&m[2], s + 3, 1000, 12 * KB, RWF_DSYNC);
	mwrite(&m[2], s + 4, 100, 100, RWF_SYNC);

	mwrite(&m[3], s + 5, 0, 9 * KB, 0);
	mwrite(&m[3], s + 6, 1 * KB, 100, 0);

	power_cut_remount(&fx, &root, m, 4);
	KSHIM_ASSERT(kshim_printk_contains("Starting recovery"));
	for (i = 0; i < 4; i++)
		mcheck(&m[i], "after the power cut");
	finish(&fx, root, m, 4);
}

static void test_synced_data_survives_power_cut(void)
{
	synced_data_survives_power_cut(&(struct xfs_fixture){ .dev = &dev_ssd });
}

/*
 * The same promises with the log on a device of its own: the log force
 * flushes only the log device, so fsync must flush the data device's
 * cache itself, before the log makes the new size durable
 * (xfs_file_fsync()'s m_logdev_targp != m_ddev_targp), or the size
 * survives and the data under it does not.
 */
static void test_synced_data_survives_power_cut_external_log(void)
{
	synced_data_survives_power_cut(&(struct xfs_fixture){
		.dev = &dev_ssd, .log_size = 16 << 20 });
}

/*
 * A writer far past the dirty limit is held back by the real
 * balance_dirty_pages(): the system's dirty and writeback pages stay near
 * vm/dirty_bytes while it writes six times as much (the writer sleeps
 * when the flusher does not keep up), because the flusher
 * (fs/fs-writeback.c's wb_workfn(), woken past the background
 * threshold) writes the file back through xfs_vm_writepages() meanwhile:
 * blocks are allocated (no delayed allocation left at the start of the
 * file) and most of the file is clean before anyone syncs.
 */
static void test_dirty_data_is_throttled_and_flushed(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd, .size = 128 << 20 };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	long ratio = kshim_sysctl_read_long("vm/dirty_ratio");
	long bg_ratio = kshim_sysctl_read_long("vm/dirty_background_ratio");
	unsigned long limit = 2 << 20, peak = 0, dirty;
	size_t chunk = 256 * KB, total = 12 << 20;
	u8 *buf = kvmalloc(chunk, GFP_KERNEL | __GFP_NOFAIL);
	struct backing_dev_info *bdi;
	struct file *f;
	loff_t off;

	memset(buf, 0x5a, chunk);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write_ul("vm/dirty_bytes", limit), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write_ul("vm/dirty_background_bytes",
						    limit / 2), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "big", O_RDWR | O_CREAT,
					     0644, &f), 0);
	/* Set when balance_dirty_pages() puts a writer to sleep. */
	bdi = f->f_mapping->host->i_sb->s_bdi;
	bdi->last_bdp_sleep = jiffies - 1000;
	for (off = 0; off < total; off += chunk) {
		KSHIM_ASSERT_EQ(kshim_vfs_pwrite(f, buf, chunk, off, 0), chunk);
		dirty = global_node_page_state(NR_FILE_DIRTY) +
			global_node_page_state(NR_WRITEBACK);
		peak = max(peak, dirty);
	}
	kshim_info("dirty and writeback pages at most %lu, limit %lu\n",
		   peak, limit >> PAGE_SHIFT);
	KSHIM_ASSERT(peak <= 2 * (limit >> PAGE_SHIFT));
	/* Whether the writer had to sleep depends on how fast the flusher
	 * kept up (the parallel backend's host): said, not asserted. */
	kshim_info("the writer %s put to sleep by balance_dirty_pages()\n",
		   time_after(bdi->last_bdp_sleep, jiffies - 1000) ?
		   "was" : "was not");
	KSHIM_ASSERT_EQ(extent_state(f, 0), 0);
	KSHIM_ASSERT(global_node_page_state(NR_FILE_DIRTY) <
		     (total >> PAGE_SHIFT) / 2);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(f, 0), 0);
	KSHIM_ASSERT(!dirty_in_cache(f));
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);

	KSHIM_ASSERT_EQ(kshim_sysctl_write_ul("vm/dirty_ratio", ratio), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_write_ul("vm/dirty_background_ratio",
					      bg_ratio), 0);
	kvfree(buf);
	finish(&fx, root, NULL, 0);
}

/* The data device's cache flushes so far: REQ_OP_FLUSH bios, and
 * writes carrying REQ_PREFLUSH (the log's). */
struct flushes {
	u64 flush, preflush;
};

static struct flushes flushes_now(struct xfs_fixture *fx)
{
	struct kshim_bdev_stats st;

	kshim_bdev_get_stats(kshim_xfs_data_bdev(fx->x), &st);
	return (struct flushes){ st.ios[KSHIM_OP_FLUSH], st.preflushes };
}

/* fsync or fdatasync of F, and how the device's cache was flushed for
 * it: each flush is a full drain of the device's cache, so one per call
 * is what durability needs; a second is a wasted stall. */
static void fsync_flushes_once(struct xfs_fixture *fx, struct file *f,
			       int datasync, bool log_write)
{
	struct flushes a = flushes_now(fx), b;

	KSHIM_ASSERT_EQ(kshim_vfs_fsync(f, datasync), 0);
	b = flushes_now(fx);
	kshim_info("fsync(datasync %d): %llu flushes, %llu preflushed writes\n",
		   datasync, b.flush - a.flush, b.preflush - a.preflush);
	if (log_write) {
		/* The log write's PREFLUSH drained the data with it. */
		KSHIM_ASSERT(b.preflush > a.preflush);
		KSHIM_ASSERT_EQ(b.flush - a.flush, 0);
	} else {
		KSHIM_ASSERT_EQ(b.preflush - a.preflush, 0);
		KSHIM_ASSERT_EQ(b.flush - a.flush, 1);
	}
}

/*
 * Durability costs one cache flush per fsync on a filesystem with an
 * internal log: an allocating write's fsync forces the log, whose write
 * carries PREFLUSH (no separate flush); fdatasync of an overwrite has
 * nothing to log and flushes once. A second flush is correct but halves
 * the fsync rate of a database's commit loop.
 */
static void test_fsync_flushes_the_device_cache_once(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	u64 s = kshim_seed();
	int i;

	mopen(&m[0], root, "f", O_RDWR | O_CREAT);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);
	for (i = 0; i < 3; i++) {
		mwrite(&m[0], s + i, i * 16 * KB, 16 * KB, 0);
		fsync_flushes_once(&fx, m[0].f, 0, true);
	}
	for (i = 0; i < 3; i++) {
		mwrite(&m[0], s + 10 + i, i * 8 * KB + 100, 3 * KB, 0);
		fsync_flushes_once(&fx, m[0].f, 1, false);
	}
	mcheck(&m[0], "synced");
	finish(&fx, root, m, 1);
}

/*
 * O_DIRECT writes aligned to the sector (512 bytes) but not to the
 * block (4 KiB): an overwrite of written blocks, a write into a hole
 * inside EOF (sub-block zeroing: the first, shared-lock attempt is
 * refused with -EAGAIN and retried under the exclusive lock), a write
 * past EOF; and into a reflinked file, whose shared blocks a direct
 * write cannot unshare in part: it falls back to a buffered write and
 * the file it shares with keeps its bytes.
 */
static void test_sub_block_direct_io(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[2] = { };
	u64 s = kshim_seed();

	mopen(&m[0], root, "u", O_RDWR | O_CREAT | O_DIRECT);
	mwrite(&m[0], s, 0, 32 * KB, 0);
	mwrite(&m[0], s + 1, 4 * KB + 512, 1 * KB, 0);	/* overwrite */
	KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[0].f, 64 * KB), 0);
	msize(&m[0], 64 * KB);
	mwrite(&m[0], s + 2, 40 * KB + 512, 1 * KB, 0);	/* into a hole */
	mwrite(&m[0], s + 3, 64 * KB + 1536, 2 * KB, 0);	/* past EOF */
	KSHIM_ASSERT_EQ(m[0].f->f_mapping->nrpages, 0);
	mcheck(&m[0], "written directly");

	mopen(&m[1], root, "c", O_RDWR | O_CREAT | O_DIRECT);
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[0].f, 0, m[1].f, 0, 0), 0);
	memcpy(m[1].want, m[0].want, m[0].size);
	m[1].size = m[0].size;
	mwrite(&m[1], s + 4, 8 * KB + 512, 1 * KB, 0);	/* shared block */
	mcheck(&m[1], "the clone, written directly");
	mcheck(&m[0], "the source, after its clone's write");

	remount(&fx, &root, m, 2);
	mcheck(&m[0], "the source after a remount");
	mcheck(&m[1], "the clone after a remount");
	finish(&fx, root, m, 2);
}

/*
 * fallocate()'s promise: a write into preallocated space does not fail
 * for want of space. Every free block is moved into the reserve pool
 * (xfs_io's resblks), so the filesystem is full (a write into a hole is
 * -ENOSPC), and then buffered and direct writes into blocks preallocated
 * past EOF before still succeed, as does their fsync, which converts
 * the unwritten extents and logs the new sizes, from the reserve pool;
 * so does a write that needs no new block at all: one that extends the
 * file within its last, written block, whose completion only logs the
 * new size (xfs_setfilesize(), which reserves no block). After a power
 * cut the data and sizes are there.
 */
static void test_write_into_preallocation_on_a_full_filesystem(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct mfile m[4] = { };
	u64 s = kshim_seed(), resblks = mp->m_resblks;
	char b[KB] = { 0 };
	unsigned int i;

	mopen(&m[0], root, "buffered", O_RDWR | O_CREAT);
	mopen(&m[1], root, "direct", O_RDWR | O_CREAT | O_DIRECT);
	mopen(&m[2], root, "hole", O_RDWR | O_CREAT);
	mopen(&m[3], root, "tail", O_RDWR | O_CREAT);
	for (i = 0; i < 2; i++)
		KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[i].f, FALLOC_FL_KEEP_SIZE,
						    0, 256 * KB), 0);
	mwrite(&m[3], s + 2, 0, 12 * KB - 100, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[3].f, 0), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);
	KSHIM_ASSERT_EQ(xfs_reserve_blocks(mp, resblks + free_blocks(mp)), 0);
	KSHIM_ASSERT_EQ(free_blocks(mp), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[2].f, b, sizeof(b), 0, 0), -ENOSPC);

	mwrite(&m[0], s, 0, 100 * KB + 3, 0);
	mwrite(&m[1], s + 1, 0, 64 * KB, 0);
	mwrite(&m[3], s + 3, 12 * KB - 100, 100, 0);
	KSHIM_ASSERT_EQ(extent_state(m[3].f, 8 * KB), 0);
	for (i = 0; i < 2; i++)
		KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[i].f, 0), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[3].f, 1), 0);
	mcheck(&m[0], "buffered, on a full filesystem");
	mcheck(&m[1], "direct, on a full filesystem");
	mcheck(&m[3], "extended in its last block, on a full filesystem");
	KSHIM_ASSERT_EQ(xfs_reserve_blocks(mp, resblks), 0);

	power_cut_remount(&fx, &root, m, 4);
	for (i = 0; i < 4; i++)
		mcheck(&m[i], "after the power cut");
	finish(&fx, root, m, 4);
}

/* Bytes a file holds on disk past its size: speculative preallocation. */
static s64 blocks_past_eof(struct file *f)
{
	struct kstat st;

	KSHIM_ASSERT_EQ(kshim_vfs_getattr(f->f_path.dentry, &st), 0);
	return (s64)st.blocks * 512 - round_up(st.size, 4096);
}

/*
 * Speculative preallocation is borrowed space: a buffered write that
 * finds the filesystem full flushes dirty data, trims every file's
 * blocks past EOF (the blockgc scan) and tries again, so a writer gets
 * more than the free space it saw, taken from another file's
 * preallocation, before it meets -ENOSPC; the other file's data is
 * untouched.
 */
static void test_enospc_write_takes_back_speculative_preallocation(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct mfile m[2] = { };
	struct file *fill;
	u64 s = kshim_seed();
	s64 free, prealloc;
	loff_t off;

	/* Fill the filesystem, then free 8 MiB of it. */
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "fill", O_RDWR | O_CREAT,
					     0644, &fill), 0);
	for (off = 0; !kshim_vfs_fallocate(fill, 0, off, 1 << 20);
	     off += 1 << 20)
		;
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(fill, FALLOC_FL_PUNCH_HOLE |
					    FALLOC_FL_KEEP_SIZE, 0, 8 << 20), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_close(fill), 0);

	/* Appending writes: preallocation past EOF. */
	mopen(&m[0], root, "appender", O_RDWR | O_CREAT);
	for (off = 0; off < MAXF; off += 64 * KB)
		mwrite(&m[0], s, off, 64 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	prealloc = blocks_past_eof(m[0].f);
	free = free_blocks(mp) << mp->m_sb.sb_blocklog;
	kshim_info("%lld bytes free, %lld preallocated past EOF\n", free,
		   prealloc);
	KSHIM_ASSERT_FATAL(prealloc >= 256 * KB);

	/* Another file written until the space runs out. */
	mopen(&m[1], root, "writer", O_RDWR | O_CREAT);
	kvfree(m[1].want);
	m[1].want = NULL;
	for (off = 0; ; off += 64 * KB) {
		u8 *buf = kvzalloc(64 * KB, GFP_KERNEL | __GFP_NOFAIL);
		ssize_t n = kshim_vfs_pwrite(m[1].f, buf, 64 * KB, off, 0);

		kvfree(buf);
		if (n != 64 * KB) {
			KSHIM_ASSERT(n == -ENOSPC || (n >= 0 && n < 64 * KB));
			off += max_t(ssize_t, n, 0);
			break;
		}
	}
	kshim_info("the writer wrote %lld bytes\n", off);
	KSHIM_ASSERT(off > free);
	KSHIM_ASSERT(blocks_past_eof(m[0].f) < prealloc);
	mcheck(&m[0], "after the other file's ENOSPC");
	KSHIM_ASSERT_EQ(kshim_vfs_close(m[1].f), 0);
	m[1].f = NULL;
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "writer"), 0);
	finish(&fx, root, m, 2);
}

/*
 * A write into preallocated (unwritten) blocks that the device fails:
 * fsync reports -EIO, at once (no log force, no cache flush spent on a
 * write that did not happen: nothing it would make durable is owed),
 * and the blocks stay unwritten, so that after a remount the range
 * reads as zeroes, not as whatever the blocks held before they were
 * allocated. Free space is filled with 0xa5 and freed first, so that a
 * block exposed without having been written shows.
 */
static void test_failed_write_into_preallocation_reads_zeroes(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct kshim_bdev *kb = kshim_xfs_data_bdev(fx.x);
	struct mfile m[1] = { };
	struct kshim_fault eio = {
		.ops = KSHIM_FAULT_WRITE,
		.nr_sectors = (64 * KB) >> 9,
		.status = BLK_STS_IOERR,
	};
	struct flushes before, after;
	u64 s = kshim_seed();
	int id;

	kshim_bdev_forget_lost_writes();
	xfs_fixture_junk_free_space(root, 4 << 20);
	/* syncfs flushes inodegc: the blocks are free when it returns. */
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);

	mopen(&m[0], root, "f", O_RDWR | O_CREAT);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, 0, 0, 64 * KB), 0);
	msize(&m[0], 64 * KB);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 0), 1);
	eio.start = XFS_FSB_TO_DADDR(mp, disk_block(m[0].f, 0));
	id = kshim_bdev_add_fault(kb, &eio);
	KSHIM_ASSERT_FATAL(id >= 0);

	mwrite(&m[0], s + 1, 4 * KB, 40 * KB, 0);
	before = flushes_now(&fx);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), -EIO);
	after = flushes_now(&fx);
	/* The error is all fsync has to say: it forces no log and drains
	 * no cache for a write that did not happen. */
	KSHIM_ASSERT_EQ(after.preflush - before.preflush, 0);
	KSHIM_ASSERT_EQ(after.flush - before.flush, 0);
	KSHIM_ASSERT(kshim_bdev_fault_hits(kb, id) > 0);
	/* The record a model of file contents reads (fsstress's
	 * cfg.io_errors): this file's write failed, the root's data did not. */
	KSHIM_ASSERT(kshim_bdev_write_lost(file_inode(m[0].f)->i_ino));
	KSHIM_ASSERT(!kshim_bdev_write_lost(d_inode(root)->i_ino));
	kshim_bdev_clear_faults(kb);
	KSHIM_ASSERT(!xfs_is_shutdown(mp));
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 4 * KB), 1);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 40 * KB), 1);

	/* Nothing of the write reached the disk. */
	memset(m[0].want, 0, 64 * KB);
	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after the failed write and a remount");
	finish(&fx, root, m, 1);
}

/*
 * fallocate() on an O_DSYNC file is as synchronous as its writes: each
 * call that succeeds is durable when it returns (xfs_file_fallocate()
 * forces the log: after a power cut right after, the new size is there,
 * the preallocated range reads as zeroes and the punched hole stays
 * punched), and each call that is refused (a collapse not block
 * aligned, an insert at EOF) returns its error, not the log force's 0.
 */
static void test_fallocate_on_a_dsync_file_is_durable_or_refused(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	u64 s = kshim_seed();

	mopen(&m[0], root, "dsync", O_RDWR | O_CREAT | O_DSYNC);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);
	mwrite(&m[0], s, 0, 32 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, 0, 32 * KB, 32 * KB), 0);
	msize(&m[0], 64 * KB);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_PUNCH_HOLE |
					    FALLOC_FL_KEEP_SIZE, 8 * KB,
					    8 * KB), 0);
	memset(m[0].want + 8 * KB, 0, 8 * KB);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_COLLAPSE_RANGE,
					    16 * KB + 512, 4 * KB), -EINVAL);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_INSERT_RANGE,
					    64 * KB, 4 * KB), -EINVAL);
	mcheck(&m[0], "after fallocate on an O_DSYNC file");
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 40 * KB), 1);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 12 * KB), -1);

	power_cut_remount(&fx, &root, m, 1);
	mcheck(&m[0], "after the power cut");
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 40 * KB), 1);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 12 * KB), -1);
	finish(&fx, root, m, 1);
}

/*
 * FALLOC_FL_UNSHARE_RANGE's promise: when it returns 0 the range owns
 * its blocks, with the same bytes. Its shared blocks are read (from
 * the device: the page cache is gone after a remount), so a read
 * error is its error: -EIO, the range still shared and intact. Once
 * the device reads again, the unshare succeeds: new blocks for the
 * clone, the source's block and bytes as they were.
 */
static void test_unshare_reads_the_shared_blocks_or_fails(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp;
	struct kshim_bdev *kb;
	struct mfile m[2] = { };
	struct kshim_fault eio = {
		.ops = KSHIM_FAULT_READ,
		.nr_sectors = (16 * KB) >> 9,
		.status = BLK_STS_IOERR,
	};
	u64 s = kshim_seed();
	xfs_fsblock_t src;
	int id;

	mopen(&m[0], root, "src", O_RDWR | O_CREAT);
	mopen(&m[1], root, "clone", O_RDWR | O_CREAT);
	mwrite(&m[0], s, 0, 32 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[0].f, 0, m[1].f, 0, 0), 0);
	memcpy(m[1].want, m[0].want, 32 * KB);
	m[1].size = 32 * KB;
	/* The mount, its device and their pointers are new. */
	remount(&fx, &root, m, 2);
	mp = fx.mp;
	kb = kshim_xfs_data_bdev(fx.x);
	src = disk_block(m[0].f, 8 * KB);
	KSHIM_ASSERT_EQ(disk_block(m[1].f, 8 * KB), src);

	eio.start = XFS_FSB_TO_DADDR(mp, disk_block(m[0].f, 0));
	id = kshim_bdev_add_fault(kb, &eio);
	KSHIM_ASSERT_FATAL(id >= 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[1].f, FALLOC_FL_UNSHARE_RANGE,
					    0, 16 * KB), -EIO);
	KSHIM_ASSERT(kshim_bdev_fault_hits(kb, id) > 0);
	kshim_bdev_clear_faults(kb);
	KSHIM_ASSERT(!xfs_is_shutdown(mp));
	KSHIM_ASSERT_EQ(disk_block(m[1].f, 8 * KB), src);
	mcheck(&m[1], "after the failed unshare");

	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[1].f, FALLOC_FL_UNSHARE_RANGE,
					    0, 16 * KB), 0);
	KSHIM_ASSERT(disk_block(m[1].f, 8 * KB) != src);
	KSHIM_ASSERT_EQ(disk_block(m[0].f, 8 * KB), src);
	mcheck(&m[1], "the clone after the unshare");
	mcheck(&m[0], "the source after the clone's unshare");
	remount(&fx, &root, m, 2);
	mcheck(&m[0], "the source after a remount");
	mcheck(&m[1], "the clone after a remount");
	finish(&fx, root, m, 2);
}

/* Background writeback of a whole file (WB_SYNC_NONE, as the flusher's
 * passes), as a task of its own. */
struct wb_pass {
	struct address_space *mapping;
	int ret;
};

static void wb_pass_fn(void *arg)
{
	struct wb_pass *p = arg;

	p->ret = filemap_flush(p->mapping);
}

#define WB_LEN	(480 * KB)
#define WB_AT	(464 * KB)	/* changed while the pass runs */

/* M written whole and synced (one extent), then overwritten in
 * page-sized writes: one dirty folio each. */
static void dirty_whole_file(struct mfile *m, u64 seed)
{
	loff_t off;

	mwrite(m, seed, 0, WB_LEN, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m->f, 0), 0);
	for (off = 0; off < WB_LEN; off += PAGE_SIZE)
		mwrite(m, seed + 1, off, PAGE_SIZE, 0);
}

/* Starts a writeback pass over M, and returns once the pass has taken
 * the first folio: its mapping of the file's extent is cached, and it
 * is far from WB_AT. */
static struct task_struct *start_wb_pass(struct mfile *m, struct wb_pass *p)
{
	struct task_struct *t;

	*p = (struct wb_pass){ .mapping = m->f->f_mapping };
	t = kshim_task_run(wb_pass_fn, p, "writeback", -1);
	while (xa_get_mark(&p->mapping->i_pages, 0, PAGECACHE_TAG_DIRTY))
		cond_resched();
	return t;
}

/*
 * Writeback caches the mapping it looked up and revalidates it per
 * block against the data and CoW forks' sequence numbers
 * (xfs_imap_valid()): a block whose mapping changed while a pass was
 * under way must be looked up again, not written through the stale
 * mapping. While a background pass (the flusher's kind) writes a file
 * back, its block at WB_AT is punched out and written again (new
 * delayed allocation, the old block freed): the pass must allocate for
 * it, not write the freed block. In a second file, whose block at
 * WB_AT was cloned into a third before the pass, that block is written
 * again during the pass (copy on write, a CoW fork extent the pass did
 * not see): the pass must write a new block, not the shared one, which
 * is the clone's. Every file byte for byte after the pass, an fsync
 * and a remount.
 */
static void test_writeback_revalidates_a_mapping_changed_under_it(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[3] = { };
	struct task_struct *t;
	struct wb_pass p;
	u64 s = kshim_seed();
	unsigned int i;

	mopen(&m[0], root, "punched", O_RDWR | O_CREAT);
	dirty_whole_file(&m[0], s);
	t = start_wb_pass(&m[0], &p);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_PUNCH_HOLE |
					    FALLOC_FL_KEEP_SIZE, WB_AT,
					    PAGE_SIZE), 0);
	mwrite(&m[0], s + 2, WB_AT, PAGE_SIZE, 0);
	kshim_task_join(t);
	KSHIM_ASSERT_EQ(p.ret, 0);

	mopen(&m[1], root, "cloned", O_RDWR | O_CREAT);
	mopen(&m[2], root, "clone", O_RDWR | O_CREAT);
	dirty_whole_file(&m[1], s + 3);
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[1].f, WB_AT, m[2].f, 0,
					      PAGE_SIZE), 0);
	memcpy(m[2].want, m[1].want + WB_AT, PAGE_SIZE);
	m[2].size = PAGE_SIZE;
	t = start_wb_pass(&m[1], &p);
	mwrite(&m[1], s + 5, WB_AT, PAGE_SIZE, 0);
	kshim_task_join(t);
	KSHIM_ASSERT_EQ(p.ret, 0);

	for (i = 0; i < 3; i++) {
		KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[i].f, 0), 0);
		mcheck(&m[i], "after the pass");
	}
	KSHIM_ASSERT(disk_block(m[1].f, WB_AT) != disk_block(m[2].f, 0));
	remount(&fx, &root, m, 3);
	for (i = 0; i < 3; i++)
		mcheck(&m[i], "after a remount");
	finish(&fx, root, m, 3);
}

/*
 * A copy on write that the device fails: the block's new copy is given
 * up (xfs_end_ioend() cancels the CoW fork's range), so the file keeps
 * pointing at the shared block, which still holds the clone's bytes,
 * and fsync says -EIO once; the filesystem stays up, and the rest of
 * the writeback pass (the file's own blocks after the shared one,
 * mapped and written while the failed I/O completes and is cancelled
 * on XFS's workqueue) lands. After a remount the shared block reads as
 * before the failed write, everything else as written, and no CoW
 * staging block is left behind (xfs_repair -n).
 */
static void test_failed_copy_on_write_keeps_the_shared_block(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct kshim_bdev *kb = kshim_xfs_data_bdev(fx.x);
	struct mfile m[2] = { };
	/* The first write the device sees: the CoW block's. */
	struct kshim_fault eio = {
		.ops = KSHIM_FAULT_WRITE,
		.nth = 1,
		.status = BLK_STS_IOERR,
	};
	const loff_t at = 124 * KB;	/* the shared block */
	u8 *old = kvmalloc(128 * KB, GFP_KERNEL | __GFP_NOFAIL);
	u64 s = kshim_seed();
	loff_t off;
	int id;

	mopen(&m[0], root, "src", O_RDWR | O_CREAT);
	mopen(&m[1], root, "dst", O_RDWR | O_CREAT);
	mwrite(&m[0], s, 0, 128 * KB, 0);
	mwrite(&m[1], s + 1, 0, 480 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[0].f, at, m[1].f, at,
					      PAGE_SIZE), 0);
	memcpy(m[1].want + at, m[0].want + at, PAGE_SIZE);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);

	/* Dirty, one folio per block: the shared block and the blocks
	 * around it that its CoW reservation covers (the CoW extent size
	 * hint's 32 blocks, 0 to 128 KiB), then the file's own blocks. */
	memcpy(old, m[1].want, 128 * KB);
	for (off = 0; off < 480 * KB; off += PAGE_SIZE)
		mwrite(&m[1], s + 2, off, PAGE_SIZE, 0);
	id = kshim_bdev_add_fault(kb, &eio);
	KSHIM_ASSERT_FATAL(id >= 0);
	KSHIM_ASSERT_EQ(filemap_flush(m[1].f->f_mapping), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[1].f, 0), -EIO);
	KSHIM_ASSERT_EQ(kshim_bdev_fault_hits(kb, id), 1);
	kshim_bdev_clear_faults(kb);
	KSHIM_ASSERT(!xfs_is_shutdown(fx.mp));
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[1].f, 0), 0);
	KSHIM_ASSERT_EQ(disk_block(m[1].f, at), disk_block(m[0].f, at));

	/* The failed CoW range holds what it held before. */
	memcpy(m[1].want, old, 128 * KB);
	kvfree(old);
	remount(&fx, &root, m, 2);
	mcheck(&m[0], "the source after a remount");
	mcheck(&m[1], "the file whose copy on write failed, after a remount");
	finish(&fx, root, m, 2);
}

/*
 * RWF_NOWAIT on sub-block direct writes: an overwrite of written blocks
 * inside EOF completes at once, under the shared iolock (no block to
 * allocate, none to zero), and a write that would extend the file
 * returns -EAGAIN (it needs the exclusive lock, for the zeroing of its
 * tail block), writing nothing. The file is opened as XFS's open by
 * handle opens files for xfs_fsr and HSMs, FMODE_NOCMTIME (invisible
 * I/O): otherwise the mtime update alone makes a NOWAIT write -EAGAIN
 * whenever the clock has ticked since the last one.
 */
static void test_nowait_sub_block_direct_overwrite(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	u8 *b = kvzalloc(PAGE_SIZE, GFP_KERNEL | __GFP_NOFAIL);
	u64 s = kshim_seed();

	mopen(&m[0], root, "n", O_RDWR | O_CREAT | O_DIRECT);
	mwrite(&m[0], s, 0, 32 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	m[0].f->f_mode |= FMODE_NOCMTIME;	/* as xfs_open_by_handle() */

	mwrite(&m[0], s + 1, 8 * KB + 512, 1 * KB, RWF_NOWAIT);
	mwrite(&m[0], s + 2, 31 * KB, 512, RWF_NOWAIT);	/* in the last block */
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[0].f, b, 1 * KB, 31 * KB + 512,
					 RWF_NOWAIT), -EAGAIN);
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[0].f, b, 1 * KB, 40 * KB,
					 RWF_NOWAIT), -EAGAIN);
	mcheck(&m[0], "after NOWAIT direct writes");
	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	kvfree(b);
	finish(&fx, root, m, 1);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_buffered_write_read_back),
	KSHIM_TEST(test_unwritten_extents_convert_at_completion),
	KSHIM_TEST(test_punch_zero_collapse_insert),
	KSHIM_TEST(test_truncate_down_and_up),
	KSHIM_TEST(test_direct_io),
	KSHIM_TEST(test_reflink_clone_then_copy_on_write),
	KSHIM_TEST(test_append_and_nowait),
	KSHIM_TEST(test_synced_data_survives_power_cut),
	KSHIM_TEST(test_synced_data_survives_power_cut_external_log),
	KSHIM_TEST(test_dirty_data_is_throttled_and_flushed),
	KSHIM_TEST(test_fsync_flushes_the_device_cache_once),
	KSHIM_TEST(test_sub_block_direct_io),
	KSHIM_TEST(test_write_into_preallocation_on_a_full_filesystem),
	KSHIM_TEST(test_enospc_write_takes_back_speculative_preallocation),
	KSHIM_TEST(test_failed_write_into_preallocation_reads_zeroes),
	KSHIM_TEST(test_fallocate_on_a_dsync_file_is_durable_or_refused),
	KSHIM_TEST(test_unshare_reads_the_shared_blocks_or_fails),
	KSHIM_TEST(test_writeback_revalidates_a_mapping_changed_under_it),
	KSHIM_TEST(test_failed_copy_on_write_keeps_the_shared_block),
	KSHIM_TEST(test_nowait_sub_block_direct_overwrite),
	{ }
};

KSHIM_SUITES({ "xfs_data", NULL, NULL, tests });
