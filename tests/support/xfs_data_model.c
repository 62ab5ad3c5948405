// SPDX-License-Identifier: GPL-2.0
/*
 * Files checked against a model of their bytes (xfs_data_model.h): the
 * helpers of the XFS file-data tests (test_xfs_data.c,
 * test_xfs_data_iomap.c).
 */
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/stat.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"
#include "xfs_inode.h"
#include "xfs_bmap.h"
#include "xfs_bit.h"
#include <kshim/bdev.h>
#include <kshim/xfs.h>
#include "xfs_data_model.h"

/* A byte of the seeded pattern SEED at file offset OFF. */
u8 pat(u64 seed, loff_t off)
{
	u64 x = seed * 0x9E3779B97F4A7C15ull + (u64)off;

	x ^= x >> 31;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 29;
	return (u8)x;
}

void mopen(struct mfile *m, struct dentry *dir, const char *name,
		  int flags)
{
	m->name = name;
	if (!m->want)
		m->want = kvzalloc(MAXF, GFP_KERNEL | __GFP_NOFAIL);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(dir, name, flags, 0644, &m->f),
			      0);
}

void mclose(struct mfile *m)
{
	KSHIM_ASSERT_EQ(kshim_vfs_close(m->f), 0);
	m->f = NULL;
}

void mfree(struct mfile *m)
{
	kvfree(m->want);
	m->want = NULL;
}

/* pwrite LEN bytes of pattern SEED at OFF, and into the model. */
void mwrite(struct mfile *m, u64 seed, loff_t off, size_t len, int rwf)
{
	/* At least a page: an O_DIRECT buffer must be block aligned. */
	u8 *buf = kvmalloc(max_t(size_t, len, PAGE_SIZE),
			   GFP_KERNEL | __GFP_NOFAIL);
	size_t i;

	KSHIM_ASSERT_FATAL(off + len <= MAXF);
	for (i = 0; i < len; i++)
		buf[i] = m->want[off + i] = pat(seed, off + i);
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(m->f, buf, len, off, rwf),
			(ssize_t)len);
	m->size = max_t(loff_t, m->size, off + len);
	kvfree(buf);
}

void msize(struct mfile *m, loff_t size)
{
	if (size < m->size)
		memset(m->want + size, 0, m->size - size);
	m->size = size;
}

static loff_t mcheck_file(struct mfile *m, const char *when);

/* An O_DIRECT file is read through a buffered open of its own: mcheck's
 * uneven reads are not sector aligned. */
loff_t mcheck(struct mfile *m, const char *when)
{
	struct mfile b = *m;
	loff_t bad;

	if (!(m->f->f_flags & O_DIRECT))
		return mcheck_file(m, when);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(m->f->f_path.dentry->d_parent,
					     m->name, O_RDONLY, 0, &b.f), 0);
	bad = mcheck_file(&b, when);
	KSHIM_ASSERT_EQ(kshim_vfs_close(b.f), 0);
	return bad;
}

/* The whole file read back (pread in uneven pieces, then past EOF) and
 * its size, against the model. Returns the first wrong offset or -1. */
static loff_t mcheck_file(struct mfile *m, const char *when)
{
	size_t cap = m->size + 3 * PAGE_SIZE;
	u8 *buf = kvzalloc(cap, GFP_KERNEL | __GFP_NOFAIL);
	struct kstat st;
	loff_t off = 0, bad = -1;
	ssize_t n;

	KSHIM_ASSERT_EQ(kshim_vfs_getattr(m->f->f_path.dentry, &st), 0);
	KSHIM_ASSERT_EQ(st.size, m->size);
	while (off < (loff_t)cap) {
		size_t chunk = min_t(size_t, 3 * PAGE_SIZE + 1000, cap - off);

		n = kshim_vfs_pread(m->f, buf + off, chunk, off, 0);
		KSHIM_ASSERT_FATAL(n >= 0);
		if (n == 0)
			break;
		off += n;
	}
	KSHIM_ASSERT_EQ(off, m->size);
	for (off = 0; off < m->size; off++)
		if (buf[off] != m->want[off]) {
			bad = off;
			kshim_info("%s, %s: byte %lld is %#x, the model says %#x\n",
				   m->name, when, off, buf[off], m->want[off]);
			break;
		}
	KSHIM_ASSERT_EQ(bad, -1);
	kvfree(buf);
	return bad;
}

