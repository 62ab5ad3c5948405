// SPDX-License-Identifier: GPL-2.0
/*
 * The AIL (fs/xfs/xfs_trans_ail.c) as its users rely on it, driven by
 * real transactions on scratch blocks and real inodes: where the
 * background push target lands in the log, that xfsaild forces the CIL
 * for pinned items, backs off from items it cannot push instead of
 * spinning, writes a large AIL back without pausing between batches,
 * and resubmits inode cluster buffers whose write failed.
 *
 * Push rounds and their outcomes are counted with the mount's XFS
 * statistics (xs_push_ail, xs_push_ail_success, _locked, _pinned,
 * _flushing, _flush). In the deterministic backend time is virtual and
 * exact, so the cadence of the rounds is checked there to the round;
 * in the parallel backend only what a slow host cannot change is.
 */
#include <linux/kernel.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/kthread.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/bdev.h>
#include <kshim/vfs.h>
#include <kshim/xfs.h>
#include <linux/blk_types.h>
#include "xfs_fixture.h"
#include "xfs_inode.h"
#include "xfs_inode_item.h"
#include "xfs_buf_item.h"
#include "xfs_icache.h"
#include "xfs_stats.h"
#include "xfs_inode_ops.h"
#include "xfs_bmap.h"
#include "xfs_ag.h"
#include "xfs_alloc.h"

/* The mount's AIL push statistics (/proc/fs/xfs/stat's push_ail line). */
struct push_stats {
	u64 passes, success, locked, pinned, flushing, flush;
};

static void push_stats(struct xfs_mount *mp, struct push_stats *s)
{
	s->passes = XFS_STAT_SUM(mp, xs_push_ail);
	s->success = XFS_STAT_SUM(mp, xs_push_ail_success);
	s->locked = XFS_STAT_SUM(mp, xs_push_ail_locked);
	s->pinned = XFS_STAT_SUM(mp, xs_push_ail_pinned);
	s->flushing = XFS_STAT_SUM(mp, xs_push_ail_flushing);
	s->flush = XFS_STAT_SUM(mp, xs_push_ail_flush);
}

/* Turn @s, read earlier, into how much each statistic grew since. */
static void push_stats_since(struct xfs_mount *mp, struct push_stats *s,
			     const char *what)
{
	struct push_stats now;

	push_stats(mp, &now);
	s->passes = now.passes - s->passes;
	s->success = now.success - s->success;
	s->locked = now.locked - s->locked;
	s->pinned = now.pinned - s->pinned;
	s->flushing = now.flushing - s->flushing;
	s->flush = now.flush - s->flush;
	kshim_info("%s: %llu passes, %llu pushed, %llu locked, %llu pinned, "
		   "%llu flushing, %llu CIL flushes\n", what, s->passes,
		   s->success, s->locked, s->pinned, s->flushing, s->flush);
}

static bool det(void)
{
	return kshim_sched->virtual_time;
}

static xfs_lsn_t ail_max_lsn(struct xfs_ail *ailp)
{
	struct xfs_log_item *lip;
	xfs_lsn_t lsn = 0;

	spin_lock(&ailp->ail_lock);
	if (!list_empty(&ailp->ail_head)) {
		lip = list_last_entry(&ailp->ail_head, struct xfs_log_item,
				      li_ail);
		lsn = lip->li_lsn;
	}
	spin_unlock(&ailp->ail_lock);
	return lsn;
}

/* Scratch blocks first, first + step, ... below end hold, on the device,
 * what the commit numbered seq wrote (0: never written). */
static void expect_on_disk(struct xfs_mount *mp, unsigned int first,
			   unsigned int end, unsigned int step, u64 seq)
{
	unsigned int b;
	u64 got;

	for (b = first; b < end; b += step) {
		KSHIM_ASSERT_EQ(kshim_xfs_scratch_read(mp, b, &got), 0);
		KSHIM_ASSERT_EQ(got, seq);
	}
}


/*
 * One tr_write transaction logging scratch blocks first..first+n-1
 * (len payload bytes each, recording seq), into the CIL; with
 * commit_forced(), then a synchronous force: one checkpoint, its items
 * in the AIL at one LSN when it returns.
 */
static void commit_blocks(struct xfs_mount *mp, unsigned int first,
			  unsigned int n, u64 seq, unsigned int len)
{
	struct xfs_trans *tp;
	unsigned int b;

	KSHIM_ASSERT_EQ_FATAL(xfs_trans_alloc(mp, &M_RES(mp)->tr_write, 0, 0,
					      0, &tp), 0);
	for (b = first; b < first + n; b++)
		KSHIM_ASSERT_EQ_FATAL(kshim_xfs_scratch_log(tp, b, seq, len), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_trans_commit(tp), 0);
}

static void commit_forced(struct xfs_mount *mp, unsigned int first,
			  unsigned int n, u64 seq, unsigned int len)
{
	commit_blocks(mp, first, n, seq, len);
	KSHIM_ASSERT_EQ_FATAL(xfs_log_force(mp, XFS_LOG_SYNC), 0);
}

/* ---- the push target ------------------------------------------------- */

/*
 * Background pushing keeps a quarter of the log free: while the AIL
 * spans less than three quarters of the log, xfsaild leaves it alone
 * (metadata stays in memory, where relogging combines its changes);
 * once it spans more, the target is the tail plus a quarter of the log,
 * wrapping into the next cycle when that passes the log's end, and the
 * items beyond the target stay in the AIL. Here the tail (block 0's
 * checkpoint) sits in the last quarter of the log, so the target wraps.
 */
