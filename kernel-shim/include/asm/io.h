/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/io.h: there is no MMIO or port I/O in kshim. What remains
 * is the physical-address view of a page, which the linear map of
 * asm/page.h defines (scatterlists and bvecs use it).
 */
#ifndef _KSHIM_ASM_IO_H
#define _KSHIM_ASM_IO_H

#include <asm/page.h>

#define page_to_phys(page)	((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT)
#define phys_to_page(phys)	pfn_to_page((phys) >> PAGE_SHIFT)
#define virt_to_phys(addr)	((phys_addr_t)__pa(addr))
#define phys_to_virt(phys)	__va(phys)

#endif
