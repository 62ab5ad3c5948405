// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario: allocation stalls under inode-cache pressure.
 * ../shared/context/seeds/000_02e45f6396595fcb.txt: on a simoop load, XFS
 * inode reclaim called from the shrinker blocked (on inode flush locks,
 * on pinned inodes waiting for a log force, on the per-AG reclaim
 * locks), so allocating tasks stalled in direct reclaim: p99 allocation
 * latency 23.7 ms and 94 stalls/s, against 0.86 ms and 0.08/s once
 * reclaim stopped blocking. 6.12's xfs_reclaim_inode() never blocks: it
 * trylocks, and skips an inode that is pinned, dirty or being flushed,
 * leaving it to the AIL and the background reclaim worker.
 *
 * Workload (simoop-like, on the real XFS inode cache, the real superblock
 * shrinker and kshim's memory-pressure model, kshim/vmscan.h): CREATORS
 * tasks each create FILES_PER_CREATOR files (vfs_create(), the real
 * xfs_create()), log a timestamp change on each (utimensat(): dirty,
 * pinned in the CIL until its checkpoint is written), and release it onto
 * the VFS inode LRU; ALLOCATORS tasks keep allocating and freeing 16 KiB
 * (GFP_KERNEL pages, RING of them held), timing each allocation; kswapd
 * runs in the background. Memory is what the mount uses plus BUDGET
 * (about 3 KiB per cached inode: 24000 files need several times it); the
 * devices take 0.5-1.5 ms per I/O, a disk's order (dev_slow_disk).
 *
 * BUDGET must stay well above what one checkpoint pins (the smallest log:
 * the CIL pushes every ~700 KB of changes). Below that, e.g. 4 MiB,
 * memory fills with inodes pinned by a background checkpoint whose
 * commit-record iclog is not written until the next push or the log
 * worker's force 30 s later; stalled creators log nothing to push it
 * out, the shrinker can only skip the pinned inodes, and the run takes
 * 30 s of kshim time. Real memory is many checkpoints large.
 *
 * Measured (kshim clock: virtual time in the deterministic backend,
 * where each scheduling decision costs 100 ns, so scanning inodes under
 * locks costs more than on a machine and I/O less):
 * allocation latency p50/p95/p99/max and its histogram, allocation
 * stalls (direct reclaim entries) per second, work rate (files per
 * second), the superblock shrinker's scanned and freed counts, inodes
 * reclaimed by XFS, time in direct reclaim and in kswapd, every sleep
 * inside reclaim with its call chain, and the lock statistics of the
 * reclaim path.
 *
 * Pass/fail criterion: neither direct reclaim nor kswapd ever sleeps on
 * the log (a log force or an inode unpin: chains through xlog_*,
 * xfs_log_force*, xfs_iunpin*) or on an inode lock (xfs_ilock). That is
 * the post's fix, and 6.12's design: a shrinker that blocks makes every
 * allocating task wait for I/O it did not ask for. Sleeping anywhere else
 * in reclaim is reported, not failed. The run must also have put the
 * inode cache under pressure (stalls and inodes reclaimed), or it proves
 * nothing. xfs/patches/0002-xfs-reclaim-waits-for-pinned-inodes.patch
 * makes reclaim wait for a pinned inode (a log force from inside the
 * shrinker, as 4.9 did) and fails the criterion (README, "Inode
 * reclaim").
 *
 * Output: a table on stdout, JSON to $KSHIM_SCENARIO_OUT/
 * reclaim_stalls.json, which ./kshim plot plots.
 */
#include "xfs_fixture.h"
#include "xfs_inode.h"
#include "xfs_icache.h"
#include "xfs_stats.h"
#include <linux/shrinker.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include <kshim/ktest.h>
#include <kshim/host.h>
#include <kshim/lock.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/trace.h>
#include <kshim/vmscan.h>
#include "scenario_out.h"
#include "xfs_inode_ops.h"

#define IMG_SIZE		(320ULL << 20)
#define CREATORS		4
#define FILES_PER_CREATOR	6000
/*
 * The smallest log mkfs.xfs allows: the CIL pushes a checkpoint every
 * ~700 KB of logged changes, so at most about a thousand inodes are
 * pinned at a time and the rest can be cleaned and reclaimed. With the
 * default log the CIL alone could hold more dirty inodes than BUDGET.
 */
#define MKFS_OPTS		"-l size=1368b"
#define ALLOCATORS		2
#define ALLOC_ORDER		2		/* 16 KiB */
#define RING			16		/* allocations each one holds */
#define MAX_SAMPLES		(1 << 16)
#define BUDGET			(16UL << 20)
#define WMARK_MIN		(512UL << 10)
#define HIST_BUCKETS		32		/* log2 of ns: up to 1 s */

/* Lock classes are named after their initialisation, as lockdep does. */
static const char *const lock_classes[] = {
	"&pag->pag_ici_lock",		/* the per-AG inode radix tree */
	"&ip->i_flags_lock",
	"&ip->i_lock",			/* the ILOCK */
	"&ailp->ail_lock",
	"&s->s_umount",
	"&lru->node[i].lock",		/* the VFS inode LRU (list_lru) */
};
#define NR_LOCKS ARRAY_SIZE(lock_classes)

/* Where a sleep inside reclaim was, from its call chain. */
enum wait_cause { CAUSE_LOG, CAUSE_INODE_LOCK, CAUSE_OTHER, NR_CAUSES };
static const char *const cause_name[] = { "log", "inode lock", "other" };

static struct {
	struct xfs_mount *mp;
	struct shrinker *sb_shrinker;
	atomic_t creators_left;
	atomic64_t files;
	atomic64_t alloc_errors, create_errors;
	/* Allocation latencies, ns. */
	u64 *lat;
	atomic_t nr_lat;
	u64 hist[HIST_BUCKETS];
	u64 p50, p95, p99, max;
	u64 stalled;			/* allocations that took any time */
	/* The superblock shrinker, from the tracepoints. */
	atomic64_t sb_scanned, sb_freed, sb_calls;
	u64 reclaims;			/* XFS: inodes freed by reclaim */
	u64 start_ns, elapsed_ns, real_ns;
	struct kshim_vmscan_stats vm;
	struct kshim_vmscan_wait waits[16];
	int nr_waits;
	u64 cause_count[NR_CAUSES], cause_ns[NR_CAUSES];
	struct kshim_lock_class locks[NR_LOCKS];
	bool pass;
	const char *why;
} s;

/* ==== The workload ======================================================== */

static void creator(void *arg)
{
	long id = (long)arg;
	char name[32];
	int i;

	for (i = 0; i < FILES_PER_CREATOR; i++) {
		struct xfs_inode *ip;

		snprintf(name, sizeof(name), "c%ld-%d", id, i);
		if (xfs_test_create(s.mp, name, &ip)) {
			atomic64_inc(&s.create_errors);
			continue;
		}
		if (xfs_test_touch(s.mp, ip))
			atomic64_inc(&s.create_errors);
		xfs_irele(ip);
		atomic64_inc(&s.files);
		cond_resched();
	}
	atomic_dec(&s.creators_left);
}

/*
 * Replace the RING 16 KiB chunks held, timing each allocation, then
 * sleep a jiffy: simoop's allocators, which use their memory a while.
 */
static void allocator(void *arg)
{
	struct page *ring[RING] = { };
	unsigned int i;

	while (atomic_read(&s.creators_left)) {
		for (i = 0; i < RING; i++) {
			u64 t0 = kshim_clock_ns();
			struct page *p;
			int n;

			if (ring[i])
				__free_pages(ring[i], ALLOC_ORDER);
			p = alloc_pages(GFP_KERNEL, ALLOC_ORDER);
			ring[i] = p;
			if (!p) {
				atomic64_inc(&s.alloc_errors);
				continue;
			}
			n = atomic_inc_return(&s.nr_lat) - 1;
			if (n < MAX_SAMPLES)
				s.lat[n] = kshim_clock_ns() - t0;
		}
		schedule_timeout_uninterruptible(1);
	}
	for (i = 0; i < RING; i++)
		if (ring[i])
			__free_pages(ring[i], ALLOC_ORDER);
}

static void sb_scan_start(struct shrinker *shr, struct shrink_control *sc,
			  long nr, unsigned long items, unsigned long long delta,
			  unsigned long total_scan, int priority)
{
	if (shr == s.sb_shrinker) {
		atomic64_inc(&s.sb_calls);
		atomic64_add(total_scan, &s.sb_scanned);
	}
}

static void sb_scan_end(struct shrinker *shr, int nid, int retval,
			long unused, long new_nr, long total_scan)
{
	if (shr == s.sb_shrinker && retval > 0)
		atomic64_add(retval, &s.sb_freed);
}

/* ==== The figures ========================================================= */

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void latency_figures(void)
{
	int n = min(atomic_read(&s.nr_lat), MAX_SAMPLES), i;

	sort(s.lat, n, sizeof(u64), cmp_u64, NULL);
	for (i = 0; i < n; i++)
		s.stalled += s.lat[i] != 0;
	for (i = 0; i < n; i++)
		s.hist[min_t(int, s.lat[i] ? ilog2(s.lat[i]) + 1 : 0,
			     HIST_BUCKETS - 1)]++;
	if (!n)
		return;
	s.p50 = s.lat[n / 2];
	s.p95 = s.lat[n * 95 / 100];
	s.p99 = s.lat[n * 99 / 100];
	s.max = s.lat[n - 1];
}

static enum wait_cause cause_of(const struct kshim_vmscan_wait *w)
{
	if (strstr(w->chain, "xlog_") || strstr(w->chain, "xfs_log_force") ||
	    strstr(w->chain, "xfs_iunpin"))
		return CAUSE_LOG;
	if (strstr(w->chain, "xfs_ilock"))
		return CAUSE_INODE_LOCK;
	return CAUSE_OTHER;
}

static void wait_figures(void)
{
	int i;

	s.nr_waits = min_t(int, kshim_vmscan_waits(s.waits,
						    ARRAY_SIZE(s.waits)),
			   ARRAY_SIZE(s.waits));
	for (i = 0; i < s.nr_waits; i++) {
		enum wait_cause c = cause_of(&s.waits[i]);

		if (s.waits[i].spin)
			continue;	/* the kernel spins: not a sleep */
		s.cause_count[c] += s.waits[i].count;
		s.cause_ns[c] += s.waits[i].ns;
	}
}

static u64 per_s(u64 n, u64 ns)
{
	return ns ? div64_u64(n * NSEC_PER_SEC, ns) : 0;
}

/* x.yy per second, as text. */
static const char *rate2(char *buf, u64 n, u64 ns)
{
	u64 r = ns ? div64_u64(n * NSEC_PER_SEC * 100, ns) : 0;

	snprintf(buf, 24, "%llu.%02llu", r / 100, r % 100);
	return buf;
}

static void print_table(void)
{
	char b1[24];
	int i;

	kshim_info("\nscenario reclaim_stalls: %d creators x %d files "
		   "(create, log a change, release), %d allocators of %lu KiB, "
		   "kswapd; memory: the mount + %lu MiB, min watermark %lu KiB\n",
		   CREATORS, FILES_PER_CREATOR, ALLOCATORS,
		   (PAGE_SIZE << ALLOC_ORDER) >> 10, BUDGET >> 20,
		   WMARK_MIN >> 10);
	kshim_info("  run time               %llu ms (kshim clock), %llu ms real\n",
		   s.elapsed_ns / NSEC_PER_MSEC, s.real_ns / NSEC_PER_MSEC);
	kshim_info("  allocation latency     (p50: %llu) (p95: %llu) (p99: %llu) "
		   "(max: %llu) ns, %llu of %d allocations took time\n", s.p50,
		   s.p95, s.p99, s.max, s.stalled, atomic_read(&s.nr_lat));
	kshim_info("  work rate              %llu files/s\n",
		   per_s(atomic64_read(&s.files), s.elapsed_ns));
	kshim_info("  alloc stall rate       %s/s (%llu stalls)\n",
		   rate2(b1, s.vm.allocstall, s.elapsed_ns), s.vm.allocstall);
	kshim_info("  direct reclaim         %llu us total, %llu us max\n",
		   s.vm.direct_ns / NSEC_PER_USEC,
		   s.vm.direct_ns_max / NSEC_PER_USEC);
	kshim_info("  kswapd                 %llu wake-ups, %llu runs, %llu us\n",
		   s.vm.kswapd_wakeups, s.vm.kswapd_runs,
		   s.vm.kswapd_ns / NSEC_PER_USEC);
	kshim_info("  sb shrinker            %llu calls, %llu scanned, %llu freed; "
		   "XFS reclaimed %llu inodes\n", atomic64_read(&s.sb_calls),
		   atomic64_read(&s.sb_scanned), atomic64_read(&s.sb_freed),
		   s.reclaims);
	kshim_info("  slept inside reclaim   %llu times, %llu us (log: %llu, "
		   "inode lock: %llu, other: %llu); contended spinlocks %llu\n",
		   s.vm.sleeps, s.vm.sleep_ns / NSEC_PER_USEC,
		   s.cause_count[CAUSE_LOG], s.cause_count[CAUSE_INODE_LOCK],
		   s.cause_count[CAUSE_OTHER], s.vm.spins);
	for (i = 0; i < s.nr_waits && i < 5; i++)
		kshim_info("    %s %s %-6s %5llu x %8llu us  on %s: %.300s\n",
			   s.waits[i].kswapd ? "kswapd" : "direct",
			   s.waits[i].spin ? "spin " : "sleep",
			   s.waits[i].spin ? "" : cause_name[cause_of(&s.waits[i])],
			   s.waits[i].count, s.waits[i].ns / NSEC_PER_USEC,
			   s.waits[i].what, s.waits[i].chain);
	kshim_info("  %-28s %12s %12s %12s %12s\n", "reclaim-path lock",
		   "acquired", "contended", "wait us", "wait max us");
	for (i = 0; i < NR_LOCKS; i++)
		kshim_info("  %-28s %12llu %12llu %12llu %12llu\n",
			   lock_classes[i], s.locks[i].acquisitions,
			   s.locks[i].contentions,
			   s.locks[i].wait_total / NSEC_PER_USEC,
			   s.locks[i].wait_max / NSEC_PER_USEC);
	kshim_info("  verdict                %s%s%s\n", s.pass ? "pass" : "FAIL",
		   s.why ? ": " : "", s.why ?: "");
}

static void write_json(void)
{
	char path[512], b1[24];
	int fd = scenario_json_open("reclaim_stalls.json", path, sizeof(path));
	int i;

	if (fd < 0)
		return;
	scenario_out(fd, "{\n  \"scenario\": \"reclaim_stalls\",\n"
		     "  \"seed\": %llu,\n  \"backend\": \"%s\",\n",
		     (unsigned long long)kshim_seed(),
		     kshim_host_getenv("KSHIM_BACKEND") ?: "parallel");
	scenario_out(fd, "  \"creators\": %d,\n  \"files\": %llu,\n"
		     "  \"allocators\": %d,\n  \"budget_bytes\": %lu,\n"
		     "  \"elapsed_ns\": %llu,\n  \"real_ns\": %llu,\n",
		     CREATORS, atomic64_read(&s.files), ALLOCATORS, BUDGET,
		     s.elapsed_ns, s.real_ns);
	scenario_out(fd, "  \"allocations\": %d,\n  \"alloc_p50_ns\": %llu,\n"
		     "  \"alloc_p95_ns\": %llu,\n  \"alloc_p99_ns\": %llu,\n"
		     "  \"alloc_max_ns\": %llu,\n  \"allocations_delayed\": %llu,\n",
		     atomic_read(&s.nr_lat), s.p50, s.p95, s.p99, s.max, s.stalled);
	scenario_out(fd, "  \"files_per_s\": %llu,\n  \"allocstall\": %llu,\n"
		     "  \"allocstall_per_s\": %s,\n",
		     per_s(atomic64_read(&s.files), s.elapsed_ns),
		     s.vm.allocstall, rate2(b1, s.vm.allocstall, s.elapsed_ns));
	scenario_out(fd, "  \"direct_reclaim_ns\": %llu,\n"
		     "  \"direct_reclaim_max_ns\": %llu,\n"
		     "  \"kswapd_wakeups\": %llu,\n  \"kswapd_runs\": %llu,\n"
		     "  \"kswapd_ns\": %llu,\n  \"kswapd_lru_freed\": %llu,\n",
		     s.vm.direct_ns, s.vm.direct_ns_max, s.vm.kswapd_wakeups,
		     s.vm.kswapd_runs, s.vm.kswapd_ns, s.vm.kswapd_lru_freed);
	scenario_out(fd, "  \"sb_shrinker_calls\": %llu,\n"
		     "  \"sb_shrinker_scanned\": %llu,\n"
		     "  \"sb_shrinker_freed\": %llu,\n"
		     "  \"xfs_inodes_reclaimed\": %llu,\n",
		     atomic64_read(&s.sb_calls), atomic64_read(&s.sb_scanned),
		     atomic64_read(&s.sb_freed), s.reclaims);
	scenario_out(fd, "  \"reclaim_sleeps\": %llu,\n"
		     "  \"reclaim_sleep_ns\": %llu,\n"
		     "  \"reclaim_sleeps_log\": %llu,\n"
		     "  \"reclaim_sleeps_inode_lock\": %llu,\n"
		     "  \"reclaim_sleeps_other\": %llu,\n"
		     "  \"reclaim_spins\": %llu,\n  \"reclaim_spin_ns\": %llu,\n",
		     s.vm.sleeps, s.vm.sleep_ns, s.cause_count[CAUSE_LOG],
		     s.cause_count[CAUSE_INODE_LOCK],
		     s.cause_count[CAUSE_OTHER], s.vm.spins, s.vm.spin_ns);
	scenario_out(fd, "  \"latency_histogram_log2_ns\": [");
	for (i = 0; i < HIST_BUCKETS; i++)
		scenario_out(fd, "%s%llu", i ? ", " : "", s.hist[i]);
	scenario_out(fd, "],\n  \"locks\": {");
	for (i = 0; i < NR_LOCKS; i++)
		scenario_out(fd, "%s\"%s\": {\"acquisitions\": %llu, "
			     "\"contentions\": %llu, \"wait_ns\": %llu, "
			     "\"wait_max_ns\": %llu}", i ? ", " : "",
			     lock_classes[i], s.locks[i].acquisitions,
			     s.locks[i].contentions, s.locks[i].wait_total,
			     s.locks[i].wait_max);
	scenario_out(fd, "},\n  \"reclaim_waits\": [");
	for (i = 0; i < s.nr_waits; i++)
		scenario_out(fd, "%s\n    {\"task\": \"%s\", \"spin\": %s, "
			     "\"what\": \"%s\", \"count\": %llu, \"ns\": %llu, "
			     "\"chain\": \"%.600s\"}", i ? "," : "",
			     s.waits[i].kswapd ? "kswapd" : "direct",
			     s.waits[i].spin ? "true" : "false", s.waits[i].what,
			     s.waits[i].count, s.waits[i].ns, s.waits[i].chain);
	scenario_out(fd, "],\n  \"pass\": %s\n}\n", s.pass ? "true" : "false");
	scenario_json_close(fd, path);
}

/* ==== The run ============================================================= */

static void test_reclaim_stalls(void)
{
	/* Inode writeback slow against the CPU: reclaim meets dirty inodes. */
	struct xfs_fixture fx = {
		.size = IMG_SIZE,
		.mkfs_opts = MKFS_OPTS,
		.dev = &dev_slow_disk,
	};
	struct task_struct *tasks[CREATORS + ALLOCATORS];
	struct kshim_vmscan_config vm;
	u64 real0 = kshim_host_clock_ns(), reclaims0;
	long i;

	s.mp = xfs_fixture_mount_new(&fx);
	s.sb_shrinker = s.mp->m_super->s_shrink;
	s.lat = vmalloc(MAX_SAMPLES * sizeof(u64));
	KSHIM_ASSERT_FATAL(s.lat != NULL);
	reclaims0 = XFS_STAT_SUM(s.mp, xs_ig_reclaims);

	vm = (struct kshim_vmscan_config){
		.limit = kshim_mem_used_bytes() + BUDGET,
		.wmark_min = WMARK_MIN,
	};
	kshim_trace_set(mm_shrink_slab_start, sb_scan_start);
	kshim_trace_set(mm_shrink_slab_end, sb_scan_end);
	kshim_lock_stat_reset();
	kshim_lock_stat_enable(true);
	kshim_vmscan_start(&vm);
	s.start_ns = kshim_clock_ns();
	atomic_set(&s.creators_left, CREATORS);
	for (i = 0; i < CREATORS; i++)
		tasks[i] = kshim_task_run(creator, (void *)i, "creator", -1);
	for (i = 0; i < ALLOCATORS; i++)
		tasks[CREATORS + i] = kshim_task_run(allocator, NULL,
						     "allocator", -1);
	for (i = 0; i < CREATORS + ALLOCATORS; i++)
		kshim_task_join(tasks[i]);
	s.elapsed_ns = kshim_clock_ns() - s.start_ns;
	s.real_ns = kshim_host_clock_ns() - real0;
	kshim_vmscan_stop();
	kshim_lock_stat_enable(false);
	kshim_trace_set(mm_shrink_slab_start, NULL);
	kshim_trace_set(mm_shrink_slab_end, NULL);

	kshim_vmscan_get_stats(&s.vm);
	s.reclaims = XFS_STAT_SUM(s.mp, xs_ig_reclaims) - reclaims0;
	for (i = 0; i < NR_LOCKS; i++) {
		struct kshim_lock_class *c = kshim_lock_stat_find(lock_classes[i]);

		if (c)
			s.locks[i] = *c;
	}
	latency_figures();
	wait_figures();

	/* The criterion (see the top of the file). */
	s.pass = true;
	if (s.cause_count[CAUSE_LOG] || s.cause_count[CAUSE_INODE_LOCK]) {
		s.pass = false;
		s.why = "reclaim slept on the log or an inode lock";
	} else if (!s.vm.allocstall || !s.reclaims) {
		s.pass = false;
		s.why = "no pressure: no allocation stalled or no inode was reclaimed";
	} else if (atomic64_read(&s.create_errors) ||
		   atomic64_read(&s.alloc_errors)) {
		s.pass = false;
		s.why = "a create or an allocation failed";
	}
	print_table();
	write_json();
	KSHIM_ASSERT(s.pass);

	vfree(s.lat);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_reclaim_stalls),
	{ }
};

KSHIM_SUITES({ "scenario", NULL, NULL, tests });
