/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/posix_types.h: the generic version, as Kbuild's generic-y would give. */
#include <asm-generic/posix_types.h>
