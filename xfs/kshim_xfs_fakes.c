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
#include <kshim/runtime.h>

/*
 * xfs_discard.c's queue for online discard completions. Nothing queues
 * to it: kshim mounts never set the "discard" option. xfs_unmountfs()
 * flushes it, and flush_workqueue(NULL) is loud.
 */
struct workqueue_struct *xfs_discard_wq;

/*
 * xfs_super.c's: the in-core free and inode counters are set from the
 * superblock after it is read or recovered (the same four counters).
 */
void xfs_reinit_percpu_counters(struct xfs_mount *mp)
{
	percpu_counter_set(&mp->m_icount, mp->m_sb.sb_icount);
	percpu_counter_set(&mp->m_ifree, mp->m_sb.sb_ifree);
	percpu_counter_set(&mp->m_fdblocks, mp->m_sb.sb_fdblocks);
	percpu_counter_set(&mp->m_frextents, mp->m_sb.sb_frextents);
}

/*
 * xfs_super.c's inode allocation policy, for inode64 (the default; kshim
 * has no mount options, so never inode32): every AG may hold inodes and
 * none is kept for metadata. Returns the number of AGs that may.
 */
xfs_agnumber_t xfs_set_inode_alloc(struct xfs_mount *mp,
				   xfs_agnumber_t agcount)
{
	xfs_agnumber_t agno;

	if (xfs_has_small_inums(mp))
		kshim_unimplemented("xfs_set_inode_alloc (inode32)");
	xfs_clear_inode32(mp);
	for (agno = 0; agno < agcount; agno++) {
		struct xfs_perag *pag = xfs_perag_get(mp, agno);

		set_bit(XFS_AGSTATE_ALLOWS_INODES, &pag->pag_opstate);
		clear_bit(XFS_AGSTATE_PREFERS_METADATA, &pag->pag_opstate);
		xfs_perag_put(pag);
	}
	return agcount;
}

/*
 * Log recovery of the item types whose xfs_*_item_recover.c is not
 * compiled: recovery finds them by type (so a log holding one is
 * recognised as such), and replaying one aborts with the type's name.
 * Buffer items (xfs_buf_item_recover.c) are recovered for real.
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

LOUD_RECOVERY(xlog_inode_item_ops, XFS_LI_INODE);
LOUD_RECOVERY(xlog_dquot_item_ops, XFS_LI_DQUOT);
LOUD_RECOVERY(xlog_quotaoff_item_ops, XFS_LI_QUOTAOFF);
LOUD_RECOVERY(xlog_icreate_item_ops, XFS_LI_ICREATE);
LOUD_RECOVERY(xlog_efi_item_ops, XFS_LI_EFI);
LOUD_RECOVERY(xlog_efd_item_ops, XFS_LI_EFD);
LOUD_RECOVERY(xlog_rui_item_ops, XFS_LI_RUI);
LOUD_RECOVERY(xlog_rud_item_ops, XFS_LI_RUD);
LOUD_RECOVERY(xlog_cui_item_ops, XFS_LI_CUI);
LOUD_RECOVERY(xlog_cud_item_ops, XFS_LI_CUD);
LOUD_RECOVERY(xlog_bui_item_ops, XFS_LI_BUI);
LOUD_RECOVERY(xlog_bud_item_ops, XFS_LI_BUD);
LOUD_RECOVERY(xlog_attri_item_ops, XFS_LI_ATTRI);
LOUD_RECOVERY(xlog_attrd_item_ops, XFS_LI_ATTRD);
LOUD_RECOVERY(xlog_xmi_item_ops, XFS_LI_XMI);
LOUD_RECOVERY(xlog_xmd_item_ops, XFS_LI_XMD);
