// SPDX-License-Identifier: GPL-2.0
/*
 * The real XFS inode cache (fs/xfs/xfs_icache.c) on a mounted mkfs.xfs
 * image: an inode's life from xfs_create() through release (the VFS
 * inode LRU), eviction by the real superblock shrinker (then XFS's to
 * reclaim), the cache hit that recycles a reclaimable inode, and
 * reclaim, which frees an inode only once it is clean (its checkpoint on
 * disk, the inode written back through the AIL), after which xfs_iget()
 * reads it from disk again. The XFS statistics say which path
 * xfs_iget() took.
 */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_inode.h"
#include "xfs_icache.h"
#include "xfs_iops.h"
#include "xfs_log.h"
#include "xfs_trans.h"
#include "xfs_trans_priv.h"
#include "xfs_da_format.h"
#include "xfs_dir2.h"
#include "xfs_stats.h"
#include "xfs_trans_space.h"
#include "xfs_inode_util.h"
#include <linux/list_lru.h>
#include <linux/mnt_idmapping.h>
#include <linux/shrinker.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/host_disk.h>
#include <kshim/xfs.h>

#define IMG_SIZE	(320ULL << 20)

static char img[256];

static struct kshim_xfs *mount_new(void)
{
	struct kshim_xfs_config cfg = { .image = img };
	struct kshim_xfs *x;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 0), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_xfs_mkfs(img, IMG_SIZE, NULL), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_xfs_mount(&cfg, &x), 0);
	return x;
}

/* One of the mount's xfs_iget() statistics, summed over the CPUs. */
#define IG_STAT(mp, field)						\
({									\
	u64 __sum = 0;							\
	int __cpu;							\
	for_each_possible_cpu(__cpu)					\
		__sum += per_cpu_ptr((mp)->m_stats.xs_stats,		\
				     __cpu)->s.field;			\
	__sum;								\
})

/* What xfs_generic_create() does around xfs_create(), without a dentry. */
static struct xfs_inode *create_file(struct xfs_mount *mp, const char *name)
{
	struct xfs_icreate_args args = {
		.idmap	= &nop_mnt_idmap,
		.pip	= mp->m_rootip,
		.mode	= S_IFREG | 0644,
	};
	struct xfs_name xname = {
		.name	= (const unsigned char *)name,
		.len	= strlen(name),
		.type	= XFS_DIR3_FT_REG_FILE,
	};
	struct xfs_inode *ip = NULL;

	KSHIM_ASSERT_EQ_FATAL(xfs_create(&args, &xname, &ip), 0);
	xfs_setup_iops(ip);
	xfs_finish_inode_setup(ip);
	return ip;
}

static void test_root_inode_is_in_the_cache_after_mount(void)
{
	struct kshim_xfs *x = mount_new();
	struct xfs_mount *mp = kshim_xfs_mp(x);
	struct xfs_inode *ip = NULL;
	u64 found = IG_STAT(mp, xs_ig_found);

	KSHIM_ASSERT_FATAL(mp->m_rootip != NULL);
	KSHIM_ASSERT_EQ(xfs_iget(mp, NULL, mp->m_sb.sb_rootino, 0, 0, &ip), 0);
	KSHIM_ASSERT_PTR_EQ(ip, mp->m_rootip);
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_found), found + 1);
	KSHIM_ASSERT(S_ISDIR(VFS_I(ip)->i_mode));
	xfs_irele(ip);
	kshim_xfs_unmount(x);
	kshim_host_image_remove(img);
}

/*
 * The superblock shrinker as memory reclaim calls it (mm/shrinker.c's
 * do_shrink_slab() calls these two): super_cache_count() and
 * super_cache_scan() in fs/super.c, which prune the VFS inode LRU
 * (evicting unused inodes into XFS, where they become reclaimable) and
 * call XFS's xfs_fs_free_cached_objects() (xfs_reclaim_inodes_nr()).
 */
static unsigned long shrink_sb(struct super_block *sb, unsigned long nr)
{
	struct shrink_control sc = {
		.gfp_mask	= GFP_KERNEL,
		.nr_to_scan	= nr,
	};

	if (!sb->s_shrink->count_objects(sb->s_shrink, &sc))
		return 0;
	return sb->s_shrink->scan_objects(sb->s_shrink, &sc);
}

