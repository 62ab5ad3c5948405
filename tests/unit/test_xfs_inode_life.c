// SPDX-License-Identifier: GPL-2.0
/*
 * An XFS inode's life after its last name goes (fs/xfs/xfs_inode.c),
 * driven through the real VFS (kshim/vfs.h) and judged by what the
 * filesystem says on disk and in its counters:
 *
 * - unlink puts an inode still open on the AGI's unlinked list; its
 *   blocks stay allocated until the last close, when inactivation
 *   (inodegc: xfs_inactive(), xfs_inactive_truncate(), xfs_ifree())
 *   frees the blocks and the inode and takes it off the list;
 * - a crash between the two leaves the inode on the list on disk, and
 *   log recovery's replay of the unlinked lists frees it; a shut-down
 *   filesystem runs no inactivation at all, and one that shuts down in
 *   the middle of an inactivation leaves the rest to recovery too, as
 *   does one that cannot read the AGI to free the inode (it shuts down);
 *   with no room for the per-AG finobt reservation inodes are still freed;
 * - a symlink of corrupt size is not freed by a size XFS cannot trust;
 * - the last free inode of a chunk frees the chunk (xfs_ifree_cluster()),
 *   sparse chunks included, and no inode of a neighbouring chunk is
 *   touched; with no memory for a cluster buffer the filesystem shuts
 *   down and recovery frees the chunk;
 * - removing a filestream directory ends its stream;
 * - link's refusals are the kernel's: -ENOSPC on a full filesystem with
 *   nothing changed, -EXDEV into a project directory, -EIO when the
 *   filesystem shuts down while it waits for log space (-ENOENT for an
 *   inode with no name left is the VFS's).
 *
 * Every image is checked by xfs_repair -n (xfs_fixture_remove()).
 */
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/stat.h>
#include <linux/falloc.h>
#include <linux/sizes.h>
#include <linux/jiffies.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <linux/sched.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include <kshim/bdev.h>
#include <linux/shrinker.h>
#include "xfs_fixture.h"
#include "xfs_grant_heads.h"
#include "xfs_ag.h"
#include "xfs_ialloc.h"
#include "xfs_inode.h"
#include "xfs_icache.h"

/* ---- helpers ------------------------------------------------------------ */

static struct kstat stat_of(struct dentry *d)
{
	struct kstat st = { };

	KSHIM_ASSERT_EQ(kshim_vfs_getattr(d, &st), 0);
	return st;
}

static struct kstat stat_name(struct dentry *dir, const char *name)
{
	struct dentry *d = kshim_vfs_lookup(dir, name);
	struct kstat st;

	KSHIM_ASSERT_FATAL(!IS_ERR(d));
	st = stat_of(d);
	kshim_vfs_put(d);
	return st;
}

/* The filesystem's free blocks, allocated inodes and free inodes. */
struct fs_counts {
	s64 fdblocks, icount, ifree;
};

/*
 * Counted once every dirty inode is written and inodegc has run:
 * delayed allocations and queued inactivations then hold nothing back.
 */
static struct fs_counts settle_and_count(struct xfs_mount *mp)
{
	struct fs_counts c;

	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(mp->m_super), 0);
	KSHIM_ASSERT_EQ(xfs_inodegc_flush(mp), 0);
	c.fdblocks = percpu_counter_sum(&mp->m_fdblocks);
	c.icount = percpu_counter_sum(&mp->m_icount);
	c.ifree = percpu_counter_sum(&mp->m_ifree);
	return c;
}

/* How many AGI unlinked-list buckets, over every AG, head a list. */
static unsigned int unlinked_lists(struct xfs_mount *mp)
{
	unsigned int n = 0, i;
	xfs_agnumber_t agno;

	for (agno = 0; agno < mp->m_sb.sb_agcount; agno++) {
		struct xfs_perag *pag = xfs_perag_get(mp, agno);
		struct xfs_buf *agibp;
		struct xfs_agi *agi;

		KSHIM_ASSERT_EQ_FATAL(xfs_ialloc_read_agi(pag, NULL, 0,
							  &agibp), 0);
		agi = agibp->b_addr;
		for (i = 0; i < XFS_AGI_UNLINKED_BUCKETS; i++)
			if (agi->agi_unlinked[i] != cpu_to_be32(NULLAGINO))
				n++;
		xfs_buf_relse(agibp);
		xfs_perag_put(pag);
	}
	return n;
}

/*
 * The unlinked inode is gone: no AGI unlinked list is left, and every
 * block and free inode of BEFORE's is back (the freed inode's chunk
 * stays allocated, so ifree counts it free again).
 */
static void freed_as_before(struct xfs_mount *mp, struct fs_counts before)
{
	struct fs_counts now = settle_and_count(mp);

	KSHIM_ASSERT_EQ(unlinked_lists(mp), 0);
	KSHIM_ASSERT_EQ(now.fdblocks, before.fdblocks);
	KSHIM_ASSERT_EQ(now.ifree, before.ifree);
}

/* Nothing waits for inactivation on any CPU. */
static bool inodegc_idle(struct xfs_mount *mp)
{
	struct xfs_inodegc *gc;
	int cpu;

	for_each_possible_cpu(cpu) {
		gc = per_cpu_ptr(mp->m_inodegc, cpu);
		if (!llist_empty(&gc->list))
			return false;
	}
	return true;
}

