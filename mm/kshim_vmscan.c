// SPDX-License-Identifier: GPL-2.0
/*
 * kshim's memory-pressure model: the parts of mm/page_alloc.c's slow
 * path and mm/vmscan.c that put pressure on slab caches, around the real
 * shrink_slab() (mm/shrinker.c). kshim has no page LRUs, zones or
 * swap, so reclaim here is slab reclaim only. The interface and the
 * rules are in kshim/vmscan.h; what is lost is in docs/FAKES.md.
 */
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/swap.h>
#include <linux/kthread.h>
#include <linux/wait.h>
#include <linux/atomic.h>
#include <linux/sort.h>
#include <kshim/host.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vmscan.h>

#include "internal.h"		/* the real mm/internal.h: shrink_slab() */

static struct kshim_vmscan_config cfg;
static struct task_struct *kswapd_task;
static DECLARE_WAIT_QUEUE_HEAD(kswapd_wait);
static bool kswapd_woken;

static struct {
	atomic64_t allocstall, direct_ns, direct_ns_max, direct_freed;
	atomic64_t kswapd_wakeups, kswapd_runs, kswapd_ns, kswapd_freed;
	atomic64_t shrink_slab_calls, below_min_after_reclaim;
	atomic64_t sleeps, sleep_ns, spins, spin_ns;
	atomic_long_t min_free;
} st;

long kshim_vmscan_free_bytes(void)
{
	return (long)cfg.limit - (long)kshim_mem_used_bytes();
}

static void atomic64_max(atomic64_t *v, s64 x)
{
	s64 old = atomic64_read(v);

	while (x > old && !atomic64_try_cmpxchg(v, &old, x))
		;
}

static unsigned long shrink(gfp_t gfp, int priority)
{
	atomic64_inc(&st.shrink_slab_calls);
	return shrink_slab(gfp, 0, NULL, priority);
}

/*
 * __alloc_pages_direct_reclaim() -> __perform_reclaim() ->
 * do_try_to_free_pages(): the allocating task reclaims, PF_MEMALLOC set
 * so that its own allocations do not recurse, at rising priority until
 * enough is freed.
 */
static void direct_reclaim(gfp_t gfp, unsigned long bytes)
{
	struct reclaim_state rs = {};
	unsigned int noreclaim = memalloc_noreclaim_save();
	unsigned long freed = 0;
	u64 start = kshim_clock_ns(), ns;
	int prio;

	atomic64_inc(&st.allocstall);
	current->reclaim_state = &rs;
	for (prio = DEF_PRIORITY; prio >= 0; prio--) {
		freed += shrink(gfp, prio);
		if (freed >= SWAP_CLUSTER_MAX ||
		    kshim_vmscan_free_bytes() - (long)bytes >= (long)cfg.wmark_min)
			break;
	}
	current->reclaim_state = NULL;
	memalloc_noreclaim_restore(noreclaim);
	ns = kshim_clock_ns() - start;
	atomic64_add(ns, &st.direct_ns);
	atomic64_max(&st.direct_ns_max, ns);
	atomic64_add(freed, &st.direct_freed);
	if (kshim_vmscan_free_bytes() - (long)bytes < (long)cfg.wmark_min)
		atomic64_inc(&st.below_min_after_reclaim);
	cond_resched();
}

/*
 * wakeup_kswapd(), once per request: the flag stays set until kswapd
 * starts a pass, so a request made before kswapd first sleeps (or while
 * it balances) is not lost. The kernel tests waitqueue_active() instead,
 * its kswapd having long been asleep.
 */
static void wake_kswapd(void)
{
	if (READ_ONCE(kswapd_woken) || xchg(&kswapd_woken, true))
		return;
	atomic64_inc(&st.kswapd_wakeups);
	wake_up_interruptible(&kswapd_wait);
}

