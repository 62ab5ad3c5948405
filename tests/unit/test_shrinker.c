// SPDX-License-Identifier: GPL-2.0
/*
 * mm/shrinker.c, compiled real (no memcg, one node): how much reclaim
 * pressure shrink_slab() puts on a cache, since every slab cache with a
 * shrinker (dcache, inodes, xfs buffers) depends on it:
 *
 * - do_shrink_slab() asks for delta = (freeable >> priority) * 4 / seeks
 *   plus nr_deferred >> priority, capped at 2 * freeable, in batches of
 *   shrinker->batch (SHRINK_BATCH = 128 by default); a cache smaller than
 *   a batch is still scanned when the pressure exceeds its size.
 * - Work a shrinker could not do (SHRINK_STOP, e.g. a GFP_NOFS reclaim
 *   for a filesystem cache) is carried in nr_deferred to the next call;
 *   read from the mm_shrink_slab_start/end tracepoints as from ftrace.
 * - Deferred work is capped at twice the cache; seeks 0 trims half the
 *   cache per call.
 * - SHRINK_EMPTY and 0 from count_objects mean no scan at all.
 * - shrinker_alloc() fails cleanly; shrinker_register() refuses a
 *   shrinker that is not shrinker_alloc()'s.
 * - SLABS_SCANNED rises by what scan_objects reported as scanned.
 * - shrinker_free() waits for a scan running on another task before it
 *   returns (the refcount + completion handshake), so the structure the
 *   shrinker lives in can be freed after it.
 */
#include <linux/shrinker.h>
#include <linux/completion.h>
#include <linux/atomic.h>
#include <linux/gfp.h>
#include <linux/sched.h>
#include <linux/mm.h>		/* before vmstat.h, as in the kernel */
#include <linux/vmstat.h>
#include <linux/slab.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/trace.h>

/* mm/internal.h, not a public header. */
unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg,
			  int priority);

#ifndef DEF_PRIORITY
#define DEF_PRIORITY	12	/* linux/mmzone.h, not built here */
#endif
#define MAX_SCANS	512

struct cache {
	unsigned long count;		/* what count_objects answers */
	bool fs;			/* needs __GFP_FS to scan */
	bool consume;			/* scan lowers count */
	int stop_after;			/* SHRINK_STOP after this many */
	int nscans;
	unsigned long scan[MAX_SCANS];	/* nr_to_scan of each call */
	unsigned long scanned;
	int ncount;
};

static unsigned long cache_count(struct shrinker *s, struct shrink_control *sc)
{
	struct cache *c = s->private_data;

	c->ncount++;
	return c->count;
}

static unsigned long cache_scan(struct shrinker *s, struct shrink_control *sc)
{
	struct cache *c = s->private_data;
	unsigned long n = sc->nr_to_scan;

	/* The usual filesystem pattern: no recursion into the fs. */
	if (c->fs && !(sc->gfp_mask & __GFP_FS))
		return SHRINK_STOP;
	if (c->stop_after && c->nscans >= c->stop_after)
		return SHRINK_STOP;
	KSHIM_ASSERT_EQ(sc->nr_scanned, sc->nr_to_scan);
	KSHIM_ASSERT_EQ(sc->nid, 0);
	if (c->nscans < MAX_SCANS)
		c->scan[c->nscans] = n;
	c->nscans++;
	c->scanned += n;
	if (c->consume) {
		n = min(n, c->count);
		c->count -= n;
	}
	return n;
}

/* What the tracepoints saw on the last do_shrink_slab(). */
static struct {
	int starts, ends;
	long nr;		/* nr_deferred taken in */
	unsigned long freeable;
	unsigned long long delta;
	unsigned long total_scan;
	int priority;
	long new_nr;		/* nr_deferred after adding back */
	long unused;
	int retval;
} tr;

static void trace_start(struct shrinker *shr, struct shrink_control *sc,
			long nr, unsigned long cache_items,
			unsigned long long delta, unsigned long total_scan,
			int priority)
{
	tr.starts++;
	tr.nr = nr;
	tr.freeable = cache_items;
	tr.delta = delta;
	tr.total_scan = total_scan;
	tr.priority = priority;
}

