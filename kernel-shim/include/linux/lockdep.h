/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/lockdep.h: no lock-order validation (the deterministic
 * backend finds deadlocks by running them), but the assertions are real:
 * lockdep_assert_held() and friends check that the current task owns the
 * lock, and the irq/preemption context assertions check the task's state, through the struct kshim_lock every kshim lock type embeds as
 * member "kl". Lost: lockdep's dependency graph, lock_acquire()/
 * lock_release() annotations on pseudo-locks (accepted and ignored),
 * held-for-read by *this* task (only "someone holds it for read").
 */
#ifndef __LINUX_LOCKDEP_H
#define __LINUX_LOCKDEP_H

#include <linux/lockdep_types.h>
#include <kshim/lock.h>
/* The real one reaches linux/string.h (through linux/smp.h, cpumask.h
 * and bitmap.h); linux/maple_tree.h relies on it for memset(). */
#include <linux/string.h>

struct task_struct;

#define lockdep_depth(tsk)	0
#define lockdep_init()		do { } while (0)
#define lockdep_init_task(t)	do { } while (0)
#define lockdep_off()		do { } while (0)
#define lockdep_on()		do { } while (0)
#define lockdep_set_class(lock, key)			do { (void)(key); } while (0)
#define lockdep_set_class_and_name(lock, key, name)	do { (void)(key); } while (0)
#define lockdep_set_class_and_subclass(lock, key, sub)	do { (void)(key); } while (0)
#define lockdep_set_subclass(lock, sub)			do { } while (0)
#define lockdep_set_novalidate_class(lock)		do { } while (0)
#define lockdep_set_notrack_class(lock)			do { } while (0)
#define lockdep_init_map(map, name, key, sub)		do { (void)(key); } while (0)
#define lockdep_init_map_type(m, n, k, s, i, o, t)	do { (void)(k); } while (0)
#define lockdep_init_map_wait(m, n, k, s, i)		do { (void)(k); } while (0)
#define lockdep_copy_map(a, b)				do { } while (0)
#define lockdep_register_key(k)		do { } while (0)
#define lockdep_unregister_key(k)	do { } while (0)
#define lockdep_free_key_range(s, z)	do { } while (0)
#define lockdep_sys_exit()		do { } while (0)
#define lockdep_reset_lock(l)		do { } while (0)
#define lock_acquire(l, s, t, r, c, n, i)	do { } while (0)
#define lock_release(l, i)			do { } while (0)
#define lock_acquire_exclusive(l, s, t, n, i)	do { } while (0)
#define lock_acquire_shared(l, s, t, n, i)	do { } while (0)
#define lock_map_acquire(l)			do { } while (0)
#define lock_map_acquire_read(l)		do { } while (0)
#define lock_map_acquire_try(l)			do { (void)(l); } while (0)
#define lock_map_release(l)			do { } while (0)
#define lock_map_assert_held(l)			do { } while (0)
#define lock_set_class(l, n, k, s, i)		do { } while (0)
#define lock_set_subclass(l, s, i)		do { } while (0)
#define lock_downgrade(l, i)			do { } while (0)
#define lockdep_pin_lock(l)			({ struct pin_cookie cookie = { }; cookie; })
#define lockdep_repin_lock(l, c)		do { (void)(l); (void)(c); } while (0)
#define lockdep_unpin_lock(l, c)		do { (void)(l); (void)(c); } while (0)
#define might_lock(lock)			do { } while (0)
#define might_lock_read(lock)			do { } while (0)
#define might_lock_nested(lock, subclass)	do { } while (0)
#define lockdep_assert_in_irq()			do { } while (0)
#define lockdep_assert_no_hardirq()		do { } while (0)
#define lockdep_assert_none_held_once()		do { } while (0)
#define lockdep_recursing(tsk)			0
#define lockdep_assert_RT_in_threaded_ctx()	do { } while (0)
#define lock_contended(lockdep_map, ip)		do { } while (0)
#define lock_acquired(lockdep_map, ip)		do { } while (0)
#define LOCK_CONTENDED(_lock, try, lock)	lock(_lock)
#define LOCK_CONTENDED_RETURN(_lock, try, lock)	lock(_lock)
#define print_irqtrace_events(t)		do { } while (0)

