/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's trace/events/vmscan.h: the vmscan tracepoints the compiled code
 * fires, with the kernel's prototypes, delivered to a hook a test can set
 * (kshim/trace.h) instead of the ftrace ring buffer. The events nobody
 * observes yet (LRU isolation and the active list's scan) and those of
 * code kshim does not configure (memcg, node reclaim) are empty. The shrinker tests
 * read nr_deferred carried between shrink_slab() calls from these, as a
 * maintainer would from ftrace. Unset hooks cost one load, a marked one:
 * tests set hooks while kernel threads run (kshim_trace_set()).
 */
#ifndef _KSHIM_TRACE_VMSCAN_H
#define _KSHIM_TRACE_VMSCAN_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <kshim/trace.h>

struct shrinker;
struct shrink_control;
struct folio;
struct reclaim_stat;

#define KSHIM_TP(name, proto, args)					\
static inline void trace_##name proto					\
{									\
	typeof(kshim_trace.name) hook = READ_ONCE(kshim_trace.name);	\
									\
	if (hook)							\
		hook args;						\
}
#define KSHIM_TP_EMPTY(name, proto)					\
static inline void trace_##name proto {}

KSHIM_TP(mm_vmscan_write_folio, (struct folio *folio), (folio))
KSHIM_TP(mm_vmscan_throttled,
	 (int nid, int usec_timeout, int usec_delayed, int reason),
	 (nid, usec_timeout, usec_delayed, reason))
KSHIM_TP(mm_vmscan_direct_reclaim_begin, (int order, gfp_t gfp_flags),
	 (order, gfp_flags))
KSHIM_TP(mm_vmscan_direct_reclaim_end, (unsigned long nr_reclaimed),
	 (nr_reclaimed))
KSHIM_TP(mm_vmscan_kswapd_wake, (int nid, int zid, int order),
	 (nid, zid, order))
KSHIM_TP(mm_vmscan_kswapd_sleep, (int nid), (nid))
KSHIM_TP(mm_vmscan_lru_shrink_inactive,
	 (int nid, unsigned long nr_scanned, unsigned long nr_reclaimed,
	  struct reclaim_stat *stat, int priority, int file),
	 (nid, nr_scanned, nr_reclaimed, stat, priority, file))
KSHIM_TP(mm_vmscan_wakeup_kswapd,
	 (int nid, int zid, int order, gfp_t gfp_flags),
	 (nid, zid, order, gfp_flags))
KSHIM_TP_EMPTY(mm_vmscan_lru_isolate,
	       (int highest_zoneidx, int order, unsigned long nr_requested,
		unsigned long nr_scanned, unsigned long nr_skipped,
		unsigned long nr_taken, int lru))
KSHIM_TP_EMPTY(mm_vmscan_lru_shrink_active,
	       (int nid, unsigned long nr_taken, unsigned long nr_active,
		unsigned long nr_deactivated, unsigned long nr_referenced,
		int priority, int file))
KSHIM_TP_EMPTY(mm_vmscan_memcg_reclaim_begin, (int order, gfp_t gfp_flags))
KSHIM_TP_EMPTY(mm_vmscan_memcg_reclaim_end, (unsigned long nr_reclaimed))
KSHIM_TP_EMPTY(mm_vmscan_memcg_softlimit_reclaim_begin,
	       (int order, gfp_t gfp_flags))
KSHIM_TP_EMPTY(mm_vmscan_memcg_softlimit_reclaim_end,
	       (unsigned long nr_reclaimed))
KSHIM_TP_EMPTY(mm_vmscan_node_reclaim_begin,
	       (int nid, int order, gfp_t gfp_flags))
KSHIM_TP_EMPTY(mm_vmscan_node_reclaim_end, (unsigned long nr_reclaimed))

static inline void trace_mm_shrink_slab_start(struct shrinker *shr,
		struct shrink_control *sc, long nr_objects_to_shrink,
		unsigned long cache_items, unsigned long long delta,
		unsigned long total_scan, int priority)
{
	typeof(kshim_trace.mm_shrink_slab_start) hook =
		READ_ONCE(kshim_trace.mm_shrink_slab_start);

	if (hook)
		hook(shr, sc, nr_objects_to_shrink, cache_items, delta,
		     total_scan, priority);
}

static inline void trace_mm_shrink_slab_end(struct shrinker *shr, int nid,
		int shrinker_retval, long unused_scan_cnt, long new_scan_cnt,
		long total_scan)
{
	typeof(kshim_trace.mm_shrink_slab_end) hook =
		READ_ONCE(kshim_trace.mm_shrink_slab_end);

	if (hook)
		hook(shr, nid, shrinker_retval, unused_scan_cnt, new_scan_cnt,
		     total_scan);
}

#endif
