// SPDX-License-Identifier: GPL-2.0
/*
 * kshim's page allocator and memory model, behind the real linux/gfp.h,
 * linux/mm.h and asm-generic/memory_model.h (FLATMEM).
 *
 * "Physical memory" is one host region (KSHIM_MEM_MB, default 256 MiB),
 * reserved at start-up and committed by the host only when touched.
 * Physical address 0 is its first byte, PAGE_OFFSET its host address, and
 * mem_map[] holds one real struct page per page of it: page_address(),
 * virt_to_page(), pfn_to_page() are the kernel's arithmetic.
 *
 * The allocator hands out naturally aligned power-of-two runs of pages,
 * next-fit (a freed page is not reused at once, so a use after free reads
 * a page nobody owns: poisoned for ASan, no-access for valgrind). A new
 * page is left as the kernel's post_alloc_hook() leaves it (refcount 1,
 * flags and mapping clear, compound head/tails prepared by the real
 * mm/internal.h helpers for __GFP_COMP); a freed page is checked as
 * free_pages_prepare() does ("Bad page state" is reported). Every
 * allocation is counted, leak-reported at exit with its call site, and
 * can be made to fail with the slab fake's failure injection. Lost
 * against mm/page_alloc.c: zones, watermarks, per-CPU lists, reclaim,
 * compaction, migrate types; see docs/FAKES.md.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/string.h>
#include <linux/vmstat.h>
#include <linux/bitmap.h>
#include <linux/find.h>
#include <linux/vmalloc.h>
#include <linux/swap.h>
#include <linux/wait.h>
#include <linux/percpu.h>
#include <kshim/host.h>
#include <kshim/runtime.h>

#include "internal.h"		/* the real mm/internal.h: prep_compound_*() */
#include "kshim_internal.h"

unsigned long kshim_page_offset;
unsigned long kshim_mem_bytes;
struct page *mem_map;
unsigned long max_mapnr;
void *high_memory;
struct pglist_data contig_page_data;
struct page *kshim_zero_page;
unsigned long zero_pfn;
/* mm/page_alloc.c's totals: all of the region is RAM, none reserved
 * (kshim keeps no watermark reserves; page-writeback.c subtracts this
 * from the memory the dirty limits are computed from). */
atomic_long_t _totalram_pages;
unsigned long totalreserve_pages;

atomic_long_t vm_zone_stat[NR_VM_ZONE_STAT_ITEMS];
atomic_long_t vm_node_stat[NR_VM_NODE_STAT_ITEMS];

static u32 pa_lock;			/* kshim_raw_lock: any context */
static unsigned long *pa_used;		/* one bit per page: allocated */
static unsigned long *pa_caller;	/* per page: who allocated it */
static unsigned long pa_cursor;		/* next-fit */
static atomic_long_t pa_outstanding;	/* pages */

/*
 * The per-CPU counter deltas the vmstat.h snapshot readers add up
 * (zone_page_state_snapshot(), which vmscan.c calls): always zero, as
 * kshim's counters are exact (kshim_vmstat.c).
 */
static DEFINE_PER_CPU(struct per_cpu_zonestat, zone_normal_stats);
static DEFINE_PER_CPU(struct per_cpu_nodestat, node_stats);

/* The descriptor virt_to_page() answers for memory outside the region. */
static struct page foreign_page;

#define KSHIM_MEM_MB_DEFAULT	256

static void init_page_struct(struct page *page)
{
	/* __init_single_page(): node 0, ZONE_NORMAL (both 0 in flags). */
	memset(page, 0, sizeof(*page));
	init_page_count(page);
	atomic_set(&page->_mapcount, -1);
	INIT_LIST_HEAD(&page->lru);
}

static struct page *alloc_pages_at(gfp_t gfp, unsigned int order,
				   unsigned long caller);

