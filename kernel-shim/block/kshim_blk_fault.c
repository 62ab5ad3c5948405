// SPDX-License-Identifier: GPL-2.0
/*
 * What kshim's block device adds around each I/O (kshim/bdev.h): service
 * time from the latency model, injected faults and delays, statistics,
 * and the queue limits the device advertises.
 *
 * Faults are decided at submission, in submission order, from the
 * device's own random stream (seeded from the run's seed), so a
 * deterministic run injects the same faults at the same I/Os every time.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/log2.h>

#include <kshim/bdev.h>
#include <kshim/runtime.h>

#include "kshim_blk.h"

struct kshim_blk_fault {
	struct list_head list;
	int id;
	struct kshim_fault f;
	unsigned long matched, hits;
};

static unsigned int bio_fault_ops(struct bio *bio)
{
	unsigned int ops = (bio->bi_opf & REQ_PREFLUSH) ? KSHIM_FAULT_FLUSH : 0;

	switch (bio_op(bio)) {
	case REQ_OP_READ:
		return ops | KSHIM_FAULT_READ;
	case REQ_OP_DISCARD:
		return ops | KSHIM_FAULT_DISCARD;
	default:
		return ops | (bio_sectors(bio) ? KSHIM_FAULT_WRITE : 0);
	}
}

static bool fault_matches(struct kshim_blk_fault *kf, struct bio *bio)
{
	const struct kshim_fault *f = &kf->f;

	if (!(f->ops & bio_fault_ops(bio)))
		return false;
	if (f->nr_sectors && !(bio->bi_iter.bi_sector < f->start + f->nr_sectors &&
			       f->start < bio_end_sector(bio) + !bio_sectors(bio)))
		return false;
	return true;
}

/* Called with kb->lock held: the I/O's service time; sets *status if a
 * fault fires. */
u64 kshim_blk_service_ns(struct kshim_bdev *kb, struct bio *bio,
			 blk_status_t *status)
{
	const struct kshim_latency *l = &kb->latency;
	struct kshim_blk_fault *kf;
	u64 ns = l->base_ns;

	if (l->jitter_ns)
		ns += kshim_random(&kb->rng) % l->jitter_ns;
	if (l->slow_ppm && kshim_random(&kb->rng) % 1000000 < l->slow_ppm)
		ns += l->slow_ns;

	list_for_each_entry(kf, &kb->faults, list) {
		if (!fault_matches(kf, bio))
			continue;
		kf->matched++;
		if (kf->f.times && kf->hits >= kf->f.times)
			continue;
		if (kf->f.nth && kf->matched != kf->f.nth)
			continue;
		if (kf->f.ppm && kshim_random(&kb->rng) % 1000000 >= kf->f.ppm)
			continue;
		kf->hits++;
		ns += kf->f.delay_ns;
		spin_lock(&kb->stats_lock);
		if (kf->f.delay_ns)
			kb->st.delays_injected++;
		if (kf->f.status != BLK_STS_OK && *status == BLK_STS_OK) {
			*status = kf->f.status;
			kb->st.faults_injected++;
		}
		spin_unlock(&kb->stats_lock);
	}
	return ns;
}

int kshim_bdev_add_fault(struct kshim_bdev *kb, const struct kshim_fault *f)
{
	struct kshim_blk_fault *kf;

	if (!f->ops || (f->ops & ~(KSHIM_FAULT_READ | KSHIM_FAULT_WRITE |
				   KSHIM_FAULT_FLUSH | KSHIM_FAULT_DISCARD))) {
		pr_err("kshim: %s: fault with operation mask %#x: give one or more KSHIM_FAULT_* bits\n",
		       kb->gd->disk_name, f->ops);
		return -EINVAL;
	}
	if (f->ppm > 1000000) {
		pr_err("kshim: %s: fault probability %u ppm is above 1000000\n",
		       kb->gd->disk_name, f->ppm);
		return -EINVAL;
	}
	kf = kzalloc(sizeof(*kf), GFP_KERNEL | __GFP_NOFAIL);
	kf->f = *f;
	spin_lock(&kb->lock);
	kf->id = kb->next_fault_id++;
	list_add_tail(&kf->list, &kb->faults);
	spin_unlock(&kb->lock);
	return kf->id;
}

