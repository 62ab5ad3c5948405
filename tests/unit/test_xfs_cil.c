// SPDX-License-Identifier: GPL-2.0
/*
 * The CIL (fs/xfs/xfs_log_cil.c) as its users rely on it, driven by real
 * transactions on scratch blocks and files: a checkpoint as large as the
 * CIL's hard limit allows fits in the space its tickets reserved and the
 * CIL counts exactly the bytes it holds; a log force pushes only what it
 * asks for; freed extents stay busy until their checkpoint is on disk;
 * only logged items go into a checkpoint, whose header counts them; and
 * a log I/O error in the middle of a push shuts the log down, lets its
 * waiters go and leaves nothing behind.
 *
 * The CIL push worker is held back where a test needs a large checkpoint
 * built before it is written: work items that sleep until released take
 * every slot of the push workqueue (xlog_cil_init() gives it max_active
 * 4), so the push queued behind them waits.
 */
#include <linux/kernel.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/blk_types.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/bdev.h>
#include <kshim/vfs.h>
#include <linux/fs.h>
#include <linux/falloc.h>
#include "xfs_fixture.h"
#include "xfs_grant_heads.h"
#include "xfs_ag.h"
#include "xfs_buf_item.h"

/* Enough scratch blocks for a CIL at its hard limit (8192 on it). */
#define BIG_IMG_SIZE	(256ULL << 20)
#define CIL_PUSH_MAX_ACTIVE	4	/* xlog_cil_init() */
#define BLOCKS_PER_COMMIT	4
#define PAYLOAD		1000

/* ---- holding the push worker back ------------------------------------- */

struct push_hold {
	struct completion release;
	struct work_struct blockers[CIL_PUSH_MAX_ACTIVE];
};

static struct push_hold *the_hold;

static void hold_fn(struct work_struct *work)
{
	wait_for_completion(&the_hold->release);
}

static void push_hold_start(struct push_hold *h, struct xfs_cil *cil)
{
	int i;

	init_completion(&h->release);
	the_hold = h;
	for (i = 0; i < CIL_PUSH_MAX_ACTIVE; i++) {
		INIT_WORK(&h->blockers[i], hold_fn);
		queue_work(cil->xc_push_wq, &h->blockers[i]);
	}
}

static void push_hold_release(struct push_hold *h)
{
	int i;

	complete_all(&h->release);
	for (i = 0; i < CIL_PUSH_MAX_ACTIVE; i++)
		flush_work(&h->blockers[i]);
	the_hold = NULL;
}

/* ---- the log's accounting ---------------------------------------------- */

/* Bytes the log head is at, counted from the start of cycle 0. */
static s64 head_bytes(struct xlog *log)
{
	s64 b;

	spin_lock(&log->l_icloglock);
	b = (s64)log->l_curr_cycle * log->l_logsize +
	    BBTOB(log->l_curr_block);
	spin_unlock(&log->l_icloglock);
	return b;
}

/*
 * The CIL's size as its limits see it (the global count and every CPU's
 * part not yet folded in) and the bytes its items will write (each
 * item's formatted log vector, the op headers included), under the CIL's
 * context lock held exclusively, as its push takes it: no commit is
 * half done. They must be equal: a CIL that counts bytes it will not
 * write, or misses some, pushes and throttles at the wrong size.
 */
static void cil_size(struct xfs_cil *cil, s64 *counted, s64 *formatted)
{
	struct xlog_cil_pcp *pcp;
	struct xfs_log_item *lip;
	int cpu;

	down_write(&cil->xc_ctx_lock);
	*counted = atomic_read(&cil->xc_ctx->space_used);
	*formatted = 0;
	list_for_each_entry(lip, &cil->xc_ctx->log_items, li_cil)
		*formatted += lip->li_lv->lv_bytes;
	for_each_possible_cpu(cpu) {
		pcp = per_cpu_ptr(cil->xc_pcp, cpu);
		*counted += pcp->space_used;
		list_for_each_entry(lip, &pcp->log_items, li_cil)
			*formatted += lip->li_lv->lv_bytes;
	}
	up_write(&cil->xc_ctx_lock);
}

/* One transaction logging BLOCKS_PER_COMMIT fresh scratch blocks. */
static void commit_blocks(struct xfs_mount *mp, unsigned int first, u64 seq)
{
	struct xfs_trans *tp;
	unsigned int b;

	KSHIM_ASSERT_EQ_FATAL(xfs_trans_alloc(mp, &M_RES(mp)->tr_write, 0, 0,
					      0, &tp), 0);
	for (b = first; b < first + BLOCKS_PER_COMMIT; b++)
		KSHIM_ASSERT_EQ_FATAL(kshim_xfs_scratch_log(tp, b, seq,
							    PAYLOAD), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_trans_commit(tp), 0);
}

