// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark, not a test: prints figures, fails on nothing but a broken
 * run. Throughput of kshim's block device against raw pwrite() on the
 * same image file, in the same run:
 *  - 4 KiB random writes per second, waited for one at a time (queue
 *    depth 1) and kept 32 deep, plus the flush that writes the cache
 *    back (the device's cost includes the image write, as raw does);
 *  - sequential 1 MiB writes in MB/s, the same way.
 * The image lives on disk (TMPDIR), not in memory, as a user's would.
 * Run it in the parallel backend: the deterministic one serialises the
 * completion task with the submitter by design.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/err.h>
#include <kshim/bdev.h>
#include <kshim/host.h>
#include <kshim/host_disk.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>

#define IMG_SIZE	(256ULL << 20)
#define NR_RANDOM	50000
#define NR_SEQ		256		/* 1 MiB each: 256 MiB */

static char img[256];
static atomic_t outstanding;
static DECLARE_WAIT_QUEUE_HEAD(outstanding_wait);

static void bench_end_io(struct bio *bio)
{
	if (atomic_dec_return(&outstanding) == 0)
		wake_up(&outstanding_wait);
	bio_put(bio);
}

/* nr writes of bs bytes from pages, at random or sequential offsets,
 * depth deep, then a flush: ns. */
static u64 device_writes(struct block_device *bdev, unsigned long bs,
			 unsigned long nr, bool random, int depth)
{
	unsigned int nr_pages = bs / PAGE_SIZE, i;
	struct page **pages = kcalloc(nr_pages, sizeof(*pages), GFP_KERNEL);
	u64 nblocks = IMG_SIZE / bs, x = 12345, t0;
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

static void report(const char *what, unsigned long nr, unsigned long bs,
		   u64 raw_ns, u64 dev_ns)
{
	u64 raw_rate = nr * NSEC_PER_SEC / (raw_ns ? raw_ns : 1);
	u64 dev_rate = nr * NSEC_PER_SEC / (dev_ns ? dev_ns : 1);

	if (bs >= (1 << 20))
		kshim_info("%-34s raw pwrite %6llu MB/s   device %6llu MB/s   device/raw %3llu%%\n",
			   what, raw_rate * bs / 1000000, dev_rate * bs / 1000000,
			   dev_rate * 100 / (raw_rate ? raw_rate : 1));
	else
		kshim_info("%-34s raw pwrite %8llu/s   device %8llu/s   device/raw %3llu%%\n",
			   what, raw_rate, dev_rate,
			   dev_rate * 100 / (raw_rate ? raw_rate : 1));
}

static void bench_throughput(void)
{
	struct kshim_bdev_config cfg = { .path = img, .queue_depth = 32 };
	struct kshim_bdev *kb;
	u64 raw_rand, raw_seq, qd1, qd32, seq;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 0), 0);
	/* Warm the file's page cache once, so both sides start alike. */
	kshim_host_image_raw_writes(img, IMG_SIZE, 1 << 20, NR_SEQ, 0, 1);
	kb = kshim_bdev_open(&cfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	raw_rand = kshim_host_image_raw_writes(img, IMG_SIZE, 4096, NR_RANDOM, 1, 7);
	qd1 = device_writes(kshim_bdev_bdev(kb), 4096, NR_RANDOM, true, 1);
	qd32 = device_writes(kshim_bdev_bdev(kb), 4096, NR_RANDOM, true, 32);
	raw_seq = kshim_host_image_raw_writes(img, IMG_SIZE, 1 << 20, NR_SEQ, 0, 1);
	seq = device_writes(kshim_bdev_bdev(kb), 1 << 20, NR_SEQ, false, 32);
	kshim_info("bench_bdev: %s backend, image %llu MiB in %s\n", kshim_sched->name,
		   IMG_SIZE >> 20, img);
	report("4 KiB random writes, QD1", NR_RANDOM, 4096, raw_rand, qd1);
	report("4 KiB random writes, QD32", NR_RANDOM, 4096, raw_rand, qd32);
	report("1 MiB sequential writes, QD32", NR_SEQ, 1 << 20, raw_seq, seq);
	kshim_bdev_print_stats(kb);
	kshim_bdev_close(kb);
	kshim_host_image_remove(img);
}

static const struct kshim_test bench_tests[] = {
	KSHIM_TEST(bench_throughput),
	{ }
};

KSHIM_SUITES({ "bench_bdev", NULL, NULL, bench_tests });