#define STATIC_LOCKDEP_MAP_INIT(_name, _key)	{ .name = (_name) }
#define DEFINE_WAIT_OVERRIDE_MAP(_name, _wait_type) \
	struct lockdep_map _name = { .name = #_name }

#define SINGLE_DEPTH_NESTING			1

/*
 * Context assertions, checked as CONFIG_PROVE_LOCKING checks them: the
 * interrupt and preemption state is real per task in kshim.
 */
#define lockdep_assert_irqs_enabled()					\
	do { WARN_ON_ONCE(irqs_disabled()); } while (0)
#define lockdep_assert_irqs_disabled()					\
	do { WARN_ON_ONCE(!irqs_disabled()); } while (0)
#define lockdep_assert_preemption_enabled()				\
	do { WARN_ON_ONCE(preempt_count() != 0 || irqs_disabled()); } while (0)
#define lockdep_assert_preemption_disabled()				\
	do { WARN_ON_ONCE(preempt_count() == 0 && !irqs_disabled()); } while (0)
#define lockdep_assert_in_softirq()					\
	do { WARN_ON_ONCE(!in_softirq()); } while (0)

#define lock_acquire_shared_recursive(l, s, t, n, i)	do { } while (0)
#define spin_acquire(l, s, t, i)		do { } while (0)
#define spin_acquire_nest(l, s, t, n, i)	do { } while (0)
#define spin_release(l, i)			do { } while (0)
#define rwlock_acquire(l, s, t, i)		do { } while (0)
#define rwlock_acquire_read(l, s, t, i)		do { } while (0)
#define rwlock_release(l, i)			do { } while (0)
#define seqcount_acquire(l, s, t, i)		do { } while (0)
#define seqcount_acquire_read(l, s, t, i)	do { } while (0)
#define seqcount_release(l, i)			do { } while (0)
#define mutex_acquire(l, s, t, i)		do { } while (0)
#define mutex_acquire_nest(l, s, t, n, i)	do { } while (0)
#define mutex_release(l, i)			do { } while (0)
#define rwsem_acquire(l, s, t, i)		do { } while (0)
#define rwsem_acquire_nest(l, s, t, n, i)	do { } while (0)
#define rwsem_acquire_read(l, s, t, i)		do { } while (0)
#define rwsem_release(l, i)			do { } while (0)
#define lock_map_acquire_tryread(l)		do { } while (0)

/* A lockdep map held: kshim has no lockdep maps. Only lib/maple_tree.c
 * asks (of rcu_callback_map, in an RCU check compiled out). */
#define lock_is_held(m)		(1)

/* What lockdep_assert_held() checks: mode 0 any, 1 write, 2 read. */
#define lockdep_is_held(l)	kshim_lock_held_by_current(&(l)->kl)
#define lockdep_is_held_type(l, r) \
	((r) ? kshim_lock_held_shared(&(l)->kl) : kshim_lock_held_by_current(&(l)->kl))
#define lockdep_assert_held(l)	\
	kshim_lock_assert_held(&(l)->kl, 0, #l, __FILE__, __LINE__)
#define lockdep_assert_held_write(l) \
	kshim_lock_assert_held(&(l)->kl, 1, #l, __FILE__, __LINE__)
#define lockdep_assert_held_read(l) \
	kshim_lock_assert_held(&(l)->kl, 2, #l, __FILE__, __LINE__)
#define lockdep_assert_held_once(l)	lockdep_assert_held(l)
#define lockdep_assert_not_held(l)					\
	WARN_ON(kshim_lock_held_by_current(&(l)->kl))
#define lockdep_assert(c)		WARN_ON(!(c))
#define lockdep_assert_once(c)		WARN_ON_ONCE(!(c))
#define lockdep_assert_held_type(l, r)	lockdep_assert_held(l)

#endif
