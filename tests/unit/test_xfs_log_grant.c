// SPDX-License-Identifier: GPL-2.0
/*
 * The XFS log's space accounting at its edges (fs/xfs/xfs_log.c): a
 * reservation that exactly fits the free log space, one byte more, a
 * transaction that uses its whole reservation across iclogs, and what
 * a shut-down log does to reservations and regrants. test_xfs_log.c has
 * the ordinary paths (rolls, waiters in order, a shutdown waking them);
 * these are the boundaries a wrong comparison or a short unit
 * reservation would move.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <kshim/sched.h>
#include <kshim/ktest.h>
#include "xfs_fixture.h"
#include "xfs_grant_heads.h"

/*
 * Split FREE bytes of log space into two one-shot reservations whose
 * unit reservations (headers included) add up to exactly FREE: the
 * largest BIG that leaves room for a small one, and SMALL for the rest.
 * A unit reservation grows by one byte per byte asked below one iclog,
 * so SMALL (less than an iclog header's worth) always has an exact fit.
 */
static void split_exactly(struct xfs_mount *mp, s64 free, int *big,
			  int *small)
{
	s64 floor = xfs_log_calc_unit_res(mp, 0);
	int lo = 0, hi = free;

	KSHIM_ASSERT_FATAL(free > 2 * floor);
	while (lo < hi) {
		int mid = lo + (hi - lo + 1) / 2;

		if (xfs_log_calc_unit_res(mp, mid) <= free - floor)
			lo = mid;
		else
			hi = mid - 1;
	}
	*big = lo;
	*small = free - xfs_log_calc_unit_res(mp, lo) - floor;
	KSHIM_ASSERT_EQ_FATAL(xfs_log_calc_unit_res(mp, *small) +
			      xfs_log_calc_unit_res(mp, *big), free);
}

/*
 * A reservation that exactly fits the free log space is granted at once:
 * nothing else is waiting, so sleeping for space that is there would
 * only wait for someone else to free some. One byte more does not fit:
 * it must wait, and be woken and granted when a reservation is given
 * back. Every byte comes back at the end.
 */
static void test_exact_fit_is_granted_and_one_byte_more_waits(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xlog *log;
	struct xlog_ticket *a = NULL;
	struct reserver b = { }, c = { };
	struct task_struct *t;
	s64 r0, w0;
	int big, small;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	xfs_fixture_quiesce(mp);
	r0 = grant(&log->l_reserve_head);
	w0 = grant(&log->l_write_head);
	split_exactly(mp, space_left(log, &log->l_reserve_head), &big, &small);

	/* A takes the small part: what is left is B's unit exactly. */
	KSHIM_ASSERT_EQ_FATAL(xfs_log_reserve(mp, small, 1, &a, false), 0);
	b = (struct reserver){ .mp = mp, .bytes = big };
	t = kshim_task_run(reserver_fn, &b, "exact-fit", -1);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(smp_load_acquire(&b.done), 5 * HZ));
	if (!smp_load_acquire(&b.done)) {
		/* It slept for space that was there: let it finish. */
		xfs_log_ticket_ungrant(log, a);
		a = NULL;
	}
	kshim_task_join(t);
	KSHIM_ASSERT_EQ_FATAL(b.err, 0);
	if (a) {
		KSHIM_ASSERT_EQ(space_left(log, &log->l_reserve_head), 0);
		KSHIM_ASSERT_EQ(space_left(log, &log->l_write_head), 0);
		KSHIM_ASSERT_EQ(grant(&log->l_reserve_head),
				r0 + a->t_unit_res + b.tic->t_unit_res);
	}
	xfs_log_ticket_ungrant(log, b.tic);
	if (!a)
		goto out;

	/* One byte more than the log has free: C waits, holding nothing. */
	c = (struct reserver){ .mp = mp, .bytes = big + 1 };
	t = kshim_task_run(reserver_fn, &c, "one-byte-over", -1);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(nr_waiters(&log->l_reserve_head) == 1,
					5 * HZ));
	KSHIM_ASSERT(!smp_load_acquire(&c.done));
	KSHIM_ASSERT(c.tic->t_unit_res > space_left(log, &log->l_reserve_head));
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), r0 + a->t_unit_res);

	/* A gives its space back: C is woken and granted. */
	xfs_log_ticket_ungrant(log, a);
	kshim_task_join(t);
	KSHIM_ASSERT_EQ(c.err, 0);
	KSHIM_ASSERT_EQ(nr_waiters(&log->l_reserve_head), 0);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), r0 + c.tic->t_unit_res);
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), w0 + c.tic->t_unit_res);
	xfs_log_ticket_ungrant(log, c.tic);
