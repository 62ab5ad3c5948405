// SPDX-License-Identifier: GPL-2.0
/*
 * The glue between kshim's page allocator and the real mm/vmscan.c: the
 * parts of mm/page_alloc.c's allocation path that decide to reclaim
 * (wake_all_kswapds(), __alloc_pages_direct_reclaim()), kswapd's start
 * and stop, and the figures a test reads (kshim/vmscan.h). Reclaim
 * itself -- kswapd(), balance_pgdat(), try_to_free_pages(),
 * shrink_node(), shrink_lruvec(), shrink_folio_list(), shrink_slab() --
 * is the kernel's. What is lost is in docs/FAKES.md.
 */
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/swap.h>
#include <linux/vmstat.h>
#include <linux/atomic.h>
#include <linux/sort.h>
#include <linux/init.h>
#include <kshim/host.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/trace.h>
#include <kshim/vmscan.h>

#include "internal.h"		/* the real mm/internal.h: ALLOC_* flags */

static struct kshim_vmscan_config cfg;
static bool running;

static struct {
	atomic64_t allocstall, direct_ns, direct_ns_max, direct_freed;
	atomic64_t kswapd_wakeups, kswapd_runs, kswapd_ns;
	atomic64_t below_min_after_reclaim;
	atomic64_t sleeps, sleep_ns, spins, spin_ns;
	atomic_long_t min_free;
	/* kswapd's balancing pass in progress: its start, 0 if none. */
	u64 kswapd_since;
	/* PGSTEAL_KSWAPD at start: what kswapd took off the LRUs since. */
	unsigned long pgsteal_kswapd0;
} st;

static struct zone *the_zone(void)
{
	return &NODE_DATA(0)->node_zones[ZONE_NORMAL];
}

long kshim_vmscan_free_bytes(void)
{
	/* The raw counter: it goes below 0 when an allocation went ahead
	 * with no memory left (zone_page_state() would say 0). */
	return atomic_long_read(&the_zone()->vm_stat[NR_FREE_PAGES]) *
	       (long)PAGE_SIZE;
}

static void atomic64_max(atomic64_t *v, s64 x)
{
	s64 old = atomic64_read(v);

	while (x > old && !atomic64_try_cmpxchg(v, &old, x))
		;
}

/* ---- the allocation path ------------------------------------------------ */

/*
 * __perform_reclaim(): the allocating task reclaims with its own gfp
 * (the real try_to_free_pages() applies its NOFS/NOIO scope), under
 * PF_MEMALLOC so that reclaim's own allocations do not recurse.
 */
static void direct_reclaim(gfp_t gfp, unsigned int order)
{
	struct zonelist *zonelist = node_zonelist(0, gfp);
	unsigned int noreclaim;
	unsigned long progress;
	u64 start = kshim_clock_ns(), ns;

	cond_resched();
	atomic64_inc(&st.allocstall);
	fs_reclaim_acquire(gfp);
	noreclaim = memalloc_noreclaim_save();
	progress = try_to_free_pages(zonelist, order, gfp, NULL);
	memalloc_noreclaim_restore(noreclaim);
	fs_reclaim_release(gfp);
	ns = kshim_clock_ns() - start;
	atomic64_add(ns, &st.direct_ns);
	atomic64_max(&st.direct_ns_max, ns);
	atomic64_add(progress, &st.direct_freed);
	if (!zone_watermark_ok(the_zone(), order, min_wmark_pages(the_zone()),
			       ZONE_NORMAL, 0))
		atomic64_inc(&st.below_min_after_reclaim);
	cond_resched();
}

/*
 * Every allocation, first (kshim_alloc_pressure()), as
 * __alloc_pages_noprof() decides: the fast path needs the low watermark;
 * below it the slow path wakes kswapd (__GFP_KSWAPD_RECLAIM) and tries
 * again at min (less for __GFP_HIGH and atomic requests); below that, a
 * task that may (__GFP_DIRECT_RECLAIM) reclaims itself, once. A task in
 * reclaim (PF_MEMALLOC) allocates from the reserves without watermarks.
 */
static void pressure(gfp_t gfp, unsigned long bytes)
{
	struct zone *zone = the_zone();
	unsigned int order = bytes > PAGE_SIZE ? get_order(bytes) : 0;
	unsigned int alloc_flags = 0;
	long free;

	if (current->flags & PF_MEMALLOC)
		return;
	free = kshim_vmscan_free_bytes();
	if (free < atomic_long_read(&st.min_free))
		atomic_long_set(&st.min_free, free);
	if (zone_watermark_ok(zone, order, low_wmark_pages(zone), ZONE_NORMAL,
			      0))
		return;
	if (gfp & __GFP_KSWAPD_RECLAIM)
		wakeup_kswapd(zone, gfp, order, ZONE_NORMAL);
	/* gfp_to_alloc_flags() */
	if (gfp & __GFP_HIGH) {
		alloc_flags |= ALLOC_MIN_RESERVE;
		if (!(gfp & __GFP_DIRECT_RECLAIM))
			alloc_flags |= ALLOC_NON_BLOCK;
	}
	if (zone_watermark_ok(zone, order, min_wmark_pages(zone), ZONE_NORMAL,
			      alloc_flags))
		return;
	if (gfp & __GFP_DIRECT_RECLAIM)
		direct_reclaim(gfp, order);
}