/* A file with LEN bytes of data on disk, left open in *OUT. */
static void create_with_data(struct dentry *dir, const char *name,
			     size_t len, struct file **out)
{
	char *buf = kmalloc(len, GFP_KERNEL);

	KSHIM_ASSERT_FATAL(buf);
	memset(buf, 0x5a, len);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(dir, name, O_CREAT | O_RDWR, 0644,
					     out), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_pwrite(*out, buf, len, 0, 0),
			      (ssize_t)len);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_fsync(*out, 0), 0);
	kfree(buf);
}

/*
 * Write fields of inode INO on the unmounted image with xfs_db, which
 * rewrites the inode's CRC: WRITES is its -c arguments ("-c 'write
 * core.filestream 1'"). kshim has no FS_IOC_FSSETXATTR, with which
 * xfs_io would set these flags.
 */
static void xfs_db_write_inode(struct xfs_fixture *fx, u64 ino,
			       const char *writes)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "xfs_db -x -c 'inode %llu' %s %s "
		 ">/dev/null 2>&1", (unsigned long long)ino, writes, fx->img);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_run_command(cmd), 0);
}

/* Allocate every free block to BIG (whole 1 MiB, then 4 KiB pieces). */
static loff_t fill_with(struct file *big)
{
	loff_t off = 0;
	int err;

	while (!(err = kshim_vfs_fallocate(big, 0, off, SZ_1M)))
		off += SZ_1M;
	KSHIM_ASSERT_EQ(err, -ENOSPC);
	while (!(err = kshim_vfs_fallocate(big, 0, off, SZ_4K)))
		off += SZ_4K;
	KSHIM_ASSERT_EQ(err, -ENOSPC);
	return off;
}

/* ---- unlink, last close, inactivation ----------------------------------- */

#define DATA_LEN	SZ_256K

/*
 * An unlinked file still open is on its AG's unlinked list, keeps its
 * inode and its blocks, and its data still reads back; the VFS refuses
 * to give it a name again. The last close inactivates it: the blocks
 * and the inode are free and the list is empty, on disk after a
 * remount too.
 */
static void test_unlinked_open_file_is_freed_at_its_last_close(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct fs_counts before, now;
	struct file *f;
	char *buf = kmalloc(DATA_LEN, GFP_KERNEL);

	KSHIM_ASSERT_FATAL(buf);
	before = settle_and_count(mp);
	create_with_data(root, "f", DATA_LEN, &f);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "f"), 0);
	KSHIM_ASSERT(!xfs_fixture_exists(root, "f"));
	KSHIM_ASSERT_EQ(stat_of(f->f_path.dentry).nlink, 0);
	KSHIM_ASSERT_EQ(kshim_vfs_link(f->f_path.dentry, root, "back"),
			-ENOENT);

	now = settle_and_count(mp);
	KSHIM_ASSERT_EQ(unlinked_lists(mp), 1);
	KSHIM_ASSERT(now.fdblocks <= before.fdblocks - DATA_LEN / SZ_4K);
	KSHIM_ASSERT_EQ(now.ifree, before.ifree - 1);
	KSHIM_ASSERT_EQ(kshim_vfs_pread(f, buf, DATA_LEN, 0, 0),
			(ssize_t)DATA_LEN);
	KSHIM_ASSERT(buf[0] == 0x5a && buf[DATA_LEN - 1] == 0x5a);

	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);
	now = settle_and_count(mp);
	KSHIM_ASSERT_EQ(unlinked_lists(mp), 0);
	KSHIM_ASSERT_EQ(now.fdblocks, before.fdblocks);
	KSHIM_ASSERT_EQ(now.icount, before.icount);
	KSHIM_ASSERT_EQ(now.ifree, before.ifree);

	xfs_fixture_remount_root(&fx, &root);
	mp = fx.mp;
	freed_as_before(mp, before);
	KSHIM_ASSERT(!xfs_fixture_exists(root, "back"));
	kfree(buf);
	xfs_fixture_finish(&fx, root);
}

/*
 * Power fails after an unlink reached the log and before the file's last
 * close. The shut-down filesystem runs no transaction, so the close
 * sends the inode straight to reclaim, inactivating nothing; on disk
 * the inode is still on the unlinked list. Log recovery replays the
 * unlinked lists: the next mount frees the inode and its blocks.
 */
static void test_crash_before_inactivation_is_finished_by_recovery(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct fs_counts before;
	struct file *f;

	before = settle_and_count(mp);
	create_with_data(root, "f", DATA_LEN, &f);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "f"), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(mp->m_super), 0);
	KSHIM_ASSERT_EQ(unlinked_lists(mp), 1);

	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_power_cut(&fx, KSHIM_CRASH_DROP_ALL),
			      0);
	KSHIM_ASSERT(xfs_is_shutdown(mp));
	kshim_vfs_close(f);
	KSHIM_ASSERT(inodegc_idle(mp));
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);

	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT(kshim_printk_contains("Starting recovery"));
	mp = fx.mp;
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	freed_as_before(mp, before);
	KSHIM_ASSERT(!xfs_fixture_exists(root, "f"));
	xfs_fixture_finish(&fx, root);
}

/* ---- a shutdown in the middle of inactivation --------------------------- */

