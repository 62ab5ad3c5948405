/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's linux/spinlock_types_raw.h: a raw spinlock is a kshim_lock. */
#ifndef __LINUX_SPINLOCK_TYPES_RAW_H
#define __LINUX_SPINLOCK_TYPES_RAW_H

#include <kshim/lock.h>
#include <linux/lockdep_types.h>

typedef struct raw_spinlock {
	struct kshim_lock kl;
} raw_spinlock_t;

#define __RAW_SPIN_LOCK_UNLOCKED(lockname) { .kl = KSHIM_LOCK_INIT(lockname) }
#define __RAW_SPIN_LOCK_INITIALIZER(lockname) __RAW_SPIN_LOCK_UNLOCKED(lockname)
#define DEFINE_RAW_SPINLOCK(x)	raw_spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)

#endif
