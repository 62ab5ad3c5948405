// SPDX-License-Identifier: GPL-2.0
/*
 * The real mm/vmscan.c reclaiming page-cache folios: wbfs files whose
 * folios the real filemap_add_folio() -> folio_add_lru() put on the
 * node's file LRUs, reclaimed by the real direct reclaim
 * (try_to_free_pages() -> shrink_node() -> shrink_lruvec() ->
 * shrink_folio_list()) that kshim's page allocator runs below the min
 * watermark (kshim/vmscan.h). What a maintainer of reclaim relies on:
 *  - clean folios are isolated and freed (__remove_mapping());
 *  - direct reclaim never writes a dirty file folio, even through a
 *    ->writepage: since "mm: vmscan: do not writeback filesystem pages in
 *    direct reclaim" (the 2011 series of seed 001) only kswapd calls
 *    pageout(); a dirty folio is marked for immediate reclaim instead;
 *  - a folio under writeback is not freed;
 *  - a task throttled on writeback (reclaim_throttle()) is woken when
 *    enough writeback completes, before its timeout;
 *  - each throttle reason sleeps its own time, and kernel threads
 *    (workqueue workers) are never throttled: reclaim may need them;
 *  - reclaim wakes the flushers only when every folio it took was dirty
 *    and not yet queued for writeback, and kswapd then writes such
 *    folios itself, the last resort when the flushers fall behind;
 *  - reclaimed folios leave shadow entries (refault detection), folios
 *    an invalidation drops leave none;
 *  - use-once: a folio read once is reclaimed as an untouched one, a
 *    folio read twice is activated and kept;
 *  - with too many folios isolated by others, a reclaimer waits once,
 *    then backs off without scanning;
 *  - when all it meets is under writeback, kswapd stalls on writeback
 *    and tags the node congested, which stalls direct reclaimers too;
 *    dirty folios nobody queued are not congestion;
 *  - kswapd's writes to a slow device: nothing freed under writeback,
 *    nothing left locked.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>
#include <linux/backing-dev.h>
#include <linux/mmzone.h>
#include <linux/swap.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <linux/delay.h>
#include <linux/workqueue.h>
#include <linux/sched.h>
#include <linux/vmstat.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>
#include <kshim/host.h>
#include <kshim/bdev.h>
#include <kshim/wbfs.h>
#include <kshim/sysctl.h>
#include <kshim/trace.h>
#include <kshim/runtime.h>
#include <kshim/vmscan.h>

#include "internal.h"		/* the real mm/internal.h: reclaim_throttle() */
#include "../support/reclaim_pressure.h"

#define IMG_SIZE	(64ULL << 20)
#define FILE_PAGES	256
#define WMARK_MIN	(256UL << 10)
#define CHUNK		PAGE_SIZE
/* Direct reclaim only: kswapd stays out of the way. */
#define GFP_DIRECT_ONLY	(GFP_KERNEL & ~__GFP_KSWAPD_RECLAIM)

static char img[128];
static struct kshim_bdev *kb;
static struct super_block *sb;
static atomic_t direct_writes, kswapd_writes;
/* Writes reclaim made while the node was tagged congested. */
static atomic_t writes_while_congested;
/* wakeup_flusher_threads(WB_REASON_VMSCAN) calls (the link wraps it). */
static atomic_t vmscan_flusher_wakeups;

void __real_wakeup_flusher_threads(enum wb_reason reason);
void __wrap_wakeup_flusher_threads(enum wb_reason reason)
{
	if (reason == WB_REASON_VMSCAN)
		atomic_inc(&vmscan_flusher_wakeups);
	__real_wakeup_flusher_threads(reason);
}

/* INLINE: a device that completes each write before submit_bio()
 * returns, as a RAM disk does (complete_inline). */
static void setup_device(bool inline_completion)
{
	struct kshim_bdev_config cfg = {
		.path = img, .complete_inline = inline_completion,
	};

	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_background_ratio", "10"), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_ratio", "20"), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	kb = kshim_bdev_open(&cfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	sb = kshim_wbfs_mount(kb, 64);
	KSHIM_ASSERT_FATAL(!IS_ERR(sb));
	/* See test_writeback.c: the only disk gets the whole dirty limit. */
	KSHIM_ASSERT_EQ_FATAL(bdi_set_min_ratio(sb->s_bdi, 99), 0);
	atomic_set(&direct_writes, 0);
	atomic_set(&kswapd_writes, 0);
	atomic_set(&writes_while_congested, 0);
	atomic_set(&vmscan_flusher_wakeups, 0);
}

static void setup(void)
{
	setup_device(false);
}

static void teardown(void)
{
	kshim_wbfs_umount(sb);
	kshim_bdev_close(kb);
	kshim_host_image_remove(img);
}

