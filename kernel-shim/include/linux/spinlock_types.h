/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/spinlock_types.h: spinlock_t and rwlock_t over kshim_lock.
 * The member "kl" is what lockdep_assert_held() checks.
 */
#ifndef __LINUX_SPINLOCK_TYPES_H
#define __LINUX_SPINLOCK_TYPES_H

#include <linux/spinlock_types_raw.h>

typedef struct spinlock {
	struct kshim_lock kl;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(lockname)	{ .kl = KSHIM_LOCK_INIT(lockname) }
#define __SPIN_LOCK_INITIALIZER(lockname) __SPIN_LOCK_UNLOCKED(lockname)
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

#include <linux/rwlock_types.h>

#endif
