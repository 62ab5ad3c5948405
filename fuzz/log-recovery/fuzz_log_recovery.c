// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: XFS log recovery. An input is a crashed filesystem, as
 * the sectors in which it differs from a golden image the target makes
 * once per process (kshim_fuzz_init()):
 *
 *	byte 0   flags: bit 0 keeps every CRC as given (by default the
 *	         harness recomputes the CRC of each log record and each
 *	         metadata block the input touches, so that mutations get
 *	         past the CRC checks); the other bits are ignored
 *	then     segments, to the end of the input:
 *	         le32 sector (512 bytes; modulo the image's sectors),
 *	         le16 count (sectors; 0 means 1), count * 512 bytes
 *	         (a segment the input cuts short keeps the golden bytes
 *	         after its end)
 *
 * The seed corpus is kshim's own workloads power-failed at chosen points
 * (lr_make_seeds(), when KSHIM_FUZZ_SEEDS_OUT is set): the log region
 * they wrote, and the metadata blocks written back before the power
 * went, as such segments.
 *
 * The golden image with the input laid over it is then mounted through
 * the real mount (kshim_xfs_mount(): the log is found, its head and
 * tail, the records replayed, intents finished, unlinked lists
 * processed, CoW leftovers reclaimed), unmounted, mounted again and
 * unmounted. Either mount may fail: recovery refusing a corrupt log with
 * an errno is the kernel doing its job. A crash is a kernel ASSERT,
 * WARN or BUG, a kshim report, a sanitizer report, a hang (the
 * deterministic backend's report), or kernel allocations that did not
 * come back after the unmounts (a leak). Between inputs the sectors the
 * input and the mounts wrote are copied back from the golden image.
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
#include "xfs_log.h"
#include "xfs_log_priv.h"
#include "xfs_trans_priv.h"
#include "xfs_da_format.h"
#include "xfs_da_btree.h"
#include "xfs_sysctl.h"
#include "xfs_error.h"
#include "xfs_cksum.h"
#include "xfs_log_recover.h"
#include <linux/bio.h>
#include <linux/falloc.h>
#include <linux/fcntl.h>
#include <kshim/host.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include <kshim/xfs.h>
#include "kshim_fuzz.h"
#include "fsstress.h"

#define LR_FLAG_KEEP_CRC	0x01
#define LR_SEG_HDR		6
#define LR_MAX_WRITES		4096	/* write bios remembered per input */
#define LR_SEED			1	/* the schedule's seed, every input */

struct lr_range {
	u64 sector;
	u64 count;
};

static struct {
	char img[256];
	struct kshim_xfs_config cfg;
	struct kshim_fuzz_image im;
	u64 nsect;			/* the image's 512-byte sectors */
	/* The geometry, from the golden image's superblock. */
	u64 log_start, log_len;		/* sectors */
	unsigned int blocksize, inodesize, sectsize, dirblksize;
	/* What this input changed, and what the mounts wrote. */
	unsigned long *dirty;		/* a bit per sector: the input's */
	struct lr_range in[LR_MAX_WRITES], wr[LR_MAX_WRITES];
	unsigned int nin, nwr;
	bool in_overflow, wr_overflow;
	u8 *rec;			/* one log record, contiguous */
	long baseline;			/* kshim_alloc_outstanding() */
	int last_mount, last_remount;	/* for the seed generator */
} lr;

static void must(int error, const char *what)
{
	if (error)
		kshim_fatal("fuzz_log_recovery: %s: %d", what, error);
}

/* ---- the image: an input on, the golden bytes back ------------------------ */

/* cfg.observer: every write bio the mounts submit (any task). */
static void lr_observe(void *priv, struct bio *bio)
{
	if (!op_is_write(bio_op(bio)) || !bio_sectors(bio))
		return;
	if (lr.nwr == LR_MAX_WRITES) {
		lr.wr_overflow = true;
		return;
	}
	lr.wr[lr.nwr].sector = bio->bi_iter.bi_sector;
	lr.wr[lr.nwr].count = bio_sectors(bio);
	lr.nwr++;
}

/* Back to the golden image: what the input and the mounts wrote. */
static void lr_restore(void)
{
	unsigned int i;

	if (lr.in_overflow || lr.wr_overflow) {
		kshim_fuzz_image_restore_all(&lr.im);
	} else {
		for (i = 0; i < lr.nin; i++)
			kshim_fuzz_image_restore(&lr.im, lr.in[i].sector,
						 lr.in[i].count);
		for (i = 0; i < lr.nwr; i++)
			kshim_fuzz_image_restore(&lr.im, lr.wr[i].sector,
						 lr.wr[i].count);
	}
	for (i = 0; i < lr.nin; i++)
		bitmap_clear(lr.dirty, lr.in[i].sector, lr.in[i].count);
	if (lr.in_overflow)
		bitmap_zero(lr.dirty, lr.nsect);
	lr.nin = lr.nwr = 0;
	lr.in_overflow = lr.wr_overflow = false;
}

/* The input's segments onto the image; each sector marked dirty. */
static void lr_apply(const u8 *p, size_t size)
{
	while (size > LR_SEG_HDR) {
		u64 sector = get_unaligned_le32(p) % lr.nsect;
		u64 count = get_unaligned_le16(p + 4) ?: 1;
		size_t bytes;

		p += LR_SEG_HDR;
		size -= LR_SEG_HDR;
		count = min(count, lr.nsect - sector);
		bytes = min_t(size_t, size, count << SECTOR_SHIFT);
		count = DIV_ROUND_UP(bytes, SECTOR_SIZE);
		memcpy(lr.im.map + (sector << SECTOR_SHIFT), p, bytes);
		bitmap_set(lr.dirty, sector, count);
		if (lr.nin < LR_MAX_WRITES) {
			lr.in[lr.nin].sector = sector;
			lr.in[lr.nin].count = count;
			lr.nin++;
		} else {
			lr.in_overflow = true;
		}
		p += bytes;
		size -= bytes;
	}
}

/* ---- CRC fix-ups ------------------------------------------------------------ */

/*
 * xlog_cksum() (xfs_log.c, the real one) asks the log only whether the
 * filesystem has v2 logs, which every v5 filesystem has.
 */
static struct xfs_mount lr_fake_mp = { .m_features = XFS_FEAT_LOGV2 };
static struct xlog lr_fake_log = { .l_mp = &lr_fake_mp };

static u8 *log_sector(u64 i)
{
	return lr.im.map + ((lr.log_start + i % lr.log_len) << SECTOR_SHIFT);
}

static bool log_dirty(u64 first, u64 n)
{
	u64 i;

	for (i = 0; i < n; i++)
		if (test_bit(lr.log_start + (first + i) % lr.log_len, lr.dirty))
			return true;
	return false;
}

/*
 * Every log record header (a sector starting with XLOG_HEADER_MAGIC_NUM:
 * every other log sector starts with its cycle number) whose record the
 * input touched gets the CRC of what it now holds, computed as the
 * writer does (xlog_cksum() over the header and the data as they are on
 * the disk, cycle numbers stamped in), and as xlog_recover_process()
 * checks it. A record that wraps past the log's end is read across it.
 */
static void fix_log_crcs(void)
{
	u64 s;

	for (s = 0; s < lr.log_len; s++) {
		struct xlog_rec_header *rh = (void *)log_sector(s);
		int h_len = be32_to_cpu(rh->h_len);
		int h_size = be32_to_cpu(rh->h_size);
		u64 hblks = 1, dblks, i;

		if (rh->h_magicno != cpu_to_be32(XLOG_HEADER_MAGIC_NUM) ||
		    h_len <= 0 || h_len > XLOG_MAX_RECORD_BSIZE)
			continue;
		/* xlog_logrec_hblks() */
		if ((be32_to_cpu(rh->h_version) & XLOG_VERSION_2) &&
		    h_size > XLOG_HEADER_CYCLE_SIZE)
			hblks = DIV_ROUND_UP(h_size, XLOG_HEADER_CYCLE_SIZE);
		if (hblks > XLOG_MAX_RECORD_BSIZE / XLOG_HEADER_CYCLE_SIZE)
			continue;
		dblks = BTOBB(h_len);
		if (hblks + dblks > lr.log_len || !log_dirty(s, hblks + dblks))
			continue;
		for (i = 0; i < hblks + dblks; i++)
			memcpy(lr.rec + (i << SECTOR_SHIFT), log_sector(s + i),
			       SECTOR_SIZE);
		rh->h_crc = xlog_cksum(&lr_fake_log, (void *)lr.rec,
				       (char *)lr.rec + (hblks << SECTOR_SHIFT),
				       XLOG_REC_SIZE, h_len);
	}
}

static void fix_crc(u64 sector, unsigned int len, unsigned long crc_off)
{
	u64 off = sector << SECTOR_SHIFT;

	if (off + len <= lr.im.size)
		xfs_update_cksum((char *)lr.im.map + off, len, crc_off);
}

/* A v5 structure of one sector (or one inode) at SECTOR: its CRC. */
static void fix_sector(u64 sector)
{
	const u8 *p = lr.im.map + (sector << SECTOR_SHIFT);
	const struct xfs_dinode *dip = (const void *)p;

	switch (get_unaligned_be32(p)) {
	case XFS_SB_MAGIC:
		fix_crc(sector, lr.sectsize, XFS_SB_CRC_OFF);
		return;
	case XFS_AGF_MAGIC:
		fix_crc(sector, lr.sectsize, XFS_AGF_CRC_OFF);
		return;
	case XFS_AGI_MAGIC:
		fix_crc(sector, lr.sectsize, XFS_AGI_CRC_OFF);
		return;
	case XFS_AGFL_MAGIC:
		fix_crc(sector, lr.sectsize, XFS_AGFL_CRC_OFF);
		return;
	}
	if (dip->di_magic == cpu_to_be16(XFS_DINODE_MAGIC) &&
	    dip->di_version >= 3)
		fix_crc(sector, lr.inodesize, XFS_DINODE_CRC_OFF);
}

/* A v5 structure of a filesystem block at SECTOR: its CRC. */
static void fix_block(u64 sector)
{
	const u8 *p = lr.im.map + (sector << SECTOR_SHIFT);
	const struct xfs_da_blkinfo *info = (const void *)p;

	switch (get_unaligned_be32(p)) {
	case XFS_ABTB_CRC_MAGIC:
	case XFS_ABTC_CRC_MAGIC:
	case XFS_IBT_CRC_MAGIC:
	case XFS_FIBT_CRC_MAGIC:
	case XFS_RMAP_CRC_MAGIC:
	case XFS_REFC_CRC_MAGIC:
		fix_crc(sector, lr.blocksize, XFS_BTREE_SBLOCK_CRC_OFF);
		return;
	case XFS_BMAP_CRC_MAGIC:
		fix_crc(sector, lr.blocksize, XFS_BTREE_LBLOCK_CRC_OFF);
		return;
	case XFS_DIR3_DATA_MAGIC:
	case XFS_DIR3_BLOCK_MAGIC:
		fix_crc(sector, lr.dirblksize, XFS_DIR3_DATA_CRC_OFF);
		return;
	case XFS_DIR3_FREE_MAGIC:
		fix_crc(sector, lr.dirblksize, XFS_DIR3_FREE_CRC_OFF);
		return;
	case XFS_ATTR3_RMT_MAGIC:
		fix_crc(sector, lr.blocksize, XFS_ATTR3_RMT_CRC_OFF);
		return;
	case XFS_SYMLINK_MAGIC:
		fix_crc(sector, lr.blocksize, XFS_SYMLINK_CRC_OFF);
		return;
	}
	switch (be16_to_cpu(info->magic)) {
	case XFS_DIR3_LEAF1_MAGIC:
	case XFS_DIR3_LEAFN_MAGIC:
		fix_crc(sector, lr.dirblksize, XFS_DA3_NODE_CRC_OFF);
		return;
	case XFS_DA3_NODE_MAGIC:
	case XFS_ATTR3_LEAF_MAGIC:
		/* A directory's or an attr fork's: both one block here. */
		fix_crc(sector, lr.blocksize, XFS_DA3_NODE_CRC_OFF);
		return;
	}
}

static bool in_log(u64 sector)
{
	return sector >= lr.log_start && sector < lr.log_start + lr.log_len;
}

/*
 * Each metadata structure outside the log that the input touched: the
 * sector itself (superblock, AG headers, an inode) and the filesystem
 * block it is in (btree, directory, attr and symlink blocks).
 */
static void fix_metadata_crcs(void)
{
	unsigned int bb_per_block = lr.blocksize >> SECTOR_SHIFT;
	unsigned int i;
	u64 s, last_block = U64_MAX;

	for (i = 0; i < lr.nin; i++) {
		for (s = lr.in[i].sector;
		     s < lr.in[i].sector + lr.in[i].count; s++) {
			u64 b = round_down(s, bb_per_block);

			if (in_log(s))
				continue;
			fix_sector(s);
			if (b != last_block && !in_log(b))
				fix_block(b);
			last_block = b;
		}
	}
}

/* ---- known findings -------------------------------------------------------- */

/*
 * A known finding is fenced off, so that fuzzing goes on to new ones:
 * its input is kept in findings/ and replayed with the fence down
 * (KSHIM_FUZZ_UNFENCE=NAME) as an expected failure (fuzz/meson.build).
 */
static bool fenced(const char *finding)
{
	const char *s = kshim_host_getenv("KSHIM_FUZZ_UNFENCE");

	return !s || strcmp(s, finding);
}

/*
 * Finding recovery-assert-on-corrupt-log (fuzz/log-recovery/README.md):
 * xfs_log_recover.c refuses a transaction it cannot parse with an alert,
 * ASSERT(0) and -EFSCORRUPTED: an XFS_DEBUG kernel WARNs (or BUGs, with
 * bug_on_assert) on a log whose records pass their CRC but whose
 * contents are corrupt. The ASSERTs are fenced by the alert before them.
 */
static const char *const recovery_corruption_alerts[] = {
	"bad header magic number",
	"bad header length",
	"in inode log format",		/* bad number of regions (%d) */
	"overflowed size",		/* log item region count */
	"xlog_recovery_process_trans: bad flag",
	"xlog_recover_process_ophdr: bad clientid",
	"unrecognized type of log operation",
	"Log inconsistent (didn't find previous header)",
};

/*
 * The findings a WARN or an ASSERT shows (fuzz/log-recovery/README.md),
 * fenced by the kernel's last lines before it (kshim_printk.c counts
 * such a WARN apart): nothing changes in what the kernel does, the
 * target only does not call it a crash.
 */
static void fence_findings(void)
{
	unsigned int i;

	if (fenced("recovery-assert-on-corrupt-log"))
		for (i = 0; i < ARRAY_SIZE(recovery_corruption_alerts); i++)
			kshim_test_known_warn_after(
				recovery_corruption_alerts[i],
				"Assertion failed: 0, file: ");
	/* WARN_ON(1) after "bad length": any kernel, not only XFS_DEBUG. */
	if (fenced("recovery-ophdr-bad-length"))
		kshim_test_known_warn("xlog_recover_process_ophdr: bad length");
	/* A log item's block number past the device: xfs_buf_map_verify()
	 * alerts, then WARN_ON(1). */
	if (fenced("recovery-item-daddr-out-of-range"))
		kshim_test_known_warn("out of range, EOFS");
	/* xlog_recover_inode_commit_pass2()'s ASSERTs on the item's
	 * region count and fork sizes. */
	if (fenced("recovery-inode-item-asserts"))
		kshim_test_known_warn("xfs_inode_item_recover.c, line: ");
	/* A logged buffer at a cached block number with another length:
	 * _xfs_buf_obj_cmp()'s ASSERT. */
	if (fenced("recovery-buf-length-mismatch"))
		kshim_test_known_warn("Assertion failed: bp->b_flags & XBF_STALE");
	/* xfs_buf_item_recover.c's ASSERTs on a buffer item's regions and
	 * on a logged block whose magic is not its type's. */
	if (fenced("recovery-buf-item-asserts"))
		kshim_test_known_warn("xfs_buf_item_recover.c, line: ");
	/* A buffer item shorter than a sector: xfs_buf_get_map()'s
	 * ASSERT. */
	if (fenced("recovery-buf-below-sector"))
		kshim_test_known_warn("Assertion failed: !(BBTOB(map->bm_len) < btp->bt_meta_sectorsize)");
	/* An unlinked inode whose di_nblocks its forks do not map:
	 * xfs_ifree()'s ASSERT when inodegc frees it. */
	if (fenced("ifree-nblocks"))
		kshim_test_known_warn("Assertion failed: ip->i_nblocks == 0");
}

/*
 * Finding buf-item-regions-short (fuzz/log-recovery/README.md): the
 * overrun of buf-item-regions-overrun, at the item itself. The scan
 * below sees an item's buffer log format but not its regions, so it
 * misses an item
 * whose regions are shorter than the runs of its dirty bitmap (each
 * region then takes fewer chunks, and xlog_recover_do_reg_buffer() goes
 * through more regions than runs) or one committed with regions missing
 * (ri_cnt < ri_total: the entries past ri_cnt were never set). The
 * link (fuzz/meson.build) sends the recovery's reference to
 * xlog_buf_item_ops to __wrap_xlog_buf_item_ops: the same operations,
 * but commit_pass2 first asks whether the kernel's loop over the
 * regions would read ri_buf[] past the regions the item has, and with
 * the fence up refuses the item with -EFSCORRUPTED instead.
 */
extern const struct xlog_recover_item_ops __real_xlog_buf_item_ops;
struct xlog_recover_item_ops __wrap_xlog_buf_item_ops;

/* xlog_recover_do_reg_buffer()'s walk of the bitmap and the regions,
 * counting only: true if it would take region ri_cnt or past it. */
static bool reg_buffer_overruns(const struct xlog_recover_item *item)
{
	const struct xfs_buf_log_format *f = item->ri_buf[0].iov_base;
	int bit = 0, i = 1, nbits;

	/* The format as the kernel reads it, whatever iov_len says: a
	 * short one (fuzzed) is read past its length there too. */
	if (f->blf_map_size > XFS_BLF_DATAMAP_SIZE ||
	    (f->blf_flags & (XFS_BLF_CANCEL | XFS_BLF_INODE_BUF |
			     XFS_BLF_UDQUOT_BUF | XFS_BLF_PDQUOT_BUF |
			     XFS_BLF_GDQUOT_BUF)))
		return false;	/* not a regular buffer's walk */
	while ((bit = xfs_next_bit((uint *)f->blf_data_map, f->blf_map_size,
				   bit)) != -1) {
		if (i >= item->ri_cnt)
			return true;
		nbits = xfs_contig_bits((uint *)f->blf_data_map,
					f->blf_map_size, bit);
		if (item->ri_buf[i].iov_len < (nbits << XFS_BLF_SHIFT))
			nbits = item->ri_buf[i].iov_len >> XFS_BLF_SHIFT;
		i++;
		bit += nbits;
	}
	return false;
}

static int fenced_buf_commit_pass2(struct xlog *log,
				   struct list_head *buffer_list,
				   struct xlog_recover_item *item,
				   xfs_lsn_t current_lsn)
{
	if (reg_buffer_overruns(item)) {
		/* Down for either finding: the older one's input reaches
		 * the same walk. */
		if (fenced("buf-item-regions-short") &&
		    fenced("buf-item-regions-overrun"))
			return -EFSCORRUPTED;
		kshim_info("fuzz_log_recovery: a buffer item whose regions "
			   "the bitmap's walk runs past (%u of %u there; "
			   "finding buf-item-regions-short, unfenced)\n",
			   item->ri_cnt, item->ri_total);
	}
	return __real_xlog_buf_item_ops.commit_pass2(log, buffer_list, item,
						     current_lsn);
}

static void fence_buf_items(void)
{
	__wrap_xlog_buf_item_ops = __real_xlog_buf_item_ops;
	__wrap_xlog_buf_item_ops.commit_pass2 = fenced_buf_commit_pass2;
}

/*
 * Log items in the log sectors the input gives, found by a scan of each
 * 4-byte aligned place of each segment (regions are 32-bit aligned in a
 * record; an item across a sector's start, whose first word there is
 * replaced by the cycle number, or split over op headers, is not seen), for the findings nothing in the kernel reports
 * before it crashes (fuzz/log-recovery/README.md). Fenced by skipping
 * the input; with the fence down, what was seen is printed.
 *
 * Inode log formats (XFS_LI_INODE):
 *  - inode-item-boffset: ilf_boffset is not checked against the buffer
 *    xlog_recover_inode_commit_pass2() reads (ilf_blkno, ilf_len);
 *  - an ilf_len past 64 sectors (an inode cluster is at most 32): the
 *    kernel allocates a buffer that long, which kshim's memory cannot map
 *    past 128 MiB (vm_map_ram() maps consecutive pages only, in a 256 MiB
 *    region): a kshim limit, skipped too.
 * Buffer log formats (XFS_LI_BUF):
 *  - buf-item-too-long: a buffer longer than a buf log item's dirty
 *    bitmap covers: xfs_buf_item_init() refuses it and
 *    xlog_recover_validate_buf_type() goes on to use the item it did not
 *    make (a NULL dereference);
 *  - buf-item-regions-overrun: more runs of set bits in the dirty
 *    bitmap than the item has regions: xlog_recover_do_reg_buffer()
 *    reads item->ri_buf[] past its end and copies from what it finds;
 *  - buf-format-map-size (UBSan only): a blf_map_size past the bitmap
 *    array: xfs_buf_log_check_iovec() indexes past it to find its end.
 */
static const char *lr_item_finding(const u8 *p, size_t n, char *why,
				   size_t whylen)
{
	size_t off;

	for (off = 0; off + 4 <= n; off += 4) {
		u16 type = get_unaligned_le16(p + off);
		/* What lies across a sector's start has its first word
		 * replaced by the cycle number there: not read. */
		size_t room = SECTOR_SIZE - off % SECTOR_SIZE;

		/* Nor a record header's sector (its cycle data). */
		if (get_unaligned_be32(p + round_down(off, SECTOR_SIZE)) ==
		    XLOG_HEADER_MAGIC_NUM) {
			off = round_down(off, SECTOR_SIZE) + SECTOR_SIZE - 4;
			continue;
		}

		if (type == XFS_LI_INODE &&
		    room < sizeof(struct xfs_inode_log_format))
			continue;
		if (type == XFS_LI_BUF &&
		    room < sizeof(struct xfs_buf_log_format))
			continue;

		if (type == XFS_LI_INODE &&
		    off + sizeof(struct xfs_inode_log_format) <= n) {
			const struct xfs_inode_log_format *f =
				(const void *)(p + off);
			s32 len = get_unaligned_le32(&f->ilf_len);
			s32 boff = get_unaligned_le32(&f->ilf_boffset);

			if (len > 64) {
				snprintf(why, whylen, "ilf_len %d", len);
				return "kshim-buffer-too-long";
			}
			if (len > 0 &&
			    (boff < 0 || boff + lr.inodesize > BBTOB(len))) {
				snprintf(why, whylen, "ilf_boffset %d past its "
					 "%d-byte buffer", boff, BBTOB(len));
				return "inode-item-boffset";
			}
		}
		if (type == XFS_LI_BUF &&
		    off + sizeof(struct xfs_buf_log_format) <= n) {
			const struct xfs_buf_log_format *f =
				(const void *)(p + off);
			unsigned int len = get_unaligned_le16(&f->blf_len);
			unsigned int size = get_unaligned_le16(&f->blf_size);
			unsigned int words =
				get_unaligned_le32(&f->blf_map_size);
			unsigned int chunks = DIV_ROUND_UP(BBTOB(len),
							   XFS_BLF_CHUNK);
			unsigned int w, b, runs = 0;
			bool prev = false;

			/* Finding buf-format-map-size (UBSan): pass 1's
			 * xfs_buf_log_check_iovec() takes the address of
			 * blf_data_map[blf_map_size], past the array. */
			if (words > XFS_BLF_DATAMAP_SIZE) {
				snprintf(why, whylen, "blf_map_size %u", words);
				return "buf-format-map-size";
			}
			if (DIV_ROUND_UP(chunks, NBWORD) > XFS_BLF_DATAMAP_SIZE) {
				snprintf(why, whylen, "blf_len %u", len);
				return "buf-item-too-long";
			}
			for (w = 0; w < words; w++) {
				u32 word = get_unaligned_le32(&f->blf_data_map[w]);

				for (b = 0; b < NBWORD; b++) {
					bool set = word & (1u << b);

					runs += set && !prev;
					prev = set;
				}
			}
			/* xlog_recover_do_reg_buffer()'s buffers only: not a
			 * cancelled (stale) buffer, an inode or a dquot one. */
			if (get_unaligned_le16(&f->blf_flags) &
			    (XFS_BLF_CANCEL | XFS_BLF_INODE_BUF |
			     XFS_BLF_UDQUOT_BUF | XFS_BLF_PDQUOT_BUF |
			     XFS_BLF_GDQUOT_BUF))
				continue;
			if (size && runs > size - 1) {
				snprintf(why, whylen, "%u runs of dirty chunks, "
					 "%u regions", runs, size - 1);
				return "buf-item-regions-overrun";
			}
		}
	}
	return NULL;
}

/*
 * Finding recovery-head-lsn-mismatch (fuzz/log-recovery/README.md): a
 * record header whose h_lsn is not its own cycle and block. Recovery
 * checks neither: xlog_set_state() makes the last record's h_lsn the
 * AIL's head LSN, and the log then runs with its AIL head in a later
 * cycle than the log itself. True if a record the input touched has
 * one.
 */
static bool record_lsn_mismatch(void)
{
	unsigned int i;
	u64 s;

	/* The sectors the input wrote, not the whole log: per input. */
	for (i = 0; i < lr.nin; i++)
		for (s = lr.in[i].sector;
		     s < lr.in[i].sector + lr.in[i].count; s++) {
			struct xlog_rec_header *rh;

			if (!in_log(s))
				continue;
			rh = (void *)log_sector(s - lr.log_start);
			if (rh->h_magicno ==
			    cpu_to_be32(XLOG_HEADER_MAGIC_NUM) &&
			    be64_to_cpu(rh->h_lsn) !=
			    xlog_assign_lsn(be32_to_cpu(rh->h_cycle),
					    s - lr.log_start))
				return true;
		}
	return false;
}

/* True when the input is to be skipped. */
static bool items_fenced(void)
{
	char why[96];
	unsigned int i;

	for (i = 0; i < lr.nin; i++) {
		const char *finding;

		if (!in_log(lr.in[i].sector))
			continue;
		finding = lr_item_finding(lr.im.map +
					  (lr.in[i].sector << SECTOR_SHIFT),
					  lr.in[i].count << SECTOR_SHIFT, why,
					  sizeof(why));
		if (!finding)
			continue;
		if (fenced(finding))
			return true;
		kshim_info("fuzz_log_recovery: a log item with %s (finding "
			   "%s, unfenced)\n", why, finding);
	}
	if (record_lsn_mismatch()) {
		if (fenced("recovery-head-lsn-mismatch"))
			return true;
		kshim_info("fuzz_log_recovery: a record's h_lsn is not its "
			   "cycle and block (finding recovery-head-lsn-mismatch, "
			   "unfenced)\n");
	}
	return false;
}

/* ---- one input ------------------------------------------------------------ */

static void mount_unmount(int *result)
{
	struct kshim_xfs *x;

	*result = kshim_xfs_mount(&lr.cfg, &x);
	if (!*result)
		kshim_xfs_unmount(x);
}

static void lr_one(const u8 *data, size_t size)
{
	kshim_det_reseed(LR_SEED);
	lr_apply(data + 1, size - 1);
	if (!(data[0] & LR_FLAG_KEEP_CRC)) {
		fix_log_crcs();
		fix_metadata_crcs();
	}
	lr.last_mount = lr.last_remount = -EAGAIN;
	if (items_fenced())
		goto out;
	/* Recovery, then a mount of what recovery and the unmount left. */
	mount_unmount(&lr.last_mount);
	if (!lr.last_mount)
		mount_unmount(&lr.last_remount);
	/* Buffers and inodes are freed by RCU callbacks. */
	rcu_barrier();
out:
	lr_restore();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	unsigned long warns = kshim_warn_count();
	unsigned long reports = kshim_report_count();
	long live;

	if (size < 1)
		return 0;
	kshim_printk_clear();
	lr_one(data, size);
	if (kshim_warn_count() != warns || kshim_report_count() != reports)
		kshim_fatal("fuzz_log_recovery: a WARN or kshim report (above); "
			    "mount %d, remount %d", lr.last_mount,
			    lr.last_remount);
	live = kshim_alloc_outstanding();
	if (live != lr.baseline) {
		if (kshim_host_getenv("KSHIM_FUZZ_LEAKS"))
			kshim_alloc_report_leaks();
		kshim_fatal("fuzz_log_recovery: %ld allocation(s) more than "
			    "before the input: a leak (mount %d, remount %d)",
			    live - lr.baseline, lr.last_mount,
			    lr.last_remount);
	}
	return 0;
}

/* ---- the golden image ------------------------------------------------------- */

#define SHARED_BLOCKS	16

/*
 * What the workloads work on, besides their own directories: a file
 * with a few extents, a reflinked copy of it (CoW), a file with xattrs,
 * a directory of a few dozen entries. Single-task, so that the blocks
 * land where they land on every run.
 */
static void lr_populate(struct super_block *sb)
{
	struct dentry *root = kshim_vfs_root(sb), *d, *f;
	struct file *src, *dst;
	char name[32], buf[4096];
	int i;

	memset(buf, 'k', sizeof(buf));
	must(kshim_vfs_open(root, "shared", O_CREAT | O_RDWR, 0644, &src),
	     "open shared");
	for (i = 0; i < SHARED_BLOCKS; i++)
		if (kshim_vfs_pwrite(src, buf, sizeof(buf),
				     (loff_t)i * 2 * 4096, 0) != sizeof(buf))
			kshim_fatal("fuzz_log_recovery: pwrite");
	must(kshim_vfs_fsync(src, 0), "fsync");
	must(kshim_vfs_open(root, "clone", O_CREAT | O_RDWR, 0644, &dst),
	     "open clone");
	must(kshim_vfs_clone_range(src, 0, dst, 0, 0), "clone");
	must(kshim_vfs_close(dst), "close");
	must(kshim_vfs_close(src), "close");

	must(kshim_vfs_create(root, "attrs", S_IFREG | 0644, &f), "create");
	for (i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "user.a%02d", i);
		must(kshim_vfs_setxattr(f, name, buf, 100, 0), "setxattr");
	}
	kshim_vfs_put(f);
	must(kshim_vfs_mkdir(root, "dir", 0755, &d), "mkdir");
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "file-%02d", i);
		must(kshim_vfs_create(d, name, S_IFREG | 0644, NULL), "create");
	}
	kshim_vfs_put(d);
	must(kshim_vfs_syncfs(sb), "syncfs");
	kshim_vfs_put(root);
}

