// SPDX-License-Identifier: GPL-2.0
/*
 * The real XFS log (fs/xfs/xfs_log.c, xfs_log_cil.c, xfs_trans_ail.c,
 * xfs_log_recover.c) on an image made by mkfs.xfs: mount, transactions,
 * log forces, unmount, and xfs_logprint reading back what was written.
 */
#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/string.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <kshim/sched.h>
#include <kshim/ktest.h>
#include "xfs_fixture.h"
#include "xfs_grant_heads.h"
#include "xfs_log_load.h"
#include "xfs_log_bio.h"
#include "xfs_log_priv.h"
#include "xfs_trans_priv.h"
#include "xfs_stats.h"
#include "xfs_buf_item.h"
#include <kshim/runtime.h>

/*
 * The stress tests' image: 8192 scratch blocks, more than the CIL can
 * hold without the hard throttle. The log is twice the smallest mkfs.xfs
 * allows: on the smallest (1368 blocks) the deterministic backend finds
 * schedules where the kernel's own xlog_verify_tail_lsn() reports the
 * head wrapping onto the tail, kept as a finding of its own
 * (tests/findings/finding_xfs_log_tail_wrap.c).
 */
#define STRESS_IMG_SIZE	(256ULL << 20)
#define STRESS_MKFS	"-l size=2736b"

/*
 * The log of a fresh filesystem mounts clean (no recovery), its geometry
 * is the superblock's, and unmounting writes the log cover (a superblock
 * transaction) and then an unmount record, which xfs_logprint finds.
 */
static void test_mount_and_unmount_write_an_unmount_record(void)
{
	struct xfs_fixture fx = { };
	struct log_bio_trace trace;
	struct log_bio_counts c;
	struct xfs_mount *mp;
	struct xlog *log;
	const char *logprint, *commit;

	xfs_fixture_mkfs(&fx);
	kshim_printk_clear();
	mp = xfs_fixture_mount(&fx);
	log = mp->m_log;
	KSHIM_ASSERT_NOT_NULL(log);
	KSHIM_ASSERT_EQ(log->l_logBBsize,
			XFS_FSB_TO_BB(mp, mp->m_sb.sb_logblocks));
	KSHIM_ASSERT(!kshim_printk_contains("Starting recovery"));
	log_bio_trace_start(&trace, mp);
	xfs_fixture_unmount(&fx);
	/* The unmount record went out as one PREFLUSH|FUA iclog write. */
	log_bio_trace_read(&trace, &c);
	log_bio_trace_release(&trace);
	KSHIM_ASSERT_EQ(c.unmount_iclogs, 1);
	KSHIM_ASSERT_EQ(c.violations, 0);
	logprint = xfs_fixture_logprint(&fx);
	/*
	 * mkfs.xfs left an unmount record already; kshim's unmount must add
	 * a transaction logging the superblock buffer (the log cover) and,
	 * after its commit, an unmount record of its own.
	 */
	commit = strstr(logprint, "flags: COMMIT");
	KSHIM_ASSERT(strstr(logprint, "SUPER BLOCK Buffer") != NULL);
	KSHIM_ASSERT(commit && strstr(commit, "flags: UNMOUNT") != NULL);

	/* Mounted again: the tail is found clean, nothing to recover. */
	kshim_printk_clear();
	xfs_fixture_mount(&fx);
	KSHIM_ASSERT(!kshim_printk_contains("Starting recovery"));
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* dd over IMG: COUNT blocks of BS bytes from block SEEK. */
static void overwrite(const char *img, const char *src,
		      unsigned long long seek, unsigned long long count,
		      const char *bs)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "dd if=%s of=%s bs=%s seek=%llu count=%llu "
		 "conv=notrunc status=none", src, img, bs, seek, count);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_run_command(cmd), 0);
}

/* A superblock with the wrong magic: the kernel's own refusal, no crash. */
static void test_bad_superblock_magic_fails_the_mount(void)
{
	struct xfs_fixture fx = { };

	xfs_fixture_mkfs(&fx);
	overwrite(fx.img, "/dev/zero", 0, 1, "4");
	KSHIM_ASSERT_EQ(xfs_fixture_try_mount(&fx), -EINVAL);
	KSHIM_ASSERT_NULL(fx.x);
	xfs_fixture_remove(&fx);
}

/*
 * A seed is a promise: an image is the same bytes for the same seed and
 * image number (mkfs.xfs's UUID comes from them, its clock is frozen),
 * and another number gives another filesystem UUID.
 */
