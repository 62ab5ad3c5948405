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
	urcu_memb_read_unlock();
}

void kshim_host_synchronize_rcu(void)
{
	urcu_memb_synchronize_rcu();
}
