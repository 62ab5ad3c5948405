/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/ioctls.h: see asm/termios.h. */
#include <uapi/asm-generic/ioctls.h>
