/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/memcontrol.h: CONFIG_MEMCG is off, as in DESIGN.md rule 6.
 * The kernel's !MEMCG stubs for the calls compiled code makes; every
 * object belongs to the root (NULL) memcg.
 */
#ifndef _LINUX_MEMCONTROL_H
#define _LINUX_MEMCONTROL_H

#include <linux/kernel.h>
#include <linux/shrinker.h>

struct mem_cgroup;
struct obj_cgroup;
struct page;
struct folio;

static inline bool mem_cgroup_disabled(void)		{ return true; }
static inline bool mem_cgroup_is_root(struct mem_cgroup *memcg) { return true; }
static inline bool mem_cgroup_kmem_disabled(void)	{ return true; }
static inline int memcg_kmem_id(struct mem_cgroup *memcg) { return -1; }
static inline bool mem_cgroup_online(struct mem_cgroup *memcg) { return true; }
static inline struct mem_cgroup *mem_cgroup_from_slab_obj(void *p) { return NULL; }
static inline struct mem_cgroup *get_mem_cgroup_from_mm(void *mm) { return NULL; }
static inline void mem_cgroup_put(struct mem_cgroup *memcg) { }
static inline struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root,
		struct mem_cgroup *prev, void *reclaim) { return NULL; }
static inline struct mem_cgroup *folio_memcg(struct folio *folio) { return NULL; }
static inline void set_shrinker_bit(struct mem_cgroup *memcg, int nid,
				    int shrinker_id) { }
#define for_each_mem_cgroup(iter)	for (iter = NULL; iter; )

#endif
