/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's stand-in for the kernel's mm/internal.h, found first by the
 * quoted #include "internal.h" of the mm/ files compiled through the overlay
 * directory (see scripts/kshim_tree.py). The real file pulls in the whole
 * VM (page tables, swap, rmap); this one declares what the compiled mm/
 * files use of it: shrink_slab() and, with CONFIG_SHRINKER_DEBUG off, the
 * kernel's empty shrinker debugfs hooks.
 */
#ifndef __MM_INTERNAL_H
#define __MM_INTERNAL_H

#include <linux/mm.h>
#include <linux/vmstat.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/memcontrol.h>
#include <linux/shrinker.h>

unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg,
			  int priority);

struct dentry;

static inline int shrinker_debugfs_add(struct shrinker *shrinker)
{
	return 0;
}
static inline int shrinker_debugfs_name_alloc(struct shrinker *shrinker,
					      const char *fmt, va_list ap)
{
	return 0;
}
static inline void shrinker_debugfs_name_free(struct shrinker *shrinker)
{
}
static inline struct dentry *shrinker_debugfs_detach(struct shrinker *shrinker,
						     int *debugfs_id)
{
	*debugfs_id = -1;
	return NULL;
}
static inline void shrinker_debugfs_remove(struct dentry *debugfs_entry,
					   int debugfs_id)
{
}

#endif