/* The CPU whose inodegc queue the test fills: the last, not the test's. */
#define GC_CPU		(nr_cpu_ids - 1)

static void close_fn(void *file)
{
	kshim_vfs_close(file);
}

/*
 * The filesystem shuts down while inodegc inactivates an unlinked file
 * of 1 MiB with no blocks (its size alone makes inactivation truncate
 * it): the truncate has its transaction and waits for the inode's lock,
 * which a test task holds, as another operation on the inode could. Its
 * commit then fails on the dead log, and nothing is left half done in
 * memory: the unmount completes, and the next mount's recovery frees
 * the inode from the unlinked list.
 */
static void test_shutdown_during_inactivation_is_finished_by_recovery(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct fs_counts before;
	struct xfs_inodegc_busy busy;
	struct xfs_inode *ip;
	struct file *f;

	before = settle_and_count(mp);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "f", O_CREAT | O_RDWR,
					     0644, &f), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_ftruncate(f, SZ_1M), 0);
	ip = XFS_I(file_inode(f));
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "f"), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(mp->m_super), 0);

	/* Queued, not yet inactivated: the worker is busy. */
	xfs_inodegc_busy_start(mp, GC_CPU, &busy);
	kshim_task_join(kshim_task_run(close_fn, f, "closer", GC_CPU));
	xfs_ilock(ip, XFS_ILOCK_EXCL);
	xfs_inodegc_busy_end(&busy);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(rwsem_is_contended(&ip->i_lock),
					5 * HZ));
	xfs_force_shutdown(mp, SHUTDOWN_META_IO_ERROR);
	xfs_iunlock(ip, XFS_ILOCK_EXCL);
	/* Not asserted: the worker took its CPU out of the mask the flush
	 * collects errors by when it started, so the error is not seen. */
	xfs_inodegc_flush(mp);
	KSHIM_ASSERT(inodegc_idle(mp));
	xfs_fixture_remount_root(&fx, &root);
	mp = fx.mp;
	freed_as_before(mp, before);
	xfs_fixture_finish(&fx, root);
}

/* Let the buffer cache's shrinker go over every unused buffer until even
 * the most referenced (an AGI starts at XFS_AGI_REF) is freed. */
static void shrink_buffer_cache(struct xfs_mount *mp)
{
	struct shrinker *s = mp->m_ddev_targp->bt_shrinker;
	struct shrink_control sc = {
		.gfp_mask	= GFP_KERNEL,
		.nr_to_scan	= LONG_MAX,
	};
	int pass;

	for (pass = 0; pass <= XFS_AGI_REF; pass++)
		s->scan_objects(s, &sc);
}

/*
 * The AGI cannot be read when the inode it must free is inactivated: the
 * free fails before it changes anything, and a filesystem that cannot
 * free an unlinked inode shuts down rather than leave it allocated and
 * forgotten. The inode is still on the unlinked list on disk, and the
 * next mount's recovery frees it.
 */
static void test_agi_read_error_freeing_an_inode_shuts_down(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct xfs_mount *mp = fx.mp;
	struct kshim_bdev *kb = kshim_xfs_data_bdev(fx.x);
	struct fs_counts before;
	struct kshim_fault agi_eio = {
		.ops		= KSHIM_FAULT_READ,
		.nr_sectors	= 1,
		.status		= BLK_STS_IOERR,
	};
	xfs_agnumber_t agno;
	struct file *f;
	int id;

	before = settle_and_count(mp);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "f", O_CREAT | O_RDWR,
					     0644, &f), 0);
	agno = XFS_INO_TO_AGNO(mp, XFS_I(file_inode(f))->i_ino);
	agi_eio.start = XFS_AG_DADDR(mp, agno, XFS_AGI_DADDR(mp));
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "f"), 0);
	/* The unlink's AGI written back, then dropped from memory. */
	xfs_fixture_quiesce(mp);
	shrink_buffer_cache(mp);
	id = kshim_bdev_add_fault(kb, &agi_eio);
	KSHIM_ASSERT_FATAL(id >= 0);

	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);
	xfs_inodegc_flush(mp);
	KSHIM_ASSERT(kshim_bdev_fault_hits(kb, id) > 0);
	KSHIM_ASSERT(xfs_is_shutdown(mp));
	KSHIM_ASSERT(kshim_printk_contains("xfs_ifree returned error"));
	kshim_bdev_clear_faults(kb);
	xfs_fixture_remount_root(&fx, &root);
	mp = fx.mp;
	freed_as_before(mp, before);
	xfs_fixture_finish(&fx, root);
}

/* ---- a corrupt symlink -------------------------------------------------- */

/* Longer than the inode's literal area: the target goes in a block. */
#define REMOTE_TARGET_LEN	600

/*
 * A remote symlink whose size on disk is past XFS_SYMLINK_MAXLEN (the
 * inode verifier refuses only 0) is unlinked: inactivation finds the
 * corruption, says so and stops, leaving the inode allocated on the
 * unlinked list with its block, rather than free it by a size it cannot
 * trust; the filesystem goes on. With the size put right (xfs_db), log
 * recovery's unlinked-list replay frees it.
 */
