/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/fcntl.h: the generic version, as Kbuild's generic-y would give. */
#include <asm-generic/fcntl.h>
