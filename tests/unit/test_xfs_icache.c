// SPDX-License-Identifier: GPL-2.0
/*
 * The real XFS inode cache (fs/xfs/xfs_icache.c) on a mounted mkfs.xfs
 * image: an inode's life from its creation (vfs_create(), xfs_create())
 * through release (the VFS inode LRU), eviction by the real superblock
 * shrinker (then XFS's to reclaim), the cache hit that recycles a
 * reclaimable inode, and reclaim, which frees an inode only once it is
 * clean (its checkpoint on disk, the inode written back through the AIL)
 * and not being flushed, after which xfs_iget() reads it from disk again,
 * and whose memory goes back only after an RCU grace period. The XFS
 * statistics say which path xfs_iget() took.
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
#include "xfs_inode_item.h"
#include "xfs_ag.h"
#include "xfs_health.h"
#include <linux/list_lru.h>
#include <linux/mnt_idmapping.h>
#include <linux/shrinker.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"
#include "xfs_inode_ops.h"

#define IMG_SIZE	(320ULL << 20)

#define IG_STAT(mp, field)	XFS_STAT_SUM(mp, field)

/* A new file in the root directory; the test stops if it cannot be made. */
static struct xfs_inode *create_file(struct xfs_mount *mp, const char *name)
{
	struct xfs_inode *ip = NULL;

	KSHIM_ASSERT_EQ_FATAL(xfs_test_create(mp, name, &ip), 0);
	return ip;
}

/* The inode is no longer cached: xfs_iget() misses and reads from disk
 * the regular file create_file() made. */
static void expect_read_from_disk(struct xfs_mount *mp, xfs_ino_t ino)
{
	u64 missed = IG_STAT(mp, xs_ig_missed);
	struct xfs_inode *ip;

	KSHIM_ASSERT_EQ_FATAL(xfs_iget(mp, NULL, ino, 0, 0, &ip), 0);
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_missed), missed + 1);
	KSHIM_ASSERT_EQ(VFS_I(ip)->i_mode, S_IFREG | 0644);
	xfs_irele(ip);
}

static void test_root_inode_is_in_the_cache_after_mount(void)
{
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct xfs_inode *ip = NULL;
	u64 found = IG_STAT(mp, xs_ig_found);

	KSHIM_ASSERT_FATAL(mp->m_rootip != NULL);
	KSHIM_ASSERT_EQ(xfs_iget(mp, NULL, mp->m_sb.sb_rootino, 0, 0, &ip), 0);
	KSHIM_ASSERT_PTR_EQ(ip, mp->m_rootip);
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_found), found + 1);
	KSHIM_ASSERT(S_ISDIR(VFS_I(ip)->i_mode));
	xfs_irele(ip);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
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
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct super_block *sb = mp->m_super;
	struct xfs_inode *ip = create_file(mp, "a"), *ip2;
	xfs_ino_t ino = ip->i_ino;
	u64 found;

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
	expect_read_from_disk(mp, ino);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
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
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
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
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * The inode cache's entry for INO, found as xfs_iget_cache_hit() finds
 * it: the per-AG radix tree under RCU, the inode number checked under
 * i_flags_lock (reclaim zeroes it before the inode is freed). No
 * reference is taken, so nothing the test does keeps it in the cache.
 * False if it is not cached; else its flags, pin count and dirty fields.
 */
struct cached {
	unsigned long flags;
	int pins;
	unsigned int dirty;	/* ili_fields: what still has to be written */
};

static bool lookup_cached(struct xfs_mount *mp, xfs_ino_t ino,
			  struct cached *c)
{
	struct xfs_perag *pag = xfs_perag_get(mp, XFS_INO_TO_AGNO(mp, ino));
	struct xfs_inode *ip;
	bool found = false;

	rcu_read_lock();
	ip = radix_tree_lookup(&pag->pag_ici_root, XFS_INO_TO_AGINO(mp, ino));
	if (ip) {
		spin_lock(&ip->i_flags_lock);
		found = ip->i_ino == ino;
		c->flags = ip->i_flags;
		c->pins = xfs_ipincount(ip);
		spin_unlock(&ip->i_flags_lock);
	}
	/* The log item is freed with the inode, after a grace period. */
	if (found) {
		c->dirty = 0;
		if (ip->i_itemp) {
			spin_lock(&ip->i_itemp->ili_lock);
			c->dirty = ip->i_itemp->ili_fields;
			spin_unlock(&ip->i_itemp->ili_lock);
		}
	}
	rcu_read_unlock();
	xfs_perag_put(pag);
	return found;
}

