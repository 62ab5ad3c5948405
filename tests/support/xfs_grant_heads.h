/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The XFS log's grant heads as the log tests read them (test_xfs_log.c,
 * test_xfs_log_grant.c): their bytes, the free space as
 * xlog_grant_space_left() computes it, what they hold when the log is
 * idle, their waiters; and a task that reserves log space.
 */
#ifndef _TESTS_XFS_GRANT_HEADS_H
#define _TESTS_XFS_GRANT_HEADS_H

#include "xfs_fixture.h"

static inline s64 grant(struct xlog_grant_head *head)
{
	return atomic64_read(&head->grant);
}

/* Free reservation space as xlog_grant_space_left() computes it. */
static inline s64 space_left(struct xlog *log, struct xlog_grant_head *head)
{
	return log->l_logsize - (s64)READ_ONCE(log->l_tail_space) -
	       grant(head);
}

/*
 * What the grant heads hold when the log is idle (no tickets, the CIL
 * empty, the AIL written back): the log written past the last
 * checkpoint's commit, ail_head_lsn (its commit record's iclog), which
 * moves into the tail space only when the next checkpoint completes.
 */
static inline s64 idle_grant(struct xlog *log)
{
	xfs_lsn_t head, ail_head;

	spin_lock(&log->l_icloglock);
	head = xlog_assign_lsn(log->l_curr_cycle, log->l_curr_block);
	spin_unlock(&log->l_icloglock);
	spin_lock(&log->l_ailp->ail_lock);
	ail_head = log->l_ailp->ail_head_lsn;
	spin_unlock(&log->l_ailp->ail_lock);
	return xlog_lsn_sub(log, head, ail_head);
}

static inline int nr_waiters(struct xlog_grant_head *head)
{
	struct list_head *p;
	int n = 0;

	spin_lock(&head->lock);
	list_for_each(p, &head->waiters)
		n++;
	spin_unlock(&head->lock);
	return n;
}

/* A task reserving BYTES of log space once (kshim_task_run(reserver_fn,
 * &r, ...)): its ticket and error, and done when the call returned. */
struct reserver {
	struct xfs_mount *mp;
	int bytes;
	struct xlog_ticket *tic;
	int err;
	bool done;
};

static inline void reserver_fn(void *arg)
{
	struct reserver *r = arg;

	r->err = xfs_log_reserve(r->mp, r->bytes, 1, &r->tic, false);
	smp_store_release(&r->done, true);
}

#endif
