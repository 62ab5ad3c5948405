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
#include "xfs_iops.h"
#include "xfs_trans.h"
#include "xfs_da_format.h"
#include "xfs_dir2.h"
#include "xfs_inode_util.h"
#include <linux/mnt_idmapping.h>
#include "xfs_inode_ops.h"

int xfs_test_create(struct xfs_mount *mp, const char *name,
		    struct xfs_inode **ipp)
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
	int error = xfs_create(&args, &xname, ipp);

	if (error)
		return error;
	xfs_setup_iops(*ipp);
	xfs_finish_inode_setup(*ipp);
	return 0;
}

int xfs_test_touch(struct xfs_mount *mp, struct xfs_inode *ip)
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
