/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/hardirq.h: asm-generic/hardirq.h without its
 * #include <linux/irq.h> (the interrupt descriptor layer, pt_regs and
 * the arch's irq headers). kshim has no interrupts; softirq state is
 * per task (asm/preempt.h), so irq_stat is never defined.
 */
#ifndef _KSHIM_ASM_HARDIRQ_H
#define _KSHIM_ASM_HARDIRQ_H

#include <linux/cache.h>
#include <linux/threads.h>

#endif
