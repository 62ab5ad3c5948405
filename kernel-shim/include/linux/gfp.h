/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/gfp.h: the GFP flags (the real gfp_types.h) and the
 * helpers that read them, without the zone/node machinery of mmzone.h.
 * The page allocator behind alloc_pages()/__get_free_pages() is kshim's
 * (kshim_page_alloc.c): counted, leak-checked and failable like kmalloc.
 * Lost: zones, nodes, watermarks, compaction; see docs/FAKES.md.
 */
#ifndef __LINUX_GFP_H
#define __LINUX_GFP_H

#include <linux/gfp_types.h>
#include <linux/mmdebug.h>
#include <linux/types.h>
#include <linux/bug.h>
#include <asm/page.h>

struct page;
struct folio;

static inline int gfp_migratetype(const gfp_t gfp_flags)
{
	return 0;
}

static inline bool gfpflags_allow_blocking(const gfp_t gfp_flags)
{
	return !!(gfp_flags & __GFP_DIRECT_RECLAIM);
}

static inline bool gfp_has_io_fs(gfp_t gfp)
{
	return (gfp & (__GFP_IO | __GFP_FS)) == (__GFP_IO | __GFP_FS);
}

static inline bool gfp_compaction_allowed(gfp_t gfp_mask)
{
	return false;
}

static inline bool gfpflags_normal_context(const gfp_t gfp_flags)
{
	return (gfp_flags & (__GFP_DIRECT_RECLAIM | __GFP_MEMALLOC)) ==
		__GFP_DIRECT_RECLAIM;
}

#define numa_node_id()		0
#define numa_mem_id()		0
#define cpu_to_node(cpu)	0

unsigned long __get_free_pages(gfp_t gfp_mask, unsigned int order);
unsigned long get_zeroed_page(gfp_t gfp_mask);
void free_pages(unsigned long addr, unsigned int order);
#define __get_free_page(gfp_mask)	__get_free_pages((gfp_mask), 0)
#define free_page(addr)			free_pages((addr), 0)

#endif