static void test_background_target_is_a_quarter_of_the_log_past_the_tail(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct xlog *log;
	xfs_lsn_t tail, max, old_target, target;
	u32 logbb;
	u64 seq = 1, got;
	unsigned int i;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	ailp = mp->m_ail;
	logbb = log->l_logBBsize;
	xfs_fixture_quiesce(mp);

	/* The head into the last quarter of the log (with a margin). Blocks
	 * 1..31 relogged each time stay together at the newest LSN: the
	 * AIL spans nothing, and nothing needs pushing. */
	for (i = 0; BLOCK_LSN(ail_max_lsn(ailp)) < logbb - logbb / 8; i++) {
		KSHIM_ASSERT_FATAL(i < 10000);
		commit_forced(mp, 1, 31, seq++, 1000);
	}
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 31);

	/* Block 0 logged once, with the others: from now on it alone holds
	 * the tail, at an LSN in the log's last quarter. */
	commit_forced(mp, 0, 32, seq++, 1000);
	tail = xfs_ail_min_lsn(ailp);
	KSHIM_ASSERT_EQ_FATAL(tail, ail_max_lsn(ailp));
	KSHIM_ASSERT_FATAL(BLOCK_LSN(tail) + (logbb >> 2) >= logbb);

	/* The others relogged until the AIL spans just over three quarters
	 * of the log (the head wraps). */
	old_target = READ_ONCE(ailp->ail_target);
	for (i = 0; xlog_lsn_sub(log, ail_max_lsn(ailp), tail) <=
		    log->l_logsize - (log->l_logsize >> 2); i++) {
		KSHIM_ASSERT_FATAL(i < 10000);
		commit_forced(mp, 1, 31, seq++, 1000);
	}
	max = ail_max_lsn(ailp);
	KSHIM_ASSERT_EQ(CYCLE_LSN(max), CYCLE_LSN(tail) + 1);

	/* xfsaild sets its target (now, or when a reserver woke it). */
	xfs_ail_push(ailp);
	KSHIM_ASSERT_FATAL(POLL_UNTIL_TIMEOUT(READ_ONCE(ailp->ail_target) !=
					      old_target, 10 * HZ));
	target = READ_ONCE(ailp->ail_target);
	KSHIM_ASSERT_EQ_FATAL(CYCLE_LSN(target), CYCLE_LSN(tail) + 1);
	KSHIM_ASSERT(XFS_LSN_CMP(target, tail) > 0);
	KSHIM_ASSERT_EQ(xlog_lsn_sub(log, target, tail),
			(s64)BBTOB(logbb >> 2));
	KSHIM_ASSERT(XFS_LSN_CMP(target, max) < 0);

	/* Block 0 is written back, moving the tail; the 31 blocks past the
	 * target stay in the AIL, however long xfsaild runs. */
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(xfs_ail_min_lsn(ailp) != tail, 10 * HZ));
	msleep(300);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 31);
	KSHIM_ASSERT(XFS_LSN_CMP(xfs_ail_min_lsn(ailp), target) > 0);
	KSHIM_ASSERT_EQ(READ_ONCE(ailp->ail_target), target);
	KSHIM_ASSERT_EQ(kshim_xfs_scratch_read(mp, 0, &got), 0);
	KSHIM_ASSERT_EQ(got, seq - 1 - i);
	KSHIM_ASSERT_EQ(kshim_xfs_scratch_read(mp, 1, &got), 0);
	KSHIM_ASSERT(got < seq - 1 - i);	/* not since block 0's commit */

	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * The state xfsaild sleeps in, less TASK_FREEZABLE. It counts in the
 * load average (an uninterruptible sleep) only while it waits for items
 * it could not push; idle, or waiting 50 ms for I/O after reaching its
 * target, it sleeps interruptibly (it takes no signals either way): an
 * idle XFS mount must not add one to the load average. The test looks
 * while xfsaild sleeps: always in det, where the test runs only when
 * xfsaild is blocked; in the parallel backend it may catch it running.
 */
static bool aild_sleeps_in(struct xfs_ail *ailp, unsigned int state)
{
	unsigned int now = READ_ONCE(ailp->ail_task->__state) & ~TASK_FREEZABLE;

	if (now != state)
		kshim_info("xfsaild's state %#x, expected %#x\n", now, state);
	return now == state || (!det() && now == TASK_RUNNING);
}

/* ---- xfsaild's sleeps ----------------------------------------------- */

/*
 * An idle xfsaild is never counted as load: it sleeps uninterruptibly
 * (TASK_KILLABLE, in the load average) only while blocked on items it
 * could not push. Idle after mount, with nothing ever logged, it sleeps
 * interruptibly; woken by the first insert into the empty AIL, it looks
 * at once, finds nothing below its background target, and sleeps
 * interruptibly again. Its state is sampled every 100 us for 20 ms from
 * the insert (the sleeps of the tests above look only after a push).
 */
static void test_an_idle_aild_is_never_load(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	unsigned int i, state, load = 0;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	msleep(100);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	KSHIM_ASSERT(aild_sleeps_in(ailp, TASK_INTERRUPTIBLE));

	commit_forced(mp, 0, 8, 1, 16);
	for (i = 0; i < 200; i++) {
		state = READ_ONCE(ailp->ail_task->__state);
		if (state & TASK_UNINTERRUPTIBLE)
			load++;
		udelay(100);
	}
	kshim_info("xfsaild counted as load in %u of 200 samples\n", load);
	KSHIM_ASSERT_EQ(load, 0);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 8);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * xfs_ail_push_all_sync(), what unmount, freeze and quotaoff wait in,
 * wakes xfsaild itself: it does not wait for xfsaild's next timed pass.
 * Here xfsaild has just found nothing to push (the items are above its
 * background target) and sleeps its 50 ms; in det the AIL is written
 * back and empty well before that sleep would have ended.
 */
static void test_push_all_sync_does_not_wait_for_aild_to_wake(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct push_stats st;
	u64 t0, ms;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	xfs_fixture_quiesce(mp);

	push_stats(mp, &st);
	commit_forced(mp, 0, 8, 1, 16);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 8);
	/* Woken by the first insert, xfsaild looks, finds the items above
	 * its target, and goes back to sleep for 50 ms. */
	msleep(5);
	push_stats_since(mp, &st, "below the target");
	KSHIM_ASSERT_EQ(st.success, 0);
	if (det())
		KSHIM_ASSERT_EQ(st.passes, 1);
	push_stats(mp, &st);
	t0 = ktime_get_ns();
	xfs_ail_push_all_sync(ailp);
	ms = (ktime_get_ns() - t0) / NSEC_PER_MSEC;
	push_stats_since(mp, &st, "push_all_sync");
	kshim_info("xfs_ail_push_all_sync() took %llu ms\n", ms);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	KSHIM_ASSERT_EQ(st.success, 8);
	if (det())
		KSHIM_ASSERT(ms < 20);
	expect_on_disk(mp, 0, 8, 1, 1);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* ---- pinned items ---------------------------------------------------- */

