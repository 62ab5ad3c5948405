// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario: seed 002 on XFS's real data path.
 * ../shared/context/seeds/002_06bebd7c6f98aefd.txt: fio random 4 KiB
 * O_DIRECT writes into files fio had fallocate()d, so every write lands
 * in an unwritten extent and its completion runs an unwritten-extent
 * conversion transaction (iomap_dio_complete() -> xfs_dio_write_end_io()
 * -> xfs_iomap_write_unwritten()). With 1024 writes in flight, 1024
 * conversions race for log reservation space, run the log out of it and
 * serialise on the grant-head lock; "unbound parallelism is bad for
 * performance", and the CIL hard throttle, which costs some of that
 * speed, is there for correctness: two checkpoints must always fit in the
 * log, or recovery can fail.
 *
 * Workload: N = 8, 64, 256, 1024 tasks, 16 to a file as fio's 64 jobs
 * had 16 I/Os in flight each (N = 1024: 64 files; N = 8: one file of 8).
 * Shared files, because sharing is the post's mechanism: a conversion
 * takes its log reservation before the inode lock
 * (xfs_trans_alloc_inode()), so the writers queued on one inode's lock
 * each hold a reservation, and 16 to an inode run the log out of
 * reservation space where a file each (tried first) barely sleeps.
 * Each file is fallocate()d (mode 0: unwritten extents inside EOF, so a
 * completion converts and never updates the size) to twice the blocks
 * its tasks write; each task writes distinct random 4 KiB blocks of its
 * slice with O_DIRECT, one write in flight per task, so every write
 * converts (the post's writes converted until they began to hit
 * converted blocks; here none does). pwrite() is synchronous, so the
 * conversion runs in the writer once its bio completes (iomap_dio_rw()
 * waits, then iomap_dio_complete()) rather than in a DIO-completion
 * kworker as libaio's did: the same transaction, N of them in flight.
 *
 * On the smallest log mkfs.xfs allows (1368 blocks) of a 512 MiB image,
 * on a device taking 20-50 us per I/O. Each N runs three ways:
 *  - "unbounded", the CIL push worker on time: 6.12 as it is;
 *  - "unbounded, push late": the CIL push worker held back from the
 *    start until 250 ms after the CIL reached its hard limit (every slot
 *    of its workqueue taken), as when "thousands of pending unwritten
 *    extent conversion drowns the system in thousands of busy kworkers";
 *  - "bounded": at most BOUND conversions at a time (the test makes the
 *    others wait before xfs_iomap_write_unwritten()), the post's
 *    suggested cure ("bound the maximum concurrency of workqueue based
 *    DIO IO completion"), push on time.
 * A conversion into a shared file logs a few dozen new bytes (two bmap
 * records; its inode is already in the CIL), so in those runs the CIL
 * peaks at about 72 KB, a twentieth of its hard limit, and the throttle
 * is never reached. One more run, "push late, a file per write" (N =
 * 1024 only), takes it there: 12288 files, one write each, so that every
 * conversion logs an inode the CIL does not hold yet (about 180 bytes),
 * as the post's 4 GiB files dirtied ever more bmap btree blocks over
 * minutes; on the smallest log mkfs.xfs makes at all (857 blocks,
 * without reflink), whose hard limit is about 860 KB. The CIL cannot
 * pass half of that log even unthrottled: each conversion's tr_write
 * reservation is large against it, and the reserve head stops the
 * committers at about a third of the log. What the throttle does is
 * visible, though: the committers wait at the hard limit.
 * tests/support/xfs_log_load.c runs the tasks and samples the log's
 * invariants throughout, as for scenario_log_concurrency.
 *
 * Measured per run (kshim clock: virtual time in the deterministic
 * backend; and real time): conversions per second; the wait for log
 * space, per reservation (xfs_log_reserve(), timed by the linker's
 * --wrap: its mean and max); reservers that slept (XFS's
 * xs_sleep_logspace); the lock statistics of the grant-head and CIL
 * locks; checkpoints; the largest CIL against its hard limit.
 *
 * Pass/fail criterion (correctness, not speed), for every N and regime:
 *  1. the CIL never holds half the log or more: two checkpoints must fit
 *     in the log for recovery to find them (the post; the reason for
 *     XLOG_CIL_BLOCKING_SPACE_LIMIT, a quarter of this log, which the
 *     commits in flight when it is reached overshoot, so it is printed
 *     but is not the criterion);
 *  2. no grant head goes below zero (space given back twice). The log
 *     head passing its tail is printed but does not fail a run: it is
 *     the kernel's reservation race kept by
 *     tests/findings/finding_xfs_log_tail_wrap.c;
 *  3. every write converted: one xfs_iomap_write_unwritten() per write,
 *     every write returned its length;
 *  4. the log is recoverable: after a power failure at the end (an
 *     unwaited log force, cached writes dropped), the remount's recovery
 *     succeeds and xfs_repair -n finds nothing (xfs_fixture_remove());
 *  5. with the push late, a CIL that reached its hard limit made
 *     committers wait there: the hard throttle engaged.
 * xfs/patches/0001-xfs-no-cil-hard-throttle.patch removes the throttle:
 * the file-per-write run then fails criterion 5 (the CIL peaks at about
 * 130% of its hard limit, 0 committers waited; with 6.12, about 105%
 * and over 1000 waited), in both backends. scenario_log_concurrency,
 * whose commits log 1000 new bytes each, fails criterion 1 with it.
 *
 * Size: TOTAL_WRITES (2048) conversions per run by default, so that the
 * default ./kshim test stays within its 120 s budget (at N = 1024 that
 * is two writes per task); KSHIM_CONVERSIONS=n runs n per run instead
 * (16384: the full size, docs/measurements.md); the file-per-write run
 * always makes FILES_WRITES. KSHIM_CONVERSION_N=n and
 * KSHIM_CONVERSION_REGIME=unbounded|push_late|bounded|push_late_files
 * run only those runs (the table says which were skipped; the JSON
 * leaves them out; push_late_files is the file-per-write run).
 *
 * Output: a table on stdout, JSON to $KSHIM_SCENARIO_OUT/
 * unwritten_conversion.json (default: the current directory), which
 * ./kshim plot plots.
 */
#include <linux/kernel.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <kshim/ktest.h>
#include <kshim/host.h>
#include <kshim/lock.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include "scenario_out.h"
#include "scenario_log_locks.h"
#include "xfs_fixture.h"
#include "xfs_log_load.h"
#include "xfs_trans_priv.h"

#define IMG_SIZE	(512ULL << 20)
#define SPREAD		2		/* blocks fallocate()d per block written */
#define TOTAL_WRITES	2048		/* default conversions per run: the
					   twelve runs take ~15 s on the
					   2-core machine; 16384 is the full
					   size (KSHIM_CONVERSIONS) */
#define IO_SIZE		4096
#define HOLD_NS		(250 * NSEC_PER_MSEC)
#define BOUND		8		/* conversions at once, "bounded" */
#define FILE_WRITERS	16		/* tasks per file: fio's iodepth */
#define FILES_N		1024		/* "push late, a file per write" */
#define FILES_WRITES	12288		/* its writes, one per file */

static const unsigned int concurrency[] = { 8, 64, 256, 1024 };

/* The three regimes run at every N; PUSH_LATE_FILES at FILES_N only. */
enum regime { UNBOUNDED, PUSH_LATE, BOUNDED, NR_REGIMES,
	      PUSH_LATE_FILES = NR_REGIMES };
static const char *const regime_names[] = {
	[UNBOUNDED] = "unbounded", [PUSH_LATE] = "push late",
	[BOUNDED] = "bounded", [PUSH_LATE_FILES] = "late,files",
};
static bool in_concurrency(unsigned int n)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(concurrency); i++)
		if (concurrency[i] == n)
			return true;
	return false;
}

