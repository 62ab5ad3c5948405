// SPDX-License-Identifier: GPL-2.0
/*
 * The real mm/vmscan.c reclaiming slab, driven by kshim's page allocator
 * (mm/kshim_reclaim.c, kshim/vmscan.h): who reclaims (the allocating
 * task below the min watermark, the real kswapd below low), with which
 * gfp (the caller's, with its NOFS scope applied), at which priorities,
 * and that reclaim does not recurse. A test cache of 4 KiB kmalloc()ed
 * chunks stands for a slab cache: its shrinker frees chunks, one page of
 * the zone each, credited to the reclaimer as SLUB credits a freed slab
 * page, so the memory the kernel sees really goes up.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/list.h>
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/shrinker.h>
#include <linux/swap.h>
#include <linux/delay.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/mmzone.h>
#include <linux/wait.h>
#include <kshim/lock.h>
#include <kshim/sched.h>
#include <kshim/ktest.h>
#include <kshim/trace.h>
#include <kshim/vmscan.h>
#include <kshim/runtime.h>

#define CHUNK		4096
#define MAX_SCANS	64

static struct {
	spinlock_t lock;
	struct list_head chunks;
	unsigned long count;
	bool fs;			/* scanning needs __GFP_FS */
	bool sleep;			/* scanning waits for "held" */
	bool alloc;			/* scanning allocates (GFP_KERNEL) */
	/* What each scan saw. */
	int nscans;
	gfp_t gfp[MAX_SCANS];
	bool memalloc[MAX_SCANS], kswapd[MAX_SCANS];
	struct task_struct *task[MAX_SCANS];
	int prio[MAX_SCANS];		/* from the tracepoint */
	int nprio;
} c;

static struct shrinker *shr;
static bool model_on;		/* kshim_vmscan_start() until stop_model() */
static DEFINE_MUTEX(held);
static bool holding;

/* Hold "held" until a task sleeps on it (a shrinker, below). */
static void holder(void *unused)
{
	mutex_lock(&held);
	WRITE_ONCE(holding, true);
	while (!kshim_lock_is_contended(&held.kl))
		msleep(1);
	mutex_unlock(&held);
}

static unsigned long c_count(struct shrinker *s, struct shrink_control *sc)
{
	return READ_ONCE(c.count) ?: SHRINK_EMPTY;
}

static unsigned long c_scan(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = 0;
	int i = c.nscans++;

	if (i < MAX_SCANS) {
		c.gfp[i] = sc->gfp_mask;
		c.memalloc[i] = current->flags & PF_MEMALLOC;
		c.kswapd[i] = current_is_kswapd();
		c.task[i] = current;
	}
	if (c.fs && !(sc->gfp_mask & __GFP_FS))
		return SHRINK_STOP;
	if (c.sleep) {
		mutex_lock(&held);
		mutex_unlock(&held);
	}
	if (c.alloc)
		kfree(kmalloc(CHUNK, GFP_KERNEL));
	while (freed < sc->nr_to_scan) {
		struct list_head *p;

		spin_lock(&c.lock);
		p = list_empty(&c.chunks) ? NULL : c.chunks.next;
		if (p) {
			list_del(p);
			c.count--;
		}
		spin_unlock(&c.lock);
		if (!p)
			break;
		kfree(p);
		freed++;
	}
	return freed;
}

static void trace_start(struct shrinker *s, struct shrink_control *sc,
			long nr, unsigned long items, unsigned long long delta,
			unsigned long total_scan, int priority)
{
	if (s == shr && c.nprio < MAX_SCANS)
		c.prio[c.nprio++] = priority;
}

/* Fill the cache with bytes of chunks, reclaiming nothing. */
static void fill(unsigned long bytes)
{
	unsigned long i;

	for (i = 0; i < bytes / CHUNK; i++) {
		struct list_head *p = kmalloc(CHUNK, __GFP_NOWARN);

		KSHIM_ASSERT_FATAL(p != NULL);
		spin_lock(&c.lock);
		list_add_tail(p, &c.chunks);
		c.count++;
		spin_unlock(&c.lock);
	}
}

/*
 * A fresh model: the limit is what is in use now plus room; the cache is
 * filled to leave free just above min, so that one more chunk crosses it.
 */