/* mm_vmscan_write_folio: pageout() wrote a folio; who did, and whether
 * an earlier pass had found the node congested. */
static void on_write_folio(struct folio *folio)
{
	struct lruvec *lruvec = mem_cgroup_lruvec(NULL, folio_pgdat(folio));

	atomic_inc(current_is_kswapd() ? &kswapd_writes : &direct_writes);
	if (test_bit(LRUVEC_NODE_CONGESTED, &lruvec->flags))
		atomic_inc(&writes_while_congested);
}

/* A file of FILE_PAGES pages written through the page cache, its folios
 * on the LRU lists (the per-CPU add batches drained). */
static struct inode *new_file(bool writepage, bool clean)
{
	struct inode *inode = kshim_wbfs_create(sb, FILE_PAGES * PAGE_SIZE);
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	int i;

	KSHIM_ASSERT_FATAL(!IS_ERR(inode) && buf);
	kshim_wbfs_set_writepage(inode, writepage);
	for (i = 0; i < FILE_PAGES; i++) {
		memset(buf, i, PAGE_SIZE);
		KSHIM_ASSERT_EQ_FATAL(kshim_wbfs_write(inode, (loff_t)i * PAGE_SIZE,
						       buf, PAGE_SIZE), PAGE_SIZE);
	}
	kfree(buf);
	if (clean)
		KSHIM_ASSERT_EQ_FATAL(filemap_write_and_wait(inode->i_mapping), 0);
	lru_add_drain_all();
	KSHIM_ASSERT_EQ(inode->i_mapping->nrpages, FILE_PAGES);
	return inode;
}

/* The file's folios for which TEST holds (PG_writeback, PG_reclaim). */
static unsigned long count_folios(struct inode *inode,
				  bool (*test)(const struct folio *))
{
	return reclaim_count_folios(inode->i_mapping, test);
}

static bool is_reclaim(const struct folio *f)
{
	return folio_test_reclaim((struct folio *)f);
}

static bool is_writeback(const struct folio *f)
{
	return folio_test_writeback((struct folio *)f);
}

/* reclaim_pressure.h: free memory just above min, kswapd asleep. */
static void start_reclaim(void)
{
	reclaim_pressure_start(WMARK_MIN, on_write_folio);
}

static void stop_reclaim(void)
{
	reclaim_pressure_stop();
}

static unsigned long node_stat(enum node_stat_item item)
{
	return node_page_state(NODE_DATA(0), item);
}

static void test_direct_reclaim_frees_clean_file_folios(void)
{
	struct kshim_vmscan_stats st;
	struct inode *inode;
	unsigned long steal0, written0;

	setup();
	inode = new_file(false, true);
	start_reclaim();
	steal0 = kshim_vm_event_sum(PGSTEAL_DIRECT);
	written0 = node_stat(NR_VMSCAN_WRITE);
	kfree(kmalloc(2 * CHUNK, GFP_DIRECT_ONLY));
	kshim_vmscan_get_stats(&st);
	stop_reclaim();
	/* One stall; it took SWAP_CLUSTER_MAX clean folios off the LRU and
	 * out of the page cache, writing nothing. */
	KSHIM_ASSERT_EQ(st.allocstall, 1);
	KSHIM_ASSERT(st.direct_freed >= SWAP_CLUSTER_MAX);
	KSHIM_ASSERT(kshim_vm_event_sum(PGSTEAL_DIRECT) - steal0 >=
		     SWAP_CLUSTER_MAX);
	KSHIM_ASSERT(inode->i_mapping->nrpages <= FILE_PAGES - SWAP_CLUSTER_MAX);
	KSHIM_ASSERT_EQ(node_stat(NR_VMSCAN_WRITE), written0);
	KSHIM_ASSERT_EQ(st.below_min_after_reclaim, 0);
	/* Nothing dirty was met: no reason to wake the flushers. */
	KSHIM_ASSERT_EQ(atomic_read(&vmscan_flusher_wakeups), 0);
	kshim_wbfs_release(inode);
	teardown();
}