static const char *const regime_keys[] = {
	[UNBOUNDED] = "unbounded", [PUSH_LATE] = "push_late",
	[BOUNDED] = "bounded", [PUSH_LATE_FILES] = "push_late_files",
};

struct run {
	unsigned int n;
	enum regime regime;
	u64 writes_per_task;
	struct log_load ll;
	u64 conversions, reservations, short_writes;
	struct kshim_lock_class locks[NR_LOG_LOCKS];	/* copies */
	int recovery;		/* remount after the crash: 0 or -errno */
	bool pass;
	bool skipped;		/* KSHIM_CONVERSION_N, _REGIME */
};

static struct run runs[NR_REGIMES * ARRAY_SIZE(concurrency) + 1];
static u64 total_writes = TOTAL_WRITES;

/*
 * What the --wrap'd kernel functions count, during a run (measuring
 * set): the linker sends XFS's calls of xfs_log_reserve() (from
 * xfs_trans_reserve()) and of xfs_iomap_write_unwritten() (from
 * xfs_dio_write_end_io() and xfs_end_ioend()) here (meson.build,
 * link_args), and these call the real ones.
 */
static struct {
	bool measuring;
	bool bounded;
	atomic64_t conversions, reservations, wait_ns, wait_max_ns;
	atomic_t in_conversion;
	wait_queue_head_t bound_wait;
} m;

