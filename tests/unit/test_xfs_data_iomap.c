// SPDX-License-Identifier: GPL-2.0
/*
 * XFS file data at the edges of the iomap layer (fs/xfs/xfs_iomap.c,
 * fs/iomap/buffered-io.c), through the real VFS (kshim/vfs.h): what an
 * O_DSYNC direct write costs and keeps across a power cut; RWF_NOWAIT
 * direct writes, which must be done whole without blocking or refused
 * with -EAGAIN having changed nothing; sub-block direct writes across
 * written and unwritten blocks; a direct write into a hole on a nearly
 * full filesystem; direct writes refused between their reservation and
 * their commit (XFS's error tags), which must leak nothing; a write past
 * EOF over speculative preallocation; buffered writes from a buffer with
 * a page that is not resident or not mapped (kshim_usercopy_fault()),
 * which must write exactly what was copied and leave no reservation
 * behind; and a writeback larger than one bio holds.
 * Every file's contents are checked byte for byte against a model
 * (xfs_data_model.h), again after a remount or a power cut, and every
 * image passes xfs_repair -n (xfs_fixture_remove()).
 */
#include <linux/fs.h>
#include <linux/falloc.h>
#include <linux/pagemap.h>
#include <linux/stat.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"
#include "xfs_data_model.h"
#include "xfs_inode.h"
#include "xfs_bmap.h"
#include "xfs_bmap_btree.h"
#include "xfs_trans_space.h"
#include "xfs_errortag.h"
#include "xfs_error.h"
#include "xfs_fsops.h"
#include <kshim/bdev.h>
#include <kshim/xfs.h>

/* The data device's cache flushes and FUA writes so far. */
struct dev_io {
	u64 flush, preflush, fua;
};

static struct dev_io dev_io_now(struct xfs_fixture *fx)
{
	struct kshim_bdev_stats st;

	kshim_bdev_get_stats(kshim_xfs_data_bdev(fx->x), &st);
	return (struct dev_io){ st.ios[KSHIM_OP_FLUSH], st.preflushes,
				st.fua_writes };
}

/*
 * O_DSYNC direct writes. An overwrite of written blocks inside EOF has
 * no metadata to make durable: it is written FUA and flushes nothing
 * (iomap_dio_bio_iter()'s use_fua), also when it ends exactly at EOF;
 * a cache flush per write would halve a database's commit rate. One
 * that extends the file, even within its last written block (no
 * allocation), changes the size: it must force the log for it
 * (IOMAP_F_DIRTY), or the size, and the data past the old one, are lost
 * with the power. Both survive a power cut.
 */
static void test_dsync_direct_writes(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[2] = { };
	struct dev_io a, b;
	u64 s = kshim_seed();
	unsigned int i;

	mopen(&m[0], root, "overwrite", O_RDWR | O_CREAT | O_DIRECT | O_DSYNC);
	mopen(&m[1], root, "extend", O_RDWR | O_CREAT | O_DIRECT);
	mwrite(&m[0], s, 0, 64 * KB, 0);
	mwrite(&m[1], s + 1, 0, 8 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[1].f, 6 * KB), 0);
	msize(&m[1], 6 * KB);
	for (i = 0; i < 2; i++)
		KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[i].f, 0), 0);
	/* The block the extension goes into is written, past EOF. */
	KSHIM_ASSERT_EQ(extent_state(m[1].f, 7 * KB), 0);

	a = dev_io_now(&fx);
	mwrite(&m[0], s + 2, 16 * KB, 4 * KB, 0);
	mwrite(&m[0], s + 3, 60 * KB, 4 * KB, 0);	/* up to EOF */
	mwrite(&m[0], s + 4, 32 * KB + 512, 1 * KB, 0);	/* sub-block */
	b = dev_io_now(&fx);
	kshim_info("O_DSYNC overwrites: %llu flushes, %llu preflushed, %llu FUA writes\n",
		   b.flush - a.flush, b.preflush - a.preflush, b.fua - a.fua);
	KSHIM_ASSERT_EQ(b.flush - a.flush, 0);
	KSHIM_ASSERT_EQ(b.preflush - a.preflush, 0);
	KSHIM_ASSERT(b.fua - a.fua >= 3);

	mwrite(&m[1], s + 5, 6 * KB, 1 * KB, RWF_DSYNC);
	mwrite(&m[1], s + 6, 7 * KB, 512, RWF_DSYNC);

	power_cut_remount(&fx, &root, m, 2);
	for (i = 0; i < 2; i++)
		mcheck(&m[i], "after the power cut");
	finish(&fx, root, m, 2);
}

