// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario: writeback from page reclaim.
 * ../shared/context/seeds/001_443c692763cd4ab9.txt: Mel Gorman's 2011
 * series "Reduce filesystem writeback from page reclaim" stopped direct
 * reclaim from writing dirty file pages (deep stacks, single-page I/O:
 * "single page writeback from the LRU is almost always a bad flush
 * decision") and left kswapd to write only what the flushers had not
 * cleaned by the time it met it twice; reclaim throttles and wakes the
 * flushers instead. The post measured pages written by reclaim, time
 * stalled in direct reclaim and kswapd's efficiency.
 *
 * Workload (tests/support/reclaim_writeback.h, shared with
 * scenario_reclaim_writeback_xfs.c), on the real mm/vmscan.c
 * (kshim/vmscan.h), the real flusher and dirty throttling: 2 tasks each
 * write an 8 MiB file in 64 KiB writes, dirtying faster than the device
 * (4 ms per I/O, 2 at a time) cleans, while 2 tasks keep replacing
 * allocations of 16 KiB; kswapd in the background. Here on wbfs, whose
 * files have a ->writepage (kshim_wbfs_set_writepage()), the behaviour the
 * post argued about: reclaim could write them if it chose to.
 *
 * Measured: pages written by reclaim (kswapd, direct) against pages the
 * flushers wrote, the flushers' wake-ups by reclaim, allocation stalls
 * and the time in direct reclaim, time slept in reclaim_throttle(),
 * kswapd's reclaimed/scanned ratio, and the dirty and writeback pages
 * over time (JSON reclaim_writeback_wbfs.json, ./kshim plot draws it).
 *
 * Pass/fail criterion: direct reclaim writes no file page (6.12's rule
 * since the series: pageout() only from kswapd), and the run put reclaim
 * to work on dirty pages (stalls or kswapd runs, and dirty folios met at
 * the LRU's tail), or it proves nothing.
 * tests/unit/patches/example-direct-reclaim-writes-dirty-folios.patch
 * lets direct reclaim write them again and must fail it.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/backing-dev.h>
#include <kshim/ktest.h>
#include <kshim/host_disk.h>
#include <kshim/bdev.h>
#include <kshim/wbfs.h>
#include "../support/reclaim_writeback.h"

#define IMG_SIZE	(64ULL << 20)

static char img[128];
static struct inode *files[RW_WRITERS];
static struct reclaim_writeback rw = {
	.fs = "wbfs", .about = "->writepage",
};

static ssize_t wbfs_write(int i, loff_t pos, const void *buf, size_t len)
{
	return kshim_wbfs_write(files[i], pos, buf, len);
}

static void test_reclaim_writeback_wbfs(void)
{
	struct kshim_bdev_config bcfg = {
		.path = img, .queue_depth = RW_QUEUE_DEPTH,
		.latency = { .base_ns = RW_IO_LATENCY_NS },
	};
	struct kshim_bdev *kb;
	struct super_block *sb;
	int i;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	kb = kshim_bdev_open(&bcfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	sb = kshim_wbfs_mount(kb, 64);
	KSHIM_ASSERT_FATAL(!IS_ERR(sb));
	KSHIM_ASSERT_EQ_FATAL(bdi_set_min_ratio(sb->s_bdi, 99), 0);
	for (i = 0; i < RW_WRITERS; i++) {
		files[i] = kshim_wbfs_create(sb, (u64)RW_FILE_MB << 20);
		KSHIM_ASSERT_FATAL(!IS_ERR(files[i]));
		kshim_wbfs_set_writepage(files[i], true);
	}
	rw.write = wbfs_write;
	reclaim_writeback_run(&rw);

	/* The criterion (see the top of the file). */
	rw.pass = true;
	if (rw.direct_writes) {
		rw.pass = false;
		rw.why = "direct reclaim wrote file pages";
	} else if ((!rw.vm.allocstall && !rw.vm.kswapd_runs) || !rw.immediate) {
		rw.pass = false;
		rw.why = "no pressure: reclaim never met dirty pages";
	} else if (rw.write_errors || rw.alloc_errors) {
		rw.pass = false;
		rw.why = "a write or an allocation failed";
	}
	reclaim_writeback_report(&rw);
	KSHIM_ASSERT(rw.pass);

	for (i = 0; i < RW_WRITERS; i++)
		kshim_wbfs_release(files[i]);
	kshim_wbfs_umount(sb);
	kshim_bdev_close(kb);
	kshim_host_image_remove(img);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_reclaim_writeback_wbfs),
	{ }
};

KSHIM_SUITES({ "scenario", NULL, NULL, tests });
