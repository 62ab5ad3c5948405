/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the inode-cache test and the inode-cache reclaim scenario do to XFS inodes
 * on a mount (xfs_inode_ops.c): make a file as the VFS would, log a
 * change to it, and read the mount's statistics.
 */
#ifndef _XFS_INODE_OPS_H
#define _XFS_INODE_OPS_H

struct xfs_mount;
struct xfs_inode;

/* One of the mount's XFS statistics (xfs_stats.h), summed over the CPUs. */
#define XFS_STAT_SUM(mp, field)						\
({									\
	u64 __sum = 0;							\
	int __cpu;							\
	for_each_possible_cpu(__cpu)					\
		__sum += per_cpu_ptr((mp)->m_stats.xs_stats,		\
				     __cpu)->s.field;			\
	__sum;								\
})

/**
 * xfs_test_create() - make a regular file in the root directory
 * @mp: the mount
 * @name: the file's name in the root directory
 * @ipp: receives the inode, set up, unlocked and referenced
 *
 * Through the VFS (kshim_vfs_create(): vfs_create(), xfs_vn_create());
 * the new dentry is then dropped, so that the caller's reference is the
 * inode's only one.
 *
 * Return: 0 or the kernel's negative errno.
 */
int xfs_test_create(struct xfs_mount *mp, const char *name,
		    struct xfs_inode **ipp);

/**
 * xfs_test_touch() - log a change of an inode's core (its times)
 * @mp: the mount
 * @ip: the inode, referenced
 *
 * utimensat() through the VFS (notify_change(), xfs_vn_setattr()), in a
 * transaction of its own: the inode is dirty and pinned until its
 * checkpoint is written, then in the AIL until written back.
 *
 * Return: 0 or the kernel's negative errno.
 */
int xfs_test_touch(struct xfs_mount *mp, struct xfs_inode *ip);

#endif
