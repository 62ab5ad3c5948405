// SPDX-License-Identifier: GPL-2.0
/*
 * kshim_lock: the one lock behind spinlock_t, rwlock_t, struct mutex and
 * struct rw_semaphore (see kshim/lock.h), and the kernel lock APIs that
 * are functions rather than macros.
 *
 * The word holds KSHIM_LOCK_WRITER (held exclusively) or a reader count,
 * plus KSHIM_LOCK_WAITERS when a task may be asleep on it. A task that
 * cannot take the lock sets WAITERS and blocks in the backend while the
 * word is unchanged. A release makes the lock free with one atomic
 * exchange and wakes sleepers only if WAITERS was set, touching nothing
 * but the word's address afterwards: the next owner may free the lock
 * (an on-stack completion, a freed object) the moment it is free. A task
 * woken from the wait takes the lock with WAITERS still set, so its own
 * release wakes the next sleeper (as Drepper's "Futexes Are Tricky"
 * mutex does).
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/cpu.h>
#include <linux/string.h>
#include <kshim/host.h>
#include <kshim/lock.h>
#include <kshim/lock_observer.h>
#include <kshim/sched.h>
#include <kshim/runtime.h>
#include "kshim_internal.h"

/* ---- lock statistics ------------------------------------------------------ */

static bool lock_stat_on;
static u32 stat_lock;			/* host-level: guards the class list */
static struct kshim_lock_class *stat_classes;
static struct kshim_lock_class *named_classes;	/* for static initialisers */

void (*kshim_lock_observer)(const struct kshim_lock *l, bool release,
			    bool contended, u64 ns);

static void stat_lock_acquire(void)
{
	kshim_raw_lock(&stat_lock);
}

static void stat_lock_release(void)
{
	kshim_raw_unlock(&stat_lock);
}

/* The class of a lock; statically initialised locks share one per name. */
static struct kshim_lock_class *lock_class(struct kshim_lock *l)
{
	struct kshim_lock_class *c = READ_ONCE(l->class);
	const char *name = l->name ? l->name : "lock";

	if (c)
		return c;
	stat_lock_acquire();
	for (c = named_classes; c; c = c->next)
		if (!strcmp(c->name, name) && !c->file)
			break;
	if (!c) {
		c = kshim_host_alloc(sizeof(*c), 0);
		if (!c)
			kshim_fatal("out of host memory for a lock class");
		memset(c, 0, sizeof(*c));
		c->name = name;
		c->next = named_classes;
		c->registered = true;
		named_classes = c;
	}
	stat_lock_release();
	WRITE_ONCE(l->class, c);
	return c;
}

static void stat_register(struct kshim_lock_class *c)
{
	if (READ_ONCE(c->registered))
		return;
	stat_lock_acquire();
	if (!c->registered) {
		c->next = stat_classes;
		stat_classes = c;
		WRITE_ONCE(c->registered, true);
	}
	stat_lock_release();
}

/* waited: the acquisition was contended, since wait_start. */
static void stat_acquired(struct kshim_lock *l, bool waited, u64 wait_start,
			  bool exclusive)
{
	struct kshim_lock_class *c;
	typeof(kshim_lock_observer) obs;
	u64 now;

	if (likely(!READ_ONCE(lock_stat_on)))
		return;
	c = lock_class(l);
	if (c->file)
		stat_register(c);
	now = kshim_sched->clock_ns();
	__atomic_add_fetch(&c->acquisitions, 1, __ATOMIC_RELAXED);
	obs = READ_ONCE(kshim_lock_observer);
	if (obs)
		obs(l, false, waited, waited ? now - wait_start : 0);
	if (waited) {
		u64 w = now - wait_start, max;

		__atomic_add_fetch(&c->contentions, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&c->wait_total, w, __ATOMIC_RELAXED);
		max = READ_ONCE(c->wait_max);
		while (w > max && !__atomic_compare_exchange_n(&c->wait_max,
					&max, w, 0, __ATOMIC_RELAXED,
					__ATOMIC_RELAXED))
			;
	}
	if (exclusive)
		l->acquired_at = now;
}