#define ROOM		(2UL << 20)
#define WMARK_MIN	(256UL << 10)

static void start(bool fs)
{
	struct kshim_vmscan_config cfg = {
		.limit = kshim_mem_used_bytes() + ROOM,
		.wmark_min = WMARK_MIN,
	};

	memset(&c, 0, sizeof(c));
	spin_lock_init(&c.lock);
	INIT_LIST_HEAD(&c.chunks);
	c.fs = fs;
	shr = shrinker_alloc(0, "kshim-test-cache");
	KSHIM_ASSERT_FATAL(shr != NULL);
	shr->count_objects = c_count;
	shr->scan_objects = c_scan;
	shrinker_register(shr);
	kshim_trace_set(mm_shrink_slab_start, trace_start);
	kshim_vmscan_start(&cfg);
	model_on = true;
	fill(ROOM - WMARK_MIN - CHUNK);
	KSHIM_ASSERT(kshim_vmscan_free_bytes() >= (long)WMARK_MIN);
}

/* Stop kswapd: after it, what its scans wrote can be read. */
static void stop_model(void)
{
	if (model_on)
		kshim_vmscan_stop();
	model_on = false;
}

static void stop(void)
{
	struct list_head *p, *n;

	stop_model();
	kshim_trace_set(mm_shrink_slab_start, NULL);
	shrinker_free(shr);
	list_for_each_safe(p, n, &c.chunks)
		kfree(p);
}

/* Direct reclaim only: kswapd stays out of the way. */
#define GFP_DIRECT_ONLY	(GFP_KERNEL & ~__GFP_KSWAPD_RECLAIM)

static void test_allocation_below_min_reclaims_in_the_caller(void)
{
	struct kshim_vmscan_stats st;
	unsigned long stalls0;
	void *p;

	start(false);
	c.alloc = true;
	stalls0 = kshim_vm_event_sum(ALLOCSTALL_NORMAL);
	p = kmalloc(2 * CHUNK, GFP_DIRECT_ONLY);
	kshim_vmscan_get_stats(&st);
	/* One stall, in this task, with its gfp, under PF_MEMALLOC; the
	 * kernel's do_try_to_free_pages() counted it too. */
	KSHIM_ASSERT_EQ(st.allocstall, 1);
	KSHIM_ASSERT_EQ(kshim_vm_event_sum(ALLOCSTALL_NORMAL) - stalls0, 1);
	KSHIM_ASSERT(c.nscans >= 1);
	KSHIM_ASSERT_PTR_EQ(c.task[0], current);
	KSHIM_ASSERT_EQ(c.gfp[0], GFP_DIRECT_ONLY);
	KSHIM_ASSERT(c.memalloc[0]);
	KSHIM_ASSERT(!c.kswapd[0]);
	/* The shrinker's own GFP_KERNEL allocation did not recurse. */
	KSHIM_ASSERT_EQ(st.allocstall, 1);
	KSHIM_ASSERT(!(current->flags & PF_MEMALLOC));
	KSHIM_ASSERT(!current->reclaim_state);
	KSHIM_ASSERT(st.direct_freed >= SWAP_CLUSTER_MAX);
	KSHIM_ASSERT_EQ(st.below_min_after_reclaim, 0);
	kfree(p);
	stop();
}

static void test_priority_rises_until_enough_is_freed(void)
{
	struct kshim_vmscan_stats st;
	int i;

	start(false);
	kfree(kmalloc(2 * CHUNK, GFP_DIRECT_ONLY));
	kshim_vmscan_get_stats(&st);
	KSHIM_ASSERT_EQ(st.allocstall, 1);
	/*
	 * From DEF_PRIORITY down one at a time (at 12 a scan target of
	 * 1/4096 of the cache rounds to nothing, and shrink_slab() scans in
	 * batches of SHRINK_BATCH), stopping at the priority whose scan freed
	 * SWAP_CLUSTER_MAX pages, before 0.
	 */
	KSHIM_ASSERT_FATAL(c.nprio >= 2);
	for (i = 0; i < c.nprio; i++)
		KSHIM_ASSERT_EQ(c.prio[i], DEF_PRIORITY - i);
	KSHIM_ASSERT(c.prio[c.nprio - 1] > 0);
	KSHIM_ASSERT(st.direct_freed >= SWAP_CLUSTER_MAX);
	stop();
}

