// SPDX-License-Identifier: GPL-2.0
/*
 * Every iclog write checked as a bio (see xfs_log_bio.h). The observer
 * runs at submission under the device's queue lock, so it copies the
 * record out of the bio and decodes it there: undo the cycle stamping
 * (xlog_pack_data() moved the first word of every 512-byte block of the
 * record into h_cycle_data[]), then walk h_num_logops operation headers
 * looking at their flags. Records bigger than the header's cycle-data
 * table (iclogs over 32 KiB, with extended headers) are counted as
 * undecoded, not guessed at.
 */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_log.h"
#include "xfs_log_priv.h"
#include <linux/bio.h>
#include <kshim/bdev.h>
#include "xfs_log_bio.h"

#define RECORD_MAX	XLOG_HEADER_CYCLE_SIZE

static void violation(struct log_bio_trace *t, const char *fmt, ...)
{
	va_list ap;

	if (!t->c.violations++) {
		va_start(ap, fmt);
		vsnprintf(t->c.first_violation, sizeof(t->c.first_violation),
			  fmt, ap);
		va_end(ap);
	}
}

/* Copy up to len bytes from the start of the bio; how many it had. */
static size_t bio_copy_head(struct bio *bio, void *dst, size_t len)
{
	struct bvec_iter iter;
	struct bio_vec bv;
	size_t done = 0;

	bio_for_each_segment(bv, bio, iter) {
		size_t n = min_t(size_t, len - done, bv.bv_len);

		memcpy(dst + done, bvec_virt(&bv), n);
		done += n;
		if (done == len)
			break;
	}
	return done;
}

/* The record's operation flags, or-ed together; -1 if it can't be read. */
static int record_op_flags(struct log_bio_trace *t, size_t have)
{
	struct xlog_rec_header *rh = t->buf;
	u32 len = be32_to_cpu(rh->h_len);
	u32 nops = be32_to_cpu(rh->h_num_logops);
	u8 *data = t->buf + BBSIZE;
	size_t off = 0;
	int flags = 0;
	u32 i;

	if (be32_to_cpu(rh->h_version) != XLOG_VERSION_2 ||
	    be32_to_cpu(rh->h_size) > XLOG_HEADER_CYCLE_SIZE ||
	    len > RECORD_MAX - BBSIZE || have < BBSIZE + len)
		return -1;
	for (i = 0; i < BTOBB(len); i++)
		*(__be32 *)(data + BBTOB(i)) = rh->h_cycle_data[i];
	for (i = 0; i < nops; i++) {
		struct xlog_op_header *oh = (void *)(data + off);

		if (off + sizeof(*oh) > len)
			return -1;
		flags |= oh->oh_flags;
		off += sizeof(*oh) + be32_to_cpu(oh->oh_len);
	}
	return flags;
}

/* Check the flags of the write that carried the record in t->buf. */
static void check_record(struct log_bio_trace *t, blk_opf_t opf, size_t have)
{
	struct xlog_rec_header *rh = t->buf;
	int flags = record_op_flags(t, have);

	t->c.writes++;
	if (flags < 0) {
		t->c.undecoded++;
		return;
	}
	if (flags & XLOG_COMMIT_TRANS) {
		t->c.commit_iclogs++;
		if (!(opf & REQ_FUA))
			violation(t, "iclog at lsn %#llx holds a commit record but is not REQ_FUA",
				  be64_to_cpu(rh->h_lsn));
	}
	if (flags & XLOG_START_TRANS) {
		t->c.start_iclogs++;
		if (!(opf & REQ_PREFLUSH))
			violation(t, "iclog at lsn %#llx holds a start record but is not REQ_PREFLUSH",
				  be64_to_cpu(rh->h_lsn));
	}
	if (flags & XLOG_UNMOUNT_TRANS) {
		t->c.unmount_iclogs++;
		if ((opf & (REQ_PREFLUSH | REQ_FUA)) != (REQ_PREFLUSH | REQ_FUA))
			violation(t, "the unmount record at lsn %#llx is not REQ_PREFLUSH|REQ_FUA",
				  be64_to_cpu(rh->h_lsn));
	}
}