/*
 * With the push worker held, commit transactions of fresh blocks until
 * the CIL is one commit short of its hard limit: the largest checkpoint
 * one committer can build without being throttled (a commit that
 * reaches the limit would wait for the held push). Once past the soft
 * limit the CIL's count is exact (no per-CPU parts), so the step each
 * commit adds is known from there on. After every commit the CIL's size
 * is the bytes it holds (cil_size()).
 *
 * Return: the number of commits, each numbered from 1 in its blocks.
 */
static unsigned int fill_cil_to_hard_limit(struct xfs_mount *mp)
{
	struct xfs_cil *cil = mp->m_log->l_cilp;
	s64 hard = XLOG_CIL_BLOCKING_SPACE_LIMIT(mp->m_log);
	s64 used = 0, step = 0, now, counted, formatted;
	bool exact = false;
	unsigned int n = 0;

	KSHIM_ASSERT_FATAL(kshim_xfs_scratch_blocks(mp) >=
			   (hard / PAYLOAD + 1) * 2);
	for (;;) {
		commit_blocks(mp, n * BLOCKS_PER_COMMIT, n + 1);
		n++;
		now = atomic_read(&cil->xc_ctx->space_used);
		/* The commit that ends the per-CPU counting folds every
		 * CPU's part in: not a step. */
		if (exact)
			step = max(step, now - used);
		exact = !test_bit(XLOG_CIL_PCP_SPACE, &cil->xc_flags);
		used = now;
		cil_size(cil, &counted, &formatted);
		KSHIM_ASSERT_EQ_FATAL(counted, formatted);
		if (step && used + 2 * step >= hard)
			break;
	}
	KSHIM_ASSERT(used >= XLOG_CIL_SPACE_LIMIT(mp->m_log));
	KSHIM_ASSERT(used < hard);
	kshim_info("CIL: %u commits, %lld bytes (soft limit %d, hard %lld)\n",
		   n, used, XLOG_CIL_SPACE_LIMIT(mp->m_log), hard);
	return n;
}

/*
 * A checkpoint as large as one committer can make it (the CIL one commit
 * short of its hard limit, so no commit is throttled and none takes the
 * extra iclog headers that commits over the limit give): it spans tens
 * of iclogs, each with a header and each split region with an op header,
 * all paid for by the iclog header space the commits gave the CIL's
 * ticket. Writing it must not run that ticket out ("ctx ticket
 * reservation ran out", a shutdown), it is one checkpoint, its blocks
 * come back, and once the log is idle the grant heads hold exactly what
 * an idle log holds: no byte lost or counted twice in the moves between
 * the commits' tickets and the CIL's.
 */
static void test_checkpoint_at_the_hard_limit_fits_its_reservation(void)
{
	struct xfs_fixture fx = { .size = BIG_IMG_SIZE };
	struct push_hold hold;
	struct xfs_mount *mp;
	struct xlog *log;
	struct xfs_cil *cil;
	xfs_csn_t seq0;
	s64 head0, written;
	unsigned int n, i;
	u64 seq;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	cil = log->l_cilp;
	xfs_fixture_quiesce(mp);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), idle_grant(log));
	seq0 = cil->xc_current_sequence;
	head0 = head_bytes(log);

	kshim_printk_clear();
	push_hold_start(&hold, cil);
	n = fill_cil_to_hard_limit(mp);
	/* The background push is queued (the CIL is over its soft limit)
	 * but has not begun: still one sequence. */
	KSHIM_ASSERT_EQ(cil->xc_current_sequence, seq0);
	KSHIM_ASSERT_EQ(cil->xc_push_seq, seq0);
	push_hold_release(&hold);
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);

	KSHIM_ASSERT(!xlog_is_shutdown(log));
	KSHIM_ASSERT(!kshim_printk_contains("reservation ran out"));
	KSHIM_ASSERT(!kshim_printk_contains("reservation overrun"));
	/* One checkpoint held the whole load, and it spanned the iclogs a
	 * CIL near its hard limit needs. */
	KSHIM_ASSERT_EQ(cil->xc_current_sequence, seq0 + 1);
	written = head_bytes(log) - head0;
	kshim_info("checkpoint: %lld bytes of log, %lld iclogs' worth\n",
		   written, written / log->l_iclog_size);
	KSHIM_ASSERT(written >= XLOG_CIL_BLOCKING_SPACE_LIMIT(log) * 9 / 10);
	KSHIM_ASSERT(written / log->l_iclog_size >= 16);

	xfs_fixture_quiesce(mp);
	KSHIM_ASSERT_EQ(grant(&log->l_reserve_head), idle_grant(log));
	KSHIM_ASSERT_EQ(grant(&log->l_write_head), idle_grant(log));
	for (i = 0; i < n * BLOCKS_PER_COMMIT; i += 97) {
		KSHIM_ASSERT_EQ(kshim_xfs_scratch_read(mp, i, &seq), 0);
		KSHIM_ASSERT_EQ(seq, i / BLOCKS_PER_COMMIT + 1);
	}
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * A force of a sequence already on disk (an fsync of an old change) has
 * nothing to push: it returns at once and leaves the CIL's current
 * checkpoint to gather more, instead of writing a checkpoint of
 * whatever was committed since. A force of the current sequence then
 * pushes exactly it.
 */