/* Every allocation, first (kshim_alloc_pressure()). */
static void pressure(gfp_t gfp, unsigned long bytes)
{
	long free;

	/* Reclaim's own allocations use the reserves (ALLOC_NO_WATERMARKS). */
	if (current->flags & PF_MEMALLOC)
		return;
	gfp = current_gfp_context(gfp);
	free = kshim_vmscan_free_bytes() - (long)bytes;
	if (free < atomic_long_read(&st.min_free))
		atomic_long_set(&st.min_free, free);
	if (free < (long)cfg.wmark_low && (gfp & __GFP_KSWAPD_RECLAIM))
		wake_kswapd();
	if (free < (long)cfg.wmark_min && (gfp & __GFP_DIRECT_RECLAIM))
		direct_reclaim(gfp, bytes);
}

/*
 * balance_pgdat(): reclaim with GFP_KERNEL until free is above the high
 * watermark, lowering the priority (scanning more) only when a pass
 * freed less than SWAP_CLUSTER_MAX, and never below 1.
 */
static void kswapd_balance(void)
{
	struct reclaim_state rs = {};
	u64 start = kshim_clock_ns();
	unsigned long freed;
	int prio = DEF_PRIORITY;

	atomic64_inc(&st.kswapd_runs);
	current->reclaim_state = &rs;
	while (prio >= 1 && kshim_vmscan_free_bytes() < (long)cfg.wmark_high &&
	       !kthread_should_stop()) {
		freed = shrink(GFP_KERNEL, prio);
		atomic64_add(freed, &st.kswapd_freed);
		if (freed < SWAP_CLUSTER_MAX)
			prio--;
		cond_resched();
	}
	current->reclaim_state = NULL;
	atomic64_add(kshim_clock_ns() - start, &st.kswapd_ns);
}

static int kswapd(void *unused)
{
	current->flags |= PF_MEMALLOC | PF_KSWAPD;
	while (!kthread_should_stop()) {
		wait_event_interruptible(kswapd_wait, READ_ONCE(kswapd_woken) ||
					 kthread_should_stop());
		WRITE_ONCE(kswapd_woken, false);
		if (!kthread_should_stop())
			kswapd_balance();
	}
	current->flags &= ~(PF_MEMALLOC | PF_KSWAPD);
	return 0;
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

	/* Not reclaiming, or waiting to be scheduled (not a kernel wait). */
	if (!current->reclaim_state || kind == KSHIM_WAIT_CPU)
		return 0;
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

void kshim_vmscan_start(const struct kshim_vmscan_config *c)
{
	BUG_ON(kswapd_task);
	cfg = *c;
	if (!cfg.wmark_low)
		cfg.wmark_low = cfg.wmark_min + cfg.wmark_min / 4;
	if (!cfg.wmark_high)
		cfg.wmark_high = cfg.wmark_min + cfg.wmark_min / 2;
	BUG_ON(cfg.wmark_min > cfg.wmark_low || cfg.wmark_low > cfg.wmark_high ||
	       cfg.wmark_high >= cfg.limit);
	memset(&st, 0, sizeof(st));
	atomic_long_set(&st.min_free, LONG_MAX);
	kshim_raw_lock(&chains_lock);
	nr_chains = 0;
	kshim_raw_unlock(&chains_lock);
	WRITE_ONCE(kswapd_woken, false);
	kswapd_task = kthread_run(kswapd, NULL, "kswapd0");
	BUG_ON(IS_ERR(kswapd_task));
	__atomic_store_n(&kshim_wait_observer, &reclaim_waits, __ATOMIC_RELEASE);
	__atomic_store_n(&kshim_alloc_pressure_hook, pressure, __ATOMIC_RELEASE);
}

void kshim_vmscan_stop(void)
{
	__atomic_store_n(&kshim_alloc_pressure_hook, NULL, __ATOMIC_RELEASE);
	kthread_stop(kswapd_task);
	kswapd_task = NULL;
	__atomic_store_n(&kshim_wait_observer, NULL, __ATOMIC_RELEASE);
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
	o->kswapd_freed = atomic64_read(&st.kswapd_freed);
	o->shrink_slab_calls = atomic64_read(&st.shrink_slab_calls);
	o->below_min_after_reclaim = atomic64_read(&st.below_min_after_reclaim);
	o->sleeps = atomic64_read(&st.sleeps);
	o->sleep_ns = atomic64_read(&st.sleep_ns);
	o->spins = atomic64_read(&st.spins);
	o->spin_ns = atomic64_read(&st.spin_ns);
	o->min_free = atomic_long_read(&st.min_free);
}