void kshim_page_alloc_init(void)
{
	const char *env = kshim_host_getenv("KSHIM_MEM_MB");
	unsigned long mb = env ? kshim_host_strtoull(env) : KSHIM_MEM_MB_DEFAULT;
	unsigned long nr, words;
	struct zone *zone;
	void *base;
	int i;

	if (mb < 4)
		mb = 4;
	nr = (mb << 20) >> PAGE_SHIFT;
	nr = round_down(nr, MAX_ORDER_NR_PAGES);
	base = kshim_host_reserve(nr << PAGE_SHIFT);
	mem_map = kshim_host_reserve(nr * sizeof(struct page));
	words = BITS_TO_LONGS(nr);
	pa_used = kshim_host_reserve(words * sizeof(long));
	pa_caller = kshim_host_reserve(nr * sizeof(long));
	if (!base || !mem_map || !pa_used || !pa_caller)
		kshim_fatal("cannot reserve %lu MiB of simulated physical memory", mb);
	kshim_page_offset = (unsigned long)base;
	kshim_mem_bytes = nr << PAGE_SHIFT;
	max_mapnr = nr;
	high_memory = (char *)base + kshim_mem_bytes;

	/* One node, one zone (ZONE_NORMAL) spanning all of it. */
	contig_page_data.node_id = 0;
	contig_page_data.node_start_pfn = 0;
	contig_page_data.node_present_pages = nr;
	contig_page_data.node_spanned_pages = nr;
	zone = &contig_page_data.node_zones[ZONE_NORMAL];
	zone->zone_pgdat = &contig_page_data;
	zone->zone_start_pfn = 0;
	zone->spanned_pages = nr;
	zone->present_pages = nr;
	zone->name = "Normal";
	atomic_long_set(&zone->managed_pages, nr);
	atomic_long_set(&_totalram_pages, nr);
	zone_page_state_add(nr, zone, NR_FREE_PAGES);
	/* The node's LRU lists (mm/swap.c puts page-cache folios on them). */
	lruvec_init(&contig_page_data.__lruvec);
	/*
	 * What mm/vmscan.c reads of the node, as pgdat_init_internals() and
	 * build_zonelists() leave them: kswapd's and the throttled
	 * reclaimers' wait queues, and a zonelist of the one zone.
	 */
	init_waitqueue_head(&contig_page_data.kswapd_wait);
	init_waitqueue_head(&contig_page_data.pfmemalloc_wait);
	for (i = 0; i < NR_VMSCAN_THROTTLE; i++)
		init_waitqueue_head(&contig_page_data.reclaim_wait[i]);
	spin_lock_init(&zone->lock);
	zone->per_cpu_zonestats = &zone_normal_stats;
	contig_page_data.per_cpu_nodestats = &node_stats;
	contig_page_data.node_zonelists[ZONELIST_FALLBACK]._zonerefs[0].zone = zone;
	contig_page_data.node_zonelists[ZONELIST_FALLBACK]._zonerefs[0].zone_idx =
		ZONE_NORMAL;

	/*
	 * mem_map is host-zeroed and committed lazily; a struct page is set
	 * up as the buddy allocator leaves a free page when its run is
	 * allocated (alloc_run()). The free memory itself is poisoned.
	 */
	kshim_host_mem_noaccess(base, kshim_mem_bytes);

	/* The foreign page: reserved, node 0, never freed. */
	init_page_struct(&foreign_page);
	__SetPageReserved(&foreign_page);

	/* The zero page: the first page, reserved, zeroed, never freed. */
	/* Not alloc_page(): no current (numa_node_id(), might_sleep())
	 * during runtime start-up. */
	kshim_zero_page = alloc_pages_at(GFP_NOWAIT | __GFP_ZERO, 0, _THIS_IP_);
	if (!kshim_zero_page)
		kshim_fatal("cannot allocate the zero page");
	__SetPageReserved(kshim_zero_page);
	zero_pfn = page_to_pfn(kshim_zero_page);
	atomic_long_dec(&pa_outstanding);	/* not a leak */
	pa_caller[zero_pfn] = 0;
}

struct page *kshim_foreign_page(const void *kaddr)
{
	return &foreign_page;
}

static bool run_is_free(unsigned long pfn, unsigned long n)
{
	return find_next_bit(pa_used, pfn + n, pfn) >= pfn + n;
}

