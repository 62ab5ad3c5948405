/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/pgtable.h: the shape of a two-level MMU (pgd -> pte, the
 * p4d/pud/pmd levels folded by asm-generic/pgtable-nopmd.h), so that the
 * real linux/pgtable.h and linux/mm.h compile. kshim has no user address
 * spaces and never walks or fills page tables: every page-table accessor
 * is a declaration whose definition (kshim_pgtable.c) aborts with its name
 * if called. Protection values exist only as values callers pass along.
 */
#ifndef _KSHIM_ASM_PGTABLE_H
#define _KSHIM_ASM_PGTABLE_H

#include <asm/page.h>
#include <asm-generic/pgtable-nopmd.h>

#define PGDIR_SHIFT		22
#define PGDIR_SIZE		(1UL << PGDIR_SHIFT)
#define PGDIR_MASK		(~(PGDIR_SIZE - 1))
#define PTRS_PER_PTE		1024
#define PTRS_PER_PGD		1024
#define USER_PTRS_PER_PGD	PTRS_PER_PGD
#define FIRST_USER_ADDRESS	0UL
#define PFN_PTE_SHIFT		PAGE_SHIFT

/* No user space is ever mapped (asm/uaccess.h aborts on user access). */
#define _PAGE_PRESENT		0x001
#define _PAGE_RW		0x002
#define _PAGE_USER		0x004
#define _PAGE_ACCESSED		0x020
#define _PAGE_DIRTY		0x040
#define PAGE_NONE		__pgprot(0)
#define PAGE_SHARED		__pgprot(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER)
#define PAGE_COPY		__pgprot(_PAGE_PRESENT | _PAGE_USER)
#define PAGE_READONLY		__pgprot(_PAGE_PRESENT | _PAGE_USER)
#define PAGE_KERNEL		__pgprot(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY)
#define PAGE_KERNEL_RO		__pgprot(_PAGE_PRESENT | _PAGE_ACCESSED)
#define PAGE_KERNEL_EXEC	PAGE_KERNEL

/*
 * vmalloc memory is host memory (kshim_slab.c), so there is no vmalloc
 * range: is_vmalloc_addr() is kshim_slab.c's, by object header.
 */
#define VMALLOC_START		0UL
#define VMALLOC_END		0UL

extern pgd_t swapper_pg_dir[PTRS_PER_PGD];

/* The zero page: one page of the linear map, allocated at start-up. */
extern struct page *kshim_zero_page;
#define ZERO_PAGE(vaddr)	((void)(vaddr), kshim_zero_page)

#ifndef __ASSEMBLY__
struct mm_struct;
struct vm_area_struct;

/* Loud: defined in kshim_pgtable.c, each aborts with its name. */
int pte_none(pte_t pte);
int pte_present(pte_t pte);
int pte_write(pte_t pte);
int pte_dirty(pte_t pte);
int pte_young(pte_t pte);
unsigned long pte_pfn(pte_t pte);
pte_t pfn_pte(unsigned long pfn, pgprot_t prot);
pte_t pte_modify(pte_t pte, pgprot_t prot);
pte_t pte_mkdirty(pte_t pte);
pte_t pte_mkclean(pte_t pte);
pte_t pte_mkyoung(pte_t pte);
pte_t pte_mkold(pte_t pte);
pte_t pte_wrprotect(pte_t pte);
pte_t pte_mkwrite_novma(pte_t pte);
void set_pte(pte_t *ptep, pte_t pte);
void pte_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep);
int pmd_none(pmd_t pmd);
int pmd_present(pmd_t pmd);
int pmd_bad(pmd_t pmd);
void pmd_clear(pmd_t *pmdp);
unsigned long pmd_page_vaddr(pmd_t pmd);
struct page *pmd_page(pmd_t pmd);
unsigned long pmd_pfn(pmd_t pmd);
void set_pmd(pmd_t *pmdp, pmd_t pmd);
void update_mmu_cache(struct vm_area_struct *vma, unsigned long addr,
		      pte_t *ptep);
int pte_swp_exclusive(pte_t pte);
pte_t pte_swp_mkexclusive(pte_t pte);
pte_t pte_swp_clear_exclusive(pte_t pte);

#define pte_page(pte)		pfn_to_page(pte_pfn(pte))
#define pte_ERROR(e)		BUG()
#define pgd_ERROR(e)		BUG()

/* Swap entries: kshim has no swap; the encoding only has to round-trip. */
#define __swp_type(x)		((x).val & 0x1f)
#define __swp_offset(x)		((x).val >> 5)
#define __swp_entry(type, offset) ((swp_entry_t) { ((type) & 0x1f) | ((offset) << 5) })
#define __pte_to_swp_entry(pte)	((swp_entry_t) { pte_val(pte) })
#define __swp_entry_to_pte(x)	((pte_t) { (x).val })
#endif

#endif
