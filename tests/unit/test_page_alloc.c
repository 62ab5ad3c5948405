// SPDX-License-Identifier: GPL-2.0
/*
 * kshim's memory model (kshim_page_alloc.c) behind the real linux/mm.h,
 * page-flags.h, highmem.h and asm-generic/memory_model.h:
 *
 * - alloc_pages()/__free_pages() of order 0 and 2, folio_alloc()/
 *   folio_put() of an order-2 folio: a new page has refcount 1, no flags,
 *   no mapping; a folio's head and tails are set up as the kernel's
 *   prep_compound_page() does (folio_size, folio_nr_pages, folio_page,
 *   compound_head of a tail);
 * - page_address()/virt_to_page()/page_to_pfn()/pfn_to_page() round trip
 *   (FLATMEM linear map), kmap_local_page() is page_address();
 * - get_page()/put_page() refcounts, the last put frees;
 * - the real page-flags.h accessors on mem_map pages;
 * - a leaked page is reported (with its call site) and counted;
 * - virt_to_page() of slab memory answers node 0 (mm/list_lru.c).
 */
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kshim/ktest.h>

static void test_alloc_free_order0(void)
{
	long before = kshim_page_outstanding();
	struct page *page = alloc_page(GFP_KERNEL);
	char *p;

	KSHIM_ASSERT_NOT_NULL(page);
	if (!page)
		return;
	KSHIM_ASSERT_EQ(kshim_page_outstanding(), before + 1);
	KSHIM_ASSERT_EQ(page_ref_count(page), 1);
	KSHIM_ASSERT_NULL(page->mapping);
	KSHIM_ASSERT(!PageCompound(page));
	KSHIM_ASSERT(!PageDirty(page) && !PageLocked(page) && !PageUptodate(page));
	KSHIM_ASSERT_EQ(page_to_nid(page), 0);
	p = page_address(page);
	memset(p, 0xa5, PAGE_SIZE);	/* the whole page is usable */
	KSHIM_ASSERT_EQ((unsigned char)p[PAGE_SIZE - 1], 0xa5);
	__free_pages(page, 0);
	KSHIM_ASSERT_EQ(kshim_page_outstanding(), before);
}

static void test_zeroed_and_free_pages(void)
{
	unsigned long addr = get_zeroed_page(GFP_KERNEL);
	unsigned long i, nonzero = 0;

	KSHIM_ASSERT_FATAL(addr != 0);
	for (i = 0; i < PAGE_SIZE / sizeof(long); i++)
		nonzero |= ((unsigned long *)addr)[i];
	KSHIM_ASSERT_EQ(nonzero, 0);
	KSHIM_ASSERT(IS_ALIGNED(addr, PAGE_SIZE));
	free_page(addr);
}

static void test_order2_non_compound(void)
{
	struct page *page = alloc_pages(GFP_KERNEL, 2);
	int i;

	KSHIM_ASSERT_FATAL(page != NULL);
	KSHIM_ASSERT(IS_ALIGNED(page_to_pfn(page), 4));
	KSHIM_ASSERT(!PageHead(page));
	for (i = 0; i < 4; i++) {
		KSHIM_ASSERT_EQ(page_ref_count(page + i), i == 0 ? 1 : 0);
		/* Contiguous in the linear map. */
		KSHIM_ASSERT_PTR_EQ(page_address(page + i),
				    (char *)page_address(page) + i * PAGE_SIZE);
	}
	__free_pages(page, 2);
}

static void test_folio_order2(void)
{
	long before = kshim_page_outstanding();
	struct folio *folio = folio_alloc(GFP_KERNEL, 2);
	struct page *tail;
	int i;

	KSHIM_ASSERT_FATAL(folio != NULL);
	KSHIM_ASSERT_EQ(kshim_page_outstanding(), before + 4);
	KSHIM_ASSERT(folio_test_large(folio));
	KSHIM_ASSERT(folio_test_head(folio));
	KSHIM_ASSERT_EQ(folio_order(folio), 2);
	KSHIM_ASSERT_EQ(folio_nr_pages(folio), 4);
	KSHIM_ASSERT_EQ(folio_size(folio), 4 * PAGE_SIZE);
	KSHIM_ASSERT_EQ(folio_ref_count(folio), 1);
	KSHIM_ASSERT(IS_ALIGNED(folio_pfn(folio), 4));
	for (i = 1; i < 4; i++) {
		tail = folio_page(folio, i);
		KSHIM_ASSERT_PTR_EQ(tail, &folio->page + i);
		KSHIM_ASSERT(PageTail(tail));
		KSHIM_ASSERT_PTR_EQ(compound_head(tail), &folio->page);
		KSHIM_ASSERT_PTR_EQ(page_folio(tail), folio);
		KSHIM_ASSERT_PTR_EQ(virt_to_folio((char *)folio_address(folio) +
						  i * PAGE_SIZE + 17), folio);
	}
	KSHIM_ASSERT_PTR_EQ(folio_address(folio), page_address(&folio->page));
	memset(folio_address(folio), 0, folio_size(folio));
	folio_put(folio);
	KSHIM_ASSERT_EQ(kshim_page_outstanding(), before);
}

