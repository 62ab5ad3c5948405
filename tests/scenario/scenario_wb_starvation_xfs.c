// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario: seed 004 on XFS. ../shared/context/seeds/004_6563f4e94b6a22f8.txt:
 * on XFS, a 4 GB dd (bs=1024k) waited an hour to reach the disk while
 * postmark threads created 1-10 KiB files at thousands a second, because
 * the writeback code put a large inode whose slice ran out back on the
 * dirty list with a fresh dirtied_when, behind every young small file.
 * scenario_wb_starvation runs the same workload on wbfs; this runs it on
 * XFS through kshim/vfs.h only, with XFS's own writeback:
 * the real flusher (fs/fs-writeback.c) -> xfs_vm_writepages() ->
 * iomap_writepages() -> bios on the kshim device -> xfs_end_io(),
 * delayed allocation converted to real extents at writeback
 * (xfs_map_blocks() -> xfs_bmapi_convert_delalloc()), small files' sizes
 * logged at I/O completion.
 *
 * Workload, on a fresh XFS image (mkfs.xfs defaults) over a kshim
 * device taking 1 ms per I/O, kernel dirty thresholds set per regime:
 * - CREATORS tasks create small files (open O_CREAT|O_EXCL, one
 *   buffered pwrite of 1-10 KiB, seeded, close; kept) in 16
 *   directories, each pausing a few milliseconds between files;
 * - one task opens the large file and writes it with buffered 1 MiB
 *   pwrites, as the report's dd did.
 * Two regimes, as for wbfs:
 * - kupdate: the large file and the small ones stay below the
 *   background threshold, as in the report: only the periodic
 *   (kupdate) writeback, which honours dirty_expire, writes the file;
 * - background: the file is 4x the background threshold: background
 *   writeback (which ignores expiry) writes it while the writer is
 *   throttled by the real balance_dirty_pages().
 *
 * Measured (tests/support/wb_starvation.c, shared with the wbfs
 * scenario; virtual time in the deterministic backend, and real time):
 * the large file's dirty and written pages over time, its completion
 * time (first write until nothing of it is dirty or under writeback:
 * every bio completed), its share of all bytes written to the device
 * meanwhile (data, metadata and log), the small-file create rate, and
 * how many ->writepages passes touched the large file and the small
 * ones. The pages written and the passes are counted at
 * iomap_writepages(), which the linker wraps (meson.build: --wrap; the
 * pages are the wbc->nr_to_write that XFS's writepages used up).
 *
 * Pass/fail criterion, as for wbfs: the large file is on the device
 * within dirty_expire + 2 x dirty_writeback + 4 x its transfer time
 * (1 MiB bios, 64 in flight, 1 ms each). Reason: once the large file has
 * expired, the flusher owes it a share of every kupdate pass (an inode
 * whose slice ran out goes to b_more_io and is served again in the same
 * pass), so it is written within one flusher period after it expires,
 * plus a period of slack and its transfer time. With
 * writeback/patches/0001-writeback-requeue-slice-to-b_dirty.patch (the
 * 2006 behaviour) each slice goes back to b_dirty with a fresh
 * dirtied_when and waits another whole expiry, so the kupdate regime
 * misses the bound by about one expiry per remaining slice. The
 * background regime writes every inode dirtied before "now", so it
 * passes with and without the patch (as on wbfs).
 *
 * Size: the default run is seed 004 scaled down in time, to keep the
 * default ./kshim test within its budget (both regimes take about 2 s
 * of real time on the 2-core machine): a 32 MiB large file,
 * dirty_expire 5 s, dirty_writeback 1 s (7 s bound), thresholds such
 * that the file takes two kupdate slices (writeback_chunk_size(): a
 * share of the dirty limit), so that the patched run waits one more
 * expiry for the second (5.0 s, and 10.1 s patched, at seed 4).
 * KSHIM_WB_XFS_FULL=1 runs the kernel's defaults (dirty_expire 30 s,
 * dirty_writeback 5 s: a 40 s bound) with a 128 MiB file in three
 * slices, thresholds doubled: at 500 creates/s, 30 s of small files
 * (1-3 pages each) dirty about 140 MiB, which with the wbfs scenario's
 * 160 MiB background threshold would start background writeback before
 * the file expired. It takes 15-35 s of real time.
 *
 * Output: a table on stdout, JSON with the time series to
 * $KSHIM_SCENARIO_OUT/wb_starvation_xfs_<regime>.json, for ./kshim plot.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>
