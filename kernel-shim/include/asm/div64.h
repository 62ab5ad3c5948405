/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/div64.h: the generic version, as Kbuild's generic-y would give. */
#include <asm-generic/div64.h>
