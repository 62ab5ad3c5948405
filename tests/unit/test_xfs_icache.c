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
#include <linux/list_lru.h>
#include <linux/mnt_idmapping.h>
#include <linux/shrinker.h>
#include <kshim/ktest.h>
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

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_root_inode_is_in_the_cache_after_mount),
	KSHIM_TEST(test_released_inode_is_recycled_then_reclaimed_when_clean),
	{ }
};

KSHIM_SUITES({ "icache", NULL, NULL, tests });