static void test_direct_reclaim_never_writes_a_dirty_folio(void)
{
	struct kshim_vmscan_stats st;
	struct inode *inode;
	unsigned long scan0, written0, immediate0;
	int i;

	setup();
	/* With a ->writepage: pageout() could write these if it were called. */
	inode = new_file(true, false);
	/*
	 * Hold the flushers off, so that reclaim meets the same dirty folios
	 * again (PG_reclaim set): what it does with them then is the test.
	 * Reclaim wakes the flushers (wakeup_flusher_threads(WB_REASON_VMSCAN))
	 * through wb_start_writeback(), which queues nothing while
	 * WB_start_all is set; no periodic writeback either.
	 */
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_writeback_centisecs", "0"), 0);
	set_bit(WB_start_all, &sb->s_bdi->wb.state);
	start_reclaim();
	scan0 = kshim_vm_event_sum(PGSCAN_DIRECT);
	written0 = node_stat(NR_VMSCAN_WRITE);
	immediate0 = node_stat(NR_VMSCAN_IMMEDIATE);
	/* Several stalls: a folio seen again with PG_reclaim set is the one
	 * kswapd would write. */
	for (i = 0; i < 4; i++)
		kfree(kmalloc(2 * CHUNK, GFP_DIRECT_ONLY));
	kshim_vmscan_get_stats(&st);
	stop_reclaim();
	clear_bit(WB_start_all, &sb->s_bdi->wb.state);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_writeback_centisecs", "500"), 0);
	KSHIM_ASSERT(st.allocstall >= 1);
	/* Reclaim met the dirty folios... */
	KSHIM_ASSERT(kshim_vm_event_sum(PGSCAN_DIRECT) - scan0 >=
		     SWAP_CLUSTER_MAX);
	/* ...marked them for immediate reclaim once written back... */
	KSHIM_ASSERT(node_stat(NR_VMSCAN_IMMEDIATE) - immediate0 >=
		     SWAP_CLUSTER_MAX);
	/*
	 * ...and wrote none itself. kswapd, woken when direct reclaim found
	 * the node short, may write some through ->writepage (pageout() of a
	 * folio met again with PG_reclaim and the node PGDAT_DIRTY): every
	 * folio reclaim wrote (NR_VMSCAN_WRITE) is one of kswapd's.
	 */
	KSHIM_ASSERT_EQ(atomic_read(&direct_writes), 0);
	KSHIM_ASSERT_EQ(node_stat(NR_VMSCAN_WRITE) - written0,
			atomic_read(&kswapd_writes));
	/* Every folio it took was dirty and unqueued: it woke the flushers
	 * (shrink_inactive_list()), the one thing it can do about them. */
	KSHIM_ASSERT(atomic_read(&vmscan_flusher_wakeups) >= 1);
	kshim_wbfs_release(inode);
	teardown();
}

/*
 * A clean file's FILE_PAGES folios all under writeback, on the LRU, to a
 * device that holds each write 500 ms (until kshim_bdev_clear_faults()).
 */
static struct inode *file_under_slow_writeback(void)
{
	struct kshim_fault slow = {
		.ops = KSHIM_FAULT_WRITE, .status = BLK_STS_OK,
		.delay_ns = 500 * NSEC_PER_MSEC,
	};
	struct inode *inode = new_file(false, false);

	KSHIM_ASSERT_FATAL(kshim_bdev_add_fault(kb, &slow) >= 0);
	KSHIM_ASSERT_EQ(filemap_fdatawrite(inode->i_mapping), 0);
	lru_add_drain_all();
	KSHIM_ASSERT_EQ_FATAL(count_folios(inode, is_writeback), FILE_PAGES);
	return inode;
}

static void test_folio_under_writeback_is_not_freed(void)
{
	struct kshim_vmscan_stats st;
	struct inode *inode;
	unsigned long scan0, still;

	setup();
	inode = file_under_slow_writeback();
	start_reclaim();
	scan0 = kshim_vm_event_sum(PGSCAN_DIRECT);
	kfree(kmalloc(2 * CHUNK, GFP_DIRECT_ONLY));
	kshim_vmscan_get_stats(&st);
	KSHIM_ASSERT(st.allocstall >= 1);
	KSHIM_ASSERT(kshim_vm_event_sum(PGSCAN_DIRECT) - scan0 >=
		     SWAP_CLUSTER_MAX);
	/*
	 * Reclaim found them under writeback, the device still holding them:
	 * none was freed, and the ones it met are marked PG_reclaim, to be
	 * rotated to the LRU's tail when written. A folio that is still
	 * under writeback now was all along (writeback does not restart):
	 * in virtual time all are; in the parallel backend the 500 ms may
	 * pass first on a loaded machine, and then only those are checked.
	 */
	still = count_folios(inode, is_writeback);
	if (kshim_sched->virtual_time)
		KSHIM_ASSERT_EQ(still, FILE_PAGES);
	if (still == FILE_PAGES) {
		KSHIM_ASSERT_EQ(inode->i_mapping->nrpages, FILE_PAGES);
		KSHIM_ASSERT(count_folios(inode, is_reclaim) >= SWAP_CLUSTER_MAX);
	}
	KSHIM_ASSERT(inode->i_mapping->nrpages >= still);
	stop_reclaim();
	KSHIM_ASSERT_EQ(filemap_fdatawait(inode->i_mapping), 0);
	kshim_bdev_clear_faults(kb);
	kshim_wbfs_release(inode);
	teardown();
}

/* ==== reclaim_throttle() ================================================== */

static int throttled_timeout_us, throttled_delayed_us;

