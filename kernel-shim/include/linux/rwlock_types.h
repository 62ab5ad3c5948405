/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's linux/rwlock_types.h: rwlock_t over kshim_lock (shared mode for readers). */
#ifndef __LINUX_RWLOCK_TYPES_H
#define __LINUX_RWLOCK_TYPES_H

#include <kshim/lock.h>

typedef struct {
	struct kshim_lock kl;
} rwlock_t;

#define __RW_LOCK_UNLOCKED(lockname)	{ .kl = KSHIM_LOCK_INIT(lockname) }
#define DEFINE_RWLOCK(x)	rwlock_t x = __RW_LOCK_UNLOCKED(x)

#endif