unsigned long kshim_bdev_fault_hits(struct kshim_bdev *kb, int id)
{
	struct kshim_blk_fault *kf;
	unsigned long hits = 0;

	spin_lock(&kb->lock);
	list_for_each_entry(kf, &kb->faults, list)
		if (kf->id == id)
			hits = kf->hits;
	spin_unlock(&kb->lock);
	return hits;
}

void kshim_blk_clear_faults(struct kshim_bdev *kb)
{
	struct kshim_blk_fault *kf, *tmp;
	LIST_HEAD(gone);

	spin_lock(&kb->lock);
	list_splice_init(&kb->faults, &gone);
	spin_unlock(&kb->lock);
	list_for_each_entry_safe(kf, tmp, &gone, list)
		kfree(kf);
}

void kshim_bdev_clear_faults(struct kshim_bdev *kb)
{
	kshim_blk_clear_faults(kb);
}

/* ---- statistics ------------------------------------------------------------ */

static unsigned int lat_bucket(u64 ns)
{
	unsigned int e;

	if (ns < 8)
		return ns;
	e = ilog2(ns);			/* >= 3 */
	return (e - 2) * 8 + ((ns >> (e - 3)) & 7);
}

/* The largest value in bucket b. */
static u64 lat_bucket_max(unsigned int b)
{
	unsigned int e;

	if (b < 8)
		return b;
	e = b / 8 + 2;
	return ((u64)(8 + b % 8) << (e - 3)) + ((1ULL << (e - 3)) - 1);
}

void kshim_blk_stats_init(struct kshim_bdev *kb)
{
	spin_lock_init(&kb->stats_lock);
	kb->lat_hist = kcalloc(KSHIM_LAT_BUCKETS, sizeof(u64),
			       GFP_KERNEL | __GFP_NOFAIL);
}

void kshim_blk_stats_free(struct kshim_bdev *kb)
{
	kfree(kb->lat_hist);
}

/* The statistics' operation: an empty preflush write is a flush. */
static enum kshim_bdev_op bio_kshim_op(struct bio *bio)
{
	switch (bio_op(bio)) {
	case REQ_OP_READ:
		return KSHIM_OP_READ;
	case REQ_OP_DISCARD:
		return KSHIM_OP_DISCARD;
	default:
		return bio_sectors(bio) ? KSHIM_OP_WRITE : KSHIM_OP_FLUSH;
	}
}

void kshim_blk_account(struct kshim_bdev *kb, struct bio *bio,
		       blk_status_t status, u64 lat_ns)
{
	enum kshim_bdev_op op = bio_kshim_op(bio);

	spin_lock(&kb->stats_lock);
	kb->st.ios[op]++;
	kb->st.bytes[op] += bio->bi_iter.bi_size;
	if (op == KSHIM_OP_WRITE && (bio->bi_opf & REQ_PREFLUSH))
		kb->st.preflushes++;
	if (op == KSHIM_OP_WRITE && (bio->bi_opf & REQ_FUA))
		kb->st.fua_writes++;
	if (status != BLK_STS_OK)
		kb->st.errors++;
	kb->lat_hist[min_t(unsigned int, lat_bucket(lat_ns),
			   KSHIM_LAT_BUCKETS - 1)]++;
	if (lat_ns > kb->st.lat_max_ns)
		kb->st.lat_max_ns = lat_ns;
	spin_unlock(&kb->stats_lock);
}

void kshim_blk_reject(struct kshim_bdev *kb)
{
	spin_lock(&kb->stats_lock);
	kb->st.rejected++;
	spin_unlock(&kb->stats_lock);
}