/*
 * A new file, released and evicted from the VFS by the superblock
 * shrinker (two passes, see above): XFS's to reclaim, still dirty and
 * pinned in the CIL. Its number and where it lives on disk.
 */
static xfs_ino_t reclaimable_file(struct xfs_mount *mp, const char *name,
				  struct xfs_imap *imap)
{
	struct xfs_inode *ip = create_file(mp, name);
	xfs_ino_t ino = ip->i_ino;
	struct cached c;

	*imap = ip->i_imap;
	xfs_irele(ip);
	shrink_sb(mp->m_super, 128);
	shrink_sb(mp->m_super, 128);
	KSHIM_ASSERT_FATAL(lookup_cached(mp, ino, &c));
	KSHIM_ASSERT_FATAL(c.flags & XFS_IRECLAIMABLE);
	return ino;
}

/*
 * Reclaim leaves an inode that is pinned (its change committed to the
 * CIL, not yet in a checkpoint on disk: xfs_reclaim_inode() checks
 * xfs_ipincount()); once the log is forced and the AIL has written it
 * back, reclaim frees it.
 */
static void test_reclaim_leaves_pinned_inode(void)
{
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct xfs_imap imap;
	xfs_ino_t ino = reclaimable_file(mp, "a", &imap);
	u64 reclaims = IG_STAT(mp, xs_ig_reclaims);
	struct cached c;

	KSHIM_ASSERT(lookup_cached(mp, ino, &c) && c.pins > 0);
	xfs_reclaim_inodes_nr(mp, 128);
	KSHIM_ASSERT(lookup_cached(mp, ino, &c) && c.pins > 0);
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_reclaims), reclaims);

	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	xfs_reclaim_inodes(mp);
	KSHIM_ASSERT(!lookup_cached(mp, ino, &c));
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_reclaims), reclaims + 1);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * Reclaim leaves an inode that is unpinned but dirty: its checkpoint is
 * on disk, it sits in the AIL, and the AIL cannot write it back because
 * the test holds its inode cluster buffer locked (xfs_inode_item_push()
 * finds the buffer locked and retries later). Reclaim (which pushes the
 * AIL itself) must leave it; once the buffer is released and the AIL
 * has written the inode back, reclaim frees it.
 */
static void test_reclaim_leaves_dirty_inode_in_the_ail(void)
{
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct xfs_imap imap;
	xfs_ino_t ino = reclaimable_file(mp, "a", &imap);
	u64 reclaims = IG_STAT(mp, xs_ig_reclaims);
	struct xfs_buf *bp;
	struct cached c;

	KSHIM_ASSERT_EQ_FATAL(xfs_imap_to_bp(mp, NULL, &imap, &bp), 0);
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	KSHIM_ASSERT(lookup_cached(mp, ino, &c));
	KSHIM_ASSERT_EQ(c.pins, 0);
	KSHIM_ASSERT(c.dirty & XFS_ILOG_CORE);
	xfs_reclaim_inodes_nr(mp, 128);
	shrink_sb(mp->m_super, 128);
	KSHIM_ASSERT(lookup_cached(mp, ino, &c) && (c.dirty & XFS_ILOG_CORE));
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_reclaims), reclaims);

	xfs_buf_relse(bp);
	xfs_reclaim_inodes(mp);
	KSHIM_ASSERT(!lookup_cached(mp, ino, &c));
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_reclaims), reclaims + 1);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static bool being_flushed(struct xfs_mount *mp, xfs_ino_t ino)
{
	struct cached c;

	return lookup_cached(mp, ino, &c) && (c.flags & XFS_IFLUSHING);
}

/*
 * Reclaim leaves an inode that is being flushed. The AIL writes the
 * inode back through the real xfs_iflush_cluster(): the inode's core is
 * copied into its cluster buffer, its dirty fields are cleared (it looks
 * clean) and it is XFS_IFLUSHING until the buffer's write completes
 * (xfs_buf_inode_iodone()), which the device delays by 2 s. Reclaim
 * during that write must not free it (the write's completion still uses
 * the inode and its log item); after it, reclaim frees it, and a lookup
 * reads back from disk what the flush wrote.
 */
