// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario: a large file's writeback starved by small-file
 * creation. ../shared/context/seeds/004_6563f4e94b6a22f8.txt: a large
 * file waited an hour while thousands of small files were created,
 * because a slice-exhausted inode went back to b_dirty with a fresh
 * dirtied_when instead of to b_more_io.
 *
 * Workload, on wbfs over a kshim block device (1 ms per I/O, queue depth
 * 8), with the real flusher (fs/fs-writeback.c), dirty throttling and
 * thresholds (mm/page-writeback.c):
 * - CREATORS tasks create small files (1-10 KiB, seeded) continuously,
 *   each pausing 2 ms between files, and keep them;
 * - one task writes a large file of LARGE_MB (4x the background
 *   threshold of 16 MiB; the dirty limit is 48 MiB) in 1 MiB writes.
 * Kernel defaults otherwise: dirty_expire 30 s, dirty_writeback 5 s.
 *
 * Measured (virtual time in the deterministic backend, and real time):
 * the large file's dirty pages over time, its completion time (from its
 * first write until all of it is on the device), its share of the bytes
 * written meanwhile, the small-file create rate, and how many
 * ->writepages passes touched the large file and the small ones.
 *
 * Pass/fail criterion: the large file is on disk within
 *   dirty_expire + 2 x dirty_writeback + 4 x (size / device bandwidth),
 * where the device bandwidth is the large file's own rate of writing
 * once it is being written (size over its sequential-write time at the
 * device's service rate). Reason: once the large file has expired, the
 * flusher owes it a fair share of every pass (b_more_io round robin), so
 * it must finish within a small multiple of its transfer time after one
 * expiry and one flusher period. With the 2006 behaviour each 16 MiB
 * slice waits another 30 s expiry behind the young small files, and the
 * bound is missed by minutes (writeback/patches/0001-...).
 *
 * Output (tests/support/wb_starvation.c, shared with
 * scenario_wb_starvation_xfs, the same workload on XFS): a table on
 * stdout, JSON with the time series to
 * $KSHIM_SCENARIO_OUT/wb_starvation_<regime>.json, for ./kshim plot.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>
#include <linux/backing-dev.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <kshim/ktest.h>
#include <kshim/host_disk.h>
#include <kshim/bdev.h>
#include <kshim/wbfs.h>
#include "../support/wb_starvation.h"

#define CREATORS	4
#define MAX_SMALL	30000
#define CREATE_PAUSE_MS	20
#define IO_LATENCY_NS	(1 * NSEC_PER_MSEC)
#define QUEUE_DEPTH	8
#define GIVE_UP_S	900		/* virtual seconds */

static char img[128];
static struct kshim_bdev *kb;
static struct super_block *sb;
static struct inode *large;
static struct inode **small;

static void write_bytes(struct inode *inode, loff_t pos, const void *buf,
			size_t len)
{
	KSHIM_ASSERT_EQ_FATAL(kshim_wbfs_write(inode, pos, buf, len), len);
}

static void create_small(int i, const void *buf, size_t len)
{
	struct inode *inode = kshim_wbfs_create(sb, len);

	KSHIM_ASSERT_FATAL(!IS_ERR(inode));
	write_bytes(inode, 0, buf, len);
	small[i] = inode;
}

static void write_large(loff_t pos, const void *buf, size_t len)
{
	write_bytes(large, pos, buf, len);
}

static unsigned long large_written(void)
{
	struct kshim_wbfs_inode_stats st;

	kshim_wbfs_get_stats(large, &st);
	return st.pages_written;
}

static unsigned long large_pages;

static bool large_done(void)
{
	return large_written() >= large_pages;
}

static u64 bytes_written(void)
{
	return kshim_wbfs_bytes_written(sb);
}

static int nr_small(void)
{
	int n = 0;

	while (n < MAX_SMALL && small[n])
		n++;
	return n;
}

static void passes(unsigned long *large_passes, unsigned long *small_passes)
{
	struct kshim_wbfs_inode_stats st;
	int n;

	kshim_wbfs_get_stats(large, &st);
	*large_passes = st.writepages_calls;
	*small_passes = 0;
	for (n = nr_small() - 1; n >= 0; n--) {
		kshim_wbfs_get_stats(small[n], &st);
		*small_passes += st.writepages_calls;
	}
}

static const struct wbs_ops ops = {
	.scenario = "wb_starvation", .fs = "wbfs",
	.create_small = create_small, .write_large = write_large,
	.large_written = large_written, .large_done = large_done,
	.bytes_written = bytes_written, .passes = passes,
};

static void run(const struct wbs_regime *r)
{
	struct kshim_bdev_config cfg = {
		.path = img, .queue_depth = QUEUE_DEPTH,
		.latency = { .base_ns = IO_LATENCY_NS },
	};
	/* The device serves QUEUE_DEPTH 1 MiB bios per IO_LATENCY. */
	const struct wbs_params p = {
		.creators = CREATORS, .max_small = MAX_SMALL,
		.pause_ms = CREATE_PAUSE_MS,
		.expire_cs = 3000, .period_cs = 500,
		.transfer_ms = (u64)r->large_mb * IO_LATENCY_NS / QUEUE_DEPTH /
			       NSEC_PER_MSEC,
		.give_up_s = GIVE_UP_S,
	};
	bool pass;
	int n;

	large_pages = r->large_mb << (20 - PAGE_SHIFT);
	small = vzalloc(sizeof(*small) * MAX_SMALL);
	KSHIM_ASSERT_FATAL(small);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      1ULL << 30, 1), 0);
	kb = kshim_bdev_open(&cfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	sb = kshim_wbfs_mount(kb, MAX_SMALL + 16);
	KSHIM_ASSERT_FATAL(!IS_ERR(sb));
	/* The only disk gets the whole dirty budget from the start (a new
	 * bdi's share is 0 until its first writeouts; see test_writeback). */
	KSHIM_ASSERT_EQ_FATAL(bdi_set_min_ratio(sb->s_bdi, 99), 0);
	/* Kernel defaults: dirty_expire 30 s, dirty_writeback 5 s. */
	wbs_set_thresholds(r, p.expire_cs, p.period_cs);

	large = kshim_wbfs_create(sb, (u64)r->large_mb << 20);
	KSHIM_ASSERT_FATAL(!IS_ERR(large));
	pass = wbs_run(&ops, r, &p, NULL);
	KSHIM_ASSERT_EQ(large_written(), large_pages);
	KSHIM_ASSERT(pass);

	kshim_wbfs_release(large);
	for (n = nr_small() - 1; n >= 0; n--)
		kshim_wbfs_release(small[n]);
	kshim_wbfs_umount(sb);
	kshim_bdev_close(kb);
	kshim_host_image_remove(img);
	vfree(small);
}

/* The large file is 4x the background threshold: background writeback
 * (which ignores expiry) writes it. */
static void scenario_background(void)
{
	static const struct wbs_regime r = { "background", 16, 48, 64 };

	run(&r);
}

/* The large file stays below the background threshold, as in the
 * report: only the periodic kupdate writeback, which honours
 * dirty_expire, writes it. */
static void scenario_kupdate(void)
{
	static const struct wbs_regime r = { "kupdate", 160, 240, 64 };

	run(&r);
}

static const struct kshim_test scenario_tests[] = {
	KSHIM_TEST(scenario_background),
	KSHIM_TEST(scenario_kupdate),
	{ }
};

KSHIM_SUITES({ "wb_starvation", NULL, NULL, scenario_tests });
