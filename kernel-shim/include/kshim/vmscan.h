/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's memory-pressure model (mm/kshim_vmscan.c): what the page
 * allocator's slow path and kswapd do about slab caches, around the real
 * mm/shrinker.c.
 *
 * Memory is kshim_mem_used_bytes() (objects and pages) against a limit
 * the test sets; free = limit - used. Every allocation checks it first,
 * with the caller's gfp as the allocator would see it (the task's
 * memalloc_nofs/noio scope applied):
 *  - free below the low watermark and __GFP_KSWAPD_RECLAIM: kswapd is
 *    woken; it runs shrink_slab(GFP_KERNEL) at priorities DEF_PRIORITY
 *    down to 1 until free is above the high watermark;
 *  - free below the min watermark and __GFP_DIRECT_RECLAIM: the
 *    allocating task does direct reclaim (an "allocation stall"):
 *    shrink_slab() with its own gfp at priorities DEF_PRIORITY down to 0
 *    until SWAP_CLUSTER_MAX objects are freed or free is above min.
 * Reclaim runs with PF_MEMALLOC and current->reclaim_state set, as in
 * the kernel, so its own allocations do not recurse. The allocation then
 * always succeeds (no retries, no OOM killer): what is lost against
 * mm/page_alloc.c and mm/vmscan.c is in docs/FAKES.md.
 *
 * Every wait of a task inside reclaim is recorded with its call chain
 * (kshim_wait_observer): a shrinker that sleeps on a lock or on I/O is
 * what the allocation-stall scenario looks for.
 */
#ifndef _KSHIM_VMSCAN_H
#define _KSHIM_VMSCAN_H

#include <linux/types.h>

struct kshim_vmscan_config {
	unsigned long limit;		/* bytes */
	/* Watermarks on free bytes. 0: low = min * 5/4, high = min * 3/2. */
	unsigned long wmark_min, wmark_low, wmark_high;
};

struct kshim_vmscan_stats {
	/* Direct reclaim: entries (vmstat's allocstall) and time in it. */
	u64 allocstall;
	u64 direct_ns, direct_ns_max;
	u64 direct_freed;		/* objects, shrink_slab()'s returns */
	/* kswapd: wake-ups, balancing passes and time in them. */
	u64 kswapd_wakeups, kswapd_runs, kswapd_ns, kswapd_freed;
	u64 shrink_slab_calls;
	/* Allocations that went ahead below min after direct reclaim. */
	u64 below_min_after_reclaim;
	/* Waits inside reclaim: sleeps, and contended spinlocks. */
	u64 sleeps, sleep_ns;
	u64 spins, spin_ns;
	long min_free;			/* lowest free seen, bytes */
};

/* One call chain that waited inside reclaim, symbolized. */
struct kshim_vmscan_wait {
	const char *what;		/* the lock's name, "schedule", ... */
	bool spin;			/* a contended spinlock */
	bool kswapd;			/* kswapd, else direct reclaim */
	u64 count, ns;
	char chain[768];		/* "f1 < f2 < ...", innermost first */
};

/* Start the model (installs the allocation hook, starts kswapd). */
void kshim_vmscan_start(const struct kshim_vmscan_config *cfg);
/* Stop kswapd and remove the hook. */
void kshim_vmscan_stop(void);
void kshim_vmscan_get_stats(struct kshim_vmscan_stats *out);
/* Bytes free in the model now (negative: over the limit). */
long kshim_vmscan_free_bytes(void);
/*
 * The call chains that waited inside reclaim, most time first: fills up
 * to max, returns how many there are. Kernel frames only.
 */
int kshim_vmscan_waits(struct kshim_vmscan_wait *out, int max);

#endif
