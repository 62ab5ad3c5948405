/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/mm.h: the real header is the whole VM (page tables, VMAs,
 * struct page layout). Here: what the compiled mm/ and fs/ code uses of
 * it outside page tables, with the same names and semantics. Grows with
 * the compiled code; every addition is a declaration or a kernel-equivalent
 * inline, never a silent stub.
 */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/errno.h>
#include <linux/mmdebug.h>
#include <linux/gfp.h>
#include <linux/bug.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include <linux/atomic.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/shrinker.h>
#include <linux/nodemask.h>
#include <linux/percpu.h>

struct page;

/*
 * kshim has one memory node and no linear map. virt_to_page() of slab
 * memory answers with a page descriptor the page allocator owns
 * (kshim_page_alloc.c); it is good for page_to_nid() and nothing else yet.
 */
struct page *virt_to_page(const void *addr);
static inline int page_to_nid(const struct page *page)
{
	return 0;
}

#endif