static void test_force_of_a_stable_sequence_pushes_nothing(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xfs_cil *cil;
	xfs_csn_t a, b;
	s64 head;

	mp = xfs_fixture_mount_new(&fx);
	cil = mp->m_log->l_cilp;
	xfs_fixture_quiesce(mp);

	a = xfs_fixture_commit(&fx, BIT(0), 200);
	KSHIM_ASSERT_EQ(xfs_log_force_seq(mp, a, XFS_LOG_SYNC, NULL), 0);
	b = xfs_fixture_commit(&fx, BIT(1), 200);
	KSHIM_ASSERT_EQ(b, a + 1);
	head = head_bytes(mp->m_log);

	KSHIM_ASSERT_EQ(xfs_log_force_seq(mp, a, XFS_LOG_SYNC, NULL), 0);
	KSHIM_ASSERT_EQ(xfs_log_force_seq(mp, a, 0, NULL), 0);
	KSHIM_ASSERT_EQ(cil->xc_current_sequence, b);
	KSHIM_ASSERT(!xlog_cil_empty(mp->m_log));
	KSHIM_ASSERT_EQ(head_bytes(mp->m_log), head);

	KSHIM_ASSERT_EQ(xfs_log_force_seq(mp, b, XFS_LOG_SYNC, NULL), 0);
	KSHIM_ASSERT_EQ(cil->xc_current_sequence, b + 1);
	KSHIM_ASSERT(xlog_cil_empty(mp->m_log));
	KSHIM_ASSERT(head_bytes(mp->m_log) > head);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

struct forcer {
	struct xfs_mount *mp;
	xfs_csn_t seq;
	bool started;
	int err;
};

static void forcer_fn(void *arg)
{
	struct forcer *f = arg;

	smp_store_release(&f->started, true);
	f->err = xfs_log_force_seq(f->mp, f->seq, XFS_LOG_SYNC, NULL);
}

/*
 * A log write fails while a large checkpoint is being written (the NTH
 * write to the log from then on: early in the checkpoint, or near its
 * commit record): the log shuts down in the middle of the push. A task
 * that was waiting on a synchronous force of that checkpoint is let go
 * (with -EIO, or 0 when the aborted checkpoint was already gone from
 * the committing list: xfs_log_force_seq() then finds nothing to wait
 * for); any later force fails with -EIO; the checkpoint's items are
 * aborted, not inserted in the AIL (nothing of a failed checkpoint may
 * reach its place on disk); the CIL's contexts and tickets are freed
 * (the test's leak check) and the unmount does not hang.
 */
static void log_write_error_in_a_push(unsigned long nth)
{
	struct xfs_fixture fx = { .size = BIG_IMG_SIZE };
	struct push_hold hold;
	struct forcer f = { };
	struct task_struct *t;
	struct kshim_bdev *kb;
	struct xfs_mount *mp;
	struct xlog *log;
	struct kshim_fault fault = {
		.ops = KSHIM_FAULT_WRITE,
		.nth = nth,
		.status = BLK_STS_IOERR,
		.times = 1,
	};
	int id;

	mp = xfs_fixture_mount_new(&fx);
	log = mp->m_log;
	kb = kshim_xfs_data_bdev(fx.x);
	xfs_fixture_quiesce(mp);
	fault.start = log->l_logBBstart;
	fault.nr_sectors = log->l_logBBsize;

	push_hold_start(&hold, log->l_cilp);
	fill_cil_to_hard_limit(mp);
	f = (struct forcer){ .mp = mp,
			     .seq = log->l_cilp->xc_current_sequence };
	id = kshim_bdev_add_fault(kb, &fault);
	KSHIM_ASSERT_FATAL(id >= 0);
	t = kshim_task_run(forcer_fn, &f, "forcer", -1);
	/* The force waits for the held push (its flush of the push
	 * workqueue) before the push begins. */
	KSHIM_ASSERT_FATAL(POLL_UNTIL_TIMEOUT(smp_load_acquire(&f.started),
					      5 * HZ));
	msleep(10);
	push_hold_release(&hold);
	kshim_task_join(t);

	kshim_info("write %lu failed: the force returned %d\n", nth, f.err);
	KSHIM_ASSERT_EQ(kshim_bdev_fault_hits(kb, id), 1);
	KSHIM_ASSERT(f.err == -EIO || f.err == 0);
	KSHIM_ASSERT(xlog_is_shutdown(log));
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), -EIO);
	KSHIM_ASSERT_EQ(xfs_log_force_seq(mp, f.seq, XFS_LOG_SYNC, NULL), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(mp->m_ail), 0);
	spin_lock(&log->l_cilp->xc_push_lock);
	KSHIM_ASSERT(list_empty(&log->l_cilp->xc_committing));
	spin_unlock(&log->l_cilp->xc_push_lock);
	kshim_bdev_clear_faults(kb);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static void test_log_write_error_early_in_a_push(void)
{
	log_write_error_in_a_push(3);
}