int __real_xfs_log_reserve(struct xfs_mount *mp, int unit_bytes, int cnt,
			   struct xlog_ticket **ticket, bool permanent);
int __wrap_xfs_log_reserve(struct xfs_mount *mp, int unit_bytes, int cnt,
			   struct xlog_ticket **ticket, bool permanent);
int __real_xfs_iomap_write_unwritten(struct xfs_inode *ip, xfs_off_t offset,
				     xfs_off_t count, bool update_isize);
int __wrap_xfs_iomap_write_unwritten(struct xfs_inode *ip, xfs_off_t offset,
				     xfs_off_t count, bool update_isize);

static void atomic64_max(atomic64_t *v, s64 x)
{
	s64 old = atomic64_read(v);

	while (old < x && !atomic64_try_cmpxchg(v, &old, x))
		;
}

int __wrap_xfs_log_reserve(struct xfs_mount *mp, int unit_bytes, int cnt,
			   struct xlog_ticket **ticket, bool permanent)
{
	u64 t0 = kshim_clock_ns(), t;
	int error;

	error = __real_xfs_log_reserve(mp, unit_bytes, cnt, ticket, permanent);
	if (READ_ONCE(m.measuring)) {
		t = kshim_clock_ns() - t0;
		atomic64_inc(&m.reservations);
		atomic64_add(t, &m.wait_ns);
		atomic64_max(&m.wait_max_ns, t);
	}
	return error;
}

int __wrap_xfs_iomap_write_unwritten(struct xfs_inode *ip, xfs_off_t offset,
				     xfs_off_t count, bool update_isize)
{
	int error;

	if (!READ_ONCE(m.measuring))
		return __real_xfs_iomap_write_unwritten(ip, offset, count,
							update_isize);
	/* Exclusive: one waiter per slot given back, not a herd. */
	if (m.bounded)
		wait_event_interruptible_exclusive(m.bound_wait,
			atomic_add_unless(&m.in_conversion, 1, BOUND));
	error = __real_xfs_iomap_write_unwritten(ip, offset, count,
						 update_isize);
	atomic64_inc(&m.conversions);
	if (m.bounded) {
		atomic_dec(&m.in_conversion);
		wake_up(&m.bound_wait);
	}
	return error;
}

struct files {
	struct file **f;		/* a task's file: f[id / FILE_WRITERS];
					   PUSH_LATE_FILES: f[id + k * N] */
	unsigned int nr;
	loff_t region;			/* bytes fallocate()d per file */
	struct run *r;
	u8 **bufs;
	atomic64_t short_writes;
};

/*
 * One task: its file's distinct random blocks (a seeded partial
 * Fisher-Yates shuffle), each written once with O_DIRECT.
 */