/* ---- the seed corpus: workloads, power-failed ------------------------------ */

struct lr_crash {
	struct kshim_xfs *x;
	enum kshim_crash_mode mode;
	bool write_back_first;
	int err;
};

/* fsstress's crash point: the power fails (kshim_xfs_power_cut()). */
static void lr_cut_the_power(void *arg)
{
	struct lr_crash *c = arg;

	/*
	 * The log forced first: what was committed is in the log on the
	 * disk (the other tasks go on committing meanwhile), or a crash
	 * that drops the device's cache could leave nothing new at all.
	 */
	if (c->write_back_first)
		xfs_ail_push_all_sync(kshim_xfs_mp(c->x)->m_ail);
	else
		xfs_log_force(kshim_xfs_mp(c->x), XFS_LOG_SYNC);
	c->err = kshim_xfs_power_cut(c->x, c->mode, NULL);
}

static int force_log(struct super_block *sb)
{
	return xfs_log_force(XFS_M(sb), XFS_LOG_SYNC);
}

static int seq_no;

/*
 * The crashed image as an input: its log sectors that differ from the
 * golden image, and outside the log the filesystem blocks that differ
 * and hold metadata (a v5 magic number: file data is not recovery's),
 * runs of them as segments.
 */
static bool seed_wants(u64 s)
{
	unsigned int bb = lr.blocksize >> SECTOR_SHIFT;
	u64 b = round_down(s, bb), i;
	const u8 *p;

	if (!memcmp(lr.im.map + (s << SECTOR_SHIFT),
		    lr.im.golden + (s << SECTOR_SHIFT), SECTOR_SIZE))
		return false;
	if (in_log(s)) {
		const struct xlog_rec_header *rh =
			(const void *)(lr.im.map + (s << SECTOR_SHIFT));

		/*
		 * Not the empty records every mount writes ahead of the
		 * head, an older cycle's (xlog_clear_stale_blocks(): 2 MiB
		 * of them): the golden image has its own, of the same
		 * cycle, and only their cycle numbers matter to recovery.
		 */
		return rh->h_magicno != cpu_to_be32(XLOG_HEADER_MAGIC_NUM) ||
		       rh->h_len != 0;
	}
	for (i = b; i < b + bb && i < lr.nsect; i++) {
		p = lr.im.map + (i << SECTOR_SHIFT);
		switch (get_unaligned_be32(p)) {
		case XFS_SB_MAGIC: case XFS_AGF_MAGIC: case XFS_AGI_MAGIC:
		case XFS_AGFL_MAGIC: case XFS_ABTB_CRC_MAGIC:
		case XFS_ABTC_CRC_MAGIC: case XFS_IBT_CRC_MAGIC:
		case XFS_FIBT_CRC_MAGIC: case XFS_RMAP_CRC_MAGIC:
		case XFS_REFC_CRC_MAGIC: case XFS_BMAP_CRC_MAGIC:
		case XFS_DIR3_DATA_MAGIC: case XFS_DIR3_BLOCK_MAGIC:
		case XFS_DIR3_FREE_MAGIC: case XFS_ATTR3_RMT_MAGIC:
		case XFS_SYMLINK_MAGIC:
			return true;
		}
		if (get_unaligned_be16(p) == XFS_DINODE_MAGIC)
			return true;
		switch (get_unaligned_be16(p + 8)) {
		case XFS_DIR3_LEAF1_MAGIC: case XFS_DIR3_LEAFN_MAGIC:
		case XFS_DA3_NODE_MAGIC: case XFS_ATTR3_LEAF_MAGIC:
			return true;
		}
	}
	return false;
}