static void test_mkfs_image_depends_only_on_seed_and_number(void)
{
	char a[256], b[256], c[256], cmd[1024];
	const u64 size = 64ULL << 20;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(a, sizeof(a), size, 0), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(b, sizeof(b), size, 0), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(c, sizeof(c), size, 0), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_xfs_mkfs_id(a, size, NULL, 1000), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_xfs_mkfs_id(b, size, NULL, 1000), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_xfs_mkfs_id(c, size, NULL, 1001), 0);
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", a, b);
	KSHIM_ASSERT_EQ(kshim_host_run_command(cmd), 0);
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", a, c);
	KSHIM_ASSERT_EQ(kshim_host_run_command(cmd), 1);
	kshim_host_image_remove(a);
	kshim_host_image_remove(b);
	kshim_host_image_remove(c);
}

/*
 * The check every fixture runs before removing an image is able to fail:
 * an AGI zeroed after a clean unmount is what xfs_repair -n reports
 * (exit 1), in its own words.
 */
static void test_xfs_repair_check_finds_a_zeroed_agi(void)
{
	static char out[16 << 10];
	struct xfs_fixture fx = { };

	xfs_fixture_mount_new(&fx);
	xfs_fixture_unmount(&fx);
	KSHIM_ASSERT_EQ(xfs_fixture_repair_check(&fx), 0);
	/* AG 0's AGI is its third sector (512-byte sectors here). */
	overwrite(fx.img, "/dev/zero", 2, 1, "512");
	KSHIM_ASSERT_EQ(kshim_xfs_repair_check(fx.img, NULL, out, sizeof(out)),
			1);
	KSHIM_ASSERT(strstr(out, "agi") != NULL);
	/* Not xfs_fixture_remove(): its own check would fail the test. */
	kshim_host_image_remove(fx.img);
}

/*
 * A log full of garbage: xlog_find_head() finds no record header, says
 * "Log inconsistent", and the mount fails with -EFSCORRUPTED. An
 * XFS_DEBUG kernel also fires ASSERT(0) there: a WARN, as
 * CONFIG_XFS_ASSERT_FATAL is off (any WARN a test does not expect fails
 * it), expected here.
 */
static void test_garbage_log_fails_the_mount(void)
{
	struct xfs_fixture fx = { };
	unsigned long long logstart, logblocks;
	struct xfs_mount *mp;
	int err;

	mp = xfs_fixture_mount_new(&fx);
	logstart = mp->m_sb.sb_logstart;
	logblocks = mp->m_sb.sb_logblocks;
	xfs_fixture_unmount(&fx);
	overwrite(fx.img, "/dev/urandom", logstart, logblocks, "4096");
	kshim_printk_clear();
	kshim_test_expect_warns(1);
	err = xfs_fixture_try_mount(&fx);
	KSHIM_ASSERT_EQ(err, -EFSCORRUPTED);
	KSHIM_ASSERT(kshim_printk_contains("Log inconsistent"));
	KSHIM_ASSERT_NULL(fx.x);
	xfs_fixture_remove(&fx);
}

/* ---- transactions on scratch metadata blocks -------------------------- */

#define NR_BLOCKS	XFS_FIXTURE_BLOCKS
#define NR_COMMITS	400

/*
 * xfs_log_force_seq(SYNC) returns only when the checkpoint is on stable
 * storage: after it, a power failure that drops every cached write loses
 * nothing, and the remount's recovery brings every block back.
 */
