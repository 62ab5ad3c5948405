/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A test's own view of lock statistics (kshim/lock.h), per lock instead
 * of per class: one mapping's i_pages lock among every xarray's, the
 * holds of one kind of task (reclaim's) among all.
 *
 * While statistics are on (kshim_lock_stat_enable()), the observer is
 * called for every lock of any class the moment it is taken (RELEASE
 * false; CONTENDED and NS: whether and how long the task waited for it)
 * and, for exclusive holds, the moment it is released (RELEASE true, NS:
 * how long it was held), in the task that took it. It must not take
 * kshim locks. NULL: none.
 */
#ifndef _KSHIM_LOCK_OBSERVER_H
#define _KSHIM_LOCK_OBSERVER_H

#include <linux/types.h>

struct kshim_lock;

extern void (*kshim_lock_observer)(const struct kshim_lock *l, bool release,
				   bool contended, u64 ns);

#endif
