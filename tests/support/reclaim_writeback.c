// SPDX-License-Identifier: GPL-2.0
/* The seed 001 workload for its two scenarios (reclaim_writeback.h). */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/writeback.h>
#include <linux/mmzone.h>
#include <linux/swap.h>
#include <linux/slab.h>
#include <linux/vmstat.h>
#include <linux/delay.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/trace.h>
#include <kshim/vmscan.h>
#include <kshim/sysctl.h>
#include "scenario_out.h"
#include "reclaim_writeback.h"

#define SAMPLE_US	1000
#define RING		16

static struct reclaim_writeback *cur;
static atomic_t writers_left;
static atomic64_t direct_writes, kswapd_writes, throttled, throttled_us,
		  allocs, alloc_ns_max, write_errors, alloc_errors;
static atomic64_t flusher_wakeups;
static u64 start_ns;

/*
 * The flushers woken by reclaim: shrink_inactive_list() calls
 * wakeup_flusher_threads(WB_REASON_VMSCAN) when every dirty folio it took
 * off the LRU was not yet queued for I/O (mm/vmscan.c). Counted here,
 * then the real function.
 */
void __real_wakeup_flusher_threads(enum wb_reason reason);
void __wrap_wakeup_flusher_threads(enum wb_reason reason)
{
	if (reason == WB_REASON_VMSCAN)
		atomic64_inc(&flusher_wakeups);
	__real_wakeup_flusher_threads(reason);
}

static void on_write_folio(struct folio *folio)
{
	atomic64_inc(current_is_kswapd() ? &kswapd_writes : &direct_writes);
}

static void on_throttled(int nid, int usec_timeout, int usec_delayed,
			 int reason)
{
	atomic64_inc(&throttled);
	atomic64_add(usec_delayed, &throttled_us);
}

static void writer(void *arg)
{
	int i = (int)(long)arg;
	char *buf = kmalloc(RW_CHUNK, GFP_KERNEL);
	loff_t pos;

	memset(buf, 0x5a, RW_CHUNK);
	for (pos = 0; pos < (loff_t)RW_FILE_MB << 20; pos += RW_CHUNK)
		if (cur->write(i, pos, buf, RW_CHUNK) != RW_CHUNK)
			atomic64_inc(&write_errors);
	kfree(buf);
	atomic_dec(&writers_left);
}

static void atomic64_max(atomic64_t *v, s64 x)
{
	s64 old = atomic64_read(v);

	while (x > old && !atomic64_try_cmpxchg(v, &old, x))
		;
}

/*
 * Dirty and writeback pages every SAMPLE_US while the writers run, taken
 * by whichever allocator first sees the clock past the next sample time
 * (they run throughout; a sampling task of its own sleeps past its time
 * whenever the others keep the CPUs busy).
 */
static atomic64_t next_sample;
static atomic_t nr_samples;

static void sample(void)
{
	s64 now = kshim_clock_ns() - start_ns, due = atomic64_read(&next_sample);
	int n;

	if (now < due || !atomic64_try_cmpxchg(&next_sample, &due,
					       now + SAMPLE_US * NSEC_PER_USEC))
		return;
	n = atomic_inc_return(&nr_samples) - 1;
	if (n >= RW_SAMPLES)
		return;
	cur->t_ms[n] = now / NSEC_PER_MSEC;
	cur->dirty[n] = global_node_page_state(NR_FILE_DIRTY);
	cur->writeback[n] = global_node_page_state(NR_WRITEBACK);
}

static void allocator(void *unused)
{
	struct page *ring[RING] = { };
	int i = 0;

	while (atomic_read(&writers_left)) {
		u64 t0 = kshim_clock_ns();

		if (ring[i])
			__free_pages(ring[i], RW_ALLOC_ORDER);
		ring[i] = alloc_pages(GFP_KERNEL, RW_ALLOC_ORDER);
		if (!ring[i])
			atomic64_inc(&alloc_errors);
		atomic64_max(&alloc_ns_max, kshim_clock_ns() - t0);
		atomic64_inc(&allocs);
		i = (i + 1) % RING;
		sample();
		cond_resched();
	}
	for (i = 0; i < RING; i++)
		if (ring[i])
			__free_pages(ring[i], RW_ALLOC_ORDER);
}

