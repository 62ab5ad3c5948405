// SPDX-License-Identifier: GPL-2.0
/*
 * XFS data that the compiled files reference but whose real definitions
 * live in files kshim does not compile. Listed in docs/FAKES.md.
 */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_ag.h"
#include "xfs_trans.h"
#include "xfs_log_priv.h"
#include "xfs_log_recover.h"
#include "xfs_aops.h"
#include "xfs_file.h"
#include "xfs_iomap.h"
#include "xfs_super.h"
#include "xfs_da_format.h"
#include "xfs_da_btree.h"
#include "xfs_xattr.h"
#include <linux/exportfs.h>
#include <linux/iomap.h>
#include <kshim/runtime.h>

/*
 * xfs_discard.c's queue for online discard completions. Nothing queues
 * to it: kshim mounts never set the "discard" option. xfs_unmountfs()
 * flushes it, and flush_workqueue(NULL) is loud.
 */
struct workqueue_struct *xfs_discard_wq;

/*
 * xfs_sysctl.c (/proc/sys/fs/xfs): its table needs CONFIG_PROC_FS, which
 * kshim does not have. init_xfs_fs() registers it; nothing is there.
 */
int xfs_sysctl_register(void)
{
	return 0;
}

void xfs_sysctl_unregister(void)
{
}

/*
 * Log recovery of the quota item types (xfs_dquot_item_recover.c is not
 * compiled, quotas are off): recovery finds them by type (so a log
 * holding one is recognised as such), and replaying one aborts with the
 * type's name. Every other item type is recovered for real.
 */
#define LOUD_RECOVERY(name, type)					\
static int name##_commit_pass2(struct xlog *log,			\
			       struct list_head *buffer_list,		\
			       struct xlog_recover_item *item,		\
			       xfs_lsn_t lsn)				\
{									\
	kshim_unimplemented(#name " (recovery of " #type " items)");	\
}									\
const struct xlog_recover_item_ops name = {				\
	.item_type	= type,						\
	.commit_pass2	= name##_commit_pass2,				\
}

LOUD_RECOVERY(xlog_dquot_item_ops, XFS_LI_DQUOT);
LOUD_RECOVERY(xlog_quotaoff_item_ops, XFS_LI_QUOTAOFF);

/*
 * The operation tables of the files kshim does not compile: inodes from
 * xfs_iget() point at them (xfs_setup_inode(), xfs_setup_iops()), but no
 * test reads, writes, maps, exports or lists an inode's attributes. Every
 * operation is the table's loud function: calling one aborts with the
 * table's name. Operations left NULL are the ones the VFS tests for NULL.
 */
#define LOUD_TABLE(name)						\
	static void name##_loud(void)					\
	{								\
		kshim_unimplemented(#name " (not compiled)");		\
	}
#define OP(name)	((void *)name##_loud)

LOUD_TABLE(xfs_export_operations)
const struct export_operations xfs_export_operations = {
	.encode_fh	= OP(xfs_export_operations),
	.fh_to_dentry	= OP(xfs_export_operations),
	.fh_to_parent	= OP(xfs_export_operations),
	.get_parent	= OP(xfs_export_operations),
	.commit_metadata = OP(xfs_export_operations),
};