static void test_unlinked_symlink_of_corrupt_size_is_left_allocated(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx), *l;
	char target[REMOTE_TARGET_LEN + 1];
	struct fs_counts before, now;
	u64 ino;

	memset(target, 't', REMOTE_TARGET_LEN);
	target[REMOTE_TARGET_LEN] = '\0';
	before = settle_and_count(fx.mp);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_symlink(root, "l", target, &l), 0);
	ino = stat_of(l).ino;
	kshim_vfs_put(l);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_db_write_inode(&fx, ino, "-c 'write core.size 2000'");
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));

	/* XFS_DEBUG builds ASSERT(0) after "bad symlink length". */
	kshim_test_expect_warns(1);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "l"), 0);
	now = settle_and_count(fx.mp);
	KSHIM_ASSERT(kshim_printk_contains("bad symlink length (2000)"));
	KSHIM_ASSERT(!xfs_is_shutdown(fx.mp));
	KSHIM_ASSERT_EQ(unlinked_lists(fx.mp), 1);
	KSHIM_ASSERT_EQ(now.ifree, before.ifree - 1);
	KSHIM_ASSERT(now.fdblocks < before.fdblocks);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);

	/* Put right by hand; a dirty log makes the next mount replay the
	 * unlinked lists. */
	xfs_db_write_inode(&fx, ino, "-c 'write core.size "
			   __stringify(REMOTE_TARGET_LEN) "'");
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_EQ(kshim_vfs_create(root, "dirty", 0644, NULL), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(fx.mp->m_super), 0);
	kshim_vfs_put(root);
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_DROP_ALL), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	now = settle_and_count(fx.mp);
	KSHIM_ASSERT_EQ(unlinked_lists(fx.mp), 0);
	KSHIM_ASSERT(!xfs_fixture_exists(root, "l"));
	KSHIM_ASSERT(xfs_fixture_exists(root, "dirty"));
	xfs_fixture_finish(&fx, root);
}

/* ---- no room for the finobt reservation --------------------------------- */

/* Free blocks the superblock is made to claim: enough for an inode free's
 * few finobt blocks, far too few for the per-AG reservations. */
#define NORES_FREE_BLOCKS	100

/*
 * A filesystem mounted with too little free space for its per-AG finobt
 * reservation (m_finobt_nores: "Per-AG reservation ... failed") must
 * still free unlinked inodes, or they would stay on the unlinked list
 * until someone frees space and runs xfs_repair: the free then takes
 * its finobt blocks from the reserve pool. The superblock's free count
 * is lowered with xfs_db on the clean image (a clean mount trusts it);
 * a crash at the end makes the next mount count the free space again.
 */
static void test_unlinked_inode_is_freed_without_a_finobt_reservation(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct file *big;
	char cmd[512];

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(root, "victim", 0644, NULL), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "big", O_CREAT | O_RDWR,
					     0644, &big), 0);
	fill_with(big);
	KSHIM_ASSERT_EQ(kshim_vfs_close(big), 0);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	snprintf(cmd, sizeof(cmd), "xfs_db -x -c 'sb 0' -c 'write fdblocks "
		 __stringify(NORES_FREE_BLOCKS) "' %s >/dev/null 2>&1", fx.img);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_run_command(cmd), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_FATAL(fx.mp->m_finobt_nores);

	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "victim"), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_syncfs(fx.mp->m_super), 0);
	KSHIM_ASSERT_EQ(xfs_inodegc_flush(fx.mp), 0);
	KSHIM_ASSERT(!kshim_printk_contains("Failed to remove inode(s)"));
	KSHIM_ASSERT_EQ(unlinked_lists(fx.mp), 0);
	KSHIM_ASSERT(!xfs_fixture_exists(root, "victim"));
	kshim_vfs_put(root);

	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_DROP_ALL), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_EQ(unlinked_lists(fx.mp), 0);
	xfs_fixture_finish(&fx, root);
}

/* ---- inode chunks ------------------------------------------------------- */

/* Enough files for two chunks of only ours past the mkfs chunk: the
 * allocator does not always fill one chunk before it makes the next. */
#define NR_CHUNK_FILES	320

struct chunk_files {
	u64 ino[NR_CHUNK_FILES];
	char name[NR_CHUNK_FILES][16];
};

/* NR_CHUNK_FILES files f0, f1... in ROOT, their inode numbers noted. */
static void create_chunk_files(struct dentry *root, struct chunk_files *cf)
{
	struct dentry *d;
	int i;

	for (i = 0; i < NR_CHUNK_FILES; i++) {
		snprintf(cf->name[i], sizeof(cf->name[i]), "f%d", i);
		KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(root, cf->name[i], 0644,
						       &d), 0);
		cf->ino[i] = stat_of(d).ino;
		kshim_vfs_put(d);
	}
}

static u64 chunk_of(u64 ino)
{
	return ino >> XFS_INODES_PER_CHUNK_LOG;
}

static int files_in_chunk(const struct chunk_files *cf, u64 chunk)
{
	int i, n = 0;

	for (i = 0; i < NR_CHUNK_FILES; i++)
		n += chunk_of(cf->ino[i]) == chunk;
	return n;
}

/* The chunk of the first of our files whose 64 inodes are all ours,
 * other than SKIP; U64_MAX if none. */
static u64 whole_chunk(const struct chunk_files *cf, u64 skip)
{
	int i;

	for (i = 0; i < NR_CHUNK_FILES; i++) {
		u64 c = chunk_of(cf->ino[i]);

		if (c != skip && files_in_chunk(cf, c) == XFS_INODES_PER_CHUNK)
			return c;
	}
	return U64_MAX;
}