static void test_forced_commits_survive_power_failure(void)
{
	struct xfs_fixture fx = { };
	struct log_bio_trace trace;
	struct log_bio_counts c;
	u64 s;

	xfs_fixture_mount_new(&fx);
	log_bio_trace_start(&trace, fx.mp);
	for (s = 1; s <= NR_COMMITS; s++)
		xfs_fixture_commit(&fx, BIT(s % NR_BLOCKS), 200);
	KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
	/* Each iclog holding a commit record went out REQ_FUA. */
	log_bio_trace_stop(&trace);
	log_bio_trace_read(&trace, &c);
	log_bio_trace_release(&trace);
	KSHIM_ASSERT(c.commit_iclogs >= 1);
	KSHIM_ASSERT(c.fua >= c.commit_iclogs);
	KSHIM_ASSERT_EQ(c.undecoded, 0);
	KSHIM_ASSERT_EQ(c.violations, 0);
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_DROP_ALL), 0);

	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT(kshim_printk_contains("Starting recovery"));
	KSHIM_ASSERT_EQ(xfs_fixture_check_prefix(&fx), NR_COMMITS);
	xfs_fixture_unmount(&fx);
	xfs_fixture_logprint(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * Transactions of two blocks each, asynchronous forces now and then and
 * one synchronous force at a seeded point, then a power failure that
 * keeps a random subset of the cached writes (and, in TEAR mode, tears
 * some) on devices of SECTOR bytes. Recovery must give the state after
 * some prefix of the commits (a transaction is all there or not at all,
 * checkpoints replay in order), at least up to the synchronous force.
 *
 * One exception, and it is XFS's design: a metadata block torn by the
 * crash (possible only when the filesystem block is several sectors)
 * can carry the new LSN in its first sector and old bytes after it;
 * recovery then skips replaying it (the block says it is newer) and the
 * read verifier's CRC check refuses it: the mount fails with
 * -EFSBADCRC, "Metadata CRC error". Detected, never silently wrong:
 * that is what the test accepts, and only when a write was torn.
 */
static void crash_run(enum kshim_crash_mode mode, unsigned int sector)
{
	/* I/O slow and reordered enough to be in flight at the crash. */
	struct xfs_fixture fx = {
		.sector_size = sector,
		.dev = &dev_ssd_reordering,
	};
	u64 rnd = kshim_seed() ^ mode ^ sector, s, sync_at, wait;
	struct kshim_crash_result *res = &fx.crashed;
	struct xfs_mount *mp;
	int err;

	mp = xfs_fixture_mount_new(&fx);
	sync_at = 1 + kshim_random(&rnd) % NR_COMMITS;
	for (s = 1; s <= NR_COMMITS; s++) {
		unsigned int a = kshim_random(&rnd) % NR_BLOCKS;
		unsigned int b = (a + 1 + kshim_random(&rnd) % (NR_BLOCKS - 1)) %
				 NR_BLOCKS;

		xfs_fixture_commit(&fx, BIT(a) | BIT(b),
				   16 + kshim_random(&rnd) % 1000);
		if (s == sync_at)
			KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
		else if (s % 50 == 0)
			KSHIM_ASSERT_EQ(xfs_log_force(mp, 0), 0);
		/* Metadata writeback, so the tail moves on. */
		if (s % 100 == 0)
			xfs_ail_push_all(mp->m_ail);
	}
	/*
	 * Crash with log and metadata writes in flight and cached: start a
	 * force (waiting for it or not) and the AIL's writeback, and let
	 * them run for a seeded while: the device takes 20-100 us per I/O.
	 * (Without the wait the buffers are still pinned: xfsaild forces the
	 * log and its push target ends below where the checkpoint moves
	 * them, so it writes little.) Not counted as a durable point even
	 * when synchronous: the check requires the seeded force only.
	 */
	KSHIM_ASSERT_EQ(xfs_log_force(mp, kshim_random(&rnd) % 2 ?
					  XFS_LOG_SYNC : 0), 0);
	xfs_ail_push_all(mp->m_ail);
	wait = kshim_random(&rnd) % 2 ? kshim_random(&rnd) % 2000 :
					   50000 + kshim_random(&rnd) % 200000;
	usleep_range(wait, wait + 1);
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, mode), 0);

	err = xfs_fixture_remount(&fx);
	kshim_info("crash mode %d, %u-byte sectors, after %llu us: %llu of "
		   "%llu cached writes kept, %llu torn; mount %d\n", mode,
		   sector, wait, res->kept, res->cached, res->torn, err);
	if (err == -EFSBADCRC && res->torn && sector < 4096) {
		KSHIM_ASSERT(kshim_printk_contains("Metadata CRC error"));
	} else {
		KSHIM_ASSERT_EQ_FATAL(err, 0);
		s = xfs_fixture_check_prefix(&fx);
		kshim_info("recovered up to seq %llu (forced %llu, last %d)\n",
			   s, fx.durable, NR_COMMITS);
		xfs_fixture_unmount(&fx);
		xfs_fixture_logprint(&fx);
	}
	xfs_fixture_remove(&fx);
}

static void test_crash_keeping_random_writes_recovers_a_prefix(void)
{
	crash_run(KSHIM_CRASH_KEEP_RANDOM, 512);
}

/*
 * 4096-byte sectors (mkfs -s size=4096): a 4 KiB metadata block is one
 * sector and cannot tear, so a prefix must always come back. A 32 KiB
 * iclog write could tear, but here checkpoints rarely span iclogs and
 * in seeds 1..12 no cached iclog write was torn: torn log writes are not
 * yet exercised (see the issue notes).
 */
