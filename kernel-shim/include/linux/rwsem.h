/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/rwsem.h: read-write semaphores as sleeping kshim_locks in
 * shared (readers) or exclusive (writer) mode. Lost: the kernel's writer
 * optimistic spinning and reader/writer handoff policy; a waiting writer
 * does not hold off new readers here.
 */
#ifndef _LINUX_RWSEM_H
#define _LINUX_RWSEM_H

#include <linux/linkage.h>
#include <linux/types.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/cleanup.h>

struct rw_semaphore {
	struct kshim_lock kl;
};

#define __RWSEM_INITIALIZER(name)	{ .kl = KSHIM_LOCK_INIT(name) }
#define DECLARE_RWSEM(name) \
	struct rw_semaphore name = __RWSEM_INITIALIZER(name)
#define init_rwsem(sem)		kshim_lock_init_here(&(sem)->kl, #sem)

void down_read(struct rw_semaphore *sem);
int down_read_interruptible(struct rw_semaphore *sem);
int down_read_killable(struct rw_semaphore *sem);
int down_read_trylock(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
int down_write_killable(struct rw_semaphore *sem);
int down_write_trylock(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
void downgrade_write(struct rw_semaphore *sem);
#define down_read_nested(sem, subclass)		down_read(sem)
#define down_read_killable_nested(sem, s)	down_read_killable(sem)
#define down_write_nested(sem, subclass)	down_write(sem)
#define down_write_killable_nested(sem, s)	down_write_killable(sem)
#define down_write_nest_lock(sem, nl)		down_write(sem)
#define down_read_non_owner(sem)		down_read(sem)
#define up_read_non_owner(sem)			up_read(sem)

#define rwsem_is_locked(sem)	kshim_lock_is_locked(&(sem)->kl)
#define rwsem_is_contended(sem)	kshim_lock_is_contended(&(sem)->kl)
#define rwsem_assert_held(sem)	lockdep_assert_held(sem)
#define rwsem_assert_held_write(sem)	lockdep_assert_held_write(sem)
/*
 * The kernel's _nolockdep asserts check the count only: held (for write),
 * by anyone. XFS relies on it when a btree split runs in a worker on
 * behalf of the task that holds the ILOCK (xfs_assert_ilocked()).
 */
#define rwsem_assert_held_nolockdep(sem) \
	WARN_ON(!kshim_lock_is_locked(&(sem)->kl))
#define rwsem_assert_held_write_nolockdep(sem) \
	WARN_ON(!kshim_lock_is_locked(&(sem)->kl) || \
		kshim_lock_held_shared(&(sem)->kl))

DEFINE_GUARD(rwsem_read, struct rw_semaphore *, down_read(_T), up_read(_T))
DEFINE_GUARD_COND(rwsem_read, _try, down_read_trylock(_T))
DEFINE_GUARD(rwsem_write, struct rw_semaphore *, down_write(_T), up_write(_T))
DEFINE_GUARD_COND(rwsem_write, _try, down_write_trylock(_T))

#endif