static void on_throttled(int nid, int usec_timeout, int usec_delayed,
			 int reason)
{
	if (reason == VMSCAN_THROTTLE_WRITEBACK) {
		WRITE_ONCE(throttled_timeout_us, usec_timeout);
		WRITE_ONCE(throttled_delayed_us, usec_delayed);
	}
}

static void throttled(void *unused)
{
	reclaim_throttle(NODE_DATA(0), VMSCAN_THROTTLE_WRITEBACK);
}

static void test_writeback_wakes_a_task_throttled_on_it(void)
{
	wait_queue_head_t *wqh =
		&NODE_DATA(0)->reclaim_wait[VMSCAN_THROTTLE_WRITEBACK];
	struct task_struct *t;
	struct inode *inode;

	setup();
	throttled_timeout_us = throttled_delayed_us = -1;
	kshim_trace_set(mm_vmscan_throttled, on_throttled);
	t = kshim_task_run(throttled, NULL, "throttled", -1);
	while (!waitqueue_active(wqh))
		schedule_timeout_uninterruptible(1);
	/*
	 * More than SWAP_CLUSTER_MAX folios written back for the one
	 * throttled task: folio_end_writeback()'s __acct_reclaim_writeback()
	 * wakes it, before the HZ/10 timeout.
	 */
	inode = new_file(false, true);
	kshim_task_join(t);
	kshim_trace_set(mm_vmscan_throttled, NULL);
	KSHIM_ASSERT_EQ(throttled_timeout_us, jiffies_to_usecs(HZ / 10));
	KSHIM_ASSERT(throttled_delayed_us >= 0);
	/*
	 * Woken by the writeback, not by its timeout: in virtual time only,
	 * where writing the file takes no time. In the parallel backend the
	 * writes take real time, which may pass HZ/10 on a loaded machine
	 * (under valgrind, always): a timeout there is no bug.
	 */
	if (kshim_sched->virtual_time)
		KSHIM_ASSERT(throttled_delayed_us < throttled_timeout_us);
	KSHIM_ASSERT_EQ(atomic_read(&NODE_DATA(0)->nr_writeback_throttled), 0);
	kshim_wbfs_release(inode);
	teardown();
}

/* Every mm_vmscan_throttled event: a reclaim_throttle() that slept. */
static atomic_t nr_throttle_events;
static int event_reason, event_timeout_us, event_delayed_us;

static void on_any_throttled(int nid, int usec_timeout, int usec_delayed,
			     int reason)
{
	WRITE_ONCE(event_reason, reason);
	WRITE_ONCE(event_timeout_us, usec_timeout);
	WRITE_ONCE(event_delayed_us, usec_delayed);
	atomic_inc(&nr_throttle_events);
}

static void throttle_on(void *reason)
{
	reclaim_throttle(NODE_DATA(0), (enum vmscan_throttle_state)(long)reason);
}

/*
 * reclaim_throttle(REASON) in a task of its own (a plain task, as a
 * direct reclaimer is), nobody waking it: the timeout it slept in µs,
 * or -1 if it returned without sleeping.
 */
static int throttle_timeout_us(enum vmscan_throttle_state reason)
{
	int before = atomic_read(&nr_throttle_events);

	kshim_task_join(kshim_task_run(throttle_on, (void *)(long)reason,
				       "throttled", -1));
	if (atomic_read(&nr_throttle_events) == before)
		return -1;
	KSHIM_ASSERT_EQ(event_reason, reason);
	/* Nobody wakes it: it sleeps the whole timeout (virtual time). */
	if (kshim_sched->virtual_time)
		KSHIM_ASSERT_EQ(event_delayed_us, event_timeout_us);
	return event_timeout_us;
}

static void throttle_in_a_worker(struct work_struct *work)
{
	reclaim_throttle(NODE_DATA(0), VMSCAN_THROTTLE_ISOLATED);
}

/*
 * The throttle's contract (mm: vmscan: throttle reclaim until some
 * writeback completes, 2021): too many isolating reclaimers wait HZ/50;
 * no progress and congestion wait a jiffy, and only while dirty and
 * writeback folios are more than half of what could be reclaimed
 * (otherwise waiting would not help: skip_throttle_noprogress()); a
 * kernel thread other than kswapd is never throttled, since reclaim may
 * need it to make progress (a journal's workqueue). The writeback
 * reason's HZ/10 is test_writeback_wakes_a_task_throttled_on_it's.
 */