/* pwrite of LEN bytes of pattern SEED at OFF that must fail with ERR
 * and change nothing (the model is not touched). */
static void write_refused(struct mfile *m, u64 seed, loff_t off, size_t len,
			  int rwf, ssize_t err)
{
	u8 *buf = kvmalloc(max_t(size_t, len, PAGE_SIZE),
			   GFP_KERNEL | __GFP_NOFAIL);
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pat(seed, off + i);
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m->f, buf, len, off, rwf), err);
	kvfree(buf);
}

/*
 * RWF_NOWAIT direct writes (io_uring's first attempt): one that can be
 * done without blocking is done whole: an overwrite of one written
 * extent, aligned or not. One that would block is refused with -EAGAIN
 * and changes nothing: into a hole (an allocation), over a written and
 * an unwritten extent (two mappings: not a partial write),
 * into a shared block (copy on write), a sub-block write into an
 * unwritten block (sub-block zeroing needs the exclusive lock). Each
 * refused write is then done blocking. The file is opened for
 * invisible I/O (FMODE_NOCMTIME, as xfs_open_by_handle() does), so that
 * no timestamp update refuses a NOWAIT write whatever the clock says.
 */
static void test_nowait_direct_writes(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[2] = { };
	u64 s = kshim_seed();

	mopen(&m[0], root, "n", O_RDWR | O_CREAT | O_DIRECT);
	m[0].f->f_mode |= FMODE_NOCMTIME;
	mwrite(&m[0], s, 0, 64 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_KEEP_SIZE,
					    64 * KB, 64 * KB), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[0].f, 192 * KB), 0);
	msize(&m[0], 192 * KB);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 32 * KB), 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 96 * KB), 1);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 160 * KB), -1);

	/* Done whole. */
	mwrite(&m[0], s + 1, 8 * KB, 16 * KB, RWF_NOWAIT);
	mwrite(&m[0], s + 2, 40 * KB + 512, 2 * KB, RWF_NOWAIT);

	/* Refused, then done blocking. */
	write_refused(&m[0], s + 3, 160 * KB, 8 * KB, RWF_NOWAIT, -EAGAIN);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 160 * KB), -1);
	mcheck(&m[0], "after a NOWAIT write into a hole");
	mwrite(&m[0], s + 3, 160 * KB, 8 * KB, 0);

	write_refused(&m[0], s + 4, 56 * KB, 16 * KB, RWF_NOWAIT, -EAGAIN);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 68 * KB), 1);
	mcheck(&m[0], "after a NOWAIT write over two extents");
	mwrite(&m[0], s + 4, 56 * KB, 16 * KB, 0);

	write_refused(&m[0], s + 5, 100 * KB + 512, 1 * KB, RWF_NOWAIT,
		      -EAGAIN);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 100 * KB), 1);
	mcheck(&m[0], "after a NOWAIT sub-block write into unwritten");
	mwrite(&m[0], s + 5, 100 * KB + 512, 1 * KB, 0);

	mopen(&m[1], root, "clone", O_RDWR | O_CREAT | O_DIRECT);
	m[1].f->f_mode |= FMODE_NOCMTIME;
	KSHIM_ASSERT_EQ(kshim_vfs_clone_range(m[0].f, 0, m[1].f, 0, 0), 0);
	memcpy(m[1].want, m[0].want, m[0].size);
	m[1].size = m[0].size;
	write_refused(&m[1], s + 6, 4 * KB, 4 * KB, RWF_NOWAIT, -EAGAIN);
	KSHIM_ASSERT_EQ(disk_block(m[1].f, 4 * KB), disk_block(m[0].f, 4 * KB));
	mcheck(&m[1], "after a NOWAIT write into a shared block");
	mwrite(&m[1], s + 6, 4 * KB, 4 * KB, 0);
	mcheck(&m[0], "the source after its clone's write");
	mcheck(&m[1], "the clone after its write");

	remount(&fx, &root, m, 2);
	mcheck(&m[0], "after a remount");
	mcheck(&m[1], "the clone after a remount");
	finish(&fx, root, m, 2);
}

