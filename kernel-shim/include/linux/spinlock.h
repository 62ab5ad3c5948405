/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/spinlock.h: spinlocks and rwlocks as kshim_locks.
 *
 * Taking a spinlock disables preemption (so the task owns its simulated
 * CPU and may not sleep, as in the kernel); the _irq/_irqsave/_bh variants
 * also record "interrupts off". A contended spinlock waits in the backend
 * rather than spinning (see kshim/lock.h). Lost: fairness of the kernel's
 * queued spinlocks; lock ordering is not validated (lockdep is off).
 */
#ifndef __LINUX_SPINLOCK_H
#define __LINUX_SPINLOCK_H

#include <linux/typecheck.h>
#include <linux/preempt.h>
#include <linux/linkage.h>
#include <linux/compiler.h>
#include <linux/irqflags.h>
#include <linux/thread_info.h>
#include <linux/stringify.h>
#include <linux/bottom_half.h>
#include <linux/lockdep.h>
#include <linux/cleanup.h>
#include <asm/barrier.h>
#include <linux/spinlock_types.h>
#include <linux/kernel.h>	/* might_sleep(): linux/wait_bit.h relies on reaching it here */

#define raw_spin_lock_init(l)	kshim_lock_init_here(&(l)->kl, #l)
#define spin_lock_init(l)	kshim_lock_init_here(&(l)->kl, #l)
#define rwlock_init(l)		kshim_lock_init_here(&(l)->kl, #l)

#define __kshim_spin_lock(l)						\
	do { preempt_disable(); kshim_lock_acquire(&(l)->kl, KSHIM_SPIN); } while (0)
#define __kshim_spin_unlock(l)						\
	do { kshim_lock_release(&(l)->kl); preempt_enable(); } while (0)
#define __kshim_spin_trylock(l)						\
({									\
	int __got;							\
	preempt_disable();						\
	__got = kshim_lock_tryacquire(&(l)->kl, KSHIM_SPIN);		\
	if (!__got)							\
		preempt_enable();					\
	__got;								\
})

/* raw_spinlock_t and spinlock_t share every operation. */
#define spin_lock(l)			__kshim_spin_lock(l)
#define spin_unlock(l)			__kshim_spin_unlock(l)
#define spin_trylock(l)			__kshim_spin_trylock(l)
#define spin_lock_nested(l, sub)	spin_lock(l)
#define spin_lock_nest_lock(l, nl)	spin_lock(l)
#define spin_lock_bh(l)			do { local_bh_disable(); spin_lock(l); } while (0)
#define spin_unlock_bh(l)		do { spin_unlock(l); local_bh_enable(); } while (0)
#define spin_trylock_bh(l)						\
({ int __g; local_bh_disable(); __g = spin_trylock(l); if (!__g) local_bh_enable(); __g; })
#define spin_lock_irq(l)		do { local_irq_disable(); spin_lock(l); } while (0)
#define spin_unlock_irq(l)		do { spin_unlock(l); local_irq_enable(); } while (0)
#define spin_lock_irqsave(l, flags)					\
	do { local_irq_save(flags); spin_lock(l); } while (0)
#define spin_lock_irqsave_nested(l, flags, sub)	spin_lock_irqsave(l, flags)
#define spin_unlock_irqrestore(l, flags)				\
	do { spin_unlock(l); local_irq_restore(flags); } while (0)
#define spin_trylock_irq(l)						\
({ int __g; local_irq_disable(); __g = spin_trylock(l); if (!__g) local_irq_enable(); __g; })
#define spin_trylock_irqsave(l, flags)					\
({ int __g; local_irq_save(flags); __g = spin_trylock(l);		\
   if (!__g)								\
	local_irq_restore(flags);					\
   __g; })
#define spin_is_locked(l)		kshim_lock_is_locked(&(l)->kl)
#define spin_is_contended(l)		kshim_lock_is_contended(&(l)->kl)
#define spin_needbreak(l)		spin_is_contended(l)
#define assert_spin_locked(l)		BUG_ON(!kshim_lock_is_locked(&(l)->kl))
#define assert_raw_spin_locked(l)	assert_spin_locked(l)

