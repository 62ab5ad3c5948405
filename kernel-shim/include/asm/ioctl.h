/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/ioctl.h: the generic version, as Kbuild's generic-y would give. */
#include <asm-generic/ioctl.h>