static void test_nofs_allocation_never_enters_the_fs_shrinker(void)
{
	struct kshim_vmscan_stats st;
	unsigned int nofs;
	unsigned long before;
	int i;

	start(true);
	before = c.count;
	nofs = memalloc_nofs_save();
	kfree(kmalloc(2 * CHUNK, GFP_DIRECT_ONLY));
	memalloc_nofs_restore(nofs);
	kshim_vmscan_get_stats(&st);
	/*
	 * A stall that could free nothing: every priority, 12 down to 0,
	 * twice (do_try_to_free_pages() retries once with a full walk of
	 * the cgroup tree before it gives up).
	 */
	KSHIM_ASSERT_EQ(st.allocstall, 1);
	KSHIM_ASSERT_FATAL(c.nprio == 2 * (DEF_PRIORITY + 1));
	for (i = 0; i < c.nprio; i++)
		KSHIM_ASSERT_EQ(c.prio[i], DEF_PRIORITY - i % (DEF_PRIORITY + 1));
	KSHIM_ASSERT_EQ(st.direct_freed, 0);
	KSHIM_ASSERT_EQ(st.below_min_after_reclaim, 1);
	KSHIM_ASSERT_EQ(c.count, before);
	for (i = 0; i < c.nscans && i < MAX_SCANS; i++)
		KSHIM_ASSERT(!(c.gfp[i] & __GFP_FS));
	stop();
}

static void test_noio_allocation_reclaims_without_io_or_fs(void)
{
	struct kshim_vmscan_stats st;
	unsigned int noio;
	int i;

	start(false);
	noio = memalloc_noio_save();
	kfree(kmalloc(2 * CHUNK, GFP_DIRECT_ONLY));
	memalloc_noio_restore(noio);
	kshim_vmscan_get_stats(&st);
	/* The NOIO scope reached the shrinker as the kernel's
	 * current_gfp_context() strips it: no __GFP_IO, hence no __GFP_FS. */
	KSHIM_ASSERT_EQ(st.allocstall, 1);
	KSHIM_ASSERT_FATAL(c.nscans >= 1);
	for (i = 0; i < c.nscans && i < MAX_SCANS; i++)
		KSHIM_ASSERT_EQ(c.gfp[i], GFP_DIRECT_ONLY & ~(__GFP_IO | __GFP_FS));
	stop();
}

static void test_pf_memalloc_task_never_reclaims(void)
{
	struct kshim_vmscan_stats st;
	unsigned int noreclaim;
	void *p;

	start(false);
	fill(WMARK_MIN);	/* far below min */
	/* As reclaim's own allocations: from the reserves, no recursion. */
	noreclaim = memalloc_noreclaim_save();
	p = kmalloc(2 * CHUNK, GFP_KERNEL);
	memalloc_noreclaim_restore(noreclaim);
	kshim_vmscan_get_stats(&st);
	KSHIM_ASSERT(p != NULL);
	KSHIM_ASSERT_EQ(st.allocstall, 0);
	KSHIM_ASSERT_EQ(st.kswapd_wakeups, 0);
	KSHIM_ASSERT_EQ(c.nscans, 0);
	kfree(p);
	stop();
}

static atomic_t kswapd_sleeps;	/* kswapd counts, the test reads */

static void on_kswapd_sleep(int nid)
{
	atomic_inc(&kswapd_sleeps);
}

