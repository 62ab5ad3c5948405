// SPDX-License-Identifier: GPL-2.0
/*
 * XFS's inodegc shrinker (fs/xfs/xfs_icache.c) on a mounted mkfs.xfs
 * image. Released unlinked inodes wait on per-CPU inodegc queues for a
 * worker to inactivate them (free their blocks and the inode), after
 * which they are reclaimable. Inactivation frees no memory itself, so
 * XFS registers a shrinker whose count says "there is queued work" and
 * whose scan runs the queued workers at once and counts a hit on each
 * queue; a release onto a queue the shrinker has hit waits for its
 * worker (the throttle: under memory pressure, releases must not outrun
 * inactivation). The shrinker leaves a stopped inodegc (a frozen
 * filesystem) alone.
 *
 * The queues are filled the way user space fills them: files created,
 * then unlinked (the unlink's last iput() queues the inode on the
 * unlinking task's CPU), all from one task on GC_CPU. While the test
 * looks at a full queue, its worker must not empty it: the test keeps
 * the inodegc workqueue of GC_CPU busy with an item of its own (the
 * workqueue runs one item at a time per CPU), as a long inactivation
 * of an earlier inode would.
 */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_inode.h"
#include "xfs_icache.h"
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/shrinker.h>
#include <linux/workqueue.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"

/* What xfs_inodegc_shrinker_count() reports for queued work: its
 * XFS_INODEGC_SHRINKER_COUNT, private to xfs_icache.c. */
#define QUEUED_WORK_COUNT	(1UL << DEF_PRIORITY)
/* Fewer than an inode cluster's worth: queued with a delay, no flush. */
#define NR_QUEUED		4

/* The CPU whose queue the test fills: the last, not the test's own. */
#define GC_CPU			(nr_cpu_ids - 1)

static struct xfs_inodegc *gc_of(struct xfs_mount *mp, int cpu)
{
	return per_cpu_ptr(mp->m_inodegc, cpu);
}

static unsigned long gc_count(struct xfs_mount *mp)
{
	struct shrink_control sc = { .gfp_mask = GFP_KERNEL };
	struct shrinker *s = mp->m_inodegc_shrinker;

	return s->count_objects(s, &sc);
}

static unsigned long gc_scan(struct xfs_mount *mp)
{
	struct shrink_control sc = {
		.gfp_mask	= GFP_KERNEL,
		.nr_to_scan	= 128,
	};
	struct shrinker *s = mp->m_inodegc_shrinker;

	return s->scan_objects(s, &sc);
}

/* ---- files released on GC_CPU ------------------------------------------ */

struct releaser {
	struct dentry *root;
	const char *prefix;
	int nr;			/* names PREFIX0 .. PREFIX<nr - 1> */
	bool create;		/* create them first */
	int err;
	int done;		/* release-acquire */
};

static void releaser_fn(void *arg)
{
	struct releaser *r = arg;
	char name[16];
	int i;

	for (i = 0; i < r->nr && !r->err; i++) {
		snprintf(name, sizeof(name), "%s%d", r->prefix, i);
		if (r->create)
			r->err = kshim_vfs_create(r->root, name,
						  S_IFREG | 0644, NULL);
		if (!r->err)
			r->err = kshim_vfs_unlink(r->root, name);
	}
	smp_store_release(&r->done, 1);
}

static struct task_struct *release_on_gc_cpu(struct releaser *r)
{
	return kshim_task_run(releaser_fn, r, "releaser", GC_CPU);
}

/* Create and unlink NR files from GC_CPU: NR inodes on its queue. */
static void queue_unlinked(struct dentry *root, int nr)
{
	struct releaser r = {
		.root = root, .prefix = "q", .nr = nr, .create = true,
	};

	kshim_task_join(release_on_gc_cpu(&r));
	KSHIM_ASSERT_EQ_FATAL(r.err, 0);
}

/* Nothing queued on any CPU, and no hit left over. */
static void expect_queues_empty(struct xfs_mount *mp)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		KSHIM_ASSERT(llist_empty(&gc_of(mp, cpu)->list));
		KSHIM_ASSERT_EQ(READ_ONCE(gc_of(mp, cpu)->shrinker_hits), 0);
	}
}

/*
 * With nothing queued the shrinker counts nothing, and its scan says it
 * has no deferred work to be called back about (LONG_MAX, not
 * SHRINK_STOP). With unlinked inodes queued and their worker busy, it
 * counts the queued work, and each scan counts a hit on the queue and
 * makes its worker due now rather than after its delay; once the worker
 * has run, the inodes are inactivated (reclaimable), the queue and its
 * hits are reset, and the shrinker counts nothing again.
 */
