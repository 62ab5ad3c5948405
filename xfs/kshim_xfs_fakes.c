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

LOUD_TABLE(xfs_file_operations)
const struct file_operations xfs_file_operations = {
	.llseek		= OP(xfs_file_operations),
	.read_iter	= OP(xfs_file_operations),
	.write_iter	= OP(xfs_file_operations),
	.splice_read	= OP(xfs_file_operations),
	.splice_write	= OP(xfs_file_operations),
	.unlocked_ioctl	= OP(xfs_file_operations),
	.mmap		= OP(xfs_file_operations),
	.open		= OP(xfs_file_operations),
	.release	= OP(xfs_file_operations),
	.fsync		= OP(xfs_file_operations),
	.fallocate	= OP(xfs_file_operations),
	.remap_file_range = OP(xfs_file_operations),
};

LOUD_TABLE(xfs_dir_file_operations)
const struct file_operations xfs_dir_file_operations = {
	.open		= OP(xfs_dir_file_operations),
	.read		= OP(xfs_dir_file_operations),
	.iterate_shared	= OP(xfs_dir_file_operations),
	.llseek		= OP(xfs_dir_file_operations),
	.unlocked_ioctl	= OP(xfs_dir_file_operations),
	.fsync		= OP(xfs_dir_file_operations),
};

/*
 * No page of an XFS inode is ever in the page cache (no data I/O), so
 * truncating the mapping at eviction finds nothing to call these on.
 */
LOUD_TABLE(xfs_address_space_operations)
const struct address_space_operations xfs_address_space_operations = {
	.read_folio		= OP(xfs_address_space_operations),
	.readahead		= OP(xfs_address_space_operations),
	.writepages		= OP(xfs_address_space_operations),
	.dirty_folio		= OP(xfs_address_space_operations),
	.release_folio		= OP(xfs_address_space_operations),
	.invalidate_folio	= OP(xfs_address_space_operations),
	.bmap			= OP(xfs_address_space_operations),
	.migrate_folio		= OP(xfs_address_space_operations),
	.is_partially_uptodate	= OP(xfs_address_space_operations),
	.error_remove_folio	= OP(xfs_address_space_operations),
	.swap_activate		= OP(xfs_address_space_operations),
};

LOUD_TABLE(xfs_export_operations)
const struct export_operations xfs_export_operations = {
	.encode_fh	= OP(xfs_export_operations),
	.fh_to_dentry	= OP(xfs_export_operations),
	.fh_to_parent	= OP(xfs_export_operations),
	.get_parent	= OP(xfs_export_operations),
	.commit_metadata = OP(xfs_export_operations),
};

LOUD_TABLE(xfs_read_iomap_ops)
const struct iomap_ops xfs_read_iomap_ops = {
	.iomap_begin	= OP(xfs_read_iomap_ops),
};

LOUD_TABLE(xfs_xattr_iomap_ops)
const struct iomap_ops xfs_xattr_iomap_ops = {
	.iomap_begin	= OP(xfs_xattr_iomap_ops),
};

/* No extended attribute handlers: the VFS finds none (-EOPNOTSUPP). */
const struct xattr_handler * const xfs_xattr_handlers[] = { NULL };
