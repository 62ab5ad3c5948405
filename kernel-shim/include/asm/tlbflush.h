/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/tlbflush.h: kshim maps no user pages and never changes a
 * page table (the pgtable accessors are loud stubs, kshim_mm_stubs.c), so
 * there is no TLB to flush.
 */
#ifndef _KSHIM_ASM_TLBFLUSH_H
#define _KSHIM_ASM_TLBFLUSH_H

struct mm_struct;
struct vm_area_struct;

static inline void flush_tlb_mm(struct mm_struct *mm) { }
static inline void flush_tlb_page(struct vm_area_struct *vma,
				  unsigned long addr) { }
static inline void flush_tlb_range(struct vm_area_struct *vma,
				   unsigned long start, unsigned long end) { }
static inline void flush_tlb_kernel_range(unsigned long start,
					  unsigned long end) { }
#endif