static void test_crash_tearing_on_4k_sectors_recovers_a_prefix(void)
{
	crash_run(KSHIM_CRASH_TEAR, 4096);
}

/* 512-byte sectors: metadata blocks can tear too (see crash_run()). */
static void test_crash_tearing_metadata_is_detected_or_recovered(void)
{
	crash_run(KSHIM_CRASH_TEAR, 512);
}

/*
 * An external log device (mkfs.xfs -l logdev=): commits, a synchronous
 * force, a power failure on both devices; the remount recovers from the
 * log device, every commit is there, and xfs_logprint reads the log
 * device kshim wrote.
 */
static void test_external_log_recovers_forced_commits(void)
{
	struct xfs_fixture fx = { .log_size = 8 << 20 };
	struct xfs_mount *mp;
	u64 s;

	mp = xfs_fixture_mount_new(&fx);
	KSHIM_ASSERT(mp->m_logdev_targp != mp->m_ddev_targp);
	KSHIM_ASSERT_EQ(mp->m_sb.sb_logstart, 0);
	for (s = 1; s <= 100; s++)
		xfs_fixture_commit(&fx, BIT(s % NR_BLOCKS), 500);
	KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_DROP_ALL), 0);

	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT(kshim_printk_contains("Starting recovery (logdev: "));
	KSHIM_ASSERT_EQ(xfs_fixture_check_prefix(&fx), 100);
	xfs_fixture_unmount(&fx);
	KSHIM_ASSERT(strstr(xfs_fixture_logprint(&fx), "flags: UNMOUNT") !=
		     NULL);

	/* The data device alone is refused: the log is external. */
	fx.cfg.log_image = NULL;
	KSHIM_ASSERT_EQ(xfs_fixture_try_mount(&fx), -EINVAL);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test recovery_tests[] = {
	KSHIM_TEST(test_external_log_recovers_forced_commits),
	KSHIM_TEST(test_forced_commits_survive_power_failure),
	KSHIM_TEST(test_crash_keeping_random_writes_recovers_a_prefix),
	KSHIM_TEST(test_crash_tearing_on_4k_sectors_recovers_a_prefix),
	KSHIM_TEST(test_crash_tearing_metadata_is_detected_or_recovered),
	{ }
};

/* ---- grant heads --------------------------------------------------------- */

/*
 * The accounting of one permanent ticket through what xfs_trans_roll()
 * does to it, step by step: every byte reserved is counted on the heads
 * exactly once and every byte comes back.
 */
static void test_reserve_regrant_ungrant_account_every_byte(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xlog *log;
	struct xlog_ticket *tic = NULL;
	s64 r0, w0, unit;
	int cnt, i;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	xfs_fixture_quiesce(mp);
	r0 = grant(&log->l_reserve_head);
	w0 = grant(&log->l_write_head);
	KSHIM_ASSERT_EQ(r0, idle_grant(log));
	KSHIM_ASSERT_EQ(w0, idle_grant(log));

	/* Both heads take unit * count. */
	cnt = M_RES(mp)->tr_write.tr_logcount;
	KSHIM_ASSERT_FATAL(cnt >= 2);
	KSHIM_ASSERT_EQ_FATAL(xfs_log_reserve(mp, M_RES(mp)->tr_write.tr_logres,
					      cnt, &tic, true), 0);
	unit = tic->t_unit_res;
	KSHIM_ASSERT(unit > M_RES(mp)->tr_write.tr_logres);	/* + headers */
	KSHIM_ASSERT_EQ(tic->t_cnt, cnt);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), r0 + cnt * unit);
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), w0 + cnt * unit);

	/* Rolls within the count use the pre-reserved units: the heads give
	 * back one unit per roll, xfs_log_regrant() takes nothing. */
	for (i = 1; i < cnt; i++) {
		xfs_log_ticket_get(tic);	/* the roll's reference */
		xfs_log_ticket_regrant(log, tic);
		KSHIM_ASSERT_EQ(tic->t_cnt, cnt - i);
		KSHIM_ASSERT_EQ(xfs_log_regrant(mp, tic), 0);
		KSHIM_ASSERT_EQ(grant(&log->l_reserve_head),
				r0 + (cnt - i) * unit);
		KSHIM_ASSERT_EQ(grant(&log->l_write_head),
				w0 + (cnt - i) * unit);
	}

	/* Count exhausted: the reserve head takes a unit at once, the
	 * write head when xfs_log_regrant() asks for it. */
	xfs_log_ticket_get(tic);
	xfs_log_ticket_regrant(log, tic);
	KSHIM_ASSERT_EQ(tic->t_cnt, 0);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), r0 + unit);
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), w0);
	KSHIM_ASSERT_EQ(xfs_log_regrant(mp, tic), 0);
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), w0 + unit);

	/* Done: every byte back. */
	xfs_log_ticket_ungrant(log, tic);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), r0);
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), w0);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * Permanent reservations across real rolls: a tr_write transaction
 * logging a block, rolled eight times (so it regrants past its count),
 * then committed. While it runs the heads hold its reservation; once the
 * log is idle again they are back where they started: nothing lost or
 * counted twice, and the blocks are on disk.
 */