static void test_linear_map_round_trip(void)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_COMP, 1);
	void *addr;
	unsigned long pfn;

	KSHIM_ASSERT_FATAL(page != NULL);
	addr = page_address(page);
	pfn = page_to_pfn(page);
	KSHIM_ASSERT(pfn_valid(pfn));
	KSHIM_ASSERT(virt_addr_valid(addr));
	KSHIM_ASSERT_PTR_EQ(pfn_to_page(pfn), page);
	KSHIM_ASSERT_PTR_EQ(virt_to_page(addr), page);
	KSHIM_ASSERT_PTR_EQ(virt_to_page((char *)addr + PAGE_SIZE - 1), page);
	KSHIM_ASSERT_PTR_EQ(virt_to_page((char *)addr + PAGE_SIZE), page + 1);
	KSHIM_ASSERT_EQ(__pa(addr), PFN_PHYS(pfn));
	KSHIM_ASSERT_PTR_EQ(__va(PFN_PHYS(pfn)), addr);
	KSHIM_ASSERT_EQ(virt_to_pfn(addr), pfn);
	KSHIM_ASSERT_PTR_EQ(lowmem_page_address(page), addr);
	__free_pages(page, 1);
}

static void test_kmap_local(void)
{
	struct page *page = alloc_page(GFP_KERNEL);
	char *k;

	KSHIM_ASSERT_FATAL(page != NULL);
	k = kmap_local_page(page);
	KSHIM_ASSERT_PTR_EQ(k, page_address(page));
	strscpy(k, "kshim", PAGE_SIZE);
	kunmap_local(k);
	k = kmap_local_folio(page_folio(page), 0);
	KSHIM_ASSERT(!strcmp(k, "kshim"));
	kunmap_local(k);
	memzero_page(page, 0, PAGE_SIZE);
	KSHIM_ASSERT_EQ(((char *)page_address(page))[0], 0);
	__free_pages(page, 0);
}

static void test_get_put_page(void)
{
	long before = kshim_page_outstanding();
	struct page *page = alloc_page(GFP_KERNEL);
	struct folio *folio;

	KSHIM_ASSERT_FATAL(page != NULL);
	folio = page_folio(page);
	get_page(page);
	KSHIM_ASSERT_EQ(page_ref_count(page), 2);
	folio_get(folio);
	KSHIM_ASSERT_EQ(folio_ref_count(folio), 3);
	put_page(page);
	folio_put(folio);
	KSHIM_ASSERT_EQ(page_ref_count(page), 1);
	KSHIM_ASSERT_EQ(kshim_page_outstanding(), before + 1);
	put_page(page);			/* the last reference frees */
	KSHIM_ASSERT_EQ(kshim_page_outstanding(), before);
}

static void test_page_flags(void)
{
	struct folio *folio = folio_alloc(GFP_KERNEL, 2);
	struct page *page;

	KSHIM_ASSERT_FATAL(folio != NULL);
	page = folio_page(folio, 1);
	KSHIM_ASSERT(!folio_test_dirty(folio));
	SetPageDirty(page);		/* a tail's flag op goes to the head */
	KSHIM_ASSERT(folio_test_dirty(folio));
	KSHIM_ASSERT(PageDirty(&folio->page));
	KSHIM_ASSERT(folio_test_clear_dirty(folio));
	KSHIM_ASSERT(!PageDirty(page));
	KSHIM_ASSERT(folio_trylock(folio));
	KSHIM_ASSERT(folio_test_locked(folio));
	KSHIM_ASSERT(!folio_trylock(folio));
	__folio_clear_locked(folio);	/* folio_unlock() is mm/filemap.c */
	KSHIM_ASSERT(!folio_test_locked(folio));
	folio_mark_uptodate(folio);
	KSHIM_ASSERT(folio_test_uptodate(folio));
	folio_clear_uptodate(folio);
	KSHIM_ASSERT(!folio_test_uptodate(folio));
	folio_put(folio);
}

static void test_leaked_page_is_reported(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	KSHIM_ASSERT_FATAL(page != NULL);
	kshim_printk_clear();
	kshim_test_expect_reports(1);
	KSHIM_ASSERT_EQ(kshim_page_report_leaks(), 1);
	KSHIM_ASSERT(kshim_printk_contains("leak: pages: 1 page(s)"));
	KSHIM_ASSERT(kshim_printk_contains("allocated from"));
	__free_pages(page, 0);
	KSHIM_ASSERT_EQ(kshim_page_report_leaks(), 0);
}

static void test_bad_page_is_reported(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	KSHIM_ASSERT_FATAL(page != NULL);
	__SetPageLocked(page);		/* PAGE_FLAGS_CHECK_AT_FREE */
	kshim_printk_clear();
	kshim_test_expect_reports(1);
	__free_pages(page, 0);
	KSHIM_ASSERT(kshim_printk_contains("Bad page state"));
}

static void test_virt_to_page_of_slab_memory(void)
{
	void *obj = kmalloc(64, GFP_KERNEL);
	struct page *page;

	KSHIM_ASSERT_FATAL(obj != NULL);
	KSHIM_ASSERT(!virt_addr_valid(obj));
	page = virt_to_page(obj);
	KSHIM_ASSERT_EQ(page_to_nid(page), 0);
	kfree(obj);
}

static const struct kshim_test page_alloc_tests[] = {
	KSHIM_TEST(test_alloc_free_order0),
	KSHIM_TEST(test_zeroed_and_free_pages),
	KSHIM_TEST(test_order2_non_compound),
	KSHIM_TEST(test_folio_order2),
	KSHIM_TEST(test_linear_map_round_trip),
	KSHIM_TEST(test_kmap_local),
	KSHIM_TEST(test_get_put_page),
	KSHIM_TEST(test_page_flags),
	KSHIM_TEST(test_leaked_page_is_reported),
	KSHIM_TEST(test_bad_page_is_reported),
	KSHIM_TEST(test_virt_to_page_of_slab_memory),
	{ }
};

KSHIM_SUITES({ "page_alloc", NULL, NULL, page_alloc_tests });
