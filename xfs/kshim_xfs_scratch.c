// SPDX-License-Identifier: GPL-2.0
/*
 * Scratch metadata for log tests: blocks in the free space of the last
 * AG, formatted as remote symlink blocks (struct xfs_dsymlink_hdr, the
 * real xfs_symlink_buf_ops verifier, XFS_BLFT_SYMLINK_BUF), logged
 * through real buffer log items. Symlink blocks are chosen because the
 * kernel logs them as ordinary buffers, their recovery is LSN-ordered
 * (xlog_recover_get_buf_lsn() reads sl_lsn) and their verifier checks a
 * CRC, the owner, the block number and the filesystem UUID: what reaches
 * the log, the AIL's writeback and recovery is checked by real code.
 *
 * The payload after the header is a record (sequence number, block,
 * length) and filler computed from the sequence number, so a block read
 * back says exactly which transaction last wrote it and whether the
 * bytes are whole.
 */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_bit.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_trans.h"
#include "xfs_buf_item.h"
#include "xfs_log.h"
#include <kshim/runtime.h>
#include <kshim/xfs.h>

struct scratch_record {
	__be64 seq;
	__be32 block;
	__be32 len;
};

#define SCRATCH_HDR	sizeof(struct xfs_dsymlink_hdr)
/* The verifier wants sl_offset + sl_bytes below XFS_SYMLINK_MAXLEN. */
#define SCRATCH_MAX_PAYLOAD	(XFS_SYMLINK_MAXLEN - 1)

static u8 filler(u64 seq, unsigned int i)
{
	return (u8)(seq * 131 + i * 7 + 1);
}

int kshim_xfs_scratch_blocks(struct xfs_mount *mp)
{
	/* The second half of the last AG: mkfs.xfs puts nothing there at
	 * the sizes tests use; an internal log there is refused below. */
	return mp->m_sb.sb_agblocks / 2;
}

static xfs_daddr_t scratch_daddr(struct xfs_mount *mp, unsigned int block)
{
	xfs_agnumber_t agno = mp->m_sb.sb_agcount - 1;
	xfs_agblock_t agbno = mp->m_sb.sb_agblocks / 2 + block;
	xfs_fsblock_t fsb = XFS_AGB_TO_FSB(mp, agno, agbno);

	if (block >= kshim_xfs_scratch_blocks(mp))
		kshim_fatal("kshim_xfs: scratch block %u of %d", block,
			    kshim_xfs_scratch_blocks(mp));
	if (mp->m_sb.sb_logstart &&
	    fsb >= mp->m_sb.sb_logstart &&
	    fsb < mp->m_sb.sb_logstart + mp->m_sb.sb_logblocks)
		kshim_fatal("kshim_xfs: scratch block %u is in the log", block);
	return XFS_FSB_TO_DADDR(mp, fsb);
}

int kshim_xfs_scratch_log(struct xfs_trans *tp, unsigned int block, u64 seq,
			  unsigned int len)
{
	struct xfs_mount *mp = tp->t_mountp;
	xfs_daddr_t daddr = scratch_daddr(mp, block);
	struct xfs_dsymlink_hdr *hdr;
	struct scratch_record *rec;
	struct xfs_buf *bp;
	u8 *fill;
	unsigned int i;
	int error;

	if (len < sizeof(*rec) || len > SCRATCH_MAX_PAYLOAD)
		return -EINVAL;
	error = xfs_trans_get_buf(tp, mp->m_ddev_targp, daddr,
				  XFS_FSB_TO_BB(mp, 1), 0, &bp);
	if (error)
		return error;
	bp->b_ops = &xfs_symlink_buf_ops;
	xfs_trans_buf_set_type(tp, bp, XFS_BLFT_SYMLINK_BUF);

	hdr = bp->b_addr;
	hdr->sl_magic = cpu_to_be32(XFS_SYMLINK_MAGIC);
	hdr->sl_offset = 0;
	hdr->sl_bytes = cpu_to_be32(len);
	uuid_copy(&hdr->sl_uuid, &mp->m_sb.sb_meta_uuid);
	hdr->sl_owner = cpu_to_be64(mp->m_sb.sb_rootino);
	hdr->sl_blkno = cpu_to_be64(daddr);
	/* sl_lsn and sl_crc: the write verifier sets them. */

	rec = (struct scratch_record *)(hdr + 1);
	rec->seq = cpu_to_be64(seq);
	rec->block = cpu_to_be32(block);
	rec->len = cpu_to_be32(len);
	fill = (u8 *)(rec + 1);
	for (i = 0; i < len - sizeof(*rec); i++)
		fill[i] = filler(seq, i);

	xfs_trans_log_buf(tp, bp, 0, SCRATCH_HDR + len - 1);
	return 0;
}

int kshim_xfs_scratch_read(struct xfs_mount *mp, unsigned int block, u64 *seq)
{
	xfs_daddr_t daddr = scratch_daddr(mp, block);
	struct xfs_dsymlink_hdr *hdr;
	struct scratch_record *rec;
	struct xfs_buf *bp;
	unsigned int len, i;
	u8 *fill;
	int error;

	/* Uncached: what is on the device now, not a cached copy. */
	error = xfs_buf_read_uncached(mp->m_ddev_targp, daddr,
				      XFS_FSB_TO_BB(mp, 1), 0, &bp, NULL);
	if (error)
		return error;
	hdr = bp->b_addr;
	*seq = 0;
	if (hdr->sl_magic != cpu_to_be32(XFS_SYMLINK_MAGIC))
		goto out;	/* never written */

	/* The real read verifier: CRC, UUID, block number, owner, LSN. */
	bp->b_ops = &xfs_symlink_buf_ops;
	bp->b_ops->verify_read(bp);
	error = bp->b_error;
	if (error)
		goto out;
	error = -EFSCORRUPTED;
	rec = (struct scratch_record *)(hdr + 1);
	len = be32_to_cpu(rec->len);
	if (be32_to_cpu(rec->block) != block || len < sizeof(*rec) ||
	    len > SCRATCH_MAX_PAYLOAD || be32_to_cpu(hdr->sl_bytes) != len)
		goto out;
	fill = (u8 *)(rec + 1);
	for (i = 0; i < len - sizeof(*rec); i++)
		if (fill[i] != filler(be64_to_cpu(rec->seq), i))
			goto out;
	*seq = be64_to_cpu(rec->seq);
	error = 0;
out:
	xfs_buf_relse(bp);
	return error;
}