/* Find and mark a free naturally aligned run of 2^order pages. */
static long alloc_run(unsigned int order, unsigned long caller)
{
	unsigned long n = 1UL << order, start, pfn, i;
	bool wrapped = false;

	kshim_raw_lock(&pa_lock);
	start = ALIGN(pa_cursor, n);
	if (start >= max_mapnr)
		start = 0;
	pfn = start;
	for (;;) {
		if (run_is_free(pfn, n))
			break;
		pfn += n;
		if (pfn >= max_mapnr) {
			pfn = 0;
			wrapped = true;
		}
		if (wrapped && pfn >= start) {
			kshim_raw_unlock(&pa_lock);
			return -1;
		}
	}
	bitmap_set(pa_used, pfn, n);
	for (i = 0; i < n; i++)
		pa_caller[pfn + i] = caller;
	pa_cursor = pfn + n;
	kshim_raw_unlock(&pa_lock);
	atomic_long_add(n, &pa_outstanding);
	/* The free-page count the dirty limits (page-writeback.c) read. */
	mod_zone_page_state(&contig_page_data.node_zones[ZONE_NORMAL],
			    NR_FREE_PAGES, -(long)n);
	return pfn;
}

static void free_run(unsigned long pfn, unsigned int order)
{
	unsigned long n = 1UL << order;

	kshim_host_mem_noaccess(pfn_to_virt(pfn), n << PAGE_SHIFT);
	kshim_raw_lock(&pa_lock);
	bitmap_clear(pa_used, pfn, n);
	kshim_raw_unlock(&pa_lock);
	atomic_long_sub(n, &pa_outstanding);
	mod_zone_page_state(&contig_page_data.node_zones[ZONE_NORMAL],
			    NR_FREE_PAGES, n);
}

static struct page *alloc_pages_at(gfp_t gfp, unsigned int order,
				   unsigned long caller)
{
	struct page *page;
	unsigned long n, i;
	long pfn;

	if (order > MAX_PAGE_ORDER) {
		WARN_ON_ONCE(!(gfp & __GFP_NOWARN));
		return NULL;
	}
	if (gfpflags_allow_blocking(gfp))
		might_sleep();
	kshim_alloc_pressure(gfp, PAGE_SIZE << order);
	if (kshim_alloc_should_fail(gfp))
		return NULL;
	pfn = alloc_run(order, caller);
	if (pfn < 0) {
		if (gfp & __GFP_NOFAIL)
			kshim_fatal("out of simulated physical memory (KSHIM_MEM_MB) for a __GFP_NOFAIL allocation of order %u",
				    order);
		if (!(gfp & __GFP_NOWARN))
			pr_warn("kshim: page allocation failure: order:%u, out of simulated physical memory (KSHIM_MEM_MB)\n",
				order);
		return NULL;
	}
	n = 1UL << order;
	page = pfn_to_page(pfn);
	/* As the buddy allocator leaves free pages, then post_alloc_hook(). */
	for (i = 0; i < n; i++) {
		init_page_struct(page + i);
		set_page_count(page + i, 0);
	}
	set_page_refcounted(page);
	if (gfp & __GFP_ZERO) {
		kshim_host_mem_defined(page_address(page), n << PAGE_SHIFT);
		memset(page_address(page), 0, n << PAGE_SHIFT);
	} else {
		kshim_host_mem_undefined(page_address(page), n << PAGE_SHIFT);
	}
	if (order && (gfp & __GFP_COMP)) {
		/* prep_compound_page() */
		__SetPageHead(page);
		for (i = 1; i < n; i++)
			prep_compound_tail(page, i);
		prep_compound_head(page, order);
	}
	return page;
}

struct page *__alloc_pages_noprof(gfp_t gfp, unsigned int order,
				  int preferred_nid, nodemask_t *nodemask)
{
	return alloc_pages_at(gfp, order, _RET_IP_);
}

