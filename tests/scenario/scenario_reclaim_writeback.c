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
 * Workload (first slice: wbfs only), on the real mm/vmscan.c
 * (kshim/vmscan.h), the real flusher and dirty throttling, in a memory of
 * the mount plus BUDGET: WRITERS tasks each write a file of FILE_MB, in
 * CHUNK writes (dirtying faster than the device, 4 ms per I/O and 2 at a
 * time, cleans; dirty_ratio 50 and dirty_background_ratio 25, as the post
 * raised dirty_ratio to 40, so that the LRU's tail holds dirty pages),
 * while ALLOCATORS tasks keep replacing RING allocations of 16 KiB and
 * time each; kswapd in the background. The files have a ->writepage
 * (kshim_wbfs_set_writepage()), the behaviour the post argued about:
 * reclaim could write them if it chose to.
 *
 * Measured: pages written by reclaim (kswapd, direct) against pages the
 * flushers wrote, allocation stalls and the time in direct reclaim, time
 * slept in reclaim_throttle(), kswapd's reclaimed/scanned ratio, and the
 * dirty and writeback pages over time (JSON, for ./kshim plot).
 *
 * Pass/fail criterion: direct reclaim writes no file page (6.12's rule
 * since the series: pageout() only from kswapd), and the run put reclaim
 * to work on dirty pages (stalls or kswapd runs, and dirty folios met at
 * the LRU's tail), or it proves nothing.
 * tests/unit/patches/example-direct-reclaim-writes-dirty-folios.patch
 * lets direct reclaim write them again and must fail it.
 *
 * Not yet (issue 21): the XFS run (no ->writepage in 6.12: reclaim can
 * only wake the flushers), the PNG, and the scenario's place in the
 * README.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>
#include <linux/backing-dev.h>
#include <linux/mmzone.h>
#include <linux/swap.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#include <linux/delay.h>
#include <kshim/ktest.h>
#include <kshim/host.h>
#include <kshim/host_disk.h>
#include <kshim/bdev.h>
#include <kshim/wbfs.h>
#include <kshim/sched.h>
#include <kshim/trace.h>
#include <kshim/runtime.h>
#include <kshim/vmscan.h>
#include <kshim/sysctl.h>
#include "../support/scenario_out.h"

#define WRITERS		2
#define FILE_MB		8
#define CHUNK		(64 << 10)
#define ALLOCATORS	2
#define ALLOC_ORDER	2		/* 16 KiB */
#define RING		16
#define BUDGET		(8UL << 20)
#define WMARK_MIN	(512UL << 10)
#define IMG_SIZE	(64ULL << 20)
#define IO_LATENCY_NS	(4 * NSEC_PER_MSEC)
#define QUEUE_DEPTH	2
#define SAMPLE_MS	20
#define MAX_SAMPLES	2000

static char img[128];
static struct kshim_bdev *kb;
static struct super_block *sb;

static struct {
	atomic_t writers_left;
	atomic64_t direct_writes, kswapd_writes;
	atomic64_t throttled, throttled_us;
	atomic64_t allocs, alloc_ns_max, write_errors, alloc_errors;
	u64 start_ns, elapsed_ns;
	unsigned long pgscan_kswapd, pgsteal_kswapd, pgscan_direct,
		      pgsteal_direct, immediate, flushed_pages;
	struct kshim_vmscan_stats vm;
	int nr_samples;
	u32 t_ms[MAX_SAMPLES], dirty[MAX_SAMPLES], writeback[MAX_SAMPLES];
	bool pass;
	const char *why;
} s;

static void on_write_folio(struct folio *folio)
{
	atomic64_inc(current_is_kswapd() ? &s.kswapd_writes : &s.direct_writes);
}

static void on_throttled(int nid, int usec_timeout, int usec_delayed,
			 int reason)
{
	atomic64_inc(&s.throttled);
	atomic64_add(usec_delayed, &s.throttled_us);
}

static void writer(void *arg)
{
	char *buf = kmalloc(CHUNK, GFP_KERNEL);
	struct inode *inode = arg;
	loff_t pos;

	memset(buf, 0x5a, CHUNK);
	for (pos = 0; pos < (loff_t)FILE_MB << 20; pos += CHUNK)
		if (kshim_wbfs_write(inode, pos, buf, CHUNK) != CHUNK)
			atomic64_inc(&s.write_errors);
	kfree(buf);
	atomic_dec(&s.writers_left);
}

static void atomic64_max(atomic64_t *v, s64 x)
{
	s64 old = atomic64_read(v);

	while (x > old && !atomic64_try_cmpxchg(v, &old, x))
		;
}

static void allocator(void *unused)
{
	struct page *ring[RING] = { };
	int i = 0;

	while (atomic_read(&s.writers_left)) {
		u64 t0 = kshim_clock_ns();

		if (ring[i])
			__free_pages(ring[i], ALLOC_ORDER);
		ring[i] = alloc_pages(GFP_KERNEL, ALLOC_ORDER);
		if (!ring[i])
			atomic64_inc(&s.alloc_errors);
		atomic64_max(&s.alloc_ns_max, kshim_clock_ns() - t0);
		atomic64_inc(&s.allocs);
		i = (i + 1) % RING;
		cond_resched();
	}
	for (i = 0; i < RING; i++)
		if (ring[i])
			__free_pages(ring[i], ALLOC_ORDER);
}

/* Dirty and writeback pages every SAMPLE_MS, while the writers run. */
static void sampler(void *unused)
{
	while (atomic_read(&s.writers_left) && s.nr_samples < MAX_SAMPLES) {
		int n = s.nr_samples++;

		s.t_ms[n] = (kshim_clock_ns() - s.start_ns) / NSEC_PER_MSEC;
		s.dirty[n] = global_node_page_state(NR_FILE_DIRTY);
		s.writeback[n] = global_node_page_state(NR_WRITEBACK);
		msleep(SAMPLE_MS);
	}
}

static void print_table(void)
{
	u64 ratio = s.pgscan_kswapd ? s.pgsteal_kswapd * 100 / s.pgscan_kswapd : 0;

	kshim_info("\nscenario reclaim_writeback (wbfs, ->writepage): %d writers x %d MiB, "
		   "%d allocators of %lu KiB; memory: the mount + %lu MiB, min watermark %lu KiB\n",
		   WRITERS, FILE_MB, ALLOCATORS, (PAGE_SIZE << ALLOC_ORDER) >> 10,
		   BUDGET >> 20, WMARK_MIN >> 10);
	kshim_info("  run time               %llu ms (kshim clock)\n",
		   s.elapsed_ns / NSEC_PER_MSEC);
	kshim_info("  pages written          reclaim: kswapd %lld, direct %lld; flushers %lu\n",
		   atomic64_read(&s.kswapd_writes), atomic64_read(&s.direct_writes),
		   s.flushed_pages);
	kshim_info("  direct reclaim         %llu stalls, %llu us, %llu us max; alloc max %lld us of %lld\n",
		   s.vm.allocstall, s.vm.direct_ns / NSEC_PER_USEC,
		   s.vm.direct_ns_max / NSEC_PER_USEC,
		   atomic64_read(&s.alloc_ns_max) / NSEC_PER_USEC,
		   atomic64_read(&s.allocs));
	kshim_info("  reclaim_throttle()     %lld sleeps, %lld us\n",
		   atomic64_read(&s.throttled), atomic64_read(&s.throttled_us));
	kshim_info("  kswapd                 %llu runs, %lu scanned, %lu reclaimed (%llu%%)\n",
		   s.vm.kswapd_runs, s.pgscan_kswapd, s.pgsteal_kswapd, ratio);
	kshim_info("  direct scan            %lu scanned, %lu reclaimed; %lu dirty met (immediate)\n",
		   s.pgscan_direct, s.pgsteal_direct, s.immediate);
	kshim_info("  verdict                %s%s%s\n", s.pass ? "pass" : "FAIL",
		   s.why ? ": " : "", s.why ?: "");
}

static void write_json(void)
{
	char path[512];
	int fd = scenario_json_open("reclaim_writeback_wbfs.json", path,
				    sizeof(path));
	int i;

	if (fd < 0)
		return;
	scenario_out(fd, "{\n  \"scenario\": \"reclaim_writeback\",\n"
		     "  \"fs\": \"wbfs\",\n  \"seed\": %llu,\n",
		     (unsigned long long)kshim_seed());
	scenario_out(fd, "  \"elapsed_ns\": %llu,\n  \"kswapd_writes\": %lld,\n"
		     "  \"direct_writes\": %lld,\n  \"flusher_pages\": %lu,\n",
		     s.elapsed_ns, atomic64_read(&s.kswapd_writes),
		     atomic64_read(&s.direct_writes), s.flushed_pages);
	scenario_out(fd, "  \"allocstall\": %llu,\n  \"direct_reclaim_ns\": %llu,\n"
		     "  \"throttle_sleeps\": %lld,\n  \"throttle_us\": %lld,\n",
		     s.vm.allocstall, s.vm.direct_ns,
		     atomic64_read(&s.throttled), atomic64_read(&s.throttled_us));
	scenario_out(fd, "  \"kswapd_runs\": %llu,\n  \"pgscan_kswapd\": %lu,\n"
		     "  \"pgsteal_kswapd\": %lu,\n  \"pgscan_direct\": %lu,\n"
		     "  \"pgsteal_direct\": %lu,\n  \"vmscan_immediate\": %lu,\n",
		     s.vm.kswapd_runs, s.pgscan_kswapd, s.pgsteal_kswapd,
		     s.pgscan_direct, s.pgsteal_direct, s.immediate);
	scenario_out(fd, "  \"series\": {\"t_ms\": [");
	for (i = 0; i < s.nr_samples; i++)
		scenario_out(fd, "%s%u", i ? ", " : "", s.t_ms[i]);
	scenario_out(fd, "],\n    \"dirty_pages\": [");
	for (i = 0; i < s.nr_samples; i++)
		scenario_out(fd, "%s%u", i ? ", " : "", s.dirty[i]);
	scenario_out(fd, "],\n    \"writeback_pages\": [");
	for (i = 0; i < s.nr_samples; i++)
		scenario_out(fd, "%s%u", i ? ", " : "", s.writeback[i]);
	scenario_out(fd, "]},\n  \"pass\": %s\n}\n", s.pass ? "true" : "false");
	scenario_json_close(fd, path);
}

static void test_reclaim_writeback_wbfs(void)
{
	struct kshim_bdev_config bcfg = {
		.path = img, .queue_depth = QUEUE_DEPTH,
		.latency = { .base_ns = IO_LATENCY_NS },
	};
	struct task_struct *tasks[WRITERS + ALLOCATORS + 1];
	struct inode *files[WRITERS];
	struct kshim_vmscan_config vm;
	unsigned long scan_k0, steal_k0, scan_d0, steal_d0, imm0, written0;
	u64 bytes0;
	int i, n = 0;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	kb = kshim_bdev_open(&bcfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	sb = kshim_wbfs_mount(kb, 64);
	KSHIM_ASSERT_FATAL(!IS_ERR(sb));
	KSHIM_ASSERT_EQ_FATAL(bdi_set_min_ratio(sb->s_bdi, 99), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_ratio", "50"), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_background_ratio", "25"), 0);
	for (i = 0; i < WRITERS; i++) {
		files[i] = kshim_wbfs_create(sb, (u64)FILE_MB << 20);
		KSHIM_ASSERT_FATAL(!IS_ERR(files[i]));
		kshim_wbfs_set_writepage(files[i], true);
	}

	vm = (struct kshim_vmscan_config){
		.limit = kshim_mem_used_bytes() + BUDGET,
		.wmark_min = WMARK_MIN,
	};
	kshim_trace.mm_vmscan_write_folio = on_write_folio;
	kshim_trace.mm_vmscan_throttled = on_throttled;
	scan_k0 = kshim_vm_event_sum(PGSCAN_KSWAPD);
	steal_k0 = kshim_vm_event_sum(PGSTEAL_KSWAPD);
	scan_d0 = kshim_vm_event_sum(PGSCAN_DIRECT);
	steal_d0 = kshim_vm_event_sum(PGSTEAL_DIRECT);
	imm0 = global_node_page_state(NR_VMSCAN_IMMEDIATE);
	written0 = global_node_page_state(NR_VMSCAN_WRITE);
	bytes0 = kshim_wbfs_bytes_written(sb);
	kshim_vmscan_start(&vm);
	s.start_ns = kshim_clock_ns();
	atomic_set(&s.writers_left, WRITERS);
	for (i = 0; i < WRITERS; i++)
		tasks[n++] = kshim_task_run(writer, files[i], "writer", -1);
	for (i = 0; i < ALLOCATORS; i++)
		tasks[n++] = kshim_task_run(allocator, NULL, "allocator", -1);
	tasks[n++] = kshim_task_run(sampler, NULL, "sampler", -1);
	for (i = 0; i < n; i++)
		kshim_task_join(tasks[i]);
	s.elapsed_ns = kshim_clock_ns() - s.start_ns;
	kshim_vmscan_get_stats(&s.vm);
	kshim_vmscan_stop();
	kshim_trace.mm_vmscan_write_folio = NULL;
	kshim_trace.mm_vmscan_throttled = NULL;

	s.pgscan_kswapd = kshim_vm_event_sum(PGSCAN_KSWAPD) - scan_k0;
	s.pgsteal_kswapd = kshim_vm_event_sum(PGSTEAL_KSWAPD) - steal_k0;
	s.pgscan_direct = kshim_vm_event_sum(PGSCAN_DIRECT) - scan_d0;
	s.pgsteal_direct = kshim_vm_event_sum(PGSTEAL_DIRECT) - steal_d0;
	s.immediate = global_node_page_state(NR_VMSCAN_IMMEDIATE) - imm0;
	/* Every page wbfs wrote that reclaim did not (the inode table's
	 * sectors are a few: counted with the flushers). */
	s.flushed_pages = (kshim_wbfs_bytes_written(sb) - bytes0) / PAGE_SIZE -
			  (global_node_page_state(NR_VMSCAN_WRITE) - written0);

	/* The criterion (see the top of the file). */
	s.pass = true;
	if (atomic64_read(&s.direct_writes)) {
		s.pass = false;
		s.why = "direct reclaim wrote file pages";
	} else if ((!s.vm.allocstall && !s.vm.kswapd_runs) || !s.immediate) {
		s.pass = false;
		s.why = "no pressure: reclaim never met dirty pages";
	} else if (atomic64_read(&s.write_errors) ||
		   atomic64_read(&s.alloc_errors)) {
		s.pass = false;
		s.why = "a write or an allocation failed";
	}
	print_table();
	write_json();
	KSHIM_ASSERT(s.pass);

	for (i = 0; i < WRITERS; i++)
		kshim_wbfs_release(files[i]);
	kshim_wbfs_umount(sb);
	kshim_bdev_close(kb);
	kshim_host_image_remove(img);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_ratio", "20"), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_background_ratio", "10"), 0);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_reclaim_writeback_wbfs),
	{ }
};

KSHIM_SUITES({ "scenario", NULL, NULL, tests });