static void test_reclaim_leaves_inode_being_flushed(void)
{
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct kshim_bdev *kb = kshim_bdev_of_bdev(mp->m_ddev_targp->bt_bdev);
	struct xfs_imap imap;
	xfs_ino_t ino = reclaimable_file(mp, "a", &imap);
	struct kshim_fault slow_write = {
		.ops		= KSHIM_FAULT_WRITE,
		.start		= imap.im_blkno,
		.nr_sectors	= imap.im_len,
		.status		= BLK_STS_OK,
		.delay_ns	= 2 * NSEC_PER_SEC,
		.times		= 1,
	};
	int fault = kshim_bdev_add_fault(kb, &slow_write);
	u64 reclaims;
	struct cached c;

	KSHIM_ASSERT_FATAL(fault >= 0);
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	xfs_ail_push_all(mp->m_ail);
	/* The cluster buffer's write is submitted (and delayed): the
	 * inode is flushed, clean, and XFS_IFLUSHING until it completes. */
	KSHIM_ASSERT_FATAL(POLL_UNTIL_TIMEOUT(
		kshim_bdev_fault_hits(kb, fault) == 1, HZ));
	KSHIM_ASSERT_FATAL(lookup_cached(mp, ino, &c));
	KSHIM_ASSERT(c.flags & XFS_IFLUSHING);
	KSHIM_ASSERT_EQ(c.dirty, 0);

	reclaims = IG_STAT(mp, xs_ig_reclaims);
	xfs_reclaim_inodes_nr(mp, 128);
	shrink_sb(mp->m_super, 128);
	KSHIM_ASSERT(lookup_cached(mp, ino, &c));
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_reclaims), reclaims);
	/* Still in flight: reclaim ran while the flush held the inode. */
	KSHIM_ASSERT(being_flushed(mp, ino));

	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(!being_flushed(mp, ino), 10 * HZ));
	xfs_reclaim_inodes(mp);
	KSHIM_ASSERT(!lookup_cached(mp, ino, &c));
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_reclaims), reclaims + 1);
	expect_read_from_disk(mp, ino);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * Checkpointed and written back, what reclaim may free: the AIL is empty
 * once the cluster buffer's write completes, and the inodes' flush ends
 * (XFS_IFLUSHING cleared) a little after, in the same completion.
 */
static void make_clean(struct xfs_mount *mp, const xfs_ino_t *inos, int nr)
{
	int i;

	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	xfs_ail_push_all_sync(mp->m_ail);
	for (i = 0; i < nr; i++)
		KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(!being_flushed(mp, inos[i]),
						10 * HZ));
}

/*
 * The ILOCK of the cached inode INO, taken as code that walks the cache
 * without a reference takes it (xfs_ifree_cluster() marking the inodes
 * of a freed cluster stale): under RCU, the inode number checked under
 * i_flags_lock, a trylock. NULL if it is not cached or not lockable.
 */
static struct xfs_inode *ilock_cached(struct xfs_mount *mp, xfs_ino_t ino)
{
	struct xfs_perag *pag = xfs_perag_get(mp, XFS_INO_TO_AGNO(mp, ino));
	struct xfs_inode *ip, *locked = NULL;

	rcu_read_lock();
	ip = radix_tree_lookup(&pag->pag_ici_root, XFS_INO_TO_AGINO(mp, ino));
	if (ip) {
		spin_lock(&ip->i_flags_lock);
		if (ip->i_ino == ino && !__xfs_iflags_test(ip, XFS_IRECLAIM) &&
		    xfs_ilock_nowait(ip, XFS_ILOCK_EXCL))
			locked = ip;
		spin_unlock(&ip->i_flags_lock);
	}
	rcu_read_unlock();
	xfs_perag_put(pag);
	return locked;
}

struct shrinker_call {
	struct xfs_mount *mp;
	int done;			/* release-acquire */
};

static void reclaim_nr_fn(void *arg)
{
	struct shrinker_call *sc = arg;

	xfs_reclaim_inodes_nr(sc->mp, 128);
	smp_store_release(&sc->done, 1);
}

/*
 * Reclaim never waits for an inode's ILOCK: it runs in memory reclaim,
 * where whoever holds the lock may be waiting for memory itself. An
 * inode whose ILOCK is held is skipped, left reclaimable for a later
 * pass; the others are reclaimed meanwhile.
 */