/*
 * One task of the file-per-write run: its files id, id + N, ..., each
 * written once with O_DIRECT in one of its two blocks, the other left
 * unwritten.
 */
static int file_per_write_writer(struct log_load *ll, unsigned int id)
{
	struct files *fs = ll->priv;
	u64 k, state = kshim_seed() * 0x9E3779B97F4A7C15ull + id + 1;
	u8 *buf = fs->bufs[id];
	ssize_t n;

	for (k = 0; k < fs->r->writes_per_task; k++) {
		memset(buf, (u8)(id + k), IO_SIZE);
		n = kshim_vfs_pwrite(fs->f[id + k * fs->r->n], buf, IO_SIZE,
				     (kshim_random(&state) % SPREAD) * IO_SIZE,
				     0);
		if (n != IO_SIZE) {
			atomic64_inc(&fs->short_writes);
			if (n < 0)
				return n;
		}
	}
	return 0;
}

static int writer(struct log_load *ll, unsigned int id)
{
	struct files *fs = ll->priv;
	unsigned int share = min(FILE_WRITERS, fs->r->n);
	/* The task's slice of its file: blocks id % share, + share, ... */
	u64 nblocks = fs->region / IO_SIZE / share, k, state;
	u32 *perm = kvmalloc_array(nblocks, sizeof(*perm), GFP_KERNEL);
	u8 *buf = fs->bufs[id];
	ssize_t n;

	if (!perm)
		return -ENOMEM;
	state = kshim_seed() * 0x9E3779B97F4A7C15ull + id + 1;
	for (k = 0; k < nblocks; k++)
		perm[k] = k;
	for (k = 0; k < fs->r->writes_per_task; k++) {
		u64 j = k + kshim_random(&state) % (nblocks - k);

		swap(perm[k], perm[j]);
		memset(buf, (u8)(id + k), IO_SIZE);
		n = kshim_vfs_pwrite(fs->f[id / share], buf, IO_SIZE,
				     ((loff_t)perm[k] * share + id % share) *
				     IO_SIZE, 0);
		if (n != IO_SIZE) {
			atomic64_inc(&fs->short_writes);
			if (n < 0) {
				kvfree(perm);
				return n;
			}
		}
	}
	kvfree(perm);
	return 0;
}

/*
 * Criterion 5: with the push late, a CIL that reached its hard limit
 * made committers wait there (XLOG_CIL_BLOCKING_SPACE_LIMIT's throttle
 * engaged). The push is held 250 ms past that point, so a waiting
 * committer is in the checker's samples.
 */
static bool throttled_at_limit(const struct log_load *ll)
{
	return !ll->hold_push_ns || ll->cil_max_bytes < ll->cil_hard_limit ||
	       ll->throttled_max > 0;
}

static u64 per_s(u64 n, u64 ns)
{
	return ns ? div64_u64(n * NSEC_PER_SEC, ns) : 0;
}

