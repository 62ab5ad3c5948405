/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/irqflags.h: there are no interrupts in userspace, but
 * "interrupts off" is still a state of the current task: sleeping with it
 * set is a bug the runtime reports (might_sleep), and in_interrupt()-style
 * checks read it. The state lives in the current task (kshim_sched.c).
 */
#ifndef _KSHIM_ASM_IRQFLAGS_H
#define _KSHIM_ASM_IRQFLAGS_H

unsigned long kshim_irq_save_flags(void);
void kshim_irq_restore_flags(unsigned long flags);

#define ARCH_IRQ_DISABLED	1UL

static inline unsigned long arch_local_save_flags(void)
{
	return kshim_irq_save_flags();
}
static inline void arch_local_irq_restore(unsigned long flags)
{
	kshim_irq_restore_flags(flags);
}
static inline void arch_local_irq_disable(void)
{
	kshim_irq_restore_flags(ARCH_IRQ_DISABLED);
}
static inline void arch_local_irq_enable(void)
{
	kshim_irq_restore_flags(0);
}
static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	arch_local_irq_disable();
	return flags;
}
static inline int arch_irqs_disabled_flags(unsigned long flags)
{
	return flags == ARCH_IRQ_DISABLED;
}
static inline int arch_irqs_disabled(void)
{
	return arch_irqs_disabled_flags(arch_local_save_flags());
}
#endif