static void test_each_throttle_reason_sleeps_its_own_time(void)
{
	struct work_struct work;
	struct inode *inode;
	int before;

	setup();
	INIT_WORK(&work, throttle_in_a_worker);
	kshim_trace_set(mm_vmscan_throttled, on_any_throttled);
	KSHIM_ASSERT_EQ(throttle_timeout_us(VMSCAN_THROTTLE_ISOLATED),
			jiffies_to_usecs(HZ / 50));
	/* Nothing dirty: no wait for no progress or congestion. */
	KSHIM_ASSERT_EQ(throttle_timeout_us(VMSCAN_THROTTLE_NOPROGRESS), -1);
	KSHIM_ASSERT_EQ(throttle_timeout_us(VMSCAN_THROTTLE_CONGESTED), -1);
	/* Everything reclaimable dirty (no periodic writeback to clean it,
	 * far below the background threshold): they wait a jiffy. */
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_writeback_centisecs", "0"), 0);
	inode = new_file(false, false);
	KSHIM_ASSERT_EQ(throttle_timeout_us(VMSCAN_THROTTLE_NOPROGRESS),
			jiffies_to_usecs(1));
	KSHIM_ASSERT_EQ(throttle_timeout_us(VMSCAN_THROTTLE_CONGESTED),
			jiffies_to_usecs(1));
	/* A workqueue worker returns at once, however short the wait. */
	before = atomic_read(&nr_throttle_events);
	queue_work(system_unbound_wq, &work);
	flush_work(&work);
	KSHIM_ASSERT_EQ(atomic_read(&nr_throttle_events), before);
	kshim_trace_set(mm_vmscan_throttled, NULL);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_writeback_centisecs", "500"), 0);
	kshim_wbfs_release(inode);
	teardown();
}

/* ==== kswapd's own writes ================================================= */

static atomic_t kswapd_sleeps;

static void on_kswapd_sleep(int nid)
{
	atomic_inc(&kswapd_sleeps);
}

/*
 * An allocation below low that may not reclaim itself wakes kswapd
 * alone; wait until it has balanced the node and gone back to sleep (5 s
 * at most: the caller asserts it did), and give its figures.
 */
static void kswapd_balances_alone(struct kshim_vmscan_stats *st)
{
	int waited;

	atomic_set(&kswapd_sleeps, 0);
	kshim_trace_set(mm_vmscan_kswapd_sleep, on_kswapd_sleep);
	kfree(kmalloc(2 * CHUNK, GFP_NOWAIT));
	for (waited = 0; waited < 5000 && !atomic_read(&kswapd_sleeps);
	     waited++)
		msleep(1);
	kshim_vmscan_get_stats(st);
	kshim_trace_set(mm_vmscan_kswapd_sleep, NULL);
}

/*
 * kswapd writes dirty file folios itself only as the last resort: when
 * every file folio a pass took was dirty and not yet queued for
 * writeback (PGDAT_DIRTY: the flushers are not keeping up), on meeting
 * one a second time, already marked for immediate reclaim. On a device
 * that completes the write before pageout() returns (a RAM disk), the
 * folio is clean at once and kswapd frees it in the same pass. The
 * flushers are held off, so only kswapd can clean anything here, and
 * it must to get the node back above its high watermark. Dirty folios
 * nobody queued are the flushers' lag, not a congested device: nothing
 * is under writeback, so kswapd never tags the node congested (which
 * would stall direct reclaimers, VMSCAN_THROTTLE_CONGESTED).
 */
static void test_kswapd_writes_when_all_it_meets_is_dirty(void)
{
	struct kshim_vmscan_stats st;
	struct inode *inode;

	setup_device(true);
	inode = new_file(true, false);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_writeback_centisecs", "0"), 0);
	set_bit(WB_start_all, &sb->s_bdi->wb.state);
	start_reclaim();
	kswapd_balances_alone(&st);
	stop_reclaim();
	clear_bit(WB_start_all, &sb->s_bdi->wb.state);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_writeback_centisecs", "500"), 0);
	KSHIM_ASSERT(atomic_read(&kswapd_sleeps) >= 1);
	KSHIM_ASSERT_EQ(st.allocstall, 0);
	KSHIM_ASSERT_EQ(atomic_read(&direct_writes), 0);
	KSHIM_ASSERT(atomic_read(&kswapd_writes) > 0);
	kshim_info("kswapd wrote %d folios, freed %lu, %lu left\n",
		   atomic_read(&kswapd_writes), (unsigned long)st.kswapd_lru_freed,
		   inode->i_mapping->nrpages);
	/* What it wrote was clean on return, and freed with the rest. */
	KSHIM_ASSERT(st.kswapd_lru_freed >= atomic_read(&kswapd_writes));
	KSHIM_ASSERT_EQ(atomic_read(&writes_while_congested), 0);
	KSHIM_ASSERT(inode->i_mapping->nrpages <=
		     FILE_PAGES - atomic_read(&kswapd_writes));
	kshim_wbfs_release(inode);
	teardown();
}

/* ==== Use-once: a folio read once is no reason to keep it ================= */

