/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's tracepoint hooks: one function pointer per kernel tracepoint a
 * test may want to observe, same arguments as the kernel's TP_PROTO. The
 * trace/events/ shim headers call them when set. Tests set them in their
 * suite init and clear them in cleanup.
 */
#ifndef _KSHIM_TRACE_H
#define _KSHIM_TRACE_H

struct shrinker;
struct shrink_control;

struct kshim_trace_hooks {
	void (*mm_shrink_slab_start)(struct shrinker *shr,
			struct shrink_control *sc, long nr_objects_to_shrink,
			unsigned long cache_items, unsigned long long delta,
			unsigned long total_scan, int priority);
	void (*mm_shrink_slab_end)(struct shrinker *shr, int nid,
			int shrinker_retval, long unused_scan_cnt,
			long new_scan_cnt, long total_scan);
};

extern struct kshim_trace_hooks kshim_trace;

#endif
