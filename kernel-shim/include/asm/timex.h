/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's asm/timex.h: the generic version (get_cycles() is 0). */
#include <asm-generic/timex.h>
