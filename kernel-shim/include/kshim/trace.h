/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's tracepoint hooks: one function pointer per kernel tracepoint a
 * test may want to observe, same arguments as the kernel's TP_PROTO. The
 * trace/events/ shim headers call them when set. Tests set and clear them
 * with kshim_trace_set(), kswapd or a flusher running or not.
 */
#ifndef _KSHIM_TRACE_H
#define _KSHIM_TRACE_H

#include <linux/compiler.h>
#include <linux/types.h>

struct shrinker;
struct shrink_control;
struct folio;
struct reclaim_stat;

struct kshim_trace_hooks {
	void (*mm_shrink_slab_start)(struct shrinker *shr,
			struct shrink_control *sc, long nr_objects_to_shrink,
			unsigned long cache_items, unsigned long long delta,
			unsigned long total_scan, int priority);
	void (*mm_shrink_slab_end)(struct shrinker *shr, int nid,
			int shrinker_retval, long unused_scan_cnt,
			long new_scan_cnt, long total_scan);
	/* mm/vmscan.c's reclaim: what it wrote, waited for, reclaimed. */
	void (*mm_vmscan_write_folio)(struct folio *folio);
	void (*mm_vmscan_throttled)(int nid, int usec_timeout,
			int usec_delayed, int reason);
	void (*mm_vmscan_direct_reclaim_begin)(int order, gfp_t gfp_flags);
	void (*mm_vmscan_direct_reclaim_end)(unsigned long nr_reclaimed);
	void (*mm_vmscan_kswapd_wake)(int nid, int zid, int order);
	void (*mm_vmscan_kswapd_sleep)(int nid);
	void (*mm_vmscan_wakeup_kswapd)(int nid, int zid, int order,
			gfp_t gfp_flags);
	void (*mm_vmscan_lru_shrink_inactive)(int nid,
			unsigned long nr_scanned, unsigned long nr_reclaimed,
			struct reclaim_stat *stat, int priority, int file);
};

extern struct kshim_trace_hooks kshim_trace;

/* A marked store, as the tracepoint's read of the hook is a marked load:
 * setting a hook that a kernel thread may be calling is no data race. */
#define kshim_trace_set(hook, fn)	WRITE_ONCE(kshim_trace.hook, (fn))

#endif