/*
 * The last inode of a chunk freed frees the chunk: the 64 inodes leave
 * the filesystem's count and its blocks come back. The chunk's cluster
 * buffers are invalidated, and only theirs: the inodes of another whole
 * chunk, changed afterwards, keep their changes across a remount.
 */
static void test_freeing_a_whole_chunk_leaves_its_neighbours_alone(void)
{
	static struct chunk_files cf;
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx), *d;
	struct xfs_mount *mp = fx.mp;
	struct fs_counts before, now;
	u64 freed, kept;
	int i;

	create_chunk_files(root, &cf);
	freed = whole_chunk(&cf, U64_MAX);
	kept = whole_chunk(&cf, freed);
	KSHIM_ASSERT_FATAL(freed != U64_MAX && kept != U64_MAX);

	before = settle_and_count(mp);
	for (i = 0; i < NR_CHUNK_FILES; i++)
		if (chunk_of(cf.ino[i]) == freed)
			KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, cf.name[i]), 0);
	now = settle_and_count(mp);
	KSHIM_ASSERT_EQ(now.icount, before.icount - XFS_INODES_PER_CHUNK);
	KSHIM_ASSERT_EQ(now.ifree, before.ifree);
	KSHIM_ASSERT(now.fdblocks >= before.fdblocks + M_IGEO(mp)->ialloc_blks);
	KSHIM_ASSERT_EQ(unlinked_lists(mp), 0);

	for (i = 0; i < NR_CHUNK_FILES; i++) {
		if (chunk_of(cf.ino[i]) != kept)
			continue;
		d = kshim_vfs_lookup(root, cf.name[i]);
		KSHIM_ASSERT_FATAL(!IS_ERR(d));
		KSHIM_ASSERT_EQ(kshim_vfs_chmod(d, 0600), 0);
		kshim_vfs_put(d);
	}

	xfs_fixture_remount_root(&fx, &root);
	for (i = 0; i < NR_CHUNK_FILES; i++) {
		if (chunk_of(cf.ino[i]) == freed) {
			KSHIM_ASSERT(!xfs_fixture_exists(root, cf.name[i]));
		} else {
			struct kstat st = stat_name(root, cf.name[i]);
			umode_t mode = chunk_of(cf.ino[i]) == kept ? 0600
								    : 0644;

			KSHIM_ASSERT_EQ(st.ino, cf.ino[i]);
			KSHIM_ASSERT_EQ(st.mode & 0777, mode);
		}
	}
	xfs_fixture_finish(&fx, root);
}

/* Read AGNO's inode btrees (a single leaf each on these filesystems)
 * into memory, as an inode allocation there would leave them. */
static void read_inode_btrees(struct xfs_mount *mp, xfs_agnumber_t agno)
{
	const struct xfs_buf_ops *ops[] = { &xfs_inobt_buf_ops,
					    &xfs_finobt_buf_ops };
	struct xfs_perag *pag = xfs_perag_get(mp, agno);
	xfs_agblock_t root[ARRAY_SIZE(ops)];
	struct xfs_buf *bp;
	struct xfs_agi *agi;
	int i;

	KSHIM_ASSERT_EQ_FATAL(xfs_ialloc_read_agi(pag, NULL, 0, &bp), 0);
	agi = bp->b_addr;
	KSHIM_ASSERT_FATAL(be32_to_cpu(agi->agi_level) == 1 &&
			   be32_to_cpu(agi->agi_free_level) == 1);
	root[0] = be32_to_cpu(agi->agi_root);
	root[1] = be32_to_cpu(agi->agi_free_root);
	xfs_buf_relse(bp);
	xfs_perag_put(pag);
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		KSHIM_ASSERT_EQ_FATAL(xfs_buf_read(mp->m_ddev_targp,
				XFS_AGB_TO_DADDR(mp, agno, root[i]),
				XFS_FSB_TO_BB(mp, 1), 0, &bp, ops[i]), 0);
		xfs_buf_relse(bp);
	}
}

/*
 * The last inode of a whole chunk, unlinked while open, is freed when it
 * is closed after a remount: then only its own cluster buffer is in
 * memory, and freeing the chunk must get the others' (to mark them
 * stale) with a new allocation. That first allocation, which may fail,
 * fails: the free changes nothing, and a filesystem that cannot free an
 * unlinked inode shuts down rather than leave it allocated and
 * forgotten. The next mount's recovery frees the inode and its chunk.
 */