static void test_log_write_error_near_a_push_commit_record(void)
{
	int i;

	/*
	 * A CIL at its hard limit: 43 iclogs of 32 KiB and the commit
	 * record's. The last full one failing can shut the log down while
	 * the push holds the commit record's iclog (the abort path that must
	 * release it), or just before or after: which, the schedule decides,
	 * so four rounds, each its own schedule.
	 */
	for (i = 0; i < 4; i++)
		log_write_error_in_a_push(43);
}

/* Busy extents (freed, not yet reusable) in every AG, counted. */
static unsigned int busy_extents(struct xfs_mount *mp)
{
	struct xfs_perag *pag;
	struct rb_node *n;
	xfs_agnumber_t agno;
	unsigned int busy = 0;

	for (agno = 0; agno < mp->m_sb.sb_agcount; agno++) {
		pag = xfs_perag_get(mp, agno);
		spin_lock(&pag->pagb_lock);
		for (n = rb_first(&pag->pagb_tree); n; n = rb_next(n))
			busy++;
		spin_unlock(&pag->pagb_lock);
		xfs_perag_put(pag);
	}
	return busy;
}

/*
 * Extents a transaction frees stay busy (not to be allocated again)
 * until the checkpoint holding the free is on disk: reused before, a
 * crash could bring back the file that owned them over someone else's
 * data. The commit hands its busy extents to the CIL, and the
 * checkpoint's completion clears them.
 */
static void test_freed_extents_stay_busy_until_their_checkpoint(void)
{
	struct xfs_fixture fx = { };
	struct dentry *root;
	struct file *f;
	struct xfs_mount *mp;

	mp = xfs_fixture_mount_new(&fx);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "f", O_RDWR | O_CREAT, 0644,
					     &f), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_fallocate(f, 0, 0, 4 << 20), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(f, 0), 0);
	xfs_fixture_quiesce(mp);
	KSHIM_ASSERT_EQ(busy_extents(mp), 0);

	/* Freed in the CIL's current checkpoint: busy. */
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_ftruncate(f, 0), 0);
	KSHIM_ASSERT(!xlog_cil_empty(mp->m_log));
	KSHIM_ASSERT(busy_extents(mp) > 0);

	/* The checkpoint on disk: no longer busy. */
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	KSHIM_ASSERT_EQ(busy_extents(mp), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);
	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * An item a transaction holds but does not log (here the superblock
 * buffer, joined with xfs_trans_getsb() and left clean) stays out of
 * the CIL: only what the transaction logged goes into the checkpoint,
 * gets pinned, and reaches the AIL when the checkpoint is on disk.
 */
