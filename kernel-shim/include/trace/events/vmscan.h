/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's trace/events/vmscan.h: the vmscan tracepoints the compiled code
 * fires, with the kernel's prototypes, delivered to a hook a test can set
 * (kshim/trace.h) instead of the ftrace ring buffer. The shrinker tests
 * read nr_deferred carried between shrink_slab() calls from these, as a
 * maintainer would from ftrace. Unset hooks cost one load.
 */
#ifndef _KSHIM_TRACE_VMSCAN_H
#define _KSHIM_TRACE_VMSCAN_H

#include <linux/types.h>
#include <kshim/trace.h>

struct shrinker;
struct shrink_control;

static inline void trace_mm_shrink_slab_start(struct shrinker *shr,
		struct shrink_control *sc, long nr_objects_to_shrink,
		unsigned long cache_items, unsigned long long delta,
		unsigned long total_scan, int priority)
{
	if (kshim_trace.mm_shrink_slab_start)
		kshim_trace.mm_shrink_slab_start(shr, sc, nr_objects_to_shrink,
				cache_items, delta, total_scan, priority);
}

static inline void trace_mm_shrink_slab_end(struct shrinker *shr, int nid,
		int shrinker_retval, long unused_scan_cnt, long new_scan_cnt,
		long total_scan)
{
	if (kshim_trace.mm_shrink_slab_end)
		kshim_trace.mm_shrink_slab_end(shr, nid, shrinker_retval,
				unused_scan_cnt, new_scan_cnt, total_scan);
}

#endif