static void one_run(struct run *r)
{
	bool files_each = r->regime == PUSH_LATE_FILES;
	struct xfs_fixture fx = {
		.size = IMG_SIZE,
		/* The smallest log mkfs.xfs makes: without reflink its
		 * transactions, and so its minimum, are smaller. */
		.mkfs_opts = files_each ? "-m reflink=0 -l size=857b" :
					  "-l size=1368b",
		.dev = &dev_ssd,
	};
	unsigned int share = files_each ? 1 : min(FILE_WRITERS, r->n);
	struct files fs = { .r = r, .nr = files_each ? FILES_WRITES :
					 DIV_ROUND_UP(r->n, FILE_WRITERS) };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct dentry *root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	unsigned int i;
	char name[32];
	int err;

	r->writes_per_task = files_each ? FILES_WRITES / r->n :
				max_t(u64, 1, total_writes / r->n);
	/* Every other block written, at random: the extent list as long
	 * as writes can make it, the bmap btree as many leaves. A file per
	 * write: two blocks, one written. */
	fs.region = files_each ? SPREAD * IO_SIZE :
		    r->writes_per_task * share * SPREAD * IO_SIZE;
	KSHIM_ASSERT_FATAL(fs.region * fs.nr <= IMG_SIZE * 3 / 4);
	fs.f = kcalloc(fs.nr, sizeof(*fs.f), GFP_KERNEL | __GFP_NOFAIL);
	fs.bufs = kcalloc(r->n, sizeof(*fs.bufs), GFP_KERNEL | __GFP_NOFAIL);
	for (i = 0; i < fs.nr; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, name, O_RDWR |
				O_CREAT | O_DIRECT, 0644, &fs.f[i]), 0);
		KSHIM_ASSERT_EQ_FATAL(kshim_vfs_fallocate(fs.f[i], 0, 0,
							  fs.region), 0);
	}
	for (i = 0; i < r->n; i++)
		fs.bufs[i] = kmalloc(IO_SIZE, GFP_KERNEL | __GFP_NOFAIL);
	/* Start from a quiet log: the set-up's items written back. */
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_syncfs(kshim_xfs_sb(fx.x)), 0);
	xfs_ail_push_all_sync(mp->m_ail);

	r->ll = (struct log_load){
		.mp = mp,
		.nr_tasks = r->n,
		.hold_push_ns = r->regime == PUSH_LATE || files_each ?
				HOLD_NS : 0,
		.task_fn = files_each ? file_per_write_writer : writer,
		.priv = &fs,
	};
	atomic64_set(&m.conversions, 0);
	atomic64_set(&m.reservations, 0);
	atomic64_set(&m.wait_ns, 0);
	atomic64_set(&m.wait_max_ns, 0);
	m.bounded = r->regime == BOUNDED;
	WRITE_ONCE(m.measuring, true);
	kshim_lock_stat_reset();
	kshim_lock_stat_enable(true);
	err = log_load_run(&r->ll);
	kshim_lock_stat_enable(false);
	WRITE_ONCE(m.measuring, false);
	KSHIM_ASSERT_EQ(err, 0);
	r->conversions = atomic64_read(&m.conversions);
	r->reservations = atomic64_read(&m.reservations);
	r->short_writes = atomic64_read(&fs.short_writes);
	r->ll.commits = r->conversions;
	r->ll.reserve_wait_ns = atomic64_read(&m.wait_ns);
	r->ll.reserve_wait_max_ns = atomic64_read(&m.wait_max_ns);
	log_locks_read(r->locks);

	/* Criterion 4: recoverable after a power failure, files open. */
	KSHIM_ASSERT_EQ(xfs_log_force(mp, 0), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_power_cut(&fx, KSHIM_CRASH_DROP_ALL), 0);
	for (i = 0; i < fs.nr; i++)
		kshim_vfs_close(fs.f[i]);
	for (i = 0; i < r->n; i++)
		kfree(fs.bufs[i]);
	kfree(fs.f);
	kfree(fs.bufs);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	r->recovery = xfs_fixture_remount(&fx);
	if (!r->recovery)
		xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);

	r->pass = r->ll.violations == r->ll.tail_overwrites &&
		  r->recovery == 0 && !err && !r->short_writes &&
		  r->conversions == (u64)r->n * r->writes_per_task &&
		  throttled_at_limit(&r->ll);
}

/* The first run that ran: the log's geometry is the same in all. */
static const struct run *first_run(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(runs); i++)
		if (!runs[i].skipped)
			return &runs[i];
	return &runs[0];
}