/*
 * An item relogged into the CIL is pinned: writing its buffer back
 * would put on disk a change the log does not yet hold. xfsaild cannot
 * push it, and must not wait for the next background CIL push (which
 * may be seconds away, with the log tail stuck behind it): it forces
 * the CIL itself, which unpins the item, and then writes it back.
 */
static void test_aild_forces_the_cil_to_unpin_items(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct push_stats st;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	xfs_fixture_quiesce(mp);

	xfs_fixture_commit(&fx, 0xff, 200);
	KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 8);
	/* Relogged, in the CIL only: the 8 AIL items are pinned. */
	xfs_fixture_commit(&fx, 0xff, 200);
	KSHIM_ASSERT(!xlog_cil_empty(mp->m_log));

	push_stats(mp, &st);
	xfs_ail_push_all_sync(ailp);
	push_stats_since(mp, &st, "pinned");
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	KSHIM_ASSERT(st.pinned >= 8);
	KSHIM_ASSERT(st.flush >= 1);
	KSHIM_ASSERT(xlog_cil_empty(mp->m_log));
	/* What was written back is the relogged version. */
	expect_on_disk(mp, 0, 8, 1, 2);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * More than 100 pinned items, the whole AIL relogged into the CIL: the
 * first pass gives up after 101 of them, as over any stuck items, and
 * backs off; the next pass, starting again from the tail, forces the CIL
 * (a pass that gave up must still count as starting from the tail, or
 * xfsaild would wait for someone else's log force, seconds away) and
 * the items are written back within a few back-offs.
 */
static void test_aild_forces_the_cil_after_giving_up_on_pinned_items(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct push_stats st;
	unsigned int b;
	u64 t0, ms;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	xfs_fixture_quiesce(mp);

	/* 120 items at one LSN, 40 behind them at the next, all relogged
	 * into the CIL: 160 pinned. */
	for (b = 0; b < 120; b += 40)
		commit_blocks(mp, 100 + b, 40, 1, 16);
	KSHIM_ASSERT_EQ_FATAL(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	commit_forced(mp, 300, 40, 1, 16);
	for (b = 0; b < 120; b += 40)
		commit_blocks(mp, 100 + b, 40, 2, 16);
	commit_blocks(mp, 300, 40, 2, 16);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_ail_items(ailp), 160);

	push_stats(mp, &st);
	t0 = ktime_get_ns();
	xfs_ail_push_all(ailp);
	if (det()) {
		/* The first pass, and only it (the next waits 20 ms). */
		msleep(10);
		push_stats_since(mp, &st, "first pass over pinned items");
		KSHIM_ASSERT_EQ(st.passes, 1);
		KSHIM_ASSERT_EQ(st.pinned, 101);
		KSHIM_ASSERT_EQ(st.flush, 0);
		push_stats(mp, &st);
	}
	xfs_ail_push_all_sync(ailp);
	ms = (ktime_get_ns() - t0) / NSEC_PER_MSEC;
	push_stats_since(mp, &st, "pinned items written back");
	kshim_info("160 pinned items written back in %llu ms\n", ms);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	KSHIM_ASSERT(st.flush >= 1);
	KSHIM_ASSERT(xlog_cil_empty(mp->m_log));
	/* In det, within a few 20 ms back-offs, not a log worker's period. */
	if (det())
		KSHIM_ASSERT(ms < 200);
	expect_on_disk(mp, 100, 220, 1, 2);
	expect_on_disk(mp, 300, 340, 1, 2);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * The other side: with nothing pinned, pushing the AIL leaves the CIL
 * alone. A CIL flush is a checkpoint write; forcing one whenever xfsaild
 * starts a pass would turn every AIL push into log I/O and defeat the
 * CIL's batching of changes.
 */
static void test_aild_leaves_the_cil_alone_when_nothing_is_pinned(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct push_stats st;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	xfs_fixture_quiesce(mp);

	xfs_fixture_commit(&fx, 0xff, 200);
	KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
	/* Other blocks, in the CIL only: nothing in the AIL is pinned. */
	xfs_fixture_commit(&fx, 0xff00, 200);

	push_stats(mp, &st);
	xfs_ail_push_all_sync(ailp);
	push_stats_since(mp, &st, "nothing pinned");
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	KSHIM_ASSERT_EQ(st.pinned, 0);
	KSHIM_ASSERT_EQ(st.flush, 0);
	KSHIM_ASSERT(!xlog_cil_empty(mp->m_log));
	/* Each buffer written once, none found already queued. */
	KSHIM_ASSERT_EQ(st.success, 8);
	KSHIM_ASSERT_EQ(st.flushing, 0);
	expect_on_disk(mp, 0, 8, 1, 1);
	expect_on_disk(mp, 8, 16, 1, 0);	/* still in the CIL */
	/* Idle, the AIL empty: not counted as load. */
	msleep(100);
	KSHIM_ASSERT(aild_sleeps_in(ailp, TASK_INTERRUPTIBLE));
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* ---- items xfsaild cannot push: back off, do not spin ---------------- */

/* The buffers of the AIL items at the AIL's lowest LSN, held and locked
 * by the test: xfsaild's trylock of them fails (XFS_ITEM_LOCKED). */
static unsigned int lock_oldest(struct xfs_ail *ailp, struct xfs_buf **bps,
				unsigned int max)
{
	struct xfs_log_item *lip;
	struct xfs_buf *bp;
	xfs_lsn_t lsn;
	unsigned int n = 0, i;

	spin_lock(&ailp->ail_lock);
	lip = list_first_entry_or_null(&ailp->ail_head, struct xfs_log_item,
				       li_ail);
	lsn = lip ? lip->li_lsn : 0;
	list_for_each_entry(lip, &ailp->ail_head, li_ail) {
		if (lip->li_lsn != lsn || n == max)
			break;
		if (lip->li_type != XFS_LI_BUF)
			continue;
		bp = container_of(lip, struct xfs_buf_log_item,
				  bli_item)->bli_buf;
		xfs_buf_hold(bp);
		bps[n++] = bp;
	}
	spin_unlock(&ailp->ail_lock);
	for (i = 0; i < n; i++)
		xfs_buf_lock(bps[i]);
	return n;
}

/* Unlock them: xfsaild, which kept trying, now writes the AIL back. */
static void unlock_and_drain(struct xfs_ail *ailp, struct xfs_buf **bps,
			     unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		xfs_buf_relse(bps[i]);
	xfs_ail_push_all_sync(ailp);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
}

/*
 * Passes in a window of W ms starting with a wake-up: one at once, then
 * one per back-off, so at most W / back-off + 1. The parallel backend's
 * test may read the counters a little after its sleep ends, when
 * another pass may have run: a slack of 2 there.
 */
static unsigned int slack(void)
{
	return det() ? 0 : 2;
}

/* The back-off windows: virtual time costs nothing in det; in the
 * parallel backend they are real time, so short. Not multiples of the
 * back-off, so that the test never wakes at the instant of a pass. */
#define WINDOW_DET_MS	1010
#define WINDOW_PAR_MS	310

/*
 * What a window of xfsaild's passes over @per_pass stuck items each,
 * backing off @backoff ms between them, must show: never more often
 * (no spinning), each pass trying exactly @per_pass; in det, where the
 * clock is exact, no less often either.
 */
static void expect_backoff(const struct push_stats *st, unsigned int window,
			   unsigned int backoff, unsigned int per_pass)
{
	KSHIM_ASSERT(st->passes >= 1);
	KSHIM_ASSERT(st->passes <= window / backoff + 1 + slack());
	/* One pass may be under way when the test reads. */
	KSHIM_ASSERT(st->locked <= (st->passes + 1) * per_pass);
	KSHIM_ASSERT(st->locked >= (st->passes - 1) * per_pass);
	KSHIM_ASSERT_EQ(st->success, 0);
	if (det()) {
		KSHIM_ASSERT(st->passes >= window / backoff - 1);
		KSHIM_ASSERT_EQ(st->locked, st->passes * per_pass);
	}
}

/* xfsaild told to push everything, left to it for @window ms, counted. */
static void push_all_for(struct xfs_mount *mp, unsigned int window,
			 struct push_stats *st, const char *what)
{
	push_stats(mp, st);
	xfs_ail_push_all(mp->m_ail);
	msleep(window);
	push_stats_since(mp, st, what);
}

/*
 * Over 100 items that cannot be pushed (their buffers locked elsewhere)
 * make xfsaild give up the pass after 101 of them, leave what lies
 * behind them for later, and back off 20 ms before it starts again from
 * the tail: a traversal of stuck items only slows the transactions
 * inserting into and removing from the AIL. It must not spin on them,
 * and it must keep trying: once they are unlocked, the AIL empties.
 */
static void test_aild_backs_off_from_many_stuck_items(void)
{
	struct xfs_fixture fx = { };
	static struct xfs_buf *bps[128];
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	unsigned int n, window = det() ? WINDOW_DET_MS : WINDOW_PAR_MS;
	struct push_stats st;
	unsigned int b;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	xfs_fixture_quiesce(mp);

	/* 120 items at one LSN (one checkpoint of three transactions), 40
	 * behind them at the next. */
	for (b = 0; b < 120; b += 40)
		commit_blocks(mp, 100 + b, 40, 1, 16);
	KSHIM_ASSERT_EQ_FATAL(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	commit_forced(mp, 300, 40, 1, 16);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_ail_items(ailp), 160);
	n = lock_oldest(ailp, bps, ARRAY_SIZE(bps));

	push_all_for(mp, window, &st, "many stuck");

	KSHIM_ASSERT(n > 101);
	/* A pass every 20 ms, each giving up after 101 stuck items, never
	 * reaching the items behind them. */
	expect_backoff(&st, window, 20, 101);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 160);
	/* Blocked on stuck items: counted as load. */
	KSHIM_ASSERT(aild_sleeps_in(ailp, TASK_KILLABLE));
	unlock_and_drain(ailp, bps, n);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * A few stuck items at the push target: the pass reached its target,
 * so xfsaild waits the longer 50 ms for I/O to complete before it scans
 * again, not the 20 ms of a pass that gave up early, and sleeps
 * interruptibly while it does.
 */
static void test_aild_waits_longer_when_stuck_at_its_target(void)
{
	struct xfs_fixture fx = { };
	struct xfs_buf *bps[8];
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	unsigned int n, window = det() ? WINDOW_DET_MS : WINDOW_PAR_MS;
	struct push_stats st;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	xfs_fixture_quiesce(mp);

	xfs_fixture_commit(&fx, 0xff, 200);
	KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
	n = lock_oldest(ailp, bps, ARRAY_SIZE(bps));
	KSHIM_ASSERT_EQ(n, 8);

	push_all_for(mp, window, &st, "stuck at the target");

	expect_backoff(&st, window, 50, 8);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 8);
	/* Waiting for I/O at its target, not blocked: no load. */
	KSHIM_ASSERT(aild_sleeps_in(ailp, TASK_INTERRUPTIBLE));
	unlock_and_drain(ailp, bps, n);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* ---- items queued for writeback elsewhere ------------------------------ */

#define QUEUED_CHECKPOINTS	12
#define QUEUED_PER_CP		100
#define QUEUED_ITEMS		(QUEUED_CHECKPOINTS * QUEUED_PER_CP)

/*
 * The buffers of the AIL's first @n items (all scratch buffers here),
 * queued on the test's own delwri list, as another writer of metadata
 * (log recovery, quotacheck) queues buffers: xfsaild finds them already
 * queued for writeback (XFS_ITEM_FLUSHING) until the test submits them.
 */
static void queue_elsewhere(struct xfs_ail *ailp, struct list_head *list,
			    unsigned int n)
{
	static struct xfs_buf *bps[QUEUED_ITEMS];
	struct xfs_log_item *lip;
	unsigned int got = 0, i;

	KSHIM_ASSERT_FATAL(n <= ARRAY_SIZE(bps));
	spin_lock(&ailp->ail_lock);
	list_for_each_entry(lip, &ailp->ail_head, li_ail) {
		if (got == n)
			break;
		KSHIM_ASSERT_EQ_FATAL(lip->li_type, XFS_LI_BUF);
		bps[got] = container_of(lip, struct xfs_buf_log_item,
					bli_item)->bli_buf;
		xfs_buf_hold(bps[got++]);
	}
	spin_unlock(&ailp->ail_lock);
	KSHIM_ASSERT_EQ_FATAL(got, n);
	for (i = 0; i < n; i++) {
		xfs_buf_lock(bps[i]);
		KSHIM_ASSERT(xfs_buf_delwri_queue(bps[i], list));
		xfs_buf_relse(bps[i]);
	}
}

/*
 * One AIL of 1200 items in 12 checkpoints, the first @queued of them
 * queued elsewhere. xfsaild's first pass stops at the first LSN after
 * 1000 items, at the last checkpoint: 1100 items tried, @queued of them
 * found already being flushed, the rest written. Over 90% of a pass
 * stuck or already being flushed, xfsaild backs off 20 ms and starts
 * again from the tail (where, every pass, it stops before the last
 * checkpoint again); at 90% or less it presses on at once, from where
 * it stopped, and writes the last checkpoint back. In det, where time
 * is exact, the last checkpoint is on disk 10 ms after the push began
 * exactly when xfsaild did not back off. Either way, once the other
 * writer submits its buffers, the AIL empties.
 */
static void push_with_queued(unsigned int queued, bool backs_off)
{
	struct xfs_fixture fx = { .size = 256ULL << 20 };
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct push_stats st;
	LIST_HEAD(elsewhere);
	unsigned int c, b, last = QUEUED_ITEMS - QUEUED_PER_CP;
	u64 got;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	xfs_fixture_quiesce(mp);
	KSHIM_ASSERT_FATAL(kshim_xfs_scratch_blocks(mp) >= QUEUED_ITEMS);
	for (c = 0; c < QUEUED_CHECKPOINTS; c++) {
		for (b = 0; b < QUEUED_PER_CP; b += 25)
			commit_blocks(mp, c * QUEUED_PER_CP + b, 25, 1, 16);
		KSHIM_ASSERT_EQ_FATAL(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	}
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_ail_items(ailp), QUEUED_ITEMS);
	queue_elsewhere(ailp, &elsewhere, queued);

	push_stats(mp, &st);
	xfs_ail_push_all(ailp);
	if (det()) {
		msleep(10);
		push_stats_since(mp, &st, backs_off ? "backing off" :
				 "pressing on");
		KSHIM_ASSERT(st.flushing >= queued);
		KSHIM_ASSERT_EQ(kshim_xfs_scratch_read(mp, last, &got), 0);
		KSHIM_ASSERT_EQ(got, backs_off ? 0 : 1);
		KSHIM_ASSERT_EQ(st.passes, backs_off ? 1 : 2);
	}
	/* The items not queued elsewhere in the first 11 checkpoints. */
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(xfs_fixture_ail_items(ailp) <=
			queued + (backs_off ? QUEUED_PER_CP : 0), 10 * HZ));

	KSHIM_ASSERT_EQ(xfs_buf_delwri_submit(&elsewhere), 0);
	xfs_ail_push_all_sync(ailp);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	expect_on_disk(mp, 0, QUEUED_ITEMS, 1, 1);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * xfsaild backs off from a pass in which more than 90% of the items
 * were stuck or already being flushed (/proc/fs/xfs/stat's
 * push_ail_flushing), not from one in which 90% or fewer were: 996 of
 * 1100 (90.5%) presses on, 1007 of 1100 (91.5%) backs off.
 */
static void test_aild_backs_off_past_90_percent_already_flushing(void)
{
	push_with_queued(996, false);
	push_with_queued(1007, true);
}

/* ---- a large AIL ------------------------------------------------------ */

#define BIG_CHECKPOINTS	96
#define BIG_PER_CP	25
#define BIG_ITEMS	(BIG_CHECKPOINTS * BIG_PER_CP)

/*
 * 2400 items in 96 checkpoints. xfsaild pushes at most about 1000 items
 * a pass (stopping only between LSNs), and while it has not reached its
 * target it starts the next pass at once: writing back a large AIL
 * takes a few passes, each over many checkpoints, each buffer written
 * once. (The time it takes is not checked: in det the clock also runs
 * with every scheduling decision, and the writes' completions, not
 * xfsaild's pauses, set it.)
 */
static void test_aild_writes_a_large_ail_back_in_few_passes(void)
{
	struct xfs_fixture fx = { .size = 256ULL << 20 };
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct push_stats st;
	unsigned int c;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	xfs_fixture_quiesce(mp);
	KSHIM_ASSERT_FATAL(kshim_xfs_scratch_blocks(mp) >= BIG_ITEMS);

	for (c = 0; c < BIG_CHECKPOINTS; c++)
		commit_forced(mp, c * BIG_PER_CP, BIG_PER_CP, 1, 16);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_ail_items(ailp), BIG_ITEMS);

	push_stats(mp, &st);
	xfs_ail_push_all_sync(ailp);
	push_stats_since(mp, &st, "large AIL");

	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	/* Every buffer written once. */
	KSHIM_ASSERT_EQ(st.success, BIG_ITEMS);
	KSHIM_ASSERT_EQ(st.flushing, 0);
	/* Passes of ~1000 items, not one per checkpoint (a slow parallel
	 * host may add passes that find buffers still under I/O). */
	KSHIM_ASSERT(st.passes >= BIG_ITEMS / 1000);
	KSHIM_ASSERT(st.passes <= (det() ? BIG_ITEMS / 1000 + 2 : 20));
	expect_on_disk(mp, 0, BIG_ITEMS, 97, 1);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* ---- items already being flushed -------------------------------------- */

/* The AIL's items in order: their types, at most max, and their count. */
static unsigned int ail_types(struct xfs_ail *ailp, unsigned int *types,
			      unsigned int max)
{
	struct xfs_log_item *lip;
	unsigned int n = 0;

	spin_lock(&ailp->ail_lock);
	list_for_each_entry(lip, &ailp->ail_head, li_ail)
		if (n < max)
			types[n++] = lip->li_type;
	spin_unlock(&ailp->ail_lock);
	return n;
}

#define FLUSHING_BLOCKS	4

/*
 * Pushing an inode flushes every dirty inode of its cluster buffer
 * (xfs_iflush_cluster()), which marks their items as being flushed; the
 * pass then steps over those items (XFS_LI_FLUSHING), and goes on to
 * what lies behind them in the same pass: an inode cluster under
 * writeback must not hold up the rest of the AIL. Here two inodes of
 * one cluster, then scratch blocks, all in one checkpoint: one pass
 * pushes the first inode and the blocks, never the second inode, whose
 * change reaches the disk with the first's cluster. In det, where time
 * is exact, all of it is written back within 20 ms, before the 50 ms
 * xfsaild waits once its pass is done: a pass that stopped at the
 * flushing item would leave the blocks for the next one.
 */
static void test_aild_steps_over_items_being_flushed(void)
{
	struct xfs_fixture fx = { };
	struct xfs_inode *ip[2];
	unsigned int types[8], n, i;
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct push_stats st;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	KSHIM_ASSERT_EQ_FATAL(xfs_test_create(mp, "a", &ip[0]), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_test_create(mp, "b", &ip[1]), 0);
	KSHIM_ASSERT_EQ_FATAL(ip[0]->i_imap.im_blkno, ip[1]->i_imap.im_blkno);
	xfs_fixture_quiesce(mp);
	for (i = 0; i < 2; i++)
		KSHIM_ASSERT_EQ_FATAL(xfs_test_touch(mp, ip[i]), 0);
	commit_forced(mp, 0, FLUSHING_BLOCKS, 1, 16);
	/* Committed in that order, so in the AIL in that order. */
	n = ail_types(ailp, types, ARRAY_SIZE(types));
	KSHIM_ASSERT_EQ_FATAL(n, 2 + FLUSHING_BLOCKS);
	KSHIM_ASSERT_EQ_FATAL(types[0], XFS_LI_INODE);
	KSHIM_ASSERT_EQ_FATAL(types[1], XFS_LI_INODE);
	for (i = 2; i < n; i++)
		KSHIM_ASSERT_EQ_FATAL(types[i], XFS_LI_BUF);
	KSHIM_ASSERT_EQ_FATAL(ail_max_lsn(ailp), xfs_ail_min_lsn(ailp));

	push_stats(mp, &st);
	if (det()) {
		xfs_ail_push_all(ailp);
		msleep(20);
	} else {
		xfs_ail_push_all_sync(ailp);
	}
	push_stats_since(mp, &st, "flushing");

	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	/* The first inode and the blocks; the second went with the first. */
	KSHIM_ASSERT_EQ(st.success, 1 + FLUSHING_BLOCKS);
	if (det())
		KSHIM_ASSERT_EQ(st.passes, 1);
	expect_on_disk(mp, 0, FLUSHING_BLOCKS, 1, 1);
	for (i = 0; i < 2; i++)
		xfs_irele(ip[i]);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* ---- intents ---------------------------------------------------------- */

#define INTENT_BYTES	(1 << 20)	/* the file's one extent, freed */
#define INTENT_BLOCKS	4		/* scratch blocks logged behind it */

struct truncator {
	struct file *f;
	int error;
	struct completion done;
};

/* ftruncate() to 0 in a task of its own: its bunmapi logs the EFI in the
 * first transaction of the chain, then waits for the AGF to free the
 * extent in the next one. Waits for kthread_stop() once done. */
static int truncate_to_zero(void *data)
{
	struct truncator *t = data;

	t->error = kshim_vfs_ftruncate(t->f, 0);
	complete(&t->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

/* Forces the log, then counts the AIL's items of type @type; *@lsn
 * (if not NULL) is the last one's LSN. */
static unsigned int forced_ail_items_of(struct xfs_mount *mp, uint type,
					xfs_lsn_t *lsn)
{
	struct xfs_ail *ailp = mp->m_ail;
	struct xfs_log_item *lip;
	unsigned int n = 0;

	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	spin_lock(&ailp->ail_lock);
	list_for_each_entry(lip, &ailp->ail_head, li_ail) {
		if (lip->li_type != type)
			continue;
		n++;
		if (lsn)
			*lsn = lip->li_lsn;
	}
	spin_unlock(&ailp->ail_lock);
	return n;
}

/*
 * An intent item (here the EFI of a truncate, its extent not yet freed
 * because the test holds the AG's AGF) has no ->iop_push: it leaves the
 * AIL only when its done item is logged, and nothing xfsaild writes
 * back can move it. xfsaild counts it as pinned (so it forces the CIL,
 * in case the done item sits there) and goes on to write back the items
 * behind it; the log tail stays at the intent. (The inode the EFI's
 * transaction logged stays beside it: the truncate holds its ILOCK
 * across the roll, so xfsaild finds it locked.) Once the AGF is free
 * the EFD is logged, the AIL empties, and the extent is free space
 * again, not before.
 */
static void test_aild_counts_an_intent_as_pinned_and_pushes_past_it(void)
{
	struct xfs_fixture fx = { };
	struct truncator t = { };
	struct task_struct *task;
	struct xfs_bmbt_irec map;
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct xfs_log_item *lip;
	struct xfs_inode *ip;
	struct xfs_perag *pag;
	struct xfs_buf *agbp;
	struct dentry *root;
	struct push_stats st;
	s64 free0, ffree;
	xfs_lsn_t efi_lsn = 0;
	unsigned int types[8], n, i, efis = 0;
	int nmap = 1;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "f", O_RDWR | O_CREAT,
					     0644, &t.f), 0);
	xfs_fixture_quiesce(mp);
	free0 = percpu_counter_sum(&mp->m_fdblocks);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_fallocate(t.f, 0, 0, INTENT_BYTES), 0);
	ffree = percpu_counter_sum(&mp->m_fdblocks);
	KSHIM_ASSERT(ffree <= free0 - (s64)XFS_B_TO_FSB(mp, INTENT_BYTES));
	ip = XFS_I(file_inode(t.f));
	xfs_ilock(ip, XFS_ILOCK_SHARED);
	KSHIM_ASSERT_EQ_FATAL(xfs_bmapi_read(ip, 0, 1, &map, &nmap, 0), 0);
	xfs_iunlock(ip, XFS_ILOCK_SHARED);
	KSHIM_ASSERT_EQ_FATAL(nmap, 1);
	KSHIM_ASSERT_FATAL(xfs_bmap_is_real_extent(&map));
	xfs_fixture_quiesce(mp);

	/* The extent's AG locked: the truncate's EFI is committed, but
	 * cannot be finished. */
	pag = xfs_perag_get(mp, XFS_FSB_TO_AGNO(mp, map.br_startblock));
	KSHIM_ASSERT_EQ_FATAL(xfs_alloc_read_agf(pag, NULL, 0, &agbp), 0);
	init_completion(&t.done);
	task = kthread_run(truncate_to_zero, &t, "truncator");
	KSHIM_ASSERT_FATAL(!IS_ERR(task));
	KSHIM_ASSERT_FATAL(POLL_UNTIL_TIMEOUT(
		forced_ail_items_of(mp, XFS_LI_EFI, &efi_lsn) == 1, 10 * HZ));
	KSHIM_ASSERT(!completion_done(&t.done));
	KSHIM_ASSERT_EQ(xfs_ail_min_lsn(ailp), efi_lsn);
	/* Scratch blocks behind it, at a later LSN. */
	commit_forced(mp, 0, INTENT_BLOCKS, 1, 16);
	KSHIM_ASSERT(XFS_LSN_CMP(ail_max_lsn(ailp), efi_lsn) > 0);
	n = xfs_fixture_ail_items(ailp);

	push_stats(mp, &st);
	xfs_ail_push_all(ailp);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(xfs_fixture_ail_items(ailp) ==
					n - INTENT_BLOCKS, 10 * HZ));
	msleep(100);
	push_stats_since(mp, &st, "an intent in the AIL");
	KSHIM_ASSERT(st.pinned >= 1);
	KSHIM_ASSERT(st.locked >= 1);
	KSHIM_ASSERT(st.flush >= 1);
	/* Every pass meets the EFI (pinned) and its inode (locked) once. */
	if (det()) {
		KSHIM_ASSERT_EQ(st.pinned, st.passes);
		KSHIM_ASSERT_EQ(st.locked, st.passes);
	}
	KSHIM_ASSERT_EQ(st.success, INTENT_BLOCKS);
	expect_on_disk(mp, 0, INTENT_BLOCKS, 1, 1);
	/* What is left is at the tail's LSN: the EFI, and the inode its
	 * transaction logged, whose ILOCK the truncate holds. */
	n = 0;
	spin_lock(&ailp->ail_lock);
	list_for_each_entry(lip, &ailp->ail_head, li_ail) {
		KSHIM_ASSERT_EQ(lip->li_lsn, efi_lsn);
		if (n < ARRAY_SIZE(types))
			types[n] = lip->li_type;
		n++;
	}
	spin_unlock(&ailp->ail_lock);
	for (i = 0; i < n && i < ARRAY_SIZE(types); i++) {
		kshim_info("AIL item %u: type %#x\n", i, types[i]);
		if (types[i] == XFS_LI_EFI)
			efis++;
		else
			KSHIM_ASSERT_EQ(types[i], XFS_LI_INODE);
	}
	KSHIM_ASSERT_EQ(n, 2);
	KSHIM_ASSERT_EQ(efis, 1);
	KSHIM_ASSERT_EQ(xfs_ail_min_lsn(ailp), efi_lsn);
	KSHIM_ASSERT(!completion_done(&t.done));
	/* Not free until the EFD's transaction. */
	KSHIM_ASSERT_EQ(percpu_counter_sum(&mp->m_fdblocks), ffree);

	xfs_buf_relse(agbp);
	xfs_perag_put(pag);
	wait_for_completion(&t.done);
	KSHIM_ASSERT_EQ(kthread_stop(task), 0);
	KSHIM_ASSERT_EQ(t.error, 0);
	xfs_ail_push_all_sync(ailp);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	/* And nothing of the truncate was left in the CIL to come back. */
	KSHIM_ASSERT_EQ(forced_ail_items_of(mp, XFS_LI_EFI, NULL), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	KSHIM_ASSERT_EQ(percpu_counter_sum(&mp->m_fdblocks), free0);
	KSHIM_ASSERT_EQ(kshim_vfs_close(t.f), 0);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* ---- failed writes ---------------------------------------------------- */

/*
 * A new inode written back with its directory, then changed alone: its
 * item is the only one in the AIL and on its cluster buffer, which @eio
 * is aimed at (the fault itself not yet added).
 */
static struct xfs_inode *lone_inode_in_the_ail(struct xfs_mount *mp,
					       struct kshim_fault *eio)
{
	struct xfs_inode *ip;

	xfs_fixture_quiesce(mp);
	KSHIM_ASSERT_EQ_FATAL(xfs_test_create(mp, "f", &ip), 0);
	xfs_fixture_quiesce(mp);
	KSHIM_ASSERT_EQ_FATAL(xfs_test_touch(mp, ip), 0);
	eio->start = ip->i_imap.im_blkno;
	eio->nr_sectors = ip->i_imap.im_len;
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	KSHIM_ASSERT_FATAL(ip->i_itemp != NULL);
	KSHIM_ASSERT_FATAL(test_bit(XFS_LI_IN_AIL,
				    &ip->i_itemp->ili_item.li_flags));
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(mp->m_ail), 1);
	return ip;
}

/*
 * A transient write error on an inode cluster buffer the AIL pushed
 * (plain buffers' items are retried by their ordinary push; inode and
 * dquot items are marked failed instead):
 * the buffer layer retries it once at once; when that fails too, the
 * inode items are marked failed and the buffer released (metadata
 * errors are retried forever by default). xfsaild then resubmits the
 * failed buffer; when the device works again the write succeeds, the
 * inodes leave the AIL, and the filesystem never shut down.
 */
static void test_aild_resubmits_a_failed_inode_buffer(void)
{
	struct xfs_fixture fx = { };
	struct kshim_fault eio = {
		.ops = KSHIM_FAULT_WRITE,
		.status = BLK_STS_IOERR,
		.times = 2,
	};
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct xfs_inode *ip;
	struct kshim_bdev *kb;
	xfs_ino_t ino;
	struct push_stats st;
	int id;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	kb = kshim_xfs_data_bdev(fx.x);
	ip = lone_inode_in_the_ail(mp, &eio);
	ino = ip->i_ino;

	kshim_printk_clear();
	id = kshim_bdev_add_fault(kb, &eio);
	KSHIM_ASSERT_FATAL(id >= 0);
	push_stats(mp, &st);
	xfs_ail_push_all_sync(ailp);
	push_stats_since(mp, &st, "failed buffer");

	KSHIM_ASSERT_EQ(kshim_bdev_fault_hits(kb, id), 2);
	KSHIM_ASSERT(kshim_printk_contains("metadata I/O error"));
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	KSHIM_ASSERT(!test_bit(XFS_LI_FAILED, &ip->i_itemp->ili_item.li_flags));
	/* Pushed, then resubmitted from its failed state by the next pass,
	 * which finds its buffer unlocked and on no queue: two successful
	 * pushes (/proc/fs/xfs/stat's push_ail_success). */
	KSHIM_ASSERT_EQ(st.success, 2);
	KSHIM_ASSERT_EQ(st.flushing, 0);
	if (det())
		KSHIM_ASSERT_EQ(st.locked, 0);
	KSHIM_ASSERT(!xfs_is_shutdown(mp));
	kshim_bdev_clear_faults(kb);
	xfs_irele(ip);

	/* What was written is the inode: it reads back from disk. */
	xfs_fixture_unmount(&fx);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT_EQ(xfs_iget(fx.mp, NULL, ino, 0, 0, &ip), 0);
	if (ip) {
		KSHIM_ASSERT_EQ(VFS_I(ip)->i_mode & S_IFMT, S_IFREG);
		xfs_irele(ip);
	}
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * The same failed buffer, queued meanwhile by another writer of
 * metadata (the test's own delwri list, as log recovery or quotacheck
 * queue theirs): xfsaild's resubmission finds it already queued, leaves
 * it to that writer, unlocked, and counts the item as being flushed;
 * the item stays failed and in the AIL until that writer's submission
 * writes the buffer. A resubmission that kept the buffer locked would
 * hang that writer, and with it the inode's cluster.
 */
static void test_aild_leaves_a_failed_buffer_queued_elsewhere(void)
{
	struct xfs_fixture fx = { };
	struct kshim_fault eio = {
		.ops = KSHIM_FAULT_WRITE,
		.status = BLK_STS_IOERR,
		.times = 1000,
	};
	struct xfs_mount *mp;
	struct xfs_ail *ailp;
	struct xfs_inode *ip;
	struct kshim_bdev *kb;
	struct xfs_log_item *lip;
	struct xfs_buf *bp;
	struct push_stats st;
	LIST_HEAD(elsewhere);
	unsigned int tries;
	bool queued = false;
	int id;

	mp = xfs_fixture_mount_new(&fx);
	ailp = mp->m_ail;
	kb = kshim_xfs_data_bdev(fx.x);
	ip = lone_inode_in_the_ail(mp, &eio);
	lip = &ip->i_itemp->ili_item;

	/* Every write of the cluster fails: pushed, failed, resubmitted,
	 * failed again, for as long as the fault lasts. */
	id = kshim_bdev_add_fault(kb, &eio);
	KSHIM_ASSERT_FATAL(id >= 0);
	xfs_ail_push_all(ailp);
	KSHIM_ASSERT_FATAL(POLL_UNTIL_TIMEOUT(
		test_bit(XFS_LI_FAILED, &lip->li_flags), 10 * HZ));
	bp = lip->li_buf;
	KSHIM_ASSERT_FATAL(bp != NULL);

	/* Queued by the other writer between two of xfsaild's tries (not
	 * while xfsaild's own queue holds it, waiting for its submission). */
	for (tries = 0; !queued && tries < 1000; tries++) {
		xfs_buf_lock(bp);
		if (test_bit(XFS_LI_FAILED, &lip->li_flags))
			queued = xfs_buf_delwri_queue(bp, &elsewhere);
		xfs_buf_unlock(bp);
		if (!queued)
			msleep(1);
	}
	KSHIM_ASSERT_FATAL(queued);
	KSHIM_ASSERT(kshim_bdev_fault_hits(kb, id) >= 2);
	kshim_bdev_clear_faults(kb);

	/* xfsaild's next tries find it queued: left to the other writer. */
	push_stats(mp, &st);
	xfs_ail_push_all(ailp);
	msleep(200);
	push_stats_since(mp, &st, "failed buffer queued elsewhere");
	KSHIM_ASSERT(st.flushing >= 1);
	KSHIM_ASSERT_EQ(st.success, 0);
	KSHIM_ASSERT(test_bit(XFS_LI_FAILED, &lip->li_flags));
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 1);

	/* The other writer's submission writes it: the AIL empties. */
	KSHIM_ASSERT_EQ(xfs_buf_delwri_submit(&elsewhere), 0);
	xfs_ail_push_all_sync(ailp);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(ailp), 0);
	KSHIM_ASSERT(!xfs_is_shutdown(mp));
	xfs_irele(ip);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test ail_tests[] = {
	KSHIM_TEST(test_background_target_is_a_quarter_of_the_log_past_the_tail),
	KSHIM_TEST(test_an_idle_aild_is_never_load),
	KSHIM_TEST(test_push_all_sync_does_not_wait_for_aild_to_wake),
	KSHIM_TEST(test_aild_forces_the_cil_to_unpin_items),
	KSHIM_TEST(test_aild_forces_the_cil_after_giving_up_on_pinned_items),
	KSHIM_TEST(test_aild_leaves_the_cil_alone_when_nothing_is_pinned),
	KSHIM_TEST(test_aild_backs_off_from_many_stuck_items),
	KSHIM_TEST(test_aild_waits_longer_when_stuck_at_its_target),
	KSHIM_TEST(test_aild_backs_off_past_90_percent_already_flushing),
	KSHIM_TEST(test_aild_writes_a_large_ail_back_in_few_passes),
	KSHIM_TEST(test_aild_steps_over_items_being_flushed),
	KSHIM_TEST(test_aild_counts_an_intent_as_pinned_and_pushes_past_it),
	KSHIM_TEST(test_aild_resubmits_a_failed_inode_buffer),
	KSHIM_TEST(test_aild_leaves_a_failed_buffer_queued_elsewhere),
	{ }
};

KSHIM_SUITES({ "ail", NULL, NULL, ail_tests });