static void trace_end(struct shrinker *shr, int nid, int retval,
		      long unused, long new_nr, long total_scan)
{
	tr.ends++;
	tr.unused = unused;
	tr.new_nr = new_nr;
	tr.retval = retval;
}

static int shrinker_suite_init(void)
{
	kshim_trace_set(mm_shrink_slab_start, trace_start);
	kshim_trace_set(mm_shrink_slab_end, trace_end);
	return 0;
}

static int shrinker_suite_cleanup(void)
{
	kshim_trace_set(mm_shrink_slab_start, NULL);
	kshim_trace_set(mm_shrink_slab_end, NULL);
	return 0;
}

static struct shrinker *new_shrinker(struct cache *c, const char *name)
{
	struct shrinker *s = shrinker_alloc(0, "%s", name);

	KSHIM_ASSERT_FATAL(s != NULL);
	KSHIM_ASSERT_EQ(s->seeks, DEFAULT_SEEKS);
	KSHIM_ASSERT_EQ(s->batch, 0);
	s->count_objects = cache_count;
	s->scan_objects = cache_scan;
	s->private_data = c;
	shrinker_register(s);
	return s;
}

static void reset(struct cache *c)
{
	c->nscans = 0;
	c->scanned = 0;
	c->ncount = 0;
	memset(&tr, 0, sizeof(tr));
}

/*
 * The expected do_shrink_slab() of a shrinker with @seeks and @batch on
 * a cache of @freeable objects, given @nr deferred, at @priority, when
 * every batch is scanned in full. Written from the kernel's comments.
 */
struct expect {
	unsigned long long delta;
	long total_scan;
	long scanned;
	int calls;
	unsigned long last;		/* size of the last call */
	long next_deferred;
};

static struct expect expect(long freeable, long nr, int priority, int seeks,
			    long batch)
{
	struct expect e = { };
	long todo;

	e.delta = seeks ? (freeable >> priority) * 4 / seeks : freeable / 2;
	e.total_scan = min_t(long, (nr >> priority) + e.delta, 2 * freeable);
	for (todo = e.total_scan; todo >= batch || todo >= freeable;) {
		e.last = min(batch, todo);
		e.calls++;
		e.scanned += e.last;
		todo -= e.last;
	}
	e.next_deferred = clamp_t(long, nr + e.delta - e.scanned, 0,
				  2 * freeable);
	return e;
}

static void check_priorities(long freeable, long batch, int seeks)
{
	struct cache c = { .count = freeable };
	struct shrinker *s = new_shrinker(&c, "test-prio");
	long deferred = 0;
	int prio;

	if (batch)
		s->batch = batch;
	s->seeks = seeks;
	for (prio = DEF_PRIORITY; prio >= 0; prio--) {
		struct expect e = expect(freeable, deferred, prio,
					 seeks, batch ?: 128);
		unsigned long before = kshim_vm_event_sum(SLABS_SCANNED);
		unsigned long freed;
		int i;

		reset(&c);
		freed = shrink_slab(GFP_KERNEL, 0, NULL, prio);
		KSHIM_ASSERT_EQ(tr.starts, 1);
		KSHIM_ASSERT_EQ(tr.ends, 1);
		KSHIM_ASSERT_EQ(tr.priority, prio);
		KSHIM_ASSERT_EQ(tr.freeable, freeable);
		KSHIM_ASSERT_EQ(tr.nr, deferred);
		KSHIM_ASSERT_EQ(tr.delta, e.delta);
		KSHIM_ASSERT_EQ(tr.total_scan, e.total_scan);
		KSHIM_ASSERT_EQ(c.nscans, e.calls);
		KSHIM_ASSERT_EQ(c.scanned, e.scanned);
		KSHIM_ASSERT_EQ(freed, e.scanned);
		for (i = 0; i < c.nscans - 1 && i < MAX_SCANS; i++)
			KSHIM_ASSERT_EQ(c.scan[i], batch ?: 128);
		if (c.nscans && c.nscans <= MAX_SCANS)
			KSHIM_ASSERT_EQ(c.scan[c.nscans - 1], e.last);
		KSHIM_ASSERT_EQ(tr.new_nr, e.next_deferred);
		KSHIM_ASSERT_EQ(atomic_long_read(&s->nr_deferred[0]),
				e.next_deferred);
		KSHIM_ASSERT_EQ(kshim_vm_event_sum(SLABS_SCANNED) - before,
				e.scanned);
		deferred = e.next_deferred;
	}
	shrinker_free(s);
}