out:
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), r0);
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), w0);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * A rolling transaction's regrant in a shut-down log fails with -EIO and
 * takes no space, whether the ticket still had pre-reserved units
 * (t_cnt > 0: the regrant would take nothing anyway) or had used them up
 * (the regrant would take a unit on the write head). A regrant that
 * succeeded would let the transaction go on logging into a dead log.
 */
static void test_regrant_after_shutdown_fails_with_eio_taking_nothing(void)
{
	struct xfs_fixture fx = { };
	struct xfs_trans_res *res;
	struct xfs_mount *mp;
	struct xlog *log;
	struct xlog_ticket *spent = NULL, *left = NULL;
	s64 r1, w1;
	int i;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	xfs_fixture_quiesce(mp);
	res = &M_RES(mp)->tr_write;
	KSHIM_ASSERT_FATAL(res->tr_logcount >= 2);

	/* One ticket rolled until its count is spent, one rolled once. */
	KSHIM_ASSERT_EQ_FATAL(xfs_log_reserve(mp, res->tr_logres,
					      res->tr_logcount, &spent, true),
			      0);
	KSHIM_ASSERT_EQ_FATAL(xfs_log_reserve(mp, res->tr_logres,
					      res->tr_logcount, &left, true),
			      0);
	for (i = 1; i < res->tr_logcount; i++) {
		xfs_log_ticket_get(spent);
		xfs_log_ticket_regrant(log, spent);
		KSHIM_ASSERT_EQ_FATAL(xfs_log_regrant(mp, spent), 0);
	}
	xfs_log_ticket_get(spent);
	xfs_log_ticket_regrant(log, spent);
	KSHIM_ASSERT_EQ_FATAL(spent->t_cnt, 0);
	xfs_log_ticket_get(left);
	xfs_log_ticket_regrant(log, left);
	KSHIM_ASSERT_FATAL(left->t_cnt > 0);

	xfs_force_shutdown(mp, SHUTDOWN_META_IO_ERROR);
	r1 = grant(&log->l_reserve_head);
	w1 = grant(&log->l_write_head);
	KSHIM_ASSERT_EQ(xfs_log_regrant(mp, spent), -EIO);
	KSHIM_ASSERT_EQ(xfs_log_regrant(mp, left), -EIO);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), r1);
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), w1);
	xfs_log_ticket_ungrant(log, spent);
	xfs_log_ticket_ungrant(log, left);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static void shut_down_fn(void *arg)
{
	xfs_force_shutdown((struct xfs_mount *)arg, SHUTDOWN_LOG_IO_ERROR);
}

/*
 * A shutdown and a reservation given back at the same moment: the
 * ungrant sees the log shut down and wakes nobody, the shutdown's
 * wake-up of the log space waiters comes after it. A waiter woken then
 * finds its space free, and must still fail with -EIO: a reservation
 * granted in a dead log would go on to log into it. The test holds the
 * grant head's lock to put the ungrant between the two steps of the
 * shutdown (the flag, then the wake-up, which needs that lock).
 */