/*
 * mm/page_alloc.c's watermark test, which mm/vmscan.c asks (is the zone
 * balanced, may kswapd sleep, may direct reclaim stop). The order-0 test
 * is the kernel's: free pages, less the 2^order - 1 a request of that
 * order cannot use, against the mark. Lost: the high-order half (is a
 * free block of that order left in the buddy lists): kshim keeps no free
 * lists, so an order > 0 request is answered as an order-0 one; there
 * are no highatomic or CMA reserves and no lowmem reserves (one zone).
 */
bool __zone_watermark_ok(struct zone *z, unsigned int order,
			 unsigned long mark, int highest_zoneidx,
			 unsigned int alloc_flags, long free_pages)
{
	long min = mark;

	free_pages -= (1 << order) - 1;
	if (alloc_flags & ALLOC_RESERVES) {
		if (alloc_flags & ALLOC_MIN_RESERVE) {
			min -= min / 2;
			if (alloc_flags & ALLOC_NON_BLOCK)
				min -= min / 4;
		}
		if (alloc_flags & ALLOC_OOM)
			min -= min / 2;
	}
	return free_pages > min + (long)z->lowmem_reserve[highest_zoneidx];
}

bool zone_watermark_ok(struct zone *z, unsigned int order, unsigned long mark,
		       int highest_zoneidx, unsigned int alloc_flags)
{
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, alloc_flags,
				   zone_page_state(z, NR_FREE_PAGES));
}

/* The counters are exact (kshim_vmstat.c): there is no per-CPU drift to
 * snapshot, so the safe test is the plain one. */
bool zone_watermark_ok_safe(struct zone *z, unsigned int order,
			    unsigned long mark, int highest_zoneidx)
{
	return __zone_watermark_ok(z, order, mark, highest_zoneidx, 0,
				   zone_page_state(z, NR_FREE_PAGES));
}

/*
 * The memory reclaim works in (kshim/vmscan.h). Off by default: the zone
 * has all of the region, no watermarks, and slab objects (host
 * allocations) are not counted in it, so nothing ever reclaims. On, for
 * a test that runs reclaim:
 *  - the zone has LIMIT pages: the rest of the region is set aside (a
 *    balloon: taken from NR_FREE_PAGES and managed_pages, as a balloon
 *    driver takes memory from the kernel), so NR_FREE_PAGES, which
 *    vmscan.c and the dirty limits read, is what the test's memory has
 *    free;
 *  - slab object bytes count as whole pages against NR_FREE_PAGES (and in
 *    NR_SLAB_RECLAIMABLE_B), as SLUB's slab pages would; pages that go
 *    back while the freeing task reclaims are credited to its
 *    reclaim_state, as SLUB credits a freed slab page;
 *  - the zone's min/low/high watermarks are the test's, and
 *    totalreserve_pages is the high watermark, as the kernel computes it.
 * The allocation itself still goes ahead when memory is short (no
 * retries, no OOM killer): see kshim_reclaim.c.
 */
static bool zone_limited;
static long balloon_pages;
static atomic_long_t slab_charged;	/* pages charged to the zone */

static void charge_slab(long pages)
{
	struct zone *zone = &contig_page_data.node_zones[ZONE_NORMAL];

	atomic_long_add(pages, &slab_charged);
	mod_zone_page_state(zone, NR_FREE_PAGES, -pages);
	mod_node_page_state(&contig_page_data, NR_SLAB_RECLAIMABLE_B,
			    pages * PAGE_SIZE);
}

/* kshim_slab.c: its object bytes, as whole pages, went up or down. */
void kshim_slab_pages_changed(long pages)
{
	if (!READ_ONCE(zone_limited))
		return;
	charge_slab(pages);
	if (pages < 0 && kshim_current())
		mm_account_reclaimed_pages(-pages);
}