/* Touch each folio of [first, first + nr) as a read does. */
static void access_folios(struct inode *inode, pgoff_t first, pgoff_t nr)
{
	pgoff_t i;

	for (i = first; i < first + nr; i++) {
		struct folio *folio = filemap_get_folio(inode->i_mapping, i);

		KSHIM_ASSERT_FATAL(!IS_ERR(folio));
		folio_mark_accessed(folio);
		folio_put(folio);
	}
}

static bool all_folios_present(struct inode *inode, pgoff_t first, pgoff_t nr)
{
	pgoff_t i;

	for (i = first; i < first + nr; i++) {
		struct folio *folio = filemap_get_folio(inode->i_mapping, i);

		if (IS_ERR(folio))
			return false;
		folio_put(folio);
	}
	return true;
}

/*
 * The page cache's use-once policy (folio_mark_accessed(),
 * folio_check_references()): a folio read once is marked referenced and
 * stays on the inactive list, and reclaim frees it as it would an
 * untouched one (for an unmapped folio the mark only says "do not write
 * it from reclaim", FOLIOREF_RECLAIM_CLEAN); a folio read twice is
 * activated, and reclaim takes the once-read ones before it. A streaming
 * read must not be able to keep its folios from reclaim.
 */
static void test_folio_read_once_is_reclaimed_read_twice_is_kept(void)
{
	struct inode *inode;
	unsigned long freed;

	setup();
	inode = new_file(false, true);
	/* The first half read twice (activated), the second half once. */
	access_folios(inode, 0, FILE_PAGES / 2);
	access_folios(inode, 0, FILE_PAGES / 2);
	access_folios(inode, FILE_PAGES / 2, FILE_PAGES / 2);
	lru_add_drain_all();
	start_reclaim();
	kfree(kmalloc(2 * CHUNK, GFP_DIRECT_ONLY));
	stop_reclaim();
	freed = FILE_PAGES - inode->i_mapping->nrpages;
	KSHIM_ASSERT(freed >= SWAP_CLUSTER_MAX);
	/* Every folio reclaim freed was a once-read one. */
	KSHIM_ASSERT(all_folios_present(inode, 0, FILE_PAGES / 2));
	kshim_wbfs_release(inode);
	teardown();
}

/* ==== Too many isolated: wait for the other reclaimers, then back off ===== */

static atomic_t nr_isolated_throttles, nr_direct_congested, nr_kswapd_writeback;

static void count_reclaim_throttles(int nid, int usec_timeout,
				    int usec_delayed, int reason)
{
	if (reason == VMSCAN_THROTTLE_ISOLATED)
		atomic_inc(&nr_isolated_throttles);
	if (reason == VMSCAN_THROTTLE_CONGESTED && !current_is_kswapd())
		atomic_inc(&nr_direct_congested);
	if (reason == VMSCAN_THROTTLE_WRITEBACK && current_is_kswapd())
		atomic_inc(&nr_kswapd_writeback);
}

static void direct_reclaim_once(void *unused)
{
	kfree(kmalloc(2 * CHUNK, GFP_DIRECT_ONLY));
}

/*
 * An allocation that goes below min even if other tasks free a few pages
 * first: reclaim_pressure_start() leaves the zone a page above min, and
 * at det seed 15 a page freed meanwhile let direct_reclaim_once()'s two
 * pages through without entering reclaim at all.
 */
static void direct_reclaim_below_min(void *unused)
{
	kfree(kmalloc(16 * CHUNK, GFP_DIRECT_ONLY));
}

/*
 * shrink_inactive_list()'s too_many_isolated(): when reclaimers already
 * hold more folios off the inactive list than an eighth of it (for a
 * GFP_KERNEL reclaimer), one more must not pile in, which is how many
 * direct reclaimers once isolated the whole LRU and drove the machine to
 * a false OOM ("vmscan: limit the number of pages kswapd/direct reclaim
 * isolate", 2009). It waits for them once (VMSCAN_THROTTLE_ISOLATED) and,
 * if they still hold as many, returns without scanning. The other
 * reclaimers are stood in for by the node's NR_ISOLATED_FILE count.
 */