static void observe(void *priv, struct bio *bio)
{
	const blk_opf_t must = REQ_SYNC | REQ_IDLE | REQ_META;
	struct log_bio_trace *t = priv;
	sector_t sector = bio->bi_iter.bi_sector;
	blk_opf_t opf = bio->bi_opf;
	struct xlog_rec_header *rh = t->buf;
	size_t have;

	if (bio_op(bio) != REQ_OP_WRITE || !bio_sectors(bio) ||
	    sector < t->start || sector >= t->start + t->nr)
		return;

	spin_lock(&t->lock);
	if ((opf & must) != must)
		violation(t, "log write at sector %llu without REQ_SYNC|REQ_IDLE|REQ_META (opf %#x)",
			  (unsigned long long)sector, (unsigned int)opf);
	if (opf & REQ_PREFLUSH) {
		t->c.preflush++;
		t->volatile_now = 0;
	}
	if (opf & REQ_FUA)
		t->c.fua++;
	else
		t->volatile_now++;
	t->c.volatile_max = max(t->c.volatile_max, t->volatile_now);

	have = bio_copy_head(bio, t->buf, RECORD_MAX);
	if (be32_to_cpu(rh->h_magicno) != XLOG_HEADER_MAGIC_NUM) {
		/*
		 * xlog_write_iclog() splits a record that runs past the end
		 * of the log and writes the rest at the log's start (another
		 * iclog's write may come in between): join the two.
		 */
		if (!t->split_have || sector != t->start) {
			violation(t, "log write at sector %llu is not a log record",
				  (unsigned long long)sector);
			goto out;
		}
		memmove(t->buf + t->split_have, t->buf,
			min_t(size_t, have, RECORD_MAX - t->split_have));
		memcpy(t->buf, t->split_buf, t->split_have);
		have = min_t(size_t, t->split_have + have, RECORD_MAX);
		t->split_have = 0;
		check_record(t, t->split_opf, have);
		goto out;
	}
	if (sector + bio_sectors(bio) == t->start + t->nr &&
	    have < BBSIZE + be32_to_cpu(rh->h_len)) {
		if (t->split_have)
			violation(t, "two records split at the log's end at once");
		memcpy(t->split_buf, t->buf, have);
		t->split_have = have;
		t->split_opf = opf;
		goto out;
	}
	check_record(t, opf, have);
out:
	spin_unlock(&t->lock);
}

void log_bio_trace_start(struct log_bio_trace *t, struct xfs_mount *mp)
{
	struct xlog *log = mp->m_log;

	memset(t, 0, sizeof(*t));
	spin_lock_init(&t->lock);
	t->buf = kvmalloc(RECORD_MAX, GFP_KERNEL | __GFP_NOFAIL);
	t->split_buf = kvmalloc(RECORD_MAX, GFP_KERNEL | __GFP_NOFAIL);
	t->start = log->l_logBBstart;
	t->nr = log->l_logBBsize;
	t->kb = kshim_bdev_of_bdev(log->l_targ->bt_bdev);
	kshim_bdev_set_observer(t->kb, observe, t);
}

void log_bio_trace_stop(struct log_bio_trace *t)
{
	kshim_bdev_set_observer(t->kb, NULL, NULL);
}

void log_bio_trace_release(struct log_bio_trace *t)
{
	kvfree(t->buf);
	kvfree(t->split_buf);
	t->buf = t->split_buf = NULL;
}

void log_bio_trace_read(struct log_bio_trace *t, struct log_bio_counts *out)
{
	spin_lock(&t->lock);
	*out = t->c;
	spin_unlock(&t->lock);
}
