/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/word-at-a-time.h: the generic version, as Kbuild's generic-y would give. */
#include <asm-generic/word-at-a-time.h>
