/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/percpu-rwsem.h: the real one is per-CPU reader counts,
 * rcu_sync and an rcuwait (kernel/locking/percpu-rwsem.c), with lockdep
 * reading its dep_map. Here a percpu_rw_semaphore is a kshim rwsem
 * (linux/rwsem.h), so lockdep_assert_held() and kshim's switch points and
 * owner checks apply to it like to any lock. The API and its semantics
 * (sleeping readers and writer, percpu_is_read_locked()) are the
 * kernel's. Lost: the reader fast path; a waiting writer does not hold
 * off new readers (kshim rwsems never do); see docs/FAKES.md.
 */
#ifndef _LINUX_PERCPU_RWSEM_H
#define _LINUX_PERCPU_RWSEM_H

#include <linux/rwsem.h>
#include <linux/lockdep.h>
#include <kshim/lock.h>
#include <linux/rcuwait.h>	/* as the real one: fs.h reaches linux/uaccess.h through it */

struct percpu_rw_semaphore {
	union {
		struct rw_semaphore	rw_sem;
		struct kshim_lock	kl;	/* lockdep_is_held() */
	};
};

#define __DEFINE_PERCPU_RWSEM(name, is_static)				\
	is_static struct percpu_rw_semaphore name = {			\
		.rw_sem = __RWSEM_INITIALIZER(name),			\
	}
#define DEFINE_PERCPU_RWSEM(name)	__DEFINE_PERCPU_RWSEM(name, /* not static */)
#define DEFINE_STATIC_PERCPU_RWSEM(name) __DEFINE_PERCPU_RWSEM(name, static)

static inline void percpu_down_read(struct percpu_rw_semaphore *sem)
{
	down_read(&sem->rw_sem);
}

static inline bool percpu_down_read_trylock(struct percpu_rw_semaphore *sem)
{
	return down_read_trylock(&sem->rw_sem);
}

static inline void percpu_up_read(struct percpu_rw_semaphore *sem)
{
	up_read(&sem->rw_sem);
}

static inline void percpu_down_write(struct percpu_rw_semaphore *sem)
{
	down_write(&sem->rw_sem);
}

static inline void percpu_up_write(struct percpu_rw_semaphore *sem)
{
	up_write(&sem->rw_sem);
}

static inline bool percpu_is_read_locked(struct percpu_rw_semaphore *sem)
{
	return kshim_lock_held_shared(&sem->kl);
}

static inline bool percpu_is_write_locked(struct percpu_rw_semaphore *sem)
{
	return READ_ONCE(sem->kl.word) & KSHIM_LOCK_WRITER;
}

struct lock_class_key;
static inline int __percpu_init_rwsem(struct percpu_rw_semaphore *sem,
				      const char *name,
				      struct lock_class_key *key)
{
	init_rwsem(&sem->rw_sem);
	return 0;
}
#define percpu_init_rwsem(sem)	__percpu_init_rwsem(sem, #sem, NULL)
static inline void percpu_free_rwsem(struct percpu_rw_semaphore *sem)
{
}

#define percpu_rwsem_is_held(sem)	lockdep_is_held(sem)
#define percpu_rwsem_assert_held(sem)	lockdep_assert_held(sem)

/* lockdep ownership hand-over (freeze/thaw): no lockdep, nothing to move. */
static inline void percpu_rwsem_release(struct percpu_rw_semaphore *sem,
					unsigned long ip)
{
}

static inline void percpu_rwsem_acquire(struct percpu_rw_semaphore *sem,
					bool read, unsigned long ip)
{
}

#endif
