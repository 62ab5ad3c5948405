// SPDX-License-Identifier: GPL-2.0
/*
 * The log load (see xfs_log_load.h). Each task's transaction is what the
 * log concurrency post describes for an unwritten-extent conversion: the real
 * tr_write reservation, a small amount of metadata logged (one scratch
 * block, real buffer log item), commit. The checker samples, under the
 * locks the kernel uses for them:
 *
 *  - the head never passes the tail (nothing overwrites the tail: the
 *    log stays recoverable);
 *  - both grant heads at or above zero;
 *  - the kernel's own check before each iclog write,
 *    xlog_verify_tail_lsn() (XFS_DEBUG), said nothing: it prints "ran
 *    out of log space", "head has wrapped tail" or "tail wrapped" but
 *    does not stop, so the load looks for its messages;
 *  - the CIL (the global count plus every CPU's unfolded part) below
 *    half the log: "two checkpoints must always fit in the log, or
 *    recovery can fail" (the reason for XLOG_CIL_BLOCKING_SPACE_LIMIT);
 *
 * and records the largest CIL and how many committers waited at its hard
 * limit. Optionally it holds the CIL push worker back from the start
 * until hold_push_ns after the CIL reached its hard limit (at most a
 * minute): four work items (xlog_cil_init() gives xc_push_wq max_active 4)
 * that sleep until released occupy every slot, so the push work queued
 * behind them cannot start.
 */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_trans.h"
#include "xfs_trans_priv.h"
#include "xfs_log.h"
#include "xfs_log_priv.h"
#include "xfs_stats.h"
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/workqueue.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/host.h>
#include <kshim/xfs.h>
#include "xfs_log_load.h"

#define CIL_PUSH_MAX_ACTIVE	4	/* xlog_cil_init() */
#define SAMPLE_NS		(20 * NSEC_PER_USEC)
#define HOLD_GIVE_UP_NS		(60ULL * NSEC_PER_SEC)

struct load_state {
	struct log_load *ll;
	atomic_t running;
	atomic64_t commits, reserve_wait_ns, reserve_wait_max_ns, commit_ns;
	int error;
	struct completion release;
	struct work_struct blockers[CIL_PUSH_MAX_ACTIVE];
	u64 t0;
};

struct worker {
	struct load_state *st;
	unsigned int id;
};

/* The hold's completion: one load runs at a time. */
static struct load_state *blocker_state;

static void hold_fn(struct work_struct *work)
{
	wait_for_completion(&blocker_state->release);
}

static void atomic64_max(atomic64_t *v, s64 x)
{
	s64 old = atomic64_read(v);

	while (old < x && !atomic64_try_cmpxchg(v, &old, x))
		;
}

static void worker_fn(void *arg)
{
	struct worker *w = arg;
	struct load_state *st = w->st;
	struct log_load *ll = st->ll;
	struct xfs_mount *mp = ll->mp;
	unsigned int nblocks = kshim_xfs_scratch_blocks(mp), k;
	struct xfs_trans *tp;
	u64 t0, t1, t2;
	int error = 0;

	if (ll->task_fn)
		error = ll->task_fn(ll, w->id);
	for (k = 1; !ll->task_fn && k <= ll->commits_per_task && !error;
	     k++) {
		t0 = kshim_clock_ns();
		error = xfs_trans_alloc(mp, &M_RES(mp)->tr_write, 0, 0, 0, &tp);
		if (error)
			break;
		t1 = kshim_clock_ns();
		/* A different block each time, so the CIL grows with the
		 * commits (relogging one block would not grow it). */
		error = kshim_xfs_scratch_log(tp, (w->id + (k - 1) *
						   ll->nr_tasks) % nblocks,
					      k, ll->payload);
		if (error) {
			xfs_trans_cancel(tp);
			break;
		}
		error = xfs_trans_commit(tp);
		t2 = kshim_clock_ns();
		atomic64_add(t1 - t0, &st->reserve_wait_ns);
		atomic64_max(&st->reserve_wait_max_ns, t1 - t0);
		atomic64_add(t2 - t1, &st->commit_ns);
		if (!error)
			atomic64_inc(&st->commits);
	}
	if (error)
		cmpxchg(&st->error, 0, error);
	atomic_dec(&st->running);
}