static void test_rolling_transaction_returns_its_reservation(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xlog *log;
	struct xfs_trans *tp;
	s64 r0;
	u64 seq;
	int i;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	xfs_fixture_quiesce(mp);
	r0 = grant(&log->l_reserve_head);
	KSHIM_ASSERT_EQ(r0, idle_grant(log));
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), r0);

	KSHIM_ASSERT_EQ_FATAL(xfs_trans_alloc(mp, &M_RES(mp)->tr_write, 0, 0,
					      0, &tp), 0);
	for (i = 1; i <= 8; i++) {
		KSHIM_ASSERT_EQ_FATAL(kshim_xfs_scratch_log(tp, i % 3, i, 300),
				      0);
		KSHIM_ASSERT_EQ_FATAL(xfs_trans_roll(&tp), 0);
		KSHIM_ASSERT(grant(&log->l_reserve_head) >=
			     r0 + tp->t_ticket->t_unit_res);
		KSHIM_ASSERT(space_left(log, &log->l_reserve_head) >= 0);
	}
	KSHIM_ASSERT_EQ_FATAL(xfs_trans_commit(tp), 0);
	xfs_fixture_quiesce(mp);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), idle_grant(log));
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), idle_grant(log));
	for (i = 0; i < 3; i++) {
		KSHIM_ASSERT_EQ(kshim_xfs_scratch_read(mp, i, &seq), 0);
		KSHIM_ASSERT_EQ(seq, i == 0 ? 6 : i == 1 ? 7 : 8);
	}
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * Waiters queue in order and are woken when space frees: with 60% of
 * the log reserved, B (50%) waits; C (10%) would fit but must queue
 * behind B (no barging past a waiter); when the 60% is given back both
 * get their space, B first in the queue.
 */
static void test_waiters_queue_in_order_and_wake_when_space_frees(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xlog *log;
	struct xlog_ticket *a = NULL;
	struct reserver b = { }, c = { };
	struct task_struct *tb, *tc;
	s64 free0, r0;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	xfs_fixture_quiesce(mp);
	free0 = space_left(log, &log->l_reserve_head);
	r0 = grant(&log->l_reserve_head);

	KSHIM_ASSERT_EQ_FATAL(xfs_log_reserve(mp, free0 * 6 / 10, 1, &a, false),
			      0);
	b = (struct reserver){ .mp = mp, .bytes = free0 * 5 / 10 };
	c = (struct reserver){ .mp = mp, .bytes = free0 / 10 };
	tb = kshim_task_run(reserver_fn, &b, "reserver-b", -1);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(nr_waiters(&log->l_reserve_head) == 1,
					5 * HZ));
	tc = kshim_task_run(reserver_fn, &c, "reserver-c", -1);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(nr_waiters(&log->l_reserve_head) == 2,
					5 * HZ));
	KSHIM_ASSERT(space_left(log, &log->l_reserve_head) >= c.tic->t_unit_res);
	KSHIM_ASSERT(!smp_load_acquire(&b.done) && !smp_load_acquire(&c.done));
	spin_lock(&log->l_reserve_head.lock);
	KSHIM_ASSERT_PTR_EQ(list_first_entry(&log->l_reserve_head.waiters,
					     struct xlog_ticket, t_queue), b.tic);
	spin_unlock(&log->l_reserve_head.lock);

	xfs_log_ticket_ungrant(log, a);
	kshim_task_join(tb);
	kshim_task_join(tc);
	KSHIM_ASSERT_EQ(b.err, 0);
	KSHIM_ASSERT_EQ(c.err, 0);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head),
			r0 + b.tic->t_unit_res + c.tic->t_unit_res);
	KSHIM_ASSERT(space_left(log, &log->l_reserve_head) >= 0);
	xfs_log_ticket_ungrant(log, b.tic);
	xfs_log_ticket_ungrant(log, c.tic);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), r0);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * A shutdown wakes the tasks waiting for log space, and each fails with
 * -EIO holding no space: a waiter left asleep would hang the unmount,
 * one that went on with its reservation would write into a dead log.
 */
