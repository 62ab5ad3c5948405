/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/delay.h: the generic udelay()/ndelay(); kshim_time.c busy-waits on the kshim clock. */
#include <asm-generic/delay.h>