static void print_table(void)
{
	unsigned int i;

	kshim_info("\nscenario unwritten_conversion: %llu O_DIRECT 4 KiB writes "
		   "into unwritten extents over N tasks (16 to a file), log "
		   "%lld bytes, CIL hard limit %lld, bounded: %d at once\n",
		   total_writes, first_run()->ll.logsize,
		   first_run()->ll.cil_hard_limit, BOUND);
	kshim_info("%5s %-10s %8s %8s %10s %10s %7s %10s %10s %8s %5s %9s %8s %s\n",
		   "N", "regime", "conv/s", "real c/s", "wait mean",
		   "wait max", "slept", "grant cont", "grant wait", "CIL cont",
		   "ckpts", "CIL max", "recovery", "verdict");
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		struct run *r = &runs[i];
		struct log_load *ll = &r->ll;

		if (r->skipped) {
			kshim_info("%5u %-10s skipped (KSHIM_CONVERSION_N, "
				   "KSHIM_CONVERSION_REGIME)\n", r->n,
				   regime_names[r->regime]);
			continue;
		}
		kshim_info("%5u %-10s %8llu %8llu %7llu us %7llu us %7llu "
			   "%10llu %7llu us %8llu %5llu %6lld KB %8s %s\n",
			   r->n, regime_names[r->regime],
			   per_s(r->conversions, ll->elapsed_ns),
			   per_s(r->conversions, ll->real_ns),
			   r->reservations ? ll->reserve_wait_ns /
				r->reservations / NSEC_PER_USEC : 0,
			   ll->reserve_wait_max_ns / NSEC_PER_USEC,
			   ll->sleep_logspace, r->locks[0].contentions,
			   r->locks[0].wait_total / NSEC_PER_USEC,
			   r->locks[1].contentions + r->locks[2].contentions,
			   ll->checkpoints, ll->cil_max_bytes / 1024,
			   r->recovery ? "FAILED" : "ok",
			   r->pass ? "pass" : "FAIL");
		if (r->regime == PUSH_LATE_FILES)
			kshim_info("      a file per write (%u files), on a log "
				   "of %lld bytes, CIL hard limit %lld: the CIL "
				   "peaked at %lld%% of it, %llu committers "
				   "waited there at once\n",
				   FILES_WRITES, ll->logsize,
				   ll->cil_hard_limit, ll->cil_hard_limit ?
				   ll->cil_max_bytes * 100 / ll->cil_hard_limit :
				   0, ll->throttled_max);
		if (!throttled_at_limit(ll))
			kshim_info("      the CIL passed its hard limit with the "
				   "push late and no committer waited: the hard "
				   "throttle did not engage\n");
		if (ll->violations)
			kshim_info("      first broken invariant: %s\n",
				   ll->first_violation);
		if (ll->tail_overwrites)
			kshim_info("      the log overwrote its tail: the known "
				   "reservation race, see tests/findings/"
				   "finding_xfs_log_tail_wrap.c\n");
		if (r->conversions != (u64)r->n * r->writes_per_task ||
		    r->short_writes)
			kshim_info("      %llu conversions for %llu writes, "
				   "%llu short\n", r->conversions,
				   (u64)r->n * r->writes_per_task,
				   r->short_writes);
	}
}