void kshim_blk_note_depth(struct kshim_bdev *kb, unsigned int depth)
{
	spin_lock(&kb->stats_lock);
	if (depth > kb->st.queue_depth_max)
		kb->st.queue_depth_max = depth;
	spin_unlock(&kb->stats_lock);
}

static u64 lat_percentile(const u64 *hist, u64 total, unsigned int pct)
{
	u64 want = (total * pct + 99) / 100, seen = 0;
	unsigned int b;

	if (!total)
		return 0;
	for (b = 0; b < KSHIM_LAT_BUCKETS; b++) {
		seen += hist[b];
		if (seen >= want)
			return lat_bucket_max(b);
	}
	return lat_bucket_max(KSHIM_LAT_BUCKETS - 1);
}

void kshim_bdev_get_stats(struct kshim_bdev *kb, struct kshim_bdev_stats *st)
{
	u64 total = 0;
	unsigned int b;

	spin_lock(&kb->stats_lock);
	*st = kb->st;
	for (b = 0; b < KSHIM_LAT_BUCKETS; b++)
		total += kb->lat_hist[b];
	st->lat_p50_ns = min(lat_percentile(kb->lat_hist, total, 50), st->lat_max_ns);
	st->lat_p95_ns = min(lat_percentile(kb->lat_hist, total, 95), st->lat_max_ns);
	st->lat_p99_ns = min(lat_percentile(kb->lat_hist, total, 99), st->lat_max_ns);
	spin_unlock(&kb->stats_lock);
}

void kshim_bdev_print_stats(struct kshim_bdev *kb)
{
	static const char *const names[] = { "read", "write", "flush", "discard" };
	struct kshim_bdev_stats st;
	int op;

	kshim_bdev_get_stats(kb, &st);
	kshim_info("%s: I/O statistics\n", kb->gd->disk_name);
	for (op = 0; op < KSHIM_NR_OPS; op++)
		kshim_info("  %-8s %10llu I/Os %14llu bytes\n", names[op],
			   st.ios[op], st.bytes[op]);
	kshim_info("  preflush writes %llu, FUA writes %llu, errors %llu (injected %llu), delays injected %llu, rejected %llu\n",
		   st.preflushes, st.fua_writes, st.errors, st.faults_injected,
		   st.delays_injected, st.rejected);
	kshim_info("  queue depth max %u; latency p50 %llu ns, p95 %llu ns, p99 %llu ns, max %llu ns\n",
		   st.queue_depth_max, st.lat_p50_ns, st.lat_p95_ns,
		   st.lat_p99_ns, st.lat_max_ns);
}

/* ---- limits ---------------------------------------------------------------- */

/*
 * What blk_validate_limits() would leave for a simple bio-based disk
 * with a volatile write cache and FUA. The limits are advertised only:
 * kshim does not split bios to them (block/blk-merge.c is not compiled).
 */
void kshim_blk_limits(struct queue_limits *lim, unsigned int lbs)
{
	memset(lim, 0, sizeof(*lim));
	lim->features = BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA;
	lim->logical_block_size = lbs;
	lim->physical_block_size = lbs;
	lim->io_min = lbs;
	lim->max_hw_sectors = BLK_SAFE_MAX_SECTORS;
	lim->max_sectors = BLK_SAFE_MAX_SECTORS;
	lim->max_dev_sectors = BLK_SAFE_MAX_SECTORS;
	lim->max_user_sectors = BLK_SAFE_MAX_SECTORS;
	lim->max_segments = BLK_MAX_SEGMENTS;
	lim->max_segment_size = BLK_MAX_SEGMENT_SIZE;
	lim->seg_boundary_mask = BLK_SEG_BOUNDARY_MASK;
	lim->max_hw_discard_sectors = UINT_MAX >> SECTOR_SHIFT;
	lim->max_discard_sectors = UINT_MAX >> SECTOR_SHIFT;
	lim->max_discard_segments = 1;
	lim->discard_granularity = lbs;
	lim->dma_alignment = SECTOR_SIZE - 1;
}