static void test_no_memory_for_a_freed_chunks_cluster_shuts_down(void)
{
	static struct chunk_files cf;
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct fs_counts before, now;
	struct xfs_inodegc_busy busy;
	struct file *last;
	const char *last_name = NULL;
	u64 freed;
	int i;

	create_chunk_files(root, &cf);
	freed = whole_chunk(&cf, U64_MAX);
	KSHIM_ASSERT_FATAL(freed != U64_MAX);
	/* A cluster of more pages than a buffer holds inline (XB_PAGES)
	 * needs an allocation for its page array. */
	KSHIM_ASSERT_FATAL(M_IGEO(fx.mp)->blocks_per_cluster *
			   fx.mp->m_sb.sb_blocksize > 2 * PAGE_SIZE);
	before = settle_and_count(fx.mp);

	/* All but the last freed; after a remount only the last's own
	 * cluster is read again, by its open. */
	for (i = 0; i < NR_CHUNK_FILES; i++) {
		if (chunk_of(cf.ino[i]) != freed)
			continue;
		if (last_name)
			KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, last_name), 0);
		last_name = cf.name[i];
	}
	KSHIM_ASSERT_EQ(xfs_inodegc_flush(fx.mp), 0);
	xfs_fixture_remount_root(&fx, &root);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, last_name, O_RDWR, 0,
					     &last), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, last_name), 0);
	KSHIM_ASSERT_EQ(unlinked_lists(fx.mp), 1);
	/* The free reads them before the clusters: not what should fail. */
	read_inode_btrees(fx.mp, XFS_INO_TO_AGNO(fx.mp,
						 XFS_I(file_inode(last))->i_ino));

	xfs_inodegc_busy_start(fx.mp, GC_CPU, &busy);
	kshim_task_join(kshim_task_run(close_fn, last, "closer", GC_CPU));
	kshim_alloc_fail_nth(1);
	xfs_inodegc_busy_end(&busy);
	xfs_inodegc_flush(fx.mp);
	kshim_alloc_fail_nth(0);
	KSHIM_ASSERT(xfs_is_shutdown(fx.mp));
	KSHIM_ASSERT(kshim_printk_contains("xfs_ifree returned error -12"));

	xfs_fixture_remount_root(&fx, &root);
	now = settle_and_count(fx.mp);
	KSHIM_ASSERT_EQ(unlinked_lists(fx.mp), 0);
	KSHIM_ASSERT_EQ(now.icount, before.icount - XFS_INODES_PER_CHUNK);
	KSHIM_ASSERT_EQ(now.ifree, before.ifree);
	KSHIM_ASSERT(now.fdblocks >=
		     before.fdblocks + M_IGEO(fx.mp)->ialloc_blks);
	xfs_fixture_finish(&fx, root);
}

/* Free space in runs of 7 blocks (28 KiB holes every 64 KiB): no run
 * holds a whole 8-block chunk, every run holds an aligned 4-block one. */
#define HOLE_STRIDE	SZ_64K
#define HOLE_LEN	(7 * SZ_4K)
#define NR_SPARSE_FILES	128

/*
 * On free space too fragmented for a whole inode chunk, new inodes come
 * in sparse chunks (-i sparse=1: a cluster of the chunk allocated, the
 * rest a hole). Freeing every inode frees those chunks too, their holes
 * skipped: the inode count comes back to what it was, and xfs_repair
 * finds the inode btree and the free space agreeing. (No reflink nor
 * finobt: their per-AG reservations would keep whole free extents
 * behind the full filesystem's back.)
 */
static void test_sparse_chunks_on_fragmented_space_are_freed(void)
{
	struct xfs_fixture fx = { .mkfs_opts = "-m reflink=0,finobt=0 "
						"-i sparse=1" };
	struct dentry *root = xfs_fixture_mount_root(&fx), *dir;
	struct xfs_mount *mp = fx.mp;
	struct fs_counts before, now;
	struct file *big;
	char name[16];
	loff_t size, off;
	int i;

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "big", O_CREAT | O_RDWR,
					     0644, &big), 0);
	size = fill_with(big);
	for (off = 0; off + HOLE_STRIDE <= size; off += HOLE_STRIDE)
		KSHIM_ASSERT_EQ(kshim_vfs_fallocate(big, FALLOC_FL_PUNCH_HOLE |
						    FALLOC_FL_KEEP_SIZE, off,
						    HOLE_LEN), 0);

	before = settle_and_count(mp);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_mkdir(root, "s", 0755, &dir), 0);
	for (i = 0; i < NR_SPARSE_FILES; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(dir, name, 0644, NULL),
				      0);
	}
	now = settle_and_count(mp);
	KSHIM_ASSERT(now.icount > before.icount);
	for (i = 0; i < NR_SPARSE_FILES; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		KSHIM_ASSERT_EQ(kshim_vfs_unlink(dir, name), 0);
	}
	kshim_vfs_put(dir);
	KSHIM_ASSERT_EQ(kshim_vfs_rmdir(root, "s"), 0);
	now = settle_and_count(mp);
	KSHIM_ASSERT_EQ(now.icount, before.icount);
	KSHIM_ASSERT_EQ(now.ifree, before.ifree);
	KSHIM_ASSERT_EQ(unlinked_lists(mp), 0);

	KSHIM_ASSERT_EQ(kshim_vfs_close(big), 0);
	xfs_fixture_remount_root(&fx, &root);
	now = settle_and_count(fx.mp);
	KSHIM_ASSERT_EQ(now.icount, before.icount);
	xfs_fixture_finish(&fx, root);
}

/* ---- a filestream directory --------------------------------------------- */

/* Streams the filestream allocator counts, over every AG. */
static int active_streams(struct xfs_mount *mp)
{
	xfs_agnumber_t agno;
	int n = 0;

	for (agno = 0; agno < mp->m_sb.sb_agcount; agno++) {
		struct xfs_perag *pag = xfs_perag_get(mp, agno);

		n += atomic_read(&pag->pagf_fstrms);
		xfs_perag_put(pag);
	}
	return n;
}