static void test_shutdown_fails_a_waiter_whose_space_came_free(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xlog *log;
	struct xlog_grant_head *head;
	struct xlog_ticket *a = NULL;
	struct reserver b = { };
	struct task_struct *tb, *tc;
	s64 free0, r0;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	head = &log->l_reserve_head;
	xfs_fixture_quiesce(mp);
	free0 = space_left(log, head);
	r0 = grant(head);

	KSHIM_ASSERT_EQ_FATAL(xfs_log_reserve(mp, free0 * 6 / 10, 1, &a, false),
			      0);
	b = (struct reserver){ .mp = mp, .bytes = free0 * 5 / 10 };
	tb = kshim_task_run(reserver_fn, &b, "reserver-b", -1);
	KSHIM_ASSERT_FATAL(POLL_UNTIL_TIMEOUT(nr_waiters(head) == 1, 5 * HZ));

	/* The lock pins this task to its CPU: the shutdown runs on another. */
	spin_lock(&head->lock);
	tc = kshim_task_run(shut_down_fn, mp, "shutdown",
			    (raw_smp_processor_id() + 1) % num_possible_cpus());
	while (!xlog_is_shutdown(log))
		cpu_relax();
	/* B's space is free now; the shutdown waits for the lock to wake it. */
	xfs_log_ticket_ungrant(log, a);
	KSHIM_ASSERT(space_left(log, head) >= b.tic->t_unit_res);
	KSHIM_ASSERT(!smp_load_acquire(&b.done));
	spin_unlock(&head->lock);
	kshim_task_join(tc);
	kshim_task_join(tb);
	KSHIM_ASSERT_EQ(b.err, -EIO);
	KSHIM_ASSERT_EQ(nr_waiters(head), 0);
	xfs_log_ticket_ungrant(log, b.tic);
	KSHIM_ASSERT_EQ(grant(head), r0);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* Bytes the CIL's current checkpoint has taken in so far. */
static int cil_space_used(struct xlog *log)
{
	struct xfs_cil *cil = log->l_cilp;
	int cpu, used;

	down_write(&cil->xc_ctx_lock);
	used = atomic_read(&cil->xc_ctx->space_used);
	for_each_possible_cpu(cpu) {
		struct xlog_cil_pcp *pcp = per_cpu_ptr(cil->xc_pcp, cpu);

		used += pcp->space_used;
	}
	up_write(&cil->xc_ctx_lock);
	return used;
}

#define WHOLE_BLOCKS	60
#define WHOLE_PAYLOAD	1000

/* One transaction logging WHOLE_BLOCKS scratch blocks, as SEQ. */
static void log_blocks(struct xfs_trans *tp, u64 seq)
{
	unsigned int b;

	for (b = 0; b < WHOLE_BLOCKS; b++)
		KSHIM_ASSERT_EQ_FATAL(kshim_xfs_scratch_log(tp, b, seq,
							    WHOLE_PAYLOAD), 0);
}

/*
 * A transaction's reservation (tr_logres) counts the bytes of the items
 * it logs; the log's unit reservation adds what writing them costs: the
 * transaction and op headers, an iclog header for each iclog they span,
 * the commit record. The first commit of a checkpoint also pays the
 * checkpoint's own share of those. A transaction whose items take
 * exactly its reservation, spanning several iclogs, must fit: its ticket
 * ends at 0, not below (an overrun is a WARN and a shutdown), and once
 * the log is idle the grant heads are back where they were.
 */
static void test_whole_reservation_across_iclogs_does_not_overrun(void)
{
	struct xfs_fixture fx = { };
	struct xfs_trans_res res = { .tr_logcount = 1 };
	struct xfs_mount *mp;
	struct xlog *log;
	struct xlog_ticket *tic;
	struct xfs_trans *tp;
	int len;
	u64 seq;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	xfs_fixture_quiesce(mp);

	/* What the items take, measured in the CIL with room to spare. */
	res.tr_logres = 4 * WHOLE_BLOCKS * XFS_FSB_TO_B(mp, 1);
	KSHIM_ASSERT_EQ_FATAL(xfs_trans_alloc(mp, &res, 0, 0, 0, &tp), 0);
	log_blocks(tp, 1);
	KSHIM_ASSERT_EQ_FATAL(xfs_trans_commit(tp), 0);
	len = cil_space_used(log);
	KSHIM_ASSERT_FATAL(len > 2 * (log->l_iclog_size - log->l_iclog_hsize));
	xfs_fixture_quiesce(mp);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), idle_grant(log));

	/* The same items again, with a reservation of exactly their size. */
	res.tr_logres = len;
	KSHIM_ASSERT_EQ_FATAL(xfs_trans_alloc(mp, &res, 0, 0, 0, &tp), 0);
	tic = xfs_log_ticket_get(tp->t_ticket);
	KSHIM_ASSERT(tic->t_iclog_hdrs >= 3);
	log_blocks(tp, 2);
	KSHIM_ASSERT_EQ_FATAL(xfs_trans_commit(tp), 0);
	KSHIM_ASSERT_EQ(cil_space_used(log), len);
	KSHIM_ASSERT(tic->t_curr_res >= 0);
	/* And the reservation was used to the byte: the edge was tested. */
	KSHIM_ASSERT_EQ(tic->t_curr_res, 0);
	xfs_log_ticket_put(tic);

	/* The checkpoint's own ticket did not run out either. */
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	KSHIM_ASSERT(!xlog_is_shutdown(log));
	xfs_fixture_quiesce(mp);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), idle_grant(log));
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), idle_grant(log));
	KSHIM_ASSERT_EQ(kshim_xfs_scratch_read(mp, WHOLE_BLOCKS - 1, &seq), 0);
	KSHIM_ASSERT_EQ(seq, 2);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/* ---- log forces with iclogs in flight ------------------------------------ */