static void test_item_held_but_not_logged_stays_out_of_the_checkpoint(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	struct xfs_trans *tp;
	struct xfs_buf *sbp;

	mp = xfs_fixture_mount_new(&fx);
	xfs_fixture_quiesce(mp);

	KSHIM_ASSERT_EQ_FATAL(xfs_trans_alloc(mp, &M_RES(mp)->tr_write, 0, 0,
					      0, &tp), 0);
	sbp = xfs_trans_getsb(tp);
	KSHIM_ASSERT_EQ_FATAL(kshim_xfs_scratch_log(tp, 0, 1, 200), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_trans_commit(tp), 0);
	KSHIM_ASSERT_EQ(xfs_buf_ispinned(sbp), 0);
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	KSHIM_ASSERT_EQ(xfs_fixture_ail_items(mp->m_ail), 1);
	KSHIM_ASSERT(sbp->b_log_item == NULL ||
		     !test_bit(XFS_LI_IN_AIL, &sbp->b_log_item->bli_item.li_flags));
	xfs_fixture_quiesce(mp);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * The regions of the checkpoint that starts in the log record at @lsn,
 * counted from the log on disk: the operations of its transaction
 * between its transaction header and its commit record. The header's
 * th_num_items in *@num_items. A small checkpoint: one record.
 */
static int checkpoint_regions(struct xlog *log, xfs_lsn_t lsn,
			      unsigned int *num_items)
{
	struct xlog_rec_header *rh;
	struct xlog_op_header *oh;
	struct xfs_trans_header *th;
	struct xfs_buf *bp;
	unsigned int nblks = BTOBB(log->l_iclog_hsize + log->l_iclog_size);
	unsigned int i, len, off, tid = 0;
	int regions = -1;
	char *data;
	bool in = false;

	KSHIM_ASSERT_EQ_FATAL(xfs_buf_read_uncached(log->l_targ,
			log->l_logBBstart + BLOCK_LSN(lsn), nblks, 0, &bp,
			NULL), 0);
	rh = bp->b_addr;
	KSHIM_ASSERT_EQ_FATAL(be32_to_cpu(rh->h_magicno), XLOG_HEADER_MAGIC_NUM);
	KSHIM_ASSERT_EQ_FATAL(be64_to_cpu(rh->h_lsn), lsn);
	len = be32_to_cpu(rh->h_len);
	data = (char *)bp->b_addr + log->l_iclog_hsize;
	/* The first word of each data block is in the header. */
	for (i = 0; i < BTOBB(len); i++)
		*(__be32 *)(data + BBTOB(i)) = rh->h_cycle_data[i];
	for (off = 0; off + sizeof(*oh) <= len;
	     off += sizeof(*oh) + be32_to_cpu(oh->oh_len)) {
		oh = (struct xlog_op_header *)(data + off);
		if (oh->oh_flags & XLOG_START_TRANS) {
			tid = be32_to_cpu(oh->oh_tid);
			in = true;
			continue;
		}
		if (!in || be32_to_cpu(oh->oh_tid) != tid)
			continue;
		if (oh->oh_flags & XLOG_COMMIT_TRANS)
			break;
		if (regions < 0) {
			th = (struct xfs_trans_header *)(oh + 1);
			KSHIM_ASSERT_EQ(th->th_magic, XFS_TRANS_HEADER_MAGIC);
			*num_items = th->th_num_items;
		}
		regions++;
	}
	xfs_buf_relse(bp);
	return regions;
}

/*
 * A checkpoint's transaction header says how many regions follow it
 * (th_num_items: each item's log vectors, for xfs_logprint and for
 * recovery's view of the transaction): checked on the log as written,
 * for a checkpoint of three buffers (a format and a data region each).
 */
static void test_checkpoint_header_counts_its_regions(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp;
	unsigned int num_items = 0;
	xfs_lsn_t lsn;

	mp = xfs_fixture_mount_new(&fx);
	xfs_fixture_quiesce(mp);
	xfs_fixture_commit(&fx, BIT(0) | BIT(1) | BIT(2), 200);
	KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
	/* The AIL holds the items at their checkpoint's start. */
	lsn = xfs_ail_min_lsn(mp->m_ail);
	KSHIM_ASSERT_FATAL(lsn != 0);
	KSHIM_ASSERT_EQ(checkpoint_regions(mp->m_log, lsn, &num_items), 6);
	KSHIM_ASSERT_EQ(num_items, 6);
	xfs_fixture_quiesce(mp);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test cil_tests[] = {
	KSHIM_TEST(test_checkpoint_at_the_hard_limit_fits_its_reservation),
	KSHIM_TEST(test_force_of_a_stable_sequence_pushes_nothing),
	KSHIM_TEST(test_freed_extents_stay_busy_until_their_checkpoint),
	KSHIM_TEST(test_item_held_but_not_logged_stays_out_of_the_checkpoint),
	KSHIM_TEST(test_checkpoint_header_counts_its_regions),
	KSHIM_TEST(test_log_write_error_early_in_a_push),
	KSHIM_TEST(test_log_write_error_near_a_push_commit_record),
	{ }
};

KSHIM_SUITES({ "cil", NULL, NULL, cil_tests });