static void violation(struct log_load *ll, const char *fmt, ...)
{
	va_list ap;

	if (!ll->violations++) {
		va_start(ap, fmt);
		vsnprintf(ll->first_violation, sizeof(ll->first_violation),
			  fmt, ap);
		va_end(ap);
		pr_err("log_load: invariant broken: %s\n", ll->first_violation);
	}
}

/*
 * The head must not pass the tail: same cycle and ahead of it, or one
 * cycle on and still behind it. l_curr_block is where the next iclog
 * starts, so this checks the space iclogs have claimed, not only what is
 * written: stricter than xlog_verify_tail_lsn(), which looks at each
 * iclog when it is written, and what the grant accounting promises (no
 * iclog claims log space a reservation does not cover).
 */
static void check_head_tail(struct log_load *ll, struct xlog *log)
{
	int cycle, block, tcycle, tblock;
	xfs_lsn_t tail;

	spin_lock(&log->l_icloglock);
	cycle = log->l_curr_cycle;
	block = log->l_curr_block;
	tail = atomic64_read(&log->l_tail_lsn);
	spin_unlock(&log->l_icloglock);
	tcycle = CYCLE_LSN(tail);
	tblock = BLOCK_LSN(tail);
	if (!((cycle == tcycle && block >= tblock) ||
	      (cycle == tcycle + 1 && block <= tblock))) {
		ll->tail_overwrites++;
		violation(ll, "log head %d/%d has passed the tail %d/%d",
			  cycle, block, tcycle, tblock);
	}
}

/*
 * No byte given back twice: a grant head below zero. (Above the log size
 * is allowed: xlog_grant_head_check()'s lock-free fast path lets
 * concurrent reservers each see the same free space, so the reserve
 * head can overcommit for a moment; the overrun is recorded, and what
 * must never follow from it, the head passing the tail, is checked
 * above.)
 */
static void check_grant(struct log_load *ll, struct xlog *log)
{
	s64 r = atomic64_read(&log->l_reserve_head.grant);
	s64 w = atomic64_read(&log->l_write_head.grant);

	if (r < 0 || w < 0)
		violation(ll, "grant head below zero: reserve %lld, write %lld",
			  r, w);
	ll->grant_overrun_max = max(ll->grant_overrun_max,
				    max(r, w) - log->l_logsize);
}

/* The CIL's size: the context's count plus each CPU's unfolded part. */
static void check_cil(struct log_load *ll, struct xlog *log)
{
	struct xfs_cil *cil = log->l_cilp;
	struct wait_queue_entry *we;
	unsigned int cpus = 0;
	u64 waiting = 0;
	s64 used;
	int cpu;

	/*
	 * The write side, as xlog_cil_push_work() takes it to fold the
	 * per-CPU parts: committers change their CPU's part under the read
	 * side, so only the write side reads it whole.
	 */
	down_write(&cil->xc_ctx_lock);
	used = atomic_read(&cil->xc_ctx->space_used);
	for_each_possible_cpu(cpu) {
		struct xlog_cil_pcp *pcp = per_cpu_ptr(cil->xc_pcp, cpu);

		used += READ_ONCE(pcp->space_used);
		cpus += !list_empty_careful(&pcp->log_items);
	}
	up_write(&cil->xc_ctx_lock);
	spin_lock(&cil->xc_push_wait.lock);
	list_for_each_entry(we, &cil->xc_push_wait.head, entry)
		waiting++;
	spin_unlock(&cil->xc_push_wait.lock);

	ll->cil_max_bytes = max(ll->cil_max_bytes, used);
	ll->cil_max_cpus = max(ll->cil_max_cpus, cpus);
	ll->throttled_max = max(ll->throttled_max, waiting);
	if (used >= log->l_logsize / 2)
		violation(ll, "CIL holds %lld bytes, half the log is %d: two "
			  "checkpoints no longer fit", used,
			  log->l_logsize / 2);
}

static u64 sleep_logspace(struct xfs_mount *mp)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu_ptr(mp->m_stats.xs_stats, cpu)->s.xs_sleep_logspace;
	return n;
}