void kshim_zone_set_limit(unsigned long limit, unsigned long min,
			  unsigned long low, unsigned long high)
{
	struct zone *zone = &contig_page_data.node_zones[ZONE_NORMAL];

	if (limit) {
		BUG_ON(zone_limited || limit > max_mapnr);
		BUG_ON(min > low || low > high || high >= limit);
		balloon_pages = max_mapnr - limit;
		mod_zone_page_state(zone, NR_FREE_PAGES, -balloon_pages);
		atomic_long_set(&zone->managed_pages, limit);
		zone->_watermark[WMARK_MIN] = min;
		zone->_watermark[WMARK_LOW] = low;
		zone->_watermark[WMARK_HIGH] = high;
		zone->_watermark[WMARK_PROMO] = high;
		zone->watermark_boost = 0;
		totalreserve_pages = high;
		WRITE_ONCE(zone_limited, true);
		charge_slab(DIV_ROUND_UP(kshim_slab_bytes(), PAGE_SIZE));
	} else {
		BUG_ON(!zone_limited);
		WRITE_ONCE(zone_limited, false);
		charge_slab(-atomic_long_read(&slab_charged));
		memset(zone->_watermark, 0, sizeof(zone->_watermark));
		totalreserve_pages = 0;
		atomic_long_set(&zone->managed_pages, max_mapnr);
		mod_zone_page_state(zone, NR_FREE_PAGES, balloon_pages);
		balloon_pages = 0;
	}
}

/* For kshim_slab.c: pages whose leak report names CALLER. */
struct page *kshim_alloc_pages_caller(gfp_t gfp, unsigned int order,
				      unsigned long caller)
{
	return alloc_pages_at(gfp, order, caller);
}

struct folio *__folio_alloc_noprof(gfp_t gfp, unsigned int order,
				   int preferred_nid, nodemask_t *nodemask)
{
	struct page *page = alloc_pages_at(gfp | __GFP_COMP, order, _RET_IP_);

	return page_rmappable_folio(page);
}

unsigned long get_free_pages_noprof(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages_at(gfp & ~__GFP_HIGHMEM, order,
					   _RET_IP_);

	return page ? (unsigned long)page_address(page) : 0;
}

unsigned long get_zeroed_page_noprof(gfp_t gfp)
{
	return get_free_pages_noprof(gfp | __GFP_ZERO, 0);
}

/*
 * The bulk allocator fills the empty slots of PAGE_ARRAY with single
 * pages and returns how many slots are filled, stopping at the first
 * failure, as the kernel's does. The list form is not used by any file
 * kshim compiles.
 */
unsigned long alloc_pages_bulk_noprof(gfp_t gfp, int preferred_nid,
				      nodemask_t *nodemask, int nr_pages,
				      struct list_head *page_list,
				      struct page **page_array)
{
	int i, filled = 0;

	if (page_list || !page_array)
		kshim_unimplemented("alloc_pages_bulk_noprof (onto a list)");
	/*
	 * An empty array of several pages (a multi-page XFS buffer) gets one
	 * run of consecutive pages, split, as a buddy allocator with free
	 * memory often gives: vm_map_ram() here maps consecutive pages only.
	 * Without this, tasks allocating at once in the parallel backend
	 * interleave their single pages. If no run is free, single pages.
	 */
	if (nr_pages > 1 && !memchr_inv(page_array, 0,
					nr_pages * sizeof(*page_array))) {
		unsigned int order = order_base_2(nr_pages);
		struct page *run = alloc_pages_at(gfp | __GFP_NOWARN, order,
						  _RET_IP_);

		if (run) {
			split_page(run, order);
			for (i = 0; i < (1 << order); i++) {
				if (i < nr_pages)
					page_array[i] = run + i;
				else
					__free_pages(run + i, 0);
			}
			return nr_pages;
		}
	}
	for (i = 0; i < nr_pages; i++) {
		if (!page_array[i]) {
			page_array[i] = alloc_pages_at(gfp, 0, _RET_IP_);
			if (!page_array[i])
				break;
		}
		filled++;
	}
	return filled;
}

/*
 * vm_map_ram() without page tables: every page already has one linear
 * address (pfn_to_virt), so pages with consecutive pfns are mapped by
 * that address. Scattered pages cannot be made contiguous here and
 * abort loudly: see docs/FAKES.md.
 */