static void write_seed(const char *what)
{
	size_t cap = 1 << 20, len = 1;
	u8 *buf = kvmalloc(cap, GFP_KERNEL | __GFP_NOFAIL);
	char name[64];
	u64 s = 0, start, n;

	buf[0] = 0;
	while (s < lr.nsect) {
		if (!seed_wants(s)) {
			s++;
			continue;
		}
		start = s;
		while (s < lr.nsect && s - start < 0xffff && seed_wants(s))
			s++;
		n = s - start;
		if (kshim_host_getenv("KSHIM_FUZZ_SEED_SEGMENTS"))
			kshim_info("fuzz_log_recovery: seed %s: sectors %llu+%llu%s\n",
				   what, start, n, in_log(start) ? " (log)" : "");
		if (len + LR_SEG_HDR + (n << SECTOR_SHIFT) > cap)
			kshim_fatal("fuzz_log_recovery: seed %s over %zu bytes",
				    what, cap);
		put_unaligned_le32(start, buf + len);
		put_unaligned_le16(n, buf + len + 4);
		memcpy(buf + len + LR_SEG_HDR,
		       lr.im.map + (start << SECTOR_SHIFT), n << SECTOR_SHIFT);
		len += LR_SEG_HDR + (n << SECTOR_SHIFT);
	}
	snprintf(name, sizeof(name), "%02d-%s", seq_no++, what);
	memcpy(lr.im.map, lr.im.golden, lr.im.size);
	lr.nwr = 0;
	lr.wr_overflow = false;
	/* It is replayed at once, as an input: how its mounts go, for the
	 * log; the workload's own allocations are all freed by now. */
	rcu_barrier();
	lr.baseline = kshim_alloc_outstanding();
	LLVMFuzzerTestOneInput(buf, len);
	kshim_info("fuzz_log_recovery: seed %s: %zu bytes; mount %d, "
		   "remount %d\n", name, len, lr.last_mount, lr.last_remount);
	must(kshim_fuzz_write_seed(name, buf, len), "write seed");
	kvfree(buf);
}

