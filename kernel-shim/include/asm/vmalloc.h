/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/vmalloc.h: no arch vmap hooks; linux/vmalloc.h has the defaults. */
