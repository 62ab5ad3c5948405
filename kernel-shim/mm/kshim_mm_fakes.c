// SPDX-License-Identifier: GPL-2.0
/*
 * Fakes for the parts of the VM the real page-cache files (mm/swap.c,
 * mm/filemap.c, mm/truncate.c, mm/page-writeback.c, mm/vmscan.c) call but kshim has
 * no use for: user mappings (mm/memory.c, mm/rmap.c), mlock (mm/mlock.c)
 * and vmstat's per-CPU workqueue (mm/vmstat.c). Each is exact for what
 * kshim can reach, because kshim never maps a page into a user address
 * space, and each checks that premise rather than assume it. Listed in
 * docs/FAKES.md.
 */
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/rmap.h>
#include <linux/workqueue.h>
#include <linux/init.h>
#include <kshim/runtime.h>

#include "internal.h"		/* the real mm/internal.h */

/* ==== No user mappings (mm/memory.c, mm/rmap.c) ============================
 * No task has an mm, so no folio is ever mapped and no address space has
 * a VMA: there is nothing to unmap or write-protect. A mapped folio or a
 * mapping with VMAs means that premise broke: fail loudly. */

static void no_vmas(struct address_space *mapping, const char *func)
{
	if (mapping_mapped(mapping))
		kshim_fatal("%s: address space has VMAs: kshim maps no pages",
			    func);
}

void unmap_mapping_range(struct address_space *mapping,
			 loff_t const holebegin, loff_t const holelen,
			 int even_cows)
{
	no_vmas(mapping, __func__);
}

void unmap_mapping_pages(struct address_space *mapping, pgoff_t start,
			 pgoff_t nr, bool even_cows)
{
	no_vmas(mapping, __func__);
}

void unmap_mapping_folio(struct folio *folio)
{
	if (folio_mapped(folio))
		kshim_fatal("%s: folio is mapped: kshim maps no pages",
			    __func__);
}

/* rmap's answer for an unmapped folio: no PTE was cleaned. */
int folio_mkclean(struct folio *folio)
{
	if (folio_mapped(folio))
		kshim_fatal("%s: folio is mapped: kshim maps no pages",
			    __func__);
	return 0;
}

/*
 * Reclaim's rmap calls (mm/vmscan.c): folio_referenced() counts the
 * young PTEs mapping a folio, none for an unmapped one (the kernel's own
 * early return); try_to_unmap() is only called on a mapped folio.
 */
int folio_referenced(struct folio *folio, int is_locked,
		     struct mem_cgroup *memcg, unsigned long *vm_flags)
{
	*vm_flags = 0;
	if (folio_mapped(folio))
		kshim_fatal("%s: folio is mapped: kshim maps no pages",
			    __func__);
	return 0;
}

void try_to_unmap(struct folio *folio, enum ttu_flags flags)
{
	kshim_fatal("%s: folio is mapped: kshim maps no pages", __func__);
}

/* ==== No mlock (mm/mlock.c) ================================================
 * Only a VM_LOCKED VMA mlocks a folio; kshim has none, so the per-CPU
 * mlock batches are always empty. */

void mlock_drain_local(void)
{
}

bool need_mlock_drain(int cpu)
{
	return false;
}

void mlock_new_folio(struct folio *folio)
{
	kshim_fatal("%s: no VMA is VM_LOCKED in kshim", __func__);
}

/* ==== vmstat's workqueue (mm/vmstat.c) =====================================
 * mm/vmstat.c is not compiled (kshim's page-state counters are exact
 * atomics, kshim_page_alloc.c), but mm/swap.c's lru_add_drain_all()
 * queues its per-CPU drain work on this queue, as init_mm_internals()
 * creates it. */
struct workqueue_struct *mm_percpu_wq;

static int __init kshim_mm_percpu_wq_init(void)
{
	mm_percpu_wq = alloc_workqueue("mm_percpu_wq", WQ_MEM_RECLAIM, 0);
	if (!mm_percpu_wq)
		kshim_fatal("cannot create mm_percpu_wq");
	return 0;
}
core_initcall(kshim_mm_percpu_wq_init);

/* ==== dump_page() (mm/debug.c) =============================================
 * What VM_BUG_ON_PAGE() prints before it fails: the fields a reader
 * needs to recognise the page. Lost: the page-type and owner details. */
void dump_page(const struct page *page, const char *reason)
{
	const struct folio *folio = page_folio(page);

	pr_emerg("page: refcount:%d mapcount:%d mapping:%px index:%#lx pfn:%#lx\n",
		 folio_ref_count(folio), folio_mapcount(folio),
		 folio->mapping, folio->index, page_to_pfn(page));
	pr_emerg("flags: %#lx(order %u)\n", folio->flags, folio_order(folio));
	if (reason)
		pr_emerg("page dumped because: %s\n", reason);
}

/* ==== folio_mapping() (mm/util.c) ==========================================
 * mm/util.c is not compiled: it is a grab-bag whose kvmalloc() family is
 * kshim's own (kshim_slab.c, for leak and poison tracking) and whose other
 * half is mmap and process-memory helpers kshim has no use for. kshim has
 * no swap cache, so a folio's mapping is its page-cache mapping, or none
 * for slab pages and anonymous/movable folios (the low mapping bits). */
struct address_space *folio_mapping(struct folio *folio)
{
	unsigned long mapping = (unsigned long)folio->mapping;

	if (folio_test_slab(folio) || (mapping & PAGE_MAPPING_FLAGS))
		return NULL;
	if (folio_test_swapcache(folio))
		kshim_fatal("%s: folio in the swap cache: kshim has no swap",
			    __func__);
	return (struct address_space *)mapping;
}