/*
 * A filestream directory (XFS_DIFLAG_FILESTREAM) holds an AG for the
 * data of its files: the first allocation for a file in it starts a
 * stream, counted on that AG, so that other streams go elsewhere. The
 * stream belongs to the directory and ends when the directory goes:
 * after its file and then the directory are removed, no AG counts it.
 */
static void test_removing_a_filestream_directory_ends_its_stream(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx), *dir;
	struct file *f;
	u64 ino;

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_mkdir(root, "s", 0755, &dir), 0);
	ino = stat_of(dir).ino;
	kshim_vfs_put(dir);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_db_write_inode(&fx, ino, "-c 'write core.filestream 1'");
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));

	dir = kshim_vfs_lookup(root, "s");
	KSHIM_ASSERT_FATAL(!IS_ERR(dir));
	KSHIM_ASSERT_EQ(active_streams(fx.mp), 0);
	create_with_data(dir, "f", SZ_64K, &f);
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);
	KSHIM_ASSERT_EQ(active_streams(fx.mp), 1);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(dir, "f"), 0);
	kshim_vfs_put(dir);
	KSHIM_ASSERT_EQ(kshim_vfs_rmdir(root, "s"), 0);
	KSHIM_ASSERT_EQ(xfs_inodegc_flush(fx.mp), 0);
	KSHIM_ASSERT_EQ(active_streams(fx.mp), 0);
	xfs_fixture_finish(&fx, root);
}

/* ---- link's refusals ---------------------------------------------------- */

/* Long names: a directory block takes about fifteen. */
static void link_name(char *buf, size_t len, int i)
{
	memset(buf, 'l', 200);
	snprintf(buf + 200, len - 200, "%d", i);
}

/*
 * On a full filesystem a link still works while its directory has room
 * (XFS takes a reservation of no blocks); the first that needs a new
 * directory block fails with -ENOSPC and changes nothing: no name, no
 * extra link count. Once space is freed the same link works.
 */
static void test_link_on_a_full_filesystem_fails_cleanly(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx), *dir, *f;
	struct file *big;
	char name[256];
	int err = 0, links;

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_mkdir(root, "d", 0755, &dir), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(root, "f", 0644, &f), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "big", O_CREAT | O_RDWR,
					     0644, &big), 0);
	fill_with(big);

	for (links = 0; links < 10000; links++) {
		link_name(name, sizeof(name), links);
		err = kshim_vfs_link(f, dir, name);
		if (err)
			break;
	}
	KSHIM_ASSERT_EQ(err, -ENOSPC);
	KSHIM_ASSERT(!xfs_fixture_exists(dir, name));
	KSHIM_ASSERT_EQ(stat_of(f).nlink, 1 + links);
	kshim_info("link: %d links before ENOSPC\n", links);

	KSHIM_ASSERT_EQ(kshim_vfs_close(big), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "big"), 0);
	KSHIM_ASSERT_EQ(xfs_inodegc_flush(fx.mp), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_link(f, dir, name), 0);
	KSHIM_ASSERT_EQ(stat_of(f).nlink, 2 + links);
	kshim_vfs_put(f);
	kshim_vfs_put(dir);

	xfs_fixture_remount_root(&fx, &root);
	KSHIM_ASSERT_EQ(stat_name(root, "f").nlink, 2 + links);
	dir = kshim_vfs_lookup(root, "d");
	KSHIM_ASSERT_FATAL(!IS_ERR(dir));
	KSHIM_ASSERT(xfs_fixture_exists(dir, name));
	kshim_vfs_put(dir);
	xfs_fixture_finish(&fx, root);
}

/* A link or an unlink from its own task (each in its own directory: the
 * VFS locks the parent, and the two must wait on the log, not on it). */
struct namespace_op {
	struct dentry *dir, *target;	/* target: the inode to link */
	const char *name;
	int err;
};

static void link_fn(void *arg)
{
	struct namespace_op *op = arg;

	op->err = kshim_vfs_link(op->target, op->dir, op->name);
}

static void unlink_fn(void *arg)
{
	struct namespace_op *op = arg;

	op->err = kshim_vfs_unlink(op->dir, op->name);
}

/*
 * A link and an unlink wait for log space (another reservation holds
 * nearly all of it) when the filesystem shuts down: both fail with
 * -EIO, having changed nothing, and after recovery the names are as
 * they were before either call.
 */
