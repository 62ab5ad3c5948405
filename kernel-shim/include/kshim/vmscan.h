/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page reclaim for a test: the real mm/vmscan.c (kswapd, direct reclaim,
 * the file LRUs, shrink_slab()) driven by kshim's page allocator, in a
 * memory of the test's size (mm/kshim_reclaim.c).
 *
 * kshim_vmscan_start() gives the zone LIMIT bytes (what is in use now
 * counts: pages, and slab object bytes as whole pages) and the min, low
 * and high watermarks, and starts the real kswapd. Every allocation then
 * checks the zone as mm/page_alloc.c does, with the caller's gfp:
 *  - free above low: nothing;
 *  - below low and __GFP_KSWAPD_RECLAIM: the real wakeup_kswapd();
 *    kswapd's balance_pgdat() reclaims until the zone is above high,
 *    then sleeps;
 *  - below min (less for __GFP_HIGH) and __GFP_DIRECT_RECLAIM: the
 *    allocating task runs the real try_to_free_pages() once (an
 *    "allocation stall"), with its NOFS/NOIO scope applied by it.
 * Reclaim runs with PF_MEMALLOC and current->reclaim_state set by the
 * kernel's code, so its own allocations do not recurse. The allocation
 * then goes ahead even if memory is still short (no retries, no OOM
 * killer): docs/FAKES.md.
 *
 * While started, kshim takes kshim_trace's mm_vmscan_wakeup_kswapd and
 * mm_vmscan_kswapd_wake hooks (its figures come from them).
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
	u64 direct_freed;		/* pages, try_to_free_pages()'s returns */
	/*
	 * kswapd: wake-ups asked (wakeup_kswapd() woke it), balancing passes
	 * and time in them, pages it took off the LRUs (PGSTEAL_KSWAPD).
	 */
	u64 kswapd_wakeups, kswapd_runs, kswapd_ns, kswapd_lru_freed;
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

/* Size the zone, start kswapd, install the allocation hook. */
void kshim_vmscan_start(const struct kshim_vmscan_config *cfg);
/* Remove the hook, stop kswapd, give the zone the whole region back. */
void kshim_vmscan_stop(void);
void kshim_vmscan_get_stats(struct kshim_vmscan_stats *out);
/* Bytes free in the zone now (negative: allocations went beyond it). */
long kshim_vmscan_free_bytes(void);
/*
 * The call chains that waited inside reclaim, most time first: fills up
 * to max, returns how many there are. Kernel frames only.
 */
int kshim_vmscan_waits(struct kshim_vmscan_wait *out, int max);

#endif
