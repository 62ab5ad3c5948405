/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/termbits.h: see asm/termios.h. */
#include <uapi/asm-generic/termbits.h>
