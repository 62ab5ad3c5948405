// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario: writeback from page reclaim, on XFS.
 * ../shared/context/seeds/001_443c692763cd4ab9.txt: the same post as
 * scenario_reclaim_writeback.c (Mel Gorman's 2011 series "Reduce
 * filesystem writeback from page reclaim"), whose testing came from the
 * XFS developers ("there is still too much I/O from the end of the LRU in
 * kswapd"; "xfs tries to write it back if the requester is kswapd").
 * Since then XFS gave up ->writepage altogether (6.12's xfs_aops has only
 * ->writepages): reclaim cannot write an XFS page at all. pageout()
 * finds no ->writepage and reactivates the folio (PAGE_ACTIVATE), and
 * what reclaim is left with is the series' other half: mark the dirty
 * folios for immediate reclaim, wake the flushers
 * (wakeup_flusher_threads(WB_REASON_VMSCAN), when every dirty folio it
 * took off the LRU was not yet queued for I/O) and throttle.
 *
 * Workload: tests/support/reclaim_writeback.h, the same as on wbfs (2
 * tasks each write an 8 MiB file in 64 KiB writes, through the real
 * iomap buffered write path (kshim_vfs_pwrite()), to a device of 4 ms
 * per I/O, 2 at a time; dirty_ratio 50, dirty_background_ratio 25; 2
 * tasks keep replacing 16 KiB allocations; kswapd in the background, in a
 * memory of what is in use after the mount plus 8 MiB). The same figures
 * as on wbfs, in reclaim_writeback_xfs.json.
 *
 * Pass/fail criterion: reclaim writes no XFS page, kswapd included
 * (mm_vmscan_write_folio never fires, NR_VMSCAN_WRITE does not move:
 * without ->writepage, a page written from the LRU's tail could only be
 * the single-page I/O the post called "almost always a bad flush
 * decision"); reclaim met dirty folios (NR_VMSCAN_IMMEDIATE) and, having
 * found them not queued for I/O, woke the flushers at least once, which
 * is how it gets them cleaned instead; no write or allocation failed.
 * tests/unit/patches/example-reclaim-does-not-wake-flushers.patch takes
 * the wake-up out of shrink_inactive_list() and must fail it.
 * (example-direct-reclaim-writes-dirty-folios.patch, which fails the wbfs
 * run, cannot fail this one: there is no ->writepage to call. It still
 * changes what reclaim does with the dirty folios it meets, and so the
 * figures: docs/measurements.md.)
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <kshim/ktest.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"
#include "../support/reclaim_writeback.h"

static const struct dev_profile dev_4ms = {
	.name = "4ms", .latency = { .base_ns = RW_IO_LATENCY_NS },
};

static struct file *files[RW_WRITERS];
static struct reclaim_writeback rw = {
	.fs = "xfs", .about = "no ->writepage",
};

static ssize_t xfs_write(int i, loff_t pos, const void *buf, size_t len)
{
	return kshim_vfs_pwrite(files[i], buf, len, pos, 0);
}

static void test_reclaim_writeback_xfs(void)
{
	struct xfs_fixture fx = { .dev = &dev_4ms, .size = 128ULL << 20 };
	struct dentry *root;
	char name[16];
	int i;

	xfs_fixture_mkfs(&fx);
	fx.cfg.queue_depth = RW_QUEUE_DEPTH;
	xfs_fixture_mount(&fx);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	for (i = 0; i < RW_WRITERS; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, name,
					O_RDWR | O_CREAT, 0644, &files[i]), 0);
	}
	rw.write = xfs_write;
	reclaim_writeback_run(&rw);

	/* The criterion (see the top of the file). */
	rw.pass = true;
	if (rw.direct_writes || rw.kswapd_writes || rw.vmscan_write) {
		rw.pass = false;
		rw.why = "reclaim wrote XFS pages";
	} else if ((!rw.vm.allocstall && !rw.vm.kswapd_runs) || !rw.immediate) {
		rw.pass = false;
		rw.why = "no pressure: reclaim never met dirty pages";
	} else if (!rw.flusher_wakeups) {
		rw.pass = false;
		rw.why = "reclaim met dirty pages and never woke the flushers";
	} else if (rw.write_errors || rw.alloc_errors) {
		rw.pass = false;
		rw.why = "a write or an allocation failed";
	}
	reclaim_writeback_report(&rw);
	KSHIM_ASSERT(rw.pass);

	for (i = 0; i < RW_WRITERS; i++) {
		KSHIM_ASSERT_EQ(kshim_vfs_fsync(files[i], 0), 0);
		KSHIM_ASSERT_EQ(kshim_vfs_close(files[i]), 0);
	}
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_reclaim_writeback_xfs),
	{ }
};

KSHIM_SUITES({ "scenario", NULL, NULL, tests });