static void test_reclaim_waits_when_too_many_are_isolated(void)
{
	const long others = FILE_PAGES / 4;	/* > FILE_PAGES / 8 */
	struct kshim_vmscan_stats st;
	struct inode *inode;
	unsigned long scan0, steal0;
	u64 stalls0;

	setup();
	inode = new_file(false, true);
	atomic_set(&nr_isolated_throttles, 0);
	kshim_trace_set(mm_vmscan_throttled, count_reclaim_throttles);
	start_reclaim();
	mod_node_page_state(NODE_DATA(0), NR_ISOLATED_FILE, others);
	scan0 = kshim_vm_event_sum(PGSCAN_DIRECT);
	steal0 = kshim_vm_event_sum(PGSTEAL_DIRECT);
	kshim_vmscan_get_stats(&st);
	stalls0 = st.allocstall;
	kshim_task_join(kshim_task_run(direct_reclaim_below_min, NULL,
				       "reclaimer", -1));
	/* It entered reclaim, waited, then took nothing (kswapd, which is
	 * never held back here, may have freed some meanwhile). */
	kshim_vmscan_get_stats(&st);
	KSHIM_ASSERT_EQ(st.allocstall, stalls0 + 1);
	KSHIM_ASSERT(atomic_read(&nr_isolated_throttles) >= 1);
	KSHIM_ASSERT_EQ(kshim_vm_event_sum(PGSCAN_DIRECT), scan0);
	KSHIM_ASSERT_EQ(kshim_vm_event_sum(PGSTEAL_DIRECT), steal0);
	/* The others done: a reclaimer scans again, unthrottled. */
	mod_node_page_state(NODE_DATA(0), NR_ISOLATED_FILE, -others);
	atomic_set(&nr_isolated_throttles, 0);
	kshim_vmscan_get_stats(&st);
	stalls0 = st.allocstall;
	kshim_task_join(kshim_task_run(direct_reclaim_once, NULL, "reclaimer", -1));
	kshim_vmscan_get_stats(&st);
	KSHIM_ASSERT_EQ(atomic_read(&nr_isolated_throttles), 0);
	if (st.allocstall > stalls0)
		KSHIM_ASSERT(kshim_vm_event_sum(PGSCAN_DIRECT) > scan0);
	stop_reclaim();
	kshim_trace_set(mm_vmscan_throttled, NULL);
	kshim_wbfs_release(inode);
	teardown();
}

/* ==== Writeback congestion: kswapd stalls, direct reclaim too ============= */

/*
 * What reclaim does when everything it can reclaim is under writeback to
 * a slow device ("mm: vmscan: throttle reclaim until some writeback
 * completes", and the PGDAT_WRITEBACK / congested-node logic of
 * shrink_node() it kept): kswapd marks the folios it meets for immediate
 * reclaim and moves them aside; when it meets them again still under
 * writeback (the node PGDAT_WRITEBACK: all it took was under writeback),
 * the LRU is cycling faster than the device writes, and it stalls on
 * writeback (VMSCAN_THROTTLE_WRITEBACK); every dirty folio it met being
 * such a one, it tags the node congested, and a direct reclaimer then
 * stalls too (VMSCAN_THROTTLE_CONGESTED) instead of scanning on. None of
 * it frees a folio before its write completes; after, kswapd frees them
 * and sleeps.
 */
static void test_reclaim_stalls_while_all_it_meets_is_under_writeback(void)
{
	struct kshim_vmscan_stats st;
	struct inode *inode;
	int i;

	setup();
	inode = file_under_slow_writeback();
	atomic_set(&nr_direct_congested, 0);
	atomic_set(&nr_kswapd_writeback, 0);
	kshim_trace_set(mm_vmscan_throttled, count_reclaim_throttles);
	start_reclaim();
	/* Below low: kswapd's job... */
	kfree(kmalloc(2 * CHUNK, GFP_NOWAIT));
	/* ...and, while the device holds the writes, direct reclaimers'. */
	for (i = 0; i < 100 && count_folios(inode, is_writeback) == FILE_PAGES &&
		    !atomic_read(&nr_direct_congested); i++) {
		kshim_task_join(kshim_task_run(direct_reclaim_once, NULL,
					       "reclaimer", -1));
		msleep(2);
	}
	if (kshim_sched->virtual_time) {
		/* Nothing was written yet in virtual time when they ran. */
		KSHIM_ASSERT_EQ(inode->i_mapping->nrpages, FILE_PAGES);
		KSHIM_ASSERT(atomic_read(&nr_kswapd_writeback) >= 1);
		KSHIM_ASSERT(atomic_read(&nr_direct_congested) >= 1);
	}
	KSHIM_ASSERT(inode->i_mapping->nrpages >= count_folios(inode, is_writeback));
	KSHIM_ASSERT_EQ(filemap_fdatawait(inode->i_mapping), 0);
	/* Written: kswapd can free them now and get the node balanced. */
	kswapd_balances_alone(&st);
	stop_reclaim();
	kshim_trace_set(mm_vmscan_throttled, NULL);
	KSHIM_ASSERT(atomic_read(&kswapd_sleeps) >= 1);
	KSHIM_ASSERT(st.kswapd_lru_freed >= 1);
	kshim_bdev_clear_faults(kb);
	kshim_wbfs_release(inode);
	teardown();
}

/*
 * kswapd's own write on a device that completes it later (the common
 * case, not a RAM disk): pageout() starts the writeback and kswapd moves
 * on, the folio unlocked, left on the LRU with PG_reclaim so that the
 * write's completion rotates it to the tail, where the next pass frees
 * it. Nothing is freed under writeback, nothing left locked: the file's
 * release (truncation locks every folio) completes.
 */