static struct kshim_xfs *seed_mount(void)
{
	struct kshim_xfs *x;

	/* Each workload schedules as from a seed of its own, whatever the
	 * seeds before it did. */
	kshim_det_reseed(1000 + seq_no);
	memcpy(lr.im.map, lr.im.golden, lr.im.size);
	must(kshim_xfs_mount(&lr.cfg, &x), "mount for a seed");
	return x;
}

/* fsstress (its mix, seed, tasks and operations), the power cut after
 * CRASH_AT operations. */
static void seed_fsstress(const char *what, const char *mix, u64 seed,
			  unsigned int tasks, unsigned long ops,
			  unsigned long crash_at, enum kshim_crash_mode mode,
			  bool write_back_first)
{
	struct lr_crash c = { .mode = mode,
			      .write_back_first = write_back_first };
	struct fsstress_config cfg = {
		.seed = seed,
		.tasks = tasks,
		.ops = ops,
		.log_force = force_log,
		.rename_notempty = -EEXIST,
		.history = true,
		.crash_after = crash_at,
		.crash = lr_cut_the_power,
		.crash_arg = &c,
	};
	struct fsstress *fs;
	char why[128];

	if (fsstress_parse_mix(mix, cfg.weights, why, sizeof(why)))
		kshim_fatal("fuzz_log_recovery: mix %s: %s", mix, why);
	fs = fsstress_new(&cfg);
	c.x = seed_mount();
	fsstress_start(fs, kshim_xfs_sb(c.x));
	fsstress_join(fs);
	if (!fsstress_crashed(fs) || c.err)
		kshim_fatal("fuzz_log_recovery: seed %s: no crash (%d)", what,
			    c.err);
	kshim_xfs_unmount(c.x);
	fsstress_free(fs);
	write_seed(what);
}

