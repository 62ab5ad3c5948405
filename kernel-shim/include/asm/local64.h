/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/local64.h: the generic version, as Kbuild's generic-y would give. */
#include <asm-generic/local64.h>