static void test_released_inode_is_recycled_then_reclaimed_when_clean(void)
{
	struct kshim_xfs *x = mount_new();
	struct xfs_mount *mp = kshim_xfs_mp(x);
	struct super_block *sb = mp->m_super;
	struct xfs_inode *ip = create_file(mp, "a"), *ip2;
	xfs_ino_t ino = ip->i_ino;
	u64 found, missed;

	/* Released: unused, kept on the VFS inode LRU, not yet XFS's to
	 * reclaim; found again, it is the same inode. */
	xfs_irele(ip);
	KSHIM_ASSERT_EQ(list_lru_count(&sb->s_inode_lru), 1);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(mp), 0);
	found = IG_STAT(mp, xs_ig_found);
	KSHIM_ASSERT_EQ(xfs_iget(mp, NULL, ino, 0, 0, &ip2), 0);
	KSHIM_ASSERT_PTR_EQ(ip2, ip);
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_found), found + 1);
	xfs_irele(ip);

	/* The superblock shrinker evicts it from the VFS (on its second
	 * pass: the first takes away the referenced bit the lookup set,
	 * the LRU's second chance): XFS's to reclaim, but still dirty and
	 * pinned in the CIL, so the scan's reclaim pass must leave it. */
	shrink_sb(sb, 128);
	KSHIM_ASSERT_EQ(list_lru_count(&sb->s_inode_lru), 1);
	shrink_sb(sb, 128);
	KSHIM_ASSERT_EQ(list_lru_count(&sb->s_inode_lru), 0);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(mp), 1);

	/* Found while reclaimable: recycled (xfs_iget_recycle()), the same
	 * xfs_inode given a fresh VFS inode, a cache hit. */
	found = IG_STAT(mp, xs_ig_found);
	KSHIM_ASSERT_EQ(xfs_iget(mp, NULL, ino, 0, 0, &ip2), 0);
	KSHIM_ASSERT_PTR_EQ(ip2, ip);
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_found), found + 1);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(mp), 0);
	KSHIM_ASSERT(S_ISREG(VFS_I(ip)->i_mode));
	xfs_irele(ip);
	shrink_sb(sb, 128);
	shrink_sb(sb, 128);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(mp), 1);

	/* Once its checkpoint is on disk and the AIL has written it back,
	 * reclaim frees it; xfs_iget() then reads it from disk. */
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	xfs_reclaim_inodes(mp);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(mp), 0);
	missed = IG_STAT(mp, xs_ig_missed);
	KSHIM_ASSERT_EQ(xfs_iget(mp, NULL, ino, 0, 0, &ip), 0);
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_missed), missed + 1);
	KSHIM_ASSERT_EQ(VFS_I(ip)->i_mode, S_IFREG | 0644);
	xfs_irele(ip);
	kshim_xfs_unmount(x);
	kshim_host_image_remove(img);
}

static unsigned long sb_count(struct super_block *sb, gfp_t gfp)
{
	struct shrink_control sc = { .gfp_mask = gfp };

	return sb->s_shrink->count_objects(sb->s_shrink, &sc);
}

/*
 * What the superblock shrinker reports and does: it counts the unused
 * inodes on the VFS LRU plus XFS's reclaimable ones
 * (xfs_fs_nr_cached_objects()); a scan without __GFP_FS stops at once
 * (SHRINK_STOP: a NOFS allocation must never recurse into the
 * filesystem); with nothing left it reports SHRINK_EMPTY.
 */
static void test_shrinker_counts_unused_and_reclaimable_inodes(void)
{
	struct kshim_xfs *x = mount_new();
	struct xfs_mount *mp = kshim_xfs_mp(x);
	struct super_block *sb = mp->m_super;
	struct shrink_control nofs = {
		.gfp_mask = GFP_NOFS,
		.nr_to_scan = 128,
	};
	char name[8];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		xfs_irele(create_file(mp, name));
	}
	KSHIM_ASSERT_EQ(sb_count(sb, GFP_KERNEL), 3);
	KSHIM_ASSERT_EQ(sb->s_shrink->scan_objects(sb->s_shrink, &nofs),
			SHRINK_STOP);
	KSHIM_ASSERT_EQ(list_lru_count(&sb->s_inode_lru), 3);

	shrink_sb(sb, 128);
	shrink_sb(sb, 128);
	KSHIM_ASSERT_EQ(list_lru_count(&sb->s_inode_lru), 0);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(mp), 3);
	KSHIM_ASSERT_EQ(sb_count(sb, GFP_KERNEL), 3);

	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	xfs_reclaim_inodes(mp);
	KSHIM_ASSERT_EQ(sb_count(sb, GFP_KERNEL), SHRINK_EMPTY);
	kshim_xfs_unmount(x);
	kshim_host_image_remove(img);
}

