// SPDX-License-Identifier: GPL-2.0
/*
 * I/O statistics of kshim's block device (kshim_bdev_get_stats(),
 * kshim_bdev_print_stats()): I/Os and bytes per operation, preflushes,
 * FUA writes, errors, injected faults, the deepest queue, and a latency
 * histogram with 8 sub-buckets per power of two for the percentiles.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/log2.h>

#include <kshim/bdev.h>
#include <kshim/runtime.h>

#include "kshim_blk.h"

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
