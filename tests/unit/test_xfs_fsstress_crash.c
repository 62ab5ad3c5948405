// SPDX-License-Identifier: GPL-2.0
/*
 * Crash consistency of the namespace: the operation generator runs
 * (support/fsstress.h) and the power fails at a seeded point in the
 * middle of it, with tasks in their operations, inodegc and the AIL
 * busy. The device's volatile cache is dropped, partly kept, or kept
 * with torn writes. Then the remount's real recovery (inode items,
 * intents, unlinked lists), and the checks: recovery succeeds, each
 * task's directory tree is its model as it was after some operation
 * between the last one a completed log force or sync covered and the one
 * in flight (operations are atomic), each of its files holds what fsync,
 * fdatasync and O_DSYNC promised (support/data_durability.h), and the
 * image passes xfs_repair -n. test_crash_in_data_operations runs a mix
 * of mostly data without log forces, so that only those promises hold.
 * A failing seed replays from the line kshim prints.
 */
#include <linux/fs.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"
#include "xfs_log_priv.h"
#include "fsstress.h"

#define TASKS	4
#define OPS	150

/*
 * Kernel assertions this test meets and counts without failing: each is
 * a finding of its own, whose binary is this file built with its define
 * (tests/findings/):
 *  - with logged xattrs, recovery of an attribute removal can assert
 *    that the entry it marks INCOMPLETE was not already so
 *    (finding_xfs_larp_replay_setflag.c: FSSTRESS_CRASH_FINDING);
 *  - after a log write error, inactivation can assert that the mount is
 *    shut down in the window where only the log is
 *    (finding_xfs_inactive_log_shutdown_window.c:
 *    FSSTRESS_CRASH_FINDING_IFREE);
 *  - the unmount of a shut-down filesystem can free the per-CPU inodegc
 *    structures with a delayed_work timer armed (kshim's ODEBUG report;
 *    finding_xfs_inodegc_timer_freed.c:
 *    FSSTRESS_CRASH_FINDING_INODEGC_TIMER).
 * One is not an assertion, and fails this test where it shows (det seed
 * 7496 of test_forced_shutdown_in_the_middle, out of the default seeds;
 * now and then in the parallel backend): with logged xattrs a replace
 * leaves a stale args->blkno, and the filesystem shuts down on a
 * corruption it made itself (finding_xfs_larp_replace_stale_blkno.c).
 */
static void known_findings(void)
{
#ifndef FSSTRESS_CRASH_FINDING
	kshim_test_known_warn("Assertion failed: (entry->flags & XFS_ATTR_INCOMPLETE) == 0");
#endif
#ifndef FSSTRESS_CRASH_FINDING_IFREE
	kshim_test_known_warn("Assertion failed: xfs_is_shutdown(mp)");
#endif
#ifndef FSSTRESS_CRASH_FINDING_INODEGC_TIMER
	kshim_test_known_warn("ODEBUG: the timer is the delayed_work of xfs_inodegc_worker");
#endif
}

/*
 * The mix: the generator's default, or for the findings the mixes they
 * were found with: the namespace operations alone for the first (xattr
 * removals stay as frequent), with clones and dedupes for the second.
 */
#if defined(FSSTRESS_CRASH_FINDING)
static const char default_mix[] = "nodata:";
#elif defined(FSSTRESS_CRASH_FINDING_IFREE)
/* The clone and dedupe weights it was found with (the defaults then). */
static const char default_mix[] = "nodata:clone=2,dedupe=1";
#else
static const char default_mix[] = "";
#endif

static int force_log(struct super_block *sb)
{
	return xfs_log_force(XFS_M(sb), XFS_LOG_SYNC);
}

/*
 * As in test_xfs_log's crash_run(): a metadata block torn by the crash
 * (only possible when a block spans several sectors) can carry its new
 * LSN in the first sector and old bytes after it; recovery skips it (the
 * block says it is newer) and the CRC check refuses it: the mount fails
 * with -EFSBADCRC. XFS's design, detected and never silently wrong:
 * accepted only then. With 4 KiB sectors nothing tears a block.
 */
