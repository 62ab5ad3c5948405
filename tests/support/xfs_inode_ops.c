// SPDX-License-Identifier: GPL-2.0
/* Inode operations for the XFS inode tests (xfs_inode_ops.h). */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_inode.h"
#include <linux/dcache.h>
#include <kshim/vfs.h>
#include "xfs_inode_ops.h"

int xfs_test_create(struct xfs_mount *mp, const char *name,
		    struct xfs_inode **ipp)
{
	struct dentry *root = kshim_vfs_root(mp->m_super), *dentry;
	int error = kshim_vfs_create(root, name, S_IFREG | 0644, &dentry);

	kshim_vfs_put(root);
	if (error)
		return error;
	/*
	 * The caller's reference, and no dentry's: the inode's life is the
	 * caller's, as when a file is made and closed and its dentry then
	 * pruned (the tests count on the last xfs_irele() evicting it).
	 */
	*ipp = XFS_I(d_inode(dentry));
	ihold(d_inode(dentry));
	d_drop(dentry);
	kshim_vfs_put(dentry);
	return 0;
}

int xfs_test_touch(struct xfs_mount *mp, struct xfs_inode *ip)
{
	struct dentry *dentry;
	int error;

	/* utimensat() on a dentry of the inode: d_obtain_alias() takes
	 * the reference given it, and the dentry is dropped after, as in
	 * xfs_test_create(). */
	ihold(VFS_I(ip));
	dentry = d_obtain_alias(VFS_I(ip));
	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	error = kshim_vfs_utimes(dentry, 0, 0);
	d_drop(dentry);
	kshim_vfs_put(dentry);
	return error;
}