static void test_reclaim_skips_inode_whose_ilock_is_held(void)
{
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct xfs_imap imap;
	xfs_ino_t held = reclaimable_file(mp, "held", &imap);
	xfs_ino_t other = reclaimable_file(mp, "other", &imap);
	struct shrinker_call call = { .mp = mp };
	struct task_struct *t;
	struct xfs_inode *ip;
	struct cached c;

	make_clean(mp, (xfs_ino_t[]){ held, other }, 2);
	ip = ilock_cached(mp, held);
	KSHIM_ASSERT_FATAL(ip != NULL);
	t = kshim_task_run(reclaim_nr_fn, &call, "shrinker", -1);
	/* Generous for a slow host: a reclaim that waits never ends. */
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(smp_load_acquire(&call.done),
					10 * HZ));
	KSHIM_ASSERT(!lookup_cached(mp, other, &c));
	KSHIM_ASSERT(lookup_cached(mp, held, &c));
	KSHIM_ASSERT_EQ(c.flags & (XFS_IRECLAIMABLE | XFS_IRECLAIM),
			XFS_IRECLAIMABLE);
	xfs_iunlock(ip, XFS_ILOCK_EXCL);
	kshim_task_join(t);

	xfs_reclaim_inodes(mp);
	KSHIM_ASSERT(!lookup_cached(mp, held, &c));
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * A sick inode (its metadata found corrupt: xfs_inode_mark_sick()) stays
 * in the cache whatever the memory pressure while the filesystem is up:
 * its health report lives only there, and freeing it would lose what
 * the health ioctls and xfs_scrub report. A lookup finds it still sick.
 * Once the filesystem is shut down, the shrinker frees it too.
 */
static void test_shrinker_keeps_sick_inode_until_shutdown(void)
{
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct xfs_inode *ip = create_file(mp, "sick");
	xfs_ino_t sick = ip->i_ino, well;
	unsigned int sick_mask, checked;
	struct xfs_imap imap;
	u64 reclaims;
	struct cached c;

	xfs_inode_mark_sick(ip, XFS_SICK_INO_CORE);
	xfs_irele(ip);
	/* Evicts both from the VFS. */
	well = reclaimable_file(mp, "well", &imap);
	KSHIM_ASSERT_FATAL(lookup_cached(mp, sick, &c));
	KSHIM_ASSERT(c.flags & XFS_IRECLAIMABLE);
	make_clean(mp, (xfs_ino_t[]){ sick, well }, 2);

	reclaims = IG_STAT(mp, xs_ig_reclaims);
	xfs_reclaim_inodes_nr(mp, 128);
	KSHIM_ASSERT(!lookup_cached(mp, well, &c));
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_reclaims), reclaims + 1);
	KSHIM_ASSERT(lookup_cached(mp, sick, &c));
	KSHIM_ASSERT_EQ(c.flags & (XFS_IRECLAIMABLE | XFS_IRECLAIM),
			XFS_IRECLAIMABLE);
	KSHIM_ASSERT_EQ_FATAL(xfs_iget(mp, NULL, sick, 0, 0, &ip), 0);
	xfs_inode_measure_sickness(ip, &sick_mask, &checked);
	KSHIM_ASSERT(sick_mask & XFS_SICK_INO_CORE);
	xfs_irele(ip);
	shrink_sb(mp->m_super, 128);
	shrink_sb(mp->m_super, 128);
	KSHIM_ASSERT(lookup_cached(mp, sick, &c) &&
		     (c.flags & XFS_IRECLAIMABLE));

	xfs_force_shutdown(mp, SHUTDOWN_META_IO_ERROR);
	xfs_reclaim_inodes_nr(mp, 128);
	KSHIM_ASSERT(!lookup_cached(mp, sick, &c));
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * The superblock shrinker's scan reports as freed what the VFS pruned
 * from its LRUs, and nothing for the inodes XFS reclaims in its
 * free_cached_objects (xfs_reclaim_inodes_nr()): their memory goes back
 * only after an RCU grace period (__xfs_inode_free()), not by the time
 * the scan returns.
 */