static void stat_released(struct kshim_lock *l)
{
	struct kshim_lock_class *c;
	typeof(kshim_lock_observer) obs;
	u64 h, max;

	if (likely(!READ_ONCE(lock_stat_on)) || !l->acquired_at)
		return;
	c = lock_class(l);
	h = kshim_sched->clock_ns() - l->acquired_at;
	l->acquired_at = 0;
	obs = READ_ONCE(kshim_lock_observer);
	if (obs)
		obs(l, true, false, h);
	__atomic_add_fetch(&c->hold_total, h, __ATOMIC_RELAXED);
	max = READ_ONCE(c->hold_max);
	while (h > max && !__atomic_compare_exchange_n(&c->hold_max, &max, h,
					0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

void kshim_lock_stat_enable(bool on)
{
	WRITE_ONCE(lock_stat_on, on);
}

static void stat_clear(struct kshim_lock_class *c)
{
	for (; c; c = c->next) {
		WRITE_ONCE(c->acquisitions, 0);
		WRITE_ONCE(c->contentions, 0);
		WRITE_ONCE(c->wait_total, 0);
		WRITE_ONCE(c->wait_max, 0);
		WRITE_ONCE(c->hold_total, 0);
		WRITE_ONCE(c->hold_max, 0);
	}
}

void kshim_lock_stat_reset(void)
{
	stat_lock_acquire();
	stat_clear(stat_classes);
	stat_clear(named_classes);
	stat_lock_release();
}

struct kshim_lock_class *kshim_lock_stat_find(const char *name)
{
	struct kshim_lock_class *c, *found = NULL;

	stat_lock_acquire();
	for (c = stat_classes; c && !found; c = c->next)
		if (!strcmp(c->name, name))
			found = c;
	for (c = named_classes; c && !found; c = c->next)
		if (!strcmp(c->name, name))
			found = c;
	stat_lock_release();
	return found;
}

struct stat_row {
	const struct kshim_lock_class *c;
	u64 acq, cont, wmax, wtot, hmax, htot;
};

/* Print the classes with the most total wait time, like lock_stat. */
void kshim_lock_stat_print(int top)
{
	struct kshim_lock_class *lists[2], *c;
	struct stat_row *rows;
	int i, j, n = 0, cap = 0;

	stat_lock_acquire();
	lists[0] = stat_classes;
	lists[1] = named_classes;
	for (i = 0; i < 2; i++)
		for (c = lists[i]; c; c = c->next)
			cap++;
	rows = kshim_host_alloc(sizeof(*rows) * (cap ? cap : 1), 0);
	for (i = 0; rows && i < 2; i++)
		for (c = lists[i]; c; c = c->next) {
			/* A snapshot: other tasks keep counting meanwhile. */
			struct stat_row r = {
				.c = c,
				.acq = READ_ONCE(c->acquisitions),
				.cont = READ_ONCE(c->contentions),
				.wmax = READ_ONCE(c->wait_max),
				.wtot = READ_ONCE(c->wait_total),
				.hmax = READ_ONCE(c->hold_max),
				.htot = READ_ONCE(c->hold_total),
			};

			if (!r.acq)
				continue;
			/* Insertion sort by total wait, then acquisitions. */
			for (j = n; j > 0 && (rows[j - 1].wtot < r.wtot ||
			     (rows[j - 1].wtot == r.wtot &&
			      rows[j - 1].acq < r.acq)); j--)
				rows[j] = rows[j - 1];
			rows[j] = r;
			n++;
		}
	stat_lock_release();
	kshim_info("%-40s %10s %10s %12s %12s %12s %12s\n", "class",
		   "acquired", "contended", "wait-max", "wait-total",
		   "hold-max", "hold-total");
	for (i = 0; i < n && i < top; i++) {
		struct stat_row *r = &rows[i];
		char name[64];

		if (r->c->file)
			snprintf(name, sizeof(name), "%s (%s:%d)", r->c->name,
				 kbasename(r->c->file), r->c->line);
		else
			snprintf(name, sizeof(name), "%s", r->c->name);
		kshim_info("%-40.40s %10llu %10llu %12llu %12llu %12llu %12llu\n",
			   name, r->acq, r->cont, r->wmax, r->wtot, r->hmax,
			   r->htot);
	}
	kshim_host_free(rows);
}

/* ---- the lock ----------------------------------------------------------------- */

void kshim_lock_init(struct kshim_lock *l, struct kshim_lock_class *c)
{
	l->word = 0;
	l->owner = NULL;
	l->class = c;
	l->name = c ? c->name : NULL;
	l->acquired_at = 0;
	l->rw = false;
}

#define HOLDERS(w)	((w) & ~KSHIM_LOCK_WAITERS)

static const char *lock_name(const struct kshim_lock *l)
{
	return l->name ? l->name : "lock";
}

/*
 * The lock is busy (word seen): set WAITERS if needed and sleep until the
 * word changes. Returns with the caller to retry from a fresh read.
 */
static void lock_wait(struct kshim_lock *l, u32 seen,
		      enum kshim_lock_kind kind)
{
	struct kshim_task *kt = kshim_task_of(current);

	if (!(seen & KSHIM_LOCK_WAITERS)) {
		if (!__atomic_compare_exchange_n(&l->word, &seen,
						 seen | KSHIM_LOCK_WAITERS, 0,
						 __ATOMIC_SEQ_CST,
						 __ATOMIC_RELAXED))
			return;		/* the word moved: retry */
		seen |= KSHIM_LOCK_WAITERS;
	}
	/* Marked: the hung-task watchdog reads it from another thread. */
	WRITE_ONCE(kt->waiting_for, l);
	kshim_wait_as(&l->word, seen, lock_name(l),
		      kind == KSHIM_SPIN ? KSHIM_WAIT_SPIN :
		      kind == KSHIM_CPU ? KSHIM_WAIT_CPU : KSHIM_WAIT_SLEEP);
	WRITE_ONCE(kt->waiting_for, NULL);
}

/*
 * The locks each task holds, for hang reports (not for ordering). Only
 * the task itself changes them; the hung-task watchdog reads them from
 * another thread, hence the marked stores.
 */
static void held_push(struct kshim_lock *l, unsigned long ip)
{
	struct kshim_task *kt = kshim_task_of(current);

	if (kt->nr_held < KSHIM_HELD_LOCKS_MAX) {
		WRITE_ONCE(kt->held_ip[kt->nr_held], ip);
		WRITE_ONCE(kt->held[kt->nr_held], l);
	}
	WRITE_ONCE(kt->nr_held, kt->nr_held + 1);
}

static void held_pop(struct kshim_lock *l)
{
	struct kshim_task *kt = kshim_task_of(current);
	int i, j, n = min(kt->nr_held, KSHIM_HELD_LOCKS_MAX);

	for (i = n - 1; i >= 0; i--)
		if (kt->held[i] == l) {
			for (j = i; j < n - 1; j++) {
				WRITE_ONCE(kt->held[j], kt->held[j + 1]);
				WRITE_ONCE(kt->held_ip[j], kt->held_ip[j + 1]);
			}
			break;
		}
	/* A lock released by another task than its taker is not ours. */
	if (i >= 0 || kt->nr_held > KSHIM_HELD_LOCKS_MAX)
		WRITE_ONCE(kt->nr_held, kt->nr_held - 1);
}

/* A call site as function (file:line), inlined frames included. */
static char *site(unsigned long ip, char *buf, unsigned long size)
{
	if (!ip)
		return strscpy(buf, "?", size), buf;
	kshim_host_where((void *)ip, buf, size);
	if (!buf[0])
		snprintf(buf, size, "%px", (void *)ip);
	return buf;
}

/* Where current took L, if it holds it; 0 if not (or not recorded). */
static unsigned long taken_at(struct kshim_lock *l)
{
	struct kshim_task *kt = kshim_task_of(current);
	int i;

	for (i = min(kt->nr_held, KSHIM_HELD_LOCKS_MAX) - 1; i >= 0; i--)
		if (kt->held[i] == l)
			return kt->held_ip[i];
	return 0;
}

void kshim_lock_print_held(struct kshim_task *kt)
{
	int i, n = min(READ_ONCE(kt->nr_held), KSHIM_HELD_LOCKS_MAX);
	char where[256];

	/*
	 * The task may still take and drop locks (the parallel backend's
	 * watchdog reads another thread's): a racy snapshot, read with the
	 * marked accesses held_push()/held_pop() write with.
	 */
	for (i = 0; i < n; i++) {
		struct kshim_lock *h = READ_ONCE(kt->held[i]);

		if (h)
			pr_err("      holds %s, taken at %s\n", lock_name(h),
			       site(READ_ONCE(kt->held_ip[i]), where,
				    sizeof(where)));
	}
}

/* As lockdep's "possible recursive locking detected": both sites. */
static void check_recursion(struct kshim_lock *l, unsigned long ip)
{
	char first[256], again[256];

	if (READ_ONCE(l->owner) != current)
		return;
	pr_err("kshim: recursive locking: %s takes %s, which it holds\n",
	       current->comm, lock_name(l));
	pr_err("  taken at: %s\n", site(taken_at(l), first, sizeof(first)));
	pr_err("  and again at: %s\n", site(ip, again, sizeof(again)));
	kshim_fatal("recursive locking: %s already held by %s",
		    lock_name(l), current->comm);
}

static int lock_tryacquire_at(struct kshim_lock *l, unsigned long ip)
{
	u32 free = 0;

	kshim_switch_point(KSHIM_SW_LOCK_ACQUIRE, l);
	if (!__atomic_compare_exchange_n(&l->word, &free, KSHIM_LOCK_WRITER, 0,
					 __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		return 0;
	WRITE_ONCE(l->owner, current);
	held_push(l, ip);
	stat_acquired(l, false, 0, true);
	return 1;
}

/* Not inlined: _RET_IP_ is the caller's site (spin_trylock() is a macro). */
noinline int kshim_lock_tryacquire(struct kshim_lock *l,
				   enum kshim_lock_kind kind)
{
	return lock_tryacquire_at(l, _RET_IP_);
}

static void lock_acquire_at(struct kshim_lock *l, enum kshim_lock_kind kind,
			    unsigned long ip)
{
	u64 wait_start = 0;
	bool waited = false;

	if (kind == KSHIM_SLEEP)
		might_sleep();
	check_recursion(l, ip);
	kshim_switch_point(KSHIM_SW_LOCK_ACQUIRE, l);
	for (;;) {
		u32 seen = __atomic_load_n(&l->word, __ATOMIC_RELAXED);

		if (!HOLDERS(seen)) {
			/* After a wait, keep WAITERS: others may sleep. */
			u32 new = KSHIM_LOCK_WRITER |
				  (waited ? KSHIM_LOCK_WAITERS : 0) |
				  (seen & KSHIM_LOCK_WAITERS);

			if (__atomic_compare_exchange_n(&l->word, &seen, new,
							0, __ATOMIC_SEQ_CST,
							__ATOMIC_RELAXED))
				break;
			continue;
		}
		if (!waited)
			wait_start = READ_ONCE(lock_stat_on) ?
				     kshim_sched->clock_ns() : 0;
		waited = true;
		lock_wait(l, seen, kind);
	}
	WRITE_ONCE(l->owner, current);
	held_push(l, ip);
	stat_acquired(l, waited, wait_start, true);
}

/* Not inlined: _RET_IP_ is the caller's site (spin_lock() is a macro). */
noinline void kshim_lock_acquire(struct kshim_lock *l,
				 enum kshim_lock_kind kind)
{
	lock_acquire_at(l, kind, _RET_IP_);
}

void kshim_lock_release(struct kshim_lock *l)
{
	bool rw = READ_ONCE(l->rw);
	u32 old;

	if (HOLDERS(READ_ONCE(l->word)) != KSHIM_LOCK_WRITER)
		kshim_fatal("unlock of %s, which is not held exclusively",
			    lock_name(l));
	if (READ_ONCE(l->owner) != current)
		kshim_report("%s released by %s, but held by another task",
			     lock_name(l), current->comm);
	stat_released(l);
	WRITE_ONCE(l->owner, NULL);
	held_pop(l);
	old = __atomic_exchange_n(&l->word, 0, __ATOMIC_SEQ_CST);
	/* l may be gone now: only its address is used below. */
	if (old & KSHIM_LOCK_WAITERS)
		kshim_wake(&l->word, rw ? INT_MAX : 1);
	kshim_switch_point(KSHIM_SW_LOCK_RELEASE, l);
}

static int lock_tryacquire_shared_at(struct kshim_lock *l, unsigned long ip)
{
	u32 seen = __atomic_load_n(&l->word, __ATOMIC_RELAXED);

	WRITE_ONCE(l->rw, true);
	kshim_switch_point(KSHIM_SW_LOCK_ACQUIRE, l);
	while (!(seen & KSHIM_LOCK_WRITER)) {
		if (__atomic_compare_exchange_n(&l->word, &seen, seen + 1, 0,
						__ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED)) {
			held_push(l, ip);
			stat_acquired(l, false, 0, false);
			return 1;
		}
	}
	return 0;
}

noinline int kshim_lock_tryacquire_shared(struct kshim_lock *l,
					  enum kshim_lock_kind kind)
{
	return lock_tryacquire_shared_at(l, _RET_IP_);
}

static void lock_acquire_shared_at(struct kshim_lock *l,
				   enum kshim_lock_kind kind, unsigned long ip)
{
	u64 wait_start = 0;
	bool waited = false;

	if (kind == KSHIM_SLEEP)
		might_sleep();
	WRITE_ONCE(l->rw, true);
	kshim_switch_point(KSHIM_SW_LOCK_ACQUIRE, l);
	for (;;) {
		u32 seen = __atomic_load_n(&l->word, __ATOMIC_RELAXED);

		if (!(seen & KSHIM_LOCK_WRITER)) {
			u32 new = (seen + 1) |
				  (waited ? KSHIM_LOCK_WAITERS : 0);

			if (__atomic_compare_exchange_n(&l->word, &seen, new,
							0, __ATOMIC_SEQ_CST,
							__ATOMIC_RELAXED)) {
				held_push(l, ip);
				stat_acquired(l, waited, wait_start, false);
				return;
			}
			continue;
		}
		if (!waited)
			wait_start = READ_ONCE(lock_stat_on) ?
				     kshim_sched->clock_ns() : 0;
		waited = true;
		lock_wait(l, seen, kind);
	}
}

noinline void kshim_lock_acquire_shared(struct kshim_lock *l,
					enum kshim_lock_kind kind)
{
	lock_acquire_shared_at(l, kind, _RET_IP_);
}

void kshim_lock_release_shared(struct kshim_lock *l)
{
	u32 old = __atomic_load_n(&l->word, __ATOMIC_RELAXED), new;

	held_pop(l);
	do {
		if (!HOLDERS(old) || (old & KSHIM_LOCK_WRITER))
			kshim_fatal("read-unlock of %s, which is not read-held",
				    lock_name(l));
		new = old - 1;
		/* The last reader frees the lock, waiters bit and all. */
		if (!HOLDERS(new))
			new = 0;
	} while (!__atomic_compare_exchange_n(&l->word, &old, new, 0,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	/* l may be gone now: only its address is used below. */
	if (!new && (old & KSHIM_LOCK_WAITERS))
		kshim_wake(&l->word, INT_MAX);
	kshim_switch_point(KSHIM_SW_LOCK_RELEASE, l);
}

void kshim_lock_downgrade(struct kshim_lock *l)
{
	u32 old;

	if (READ_ONCE(l->owner) != current)
		kshim_fatal("downgrade of %s, not held for write by %s",
			    lock_name(l), current->comm);
	WRITE_ONCE(l->owner, NULL);
	WRITE_ONCE(l->rw, true);
	old = __atomic_exchange_n(&l->word, 1, __ATOMIC_SEQ_CST);
	/* Readers may now share it; writers go back to sleep. */
	if (old & KSHIM_LOCK_WAITERS)
		kshim_wake(&l->word, INT_MAX);
}

bool kshim_lock_is_locked(const struct kshim_lock *l)
{
	return HOLDERS(__atomic_load_n(&l->word, __ATOMIC_RELAXED)) != 0;
}

bool kshim_lock_is_contended(const struct kshim_lock *l)
{
	return __atomic_load_n(&l->word, __ATOMIC_RELAXED) &
	       KSHIM_LOCK_WAITERS;
}

bool kshim_lock_held_by_current(const struct kshim_lock *l)
{
	u32 w = HOLDERS(__atomic_load_n(&l->word, __ATOMIC_RELAXED));

	if (w == KSHIM_LOCK_WRITER)
		return READ_ONCE(l->owner) == current;
	/* Readers are not tracked per task: any reader counts (FAKES.md). */
	return w != 0;
}

bool kshim_lock_held_shared(const struct kshim_lock *l)
{
	u32 w = HOLDERS(__atomic_load_n(&l->word, __ATOMIC_RELAXED));

	return w != 0 && !(w & KSHIM_LOCK_WRITER);
}

void kshim_lock_assert_held(const struct kshim_lock *l, int mode,
			    const char *expr, const char *file, int line)
{
	u32 w = HOLDERS(__atomic_load_n(&l->word, __ATOMIC_RELAXED));
	bool ok;

	switch (mode) {
	case 1:		/* held for write, by us */
		ok = w == KSHIM_LOCK_WRITER && READ_ONCE(l->owner) == current;
		break;
	case 2:		/* held for read */
		ok = w != 0 && !(w & KSHIM_LOCK_WRITER);
		break;
	default:
		ok = kshim_lock_held_by_current(l);
	}
	if (!ok)
		kshim_report("lockdep_assert_held%s(%s) failed at %s:%d: %s",
			     mode == 1 ? "_write" : mode == 2 ? "_read" : "",
			     expr, file, line,
			     w == 0 ? "not held" : "held by another task");
}

/* ---- the kernel's lock functions ---------------------------------------- */

/* Each records its caller (_RET_IP_) as where the lock was taken. */
void mutex_lock(struct mutex *lock)
{
	lock_acquire_at(&lock->kl, KSHIM_SLEEP, _RET_IP_);
}

/* No signals are ever delivered to kshim tasks: these always succeed. */
int mutex_lock_interruptible(struct mutex *lock)
{
	lock_acquire_at(&lock->kl, KSHIM_SLEEP, _RET_IP_);
	return 0;
}

int mutex_lock_killable(struct mutex *lock)
{
	lock_acquire_at(&lock->kl, KSHIM_SLEEP, _RET_IP_);
	return 0;
}

int mutex_trylock(struct mutex *lock)
{
	return lock_tryacquire_at(&lock->kl, _RET_IP_);
}

void mutex_unlock(struct mutex *lock)
{
	kshim_lock_release(&lock->kl);
}

int atomic_dec_and_mutex_lock(atomic_t *cnt, struct mutex *lock)
{
	if (atomic_add_unless(cnt, -1, 1))
		return 0;
	lock_acquire_at(&lock->kl, KSHIM_SLEEP, _RET_IP_);
	if (!atomic_dec_and_test(cnt)) {
		mutex_unlock(lock);
		return 0;
	}
	return 1;
}

void down_read(struct rw_semaphore *sem)
{
	lock_acquire_shared_at(&sem->kl, KSHIM_SLEEP, _RET_IP_);
}

int down_read_interruptible(struct rw_semaphore *sem)
{
	lock_acquire_shared_at(&sem->kl, KSHIM_SLEEP, _RET_IP_);
	return 0;
}

int down_read_killable(struct rw_semaphore *sem)
{
	lock_acquire_shared_at(&sem->kl, KSHIM_SLEEP, _RET_IP_);
	return 0;
}

int down_read_trylock(struct rw_semaphore *sem)
{
	return lock_tryacquire_shared_at(&sem->kl, _RET_IP_);
}

void up_read(struct rw_semaphore *sem)
{
	kshim_lock_release_shared(&sem->kl);
}

void down_write(struct rw_semaphore *sem)
{
	lock_acquire_at(&sem->kl, KSHIM_SLEEP, _RET_IP_);
}

int down_write_killable(struct rw_semaphore *sem)
{
	lock_acquire_at(&sem->kl, KSHIM_SLEEP, _RET_IP_);
	return 0;
}

int down_write_trylock(struct rw_semaphore *sem)
{
	return lock_tryacquire_at(&sem->kl, _RET_IP_);
}

void up_write(struct rw_semaphore *sem)
{
	kshim_lock_release(&sem->kl);
}

void downgrade_write(struct rw_semaphore *sem)
{
	kshim_lock_downgrade(&sem->kl);
}

int _atomic_dec_and_lock(atomic_t *atomic, spinlock_t *lock)
{
	if (atomic_add_unless(atomic, -1, 1))
		return 0;
	spin_lock(lock);
	if (atomic_dec_and_test(atomic))
		return 1;
	spin_unlock(lock);
	return 0;
}

int _atomic_dec_and_lock_irqsave(atomic_t *atomic, spinlock_t *lock,
				 unsigned long *flags)
{
	if (atomic_add_unless(atomic, -1, 1))
		return 0;
	spin_lock_irqsave(lock, *flags);
	if (atomic_dec_and_test(atomic))
		return 1;
	spin_unlock_irqrestore(lock, *flags);
	return 0;
}

int _atomic_dec_and_raw_lock(atomic_t *atomic, raw_spinlock_t *lock)
{
	return _atomic_dec_and_lock(atomic, (spinlock_t *)lock);
}

int __cond_resched_lock(struct spinlock *lock)
{
	kshim_switch_point(KSHIM_SW_COND_RESCHED, lock);
	return 0;
}

/* CPU hotplug never happens; the hotplug lock is still a real rwsem. */
static DECLARE_RWSEM(cpu_hotplug_lock);

void cpus_read_lock(void)
{
	down_read(&cpu_hotplug_lock);
}

void cpus_read_unlock(void)
{
	up_read(&cpu_hotplug_lock);
}

int cpus_read_trylock(void)
{
	return down_read_trylock(&cpu_hotplug_lock);
}

void cpus_write_lock(void)
{
	down_write(&cpu_hotplug_lock);
}

void cpus_write_unlock(void)
{
	up_write(&cpu_hotplug_lock);
}