static void test_kswapd_reclaims_to_high_in_the_background(void)
{
	struct kshim_vmscan_stats st;
	int waited;

	start(false);
	atomic_set(&kswapd_sleeps, 0);
	kshim_trace_set(mm_vmscan_kswapd_sleep, on_kswapd_sleep);
	/* Below low, and no direct reclaim allowed: kswapd's job. */
	kfree(kmalloc(2 * CHUNK, GFP_NOWAIT));
	/* Until it has balanced the node and gone back to sleep (the real
	 * kswapd_try_to_sleep(): a short nap, then the full sleep). */
	for (waited = 0; waited < 5000; waited++) {
		if (atomic_read(&kswapd_sleeps))
			break;
		msleep(1);
	}
	kshim_vmscan_get_stats(&st);
	KSHIM_ASSERT(kshim_vmscan_free_bytes() >=
		     (long)(WMARK_MIN + WMARK_MIN / 2));
	KSHIM_ASSERT(atomic_read(&kswapd_sleeps) >= 1);
	KSHIM_ASSERT(waitqueue_active(&NODE_DATA(0)->kswapd_wait));
	stop_model();
	kshim_trace_set(mm_vmscan_kswapd_sleep, NULL);
	KSHIM_ASSERT_EQ(st.allocstall, 0);
	KSHIM_ASSERT(st.kswapd_wakeups >= 1);
	KSHIM_ASSERT(st.kswapd_runs >= 1);
	KSHIM_ASSERT(c.nscans >= 1);
	KSHIM_ASSERT(c.kswapd[0]);
	KSHIM_ASSERT(c.memalloc[0]);
	KSHIM_ASSERT_EQ(c.gfp[0], GFP_KERNEL);
	stop();
}

static void test_atomic_allocation_never_reclaims_itself(void)
{
	struct kshim_vmscan_stats st;
	void *p;

	start(false);
	fill(WMARK_MIN);	/* far below min */
	p = kmalloc(CHUNK, GFP_ATOMIC & ~__GFP_KSWAPD_RECLAIM);
	kshim_vmscan_get_stats(&st);
	KSHIM_ASSERT(p != NULL);
	KSHIM_ASSERT_EQ(st.allocstall, 0);
	KSHIM_ASSERT_EQ(c.nscans, 0);
	KSHIM_ASSERT(st.min_free < (long)WMARK_MIN);
	kfree(p);
	stop();
}

static void test_a_sleep_inside_reclaim_is_recorded_with_its_chain(void)
{
	struct kshim_vmscan_stats st;
	struct kshim_vmscan_wait w[4];
	struct task_struct *t;
	int n;

	start(false);
	c.sleep = true;
	WRITE_ONCE(holding, false);
	t = kshim_task_run(holder, NULL, "holder", -1);
	while (!READ_ONCE(holding))
		msleep(1);
	kfree(kmalloc(2 * CHUNK, GFP_DIRECT_ONLY));
	kshim_task_join(t);
	kshim_vmscan_get_stats(&st);
	KSHIM_ASSERT(st.sleeps >= 1);
	KSHIM_ASSERT(st.sleep_ns > 0);
	n = kshim_vmscan_waits(w, ARRAY_SIZE(w));
	KSHIM_ASSERT_FATAL(n >= 1);
	KSHIM_ASSERT(!w[0].spin);
	KSHIM_ASSERT(!w[0].kswapd);
	KSHIM_ASSERT(w[0].ns > 0);
	KSHIM_ASSERT(strcmp(w[0].what, "held") == 0);
	/* The chain names the shrinker and the path from the allocation. */
	KSHIM_ASSERT(strstr(w[0].chain, "c_scan") != NULL);
	KSHIM_ASSERT(strstr(w[0].chain, "shrink_slab") != NULL);
	KSHIM_ASSERT(strstr(w[0].chain, "test_a_sleep_inside_reclaim") != NULL);
	stop();
}

static const struct kshim_test vmscan_tests[] = {
	KSHIM_TEST(test_allocation_below_min_reclaims_in_the_caller),
	KSHIM_TEST(test_priority_rises_until_enough_is_freed),
	KSHIM_TEST(test_nofs_allocation_never_enters_the_fs_shrinker),
	KSHIM_TEST(test_noio_allocation_reclaims_without_io_or_fs),
	KSHIM_TEST(test_pf_memalloc_task_never_reclaims),
	KSHIM_TEST(test_kswapd_reclaims_to_high_in_the_background),
	KSHIM_TEST(test_atomic_allocation_never_reclaims_itself),
	KSHIM_TEST(test_a_sleep_inside_reclaim_is_recorded_with_its_chain),
	{ }
};

KSHIM_SUITES({ "vmscan", NULL, NULL, vmscan_tests });