static void test_sb_shrinker_reports_xfs_reclaim_as_nothing_freed(void)
{
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct xfs_imap imap;
	xfs_ino_t inos[3];
	u64 reclaims;
	long live;

	inos[0] = reclaimable_file(mp, "a", &imap);
	inos[1] = reclaimable_file(mp, "b", &imap);
	inos[2] = reclaimable_file(mp, "c", &imap);
	make_clean(mp, inos, 3);
	KSHIM_ASSERT_EQ(list_lru_count(&mp->m_super->s_inode_lru), 0);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(mp), 3);

	reclaims = IG_STAT(mp, xs_ig_reclaims);
	live = kshim_kmem_cache_live(xfs_inode_cache);
	KSHIM_ASSERT_EQ(shrink_sb(mp->m_super, 128), 0);
	KSHIM_ASSERT_EQ(IG_STAT(mp, xs_ig_reclaims), reclaims + 3);
	rcu_barrier();
	KSHIM_ASSERT_EQ(kshim_kmem_cache_live(xfs_inode_cache), live - 3);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * A file with buffered data not yet allocated on disk (delayed
 * allocation) when the filesystem shuts down keeps its delalloc
 * reservation: writeback can no longer convert it, so the inode stays
 * dirty until the unmount evicts it. Evicting it then is expected, not a
 * bug: xfs_inodegc_set_reclaimable() complains about delalloc blocks
 * only on a live filesystem, and the unmount completes.
 */
static void test_unmount_after_shutdown_evicts_file_with_delalloc_data(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct dentry *root = kshim_vfs_root(mp->m_super);
	static const char data[4096] = "delalloc";
	struct file *f;

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "d", O_RDWR | O_CREAT,
					     0644, &f), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_pwrite(f, data, sizeof(data), 0, 0),
			sizeof(data));
	KSHIM_ASSERT(XFS_I(file_inode(f))->i_delayed_blks > 0);
	xfs_force_shutdown(mp, SHUTDOWN_META_IO_ERROR);
	kshim_vfs_close(f);
	kshim_vfs_put(root);
	/* Dirty: not on the inode LRU, for the unmount to evict. */
	KSHIM_ASSERT_EQ(list_lru_count(&mp->m_super->s_inode_lru), 0);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * kshim's check at unmount (kshim_xfs_unmount()): a perag reference left
 * held, here the test's own xfs_perag_get() without its put, fails the
 * test. The kernel's xfs_free_perag_range() only alerts and frees the
 * perag all the same.
 */
static void test_unmount_reports_a_leaked_perag_reference(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);

	KSHIM_ASSERT_NOT_NULL(xfs_perag_get(mp, 0));
	kshim_test_expect_reports(1);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* A lookup that found an inode and is still inside its RCU read-side
 * section (as xfs_iget_cache_hit() is before it takes i_flags_lock). */
struct rcu_reader {
	struct xfs_mount *mp;
	xfs_ino_t ino;
	int found, release;		/* release-acquire flags */
	bool cached;			/* the lookup found the inode */
	xfs_ino_t ino_after;		/* what it saw after the reclaim */
	unsigned long flags_after;
};

static void rcu_reader_fn(void *arg)
{
	struct rcu_reader *r = arg;
	struct xfs_perag *pag = xfs_perag_get(r->mp,
					      XFS_INO_TO_AGNO(r->mp, r->ino));
	struct xfs_inode *ip;

	rcu_read_lock();
	ip = radix_tree_lookup(&pag->pag_ici_root,
			       XFS_INO_TO_AGINO(r->mp, r->ino));
	if (ip) {
		spin_lock(&ip->i_flags_lock);
		r->cached = ip->i_ino == r->ino;
		spin_unlock(&ip->i_flags_lock);
	}
	smp_store_release(&r->found, 1);
	while (!smp_load_acquire(&r->release))
		cpu_relax();
	/* No i_flags_lock: if the inode had been freed under the reader,
	 * its lock would be garbage to spin on; ASan reports the read. */
	if (r->cached) {
		r->ino_after = READ_ONCE(ip->i_ino);
		r->flags_after = READ_ONCE(ip->i_flags);
	}
	rcu_read_unlock();
	xfs_perag_put(pag);
}

/*
 * A reclaimed inode is freed only after an RCU grace period
 * (__xfs_inode_free() frees it with call_rcu()): a lookup that found it
 * under rcu_read_lock() before reclaim can still read it, marked as
 * reclaimed (inode number 0, XFS_IRECLAIM: what xfs_iget_cache_hit()
 * checks to skip it), for as long as it stays in its read-side section;
 * once it leaves, the inode is freed.
 */
