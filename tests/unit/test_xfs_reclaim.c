// SPDX-License-Identifier: GPL-2.0
/*
 * The real mm/vmscan.c reclaiming XFS's page cache: folios added by the
 * real filemap_add_folio() -> folio_add_lru() through iomap's buffered
 * write path, reclaimed by the real direct reclaim that kshim's page
 * allocator runs below the min watermark (kshim/vmscan.h):
 *  - clean folios are freed through iomap's ->release_folio and the real
 *    __remove_mapping(); what is read back afterwards comes from the
 *    device through iomap's read path and is the data written; with
 *    1 KiB blocks each folio carries iomap's per-block state, which
 *    ->release_folio frees first;
 *  - dirty folios are never written by reclaim: XFS has no ->writepage
 *    in 6.12, so even kswapd's pageout() cannot write them (it
 *    reactivates them); direct reclaim marks them for immediate reclaim
 *    and leaves the writing to the flushers. The data survives.
 */
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/swap.h>
#include <linux/mmzone.h>
#include <linux/vmstat.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include <kshim/trace.h>
#include <kshim/vmscan.h>
#include "xfs_fixture.h"
#include "reclaim_pressure.h"

#define FILE_PAGES	256
#define WMARK_MIN	(256UL << 10)
/* Direct reclaim only: kswapd stays out of the way. */
#define GFP_DIRECT_ONLY	(GFP_KERNEL & ~__GFP_KSWAPD_RECLAIM)

static atomic_t direct_writes;

static void on_write_folio(struct folio *folio)
{
	if (!current_is_kswapd())
		atomic_inc(&direct_writes);
}

static u8 pat(loff_t off)
{
	return (u8)(off * 7 + (off >> 12));
}

/* FILE_PAGES pages of the pattern, through the page cache. */
static void write_file(struct file *f)
{
	u8 *buf = vmalloc(FILE_PAGES * PAGE_SIZE);
	loff_t i;

	KSHIM_ASSERT_FATAL(buf != NULL);
	for (i = 0; i < FILE_PAGES * PAGE_SIZE; i++)
		buf[i] = pat(i);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_pwrite(f, buf, FILE_PAGES * PAGE_SIZE, 0, 0),
			      FILE_PAGES * PAGE_SIZE);
	vfree(buf);
}

static void check_file(struct file *f)
{
	u8 *buf = vmalloc(FILE_PAGES * PAGE_SIZE);
	loff_t i, bad = -1;

	KSHIM_ASSERT_FATAL(buf != NULL);
	KSHIM_ASSERT_EQ(kshim_vfs_pread(f, buf, FILE_PAGES * PAGE_SIZE, 0, 0),
			FILE_PAGES * PAGE_SIZE);
	for (i = 0; i < FILE_PAGES * PAGE_SIZE && bad < 0; i++)
		if (buf[i] != pat(i))
			bad = i;
	KSHIM_ASSERT_EQ(bad, -1);
	vfree(buf);
}

/* reclaim_pressure.h: free memory just above min, kswapd asleep. */
static void start_reclaim(void)
{
	atomic_set(&direct_writes, 0);
	reclaim_pressure_start(WMARK_MIN, on_write_folio);
}

static void stop_reclaim(void)
{
	reclaim_pressure_stop();
}

static bool has_private(const struct folio *folio)
{
	return folio_test_private((struct folio *)folio);
}

/*
 * A clean file's folios on an XFS made with MKFS_OPTS: direct reclaim
 * frees them, writing nothing, and the data reads back from the device.
 * PRIVATE: whether its folios carry iomap's per-block state (blocks
 * smaller than a page), which reclaim must release through
 * ->release_folio (iomap_release_folio()) before it can free them.
 */
static void clean_folios_are_freed_and_read_back(const char *mkfs_opts,
						 bool private)
{
	struct xfs_fixture fx = { .dev = &dev_ssd, .mkfs_opts = mkfs_opts };
	struct dentry *root;
	struct file *f;
	unsigned long steal0;

	xfs_fixture_mount_new(&fx);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "f", O_RDWR | O_CREAT, 0644,
					     &f), 0);
	write_file(f);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(f, 0), 0);
	lru_add_drain_all();
	KSHIM_ASSERT_EQ(f->f_mapping->nrpages, FILE_PAGES);
	KSHIM_ASSERT_EQ(reclaim_count_folios(f->f_mapping, has_private),
			private ? FILE_PAGES : 0);
	start_reclaim();
	steal0 = kshim_vm_event_sum(PGSTEAL_DIRECT);
	kfree(kmalloc(2 * PAGE_SIZE, GFP_DIRECT_ONLY));
	stop_reclaim();
	KSHIM_ASSERT(kshim_vm_event_sum(PGSTEAL_DIRECT) - steal0 >=
		     SWAP_CLUSTER_MAX);
	KSHIM_ASSERT(f->f_mapping->nrpages <= FILE_PAGES - SWAP_CLUSTER_MAX);
	KSHIM_ASSERT_EQ(atomic_read(&direct_writes), 0);
	/* The freed folios are read again from the device. */
	check_file(f);
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static void test_clean_xfs_folios_are_freed_and_read_back(void)
{
	clean_folios_are_freed_and_read_back(NULL, false);
}

static void test_clean_folios_of_1k_blocks_are_released_and_freed(void)
{
	clean_folios_are_freed_and_read_back("-b size=1024", true);
}

static void test_dirty_xfs_folios_are_not_written_by_reclaim(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	struct dentry *root;
	struct file *f;
	unsigned long scan0, immediate0, written0;
	int i;

	xfs_fixture_mount_new(&fx);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "f", O_RDWR | O_CREAT, 0644,
					     &f), 0);
	write_file(f);
	lru_add_drain_all();
	start_reclaim();
	scan0 = kshim_vm_event_sum(PGSCAN_DIRECT);
	immediate0 = node_page_state(NODE_DATA(0), NR_VMSCAN_IMMEDIATE);
	written0 = node_page_state(NODE_DATA(0), NR_VMSCAN_WRITE);
	for (i = 0; i < 4; i++)
		kfree(kmalloc(2 * PAGE_SIZE, GFP_DIRECT_ONLY));
	stop_reclaim();
	KSHIM_ASSERT(kshim_vm_event_sum(PGSCAN_DIRECT) - scan0 >=
		     SWAP_CLUSTER_MAX);
	KSHIM_ASSERT(node_page_state(NODE_DATA(0), NR_VMSCAN_IMMEDIATE) -
		     immediate0 > 0);
	/* No ->writepage: nobody in reclaim, kswapd included, wrote one. */
	KSHIM_ASSERT_EQ(atomic_read(&direct_writes), 0);
	KSHIM_ASSERT_EQ(node_page_state(NODE_DATA(0), NR_VMSCAN_WRITE),
			written0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(f, 0), 0);
	check_file(f);
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test xfs_reclaim_tests[] = {
	KSHIM_TEST(test_clean_xfs_folios_are_freed_and_read_back),
	KSHIM_TEST(test_clean_folios_of_1k_blocks_are_released_and_freed),
	KSHIM_TEST(test_dirty_xfs_folios_are_not_written_by_reclaim),
	{ }
};

KSHIM_SUITES({ "xfs_reclaim", NULL, NULL, xfs_reclaim_tests });
