/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's one lock: every kernel lock type (spinlock, rwlock, mutex,
 * rw_semaphore) is a struct kshim_lock underneath, so ownership checks
 * (lockdep_assert_held), the scheduler's switch points and lock statistics
 * are written once. A contended lock sleeps in the backend (futex in the
 * parallel backend) instead of spinning: spinning collapses on 2 cores.
 *
 * The lock word: 0 free, KSHIM_LOCK_WRITER held exclusively, otherwise the
 * number of readers; KSHIM_LOCK_WAITERS on top when a task may be asleep
 * on it (kshim_lock.c).
 */
#ifndef _KSHIM_LOCK_H
#define _KSHIM_LOCK_H

#include <linux/types.h>

struct task_struct;

/*
 * Where a lock was initialised: the lock's class, as lockdep names them,
 * with its lock statistics (like /proc/lock_stat) when they are enabled.
 */
struct kshim_lock_class {
	const char *name;
	const char *file;
	int line;
	/* Statistics (kshim_lock_stat_enable()); all times in clock ns. */
	u64 acquisitions;
	u64 contentions;
	u64 wait_total, wait_max;
	u64 hold_total, hold_max;
	struct kshim_lock_class *next;	/* registered with statistics */
	bool registered;
};

struct kshim_lock {
	u32 word;
	bool rw;			/* ever taken shared: wake all */
	struct task_struct *owner;		/* exclusive holder */
	struct kshim_lock_class *class;	/* NULL until first use, for static
					   initialisers: then one per name */
	const char *name;
	u64 acquired_at;		/* for hold times, when exclusive */
};

#define KSHIM_LOCK_WRITER	0x80000000u
#define KSHIM_LOCK_WAITERS	0x40000000u	/* a task may sleep on it */

enum kshim_lock_kind {
	KSHIM_SPIN,	/* may not sleep while held */
	KSHIM_SLEEP,	/* mutex / rwsem: may sleep while held */
	KSHIM_CPU,	/* a simulated CPU (kshim_cpu_claim()): waiting for
			   it is waiting to be scheduled, not for a lock */
};

#define KSHIM_LOCK_INIT(lockname) { .name = #lockname }

void kshim_lock_init(struct kshim_lock *l, struct kshim_lock_class *c);
void kshim_lock_acquire(struct kshim_lock *l, enum kshim_lock_kind kind);
int kshim_lock_tryacquire(struct kshim_lock *l, enum kshim_lock_kind kind);
void kshim_lock_release(struct kshim_lock *l);
void kshim_lock_acquire_shared(struct kshim_lock *l, enum kshim_lock_kind kind);
int kshim_lock_tryacquire_shared(struct kshim_lock *l, enum kshim_lock_kind kind);
void kshim_lock_release_shared(struct kshim_lock *l);
void kshim_lock_downgrade(struct kshim_lock *l);
bool kshim_lock_is_locked(const struct kshim_lock *l);
bool kshim_lock_is_contended(const struct kshim_lock *l);
bool kshim_lock_held_by_current(const struct kshim_lock *l);
bool kshim_lock_held_shared(const struct kshim_lock *l);
/*
 * Lock statistics per class: acquisitions, contentions, wait and hold
 * times. Off by default (they cost a clock read per lock operation).
 * kshim_lock_stat_print() prints the top classes by total wait time.
 */
void kshim_lock_stat_enable(bool on);
void kshim_lock_stat_reset(void);
void kshim_lock_stat_print(int top);
struct kshim_lock_class *kshim_lock_stat_find(const char *name);

void kshim_lock_assert_held(const struct kshim_lock *l, int mode,
			    const char *expr, const char *file, int line);

/* A lock initialised at this site gets this site as its class. */
#define kshim_lock_init_here(l, lname)					\
do {									\
	static struct kshim_lock_class __kshim_class = {		\
		.name = lname, .file = __FILE__, .line = __LINE__,	\
	};								\
	kshim_lock_init((l), &__kshim_class);				\
} while (0)

#endif
