// SPDX-License-Identifier: GPL-2.0
/*
 * RCU for the parallel backend: liburcu's memb flavour (no signals, works
 * under valgrind and TSan). Every thread that runs kernel code registers
 * when it becomes a kshim task. Callbacks are not liburcu's: kshim queues
 * them itself (kshim_rcu.c) so the deterministic backend can replace only
 * the grace-period wait.
 */
#define _LGPL_SOURCE
#include <urcu/urcu-memb.h>

#include "kshim/host.h"

/*
 * ThreadSanitizer cannot see the ordering a grace period gives (liburcu
 * orders readers with membarrier(), which TSan does not model), so every
 * free after synchronize_rcu() of an object a reader had touched would be
 * reported as a race. Tell it: the end of every read-side section
 * releases, the end of a grace period acquires. This is the real RCU
 * guarantee (over-approximated: a reader that ended after the grace period
 * began also counts), not a suppression of a race.
 */
#if defined(__SANITIZE_THREAD__)
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
static char rcu_tsan_sync;
#define rcu_tsan_release()	__tsan_release(&rcu_tsan_sync)
#define rcu_tsan_acquire()	__tsan_acquire(&rcu_tsan_sync)
#else
#define rcu_tsan_release()	do { } while (0)
#define rcu_tsan_acquire()	do { } while (0)
#endif

void kshim_host_rcu_register(void)
{
	urcu_memb_register_thread();
}

void kshim_host_rcu_unregister(void)
{
	urcu_memb_unregister_thread();
}

void kshim_host_rcu_read_lock(void)
{
	urcu_memb_read_lock();
}

void kshim_host_rcu_read_unlock(void)
{
	rcu_tsan_release();
	urcu_memb_read_unlock();
}

void kshim_host_synchronize_rcu(void)
{
	urcu_memb_synchronize_rcu();
	rcu_tsan_acquire();
}
