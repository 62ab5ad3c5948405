// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark, not a test: prints figures, fails on nothing but a broken
 * run. Throughput of kshim's block device against raw pwrite() on the
 * same image file, in the same run:
 *  - 4 KiB random writes per second, waited for one at a time (queue
 *    depth 1) and kept 32 deep, plus the flush that writes the cache
 *    back (the device's cost includes the image write, as raw does);
 *  - sequential 1 MiB writes in MB/s, the same way: one pass over the
 *    1 GiB image, and four passes over its first 256 MiB;
 * each on a device that queues every I/O for its completion task (the
 * default) and on one that completes inline (complete_inline).
 * Each device figure is paired with a raw run just before it, rounds
 * times over; the table gives the medians and the range of the ratios,
 * since a shared machine's load drifts within seconds; "by CPU time"
 * is raw's CPU time over the device's (all of the process's threads, so
 * the completion task counts), which other work on the machine moves
 * less than the wall clock. A first round
 * warms the two devices (their write caches' buffers, as the raw side's
 * page cache is warm) and is not counted.
 * The image lives on disk (TMPDIR), not in memory, as a user's would.
 * Run it in the parallel backend: the deterministic one serialises the
 * completion task with the submitter by design.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/kstrtox.h>
#include <linux/string.h>
#include <linux/err.h>
#include <kshim/bdev.h>
#include <kshim/host.h>
#include <kshim/host_disk.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>

#define IMG_SIZE	(1ULL << 30)
#define NR_RANDOM	20000
#define NR_SEQ		1024		/* 1 MiB each: 1 GiB */
#define REWRITE_SPAN	(256ULL << 20)	/* 1 GiB of writes, 4 times over it */
#define ROUNDS		5	/* BENCH_BDEV_ROUNDS=N: up to MAX_ROUNDS */
#define MAX_ROUNDS	21

static int rounds = ROUNDS;

static char img[256];
static atomic_t outstanding;
static DECLARE_WAIT_QUEUE_HEAD(outstanding_wait);

static void bench_end_io(struct bio *bio)
{
	if (atomic_dec_return(&outstanding) == 0)
		wake_up(&outstanding_wait);
	bio_put(bio);
}

/* nr writes of bs bytes from pages, at random or sequential offsets in
 * the first span bytes, depth deep, then a flush: ns. */
static u64 device_writes(struct block_device *bdev, unsigned long bs,
			 unsigned long nr, u64 span, bool random, int depth)
{
	unsigned int nr_pages = bs / PAGE_SIZE, i;
	struct page **pages = kcalloc(nr_pages, sizeof(*pages), GFP_KERNEL);
	u64 nblocks = span / bs, x = 12345, t0;
	unsigned long n;

	for (i = 0; i < nr_pages; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		memset(page_address(pages[i]), 0x5a, PAGE_SIZE);
	}
	t0 = kshim_host_clock_ns();
	for (n = 0; n < nr; n++) {
		struct bio *bio = bio_alloc(bdev, nr_pages, REQ_OP_WRITE, GFP_NOIO);
		u64 blk;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		blk = random ? x % nblocks : n % nblocks;
		bio->bi_iter.bi_sector = blk * (bs >> SECTOR_SHIFT);
		for (i = 0; i < nr_pages; i++)
			__bio_add_page(bio, pages[i], PAGE_SIZE, 0);
		if (depth == 1) {
			if (submit_bio_wait(bio))
				kshim_fatal("bench_bdev: write failed");
			bio_put(bio);
			continue;
		}
		atomic_inc(&outstanding);
		bio->bi_end_io = bench_end_io;
		submit_bio(bio);
	}
	wait_event(outstanding_wait, atomic_read(&outstanding) == 0);
	if (blkdev_issue_flush(bdev))
		kshim_fatal("bench_bdev: flush failed");
	t0 = kshim_host_clock_ns() - t0;
	for (i = 0; i < nr_pages; i++)
		__free_page(pages[i]);
	kfree(pages);
	return t0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 median(u64 *v)
{
	sort(v, rounds, sizeof(*v), cmp_u64, NULL);
	return v[rounds / 2];
}

struct measure {
	const char *what;
	unsigned long bs, nr;
	u64 span;			/* offsets within the first span bytes */
	bool random, complete_inline;
	int depth;
	/* per round: rates (per second), device/raw in per mille by the
	 * wall clock and by the process's CPU time */
	u64 raw[MAX_ROUNDS], dev[MAX_ROUNDS], ratio[MAX_ROUNDS];
	u64 cpu_ratio[MAX_ROUNDS];
	/* writes that found the cache full and went straight to the image
	 * (kshim_host_disk_write_through()), and cached writes such a write
	 * covered and so dropped unwritten, over all counted rounds */
	u64 throughs, drops, writes;
};

static struct kshim_disk_cache_stats cache_stats(struct kshim_bdev *kb)
{
	struct kshim_disk_cache_stats st;

	kshim_host_disk_cache_stats(kshim_bdev_disk(kb), &st);
	return st;
}

/*
 * The sequential writes twice: one pass over 1 GiB (a stream, most of it
 * past the full cache), and 1 GiB four times over its first 256 MiB,
 * where each pass rewrites blocks the cache still holds from the last.
 */
static struct measure measures[] = {
	{ "4 KiB random writes, QD1", 4096, NR_RANDOM, IMG_SIZE, true, false, 1 },
	{ "4 KiB random writes, QD32", 4096, NR_RANDOM, IMG_SIZE, true, false, 32 },
	{ "1 MiB sequential, 1 pass, QD32", 1 << 20, NR_SEQ, IMG_SIZE, false, false, 32 },
	{ "1 MiB sequential, 4 passes", 1 << 20, NR_SEQ, REWRITE_SPAN, false, false, 32 },
	{ "4 KiB random writes, QD1", 4096, NR_RANDOM, IMG_SIZE, true, true, 1 },
	{ "4 KiB random writes, QD32", 4096, NR_RANDOM, IMG_SIZE, true, true, 32 },
	{ "1 MiB sequential, 1 pass, QD32", 1 << 20, NR_SEQ, IMG_SIZE, false, true, 32 },
	{ "1 MiB sequential, 4 passes", 1 << 20, NR_SEQ, REWRITE_SPAN, false, true, 32 },
};

/* round < 0: warming up, not counted. */
static void measure_once(struct kshim_bdev *kb, struct measure *m, int round)
{
	u64 raw_ns, dev_ns, raw_cpu, dev_cpu;
	struct kshim_disk_cache_stats was, st;

	raw_cpu = kshim_host_cpu_ns();
	raw_ns = kshim_host_image_raw_writes(img, m->span, m->bs, m->nr,
					     m->random, 7 + round);
	was = cache_stats(kb);
	dev_cpu = kshim_host_cpu_ns();
	raw_cpu = dev_cpu - raw_cpu;
	dev_ns = device_writes(kshim_bdev_bdev(kb), m->bs, m->nr, m->span,
			       m->random, m->depth);
	dev_cpu = kshim_host_cpu_ns() - dev_cpu;
	st = cache_stats(kb);
	if (round < 0)
		return;
	m->throughs += st.write_throughs - was.write_throughs;
	m->drops += st.superseded_drops - was.superseded_drops;
	m->writes += m->nr;
	m->cpu_ratio[round] = raw_cpu * 1000 / (dev_cpu ? dev_cpu : 1);
	m->raw[round] = m->nr * NSEC_PER_SEC / (raw_ns ? raw_ns : 1);
	m->dev[round] = m->nr * NSEC_PER_SEC / (dev_ns ? dev_ns : 1);
	m->ratio[round] = raw_ns * 1000 / (dev_ns ? dev_ns : 1);
}

static u64 pct(u64 part, u64 whole)
{
	return part * 100 / (whole ? whole : 1);
}

static void report(struct measure *m)
{
	u64 lo = m->ratio[0], hi = m->ratio[0], raw, dev, ratio, cpu;
	const char *how = m->complete_inline ? "inline" : "queued";
	int r;

	for (r = 1; r < rounds; r++) {
		lo = min(lo, m->ratio[r]);
		hi = max(hi, m->ratio[r]);
	}
	raw = median(m->raw);
	dev = median(m->dev);
	ratio = median(m->ratio);
	cpu = median(m->cpu_ratio);
	if (m->bs >= (1 << 20))
		kshim_info("%-30s %s  raw pwrite %6llu MB/s  device %6llu MB/s  device/raw %3llu%% (%llu-%llu%%), by CPU time %3llu%%, %llu%% past a full cache, %llu%% dropped\n",
			   m->what, how, raw * m->bs / 1000000,
			   dev * m->bs / 1000000, ratio / 10, lo / 10, hi / 10,
			   cpu / 10, pct(m->throughs, m->writes),
			   pct(m->drops, m->writes));
	else
		kshim_info("%-30s %s  raw pwrite %8llu/s  device %8llu/s  device/raw %3llu%% (%llu-%llu%%), by CPU time %3llu%%, %llu%% past a full cache, %llu%% dropped\n",
			   m->what, how, raw, dev, ratio / 10, lo / 10, hi / 10,
			   cpu / 10, pct(m->throughs, m->writes),
			   pct(m->drops, m->writes));
}

static void bench_throughput(void)
{
	struct kshim_bdev_config cfg = { .path = img, .queue_depth = 32 };
	/* BENCH_BDEV_ONLY=N...: only the figures numbered (0-7), for a
	 * profile or to see how one figure depends on those run before it. */
	const char *only = kshim_host_getenv("BENCH_BDEV_ONLY");
	const char *nr = kshim_host_getenv("BENCH_BDEV_ROUNDS");
	unsigned int n;
	struct kshim_bdev *kb[2];
	unsigned int i;
	int r;

	/* More rounds: medians that drift less with the host's page cache. */
	if (nr) {
		if (kstrtouint(nr, 10, &n) || !n || n > MAX_ROUNDS) {
			pr_err("bench_bdev: BENCH_BDEV_ROUNDS=%s is not 1 to %d\n",
			       nr, MAX_ROUNDS);
			KSHIM_ASSERT_FATAL(false);
		}
		rounds = n;
	}

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 0), 0);
	/* Warm the file's page cache once, so both sides start alike. */
	kshim_host_image_raw_writes(img, IMG_SIZE, 1 << 20, IMG_SIZE >> 20, 0, 1);
	/* Both on the one image: each measure ends with a flush, which
	 * leaves the other's view of the file current. */
	for (i = 0; i < 2; i++) {
		cfg.complete_inline = i;
		kb[i] = kshim_bdev_open(&cfg);
		KSHIM_ASSERT_FATAL(!IS_ERR(kb[i]));
	}
	for (r = -1; r < rounds; r++)
		for (i = 0; i < ARRAY_SIZE(measures); i++)
			if (!only || strchr(only, '0' + i))
				measure_once(kb[measures[i].complete_inline],
					     &measures[i], r);
	kshim_info("bench_bdev: %s backend, image %llu MiB in %s, %d rounds after one to warm up: median (range) of device/raw, each device run paired with a raw run just before it\n",
		   kshim_sched->name, IMG_SIZE >> 20, img, rounds);
	for (i = 0; i < ARRAY_SIZE(measures); i++)
		report(&measures[i]);
	for (i = 0; i < 2; i++) {
		kshim_bdev_print_stats(kb[i]);
		kshim_bdev_close(kb[i]);
	}
	kshim_host_image_remove(img);
}

static const struct kshim_test bench_tests[] = {
	KSHIM_TEST(bench_throughput),
	{ }
};

KSHIM_SUITES({ "bench_bdev", NULL, NULL, bench_tests });