#include <linux/backing-dev.h>
#include <linux/iomap.h>
#include <linux/slab.h>
#include <kshim/ktest.h>
#include <kshim/host.h>
#include <kshim/bdev.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"
#include "wb_starvation.h"

#define CREATORS	4
#define MAX_SMALL	30000
#define CREATE_PAUSE_MS	5		/* "every few milliseconds" */
#define NR_DIRS		16
#define IO_LATENCY_NS	(1 * NSEC_PER_MSEC)
#define QUEUE_DEPTH	64		/* the kshim device's default */
#define GIVE_UP_S	600		/* virtual seconds */

static const struct dev_profile dev_disk_1ms = {
	.name = "1ms", .latency = { .base_ns = IO_LATENCY_NS },
};

static struct {
	struct xfs_fixture *fx;
	struct dentry *dirs[NR_DIRS];
	struct file *large;
	struct address_space *large_mapping;
	atomic64_t large_pages_written, large_passes, small_passes;
} x;

/*
 * XFS's ->writepages, xfs_vm_writepages(), calls iomap_writepages();
 * the linker sends that call here (meson.build: --wrap). What
 * writeback_iter() took from wbc->nr_to_write is what this call put
 * under writeback.
 */
int __real_iomap_writepages(struct address_space *mapping,
			    struct writeback_control *wbc,
			    struct iomap_writepage_ctx *wpc,
			    const struct iomap_writeback_ops *ops);
int __wrap_iomap_writepages(struct address_space *mapping,
			    struct writeback_control *wbc,
			    struct iomap_writepage_ctx *wpc,
			    const struct iomap_writeback_ops *ops);

int __wrap_iomap_writepages(struct address_space *mapping,
			    struct writeback_control *wbc,
			    struct iomap_writepage_ctx *wpc,
			    const struct iomap_writeback_ops *ops)
{
	long before = wbc->nr_to_write;
	int ret = __real_iomap_writepages(mapping, wbc, wpc, ops);

	if (mapping == READ_ONCE(x.large_mapping)) {
		atomic64_add(before - wbc->nr_to_write,
			     &x.large_pages_written);
		atomic64_inc(&x.large_passes);
	} else {
		atomic64_inc(&x.small_passes);
	}
	return ret;
}

static void create_small(int i, const void *buf, size_t len)
{
	struct file *f;
	char name[16];

	snprintf(name, sizeof(name), "s%d", i);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(x.dirs[i % NR_DIRS], name,
			O_WRONLY | O_CREAT | O_EXCL, 0644, &f), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_pwrite(f, buf, len, 0, 0),
			      (ssize_t)len);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_close(f), 0);
}

static void write_large(loff_t pos, const void *buf, size_t len)
{
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_pwrite(x.large, buf, len, pos, 0),
			      (ssize_t)len);
}

static unsigned long large_written(void)
{
	return atomic64_read(&x.large_pages_written);
}

/* Nothing of it dirty, nothing under writeback: every bio completed. */
static bool large_done(void)
{
	return !mapping_tagged(x.large_mapping, PAGECACHE_TAG_DIRTY) &&
	       !mapping_tagged(x.large_mapping, PAGECACHE_TAG_WRITEBACK);
}

static u64 bytes_written(void)
{
	struct kshim_bdev_stats st;

	kshim_bdev_get_stats(kshim_xfs_data_bdev(x.fx->x), &st);
	return st.bytes[KSHIM_OP_WRITE];
}

