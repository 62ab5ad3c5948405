/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/termios.h and asm/termbits.h: fs/open.c reaches the tty
 * headers (for vhangup()); kshim has no terminals. The generic uapi
 * definitions.
 */
#include <uapi/asm-generic/termios.h>