/*
 * Sub-block direct writes inside EOF whose range is not one written
 * extent: from a written block into an unwritten one, and from an
 * unwritten block into a written one. The shared-lock attempt is
 * refused (IOMAP_DIO_OVERWRITE_ONLY: two mappings, or an unwritten one
 * that needs sub-block zeroing) and retried under the exclusive lock;
 * what reads back is the written bytes and zeroes around them in the
 * unwritten block, never its stale contents.
 */
static void test_sub_block_direct_writes_across_extents(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	u64 s = kshim_seed();

	mopen(&m[0], root, "x", O_RDWR | O_CREAT | O_DIRECT);
	mwrite(&m[0], s, 0, 16 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, 0, 16 * KB, 16 * KB), 0);
	mwrite(&m[0], s + 1, 32 * KB, 16 * KB, 0);
	msize(&m[0], 48 * KB);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 20 * KB), 1);

	mwrite(&m[0], s + 2, 16 * KB - 1536, 3 * KB, 0);	/* written -> unwritten */
	mwrite(&m[0], s + 3, 32 * KB - 1024, 2 * KB, 0);	/* unwritten -> written */
	mcheck(&m[0], "written across extents");
	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	finish(&fx, root, m, 1);
}

/*
 * A direct write inside EOF that starts in a hole and runs on over
 * written blocks allocates only the hole's blocks, and reserves only
 * for them: on a filesystem with a few more free blocks than that, it
 * succeeds, however long it is.
 */
static void test_direct_write_into_a_hole_on_a_nearly_full_filesystem(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct mfile m[1] = { };
	u64 s = kshim_seed(), resblks = mp->m_resblks;
	s64 keep = XFS_DIOSTRAT_SPACE_RES(mp, 1) + 4;

	mopen(&m[0], root, "h", O_RDWR | O_CREAT | O_DIRECT);
	mwrite(&m[0], s, 0, 256 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_PUNCH_HOLE |
					    FALLOC_FL_KEEP_SIZE, 0, 4 * KB), 0);
	memset(m[0].want, 0, 4 * KB);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 0), -1);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);
	/* The whole write's reservation would not fit. */
	KSHIM_ASSERT_FATAL(keep < (s64)XFS_DIOSTRAT_SPACE_RES(mp, 64));
	KSHIM_ASSERT_EQ(xfs_reserve_blocks(mp, resblks + free_blocks(mp) -
					   keep), 0);
	KSHIM_ASSERT_EQ(free_blocks(mp), keep);

	mwrite(&m[0], s + 1, 0, 256 * KB, 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 0), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	KSHIM_ASSERT_EQ(xfs_reserve_blocks(mp, resblks), 0);
	mcheck(&m[0], "filled on a nearly full filesystem");
	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	finish(&fx, root, m, 1);
}

/* The filesystem shut down under the open files: closed, unmounted as
 * it is, mounted again (recovery) and the files reopened. */
static void shutdown_remount(struct xfs_fixture *fx, struct dentry **root,
			     struct mfile *files, unsigned int n)
{
	KSHIM_ASSERT(xfs_is_shutdown(fx->mp));
	shut_down_remount(fx, root, files, n);
}