void reclaim_writeback_run(struct reclaim_writeback *rw)
{
	struct task_struct *tasks[RW_WRITERS + RW_ALLOCATORS];
	struct kshim_vmscan_config vm;
	unsigned long scan_k0, steal_k0, scan_d0, steal_d0, imm0, vmw0, wr0;
	int i, n = 0;

	cur = rw;
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_ratio", "50"), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_background_ratio", "25"), 0);
	vm = (struct kshim_vmscan_config){
		.limit = kshim_mem_used_bytes() + RW_BUDGET,
		.wmark_min = RW_WMARK_MIN,
	};
	kshim_trace_set(mm_vmscan_write_folio, on_write_folio);
	kshim_trace_set(mm_vmscan_throttled, on_throttled);
	scan_k0 = kshim_vm_event_sum(PGSCAN_KSWAPD);
	steal_k0 = kshim_vm_event_sum(PGSTEAL_KSWAPD);
	scan_d0 = kshim_vm_event_sum(PGSCAN_DIRECT);
	steal_d0 = kshim_vm_event_sum(PGSTEAL_DIRECT);
	imm0 = global_node_page_state(NR_VMSCAN_IMMEDIATE);
	vmw0 = global_node_page_state(NR_VMSCAN_WRITE);
	wr0 = global_node_page_state(NR_WRITTEN);
	atomic64_set(&flusher_wakeups, 0);
	kshim_vmscan_start(&vm);
	start_ns = kshim_clock_ns();
	atomic_set(&writers_left, RW_WRITERS);
	atomic64_set(&next_sample, 0);
	atomic_set(&nr_samples, 0);
	for (i = 0; i < RW_WRITERS; i++)
		tasks[n++] = kshim_task_run(writer, (void *)(long)i, "writer", -1);
	for (i = 0; i < RW_ALLOCATORS; i++)
		tasks[n++] = kshim_task_run(allocator, NULL, "allocator", -1);
	for (i = 0; i < n; i++)
		kshim_task_join(tasks[i]);
	rw->elapsed_ns = kshim_clock_ns() - start_ns;
	rw->nr_samples = min(atomic_read(&nr_samples), RW_SAMPLES);
	kshim_vmscan_get_stats(&rw->vm);
	kshim_vmscan_stop();
	kshim_trace_set(mm_vmscan_write_folio, NULL);
	kshim_trace_set(mm_vmscan_throttled, NULL);

	rw->pgscan_kswapd = kshim_vm_event_sum(PGSCAN_KSWAPD) - scan_k0;
	rw->pgsteal_kswapd = kshim_vm_event_sum(PGSTEAL_KSWAPD) - steal_k0;
	rw->pgscan_direct = kshim_vm_event_sum(PGSCAN_DIRECT) - scan_d0;
	rw->pgsteal_direct = kshim_vm_event_sum(PGSTEAL_DIRECT) - steal_d0;
	rw->immediate = global_node_page_state(NR_VMSCAN_IMMEDIATE) - imm0;
	rw->vmscan_write = global_node_page_state(NR_VMSCAN_WRITE) - vmw0;
	/*
	 * NR_WRITTEN: every page whose writeback ended (folio_end_writeback(),
	 * the same on both filesystems), less those reclaim wrote. Pages
	 * still under writeback at the end are not in it.
	 */
	rw->flusher_pages = global_node_page_state(NR_WRITTEN) - wr0 -
			    rw->vmscan_write;
	rw->kswapd_writes = atomic64_read(&kswapd_writes);
	rw->direct_writes = atomic64_read(&direct_writes);
	rw->throttled = atomic64_read(&throttled);
	rw->throttled_us = atomic64_read(&throttled_us);
	rw->flusher_wakeups = atomic64_read(&flusher_wakeups);
	rw->allocs = atomic64_read(&allocs);
	rw->alloc_ns_max = atomic64_read(&alloc_ns_max);
	rw->write_errors = atomic64_read(&write_errors);
	rw->alloc_errors = atomic64_read(&alloc_errors);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_ratio", "20"), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_background_ratio", "10"), 0);
}