static void test_shrinker_counts_queued_inodes_and_runs_their_worker_now(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct dentry *root = kshim_vfs_root(mp->m_super);
	struct xfs_inodegc *gc = gc_of(mp, GC_CPU);
	struct xfs_inodegc_busy busy;
	int cpu;

	KSHIM_ASSERT_EQ(gc_count(mp), 0);
	KSHIM_ASSERT_EQ(gc_scan(mp), LONG_MAX);
	expect_queues_empty(mp);

	xfs_inodegc_busy_start(mp, GC_CPU, &busy);
	queue_unlinked(root, NR_QUEUED);
	KSHIM_ASSERT_EQ(READ_ONCE(gc->items), NR_QUEUED);
	KSHIM_ASSERT_EQ(gc_count(mp), QUEUED_WORK_COUNT);

	KSHIM_ASSERT_EQ(gc_scan(mp), SHRINK_STOP);
	KSHIM_ASSERT_EQ(READ_ONCE(gc->shrinker_hits), 1);
	/* Due now: queued behind the busy item, no delay timer armed. */
	KSHIM_ASSERT(!timer_pending(&gc->work.timer));
	KSHIM_ASSERT(work_pending(&gc->work.work));
	for_each_possible_cpu(cpu)
		if (cpu != GC_CPU)
			KSHIM_ASSERT_EQ(gc_of(mp, cpu)->shrinker_hits, 0);
	KSHIM_ASSERT_EQ(gc_scan(mp), SHRINK_STOP);
	KSHIM_ASSERT_EQ(READ_ONCE(gc->shrinker_hits), 2);
	KSHIM_ASSERT_EQ(gc_count(mp), QUEUED_WORK_COUNT);

	xfs_inodegc_busy_end(&busy);
	flush_workqueue(mp->m_inodegc_wq);
	expect_queues_empty(mp);
	KSHIM_ASSERT_EQ(READ_ONCE(gc->items), 0);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(mp), NR_QUEUED);
	KSHIM_ASSERT_EQ(gc_count(mp), 0);
	KSHIM_ASSERT_EQ(gc_scan(mp), LONG_MAX);

	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

/*
 * Once the shrinker has hit a queue, a release onto it waits until the
 * worker has inactivated what is queued there, its own inode included
 * (xfs_inodegc_queue() flushes the work): under memory pressure the
 * unlinkers must not pile up inodes faster than inodegc frees them.
 */
static void test_release_waits_for_the_worker_after_a_shrinker_hit(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct dentry *root = kshim_vfs_root(mp->m_super);
	struct releaser late = { .root = root, .prefix = "late", .nr = 1 };
	struct xfs_inodegc_busy busy;
	struct task_struct *t;

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(root, "late0", S_IFREG | 0644,
					       NULL), 0);
	xfs_inodegc_busy_start(mp, GC_CPU, &busy);
	queue_unlinked(root, 1);
	KSHIM_ASSERT_EQ(gc_scan(mp), SHRINK_STOP);

	t = release_on_gc_cpu(&late);
	/* Throttled: still waiting for the busy worker a while later. */
	KSHIM_ASSERT(!POLL_UNTIL_TIMEOUT(smp_load_acquire(&late.done),
					 HZ / 10));
	xfs_inodegc_busy_end(&busy);
	kshim_task_join(t);
	KSHIM_ASSERT_EQ(late.err, 0);
	/* It returned after the worker had inactivated both inodes. */
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(mp), 2);
	expect_queues_empty(mp);

	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static void dput_fn(void *dentry)
{
	kshim_vfs_put(dentry);
}

/*
 * On a frozen filesystem inodegc is stopped (xfs_fs_sync_fs() stops it
 * on the way to SB_FREEZE_FS): inactivation runs transactions, which a
 * frozen filesystem must not. An inode released then waits on its queue;
 * the shrinker must neither count it nor start its worker. Thawing
 * restarts inodegc, which inactivates it.
 */
static void test_shrinker_leaves_inodegc_alone_on_a_frozen_fs(void)
{
	struct xfs_fixture fx = { };
	struct xfs_mount *mp = xfs_fixture_mount_new(&fx);
	struct super_block *sb = mp->m_super;
	struct dentry *root = kshim_vfs_root(sb);
	struct xfs_inodegc *gc = gc_of(mp, GC_CPU);
	struct dentry *held;

	/* Unlinked while the test holds it (an open file), released
	 * during the freeze, from GC_CPU. */
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_create(root, "f", S_IFREG | 0644,
					       &held), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_unlink(root, "f"), 0);
	KSHIM_ASSERT_EQ_FATAL(freeze_super(sb, FREEZE_HOLDER_USERSPACE), 0);
	KSHIM_ASSERT(!xfs_is_inodegc_enabled(mp));
	kshim_task_join(kshim_task_run(dput_fn, held, "last_dput", GC_CPU));

	KSHIM_ASSERT(!llist_empty(&gc->list));
	KSHIM_ASSERT_EQ(gc_count(mp), 0);
	KSHIM_ASSERT_EQ(gc_scan(mp), SHRINK_STOP);
	KSHIM_ASSERT_EQ(READ_ONCE(gc->shrinker_hits), 0);
	KSHIM_ASSERT(!delayed_work_pending(&gc->work));

	KSHIM_ASSERT_EQ(thaw_super(sb, FREEZE_HOLDER_USERSPACE), 0);
	KSHIM_ASSERT_EQ(xfs_inodegc_flush(mp), 0);
	expect_queues_empty(mp);
	KSHIM_ASSERT_EQ(xfs_reclaim_inodes_count(mp), 1);

	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_shrinker_counts_queued_inodes_and_runs_their_worker_now),
	KSHIM_TEST(test_release_waits_for_the_worker_after_a_shrinker_hit),
	KSHIM_TEST(test_shrinker_leaves_inodegc_alone_on_a_frozen_fs),
	{ }
};

KSHIM_SUITES({ "inodegc", NULL, NULL, tests });