static void test_scan_follows_priority(void)
{
	struct expect e;

	/* Anchors, by hand: 10000 objects, seeks 2, nothing deferred. */
	e = expect(10000, 0, DEF_PRIORITY, DEFAULT_SEEKS, 128);
	KSHIM_ASSERT_EQ(e.delta, 4);		/* (10000 >> 12) * 4 / 2 */
	KSHIM_ASSERT_EQ(e.calls, 0);
	KSHIM_ASSERT_EQ(e.next_deferred, 4);
	e = expect(10000, 0, 0, DEFAULT_SEEKS, 128);
	KSHIM_ASSERT_EQ(e.total_scan, 20000);	/* capped at 2 * freeable */
	KSHIM_ASSERT_EQ(e.calls, 156);		/* 20000 / 128, 32 left */
	KSHIM_ASSERT_EQ(e.next_deferred, 32);

	check_priorities(10000, 0, DEFAULT_SEEKS);
	check_priorities(1000000, 0, DEFAULT_SEEKS);
	check_priorities(10000, 1000, DEFAULT_SEEKS);
	check_priorities(5000, 1, DEFAULT_SEEKS);
	check_priorities(10000, 0, 1);
	/*
	 * seeks 0: objects that cost no I/O to recreate (the zswap pool,
	 * the huge zero page) are trimmed by half of the cache on every
	 * call, whatever the priority.
	 */
	e = expect(10000, 0, DEF_PRIORITY, 0, 128);
	KSHIM_ASSERT_EQ(e.delta, 5000);
	check_priorities(10000, 0, 0);
}

static void test_small_cache_scanned_whole(void)
{
	/*
	 * 50 objects, less than a batch: at priority 0 the pressure (100)
	 * exceeds the cache, so one call asks for all of it at once.
	 */
	struct cache c = { .count = 50 };
	struct shrinker *s = new_shrinker(&c, "test-small");

	reset(&c);
	KSHIM_ASSERT_EQ(shrink_slab(GFP_KERNEL, 0, NULL, 0), 100);
	KSHIM_ASSERT_EQ(c.nscans, 1);
	KSHIM_ASSERT_EQ(c.scan[0], 100);
	KSHIM_ASSERT_EQ(tr.new_nr, 0);

	/*
	 * At priority 1 the pressure (25 * 4 / 2 = 50) is the cache's
	 * size: that too is "tight on memory", one call for all 50.
	 */
	reset(&c);
	KSHIM_ASSERT_EQ(shrink_slab(GFP_KERNEL, 0, NULL, 1), 50);
	KSHIM_ASSERT_EQ(c.nscans, 1);
	KSHIM_ASSERT_EQ(c.scan[0], 50);
	KSHIM_ASSERT_EQ(tr.new_nr, 0);

	/* At priority 3 the pressure (6 * 4 / 2 = 12) is below both. */
	reset(&c);
	KSHIM_ASSERT_EQ(shrink_slab(GFP_KERNEL, 0, NULL, 3), 0);
	KSHIM_ASSERT_EQ(c.nscans, 0);
	KSHIM_ASSERT_EQ(tr.delta, 12);
	KSHIM_ASSERT_EQ(tr.new_nr, 12);
	shrinker_free(s);
}