/* Unmount (the last writeback) and mount again: the page cache is gone,
 * what reads back came from the device. The files are opened again. */
void remount(struct xfs_fixture *fx, struct dentry **root,
		    struct mfile *files, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		mclose(&files[i]);
	kshim_vfs_put(*root);
	xfs_fixture_unmount(fx);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(fx), 0);
	*root = kshim_vfs_root(kshim_xfs_sb(fx->x));
	for (i = 0; i < n; i++)
		mopen(&files[i], *root, files[i].name, O_RDWR);
}

/* The power fails with the files open: they are closed on the shut-down
 * filesystem, which is unmounted as it is, mounted again (recovery) and
 * the files reopened. */
void power_cut_remount(struct xfs_fixture *fx, struct dentry **root,
			      struct mfile *files, unsigned int n)
{
	KSHIM_ASSERT_EQ(xfs_fixture_power_cut(fx, KSHIM_CRASH_DROP_ALL), 0);
	shut_down_remount(fx, root, files, n);
}

/* The filesystem is shut down with the files open (a power cut, an I/O
 * error): they are closed on it, it is unmounted as it is, mounted again
 * (recovery) and the files reopened. */
void shut_down_remount(struct xfs_fixture *fx, struct dentry **root,
		       struct mfile *files, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		kshim_vfs_close(files[i].f);
		files[i].f = NULL;
	}
	kshim_vfs_put(*root);
	xfs_fixture_unmount(fx);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(fx), 0);
	*root = kshim_vfs_root(kshim_xfs_sb(fx->x));
	for (i = 0; i < n; i++)
		mopen(&files[i], *root, files[i].name, O_RDWR);
}

void finish(struct xfs_fixture *fx, struct dentry *root,
		   struct mfile *files, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (files[i].f)
			mclose(&files[i]);
		mfree(&files[i]);
	}
	kshim_vfs_put(root);
	xfs_fixture_unmount(fx);
	xfs_fixture_remove(fx);
}

bool dirty_in_cache(struct file *f)
{
	return mapping_tagged(f->f_mapping, PAGECACHE_TAG_DIRTY) ||
	       mapping_tagged(f->f_mapping, PAGECACHE_TAG_WRITEBACK);
}

/* The data fork's mapping at file offset OFF (xfs_bmapi_read() on the
 * inode); false for a hole. */
bool extent_at(struct file *f, loff_t off, struct xfs_bmbt_irec *map)
{
	struct xfs_inode *ip = XFS_I(file_inode(f));
	int nmap = 1, err;
	unsigned int lock;

	lock = xfs_ilock_data_map_shared(ip);
	err = xfs_bmapi_read(ip, XFS_B_TO_FSBT(ip->i_mount, off), 1, map,
			     &nmap, 0);
	xfs_iunlock(ip, lock);
	KSHIM_ASSERT_EQ_FATAL(err, 0);
	return nmap && map->br_startblock != HOLESTARTBLOCK;
}

/* The state of the extent at file offset OFF: 1 unwritten, 0 written,
 * 2 delayed allocation, -1 a hole. */
int extent_state(struct file *f, loff_t off)
{
	struct xfs_bmbt_irec map;

	if (!extent_at(f, off, &map))
		return -1;
	if (isnullstartblock(map.br_startblock))
		return 2;
	return map.br_state == XFS_EXT_UNWRITTEN;
}

/* The disk block under file offset OFF (a hole or delayed allocation:
 * NULLFSBLOCK). */
u64 disk_block(struct file *f, loff_t off)
{
	struct xfs_mount *mp = XFS_I(file_inode(f))->i_mount;
	struct xfs_bmbt_irec map;

	if (!extent_at(f, off, &map) || isnullstartblock(map.br_startblock))
		return NULLFSBLOCK;
	return map.br_startblock + XFS_B_TO_FSBT(mp, off) - map.br_startoff;
}

s64 free_blocks(struct xfs_mount *mp)
{
	return percpu_counter_sum(&mp->m_fdblocks) -
	       xfs_fdblocks_unavailable(mp);
}