static void print_table(const struct reclaim_writeback *s)
{
	u64 ratio = s->pgscan_kswapd ?
		s->pgsteal_kswapd * 100 / s->pgscan_kswapd : 0;

	kshim_info("\nscenario reclaim_writeback (%s, %s): %d writers x %d MiB, "
		   "%d allocators of %lu KiB; memory: in use + %lu MiB, min watermark %lu KiB\n",
		   s->fs, s->about, RW_WRITERS, RW_FILE_MB, RW_ALLOCATORS,
		   (PAGE_SIZE << RW_ALLOC_ORDER) >> 10, RW_BUDGET >> 20,
		   RW_WMARK_MIN >> 10);
	kshim_info("  run time               %llu ms (kshim clock)\n",
		   s->elapsed_ns / NSEC_PER_MSEC);
	kshim_info("  pages written          reclaim: kswapd %lld, direct %lld; flushers %lu\n",
		   s->kswapd_writes, s->direct_writes, s->flusher_pages);
	kshim_info("  flushers woken         %lld times by reclaim (WB_REASON_VMSCAN)\n",
		   s->flusher_wakeups);
	kshim_info("  direct reclaim         %llu stalls, %llu us, %llu us max; alloc max %lld us of %lld\n",
		   s->vm.allocstall, s->vm.direct_ns / NSEC_PER_USEC,
		   s->vm.direct_ns_max / NSEC_PER_USEC,
		   s->alloc_ns_max / NSEC_PER_USEC, s->allocs);
	kshim_info("  reclaim_throttle()     %lld sleeps, %lld us\n",
		   s->throttled, s->throttled_us);
	kshim_info("  kswapd                 %llu runs, %lu scanned, %lu reclaimed (%llu%%)\n",
		   s->vm.kswapd_runs, s->pgscan_kswapd, s->pgsteal_kswapd, ratio);
	kshim_info("  direct scan            %lu scanned, %lu reclaimed; %lu dirty met (immediate)\n",
		   s->pgscan_direct, s->pgsteal_direct, s->immediate);
	kshim_info("  verdict                %s%s%s\n", s->pass ? "pass" : "FAIL",
		   s->why ? ": " : "", s->why ?: "");
}

static void write_json(const struct reclaim_writeback *s)
{
	char name[64], path[512];
	int fd, i;

	snprintf(name, sizeof(name), "reclaim_writeback_%s.json", s->fs);
	fd = scenario_json_open(name, path, sizeof(path));
	if (fd < 0)
		return;
	scenario_out(fd, "{\n  \"scenario\": \"reclaim_writeback\",\n"
		     "  \"fs\": \"%s\",\n  \"seed\": %llu,\n", s->fs,
		     (unsigned long long)kshim_seed());
	scenario_out(fd, "  \"elapsed_ns\": %llu,\n  \"kswapd_writes\": %lld,\n"
		     "  \"direct_writes\": %lld,\n  \"flusher_pages\": %lu,\n"
		     "  \"flusher_wakeups_by_reclaim\": %lld,\n",
		     s->elapsed_ns, s->kswapd_writes, s->direct_writes,
		     s->flusher_pages, s->flusher_wakeups);
	scenario_out(fd, "  \"allocstall\": %llu,\n  \"direct_reclaim_ns\": %llu,\n"
		     "  \"throttle_sleeps\": %lld,\n  \"throttle_us\": %lld,\n",
		     s->vm.allocstall, s->vm.direct_ns, s->throttled,
		     s->throttled_us);
	scenario_out(fd, "  \"kswapd_runs\": %llu,\n  \"pgscan_kswapd\": %lu,\n"
		     "  \"pgsteal_kswapd\": %lu,\n  \"pgscan_direct\": %lu,\n"
		     "  \"pgsteal_direct\": %lu,\n  \"vmscan_immediate\": %lu,\n",
		     s->vm.kswapd_runs, s->pgscan_kswapd, s->pgsteal_kswapd,
		     s->pgscan_direct, s->pgsteal_direct, s->immediate);
	scenario_out(fd, "  \"series\": {\"t_ms\": [");
	for (i = 0; i < s->nr_samples; i++)
		scenario_out(fd, "%s%u", i ? ", " : "", s->t_ms[i]);
	scenario_out(fd, "],\n    \"dirty_pages\": [");
	for (i = 0; i < s->nr_samples; i++)
		scenario_out(fd, "%s%u", i ? ", " : "", s->dirty[i]);
	scenario_out(fd, "],\n    \"writeback_pages\": [");
	for (i = 0; i < s->nr_samples; i++)
		scenario_out(fd, "%s%u", i ? ", " : "", s->writeback[i]);
	scenario_out(fd, "]},\n  \"pass\": %s\n}\n", s->pass ? "true" : "false");
	scenario_json_close(fd, path);
}

void reclaim_writeback_report(const struct reclaim_writeback *rw)
{
	print_table(rw);
	write_json(rw);
}