/*
 * A direct write into a hole that the inode's extent count limit
 * refuses (-EFBIG from xfs_iext_count_extend(), after the write's
 * transaction is reserved; the reduce_max_iextents error tag makes the
 * limit 10, as fstests' xfs/5xx do): nothing changes, the transaction is
 * cancelled (its log reservation and block reservation given back, its
 * memory freed: the leak check at exit) and the filesystem stays up; a
 * write into written blocks still succeeds.
 */
static void test_direct_write_over_the_extent_count_limit(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct mfile m[1] = { };
	u64 s = kshim_seed();
	s64 free;
	int i;

	mopen(&m[0], root, "e", O_RDWR | O_CREAT | O_DIRECT);
	for (i = 0; i < 10; i++)
		mwrite(&m[0], s + i, 2 * i * 4 * KB, 4 * KB, 0);
	KSHIM_ASSERT_EQ(XFS_I(file_inode(m[0].f))->i_df.if_nextents, 10);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);
	free = free_blocks(mp);

	KSHIM_ASSERT_EQ(xfs_errortag_add(mp, XFS_ERRTAG_REDUCE_MAX_IEXTENTS), 0);
	write_refused(&m[0], s + 20, 4 * KB, 4 * KB, 0, -EFBIG);
	write_refused(&m[0], s + 21, 80 * KB, 4 * KB, 0, -EFBIG);
	mwrite(&m[0], s + 22, 8 * KB + 512, 1 * KB, 0);
	KSHIM_ASSERT_EQ(xfs_errortag_clearall(mp), 0);
	KSHIM_ASSERT(!xfs_is_shutdown(mp));
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 4 * KB), -1);
	KSHIM_ASSERT_EQ(free_blocks(mp), free);
	mcheck(&m[0], "after the refused writes");
	mwrite(&m[0], s + 23, 4 * KB, 4 * KB, 0);

	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	finish(&fx, root, m, 1);
}

/*
 * A direct write into a hole whose transaction fails at commit: on a
 * filesystem with the reverse-mapping btree, the allocation's rmap
 * update is deferred to the commit, where the rmap_finish_one error tag
 * fails it. The write returns -EIO and the filesystem shuts down (a
 * dirty transaction cannot be undone); the transaction is freed once
 * (by the commit). After recovery the file is as it was before the
 * write, and xfs_repair finds nothing wrong.
 */
static void test_direct_write_failing_at_commit(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd, .mkfs_opts = "-m rmapbt=1" };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	u64 s = kshim_seed();

	mopen(&m[0], root, "c", O_RDWR | O_CREAT | O_DIRECT);
	mwrite(&m[0], s, 0, 16 * KB, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);

	KSHIM_ASSERT_EQ(xfs_errortag_add(fx.mp, XFS_ERRTAG_RMAP_FINISH_ONE), 0);
	write_refused(&m[0], s + 1, 32 * KB, 8 * KB, 0, -EIO);
	KSHIM_ASSERT(xfs_is_shutdown(fx.mp));
	KSHIM_ASSERT_EQ(xfs_errortag_clearall(fx.mp), 0);

	shutdown_remount(&fx, &root, m, 1);
	mcheck(&m[0], "after the failed commit and recovery");
	finish(&fx, root, m, 1);
}

/*
 * A write past EOF leaves a gap that must read as zeroes. Appending
 * writes to a file of 64 KiB and more leave speculative preallocation
 * past EOF (delayed allocation); when EOF is block aligned the gap's
 * zeroing starts exactly at the preallocation, which it converts to
 * unwritten extents (nothing to zero); when it is not, it zeroes the
 * tail of the EOF block in the page cache, whose dirty data must stay.
 * Then a truncate up over the preallocation, the same way.
 */