#define NR_FILES	16
#define NR_WORKERS	4
#define NR_LOOKUPS	150

struct race {
	struct xfs_mount *mp;
	xfs_ino_t ino[NR_FILES];
	u64 reclaims0, missed0;		/* xs_ig_reclaims, _missed at start */
	atomic_t workers_left, rounds;
	atomic_t lookups, wrong, errors;
};

/* Log the inode's core in a transaction: dirty and pinned until its
 * checkpoint is written, then in the AIL until written back. */
static int dirty_inode(struct xfs_mount *mp, struct xfs_inode *ip)
{
	struct xfs_trans *tp;
	int error;

	error = xfs_trans_alloc(mp, &M_RES(mp)->tr_ichange, 0, 0, 0, &tp);
	if (error)
		return error;
	xfs_ilock(ip, XFS_ILOCK_EXCL);
	xfs_trans_ijoin(tp, ip, XFS_ILOCK_EXCL);
	xfs_trans_ichgtime(tp, ip, XFS_ICHGTIME_CHG);
	xfs_trans_log_inode(tp, ip, XFS_ILOG_CORE);
	return xfs_trans_commit(tp);
}

static void lookup_worker(void *arg)
{
	struct race *r = arg;
	/* From the task's pid, not its address: the address differs from
	 * run to run (ASLR), and with it the inodes looked up and dirtied,
	 * so a deterministic seed would not replay. */
	u64 rng = kshim_seed() ^ ((u64)current->pid * 0x9e3779b97f4a7c15ULL);
	int i;

	u64 deadline = kshim_clock_ns() + 20 * NSEC_PER_SEC;

	/* Start once the reclaimer is at work, and keep going until it has
	 * freed inodes under the lookups and lookups have found some freed
	 * (for at most 20 s on the kshim clock): the two must overlap. */
	while (!atomic_read(&r->rounds))
		cond_resched();
	for (i = 0; i < NR_LOOKUPS ||
		    ((IG_STAT(r->mp, xs_ig_reclaims) - r->reclaims0 < 8 ||
		      IG_STAT(r->mp, xs_ig_missed) == r->missed0) &&
		     kshim_clock_ns() < deadline); i++) {
		xfs_ino_t ino = r->ino[kshim_random(&rng) % NR_FILES];
		struct xfs_inode *ip;

		if (xfs_iget(r->mp, NULL, ino, 0, 0, &ip)) {
			atomic_inc(&r->errors);
			continue;
		}
		atomic_inc(&r->lookups);
		if (ip->i_ino != ino || !S_ISREG(VFS_I(ip)->i_mode))
			atomic_inc(&r->wrong);
		if (!(kshim_random(&rng) % 4) && dirty_inode(r->mp, ip))
			atomic_inc(&r->errors);
		xfs_irele(ip);
		cond_resched();
	}
	atomic_dec(&r->workers_left);
}

/* Memory pressure as the shrinker applies it, until the lookups end. */
static void reclaim_worker(void *arg)
{
	struct race *r = arg;
	struct super_block *sb = r->mp->m_super;
	int n = 0;

	while (atomic_read(&r->workers_left)) {
		shrink_sb(sb, 32);
		xfs_reclaim_inodes_nr(r->mp, 32);
		if (!(++n % 8))
			xfs_log_force(r->mp, 0);
		atomic_inc(&r->rounds);
		cond_resched();
	}
}

/* Make the files (released: unused, on the VFS LRU), then start the
 * reclaimer and the lookup tasks. */
static void race_start(struct race *r, struct task_struct **tasks)
{
	char name[8];
	int i;

	for (i = 0; i < NR_FILES; i++) {
		struct xfs_inode *ip;

		snprintf(name, sizeof(name), "f%d", i);
		ip = create_file(r->mp, name);
		r->ino[i] = ip->i_ino;
		xfs_irele(ip);
	}
	r->reclaims0 = IG_STAT(r->mp, xs_ig_reclaims);
	r->missed0 = IG_STAT(r->mp, xs_ig_missed);
	atomic_set(&r->workers_left, NR_WORKERS);
	tasks[NR_WORKERS] = kshim_task_run(reclaim_worker, r, "reclaimer", -1);
	for (i = 0; i < NR_WORKERS; i++)
		tasks[i] = kshim_task_run(lookup_worker, r, "lookup", -1);
}

