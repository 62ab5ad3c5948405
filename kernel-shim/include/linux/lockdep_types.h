/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/lockdep_types.h: lockdep is off (CONFIG_LOCKDEP unset),
 * as in the kernel's own !LOCKDEP build, but a lock_class_key has a size
 * so that distinct keys have distinct addresses. Ownership is checked by
 * kshim's locks themselves (kshim/lock.h), not through lockdep maps.
 */
#ifndef __LINUX_LOCKDEP_TYPES_H
#define __LINUX_LOCKDEP_TYPES_H

#include <linux/types.h>

#define MAX_LOCKDEP_SUBCLASSES		8UL

enum lockdep_wait_type {
	LD_WAIT_INV = 0,
	LD_WAIT_FREE,
	LD_WAIT_SPIN,
	LD_WAIT_CONFIG = LD_WAIT_SPIN,
	LD_WAIT_SLEEP,
	LD_WAIT_MAX,
};

enum lockdep_lock_type {
	LD_LOCK_NORMAL = 0,
	LD_LOCK_PERCPU,
	LD_LOCK_WAIT_OVERRIDE,
	LD_LOCK_MAX,
};

struct lock_class_key { char kshim_unused; };
struct lockdep_map { const char *name; };
struct pin_cookie { };

#define lockdep_match_class(lock, key)	1

#endif