/* The crash point: a quarter to three quarters of the way. */
static unsigned long crash_point(u64 seed)
{
	return TASKS * OPS / 4 + kshim_random(&seed) % (TASKS * OPS / 2);
}

static void crash_in_the_middle(enum kshim_crash_mode mode, unsigned int sector,
				const char *mix)
{
	struct xfs_fixture fx = { .dev = &dev_ssd_reordering,
				  .sector_size = sector };
	/*
	 * The AIL written back at the crash point: xfsaild's writes sit in
	 * the volatile cache until the next log write's flush, and the
	 * crash modes act on them (without it the cache was empty at the
	 * cut in 27 of 32 runs). The other tasks go on meanwhile: the CIL
	 * the cut loses is never empty. Not with the data mix: waiting for
	 * the AIL forces the log, which would make the metadata of every
	 * operation done by then durable, fsync'd or not.
	 */
	struct xfs_power_cut pc = { .f = &fx, .mode = mode,
				    .write_back_first = mix == default_mix };
	int err;
	unsigned long at = crash_point(kshim_seed() + mode + sector);
	struct fsstress_config cfg = {
		.seed = kshim_seed() + mode + sector,
		.tasks = TASKS,
		.ops = OPS,
		.log_force = force_log,
		.rename_notempty = -EEXIST,
		.history = true,
		.crash_after = at,
		.crash = xfs_fixture_cut_the_power,
		.crash_arg = &pc,
	};
	struct fsstress *fs;
	unsigned int i;
	char why[128];

	if (fsstress_parse_mix(mix, cfg.weights, why, sizeof(why)))
		kshim_fatal("%s", why);
	fs = fsstress_new(&cfg);
	kshim_test_known_warn("Assertion failed: new_size <= XFS_ISIZE(ip)");
	known_findings();
	/*
	 * Logged xattrs (the larp knob, /sys/fs/xfs/debug/larp): an xattr
	 * change is an intent recovery finishes. Without them XFS does not
	 * make xattr changes atomic across a crash: a remote value or a
	 * replacement left half done is an INCOMPLETE entry the kernel skips
	 * and xfs_repair -n reports (finding_xfs_attr_incomplete_after_crash
	 * keeps that). fstests' attribute replay tests set it the same way.
	 */
	xfs_globals.larp = true;
	xfs_fixture_mount_new(&fx);
	fsstress_start(fs, kshim_xfs_sb(fx.x));
	fsstress_join(fs);
	KSHIM_ASSERT_FATAL(fsstress_crashed(fs));
	KSHIM_ASSERT_EQ(pc.err, 0);
	xfs_fixture_unmount(&fx);

	err = xfs_fixture_remount(&fx);
	kshim_info("caches: %llu of %llu cached writes kept, %llu torn; mount %d\n",
		   fx.crashed.kept, fx.crashed.cached, fx.crashed.torn, err);
	if (err == -EFSBADCRC && fx.crashed.torn && sector < 4096) {
		KSHIM_ASSERT(kshim_printk_contains("Metadata CRC error"));
		xfs_fixture_remove(&fx);
		fsstress_free(fs);
		xfs_globals.larp = false;
		return;
	}
	KSHIM_ASSERT_EQ_FATAL(err, 0);
	fsstress_check_recovered(fs, kshim_xfs_sb(fx.x));
	for (i = 0; i < TASKS; i++)
		kshim_info("crash mode %d after %lu operations: task %u "
			   "recovered to operation %ld (forced %lu, in flight %lu)\n",
			   mode, at, i, fsstress_recovered_at(fs, i),
			   fsstress_durable(fs, i), fsstress_last(fs, i));
	KSHIM_ASSERT_EQ(fsstress_failures(fs), 0);
	if (fsstress_failures(fs))
		kshim_info("first: %s\n", fsstress_first_failure(fs));
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
	fsstress_free(fs);
	xfs_globals.larp = false;
}