#define raw_spin_lock(l)		spin_lock(l)
#define raw_spin_unlock(l)		spin_unlock(l)
#define raw_spin_trylock(l)		spin_trylock(l)
#define raw_spin_lock_nested(l, s)	spin_lock(l)
#define raw_spin_lock_irq(l)		spin_lock_irq(l)
#define raw_spin_unlock_irq(l)		spin_unlock_irq(l)
#define raw_spin_lock_irqsave(l, f)	spin_lock_irqsave(l, f)
#define raw_spin_trylock_irqsave(l, f)	spin_trylock_irqsave(l, f)
#define raw_spin_unlock_irqrestore(l, f) spin_unlock_irqrestore(l, f)
#define raw_spin_lock_bh(l)		spin_lock_bh(l)
#define raw_spin_unlock_bh(l)		spin_unlock_bh(l)
#define raw_spin_is_locked(l)		spin_is_locked(l)
#define raw_spin_is_contended(l)	spin_is_contended(l)

/* rwlock_t: readers share the lock. */
#define read_lock(l)							\
	do { preempt_disable(); kshim_lock_acquire_shared(&(l)->kl, KSHIM_SPIN); } while (0)
#define read_unlock(l)							\
	do { kshim_lock_release_shared(&(l)->kl); preempt_enable(); } while (0)
#define read_trylock(l)							\
({ int __g; preempt_disable();						\
   __g = kshim_lock_tryacquire_shared(&(l)->kl, KSHIM_SPIN);		\
   if (!__g) preempt_enable(); __g; })
#define write_lock(l)			spin_lock(l)
#define write_unlock(l)			spin_unlock(l)
#define write_trylock(l)		spin_trylock(l)
#define read_lock_irq(l)		do { local_irq_disable(); read_lock(l); } while (0)
#define read_unlock_irq(l)		do { read_unlock(l); local_irq_enable(); } while (0)
#define read_lock_bh(l)			do { local_bh_disable(); read_lock(l); } while (0)
#define read_unlock_bh(l)		do { read_unlock(l); local_bh_enable(); } while (0)
#define read_lock_irqsave(l, f)		do { local_irq_save(f); read_lock(l); } while (0)
#define read_unlock_irqrestore(l, f)	do { read_unlock(l); local_irq_restore(f); } while (0)
#define write_lock_irq(l)		spin_lock_irq(l)
#define write_unlock_irq(l)		spin_unlock_irq(l)
#define write_lock_bh(l)		spin_lock_bh(l)
#define write_unlock_bh(l)		spin_unlock_bh(l)
#define write_lock_irqsave(l, f)	spin_lock_irqsave(l, f)
#define write_unlock_irqrestore(l, f)	spin_unlock_irqrestore(l, f)
#define rwlock_is_contended(l)		kshim_lock_is_contended(&(l)->kl)

#define smp_mb__after_spinlock()	smp_mb()

/* As the kernel's: declared here, used by linux/ftrace.h. */
int in_lock_functions(unsigned long addr);

int _atomic_dec_and_lock(atomic_t *atomic, spinlock_t *lock);
#define atomic_dec_and_lock(atomic, lock) \
	__cond_lock(lock, _atomic_dec_and_lock(atomic, lock))
int _atomic_dec_and_lock_irqsave(atomic_t *atomic, spinlock_t *lock,
				 unsigned long *flags);
#define atomic_dec_and_lock_irqsave(atomic, lock, flags) \
	__cond_lock(lock, _atomic_dec_and_lock_irqsave(atomic, lock, &(flags)))
int _atomic_dec_and_raw_lock(atomic_t *atomic, raw_spinlock_t *lock);
#define atomic_dec_and_raw_lock(atomic, lock) \
	__cond_lock(lock, _atomic_dec_and_raw_lock(atomic, lock))

DEFINE_LOCK_GUARD_1(raw_spinlock, raw_spinlock_t,
		    raw_spin_lock(_T->lock), raw_spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock, spinlock_t,
		    spin_lock(_T->lock), spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irq, spinlock_t,
		    spin_lock_irq(_T->lock), spin_unlock_irq(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irqsave, spinlock_t,
		    spin_lock_irqsave(_T->lock, _T->flags),
		    spin_unlock_irqrestore(_T->lock, _T->flags),
		    unsigned long flags)
DEFINE_LOCK_GUARD_1(read_lock, rwlock_t,
		    read_lock(_T->lock), read_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(write_lock, rwlock_t,
		    write_lock(_T->lock), write_unlock(_T->lock))

#endif