static void test_shutdown_fails_log_space_waiters_with_eio(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xlog *log;
	struct xlog_ticket *a = NULL;
	struct reserver b = { };
	struct task_struct *tb;
	s64 free0, r0, w0;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	xfs_fixture_quiesce(mp);
	free0 = space_left(log, &log->l_reserve_head);
	r0 = grant(&log->l_reserve_head);
	w0 = grant(&log->l_write_head);

	KSHIM_ASSERT_EQ_FATAL(xfs_log_reserve(mp, free0 * 6 / 10, 1, &a, false),
			      0);
	b = (struct reserver){ .mp = mp, .bytes = free0 * 5 / 10 };
	tb = kshim_task_run(reserver_fn, &b, "reserver-b", -1);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(nr_waiters(&log->l_reserve_head) == 1,
					5 * HZ));
	xfs_force_shutdown(mp, SHUTDOWN_META_IO_ERROR);
	kshim_task_join(tb);
	KSHIM_ASSERT_EQ(b.err, -EIO);
	KSHIM_ASSERT_EQ(nr_waiters(&log->l_reserve_head), 0);
	/* Only A's space is held; the failed ticket gives back nothing. */
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), r0 + a->t_unit_res);
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), w0 + a->t_unit_res);
	xfs_log_ticket_ungrant(log, b.tic);
	xfs_log_ticket_ungrant(log, a);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), r0);
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), w0);
	/* And a new reservation fails at once, with no ticket. */
	a = NULL;
	KSHIM_ASSERT_EQ(xfs_log_reserve(mp, free0 / 10, 1, &a, false), -EIO);
	KSHIM_ASSERT(a == NULL);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * The AIL takes a checkpoint's items only once the checkpoint is on
 * disk (the commit iclog's completion inserts them at the checkpoint's
 * start LSN, which then holds the log tail), and writing them back
 * (xfsaild, pushed by xfs_ail_push_all_sync()) empties it, moves the
 * tail up to the AIL's head and puts the blocks on disk.
 */