static void write_json(void)
{
	char path[512];
	unsigned int i;
	const char *sep = "";
	int fd = scenario_json_open("unwritten_conversion.json", path,
				    sizeof(path));

	if (fd < 0)
		return;
	scenario_out(fd, "{\n  \"scenario\": \"unwritten_conversion\",\n"
	    "  \"seed\": %llu,\n  \"backend\": \"%s\",\n"
	    "  \"total_writes\": %llu,\n  \"io_bytes\": %d,\n"
	    "  \"bound\": %d,\n  \"log_bytes\": %lld,\n"
	    "  \"cil_hard_limit_bytes\": %lld,\n  \"runs\": [\n",
	    (unsigned long long)kshim_seed(),
	    kshim_host_getenv("KSHIM_BACKEND") ?: "parallel", total_writes,
	    IO_SIZE, BOUND, first_run()->ll.logsize,
	    first_run()->ll.cil_hard_limit);
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		struct run *r = &runs[i];
		struct log_load *ll = &r->ll;

		if (r->skipped)
			continue;
		scenario_out(fd, "%s    {\"n\": %u, \"regime\": \"%s\", "
		    "\"writes\": %llu, \"conversions\": %llu, "
		    "\"reservations\": %llu, "
		    "\"elapsed_ns\": %llu, \"real_ns\": %llu, "
		    "\"conversions_per_s\": %llu, "
		    "\"real_conversions_per_s\": %llu, "
		    "\"reserve_wait_ns_total\": %llu, "
		    "\"reserve_wait_ns_max\": %llu, "
		    "\"reservers_slept\": %llu, \"checkpoints\": %llu, "
		    "\"log_bytes_written\": %llu, \"log_cycles\": %u, "
		    "\"cil_max_bytes\": %lld, \"cil_cpus_max\": %u, "
		    "\"throttled_max\": %llu, \"grant_overrun_max\": %lld, "
		    "\"samples\": %llu, \"violations\": %llu, "
		    "\"tail_overwrites\": %llu, \"first_violation\": \"%s\", "
		    "\"short_writes\": %llu, \"recovery\": %d, \"pass\": %s, "
		    "\"log_size_bytes\": %lld, \"run_cil_hard_limit_bytes\": %lld, ",
		    sep, r->n, regime_keys[r->regime],
		    (u64)r->n * r->writes_per_task, r->conversions,
		    r->reservations, ll->elapsed_ns, ll->real_ns,
		    per_s(r->conversions, ll->elapsed_ns),
		    per_s(r->conversions, ll->real_ns), ll->reserve_wait_ns,
		    ll->reserve_wait_max_ns, ll->sleep_logspace,
		    ll->checkpoints, ll->log_bytes, ll->log_cycles,
		    ll->cil_max_bytes, ll->cil_max_cpus, ll->throttled_max,
		    ll->grant_overrun_max, ll->samples, ll->violations,
		    ll->tail_overwrites, ll->first_violation, r->short_writes,
		    r->recovery, r->pass ? "true" : "false", ll->logsize,
		    ll->cil_hard_limit);
		log_locks_json(fd, r->locks);
		scenario_out(fd, "}");
		sep = ",\n";
	}
	scenario_out(fd, "\n  ]\n}\n");
	scenario_json_close(fd, path);
}

static void test_unwritten_conversion(void)
{
	const char *env = kshim_host_getenv("KSHIM_CONVERSIONS");
	const char *only = kshim_host_getenv("KSHIM_CONVERSION_N");
	const char *regime = kshim_host_getenv("KSHIM_CONVERSION_REGIME");
	unsigned int i, only_n = 0;
	u64 v;

	/* A mistyped knob would quietly run something else: refuse it. */
	if (env && (kstrtou64(env, 10, &v) || !v))
		kshim_fatal("KSHIM_CONVERSIONS=%s: a positive number", env);
	if (env)
		total_writes = v;
	if (only && (kstrtouint(only, 10, &only_n) || !in_concurrency(only_n)))
		kshim_fatal("KSHIM_CONVERSION_N=%s: one of 8, 64, 256, 1024", only);
	for (i = 0; regime && i < ARRAY_SIZE(regime_keys); i++)
		if (!strcmp(regime, regime_keys[i]))
			break;
	if (regime && i == ARRAY_SIZE(regime_keys))
		kshim_fatal("KSHIM_CONVERSION_REGIME=%s: unbounded, push_late, bounded or push_late_files",
			    regime);
	init_waitqueue_head(&m.bound_wait);
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		runs[i].n = i < NR_REGIMES * ARRAY_SIZE(concurrency) ?
			    concurrency[i / NR_REGIMES] : FILES_N;
		runs[i].regime = i < NR_REGIMES * ARRAY_SIZE(concurrency) ?
				 i % NR_REGIMES : PUSH_LATE_FILES;
		if ((only_n && only_n != runs[i].n) ||
		    (regime && strcmp(regime, regime_keys[runs[i].regime]))) {
			runs[i].skipped = true;
			continue;
		}
		one_run(&runs[i]);
	}
	print_table();
	write_json();
	for (i = 0; i < ARRAY_SIZE(runs); i++)
		KSHIM_ASSERT(runs[i].skipped || runs[i].pass);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_unwritten_conversion),
	{ }
};

KSHIM_SUITES({ "scenario", NULL, NULL, tests });