/*
 * The filesystem is shut down once its log is: a log write error sets the
 * log's XLOG_IO_ERROR first, and operations fail with -EIO from then on,
 * before xfs_do_force_shutdown() marks the mount (the window
 * finding_xfs_inactive_log_shutdown_window is about). Looking at the
 * mount alone, the generator would check an -EIO returned in that
 * window against the model.
 */
static bool shut_down(struct super_block *sb)
{
	struct xfs_mount *mp = XFS_M(sb);

	return xfs_is_shutdown(mp) || xlog_is_shutdown(mp->m_log);
}

enum shutdown_kind { SHUTDOWN_FORCED, SHUTDOWN_WRITE_ERROR };

/* cfg.crash of the forced shutdown, as a corruption found in memory. */
static void force_shutdown(void *arg)
{
	struct xfs_fixture *fx = arg;

	xfs_force_shutdown(fx->mp, SHUTDOWN_META_IO_ERROR);
}

/*
 * A shutdown in the middle of the run, the power still on: forced
 * (xfs_force_shutdown(), as a corruption found in memory does) at a
 * seeded point, or a write failing with EIO at a seeded write (a log
 * write shuts the log down; a metadata write is retried, and the run may
 * go on to its end). Tasks in their operations, inodegc, reclaim
 * (dropping the caches) and the AIL all busy. Nothing may hang, the
 * unmount of the shut-down filesystem must complete, and after recovery
 * the trees and xfs_repair -n are checked as after a crash.
 */
static void shutdown_in_the_middle(enum shutdown_kind kind)
{
	struct xfs_fixture fx = { .dev = &dev_ssd };
	u64 rng = kshim_seed() + 100 + kind;
	struct fsstress_config cfg = {
		.crash_after = kind == SHUTDOWN_FORCED ?
			       crash_point(kshim_seed() + 100 + kind) : 0,
		.crash = force_shutdown,
		.crash_arg = &fx,
		.seed = kshim_seed() + 100 + kind,
		.tasks = TASKS,
		.ops = OPS,
		.log_force = force_log,
		.rename_notempty = -EEXIST,
		.history = true,
		.shut_down = shut_down,
		/* A data write's EIO leaves the filesystem up: the file's
		 * data is then unknown (fsstress.h). */
		.io_errors = kind == SHUTDOWN_WRITE_ERROR,
	};
	struct fsstress *fs;
	char why[128];
	struct kshim_fault fault = {
		.ops = KSHIM_FAULT_WRITE,
		.nth = 5 + kshim_random(&rng) % 60,
		.status = BLK_STS_IOERR,
		.times = 1,
	};
	int id = -1;
	bool was_shut_down;
	unsigned int i;

	kshim_test_known_warn("Assertion failed: new_size <= XFS_ISIZE(ip)");
	known_findings();
	xfs_globals.larp = true;
	if (fsstress_parse_mix(default_mix, cfg.weights, why, sizeof(why)))
		kshim_fatal("%s", why);
	fs = fsstress_new(&cfg);
	xfs_fixture_mount_new(&fx);
	if (kind == SHUTDOWN_WRITE_ERROR) {
		id = kshim_bdev_add_fault(kshim_xfs_data_bdev(fx.x), &fault);
		KSHIM_ASSERT_FATAL(id >= 0);
	}
	fsstress_start(fs, kshim_xfs_sb(fx.x));
	fsstress_join(fs);
	if (kind == SHUTDOWN_FORCED)
		KSHIM_ASSERT_FATAL(fsstress_crashed(fs));
	was_shut_down = xfs_is_shutdown(fx.mp);
	if (id >= 0)
		kshim_info("write fault at write %lu: %lu hit(s); shut down: %d\n",
			   fault.nth,
			   kshim_bdev_fault_hits(kshim_xfs_data_bdev(fx.x), id),
			   was_shut_down);
	xfs_fixture_unmount(&fx);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	fsstress_check_recovered(fs, kshim_xfs_sb(fx.x));
	for (i = 0; i < TASKS; i++)
		kshim_info("shutdown %d: task %u recovered to operation %ld "
			   "(forced %lu, in flight %lu)\n", kind, i,
			   fsstress_recovered_at(fs, i), fsstress_durable(fs, i),
			   fsstress_last(fs, i));
	KSHIM_ASSERT_EQ(fsstress_failures(fs), 0);
	if (fsstress_failures(fs))
		kshim_info("first: %s\n", fsstress_first_failure(fs));
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
	fsstress_free(fs);
	xfs_globals.larp = false;
}

