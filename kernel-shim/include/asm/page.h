/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/page.h: 4 KiB pages and a FLATMEM linear map, as UML has it.
 * "Physical memory" is one host region reserved at start-up
 * (kshim_page_alloc.c): physical address 0 is its first byte, PAGE_OFFSET
 * (a variable) its host address, mem_map[] one real struct page per page
 * of it. __pa/__va/page_to_pfn/pfn_to_page are then the kernel's
 * arithmetic (asm-generic/memory_model.h).
 *
 * One difference from a kernel arch: slab and vmalloc objects are host
 * allocations outside the region (kshim_slab.c), and virt_to_page() of
 * them answers with kshim_foreign_page(), a reserved node-0 page that is
 * good for page_to_nid() (mm/list_lru.c) and nothing else; see
 * docs/FAKES.md.
 */
#ifndef _KSHIM_ASM_PAGE_H
#define _KSHIM_ASM_PAGE_H

#include <linux/const.h>

#define PAGE_SHIFT	CONFIG_PAGE_SHIFT
#define PAGE_SIZE	(_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#ifndef __ASSEMBLY__

#include <linux/types.h>
#include <linux/pfn.h>

struct page;

/* Two-level page tables (pgd -> pte), folded as asm-generic does; kshim
 * never walks them (asm/pgtable.h). */
typedef struct { unsigned long pte; } pte_t;
typedef struct { unsigned long pgd; } pgd_t;
typedef struct { unsigned long pgprot; } pgprot_t;
typedef struct page *pgtable_t;

#define pte_val(x)	((x).pte)
#define pgd_val(x)	((x).pgd)
#define pgprot_val(x)	((x).pgprot)
#define __pte(x)	((pte_t) { (x) })
#define __pgd(x)	((pgd_t) { (x) })
#define __pgprot(x)	((pgprot_t) { (x) })

/* The linear map: set once by kshim_page_alloc_init(), before any use. */
extern unsigned long kshim_page_offset;
extern unsigned long kshim_mem_bytes;
#define PAGE_OFFSET		kshim_page_offset
#define ARCH_PFN_OFFSET		0UL

#define __pa(x)		((unsigned long)(x) - PAGE_OFFSET)
#define __va(x)		((void *)((unsigned long)(x) + PAGE_OFFSET))
#define __pa_symbol(x)	__pa(x)
#define phys_to_pfn(p)	((unsigned long)(p) >> PAGE_SHIFT)
#define pfn_to_phys(pfn)	PFN_PHYS(pfn)
#define virt_to_pfn(kaddr)	phys_to_pfn(__pa(kaddr))
#define pfn_to_virt(pfn)	__va(pfn_to_phys(pfn))

/* Is kaddr inside "physical memory"? */
#define kshim_in_linear_map(kaddr)					\
	((unsigned long)(kaddr) - PAGE_OFFSET < kshim_mem_bytes)

struct page *kshim_foreign_page(const void *kaddr);
#define virt_to_page(kaddr)						\
	(kshim_in_linear_map(kaddr) ? pfn_to_page(virt_to_pfn(kaddr)) :	\
	 kshim_foreign_page((const void *)(kaddr)))
#define virt_addr_valid(kaddr)	kshim_in_linear_map(kaddr)

#define clear_page(page)	__builtin_memset((void *)(page), 0, PAGE_SIZE)
#define copy_page(to, from)	__builtin_memcpy((void *)(to), (void *)(from), PAGE_SIZE)
#define clear_user_page(page, vaddr, pg)	clear_page(page)
#define copy_user_page(to, from, vaddr, pg)	copy_page(to, from)

#include <asm-generic/memory_model.h>
#include <asm-generic/getorder.h>
#endif

#endif