static void test_write_past_eof_over_speculative_preallocation(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[2] = { };
	u64 s = kshim_seed();
	loff_t off;
	int i;

	mopen(&m[0], root, "aligned", O_RDWR | O_CREAT);
	mopen(&m[1], root, "unaligned", O_RDWR | O_CREAT);
	for (i = 0; i < 2; i++) {
		for (off = 0; off < 256 * KB; off += 64 * KB)
			mwrite(&m[i], s + i, off, 64 * KB - (i && off ==
					192 * KB ? 1000 : 0), 0);
		KSHIM_ASSERT_EQ(extent_state(m[i].f, 260 * KB), 2);
	}
	mwrite(&m[0], s + 2, 320 * KB + 100, 4 * KB, 0);
	mwrite(&m[1], s + 3, 320 * KB + 100, 4 * KB, 0);
	mcheck(&m[0], "written past an aligned EOF");
	mcheck(&m[1], "written past an unaligned EOF");
	for (i = 0; i < 2; i++) {
		KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[i].f, 400 * KB + 7), 0);
		msize(&m[i], 400 * KB + 7);
		mcheck(&m[i], "truncated up");
	}
	remount(&fx, &root, m, 2);
	for (i = 0; i < 2; i++)
		mcheck(&m[i], "after a remount");
	finish(&fx, root, m, 2);
}

/* LEN bytes of pattern SEED for file offset OFF on, in a buffer of at
 * least a page. */
static u8 *pattern_buf(u64 seed, loff_t off, size_t len)
{
	u8 *buf = kvmalloc(max_t(size_t, len, PAGE_SIZE),
			   GFP_KERNEL | __GFP_NOFAIL);
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pat(seed, off + i);
	return buf;
}

/* What a write that moved N bytes of BUF to OFF left in the model. */
static void mwrote(struct mfile *m, const u8 *buf, loff_t off, ssize_t n)
{
	KSHIM_ASSERT_FATAL(n >= 0 && off + n <= MAXF);
	memcpy(m->want + off, buf, n);
	m->size = max_t(loff_t, m->size, off + n);
}

/*
 * write(2) from a buffer whose tail is not mapped: the page-cache copy
 * comes up short at the first unmapped byte, the write is retried with
 * what was copied, then fault-in fails: the write returns the bytes
 * before the hole, and nothing after them changes. Over data on disk
 * that is not cached, in a large folio: the block the short write ends
 * in must be read in before it is marked up to date, or the rest of it
 * is lost. Past EOF: the size is the end of what was copied, and the
 * blocks reserved for the rest (delayed allocation) are given back. A
 * buffer unmapped from its first byte: -EFAULT, nothing written.
 */
static void test_write_from_a_partly_unmapped_buffer(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	unsigned long shorts = kshim_usercopy_short_copies();
	u64 s = kshim_seed();
	ssize_t n;
	u8 *buf;

	mopen(&m[0], root, "f", O_RDWR | O_CREAT);
	mwrite(&m[0], s, 0, 64 * KB, 0);
	remount(&fx, &root, m, 1);
	KSHIM_ASSERT_EQ(m[0].f->f_mapping->nrpages, 0);

	/* Over uncached data: 16 KiB from offset 100, mapped for 4900. */
	buf = pattern_buf(s + 1, 100, 16 * KB);
	kshim_usercopy_fault(buf + 4900, -1);
	n = kshim_vfs_pwrite(m[0].f, buf, 16 * KB, 100, 0);
	kshim_usercopy_fault(NULL, 0);
	KSHIM_ASSERT_EQ(n, 4900);
	mwrote(&m[0], buf, 100, n);
	kvfree(buf);
	mcheck(&m[0], "after a short write over uncached data");

	/* Past EOF. */
	buf = pattern_buf(s + 2, 64 * KB, 32 * KB);
	kshim_usercopy_fault(buf + 10000, -1);
	n = kshim_vfs_pwrite(m[0].f, buf, 32 * KB, 64 * KB, 0);
	kshim_usercopy_fault(NULL, 0);
	KSHIM_ASSERT_EQ(n, 10000);
	mwrote(&m[0], buf, 64 * KB, n);

	kshim_usercopy_fault(buf, -1);
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[0].f, buf, 4 * KB, 8 * KB, 0),
			-EFAULT);
	kshim_usercopy_fault(NULL, 0);
	kvfree(buf);
	KSHIM_ASSERT(kshim_usercopy_short_copies() > shorts);
	mcheck(&m[0], "after a short write past EOF");

	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	finish(&fx, root, m, 1);
}