static void test_forced_shutdown_in_the_middle(void)
{
	shutdown_in_the_middle(SHUTDOWN_FORCED);
}

static void test_write_error_in_the_middle(void)
{
	shutdown_in_the_middle(SHUTDOWN_WRITE_ERROR);
}

static void test_crash_dropping_the_cache(void)
{
	crash_in_the_middle(KSHIM_CRASH_DROP_ALL, 512, default_mix);
}

static void test_crash_keeping_some_of_the_cache(void)
{
	crash_in_the_middle(KSHIM_CRASH_KEEP_RANDOM, 512, default_mix);
}

static void test_crash_tearing_writes_on_4k_sectors(void)
{
	crash_in_the_middle(KSHIM_CRASH_TEAR, 4096, default_mix);
}

static void test_crash_tearing_writes_on_512_byte_sectors(void)
{
	crash_in_the_middle(KSHIM_CRASH_TEAR, 512, default_mix);
}

/*
 * Mostly file data, and neither log forces nor syncs: what survives is
 * what fsync, fdatasync and O_DSYNC made durable (and what the log's own
 * pushes happened to write). The default mix's forces and syncs cover
 * nearly everything before the power goes.
 */
static const char data_mix[] =
	"only:create=4,mkdir=1,link=1,rename=2,unlink=1,setxattr=1,"
	"write=8,read=2,dsyncwrite=3,dwrite=2,fsync=3,fdatasync=2,"
	"fallocate=2,punch=2,zero=1,truncate=2";

static void test_crash_in_data_operations(void)
{
	crash_in_the_middle(KSHIM_CRASH_DROP_ALL, 512, data_mix);
}

/* The inodegc timer and larp blkno findings' binaries run the one test
 * that found them: the tests before it would move their seeds. */
#if defined(FSSTRESS_CRASH_FINDING_INODEGC_TIMER) || \
    defined(FSSTRESS_CRASH_FINDING_LARP_BLKNO)
#define FSSTRESS_CRASH_FORCED_ONLY 1
#endif
static const struct kshim_test tests[] = {
#ifndef FSSTRESS_CRASH_FORCED_ONLY
#if !defined(FSSTRESS_CRASH_FINDING) && !defined(FSSTRESS_CRASH_FINDING_IFREE)
	KSHIM_TEST(test_crash_in_data_operations),
#endif
	KSHIM_TEST(test_crash_dropping_the_cache),
	KSHIM_TEST(test_crash_keeping_some_of_the_cache),
	KSHIM_TEST(test_crash_tearing_writes_on_4k_sectors),
	KSHIM_TEST(test_crash_tearing_writes_on_512_byte_sectors),
#endif
	KSHIM_TEST(test_forced_shutdown_in_the_middle),
#ifndef FSSTRESS_CRASH_FORCED_ONLY
	KSHIM_TEST(test_write_error_in_the_middle),
#endif
	{ }
};

KSHIM_SUITES({ "xfs_fsstress_crash", NULL, NULL, tests });