/*
 * Files unlinked while open, the log forced, the power cut with them
 * still open: recovery finds them on the AGI's unlinked lists.
 */
static void seed_open_unlinked(void)
{
	struct kshim_xfs *x = seed_mount();
	struct dentry *root = kshim_vfs_root(kshim_xfs_sb(x)), *d;
	struct file *f[4];
	char name[32];
	int i;

	d = kshim_vfs_lookup(root, "dir");
	must(IS_ERR(d) ? PTR_ERR(d) : 0, "lookup dir");
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		snprintf(name, sizeof(name), "file-%02d", i * 7);
		must(kshim_vfs_open(d, name, O_RDWR, 0, &f[i]), "open");
		if (i & 1)
			kshim_vfs_pwrite(f[i], "data", 4, 8192 * i, 0);
		must(kshim_vfs_unlink(d, name), "unlink");
	}
	must(force_log(kshim_xfs_sb(x)), "log force");
	must(kshim_xfs_power_cut(x, KSHIM_CRASH_DROP_ALL, NULL), "power cut");
	for (i = 0; i < ARRAY_SIZE(f); i++)
		kshim_vfs_close(f[i]);
	kshim_vfs_put(d);
	kshim_vfs_put(root);
	kshim_xfs_unmount(x);
	write_seed("open-unlinked");
}