void *vm_map_ram(struct page **pages, unsigned int count, int node)
{
	unsigned int i;

	for (i = 1; i < count; i++)
		if (page_to_pfn(pages[i]) != page_to_pfn(pages[0]) + i)
			kshim_fatal("vm_map_ram: %u pages with scattered pfns "
				    "(page %u is pfn %#lx after %#lx); kshim can "
				    "only map consecutive pages", count, i,
				    page_to_pfn(pages[i]),
				    page_to_pfn(pages[i - 1]));
	return page_address(pages[0]);
}

void vm_unmap_ram(const void *mem, unsigned int count)
{
	/* Nothing was mapped: the linear address stays valid. */
}

void vm_unmap_aliases(void)
{
	/* No lazily unmapped aliases exist. */
}

static void bad_page(struct page *page, const char *reason)
{
	kshim_report("BUG: Bad page state: pfn:%#lx flags:%#lx refcount:%d mapping:%p: %s",
		     page_to_pfn(page), page->flags, page_ref_count(page),
		     page->mapping, reason);
}

/* free_pages_prepare()'s checks, then back to the free runs. */
static void free_the_page(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page), n = 1UL << order, i;

	bool allocated = false;

	if (pfn_valid(pfn) && IS_ALIGNED(pfn, n)) {
		/* pa_used is changed under pa_lock, by other tasks too. */
		kshim_raw_lock(&pa_lock);
		allocated = find_next_zero_bit(pa_used, pfn + n, pfn) >= pfn + n;
		kshim_raw_unlock(&pa_lock);
	}
	if (!allocated)
		kshim_fatal("freeing pfn %#lx order %u: not an allocated run (double free?)",
			    pfn, order);
	if (PageReserved(page))
		kshim_fatal("freeing reserved pfn %#lx", pfn);
	if (PageHead(page)) {
		if (compound_order(page) != order)
			bad_page(page, "compound order mismatch");
		for (i = 1; i < n; i++) {
			struct page *p = page + i;

			if (p->mapping != TAIL_MAPPING && i > 2)
				bad_page(p, "corrupted mapping in tail page");
			if (compound_head(p) != page)
				bad_page(p, "compound_head not consistent");
		}
	}
	for (i = 0; i < n; i++) {
		struct page *p = page + i;

		if (i == 0 || !PageTail(p)) {
			if (page_ref_count(p))
				bad_page(p, "nonzero _refcount");
			if (p->mapping)
				bad_page(p, "non-NULL mapping");
			if (p->flags & PAGE_FLAGS_CHECK_AT_FREE & ~(1UL << PG_head))
				bad_page(p, "PAGE_FLAGS_CHECK_AT_FREE flag(s) set");
		}
		/* What the buddy allocator resets. */
		p->flags &= ~PAGE_FLAGS_CHECK_AT_PREP;
		p->mapping = NULL;
		p->compound_head = 0;
		set_page_private(p, 0);
	}
	free_run(pfn, order);
}

void __free_pages(struct page *page, unsigned int order)
{
	/* mm/page_alloc.c: the refcount decides; a non-compound high-order
	 * page whose head is still referenced frees its tail runs. */
	int head = PageHead(page);

	if (put_page_testzero(page))
		free_the_page(page, order);
	else if (!head)
		while (order-- > 0)
			free_the_page(page + (1 << order), order);
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr) {
		VM_BUG_ON(!virt_addr_valid((void *)addr));
		__free_pages(virt_to_page((void *)addr), order);
	}
}

/*
 * The page allocator's entry points for what mm/swap.c (real) frees:
 * __folio_put() and folios_put_refs() take a folio off the LRU and hand
 * it here once its last reference is gone. kshim has no per-CPU page
 * lists, so a page goes straight back to the buddy runs and there is
 * nothing to drain.
 */
void free_unref_page(struct page *page, unsigned int order)
{
	free_the_page(page, order);
}

void free_unref_folios(struct folio_batch *folios)
{
	unsigned int i;

	for (i = 0; i < folios->nr; i++) {
		struct folio *folio = folios->folios[i];

		free_the_page(&folio->page, folio_order(folio));
	}
	folio_batch_reinit(folios);
}

