/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/mutex.h: mutexes as sleeping kshim_locks, with the owner
 * recorded so mutex_is_locked()/lockdep_assert_held() are real checks.
 * Taking one may sleep (might_sleep()). Lost: optimistic spinning and the
 * kernel's handoff fairness; lock ordering is not validated.
 */
#ifndef __LINUX_MUTEX_H
#define __LINUX_MUTEX_H

#include <asm/current.h>
#include <linux/list.h>
#include <linux/spinlock_types.h>
#include <linux/lockdep.h>
#include <linux/atomic.h>
#include <linux/cleanup.h>
#include <linux/mutex_types.h>
#include <linux/kernel.h>

#define __MUTEX_INITIALIZER(lockname)	{ .kl = KSHIM_LOCK_INIT(lockname) }
#define DEFINE_MUTEX(mutexname) \
	struct mutex mutexname = __MUTEX_INITIALIZER(mutexname)
#define mutex_init(m)		kshim_lock_init_here(&(m)->kl, #m)
#define mutex_destroy(m)	do { (void)(m); } while (0)

void mutex_lock(struct mutex *lock);
int mutex_lock_interruptible(struct mutex *lock);
int mutex_lock_killable(struct mutex *lock);
int mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);
#define mutex_lock_nested(lock, subclass)	mutex_lock(lock)
#define mutex_lock_nest_lock(lock, nl)		mutex_lock(lock)
#define mutex_lock_io(lock)			mutex_lock(lock)
#define mutex_lock_interruptible_nested(l, s)	mutex_lock_interruptible(l)
#define mutex_lock_killable_nested(l, s)	mutex_lock_killable(l)
#define mutex_is_locked(m)	kshim_lock_is_locked(&(m)->kl)
int atomic_dec_and_mutex_lock(atomic_t *cnt, struct mutex *lock);

DEFINE_GUARD(mutex, struct mutex *, mutex_lock(_T), mutex_unlock(_T))
DEFINE_GUARD_COND(mutex, _try, mutex_trylock(_T))
DEFINE_GUARD_COND(mutex, _intr, mutex_lock_interruptible(_T) == 0)

#endif
