/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/kmap_size.h: the generic version, as Kbuild's generic-y would give. */
#include <asm-generic/kmap_size.h>