static void test_link_and_unlink_waiting_for_log_space_fail_at_shutdown(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx), *d1, *d2, *f;
	struct xfs_mount *mp = fx.mp;
	struct xlog *log = mp->m_log;
	struct namespace_op lk = { .name = "l" }, ul = { .name = "u" };
	struct task_struct *tl, *tu;
	struct xlog_ticket *hog = NULL;
	s64 free0;

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_mkdir(root, "d1", 0755, &d1), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_mkdir(root, "d2", 0755, &d2), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(root, "f", 0644, &f), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(d2, "u", 0644, NULL), 0);
	xfs_fixture_quiesce(mp);

	/* Leave less than half of one link's reservation free. */
	free0 = space_left(log, &log->l_reserve_head);
	KSHIM_ASSERT_EQ_FATAL(xfs_log_reserve(mp, free0 -
			M_RES(mp)->tr_link.tr_logres / 2, 1, &hog, false), 0);
	lk.dir = d1;
	lk.target = f;
	ul.dir = d2;
	tl = kshim_task_run(link_fn, &lk, "linker", -1);
	tu = kshim_task_run(unlink_fn, &ul, "unlinker", -1);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(nr_waiters(&log->l_reserve_head) == 2,
					5 * HZ));
	xfs_force_shutdown(mp, SHUTDOWN_META_IO_ERROR);
	kshim_task_join(tl);
	kshim_task_join(tu);
	KSHIM_ASSERT_EQ(lk.err, -EIO);
	KSHIM_ASSERT_EQ(ul.err, -EIO);
	xfs_log_ticket_ungrant(log, hog);
	kshim_vfs_put(f);
	kshim_vfs_put(d1);
	kshim_vfs_put(d2);

	xfs_fixture_remount_root(&fx, &root);
	KSHIM_ASSERT_EQ(stat_name(root, "f").nlink, 1);
	d1 = kshim_vfs_lookup(root, "d1");
	d2 = kshim_vfs_lookup(root, "d2");
	KSHIM_ASSERT_FATAL(!IS_ERR(d1) && !IS_ERR(d2));
	KSHIM_ASSERT(!xfs_fixture_exists(d1, "l"));
	KSHIM_ASSERT(xfs_fixture_exists(d2, "u"));
	kshim_vfs_put(d1);
	kshim_vfs_put(d2);
	xfs_fixture_finish(&fx, root);
}

#define PROJID	42

/*
 * A project directory's tree is its project's: a hard link from outside
 * the project into it would let the file's blocks escape the project's
 * quota, and fails with -EXDEV. A special file of no project may be
 * linked in (project setup skips those); files made inside the project
 * are linked among themselves freely.
 */
static void test_links_into_a_project_directory(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root = xfs_fixture_mount_root(&fx), *proj, *d;
	u64 proj_ino;

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_mkdir(root, "proj", 0755, &proj), 0);
	proj_ino = stat_of(proj).ino;
	kshim_vfs_put(proj);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(root, "outside", 0644, NULL), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_mknod(root, "fifo", S_IFIFO | 0644,
					      NULL), 0);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	/* What xfs_io -c 'chproj -R 42' and chattr +P would make it. */
	xfs_db_write_inode(&fx, proj_ino, "-c 'write core.projinherit 1' "
			   "-c 'write core.projid_lo " __stringify(PROJID) "'");
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));

	proj = kshim_vfs_lookup(root, "proj");
	KSHIM_ASSERT_FATAL(!IS_ERR(proj));
	d = kshim_vfs_lookup(root, "outside");
	KSHIM_ASSERT_FATAL(!IS_ERR(d));
	KSHIM_ASSERT_EQ(kshim_vfs_link(d, proj, "outside"), -EXDEV);
	KSHIM_ASSERT_EQ(stat_of(d).nlink, 1);
	kshim_vfs_put(d);
	KSHIM_ASSERT(!xfs_fixture_exists(proj, "outside"));

	d = kshim_vfs_lookup(root, "fifo");
	KSHIM_ASSERT_FATAL(!IS_ERR(d));
	KSHIM_ASSERT_EQ(kshim_vfs_link(d, proj, "fifo"), 0);
	KSHIM_ASSERT_EQ(stat_of(d).nlink, 2);
	kshim_vfs_put(d);

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(proj, "in", 0644, &d), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_link(d, proj, "in2"), 0);
	KSHIM_ASSERT_EQ(stat_of(d).nlink, 2);
	kshim_vfs_put(d);
	kshim_vfs_put(proj);

	xfs_fixture_remount_root(&fx, &root);
	proj = kshim_vfs_lookup(root, "proj");
	KSHIM_ASSERT_FATAL(!IS_ERR(proj));
	KSHIM_ASSERT_EQ(stat_name(proj, "in2").nlink, 2);
	KSHIM_ASSERT_EQ(stat_name(proj, "fifo").nlink, 2);
	KSHIM_ASSERT(!xfs_fixture_exists(proj, "outside"));
	kshim_vfs_put(proj);
	xfs_fixture_finish(&fx, root);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_unlinked_open_file_is_freed_at_its_last_close),
	KSHIM_TEST(test_crash_before_inactivation_is_finished_by_recovery),
	KSHIM_TEST(test_shutdown_during_inactivation_is_finished_by_recovery),
	KSHIM_TEST(test_agi_read_error_freeing_an_inode_shuts_down),
	KSHIM_TEST(test_unlinked_symlink_of_corrupt_size_is_left_allocated),
	KSHIM_TEST(test_unlinked_inode_is_freed_without_a_finobt_reservation),
	KSHIM_TEST(test_freeing_a_whole_chunk_leaves_its_neighbours_alone),
	KSHIM_TEST(test_no_memory_for_a_freed_chunks_cluster_shuts_down),
	KSHIM_TEST(test_sparse_chunks_on_fragmented_space_are_freed),
	KSHIM_TEST(test_removing_a_filestream_directory_ends_its_stream),
	KSHIM_TEST(test_link_on_a_full_filesystem_fails_cleanly),
	KSHIM_TEST(test_links_into_a_project_directory),
	KSHIM_TEST(test_link_and_unlink_waiting_for_log_space_fail_at_shutdown),
	{ }
};

KSHIM_SUITES({ "xfs_inode_life", NULL, NULL, tests });