/*
 * A buffered write whose buffer has a page reclaimed between its
 * fault-in and the copy, again and again (each copy reaching it comes
 * up short): the write is retried until it is done whole, with the
 * bytes in the right places, over cached and uncached data, holes and
 * past EOF.
 */
static void test_write_with_short_copies_is_done_whole(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct mfile m[1] = { };
	unsigned long shorts = kshim_usercopy_short_copies();
	static const struct { loff_t off; size_t len, at; } w[] = {
		{ 100, 20 * KB, 9000 },			/* over uncached data */
		{ 4 * KB, 16 * KB, 4 * KB },		/* at a page boundary */
		{ 100 * KB + 1, 40 * KB, 17 },		/* into a hole */
		{ 200 * KB - 5, 64 * KB, 33 * KB + 3 },	/* past EOF */
	};
	u64 s = kshim_seed();
	unsigned int i;
	u8 *buf;

	mopen(&m[0], root, "f", O_RDWR | O_CREAT);
	mwrite(&m[0], s, 0, 64 * KB, 0);
	mwrite(&m[0], s, 160 * KB, 40 * KB, 0);
	remount(&fx, &root, m, 1);

	for (i = 0; i < ARRAY_SIZE(w); i++) {
		buf = pattern_buf(s + 1 + i, w[i].off, w[i].len);
		kshim_usercopy_fault(buf + w[i].at, 3);
		KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[0].f, buf, w[i].len,
						 w[i].off, 0),
				(ssize_t)w[i].len);
		kshim_usercopy_fault(NULL, 0);
		mwrote(&m[0], buf, w[i].off, w[i].len);
		kvfree(buf);
	}
	KSHIM_ASSERT(kshim_usercopy_short_copies() >= shorts + ARRAY_SIZE(w));
	mcheck(&m[0], "written with short copies");
	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	finish(&fx, root, m, 1);
}

/*
 * Writeback of more folios than one bio holds (BIO_MAX_VECS): 1.5 MiB
 * of 4 KiB folios written even pages first, so that no two neighbours
 * share a bio_vec; their blocks are contiguous, so one ioend takes
 * them until its bio is full and a new one starts. Every byte reads
 * back after fsync and a remount.
 */
static void test_writeback_of_more_folios_than_a_bio_holds(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	size_t len = 1536 * KB, i;
	u8 *buf = kvmalloc(len, GFP_KERNEL | __GFP_NOFAIL);
	u64 s = kshim_seed();
	struct file *f;
	loff_t off;
	int pass;

	for (i = 0; i < len; i++)
		buf[i] = pat(s, i);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "b", O_RDWR | O_CREAT,
					     0644, &f), 0);
	for (pass = 0; pass < 2; pass++)
		for (off = pass * PAGE_SIZE; off < (loff_t)len;
		     off += 2 * PAGE_SIZE)
			KSHIM_ASSERT_EQ(kshim_vfs_pwrite(f, buf + off,
							 PAGE_SIZE, off, 0),
					PAGE_SIZE);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(f, 0), 0);
	KSHIM_ASSERT(!dirty_in_cache(f));
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);

	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "b", O_RDONLY, 0, &f), 0);
	memset(buf, 0, len);
	KSHIM_ASSERT_EQ(kshim_vfs_pread(f, buf, len, 0, 0), (ssize_t)len);
	for (i = 0; i < len; i++)
		if (buf[i] != pat(s, i))
			break;
	KSHIM_ASSERT_EQ(i, len);
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);
	kvfree(buf);
	finish(&fx, root, NULL, 0);
}