/*
 * On a slow disk, a checkpoint of 32 blocks of 1000 bytes spans two
 * iclogs: when a synchronous force finds the commit record's iclog still
 * ACTIVE, the iclog before it is usually still being written, and the
 * force first waits for that one, then looks again (-EAGAIN inside
 * xfs_log_force_seq()). Whatever path it takes, it returns 0 only once
 * the commit is on stable storage: a power cut right after it, dropping
 * every cached write, loses nothing. Asynchronous forces in between keep
 * earlier iclogs in flight.
 */
static void test_sync_force_behind_iclogs_in_flight_is_durable(void)
{
	struct xfs_fixture fx = { .dev = &dev_slow_disk };
	struct xfs_mount *mp;
	int i;

	mp = xfs_fixture_mount_new(&fx);
	for (i = 1; i <= 6; i++) {
		xfs_fixture_commit(&fx, ~0u, 1000);
		if (i % 2)
			KSHIM_ASSERT_EQ(xfs_log_force(mp, 0), 0);
	}
	KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
	KSHIM_ASSERT_EQ(fx.durable, 6);
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_DROP_ALL), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_check_prefix(&fx), 6);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * An asynchronous force of a checkpoint sequence returns 0 at once, and
 * it is what gets the checkpoint written: with nobody waiting (and the
 * log worker's 30 s far off) the checkpoint reaches the disk, its items
 * the AIL, and a power cut then loses nothing.
 */
static void test_async_force_of_a_sequence_gets_it_to_disk(void)
{
	struct xfs_fixture fx = { .dev = &dev_slow_disk };
	struct xfs_mount *mp;
	xfs_csn_t csn;

	mp = xfs_fixture_mount_new(&fx);
	xfs_fixture_quiesce(mp);
	csn = xfs_fixture_commit(&fx, 0xff, 500);
	KSHIM_ASSERT_EQ(xfs_log_force_seq(mp, csn, 0, NULL), 0);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(xfs_fixture_ail_items(mp->m_ail) == 8,
					5 * HZ));
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_DROP_ALL), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_check_prefix(&fx), 1);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * An asynchronous force sends the checkpoint's iclog to a slow disk and
 * the log's head moves on to the next iclog. A synchronous force of the
 * same sequence must look past the head for the iclog that holds it and
 * wait for that write: a power cut right after it returns loses nothing.
 */
static void test_sync_force_waits_for_an_iclog_behind_the_head(void)
{
	struct xfs_fixture fx = { .dev = &dev_slow_disk };
	struct xfs_mount *mp;
	struct xlog *log;
	struct xlog_in_core *head;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	xfs_fixture_quiesce(mp);
	xfs_fixture_commit(&fx, 0xff, 500);
	KSHIM_ASSERT_EQ(xfs_log_force(mp, 0), 0);
	/* Still in flight: the disk takes 0.5-1.5 ms (in virtual time; a
	 * loaded host may have finished it already). */
	spin_lock(&log->l_icloglock);
	head = log->l_iclog;
	if (kshim_sched->virtual_time)
		KSHIM_ASSERT(head->ic_prev->ic_state != XLOG_STATE_ACTIVE);
	spin_unlock(&log->l_icloglock);
	KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_DROP_ALL), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_check_prefix(&fx), 1);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test force_edge_tests[] = {
	KSHIM_TEST(test_sync_force_behind_iclogs_in_flight_is_durable),
	KSHIM_TEST(test_async_force_of_a_sequence_gets_it_to_disk),
	KSHIM_TEST(test_sync_force_waits_for_an_iclog_behind_the_head),
	{ }
};

static const struct kshim_test grant_edge_tests[] = {
	KSHIM_TEST(test_exact_fit_is_granted_and_one_byte_more_waits),
	KSHIM_TEST(test_regrant_after_shutdown_fails_with_eio_taking_nothing),
	KSHIM_TEST(test_shutdown_fails_a_waiter_whose_space_came_free),
	KSHIM_TEST(test_whole_reservation_across_iclogs_does_not_overrun),
	{ }
};

KSHIM_SUITES({ "grant_edges", NULL, NULL, grant_edge_tests },
	     { "force_edges", NULL, NULL, force_edge_tests });