static void test_reclaimed_inode_is_freed_after_rcu_grace_period(void)
{
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct xfs_imap imap;
	struct rcu_reader r = { .mp = mp };
	struct task_struct *reader;
	struct cached c;
	long live;

	/* Reclaimable and clean: checkpointed and written back. */
	r.ino = reclaimable_file(mp, "a", &imap);
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	xfs_ail_push_all_sync(mp->m_ail);

	reader = kshim_task_run(rcu_reader_fn, &r, "rcu_reader", -1);
	KSHIM_ASSERT_FATAL(POLL_UNTIL_TIMEOUT(smp_load_acquire(&r.found),
					      HZ));
	KSHIM_ASSERT(r.cached);
	live = kshim_kmem_cache_live(xfs_inode_cache);
	xfs_reclaim_inodes(mp);
	KSHIM_ASSERT(!lookup_cached(mp, r.ino, &c));
	/* Time for the RCU callbacks' grace period to pass, if it would. */
	schedule_timeout_uninterruptible(HZ / 10);
	KSHIM_ASSERT_EQ(kshim_kmem_cache_live(xfs_inode_cache), live);

	smp_store_release(&r.release, 1);
	kshim_task_join(reader);
	KSHIM_ASSERT_EQ(r.ino_after, 0);
	KSHIM_ASSERT_EQ(r.flags_after, XFS_IRECLAIM);
	rcu_barrier();
	KSHIM_ASSERT_EQ(kshim_kmem_cache_live(xfs_inode_cache), live - 1);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
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
		/* Only the first NR_LOOKUPS dirty: a reclaimer starved of
		 * clean inodes (valgrind runs one thread at a time, and
		 * four tasks re-dirtied all 16 faster than the AIL wrote
		 * them back) must still get its chance to free some. */
		if (i < NR_LOOKUPS && !(kshim_random(&rng) % 4) &&
		    xfs_test_touch(r->mp, ip))
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
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct race r = { .mp = xfs_fixture_mount_new(&fx) };
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
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
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
	struct xfs_fixture fx = { .size = IMG_SIZE };
	struct race r = { .mp = xfs_fixture_mount_new(&fx) };
	struct task_struct *tasks[NR_WORKERS + 1];
	struct xfs_inode *held;

	race_start(&r, tasks);
	while (atomic_read(&r.lookups) < NR_LOOKUPS)
		schedule_timeout_uninterruptible(1);
	KSHIM_ASSERT_EQ_FATAL(xfs_iget(r.mp, NULL, r.ino[0], 0, 0, &held), 0);
	KSHIM_ASSERT_EQ(xfs_test_touch(r.mp, held), 0);
	xfs_force_shutdown(r.mp, SHUTDOWN_META_IO_ERROR);
	race_join(tasks);

	KSHIM_ASSERT(xfs_is_shutdown(r.mp));
	KSHIM_ASSERT_EQ(atomic_read(&r.wrong), 0);
	xfs_irele(held);
	shrink_sb(r.mp->m_super, 128);
	shrink_sb(r.mp->m_super, 128);
	xfs_reclaim_inodes(r.mp);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(r.mp), 0);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_root_inode_is_in_the_cache_after_mount),
	KSHIM_TEST(test_released_inode_is_recycled_then_reclaimed_when_clean),
	KSHIM_TEST(test_shrinker_counts_unused_and_reclaimable_inodes),
	KSHIM_TEST(test_reclaim_leaves_pinned_inode),
	KSHIM_TEST(test_reclaim_leaves_dirty_inode_in_the_ail),
	KSHIM_TEST(test_reclaim_leaves_inode_being_flushed),
	KSHIM_TEST(test_reclaim_skips_inode_whose_ilock_is_held),
	KSHIM_TEST(test_shrinker_keeps_sick_inode_until_shutdown),
	KSHIM_TEST(test_sb_shrinker_reports_xfs_reclaim_as_nothing_freed),
	KSHIM_TEST(test_unmount_after_shutdown_evicts_file_with_delalloc_data),
	KSHIM_TEST(test_unmount_reports_a_leaked_perag_reference),
	KSHIM_TEST(test_reclaimed_inode_is_freed_after_rcu_grace_period),
	KSHIM_TEST(test_lookups_race_reclaim_and_get_valid_inodes),
	KSHIM_TEST(test_reclaim_after_shutdown_completes),
	{ }
};

KSHIM_SUITES({ "icache", NULL, NULL, tests });