/* Fallocate F (KEEP_SIZE, past its end) until the filesystem refuses:
 * what is left is less than one more block and its mapping's share. */
static void fill_free_space(struct file *f)
{
	loff_t off = 0, step;

	for (step = 1 << 20; step >= 4 * KB; step /= 16)
		while (!kshim_vfs_fallocate(f, FALLOC_FL_KEEP_SIZE, off, step))
			off += step;
}

/*
 * The reserve pool (xfs_reserve_blocks(), xfs_io's resblks) is what
 * lets a write into preallocated space complete on a full filesystem:
 * the unwritten extent's conversion at I/O completion reserves from it
 * (XFS_TRANS_RESERVE) the worst case of two full bmap btree splits.
 * With the pool cut down to exactly that and no free space left, a
 * buffered write into preallocated blocks, its fsync (the conversion,
 * the new size) and the data across a power cut all still hold.
 */
static void test_unwritten_conversion_from_a_pool_of_its_worst_case(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct mfile m[1] = { };
	u64 s = kshim_seed(), resblks = mp->m_resblks;
	u64 worst = XFS_DIOSTRAT_SPACE_RES(mp, 0) << 1;
	struct file *fill;

	mopen(&m[0], root, "p", O_RDWR | O_CREAT);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(m[0].f, FALLOC_FL_KEEP_SIZE, 0,
					    64 * KB), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);
	KSHIM_ASSERT_EQ(xfs_reserve_blocks(mp, worst), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "fill", O_RDWR | O_CREAT,
					     0644, &fill), 0);
	fill_free_space(fill);
	KSHIM_ASSERT_EQ(kshim_vfs_close(fill), 0);
	kshim_info("%lld blocks free, a pool of %llu\n", free_blocks(mp),
		   worst);
	KSHIM_ASSERT(free_blocks(mp) < (s64)worst);
	KSHIM_ASSERT_EQ(mp->m_resblks_avail, worst);

	mwrite(&m[0], s, 0, 40 * KB + 5, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	KSHIM_ASSERT_EQ(extent_state(m[0].f, 0), 0);
	KSHIM_ASSERT_EQ(xfs_reserve_blocks(mp, resblks), 0);

	power_cut_remount(&fx, &root, m, 1);
	mcheck(&m[0], "after the power cut");
	finish(&fx, root, m, 1);
}

struct writeback_loop {
	struct address_space *mapping;
	bool stop;
};

/* Start writeback of the whole file again and again, as the flusher
 * would, until told to stop. */
static void writeback_loop_fn(void *arg)
{
	struct writeback_loop *w = arg;

	while (!READ_ONCE(w->stop)) {
		filemap_fdatawrite(w->mapping);
		cond_resched();
	}
}

/*
 * Truncating down while writeback runs: between the size's update and
 * the removal of the folios past it (truncate_setsize()), writeback can
 * find dirty folios wholly past the new EOF, and must skip them
 * (iomap_writepage_handle_eof()), not zero and write them. Rounds of
 * writes over 64 KiB truncated to a size below it, with another task
 * starting writeback of the file all along: the bytes below EOF are
 * the last round's, after a remount too, and nothing WARNs.
 */
static void test_truncate_down_racing_writeback(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct writeback_loop w = { };
	struct task_struct *t;
	struct mfile m[1] = { };
	u64 s = kshim_seed();
	int round;

	mopen(&m[0], root, "t", O_RDWR | O_CREAT);
	w.mapping = m[0].f->f_mapping;
	t = kshim_task_run(writeback_loop_fn, &w, "writeback", -1);
	for (round = 0; round < 40; round++) {
		loff_t size = (round % 4) * 8 * KB + (round % 3) * 1000;

		mwrite(&m[0], s + round, 0, 64 * KB, 0);
		KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[0].f, size), 0);
		msize(&m[0], size);
	}
	WRITE_ONCE(w.stop, true);
	kshim_task_join(t);
	mcheck(&m[0], "after the truncates");
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after a remount");
	finish(&fx, root, m, 1);
}