static void test_deferred_on_nofs(void)
{
	struct cache c = { .count = 100000, .fs = true };
	struct shrinker *s = new_shrinker(&c, "test-nofs");
	unsigned long before;
	long carried = 0;
	int prio;

	/* GFP_NOFS: the fs shrinker says SHRINK_STOP, all work deferred. */
	for (prio = DEF_PRIORITY; prio >= 6; prio--) {
		struct expect e = expect(100000, carried, prio, 2, 128);

		reset(&c);
		before = kshim_vm_event_sum(SLABS_SCANNED);
		KSHIM_ASSERT_EQ(shrink_slab(GFP_NOFS, 0, NULL, prio), 0);
		KSHIM_ASSERT_EQ(c.nscans, 0);
		KSHIM_ASSERT_EQ(tr.nr, carried);
		KSHIM_ASSERT_EQ(tr.retval, 0);
		/* Nothing scanned: everything asked is carried over. */
		KSHIM_ASSERT_EQ(tr.new_nr, min_t(long, carried + e.delta,
						 200000));
		KSHIM_ASSERT_EQ(kshim_vm_event_sum(SLABS_SCANNED), before);
		carried = tr.new_nr;
	}
	KSHIM_ASSERT(carried > 0);

	/* GFP_KERNEL: the deferred work is taken in and (partly) done. */
	{
		struct expect e = expect(100000, carried, 5, 2, 128);

		reset(&c);
		shrink_slab(GFP_KERNEL, 0, NULL, 5);
		KSHIM_ASSERT_EQ(tr.nr, carried);
		KSHIM_ASSERT_EQ(tr.total_scan, (carried >> 5) + e.delta);
		KSHIM_ASSERT_EQ(c.scanned, e.scanned);
		KSHIM_ASSERT_EQ(tr.new_nr, e.next_deferred);
		KSHIM_ASSERT(tr.new_nr < carried + (long)e.delta);
	}

	/* Priority 0 does all of it: deferred drops to what is left. */
	carried = tr.new_nr;
	reset(&c);
	shrink_slab(GFP_KERNEL, 0, NULL, 0);
	KSHIM_ASSERT_EQ(tr.nr, carried);
	KSHIM_ASSERT_EQ(tr.total_scan, 200000);
	KSHIM_ASSERT_EQ(c.scanned, 200000 / 128 * 128);
	shrinker_free(s);
}

static void test_stop_midway_defers_rest(void)
{
	/*
	 * A shrinker that does three batches and then says SHRINK_STOP:
	 * the loop ends there and what was not scanned is deferred.
	 */
	struct cache c = { .count = 10000, .stop_after = 3 };
	struct shrinker *s = new_shrinker(&c, "test-stop");
	struct expect e = expect(10000, 0, 1, 2, 128);

	KSHIM_ASSERT(e.calls > 3);
	reset(&c);
	KSHIM_ASSERT_EQ(shrink_slab(GFP_KERNEL, 0, NULL, 1), 3 * 128);
	KSHIM_ASSERT_EQ(c.nscans, 3);
	KSHIM_ASSERT_EQ(tr.retval, 3 * 128);
	KSHIM_ASSERT_EQ(tr.new_nr, e.delta - 3 * 128);

	/* The next call takes it in. */
	reset(&c);
	shrink_slab(GFP_KERNEL, 0, NULL, 1);
	KSHIM_ASSERT_EQ(tr.nr, e.delta - 3 * 128);
	shrinker_free(s);
}

static void test_count_empty_or_zero(void)
{
	struct cache c = { .count = SHRINK_EMPTY };
	struct shrinker *s = new_shrinker(&c, "test-empty");
	unsigned long before = kshim_vm_event_sum(SLABS_SCANNED);

	atomic_long_set(&s->nr_deferred[0], 77);
	reset(&c);
	KSHIM_ASSERT_EQ(shrink_slab(GFP_KERNEL, 0, NULL, 0), 0);
	KSHIM_ASSERT_EQ(c.ncount, 1);
	KSHIM_ASSERT_EQ(c.nscans, 0);
	KSHIM_ASSERT_EQ(tr.starts, 0);	/* returned before the tracepoint */
	KSHIM_ASSERT_EQ(atomic_long_read(&s->nr_deferred[0]), 77);

	c.count = 0;
	reset(&c);
	KSHIM_ASSERT_EQ(shrink_slab(GFP_KERNEL, 0, NULL, 0), 0);
	KSHIM_ASSERT_EQ(c.nscans, 0);
	KSHIM_ASSERT_EQ(tr.starts, 0);
	KSHIM_ASSERT_EQ(atomic_long_read(&s->nr_deferred[0]), 77);
	KSHIM_ASSERT_EQ(kshim_vm_event_sum(SLABS_SCANNED), before);
	shrinker_free(s);
}