/* ---- kswapd's passes, from its tracepoints ------------------------------ */

static void on_wakeup_kswapd(int nid, int zid, int order, gfp_t gfp)
{
	atomic64_inc(&st.kswapd_wakeups);
}

/* kswapd() is about to call balance_pgdat(). */
static void on_kswapd_wake(int nid, int zid, int order)
{
	atomic64_inc(&st.kswapd_runs);
	WRITE_ONCE(st.kswapd_since, kshim_clock_ns());
}

/* kswapd waits outside reclaim (in kswapd_try_to_sleep()): the pass ended. */
static void kswapd_pass_end(void)
{
	u64 since = READ_ONCE(st.kswapd_since);

	if (since) {
		atomic64_add(kshim_clock_ns() - since, &st.kswapd_ns);
		WRITE_ONCE(st.kswapd_since, 0);
	}
}

/* ---- waits inside reclaim -------------------------------------------- */

#define CHAIN_DEPTH	24
#define CHAINS_MAX	64

struct chain {
	void *frames[CHAIN_DEPTH];
	int depth;
	const char *what;
	bool spin, kswapd;
	u64 count, ns;
};

static struct chain chains[CHAINS_MAX];
static int nr_chains;
static u32 chains_lock;		/* kshim_raw_lock: taken inside waits */

/* The chain's slot (index + 1), 0 if the table is full. */
static int chain_slot(void **frames, int depth, const char *what, bool spin)
{
	bool is_kswapd = current_is_kswapd();
	int i;

	kshim_raw_lock(&chains_lock);
	for (i = 0; i < nr_chains; i++) {
		struct chain *c = &chains[i];

		if (c->depth == depth && c->what == what && c->spin == spin &&
		    c->kswapd == is_kswapd &&
		    !memcmp(c->frames, frames, depth * sizeof(void *)))
			goto found;
	}
	if (nr_chains == CHAINS_MAX) {
		kshim_raw_unlock(&chains_lock);
		return 0;
	}
	i = nr_chains++;
	memcpy(chains[i].frames, frames, depth * sizeof(void *));
	chains[i].depth = depth;
	chains[i].what = what;
	chains[i].spin = spin;
	chains[i].kswapd = is_kswapd;
found:
	chains[i].count++;
	kshim_raw_unlock(&chains_lock);
	return i + 1;
}

/*
 * The cookie: the clock at the start << 8 | the chain's slot, or 0 when
 * the task is not reclaiming (the common case: one pointer test).
 */
static u64 wait_begin(const char *what, enum kshim_wait_kind kind)
{
	void *frames[CHAIN_DEPTH];
	int depth, slot;
	bool spin = kind == KSHIM_WAIT_SPIN;

	if (kind == KSHIM_WAIT_CPU)
		return 0;	/* waiting to be scheduled: not a kernel wait */
	if (!current->reclaim_state) {
		if (current_is_kswapd())
			kswapd_pass_end();
		return 0;
	}
	depth = kshim_host_backtrace(frames, CHAIN_DEPTH);
	slot = chain_slot(frames, depth, what, spin);
	atomic64_inc(spin ? &st.spins : &st.sleeps);
	return kshim_clock_ns() << 8 | slot;
}

static void wait_end(u64 cookie)
{
	int slot = cookie & 0xff;
	u64 ns;

	if (!cookie)
		return;
	ns = kshim_clock_ns() - (cookie >> 8);
	if (slot) {
		struct chain *c = &chains[slot - 1];

		kshim_raw_lock(&chains_lock);
		c->ns += ns;
		kshim_raw_unlock(&chains_lock);
		atomic64_add(ns, c->spin ? &st.spin_ns : &st.sleep_ns);
	}
}

static const struct kshim_wait_observer reclaim_waits = {
	.begin	= wait_begin,
	.end	= wait_end,
};