/*
 * Writeback that cannot map a folio's first dirty range must report it,
 * even when the folio's next dirty range needs nothing: on a filesystem
 * of 1 KiB blocks (four to a folio), a folio with its first and third
 * blocks dirty in holes, and a delayed allocation that cannot be
 * converted (the extent count limit of the reduce_max_iextents error
 * tag: -EFBIG, after which the folio's delayed allocation is punched,
 * xfs_discard_folio()). fsync fails, the filesystem stays up, and after
 * a remount the two blocks read as zeroes and the rest as written.
 */
static void test_writeback_error_in_a_folio_with_two_dirty_ranges(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd, .mkfs_opts = "-b size=1024" };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct mfile m[2] = { };
	u64 s = kshim_seed();
	int i, err;

	mopen(&m[0], root, "e", O_RDWR | O_CREAT | O_DIRECT);
	for (i = 0; i < 10; i++)
		mwrite(&m[0], s + i, 2 * i * KB, KB, 0);
	KSHIM_ASSERT_EQ(XFS_I(file_inode(m[0].f))->i_df.if_nextents, 10);
	KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(m[0].f, 128 * KB), 0);
	msize(&m[0], 128 * KB);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(m[0].f, 0), 0);
	mopen(&m[1], root, "e", O_RDWR);
	kvfree(m[1].want);
	m[1].want = m[0].want;		/* the same file */
	m[1].size = m[0].size;

	KSHIM_ASSERT_EQ(xfs_errortag_add(mp, XFS_ERRTAG_REDUCE_MAX_IEXTENTS), 0);
	/* Written, but not into the model: writeback will fail them. */
	for (i = 0; i < 2; i++) {
		u8 *buf = pattern_buf(s + 20 + i, (64 + 2 * i) * KB, KB);

		KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m[1].f, buf, KB,
						 (64 + 2 * i) * KB, 0), KB);
		kvfree(buf);
	}
	err = kshim_vfs_fsync(m[1].f, 0);
	kshim_info("fsync after the failed conversion: %d\n", err);
	KSHIM_ASSERT(err < 0);
	KSHIM_ASSERT_EQ(xfs_errortag_clearall(mp), 0);
	KSHIM_ASSERT(!xfs_is_shutdown(mp));
	KSHIM_ASSERT_EQ(extent_state(m[1].f, 66 * KB), -1);

	m[1].want = NULL;
	mclose(&m[1]);
	mfree(&m[1]);
	remount(&fx, &root, m, 1);
	mcheck(&m[0], "after the failed writeback and a remount");
	finish(&fx, root, m, 1);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_dsync_direct_writes),
	KSHIM_TEST(test_nowait_direct_writes),
	KSHIM_TEST(test_sub_block_direct_writes_across_extents),
	KSHIM_TEST(test_direct_write_into_a_hole_on_a_nearly_full_filesystem),
	KSHIM_TEST(test_direct_write_over_the_extent_count_limit),
	KSHIM_TEST(test_direct_write_failing_at_commit),
	KSHIM_TEST(test_unwritten_conversion_from_a_pool_of_its_worst_case),
	KSHIM_TEST(test_write_past_eof_over_speculative_preallocation),
	KSHIM_TEST(test_write_from_a_partly_unmapped_buffer),
	KSHIM_TEST(test_write_with_short_copies_is_done_whole),
	KSHIM_TEST(test_writeback_of_more_folios_than_a_bio_holds),
	KSHIM_TEST(test_truncate_down_racing_writeback),
	KSHIM_TEST(test_writeback_error_in_a_folio_with_two_dirty_ranges),
	{ }
};

KSHIM_SUITES({ "xfs_data_iomap", NULL, NULL, tests });
