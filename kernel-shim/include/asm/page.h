/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/page.h: 4 KiB pages. There is no linear map: page <-> address
 * conversions belong to kshim's page allocator, not to arithmetic here.
 */
#ifndef _KSHIM_ASM_PAGE_H
#define _KSHIM_ASM_PAGE_H

#include <linux/const.h>

#define PAGE_SHIFT	CONFIG_PAGE_SHIFT
#define PAGE_SIZE	(_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#ifndef __ASSEMBLY__
/* Page protections exist only as values vmalloc() callers pass along. */
typedef struct { unsigned long pgprot; } pgprot_t;
#define pgprot_val(x)	((x).pgprot)
#define __pgprot(x)	((pgprot_t) { (x) })
#define PAGE_KERNEL	__pgprot(0)

#include <asm-generic/getorder.h>
#endif

#endif