/*
 * However long a filesystem shrinker is kept from running (GFP_NOFS
 * reclaim on and on), its deferred work stays at most twice its cache:
 * else the first GFP_KERNEL reclaim after a NOFS storm would empty the
 * cache many times over.
 */
static void test_deferred_is_capped_at_twice_the_cache(void)
{
	struct cache c = { .count = 100000, .fs = true };
	struct shrinker *s = new_shrinker(&c, "test-cap");
	int i;

	for (i = 0; i < 3; i++) {
		reset(&c);
		KSHIM_ASSERT_EQ(shrink_slab(GFP_NOFS, 0, NULL, 0), 0);
		/* Priority 0: 200000 asked each time, none done. */
		KSHIM_ASSERT_EQ(tr.delta, 200000);
		KSHIM_ASSERT_EQ(tr.new_nr, 200000);
		KSHIM_ASSERT_EQ(atomic_long_read(&s->nr_deferred[0]), 200000);
	}
	shrinker_free(s);
}

/*
 * Make the Nth allocation from now fail: the
 * counter kshim_slab.c's should_fail() tests is the allocation's own
 * number. Only this task allocates in between here.
 */
static void fail_allocation_from_now(unsigned long nth)
{
	kshim_alloc_fail_every(kshim_alloc_count() + nth);
}

/*
 * Mount and cache setup check shrinker_alloc() for NULL: when either of
 * its allocations fails it returns NULL with nothing left allocated.
 */
static void test_alloc_fails_cleanly_without_memory(void)
{
	long live = kshim_alloc_outstanding();
	unsigned long failures = kshim_alloc_failures();
	int nth;

	for (nth = 1; nth <= 2; nth++) {
		struct shrinker *s;

		fail_allocation_from_now(nth);
		s = shrinker_alloc(0, "test-nomem-%d", nth);
		kshim_alloc_fail_every(0);
		KSHIM_ASSERT(s == NULL);
		KSHIM_ASSERT_EQ(kshim_alloc_failures(), failures + nth);
		KSHIM_ASSERT_EQ(kshim_alloc_outstanding(), live);
		if (s)
			shrinker_free(s);
	}
}

/*
 * Only shrinker_alloc()'s shrinkers can be registered: one embedded by
 * hand (the pre-6.7 API) is refused with a warning and never scanned,
 * since shrinker_free() could not take it off the list.
 */
static void test_register_refuses_a_shrinker_not_from_alloc(void)
{
	static struct cache c = { .count = 1000 };
	static struct shrinker embedded = {
		.count_objects = cache_count,
		.scan_objects = cache_scan,
		.seeks = DEFAULT_SEEKS,
		.private_data = &c,
	};

	shrinker_register(&embedded);
	KSHIM_ASSERT(kshim_printk_contains("Must use shrinker_alloc()"));
	KSHIM_ASSERT(!(embedded.flags & SHRINKER_REGISTERED));
	reset(&c);
	shrink_slab(GFP_KERNEL, 0, NULL, 0);
	KSHIM_ASSERT_EQ(c.ncount, 0);
	KSHIM_ASSERT_EQ(c.nscans, 0);
}

static void test_register_free(void)
{
	struct cache c = { .count = 1000, .consume = true };
	struct shrinker *s = shrinker_alloc(0, "test-%d", 1);

	/* Allocated but not registered: shrink_slab() does not see it. */
	KSHIM_ASSERT_FATAL(s != NULL);
	s->count_objects = cache_count;
	s->scan_objects = cache_scan;
	s->private_data = &c;
	reset(&c);
	shrink_slab(GFP_KERNEL, 0, NULL, 0);
	KSHIM_ASSERT_EQ(c.ncount, 0);
	shrinker_free(s);		/* never registered: fine */
	shrinker_free(NULL);

	s = new_shrinker(&c, "test-reg");
	reset(&c);
	/* 1000 objects: 2000 asked in 15 batches of 128; 1000 freed. */
	KSHIM_ASSERT_EQ(shrink_slab(GFP_KERNEL, 0, NULL, 0), 1000);
	KSHIM_ASSERT_EQ(c.count, 0);
	KSHIM_ASSERT_EQ(c.ncount, 1);
	shrinker_free(s);
	/* After shrinker_free(), never called again. */
	c.count = 1000;
	reset(&c);
	shrink_slab(GFP_KERNEL, 0, NULL, 0);
	KSHIM_ASSERT_EQ(c.ncount, 0);
	KSHIM_ASSERT_EQ(c.nscans, 0);
}