static void test_kswapd_write_completes_after_pageout_returns(void)
{
	/* Long enough that every write kswapd starts is still in flight
	 * when pageout() returns, in either backend. */
	struct kshim_fault slow = {
		.ops = KSHIM_FAULT_WRITE, .status = BLK_STS_OK,
		.delay_ns = 20 * NSEC_PER_MSEC,
	};
	struct kshim_vmscan_stats st;
	struct inode *inode;

	setup();
	inode = new_file(true, false);
	KSHIM_ASSERT_FATAL(kshim_bdev_add_fault(kb, &slow) >= 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_writeback_centisecs", "0"), 0);
	set_bit(WB_start_all, &sb->s_bdi->wb.state);
	start_reclaim();
	kswapd_balances_alone(&st);
	stop_reclaim();
	clear_bit(WB_start_all, &sb->s_bdi->wb.state);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_writeback_centisecs", "500"), 0);
	KSHIM_ASSERT(atomic_read(&kswapd_sleeps) >= 1);
	KSHIM_ASSERT_EQ(atomic_read(&direct_writes), 0);
	KSHIM_ASSERT(atomic_read(&kswapd_writes) > 0);
	kshim_info("kswapd wrote %d folios, freed %lu, %lu left\n",
		   atomic_read(&kswapd_writes), (unsigned long)st.kswapd_lru_freed,
		   inode->i_mapping->nrpages);
	KSHIM_ASSERT(inode->i_mapping->nrpages >= count_folios(inode, is_writeback));
	KSHIM_ASSERT_EQ(filemap_fdatawait(inode->i_mapping), 0);
	kshim_bdev_clear_faults(kb);
	kshim_wbfs_release(inode);
	teardown();
}

/* ==== Shadow entries ====================================================== */

/* The file's page-cache slots that hold a shadow (an evicted folio's
 * workingset record) instead of a folio. */
static unsigned long count_shadows(struct inode *inode)
{
	XA_STATE(xas, &inode->i_mapping->i_pages, 0);
	unsigned long n = 0;
	void *entry;

	rcu_read_lock();
	xas_for_each(&xas, entry, ULONG_MAX) {
		if (xas_retry(&xas, entry))
			continue;
		if (xa_is_value(entry))
			n++;
	}
	rcu_read_unlock();
	return n;
}

/*
 * __remove_mapping(): a folio reclaim frees leaves a shadow entry in its
 * slot, which a refault reads to tell a thrashing working set
 * (workingset_refault()); a folio an invalidation drops was not
 * reclaimed, and leaves nothing (a later read of it is no refault).
 */
static void test_reclaim_leaves_shadows_and_invalidation_does_not(void)
{
	struct inode *inode;
	unsigned long freed;

	setup();
	inode = new_file(false, true);
	KSHIM_ASSERT_EQ(invalidate_mapping_pages(inode->i_mapping, 0,
						 FILE_PAGES / 2 - 1),
			FILE_PAGES / 2);
	KSHIM_ASSERT_EQ(inode->i_mapping->nrpages, FILE_PAGES / 2);
	KSHIM_ASSERT_EQ(count_shadows(inode), 0);
	start_reclaim();
	kfree(kmalloc(2 * CHUNK, GFP_DIRECT_ONLY));
	stop_reclaim();
	freed = FILE_PAGES / 2 - inode->i_mapping->nrpages;
	KSHIM_ASSERT(freed >= SWAP_CLUSTER_MAX);
	KSHIM_ASSERT_EQ(count_shadows(inode), freed);
	kshim_wbfs_release(inode);
	teardown();
}

static const struct kshim_test reclaim_lru_tests[] = {
	KSHIM_TEST(test_direct_reclaim_frees_clean_file_folios),
	KSHIM_TEST(test_direct_reclaim_never_writes_a_dirty_folio),
	KSHIM_TEST(test_folio_under_writeback_is_not_freed),
	KSHIM_TEST(test_writeback_wakes_a_task_throttled_on_it),
	KSHIM_TEST(test_each_throttle_reason_sleeps_its_own_time),
	KSHIM_TEST(test_kswapd_writes_when_all_it_meets_is_dirty),
	KSHIM_TEST(test_reclaim_leaves_shadows_and_invalidation_does_not),
	KSHIM_TEST(test_folio_read_once_is_reclaimed_read_twice_is_kept),
	KSHIM_TEST(test_reclaim_waits_when_too_many_are_isolated),
	KSHIM_TEST(test_reclaim_stalls_while_all_it_meets_is_under_writeback),
	KSHIM_TEST(test_kswapd_write_completes_after_pageout_returns),
	{ }
};

KSHIM_SUITES({ "reclaim_lru", NULL, NULL, reclaim_lru_tests });