static void race_join(struct task_struct **tasks)
{
	int i;

	for (i = 0; i <= NR_WORKERS; i++)
		kshim_task_join(tasks[i]);
}

/*
 * Lookups of 16 inodes by 4 tasks, a quarter of them dirtying the
 * inode, while another task keeps evicting and reclaiming: every lookup
 * gets a valid inode of the right number (a lookup that meets an inode
 * being reclaimed retries inside xfs_iget()), and the kernel's own
 * XFS_DEBUG checks in reclaim (a reclaimed inode is clean, unpinned, not
 * being flushed) hold; ASan and valgrind watch for use after free.
 */
static void test_lookups_race_reclaim_and_get_valid_inodes(void)
{
	struct kshim_xfs *x = mount_new();
	struct race r = { .mp = kshim_xfs_mp(x) };
	struct task_struct *tasks[NR_WORKERS + 1];
	u64 reclaims, missed;

	race_start(&r, tasks);
	race_join(tasks);

	KSHIM_ASSERT_EQ(atomic_read(&r.errors), 0);
	KSHIM_ASSERT_EQ(atomic_read(&r.wrong), 0);
	KSHIM_ASSERT(atomic_read(&r.lookups) >= NR_WORKERS * NR_LOOKUPS);
	/* The race was run: inodes were freed under the lookups and read
	 * back from disk. */
	reclaims = IG_STAT(r.mp, xs_ig_reclaims) - r.reclaims0;
	missed = IG_STAT(r.mp, xs_ig_missed) - r.missed0;
	kshim_info("race: %llu inodes reclaimed, %llu lookups missed\n",
		   reclaims, missed);
	KSHIM_ASSERT(reclaims > 0);
	KSHIM_ASSERT(missed > 0);
	kshim_xfs_unmount(x);
	kshim_host_image_remove(img);
}

/*
 * The filesystem shuts down (as on a metadata I/O error) while tasks
 * look inodes up and dirty them and another keeps reclaiming: lookups
 * and transactions may then fail with -EIO, but nothing hangs, reclaim
 * of the dirty and pinned inodes that a shut-down log will never write
 * completes (xfs_reclaim_inode() aborts their flush), and the unmount
 * goes through. The test dirties one inode just before the shutdown and
 * holds it across it (whether the change reached the disk first depends
 * on the schedule). A hang fails the test with the seed:
 * xfs_reclaim_inodes() loops until no inode is left to reclaim.
 */
static void test_reclaim_after_shutdown_completes(void)
{
	struct kshim_xfs *x = mount_new();
	struct race r = { .mp = kshim_xfs_mp(x) };
	struct task_struct *tasks[NR_WORKERS + 1];
	struct xfs_inode *held;

	race_start(&r, tasks);
	while (atomic_read(&r.lookups) < NR_LOOKUPS)
		schedule_timeout_uninterruptible(1);
	KSHIM_ASSERT_EQ_FATAL(xfs_iget(r.mp, NULL, r.ino[0], 0, 0, &held), 0);
	KSHIM_ASSERT_EQ(dirty_inode(r.mp, held), 0);
	xfs_force_shutdown(r.mp, SHUTDOWN_META_IO_ERROR);
	race_join(tasks);

	KSHIM_ASSERT(xfs_is_shutdown(r.mp));
	KSHIM_ASSERT_EQ(atomic_read(&r.wrong), 0);
	xfs_irele(held);
	shrink_sb(r.mp->m_super, 128);
	shrink_sb(r.mp->m_super, 128);
	xfs_reclaim_inodes(r.mp);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(r.mp), 0);
	kshim_xfs_unmount(x);
	kshim_host_image_remove(img);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_root_inode_is_in_the_cache_after_mount),
	KSHIM_TEST(test_released_inode_is_recycled_then_reclaimed_when_clean),
	KSHIM_TEST(test_shrinker_counts_unused_and_reclaimable_inodes),
	KSHIM_TEST(test_lookups_race_reclaim_and_get_valid_inodes),
	KSHIM_TEST(test_reclaim_after_shutdown_completes),
	{ }
};

KSHIM_SUITES({ "icache", NULL, NULL, tests });