/*
 * A write into the shared file, fsync'd: the CoW fork's preallocation
 * beyond the block written stays as staging extents (the refcount
 * btree's CoW records), which the mount after the power cut reclaims
 * (xfs_reflink_recover_cow()).
 */
static void seed_cow_leftovers(bool punch)
{
	struct kshim_xfs *x = seed_mount();
	struct dentry *root = kshim_vfs_root(kshim_xfs_sb(x));
	struct file *f;
	char buf[4096];

	memset(buf, 'c', sizeof(buf));
	must(kshim_vfs_open(root, "clone", O_RDWR, 0, &f), "open clone");
	if (kshim_vfs_pwrite(f, buf, sizeof(buf), 4096 * 2, 0) != sizeof(buf))
		kshim_fatal("fuzz_log_recovery: pwrite clone");
	must(kshim_vfs_fsync(f, 0), "fsync");
	if (punch)
		must(kshim_vfs_fallocate(f, FALLOC_FL_PUNCH_HOLE |
					 FALLOC_FL_KEEP_SIZE, 4096 * 8, 4096 * 4),
		     "punch");
	must(force_log(kshim_xfs_sb(x)), "log force");
	must(kshim_xfs_power_cut(x, KSHIM_CRASH_DROP_ALL, NULL), "power cut");
	kshim_vfs_close(f);
	kshim_vfs_put(root);
	kshim_xfs_unmount(x);
	write_seed(punch ? "cow-punch" : "cow-leftovers");
}

