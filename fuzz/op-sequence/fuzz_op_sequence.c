// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: operation sequences. An input is a program for the
 * operation generator (tests/support/fsstress.h): its tasks, operations
 * and arguments, the deterministic scheduler's seed, an allocation
 * fault, an I/O fault, a power failure and a remount. README.md gives
 * the format; in short, a 16-byte header (a short input is padded with
 * zeroes), then the generator's choices, two bytes each:
 *
 *	byte 0       tasks: 1 + b % 4
 *	byte 1       operations per task: 1 + b % OS_MAX_OPS
 *	byte 2       flags: OS_F_*
 *	bytes 3-7    the mix: bit k set (byte 3's bit 0 first) keeps
 *	             operation k (enum fsstress_op) at its default weight;
 *	             no bit set: the default mix
 *	bytes 8-9    le16: the scheduler's seed, and the seed of the
 *	             generator's own choices once the input's run out
 *	bytes 10-11  le16: allocation fault: the nth allocation from the
 *	             run's start (the first that may fail from there) fails
 *	             once; 0: none
 *	bytes 12-13  le16: I/O fault: the nth write (read, with
 *	             OS_F_READ_FAULT) bio from the run's start fails with
 *	             EIO, once; 0: none
 *	bytes 14-15  le16: crash point, modulo (tasks * operations + 1):
 *	             the power fails after that many operations (all
 *	             tasks); 0: none
 *	then         le16 choices: task i takes words i, i + tasks,
 *	             i + 2 * tasks...; past the end, its generator's
 *
 * The oracles: the generator's model checks every result and the whole
 * tree after the run (fsstress_failures()); after a power failure, a
 * fault or a shutdown, the remount's log recovery must succeed and each
 * task's tree must be a state of its model between the last durable
 * point and the operation in flight (fsstress_check_recovered()); with
 * OS_F_REMOUNT and nothing of that, the same tree must come back
 * (fsstress_check()); then xfs_repair -n on the unmounted image (in the
 * replay runner every input; in the libFuzzer build every
 * OS_REPAIR_EVERY-th input; every one with KSHIM_FUZZ_REPAIR=1, none
 * with KSHIM_FUZZ_REPAIR=0). And
 * kshim's loud reports: an ASSERT, WARN or BUG, a kshim report, a hang,
 * allocations that did not come back (a leak). Between inputs the
 * sectors the input's mounts wrote are copied back from a golden image.
 */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_log.h"
#include "xfs_trans.h"
#include "xfs_trans_priv.h"
#include "xfs_sysctl.h"
#include "xfs_error.h"
#include <linux/bio.h>
#include <kshim/bdev.h>
#include <kshim/host.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include <kshim/xfs.h>
#include "kshim_fuzz.h"
#include "fsstress.h"

#define OS_HDR		16
#define OS_MAX_TASKS	4
#define OS_MAX_OPS	48	/* per task: an input well under 100 ms */
#define OS_MAX_WRITES	8192	/* write bios remembered per input */
#define OS_REPAIR_EVERY	64	/* libFuzzer: xfs_repair -n on every nth */

#define OS_F_REMOUNT		0x01	/* remount and check after a clean run */
#define OS_F_LARP		0x02	/* logged xattrs (xfs_globals.larp) */
#define OS_F_WRITE_BACK		0x04	/* the crash: the AIL written back first */
#define OS_F_CRASH_MODE_SHIFT	3	/* 2 bits: enum kshim_crash_mode */
#define OS_F_READ_FAULT		0x20	/* the I/O fault on reads, not writes */

struct os_range {
	u64 sector;
	u64 count;
};

static struct {
	char img[256];
	struct kshim_xfs_config cfg;
	struct kshim_fuzz_image im;
	struct os_range wr[OS_MAX_WRITES];
	unsigned int nwr;
	bool wr_overflow;
	long baseline;			/* kshim_alloc_outstanding() */
	long workers;			/* kshim_workqueue_workers() */
	unsigned long inputs;
	bool repair_all;		/* replay runner, KSHIM_FUZZ_REPAIR=1 */
	bool repair_never;		/* KSHIM_FUZZ_REPAIR=0 */
	bool verbose;			/* KSHIM_VERBOSE: a line per input */
	char repair_out[64 << 10];

	/* This input. */
	const u8 *choices;
	unsigned long nchoices;		/* le16 words */
	unsigned long next[OS_MAX_TASKS];
	unsigned int tasks;
	struct kshim_xfs *x;
	unsigned long alloc_failures;	/* kshim_alloc_failures() before */
	int fault_id;
	bool running;			/* the faults are armed */
	bool read_fault;
	enum kshim_crash_mode mode;
	bool write_back_first;
	struct kshim_crash_result crashed;
	int cut_err;
	const char *stage;		/* for the reports */
} os;

static void must(int error, const char *what)
{
	if (error)
		kshim_fatal("fuzz_op_sequence: %s: %d", what, error);
}

/* ---- the image: the golden bytes back -------------------------------------- */

/* cfg.observer: every write bio the mounts submit (any task). */
static void os_observe(void *priv, struct bio *bio)
{
	if (!op_is_write(bio_op(bio)) || !bio_sectors(bio))
		return;
	if (os.nwr == OS_MAX_WRITES) {
		os.wr_overflow = true;
		return;
	}
	os.wr[os.nwr].sector = bio->bi_iter.bi_sector;
	os.wr[os.nwr].count = bio_sectors(bio);
	os.nwr++;
}

static void os_restore(void)
{
	unsigned int i;

	if (os.wr_overflow)
		kshim_fuzz_image_restore_all(&os.im);
	else
		for (i = 0; i < os.nwr; i++)
			kshim_fuzz_image_restore(&os.im, os.wr[i].sector,
						 os.wr[i].count);
	os.nwr = 0;
	os.wr_overflow = false;
}

/* ---- the generator's hooks --------------------------------------------------- */

/* cfg.choose: task TASK's next word of the input, while there is one.
 * Each task reads only its own words: no race, and a mutation of one
 * task's choices leaves the others' alone. */
static bool os_choose(void *arg, unsigned int task, u64 *value)
{
	unsigned long i = os.next[task] * os.tasks + task;

	if (i >= os.nchoices)
		return false;
	os.next[task]++;
	*value = get_unaligned_le16(os.choices + 2 * i);
	return true;
}

static int force_log(struct super_block *sb)
{
	return xfs_log_force(XFS_M(sb), XFS_LOG_SYNC);
}

/*
 * cfg.shut_down: from then on results are unknown and the tasks stop.
 * The filesystem shut down; or the allocation fault fired (an -ENOMEM
 * the model does not predict, wherever it lands); or the read fault
 * fired (a metadata read's -EIO, which the model does not predict
 * either; a write fault's -EIO is cfg.io_errors').
 */
static bool os_shut_down(struct super_block *sb)
{
	if (xfs_is_shutdown(XFS_M(sb)))
		return true;
	if (!os.running)	/* the faults are the run's */
		return false;
	if (kshim_alloc_failures() != os.alloc_failures)
		return true;
	return os.read_fault && os.fault_id >= 0 &&
	       kshim_bdev_fault_hits(kshim_xfs_data_bdev(os.x), os.fault_id);
}

/* cfg.crash: the power fails, the filesystem left mounted for the
 * tasks to see it fail. */
static void os_cut_the_power(void *arg)
{
	if (os.write_back_first)
		xfs_ail_push_all_sync(kshim_xfs_mp(os.x)->m_ail);
	os.cut_err = kshim_xfs_power_cut(os.x, os.mode, &os.crashed);
}

/* ---- one input ------------------------------------------------------------ */

static void os_repair(void)
{
	int st;

	if (os.repair_never || (!os.repair_all && os.inputs % OS_REPAIR_EVERY))
		return;
	st = kshim_xfs_repair_check(os.img, NULL, os.repair_out,
				    sizeof(os.repair_out));
	if (os.verbose)
		kshim_info("fuzz_op_sequence: xfs_repair -n: %d\n", st);
	if (st)
		kshim_fatal("fuzz_op_sequence: xfs_repair -n exited %d:\n%s",
			    st, os.repair_out);
}

static void os_check(struct fsstress *fs)
{
	if (fsstress_failures(fs))
		kshim_fatal("fuzz_op_sequence: %lu model check(s) failed (%s); "
			    "first: %s", fsstress_failures(fs), os.stage,
			    fsstress_first_failure(fs));
}

static void os_one(const u8 *in, size_t size)
{
	u8 h[OS_HDR] = { 0 };
	struct fsstress_config cfg = {
		.log_force = force_log,
		.rename_notempty = -EEXIST,
		.shut_down = os_shut_down,
		.crash = os_cut_the_power,
		.choose = os_choose,
	};
	u64 mask = 0;
	unsigned long alloc_nth, io_nth, io_hits, total;
	bool unknown;
	struct fsstress *fs;
	int op, err;

	memcpy(h, in, min_t(size_t, size, OS_HDR));
	os.choices = in + OS_HDR;
	os.nchoices = size > OS_HDR ? (size - OS_HDR) / 2 : 0;
	memset(os.next, 0, sizeof(os.next));
	os.tasks = cfg.tasks = 1 + h[0] % OS_MAX_TASKS;
	cfg.ops = 1 + h[1] % OS_MAX_OPS;
	total = cfg.tasks * cfg.ops;
	for (op = 0; op < 5; op++)
		mask |= (u64)h[3 + op] << (8 * op);
	if (mask & (BIT_ULL(FSS_NR_OPS) - 1)) {
		fsstress_parse_mix("", cfg.weights, NULL, 0);
		for (op = 0; op < FSS_NR_OPS; op++)
			if (!(mask & BIT_ULL(op)))
				cfg.weights[op] = 0;
	}
	cfg.seed = get_unaligned_le16(h + 8);
	alloc_nth = get_unaligned_le16(h + 10);
	io_nth = get_unaligned_le16(h + 12);
	cfg.crash_after = get_unaligned_le16(h + 14) % (total + 1);
	os.mode = (h[2] >> OS_F_CRASH_MODE_SHIFT) % 3;
	os.write_back_first = h[2] & OS_F_WRITE_BACK;
	os.read_fault = h[2] & OS_F_READ_FAULT;
	cfg.io_errors = io_nth && !os.read_fault;
	/*
	 * The model's state after every operation (a copy of it each,
	 * fresh memory each input: a fifth of a run's time) is kept only
	 * when a crash or a fault may leave results unknown; without
	 * either, a shutdown is a crash of its own (below).
	 */
	cfg.history = cfg.crash_after || alloc_nth || io_nth;
	os.cut_err = 0;
	memset(&os.crashed, 0, sizeof(os.crashed));
	xfs_globals.larp = h[2] & OS_F_LARP;

	kshim_det_reseed(cfg.seed);
	fs = fsstress_new(&cfg);
	os.stage = "the run";
	must(kshim_xfs_mount(&os.cfg, &os.x), "mount");
	os.fault_id = -1;
	if (io_nth) {
		struct kshim_fault f = {
			.ops = os.read_fault ? KSHIM_FAULT_READ :
					       KSHIM_FAULT_WRITE,
			.nth = io_nth,
			.status = BLK_STS_IOERR,
			.times = 1,
		};

		os.fault_id = kshim_bdev_add_fault(kshim_xfs_data_bdev(os.x), &f);
		must(os.fault_id < 0 ? os.fault_id : 0, "fault");
	}
	os.alloc_failures = kshim_alloc_failures();
	os.running = true;
	kshim_alloc_fail_nth(alloc_nth);
	fsstress_run(fs, kshim_xfs_sb(os.x));
	kshim_alloc_fail_nth(0);
	/* Results were unknown from some point on: the check after the
	 * remount is against the history, not the last state. */
	unknown = fsstress_crashed(fs) || os_shut_down(kshim_xfs_sb(os.x));
	io_hits = os.fault_id < 0 ? 0 :
		  kshim_bdev_fault_hits(kshim_xfs_data_bdev(os.x), os.fault_id);
	if (io_hits)
		unknown = true;
	os.running = false;
	if (os.verbose) {
		struct fsstress_stats st;

		fsstress_stats(fs, &st);
		kshim_info("fuzz_op_sequence: %u task(s) x %lu ops, %llu checks; "
			   "crash %lu%s, allocation fault %lu%s, I/O fault %lu "
			   "(%lu hit), shut down %d\n", cfg.tasks, cfg.ops,
			   st.checks, cfg.crash_after,
			   fsstress_crashed(fs) ? " (crashed)" : "", alloc_nth,
			   kshim_alloc_failures() != os.alloc_failures ?
			   " (fired)" : "", io_nth, io_hits,
			   xfs_is_shutdown(kshim_xfs_mp(os.x)));
	}
	kshim_bdev_clear_faults(kshim_xfs_data_bdev(os.x));
	if (os.cut_err)
		kshim_fatal("fuzz_op_sequence: the power cut failed: %d",
			    os.cut_err);
	os_check(fs);
	if (unknown && !cfg.history)
		kshim_fatal("fuzz_op_sequence: the filesystem shut down with "
			    "no fault or crash injected (above)");
	kshim_xfs_unmount(os.x);
	os.x = NULL;

	if (unknown || h[2] & OS_F_REMOUNT) {
		os.stage = unknown ? "after recovery" : "after the remount";
		/* Recovery runs with the next seed's schedule. */
		err = kshim_xfs_mount(&os.cfg, &os.x);
		/*
		 * A metadata block torn by the power failure (512-byte
		 * sectors, a block of several) can carry its new LSN in
		 * its first sector and old bytes after it: recovery skips
		 * it and its CRC check refuses it. XFS's design, detected,
		 * never silently wrong: as test_xfs_fsstress_crash accepts.
		 */
		if (err == -EFSBADCRC && fsstress_crashed(fs) &&
		    os.crashed.torn &&
		    kshim_printk_contains("Metadata CRC error"))
			goto out;
		if (err)
			kshim_fatal("fuzz_op_sequence: the mount %s failed: %d",
				    unknown ? "after the crash or fault" :
				    "after a clean unmount", err);
		if (unknown)
			fsstress_check_recovered(fs, kshim_xfs_sb(os.x));
		else
			fsstress_check(fs, kshim_xfs_sb(os.x));
		os_check(fs);
		kshim_xfs_unmount(os.x);
		os.x = NULL;
	}
	os_repair();
out:
	fsstress_free(fs);
	xfs_globals.larp = false;
	/* Buffers and inodes are freed by RCU callbacks; the radix tree
	 * nodes XFS's inode cache preloaded per CPU stay until drained. */
	rcu_barrier();
	kshim_cpu_caches_drain();
	os_restore();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	unsigned long warns = kshim_warn_count();
	unsigned long reports = kshim_report_count();
	long live, workers;

	kshim_printk_clear();
	os.inputs++;
	os_one(data, size);
	if (kshim_warn_count() != warns || kshim_report_count() != reports)
		kshim_fatal("fuzz_op_sequence: a WARN or kshim report (above)");
	/* Workers a global workqueue started for this input stay (never
	 * culled): not the input's leak, and part of the next baseline. */
	workers = kshim_workqueue_workers() - os.workers;
	os.baseline += KSHIM_WORKER_ALLOCS * workers;
	os.workers += workers;
	live = kshim_alloc_outstanding();
	if (live != os.baseline) {
		if (kshim_host_getenv("KSHIM_FUZZ_LEAKS"))
			kshim_alloc_report_leaks();
		kshim_fatal("fuzz_op_sequence: %ld allocation(s) more than "
			    "before the input: a leak", live - os.baseline);
	}
	return 0;
}

/* ---- set-up ------------------------------------------------------------------ */

/*
 * Kernel assertions the generator's workloads meet, each kept as a
 * finding of its own (tests/findings/), counted apart here as in
 * test_xfs_fsstress_crash.c:
 *  - inactivating a file under a block with a block-based attr fork
 *    (finding_xfs_attr_inactive_assert.c);
 *  - with logged xattrs, recovery of an attribute removal whose entry is
 *    already INCOMPLETE (finding_xfs_larp_replay_setflag.c);
 *  - after a log write error, inactivation in the window where only the
 *    log is shut down (finding_xfs_inactive_log_shutdown_window.c).
 */
static void known_findings(void)
{
	kshim_test_known_warn("Assertion failed: new_size <= XFS_ISIZE(ip)");
	kshim_test_known_warn("Assertion failed: (entry->flags & XFS_ATTR_INCOMPLETE) == 0");
	kshim_test_known_warn("Assertion failed: xfs_is_shutdown(mp)");
}

int kshim_fuzz_init(const char *workdir)
{
	struct kshim_xfs *x;
	const char *r = kshim_host_getenv("KSHIM_FUZZ_REPAIR");
	int error;

	snprintf(os.img, sizeof(os.img), "%s/op-sequence.img", workdir);
	/* As the generator's tests: 64 MiB (the model keeps 16 MiB of
	 * data at most: ENOSPC is not modelled), reflink (clone, dedupe)
	 * and rmapbt on. */
	if (kshim_xfs_mkfs_id(os.img, 64 << 20, "-m rmapbt=1", 1))
		return -EIO;
	os.cfg.image = os.img;
	error = kshim_xfs_mount(&os.cfg, &x);
	if (error)
		return error;
	kshim_xfs_unmount(x);
	if (kshim_fuzz_image_map(os.img, &os.im))
		return -EIO;
	os.cfg.observer = os_observe;
	/* The replay runner (corpus, crashers) checks every input;
	 * KSHIM_FUZZ_REPAIR=1 every input, =0 none (a benchmark). */
	os.repair_all = r ? !strcmp(r, "1") :
			!!kshim_host_getenv("KSHIM_FUZZ_REPLAY");
	os.repair_never = r && !strcmp(r, "0");
	/* A fuzzing fleet's runner (ClusterFuzzLite) has no xfsprogs: the
	 * build shipped the images (kshim_fuzz_host.c), and xfs_repair
	 * cannot run. Said once, not failed on every 64th input. */
	if (!r && kshim_host_getenv("KSHIM_FUZZ_SHIPPED_IMAGES")) {
		os.repair_never = true;
		kshim_info("fuzz_op_sequence: shipped images, no xfsprogs: "
			   "xfs_repair -n off (KSHIM_FUZZ_REPAIR=1 to force)\n");
	}
	os.verbose = kshim_host_getenv("KSHIM_VERBOSE");
	/* Corruption reports (after an I/O fault): the alert line, without
	 * the hex dump and stack trace. A crash still has its trace. */
	xfs_params.error_level.val = XFS_ERRLEVEL_OFF;
	known_findings();
	rcu_barrier();
	kshim_cpu_caches_drain();
	os.baseline = kshim_alloc_outstanding();
	os.workers = kshim_workqueue_workers();
	return 0;
}

int kshim_fuzz_exit(void)
{
	kshim_fuzz_image_unmap(&os.im);
	return kshim_runtime_exit_checks();
}