int log_load_run(struct log_load *ll)
{
	struct xlog *log = ll->mp->m_log;
	struct xfs_cil *cil = log->l_cilp;
	struct load_state st = { .ll = ll };
	struct task_struct **tasks;
	struct worker *workers;
	u64 real0, seq0, sleeps0, armed_at = 0;
	int cycle0, block0;
	bool held = false;
	unsigned int i;

	tasks = kcalloc(ll->nr_tasks, sizeof(*tasks), GFP_KERNEL);
	workers = kcalloc(ll->nr_tasks, sizeof(*workers), GFP_KERNEL);
	if (!tasks || !workers) {
		kfree(tasks);
		kfree(workers);
		return -ENOMEM;
	}
	ll->logsize = log->l_logsize;
	ll->grant_overrun_max = S64_MIN;
	ll->cil_hard_limit = XLOG_CIL_BLOCKING_SPACE_LIMIT(log);
	init_completion(&st.release);
	if (ll->hold_push_ns) {
		blocker_state = &st;
		for (i = 0; i < CIL_PUSH_MAX_ACTIVE; i++) {
			INIT_WORK(&st.blockers[i], hold_fn);
			queue_work(cil->xc_push_wq, &st.blockers[i]);
		}
		held = true;
	}
	/* The kernel's messages from this run only (checked at the end). */
	kshim_printk_clear();
	seq0 = cil->xc_current_sequence;
	spin_lock(&log->l_icloglock);
	cycle0 = log->l_curr_cycle;
	block0 = log->l_curr_block;
	spin_unlock(&log->l_icloglock);
	sleeps0 = sleep_logspace(ll->mp);
	real0 = kshim_host_clock_ns();
	st.t0 = kshim_clock_ns();

	atomic_set(&st.running, ll->nr_tasks);
	for (i = 0; i < ll->nr_tasks; i++) {
		workers[i] = (struct worker){ .st = &st, .id = i };
		tasks[i] = kshim_task_run(worker_fn, &workers[i], "log-load", -1);
	}
	/* The checker: this task. */
	while (atomic_read(&st.running)) {
		u64 now = kshim_clock_ns();

		/* The hold lasts hold_push_ns from when the CIL reached its
		 * hard limit, however slow the machine (valgrind, TSan). */
		if (held && !armed_at &&
		    (ll->throttled_max || ll->cil_max_bytes >= ll->cil_hard_limit))
			armed_at = now;
		if (held && ((armed_at && now - armed_at >= ll->hold_push_ns) ||
			     now - st.t0 >= HOLD_GIVE_UP_NS)) {
			complete_all(&st.release);
			held = false;
		}
		check_head_tail(ll, log);
		check_grant(ll, log);
		check_cil(ll, log);
		ll->samples++;
		usleep_range(SAMPLE_NS / NSEC_PER_USEC,
			     SAMPLE_NS / NSEC_PER_USEC + 1);
	}
	if (kshim_printk_contains("xlog_verify_tail_lsn")) {
		ll->tail_overwrites++;
		violation(ll, "xlog_verify_tail_lsn() reported the log "
			  "overwriting its tail (see the XFS messages)");
	}
	ll->elapsed_ns = kshim_clock_ns() - st.t0;
	ll->real_ns = kshim_host_clock_ns() - real0;
	if (held)
		complete_all(&st.release);
	for (i = 0; i < ll->nr_tasks; i++)
		kshim_task_join(tasks[i]);
	for (i = 0; ll->hold_push_ns && i < CIL_PUSH_MAX_ACTIVE; i++)
		flush_work(&st.blockers[i]);
	blocker_state = NULL;

	ll->commits = atomic64_read(&st.commits);
	ll->reserve_wait_ns = atomic64_read(&st.reserve_wait_ns);
	ll->reserve_wait_max_ns = atomic64_read(&st.reserve_wait_max_ns);
	ll->commit_ns = atomic64_read(&st.commit_ns);
	ll->sleep_logspace = sleep_logspace(ll->mp) - sleeps0;
	ll->checkpoints = cil->xc_current_sequence - seq0;
	spin_lock(&log->l_icloglock);
	ll->log_cycles = log->l_curr_cycle - cycle0;
	ll->log_bytes = BBTOB((s64)ll->log_cycles * log->l_logBBsize +
			      log->l_curr_block - block0);
	spin_unlock(&log->l_icloglock);
	kfree(tasks);
	kfree(workers);
	return st.error;
}