/*
 * shrinker_free() against a running scan. The scan callback blocks until
 * the main task is about to call shrinker_free(), then until it has
 * dropped the initial reference (so shrinker_free() has started and is
 * about to wait), then dawdles and finishes. shrinker_free() must not
 * return before the scan has.
 */
struct race {
	struct shrinker *s;
	struct completion scan_running;
	struct completion freeing;
	atomic_t seq;			/* event order */
	atomic_t scan_done_at, free_done_at;
	atomic_t stop;
	atomic_t scans;
	atomic_t waited;
};

static struct race race;

static unsigned long race_count(struct shrinker *s, struct shrink_control *sc)
{
	return 1000;
}

static unsigned long race_scan(struct shrinker *s, struct shrink_control *sc)
{
	int i;

	if (atomic_inc_return(&race.scans) != 1)
		return sc->nr_to_scan;	/* only the first scan blocks */
	complete(&race.scan_running);
	wait_for_completion(&race.freeing);
	/* shrinker_free() has dropped its reference: ours is the last. */
	while (refcount_read(&s->refcount) != 1)
		cond_resched();
	atomic_set(&race.waited, 1);
	for (i = 0; i < 20000; i++)
		cond_resched();
	atomic_set(&race.scan_done_at, atomic_inc_return(&race.seq));
	return sc->nr_to_scan;
}

static void race_task(void *arg)
{
	while (!atomic_read(&race.stop))
		shrink_slab(GFP_KERNEL, 0, NULL, 0);
}

static void test_free_waits_for_running_scan(void)
{
	struct task_struct *t;

	memset(&race, 0, sizeof(race));
	init_completion(&race.scan_running);
	init_completion(&race.freeing);
	race.s = shrinker_alloc(0, "test-race");
	KSHIM_ASSERT_FATAL(race.s != NULL);
	race.s->count_objects = race_count;
	race.s->scan_objects = race_scan;
	shrinker_register(race.s);

	t = kshim_task_run(race_task, NULL, "shrink_slab", -1);
	KSHIM_ASSERT_FATAL(t != NULL);
	wait_for_completion(&race.scan_running);
	complete(&race.freeing);
	shrinker_free(race.s);
	atomic_set(&race.free_done_at, atomic_inc_return(&race.seq));
	atomic_set(&race.stop, 1);
	kshim_task_join(t);

	KSHIM_ASSERT(atomic_read(&race.waited));
	KSHIM_ASSERT_EQ(atomic_read(&race.scan_done_at), 1);
	KSHIM_ASSERT_EQ(atomic_read(&race.free_done_at), 2);
	KSHIM_ASSERT(atomic_read(&race.scans) >= 1);
}

static const struct kshim_test shrinker_tests[] = {
	KSHIM_TEST(test_register_free),
	KSHIM_TEST(test_scan_follows_priority),
	KSHIM_TEST(test_small_cache_scanned_whole),
	KSHIM_TEST(test_deferred_on_nofs),
	KSHIM_TEST(test_stop_midway_defers_rest),
	KSHIM_TEST(test_count_empty_or_zero),
	KSHIM_TEST(test_free_waits_for_running_scan),
	KSHIM_TEST(test_deferred_is_capped_at_twice_the_cache),
	KSHIM_TEST(test_alloc_fails_cleanly_without_memory),
	KSHIM_TEST(test_register_refuses_a_shrinker_not_from_alloc),
	{ }
};

KSHIM_SUITES({ "shrinker", shrinker_suite_init, shrinker_suite_cleanup,
	       shrinker_tests });