static void lr_make_seeds(void)
{
	static const char ns_only[] =
		"write=0,read=0,dsyncwrite=0,dwrite=0,dread=0,fsync=0,"
		"fdatasync=0,fallocate=0,punch=0,zero=0,collapse=0,insert=0,"
		"truncate=0,clone=0,dedupe=0";
	static const char data_mix[] =
		"only:write=4,dwrite=2,fsync=2,fallocate=2,punch=2,zero=1,"
		"collapse=1,insert=1,truncate=2,clone=3,dedupe=1,create=2,"
		"unlink=2,logforce=2";
	static const char attr_mix[] =
		"only:setxattr=6,removexattr=3,create=2,unlink=1,logforce=2";
	static const enum kshim_crash_mode modes[] = {
		KSHIM_CRASH_DROP_ALL, KSHIM_CRASH_KEEP_RANDOM, KSHIM_CRASH_TEAR,
	};
	int i;

	seed_open_unlinked();
	seed_cow_leftovers(false);
	seed_cow_leftovers(true);
	for (i = 0; i < 6; i++)
		seed_fsstress("default", "", 100 + i, 2 + i / 3, 30,
			      20 + 9 * i, modes[i % 3], i % 3 == 1);
	for (i = 0; i < 4; i++)
		seed_fsstress("namespace", ns_only, 200 + i, 2, 30, 25 + 10 * i,
			      modes[i % 3], i == 2);
	for (i = 0; i < 5; i++)
		seed_fsstress("data", data_mix, 300 + i, 2, 25, 15 + 8 * i,
			      modes[i % 3], i % 2);
	/* Logged xattrs: attr intents (the larp knob, as fstests sets it). */
	xfs_globals.larp = true;
	for (i = 0; i < 4; i++)
		seed_fsstress("xattr-larp", attr_mix, 400 + i, 2, 25,
			      15 + 10 * i, modes[i % 3], i == 2);
	xfs_globals.larp = false;
}