static void test_ail_takes_items_after_their_checkpoint_and_writes_them_back(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct xlog *log;
	xfs_lsn_t lsn;
	xfs_csn_t csn;
	unsigned int b;
	u64 seq;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	ailp = mp->m_ail;
	xfs_fixture_quiesce(mp);

	/* Committed into the CIL, not yet written: not in the AIL. */
	csn = xfs_fixture_commit(&fx, 0xff, 200);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	KSHIM_ASSERT_EQ(kshim_xfs_scratch_read(mp, 0, &seq), 0);
	KSHIM_ASSERT_EQ(seq, 0);	/* never written */

	/* The checkpoint on disk: its 8 buffers in the AIL, holding the
	 * tail at the checkpoint's start. */
	KSHIM_ASSERT_EQ(xfs_log_force_seq(mp, csn, XFS_LOG_SYNC, NULL), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 8);
	lsn = xfs_ail_min_lsn(ailp);
	KSHIM_ASSERT(lsn != 0);
	KSHIM_ASSERT_EQ(atomic64_read(&log->l_tail_lsn), lsn);
	KSHIM_ASSERT(XFS_LSN_CMP(lsn, ailp->ail_head_lsn) <= 0);

	/* Written back: empty, the tail at the AIL's head, blocks on disk. */
	xfs_ail_push_all_sync(ailp);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	spin_lock(&ailp->ail_lock);
	KSHIM_ASSERT_EQ(atomic64_read(&log->l_tail_lsn), ailp->ail_head_lsn);
	spin_unlock(&ailp->ail_lock);
	for (b = 0; b < 8; b++) {
		KSHIM_ASSERT_EQ(kshim_xfs_scratch_read(mp, b, &seq), 0);
		KSHIM_ASSERT_EQ(seq, 1);
	}
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test grant_tests[] = {
	KSHIM_TEST(test_reserve_regrant_ungrant_account_every_byte),
	KSHIM_TEST(test_rolling_transaction_returns_its_reservation),
	KSHIM_TEST(test_waiters_queue_in_order_and_wake_when_space_frees),
	KSHIM_TEST(test_shutdown_fails_log_space_waiters_with_eio),
	KSHIM_TEST(test_ail_takes_items_after_their_checkpoint_and_writes_them_back),
	{ }
};

/* ---- many committers: CIL, forces, wrap, AIL, invariants ------------------ */

static void print_load(const char *what, const struct log_load *ll)
{
	kshim_info("%s: %llu commits in %llu ms (%llu ms real), %llu "
		   "checkpoints, %u log cycles, CIL max %lld of hard limit "
		   "%lld (log %lld), %u CPUs' CIL parts at once, %llu "
		   "committers throttled at most, %llu reservers slept, %llu "
		   "samples, %llu violations\n", what, ll->commits,
		   ll->elapsed_ns / NSEC_PER_MSEC, ll->real_ns / NSEC_PER_MSEC,
		   ll->checkpoints, ll->log_cycles, ll->cil_max_bytes,
		   ll->cil_hard_limit, ll->logsize, ll->cil_max_cpus,
		   ll->throttled_max, ll->sleep_logspace, ll->samples,
		   ll->violations);
}

/*
 * 64 tasks commit 38,400 transactions of 1000-byte blocks, each to a
 * different block, on a small log (2736 blocks, twice the smallest):
 * the CIL fills to its background push, the log wraps more than twice,
 * the AIL writes back and frees the tail for the blocked reservers, and
 * the checker's invariants hold at every sample. Then a power failure
 * after an unwaited force that loses every cached write: recovery
 * replays, every block verifies, and xfs_logprint reads the log.
 */
static void test_committers_wrap_the_log_keeping_its_invariants(void)
{
	struct xfs_fixture fx = {
		.size = STRESS_IMG_SIZE,
		.mkfs_opts = STRESS_MKFS,
		.dev = &dev_ssd,
	};
	struct log_load ll = {
		.nr_tasks = 64,
		.commits_per_task = kshim_test_scale(600),
		.payload = 1000,
	};
	struct log_bio_trace trace;
	struct log_bio_counts c;

	ll.mp = xfs_fixture_mount_new(&fx);
	log_bio_trace_start(&trace, ll.mp);
	KSHIM_ASSERT_EQ_FATAL(log_load_run(&ll), 0);
	log_bio_trace_stop(&trace);
	log_bio_trace_read(&trace, &c);
	log_bio_trace_release(&trace);
	print_load("stress", &ll);
	kshim_info("stress: %llu iclog writes, %llu PREFLUSH, %llu FUA; "
		   "%llu hold a commit record, %llu a start record; at most "
		   "%llu not FUA since the last cache flush\n",
		   c.writes, c.preflush, c.fua, c.commit_iclogs,
		   c.start_iclogs, c.volatile_max);
	if (c.violations)
		kshim_info("stress: %s\n", c.first_violation);
	/* Every iclog write had the flags its records need (see
	 * tests/support/xfs_log_bio.h); one checkpoint's start and commit
	 * records can share an iclog, so at least one of each per two
	 * checkpoints. */
	KSHIM_ASSERT_EQ(c.violations, 0);
	KSHIM_ASSERT_EQ(c.undecoded, 0);
	KSHIM_ASSERT(c.commit_iclogs * 2 >= ll.checkpoints);
	KSHIM_ASSERT(c.start_iclogs * 2 >= ll.checkpoints);
	KSHIM_ASSERT_EQ(ll.commits, ll.nr_tasks * ll.commits_per_task);
	KSHIM_ASSERT_EQ(ll.violations, 0);
	/*
	 * The commits cycle over the scratch blocks, and a block relogged
	 * before its checkpoint is pushed reaches the log once: the bytes
	 * written depend on how many commits each checkpoint gathers, so on
	 * how fast the pushes run against the committers. In virtual time
	 * that is the schedule's, and the log wraps twice at the seeds run; on
	 * a loaded machine (an ASan build beside other builds) the parallel
	 * backend once made 17 checkpoints and 1 cycle. There the invariants
	 * are checked over whatever part of the log was written.
	 */
	if (kshim_sched->virtual_time)
		KSHIM_ASSERT(ll.log_cycles >= 2);
	KSHIM_ASSERT(ll.checkpoints >= 8);
	/* Background pushes start at XLOG_CIL_SPACE_LIMIT (half the hard
	 * limit); the CIL gets near it before they do. */
	KSHIM_ASSERT(ll.cil_max_bytes >= ll.cil_hard_limit / 2 * 3 / 4);
	KSHIM_ASSERT(ll.cil_max_cpus >= 2);	/* per-CPU CIL parts */
	KSHIM_ASSERT(ll.sleep_logspace > 0);	/* the log filled */

	/*
	 * Every cached write lost. Keeping a random part of the cache after
	 * this load makes recovery fail in some schedules, a finding of its
	 * own (tests/findings/finding_xfs_log_recovery.c).
	 */
	KSHIM_ASSERT_EQ(xfs_log_force(ll.mp, 0), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_DROP_ALL), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT(kshim_printk_contains("Starting recovery"));
	KSHIM_ASSERT_EQ(xfs_fixture_bad_scratch_blocks(&fx), 0);
	xfs_fixture_unmount(&fx);
	xfs_fixture_logprint(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * The CIL push worker held back from the start until 200 ms after the
 * CIL reached its hard limit (every slot of its workqueue taken): the
 * CIL passes its background limit, the push is
 * queued but cannot begin, and committers must then block at the hard
 * limit (XLOG_CIL_BLOCKING_SPACE_LIMIT) instead of growing the CIL past
 * what two checkpoints in the log allow. When the worker is let go,
 * they all finish. Fails if the hard throttle in
 * xlog_cil_push_background() is removed
 * (xfs/patches/0001-xfs-no-cil-hard-throttle.patch).
 */
static void test_committers_block_at_the_cil_hard_limit_when_push_is_late(void)
{
	struct log_load ll = {
		.nr_tasks = 64,
		.commits_per_task = kshim_test_scale(100),
		.payload = 1000,
		.hold_push_ns = 200 * NSEC_PER_MSEC,
	};
	/* The smallest log: mkfs.xfs's default on this image. */
	struct xfs_fixture fx = { .size = STRESS_IMG_SIZE };

	ll.mp = xfs_fixture_mount_new(&fx);
	KSHIM_ASSERT_EQ_FATAL(log_load_run(&ll), 0);
	print_load("held push", &ll);
	KSHIM_ASSERT_EQ(ll.commits, ll.nr_tasks * ll.commits_per_task);
	KSHIM_ASSERT_EQ(ll.violations, 0);
	KSHIM_ASSERT(ll.throttled_max > 0);
	KSHIM_ASSERT(ll.cil_max_bytes >= ll.cil_hard_limit);
	KSHIM_ASSERT(ll.cil_max_bytes < ll.logsize / 2);
	xfs_fixture_unmount(&fx);
	xfs_fixture_logprint(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test stress_tests[] = {
	KSHIM_TEST(test_committers_wrap_the_log_keeping_its_invariants),
	KSHIM_TEST(test_committers_block_at_the_cil_hard_limit_when_push_is_late),
	{ }
};

static const struct kshim_test mount_tests[] = {
	KSHIM_TEST(test_mount_and_unmount_write_an_unmount_record),
	{ }
};

/*
 * A log smaller than the largest reservation needs (xfs_log_mount()
 * checks it against xfs_log_calc_minimum_size(), the real
 * libxfs/xfs_log_rlimit.c): a V5 filesystem refuses to mount. mkfs.xfs
 * will not make such a log, so xfs_db shrinks sb_logblocks (it rewrites
 * the superblock's CRC).
 */
static void test_log_too_small_for_the_reservations_fails_the_mount(void)
{
	struct xfs_fixture fx = { };
	char cmd[512];

	xfs_fixture_mkfs(&fx);
	snprintf(cmd, sizeof(cmd),
		 "xfs_db -x -c 'sb 0' -c 'write -d logblocks 512' %s "
		 ">/dev/null 2>&1", fx.img);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_run_command(cmd), 0);
	kshim_printk_clear();
	/* XFS_DEBUG builds ASSERT(0) after "Log failed size checks". */
	kshim_test_expect_warns(1);
	KSHIM_ASSERT_EQ(xfs_fixture_try_mount(&fx), -EINVAL);
	KSHIM_ASSERT(kshim_printk_contains("Log size 512 blocks too small"));
	KSHIM_ASSERT_NULL(fx.x);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test bad_input_tests[] = {
	KSHIM_TEST(test_bad_superblock_magic_fails_the_mount),
	KSHIM_TEST(test_xfs_repair_check_finds_a_zeroed_agi),
	KSHIM_TEST(test_mkfs_image_depends_only_on_seed_and_number),
	KSHIM_TEST(test_garbage_log_fails_the_mount),
	KSHIM_TEST(test_log_too_small_for_the_reservations_fails_the_mount),
	{ }
};

KSHIM_SUITES({ "mount", NULL, NULL, mount_tests },
	     { "recovery", NULL, NULL, recovery_tests },
	     { "grant", NULL, NULL, grant_tests },
	     { "stress", NULL, NULL, stress_tests },
	     { "bad_input", NULL, NULL, bad_input_tests });