static int cmp_ns(const void *a, const void *b)
{
	const struct chain *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

int kshim_vmscan_waits(struct kshim_vmscan_wait *out, int max)
{
	static struct chain sorted[CHAINS_MAX];
	int i, n;

	kshim_raw_lock(&chains_lock);
	n = nr_chains;
	memcpy(sorted, chains, n * sizeof(*sorted));
	kshim_raw_unlock(&chains_lock);
	sort(sorted, n, sizeof(*sorted), cmp_ns, NULL);
	for (i = 0; i < n && i < max; i++) {
		out[i].what = sorted[i].what;
		out[i].spin = sorted[i].spin;
		out[i].kswapd = sorted[i].kswapd;
		out[i].count = sorted[i].count;
		out[i].ns = sorted[i].ns;
		kshim_host_symbolize(sorted[i].frames, sorted[i].depth,
				     "kshim_", out[i].chain,
				     sizeof(out[i].chain));
	}
	return n;
}

/* ---- start, stop, figures ----------------------------------------------- */

/*
 * mm/workingset.c's module_init (kshim runs a subsystem's init by name,
 * linux/module.h): the shadow-node list_lru and its shrinker. Reclaim
 * leaves shadow entries in the page cache where it frees a folio, and
 * the xarray puts their nodes on that list, so it must exist before the
 * first folio is reclaimed. At boot, as in the kernel, in every binary
 * that can start reclaim (the ones that link this file).
 */
extern int (*const kshim_module_init_workingset_init)(void);

static int __init kshim_reclaim_init(void)
{
	if (kshim_module_init_workingset_init())
		kshim_fatal("kshim_reclaim: workingset_init() failed");
	return 0;
}
device_initcall(kshim_reclaim_init);

void kshim_vmscan_start(const struct kshim_vmscan_config *c)
{
	unsigned long limit;

	BUG_ON(running);
	cfg = *c;
	if (!cfg.wmark_low)
		cfg.wmark_low = cfg.wmark_min + cfg.wmark_min / 4;
	if (!cfg.wmark_high)
		cfg.wmark_high = cfg.wmark_min + cfg.wmark_min / 2;
	BUG_ON(cfg.wmark_min > cfg.wmark_low || cfg.wmark_low > cfg.wmark_high ||
	       cfg.wmark_high >= cfg.limit);
	memset(&st, 0, sizeof(st));
	atomic_long_set(&st.min_free, LONG_MAX);
	st.pgsteal_kswapd0 = kshim_vm_event_sum(PGSTEAL_KSWAPD);
	kshim_raw_lock(&chains_lock);
	nr_chains = 0;
	kshim_raw_unlock(&chains_lock);
	/* The limit counts what is in use now: pages and slab bytes. */
	limit = DIV_ROUND_UP(cfg.limit - kshim_mem_used_bytes(), PAGE_SIZE) +
		kshim_page_outstanding() +
		DIV_ROUND_UP(kshim_slab_bytes(), PAGE_SIZE);
	kshim_zone_set_limit(limit, cfg.wmark_min >> PAGE_SHIFT,
			     cfg.wmark_low >> PAGE_SHIFT,
			     cfg.wmark_high >> PAGE_SHIFT);
	kshim_trace_set(mm_vmscan_wakeup_kswapd, on_wakeup_kswapd);
	kshim_trace_set(mm_vmscan_kswapd_wake, on_kswapd_wake);
	__atomic_store_n(&kshim_wait_observer, &reclaim_waits, __ATOMIC_RELEASE);
	/* kswapd_init() without swap_setup(): no swap. */
	kswapd_run(0);
	BUG_ON(!NODE_DATA(0)->kswapd);
	/*
	 * The kernel's kswapd has long been asleep on kswapd_wait when an
	 * allocation first wakes it; wakeup_kswapd() does nothing for a
	 * kswapd that is not waiting. Let the new one get there.
	 */
	while (!waitqueue_active(&NODE_DATA(0)->kswapd_wait))
		schedule_timeout_uninterruptible(1);
	running = true;
	__atomic_store_n(&kshim_alloc_pressure_hook, pressure, __ATOMIC_RELEASE);
}

void kshim_vmscan_stop(void)
{
	__atomic_store_n(&kshim_alloc_pressure_hook, NULL, __ATOMIC_RELEASE);
	kswapd_stop(0);
	kswapd_pass_end();
	__atomic_store_n(&kshim_wait_observer, NULL, __ATOMIC_RELEASE);
	kshim_trace_set(mm_vmscan_wakeup_kswapd, NULL);
	kshim_trace_set(mm_vmscan_kswapd_wake, NULL);
	kshim_zone_set_limit(0, 0, 0, 0);
	running = false;
}

void kshim_vmscan_get_stats(struct kshim_vmscan_stats *o)
{
	o->allocstall = atomic64_read(&st.allocstall);
	o->direct_ns = atomic64_read(&st.direct_ns);
	o->direct_ns_max = atomic64_read(&st.direct_ns_max);
	o->direct_freed = atomic64_read(&st.direct_freed);
	o->kswapd_wakeups = atomic64_read(&st.kswapd_wakeups);
	o->kswapd_runs = atomic64_read(&st.kswapd_runs);
	o->kswapd_ns = atomic64_read(&st.kswapd_ns);
	o->kswapd_lru_freed = kshim_vm_event_sum(PGSTEAL_KSWAPD) -
			      st.pgsteal_kswapd0;
	o->below_min_after_reclaim = atomic64_read(&st.below_min_after_reclaim);
	o->sleeps = atomic64_read(&st.sleeps);
	o->sleep_ns = atomic64_read(&st.sleep_ns);
	o->spins = atomic64_read(&st.spins);
	o->spin_ns = atomic64_read(&st.spin_ns);
	o->min_free = atomic_long_read(&st.min_free);
}