/* ---- set-up ------------------------------------------------------------------ */

int kshim_fuzz_init(const char *workdir)
{
	struct kshim_xfs *x;
	struct xfs_mount *mp;
	int error;

	fence_buf_items();
	snprintf(lr.img, sizeof(lr.img), "%s/log-recovery.img", workdir);
	/* rmapbt on (RUIs; mkfs.xfs 6.1 leaves it off); reflink is on by
	 * default (CUIs, BUIs, CoW staging). 64 MiB: four AGs. */
	if (kshim_xfs_mkfs_id(lr.img, 64 << 20, "-m rmapbt=1", 1))
		return -EIO;
	lr.cfg.image = lr.img;
	error = kshim_xfs_mount(&lr.cfg, &x);
	if (error)
		return error;
	lr_populate(kshim_xfs_sb(x));
	mp = kshim_xfs_mp(x);
	lr.log_start = XFS_FSB_TO_DADDR(mp, mp->m_sb.sb_logstart);
	lr.log_len = XFS_FSB_TO_BB(mp, mp->m_sb.sb_logblocks);
	lr.blocksize = mp->m_sb.sb_blocksize;
	lr.inodesize = mp->m_sb.sb_inodesize;
	lr.sectsize = mp->m_sb.sb_sectsize;
	lr.dirblksize = mp->m_dir_geo->blksize;
	if (!lr.log_start || lr.dirblksize != lr.blocksize)
		kshim_fatal("fuzz_log_recovery: an external log, or directory "
			    "blocks of several filesystem blocks: not this "
			    "target's geometry");
	kshim_xfs_unmount(x);

	if (kshim_fuzz_image_map(lr.img, &lr.im))
		return -EIO;
	lr.nsect = lr.im.size >> SECTOR_SHIFT;
	lr.dirty = bitmap_zalloc(lr.nsect, GFP_KERNEL);
	lr.rec = kvmalloc(XLOG_MAX_RECORD_BSIZE + 2 * XLOG_MAX_RECORD_BSIZE /
			  XLOG_HEADER_CYCLE_SIZE * SECTOR_SIZE,
			  GFP_KERNEL | __GFP_NOFAIL);
	if (!lr.dirty)
		return -ENOMEM;
	lr.cfg.observer = lr_observe;
	/*
	 * Finding recovery-sb-uuid-change (README.md): a replayed superblock
	 * with another UUID becomes the mount's, and a failing mount then
	 * leaves the first one in XFS's table of mounted UUIDs (after
	 * xfs_uuid_unmount()'s ASSERT): every later mount of the image would
	 * be refused as a duplicate. Fenced by mounting with nouuid, which
	 * keeps the table out of it.
	 */
	lr.cfg.nouuid = fenced("recovery-sb-uuid-change");
	/*
	 * Corruption reports are what most inputs make: the alert line
	 * each, without the hex dump and the stack trace (symbolised by
	 * addr2line: most of a run's time). A crash still has its trace.
	 */
	xfs_params.error_level.val = XFS_ERRLEVEL_OFF;
	/*
	 * A kernel bug already kept as a finding
	 * (tests/findings/finding_xfs_attr_inactive_assert.c): inactivating
	 * a file under a block with a block-based attr fork asserts. The
	 * workloads free such files, and so does recovery's processing of
	 * the unlinked lists: counted apart, not a crash of this target.
	 */
	kshim_test_known_warn("Assertion failed: new_size <= XFS_ISIZE(ip)");
	fence_findings();
	/* Finding recovery-ophdr-bad-length (README.md): WARN_ON(1) after the alert. */
	if (fenced("recovery-ophdr-bad-length"))
		kshim_test_known_warn("xlog_recover_process_ophdr: bad length");

	rcu_barrier();
	lr.baseline = kshim_alloc_outstanding();
	if (kshim_host_getenv("KSHIM_FUZZ_SEEDS_OUT")) {
		lr_make_seeds();
		memcpy(lr.im.map, lr.im.golden, lr.im.size);
		rcu_barrier();
		lr.baseline = kshim_alloc_outstanding();
	}
	return 0;
}

int kshim_fuzz_exit(void)
{
	kvfree(lr.rec);
	bitmap_free(lr.dirty);
	kshim_fuzz_image_unmap(&lr.im);
	return kshim_runtime_exit_checks();
}
