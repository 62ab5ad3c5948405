// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario: the page cache's mapping lock under page reclaim.
 * ../shared/context/seeds/003_87518c26925add5e.txt: Dave Chinner, August
 * 2016, on an aim7 regression on XFS: a big file written one page at a
 * time spent 36-43% of the CPU in _raw_spin_unlock_irqrestore, the
 * mapping's tree_lock contended between the writer adding pages and
 * kswapd removing them (__remove_mapping()), and kswapd's other work was
 * largely wasted: cancel_dirty_page() and try_to_free_buffers() on pages
 * it could not or need not free ("Why are we even calling into
 * cancel_dirty_page() if the page isn't dirty?").
 *
 * Workload, on the real mm/vmscan.c, XFS and iomap: one 4 MiB file shared
 * by SHARED_TASKS tasks and PRIVATE_TASKS files of 1 MiB, one per task,
 * all written and fsynced first, then their page cache dropped
 * (invalidate_mapping_pages(), as drop_caches does), in a memory of what
 * is then in use plus BUDGET (2 MiB, a quarter of the files): every task
 * does OPS
 * 16 KiB reads and writes at random offsets of its file (one in
 * WRITE_EVERY a write), so that reading back what reclaim freed makes
 * the tasks allocate page cache, stall in direct reclaim and wake
 * kswapd; reclaim frees their clean folios while they add folios to the
 * same mappings. Device: dev_ssd.
 *
 * Measured, with kshim's lock statistics and a per-lock observer
 * (kshim/lock_observer.h), for the shared file's i_pages lock, the
 * private files' i_pages locks, the lruvec's lru_lock and the files'
 * i_lock: acquisitions, contentions, wait and hold times, split between
 * reclaim (PF_MEMALLOC: kswapd and direct reclaim) and everyone else;
 * the work wasted on folios reclaim scanned and could not free, from the
 * mm_vmscan_lru_shrink_inactive tracepoint (dirty, under writeback,
 * referenced and kept or activated, otherwise kept) and from
 * ->release_folio (iomap_release_folio(), wrapped: calls and refusals).
 * JSON reclaim_mapping_lock.json.
 *
 * Pass/fail criterion: reclaim holds a mapping's i_pages lock only for
 * one folio's removal at a time. In 6.12, __remove_mapping() takes it
 * once per folio, for the refcount freeze, the shadow entry and
 * __filemap_remove_folio(), and does the freeing and the accounting the
 * 2016 profile complained of outside it; the readers and writers adding
 * folios to the same mapping then wait at most that long. The bound:
 * reclaim's longest hold of any of the files' i_pages locks at most
 * HOLD_MAX_NS, and the tasks' total wait on the shared file's i_pages
 * lock at most WAIT_MAX_PCT percent of the run. The run must also have
 * made reclaim free the files' folios (it proves nothing otherwise).
 * tests/unit/patches/example-reclaim-holds-the-mapping-lock.patch makes
 * __remove_mapping() spend 20 us of work under the lock per folio and
 * must fail it.
 *
 * Times are the kshim clock: virtual in the deterministic backend (the
 * scenario suite's), where every scheduling decision costs 100 ns, so a
 * hold is the decisions taken while the lock is held (the holder's and,
 * when it is switched out, others'). In the parallel backend they are
 * real time, and a host thread preempted while it holds a lock (kshim's
 * spinlocks do not disable preemption) makes a hold of tens of us on a
 * loaded machine: there the bounds are not applied, the figures only
 * printed.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/mmzone.h>
#include <linux/swap.h>
#include <linux/slab.h>
#include <linux/vmstat.h>
#include <linux/sched/mm.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include <kshim/trace.h>
#include <kshim/vmscan.h>
#include <kshim/lock.h>
#include <kshim/lock_observer.h>
#include "xfs_fixture.h"
#include "../support/scenario_out.h"

#define SHARED_TASKS	4
#define PRIVATE_TASKS	4
#define SHARED_MB	4
#define PRIVATE_MB	1
#define IO_SIZE		(16 << 10)
#define OPS		150
#define WRITE_EVERY	4
#define BUDGET		(2UL << 20)
#define WMARK_MIN	(256UL << 10)
/* The criterion's bounds (see the top of the file). */
#define HOLD_MAX_NS	(10 * NSEC_PER_USEC)
#define WAIT_MAX_PCT	5

enum { L_SHARED_PAGES, L_PRIVATE_PAGES, L_LRU, L_SHARED_ILOCK,
       L_PRIVATE_ILOCK, NR_L };
static const char *const lock_names[NR_L] = {
	"shared i_pages", "private i_pages", "lruvec lru_lock",
	"shared i_lock", "private i_lock",
};
static const char *const lock_keys[NR_L] = {
	"shared_i_pages", "private_i_pages", "lru_lock", "shared_i_lock",
	"private_i_lock",
};

/* Per lock, per side (0: reclaim, 1: the others). */
struct lock_prof {
	atomic64_t acq, cont, wait_ns, wait_max, hold_ns, hold_max;
};

static struct {
	const struct kshim_lock *lock[NR_L][PRIVATE_TASKS];
	int nlock[NR_L];
	struct lock_prof prof[NR_L][2];
	atomic64_t release_calls, release_refused;
	atomic64_t scanned, reclaimed, dirty, writeback, activate, ref_keep;
	atomic64_t io_errors;
	u64 elapsed_ns;
	unsigned long pgsteal;
	struct kshim_vmscan_stats vm;
	bool pass;
	const char *why;
} s;

static struct file *shared, *priv[PRIVATE_TASKS];

static void atomic64_max(atomic64_t *v, s64 x)
{
	s64 old = atomic64_read(v);

	while (x > old && !atomic64_try_cmpxchg(v, &old, x))
		;
}

static bool in_reclaim(void)
{
	return current->flags & PF_MEMALLOC;
}

/* kshim_lock_observer: the watched locks only. */
static void on_lock(const struct kshim_lock *l, bool release, bool contended,
		    u64 ns)
{
	struct lock_prof *p;
	int i, j;

	for (i = 0; i < NR_L; i++)
		for (j = 0; j < s.nlock[i]; j++)
			if (s.lock[i][j] == l)
				goto found;
	return;
found:
	p = &s.prof[i][in_reclaim() ? 0 : 1];
	if (release) {
		atomic64_add(ns, &p->hold_ns);
		atomic64_max(&p->hold_max, ns);
		return;
	}
	atomic64_inc(&p->acq);
	if (contended) {
		atomic64_inc(&p->cont);
		atomic64_add(ns, &p->wait_ns);
		atomic64_max(&p->wait_max, ns);
	}
}

static void watch(int which, spinlock_t *lock)
{
	s.lock[which][s.nlock[which]++] = &lock->kl;
}

/* What shrink_folio_list() made of the folios it was given. */
static void on_shrink_inactive(int nid, unsigned long nr_scanned,
			       unsigned long nr_reclaimed,
			       struct reclaim_stat *stat, int priority, int file)
{
	atomic64_add(nr_scanned, &s.scanned);
	atomic64_add(nr_reclaimed, &s.reclaimed);
	atomic64_add(stat->nr_dirty, &s.dirty);
	atomic64_add(stat->nr_writeback, &s.writeback);
	atomic64_add(stat->nr_activate[1], &s.activate);
	atomic64_add(stat->nr_ref_keep, &s.ref_keep);
}

/* XFS's ->release_folio, from reclaim's filemap_release_folio(). */
bool __real_iomap_release_folio(struct folio *folio, gfp_t gfp);
bool __wrap_iomap_release_folio(struct folio *folio, gfp_t gfp)
{
	bool ok = __real_iomap_release_folio(folio, gfp);

	if (in_reclaim()) {
		atomic64_inc(&s.release_calls);
		if (!ok)
			atomic64_inc(&s.release_refused);
	}
	return ok;
}

static u32 next_rand(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void worker(void *arg)
{
	long id = (long)arg;
	struct file *f = id < SHARED_TASKS ? shared : priv[id - SHARED_TASKS];
	loff_t size = (loff_t)(id < SHARED_TASKS ? SHARED_MB : PRIVATE_MB) << 20;
	char *buf = kmalloc(IO_SIZE, GFP_KERNEL);
	u32 x = 0x9e3779b9u * (u32)(id + 1);
	int op;

	for (op = 0; op < OPS; op++) {
		loff_t pos = (next_rand(&x) % (size / IO_SIZE)) * IO_SIZE;
		ssize_t n;

		if (op % WRITE_EVERY == WRITE_EVERY - 1) {
			memset(buf, (int)id + op, IO_SIZE);
			n = kshim_vfs_pwrite(f, buf, IO_SIZE, pos, 0);
		} else {
			n = kshim_vfs_pread(f, buf, IO_SIZE, pos, 0);
		}
		if (n != IO_SIZE)
			atomic64_inc(&s.io_errors);
	}
	kfree(buf);
}

static void fill(struct file *f, int mb)
{
	char *buf = kmalloc(IO_SIZE, GFP_KERNEL);
	loff_t pos;

	KSHIM_ASSERT_FATAL(buf != NULL);
	memset(buf, 0xa5, IO_SIZE);
	for (pos = 0; pos < (loff_t)mb << 20; pos += IO_SIZE)
		KSHIM_ASSERT_EQ_FATAL(kshim_vfs_pwrite(f, buf, IO_SIZE, pos, 0),
				      IO_SIZE);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_fsync(f, 0), 0);
	kfree(buf);
}

static u64 total(int l, int side, size_t off)
{
	return atomic64_read((atomic64_t *)((char *)&s.prof[l][side] + off));
}

#define PROF(l, side, field) \
	total(l, side, offsetof(struct lock_prof, field))

static void print_table(void)
{
	int l;

	kshim_info("\nscenario reclaim_mapping_lock (XFS): %d tasks on one %d MiB file, "
		   "%d on files of %d MiB, %d x 16 KiB ops each (1 in %d a write); "
		   "memory: in use + %lu MiB\n",
		   SHARED_TASKS, SHARED_MB, PRIVATE_TASKS, PRIVATE_MB, OPS,
		   WRITE_EVERY, BUDGET >> 20);
	kshim_info("  run time               %llu ms (kshim clock)\n",
		   s.elapsed_ns / NSEC_PER_MSEC);
	kshim_info("  reclaim                %llu direct stalls, %llu kswapd runs; %llu folios scanned, %llu freed\n",
		   s.vm.allocstall, s.vm.kswapd_runs,
		   (u64)atomic64_read(&s.scanned), (u64)atomic64_read(&s.reclaimed));
	kshim_info("  wasted (not freed)     %llu: dirty %llu, writeback %llu, activated %llu, referenced %llu\n",
		   (u64)(atomic64_read(&s.scanned) - atomic64_read(&s.reclaimed)),
		   (u64)atomic64_read(&s.dirty), (u64)atomic64_read(&s.writeback),
		   (u64)atomic64_read(&s.activate), (u64)atomic64_read(&s.ref_keep));
	kshim_info("  ->release_folio        %llu calls from reclaim, %llu refused\n",
		   (u64)atomic64_read(&s.release_calls),
		   (u64)atomic64_read(&s.release_refused));
	kshim_info("  %-17s  %-8s %9s %7s %10s %9s %10s %9s\n", "lock", "by",
		   "acq", "cont", "wait us", "wmax ns", "hold us", "hmax ns");
	for (l = 0; l < NR_L; l++) {
		int side;

		for (side = 0; side < 2; side++)
			kshim_info("  %-17s  %-8s %9llu %7llu %10llu %9llu %10llu %9llu\n",
				   side ? "" : lock_names[l],
				   side ? "others" : "reclaim",
				   PROF(l, side, acq), PROF(l, side, cont),
				   PROF(l, side, wait_ns) / NSEC_PER_USEC,
				   PROF(l, side, wait_max),
				   PROF(l, side, hold_ns) / NSEC_PER_USEC,
				   PROF(l, side, hold_max));
	}
	kshim_info("  verdict                %s%s%s\n", s.pass ? "pass" : "FAIL",
		   s.why ? ": " : "", s.why ?: "");
}

static void write_json(void)
{
	char path[512];
	int fd = scenario_json_open("reclaim_mapping_lock.json", path,
				    sizeof(path));
	int l;

	if (fd < 0)
		return;
	scenario_out(fd, "{\n  \"scenario\": \"reclaim_mapping_lock\",\n"
		     "  \"seed\": %llu,\n  \"elapsed_ns\": %llu,\n",
		     (unsigned long long)kshim_seed(), s.elapsed_ns);
	scenario_out(fd, "  \"allocstall\": %llu,\n  \"kswapd_runs\": %llu,\n"
		     "  \"scanned\": %lld,\n  \"reclaimed\": %lld,\n"
		     "  \"not_freed\": {\"dirty\": %lld, \"writeback\": %lld, "
		     "\"activated\": %lld, \"referenced\": %lld},\n"
		     "  \"release_folio_calls\": %lld,\n"
		     "  \"release_folio_refused\": %lld,\n",
		     s.vm.allocstall, s.vm.kswapd_runs,
		     atomic64_read(&s.scanned), atomic64_read(&s.reclaimed),
		     atomic64_read(&s.dirty), atomic64_read(&s.writeback),
		     atomic64_read(&s.activate), atomic64_read(&s.ref_keep),
		     atomic64_read(&s.release_calls),
		     atomic64_read(&s.release_refused));
	scenario_out(fd, "  \"locks\": {");
	for (l = 0; l < NR_L; l++) {
		int side;

		scenario_out(fd, "%s\n    \"%s\": {", l ? "," : "", lock_keys[l]);
		for (side = 0; side < 2; side++)
			scenario_out(fd, "%s\"%s\": {\"acquisitions\": %llu, "
				     "\"contentions\": %llu, \"wait_ns\": %llu, "
				     "\"wait_max_ns\": %llu, \"hold_ns\": %llu, "
				     "\"hold_max_ns\": %llu}", side ? ", " : "",
				     side ? "others" : "reclaim",
				     PROF(l, side, acq), PROF(l, side, cont),
				     PROF(l, side, wait_ns), PROF(l, side, wait_max),
				     PROF(l, side, hold_ns), PROF(l, side, hold_max));
		scenario_out(fd, "}");
	}
	scenario_out(fd, "\n  },\n  \"pass\": %s\n}\n", s.pass ? "true" : "false");
	scenario_json_close(fd, path);
}

static void test_reclaim_mapping_lock(void)
{
	struct xfs_fixture fx = { .dev = &dev_ssd, .size = 128ULL << 20 };
	struct task_struct *tasks[SHARED_TASKS + PRIVATE_TASKS];
	struct kshim_vmscan_config vm;
	struct dentry *root;
	unsigned long steal0;
	u64 hold_max, wait;
	char name[16];
	int i;

	xfs_fixture_mount_new(&fx);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "shared", O_RDWR | O_CREAT,
					     0644, &shared), 0);
	fill(shared, SHARED_MB);
	watch(L_SHARED_PAGES, &shared->f_mapping->i_pages.xa_lock);
	watch(L_SHARED_ILOCK, &file_inode(shared)->i_lock);
	for (i = 0; i < PRIVATE_TASKS; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, name, O_RDWR | O_CREAT,
						     0644, &priv[i]), 0);
		fill(priv[i], PRIVATE_MB);
		watch(L_PRIVATE_PAGES, &priv[i]->f_mapping->i_pages.xa_lock);
		watch(L_PRIVATE_ILOCK, &file_inode(priv[i])->i_lock);
	}
	/* No memcg: every folio is on the node's own lruvec. */
	watch(L_LRU, &NODE_DATA(0)->__lruvec.lru_lock);
	lru_add_drain_all();

	/* The files' clean page cache dropped (as drop_caches does), so that
	 * the tasks read it back into a memory of BUDGET more than is in
	 * use, a quarter of the files. */
	invalidate_mapping_pages(shared->f_mapping, 0, -1);
	for (i = 0; i < PRIVATE_TASKS; i++)
		invalidate_mapping_pages(priv[i]->f_mapping, 0, -1);
	vm = (struct kshim_vmscan_config){
		.limit = kshim_mem_used_bytes() + BUDGET,
		.wmark_min = WMARK_MIN,
	};
	kshim_trace_set(mm_vmscan_lru_shrink_inactive, on_shrink_inactive);
	steal0 = kshim_vm_event_sum(PGSTEAL_KSWAPD) +
		 kshim_vm_event_sum(PGSTEAL_DIRECT);
	kshim_vmscan_start(&vm);
	kshim_lock_stat_reset();
	WRITE_ONCE(kshim_lock_observer, on_lock);
	kshim_lock_stat_enable(true);
	s.elapsed_ns = kshim_clock_ns();
	for (i = 0; i < SHARED_TASKS + PRIVATE_TASKS; i++)
		tasks[i] = kshim_task_run(worker, (void *)(long)i, "worker", -1);
	for (i = 0; i < SHARED_TASKS + PRIVATE_TASKS; i++)
		kshim_task_join(tasks[i]);
	s.elapsed_ns = kshim_clock_ns() - s.elapsed_ns;
	kshim_lock_stat_enable(false);
	WRITE_ONCE(kshim_lock_observer, NULL);
	kshim_vmscan_get_stats(&s.vm);
	kshim_vmscan_stop();
	kshim_trace_set(mm_vmscan_lru_shrink_inactive, NULL);
	s.pgsteal = kshim_vm_event_sum(PGSTEAL_KSWAPD) +
		    kshim_vm_event_sum(PGSTEAL_DIRECT) - steal0;

	/* The criterion (see the top of the file). */
	hold_max = max(PROF(L_SHARED_PAGES, 0, hold_max),
		       PROF(L_PRIVATE_PAGES, 0, hold_max));
	wait = PROF(L_SHARED_PAGES, 1, wait_ns);
	s.pass = true;
	if (!s.pgsteal || !PROF(L_SHARED_PAGES, 0, acq) ||
	    !PROF(L_PRIVATE_PAGES, 0, acq)) {
		s.pass = false;
		s.why = "no pressure: reclaim freed none of the files' folios";
	} else if (kshim_sched->virtual_time && hold_max > HOLD_MAX_NS) {
		s.pass = false;
		s.why = "reclaim held a mapping's i_pages lock longer than one folio's removal";
	} else if (kshim_sched->virtual_time &&
		   wait * 100 > s.elapsed_ns * WAIT_MAX_PCT) {
		s.pass = false;
		s.why = "the tasks waited on the shared mapping's lock too long";
	} else if (atomic64_read(&s.io_errors)) {
		s.pass = false;
		s.why = "a read or a write failed";
	}
	print_table();
	write_json();
	KSHIM_ASSERT(s.pass);

	KSHIM_ASSERT_EQ(kshim_vfs_close(shared), 0);
	for (i = 0; i < PRIVATE_TASKS; i++)
		KSHIM_ASSERT_EQ(kshim_vfs_close(priv[i]), 0);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_reclaim_mapping_lock),
	{ }
};

KSHIM_SUITES({ "scenario", NULL, NULL, tests });