static void passes(unsigned long *large_passes, unsigned long *small_passes)
{
	*large_passes = atomic64_read(&x.large_passes);
	*small_passes = atomic64_read(&x.small_passes);
}

static const struct wbs_ops ops = {
	.scenario = "wb_starvation_xfs", .fs = "XFS",
	.create_small = create_small, .write_large = write_large,
	.large_written = large_written, .large_done = large_done,
	.bytes_written = bytes_written, .passes = passes,
};

static bool full_size(void)
{
	const char *v = kshim_host_getenv("KSHIM_WB_XFS_FULL");

	return v && strcmp(v, "0");
}

static void run(const struct wbs_regime *r)
{
	const bool full = full_size();
	struct xfs_fixture fx = {
		.size = full ? 1ULL << 30 : 256ULL << 20,
		.dev = &dev_disk_1ms,
	};
	const struct wbs_params p = {
		.creators = CREATORS, .max_small = MAX_SMALL,
		.pause_ms = CREATE_PAUSE_MS,
		.expire_cs = full ? 3000 : 500,
		.period_cs = full ? 500 : 100,
		.transfer_ms = (u64)r->large_mb * IO_LATENCY_NS / QUEUE_DEPTH /
			       NSEC_PER_MSEC,
		.give_up_s = GIVE_UP_S,
	};
	struct dentry *root;
	unsigned long large_pages = r->large_mb << (20 - PAGE_SHIFT);
	char name[16];
	bool pass;
	int i;

	memset(&x, 0, sizeof(x));
	x.fx = &fx;
	xfs_fixture_mount_new(&fx);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	for (i = 0; i < NR_DIRS; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		KSHIM_ASSERT_EQ_FATAL(kshim_vfs_mkdir(root, name, 0755,
						      &x.dirs[i]), 0);
	}
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "large", O_WRONLY |
					     O_CREAT | O_EXCL, 0644,
					     &x.large), 0);
	/* The set-up's metadata on the device first: the flusher starts
	 * from nothing dirty. */
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);
	/* The only disk gets the whole dirty budget from the start (a new
	 * bdi's share is 0 until its first writeouts; see test_writeback). */
	KSHIM_ASSERT_EQ_FATAL(bdi_set_min_ratio(kshim_xfs_sb(fx.x)->s_bdi,
						99), 0);
	wbs_set_thresholds(r, p.expire_cs, p.period_cs);
	WRITE_ONCE(x.large_mapping, x.large->f_mapping);

	pass = wbs_run(&ops, r, &p, NULL);
	KSHIM_ASSERT(large_written() >= large_pages);
	KSHIM_ASSERT(pass);

	WRITE_ONCE(x.large_mapping, NULL);
	KSHIM_ASSERT_EQ(kshim_vfs_close(x.large), 0);
	for (i = 0; i < NR_DIRS; i++)
		kshim_vfs_put(x.dirs[i]);
	kshim_vfs_put(root);
	/* Writes back the small files left, then xfs_repair -n. */
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* Below the background threshold, as in the report: kupdate only. */
static void scenario_kupdate(void)
{
	static const struct wbs_regime full = { "kupdate", 320, 480, 128 };
	static const struct wbs_regime small = { "kupdate", 80, 120, 32 };

	run(full_size() ? &full : &small);
}

/* 4x the background threshold: background writeback writes it. */
static void scenario_background(void)
{
	static const struct wbs_regime full = { "background", 32, 96, 128 };
	static const struct wbs_regime small = { "background", 8, 24, 32 };

	run(full_size() ? &full : &small);
}

static const struct kshim_test scenario_tests[] = {
	KSHIM_TEST(scenario_background),
	KSHIM_TEST(scenario_kupdate),
	{ }
};

KSHIM_SUITES({ "wb_starvation_xfs", NULL, NULL, scenario_tests });