void drain_local_pages(struct zone *zone)
{
}

void *alloc_pages_exact_noprof(size_t size, gfp_t gfp)
{
	unsigned int order = get_order(size);
	unsigned long addr;

	if (WARN_ON_ONCE(gfp & (__GFP_COMP | __GFP_HIGHMEM)))
		gfp &= ~(__GFP_COMP | __GFP_HIGHMEM);
	addr = get_free_pages_noprof(gfp, order);
	if (addr) {
		/* make_alloc_exact(): give back the unused tail pages. */
		unsigned long alloc_end = addr + (PAGE_SIZE << order);
		unsigned long used = addr + PAGE_ALIGN(size);

		split_page(virt_to_page((void *)addr), order);
		while (used < alloc_end) {
			free_page(used);
			used += PAGE_SIZE;
		}
	}
	return (void *)addr;
}

void free_pages_exact(void *virt, size_t size)
{
	unsigned long addr = (unsigned long)virt;
	unsigned long end = addr + PAGE_ALIGN(size);

	while (addr < end) {
		free_page(addr);
		addr += PAGE_SIZE;
	}
}

/* mm/page_alloc.c's split_page() for a non-compound high-order page. */
void split_page(struct page *page, unsigned int order)
{
	int i;

	VM_BUG_ON_PAGE(PageCompound(page), page);
	VM_BUG_ON_PAGE(!page_count(page), page);
	for (i = 1; i < (1 << order); i++)
		set_page_refcounted(page + i);
}

long kshim_page_outstanding(void)
{
	return atomic_long_read(&pa_outstanding);
}

/*
 * Every allocated page still live, as runs with their call site. A
 * report (kshim_report) when there is any; returns the number of pages.
 */
/*
 * Pages the initcalls allocated and still hold are boot memory, as the
 * kernel's built-in code keeps them for the life of the system (iomap's
 * zero page): not leaks. Marked by their caller; a page freed and
 * allocated again gets its new caller.
 */
#define PA_CALLER_BOOT	(~0UL)

void kshim_page_mark_boot_done(void)
{
	unsigned long pfn;

	kshim_raw_lock(&pa_lock);
	for_each_set_bit(pfn, pa_used, max_mapnr)
		if (pfn != zero_pfn)
			pa_caller[pfn] = PA_CALLER_BOOT;
	kshim_raw_unlock(&pa_lock);
}

long kshim_page_report_leaks(void)
{
	unsigned long pfn = 0, runs = 0;
	long pages = 0;

	if (!pa_used)
		return 0;
	if (foreign_page.flags != (1UL << PG_reserved) ||
	    page_ref_count(&foreign_page) != 1)
		kshim_report("the foreign page (virt_to_page() of memory outside the linear map) was modified: flags %#lx refcount %d",
			     foreign_page.flags, page_ref_count(&foreign_page));
	kshim_raw_lock(&pa_lock);
	for (;;) {
		unsigned long end, caller;

		pfn = find_next_bit(pa_used, max_mapnr, pfn);
		if (pfn >= max_mapnr)
			break;
		if (pfn == zero_pfn || pa_caller[pfn] == PA_CALLER_BOOT) {
			pfn++;
			continue;
		}
		caller = pa_caller[pfn];
		end = pfn + 1;
		while (end < max_mapnr && test_bit(end, pa_used) &&
		       pa_caller[end] == caller && end != zero_pfn)
			end++;
		if (runs++ < 20)
			pr_err("kshim: leak: pages: %lu page(s) at pfn %#lx (%p), refcount %d, allocated from %p\n",
			       end - pfn, pfn, pfn_to_virt(pfn),
			       page_ref_count(pfn_to_page(pfn)), (void *)caller);
		pages += end - pfn;
		pfn = end;
	}
	kshim_raw_unlock(&pa_lock);
	if (runs > 20)
		pr_err("kshim: leak: ... and %lu more page runs\n", runs - 20);
	if (pages)
		kshim_report("%ld page(s) leaked", pages);
	return pages;
}
