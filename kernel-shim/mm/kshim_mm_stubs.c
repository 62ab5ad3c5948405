// SPDX-License-Identifier: GPL-2.0
/*
 * Loud stubs for what kshim's arch headers declare but kshim never does:
 * page-table accessors (asm/pgtable.h: no user address spaces, no page
 * tables) and user-space access (asm/uaccess.h: no user space). Each
 * aborts with its name if called (DESIGN.md rule 3).
 *
 * This file also includes the real VM, filesystem and block headers the
 * next layers stand on, so the build proves they compile in kshim's
 * kernel world.
 */
#include <linux/mm.h>
#include <linux/mm_types.h>
#include <linux/pagemap.h>
#include <linux/fs.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/highmem.h>
#include <linux/writeback.h>
#include <linux/backing-dev.h>
#include <linux/uaccess.h>
#include <kshim/runtime.h>

/* ==== Loud stubs: kshim has no page tables ================================ */

#define PGTABLE_STUB(ret, name, ...)					\
ret name(__VA_ARGS__)							\
{									\
	kshim_unimplemented(__func__);					\
}

PGTABLE_STUB(int, pte_none, pte_t pte)
PGTABLE_STUB(int, pte_present, pte_t pte)
PGTABLE_STUB(int, pte_write, pte_t pte)
PGTABLE_STUB(int, pte_dirty, pte_t pte)
PGTABLE_STUB(int, pte_young, pte_t pte)
PGTABLE_STUB(unsigned long, pte_pfn, pte_t pte)
PGTABLE_STUB(pte_t, pfn_pte, unsigned long pfn, pgprot_t prot)
PGTABLE_STUB(pte_t, pte_modify, pte_t pte, pgprot_t prot)
PGTABLE_STUB(pte_t, pte_mkdirty, pte_t pte)
PGTABLE_STUB(pte_t, pte_mkclean, pte_t pte)
PGTABLE_STUB(pte_t, pte_mkyoung, pte_t pte)
PGTABLE_STUB(pte_t, pte_mkold, pte_t pte)
PGTABLE_STUB(pte_t, pte_wrprotect, pte_t pte)
PGTABLE_STUB(pte_t, pte_mkwrite_novma, pte_t pte)
PGTABLE_STUB(void, set_pte, pte_t *ptep, pte_t pte)
PGTABLE_STUB(void, pte_clear, struct mm_struct *mm, unsigned long addr,
	     pte_t *ptep)
PGTABLE_STUB(int, pmd_none, pmd_t pmd)
PGTABLE_STUB(int, pmd_present, pmd_t pmd)
PGTABLE_STUB(int, pmd_bad, pmd_t pmd)
PGTABLE_STUB(void, pmd_clear, pmd_t *pmdp)
PGTABLE_STUB(unsigned long, pmd_page_vaddr, pmd_t pmd)
PGTABLE_STUB(struct page *, pmd_page, pmd_t pmd)
PGTABLE_STUB(unsigned long, pmd_pfn, pmd_t pmd)
PGTABLE_STUB(void, set_pmd, pmd_t *pmdp, pmd_t pmd)
PGTABLE_STUB(void, update_mmu_cache, struct vm_area_struct *vma,
	     unsigned long addr, pte_t *ptep)
PGTABLE_STUB(int, pte_swp_exclusive, pte_t pte)
PGTABLE_STUB(pte_t, pte_swp_mkexclusive, pte_t pte)
PGTABLE_STUB(pte_t, pte_swp_clear_exclusive, pte_t pte)

/* ==== Loud stubs: kshim has no user space ================================= */

void kshim_user_access(const char *what)
{
	kshim_unimplemented(what);
}

unsigned long raw_copy_from_user(void *to, const void __user *from,
				 unsigned long n)
{
	kshim_unimplemented(__func__);
}

unsigned long raw_copy_to_user(void __user *to, const void *from,
			       unsigned long n)
{
	kshim_unimplemented(__func__);
}

unsigned long clear_user(void __user *to, unsigned long n)
{
	kshim_unimplemented(__func__);
}

long strncpy_from_user(char *dst, const char __user *src, long count)
{
	kshim_unimplemented(__func__);
}

long strnlen_user(const char __user *src, long n)
{
	kshim_unimplemented(__func__);
}

/*
 * mm/maccess.c's WARN for a copy larger than its object, which
 * check_copy_size() calls. gcc -O2 folds every such call kshim compiles
 * away; clang -O1, OSS-Fuzz's level (.clusterfuzzlite/build.sh), leaves
 * some in, so the symbol must exist. A call would be a kernel WARN.
 */
void __copy_overflow(int size, unsigned long count)
{
	kshim_unimplemented(__func__);
}

/* ==== Loud stubs: user-page pinning (mm/gup.c) =============================
 * block/bio.c reaches these only for user-memory (O_DIRECT) bios, which
 * kshim's callers do not build: no task has user memory. */

void unpin_user_page(struct page *page)
{
	kshim_unimplemented(__func__);
}

void unpin_user_folio(struct folio *folio, unsigned long npages)
{
	kshim_unimplemented(__func__);
}
