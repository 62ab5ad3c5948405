// SPDX-License-Identifier: GPL-2.0
/*
 * Finding (a use after free, on a preemptible kernel): the unmount frees
 * the per-CPU inodegc structures while one of their delayed_work timers
 * is still armed; one jiffy later the timer fires into freed memory.
 *
 * Found by the generator's crash test (test_xfs_fsstress_crash,
 * test_forced_shutdown_in_the_middle), in a det sweep for another failure
 * of that test: seed 2399 of 1..4000 crashed with a SIGSEGV in
 * __queue_work() from delayed_work_timer_fn(), wq NULL, on the next
 * mount's fresh xfs_inodegc. kshim's free check, as
 * CONFIG_DEBUG_OBJECTS_TIMERS' (kshim_timer_check_free()), now reports it
 * where it happens:
 *	ODEBUG: free active ... object type: timer_list
 *		hint: delayed_work_timer_fn
 *	ODEBUG: the timer is the delayed_work of xfs_inodegc_worker
 *	free_percpu < xfs_inodegc_free_percpu < xfs_fs_put_super
 *	< generic_shutdown_super < kill_block_super < xfs_kill_sb
 *
 * The mechanism (gdb on gc->work at seed 2399, jiffies J):
 *  1. J+1: the timer runs and queues the inodegc work; a kworker of CPU 0
 *     takes it off the queue, clearing PENDING (process_one_work()), and is
 *     preempted before xfs_inodegc_worker() starts;
 *  2. an inode eviction on CPU 0 (xfs_inodegc_queue()) adds its inode to
 *     gc->list and calls mod_delayed_work_on(.., 1): PENDING is free, so
 *     the timer is armed again, for J+2;
 *  3. the kworker goes on: xfs_inodegc_worker()'s llist_del_all() takes
 *     the whole list, that inode too. The list is empty, the timer armed;
 *  4. the unmount, in the same jiffy (a shut-down filesystem writes
 *     nothing): xfs_inodegc_stop() queues only the CPUs whose list is not
 *     empty and flushes the workqueue, which does not wait for a timer;
 *     xfs_fs_put_super() frees mp->m_inodegc with the timer armed, and
 *     destroy_workqueue() frees the workqueue it would queue on.
 * Step 1's preemption needs CONFIG_PREEMPT (or PREEMPT_RT, or
 * preempt=full): kshim lets a task take a CPU wherever a kworker is
 * outside an atomic section, as a preemptible kernel does. A fix would
 * cancel each CPU's gc->work (cancel_delayed_work_sync()) once
 * xfs_inodegc_stop()'s loop is done.
 *
 * This binary is test_xfs_fsstress_crash.c itself, built with the report
 * not known (FSSTRESS_CRASH_FINDING_INODEGC_TIMER); the crash test names
 * it with kshim_test_known_warn() and goes on. Which seed shows it depends
 * on every scheduling decision before it; when it is no longer caught,
 * sweep wider (-t test_forced_shutdown_in_the_middle --seeds 1..5000
 * --jobs 2: about 2 minutes) and move the range in tests/meson.build.
 */
#define FSSTRESS_CRASH_FINDING_INODEGC_TIMER 1
#include "../unit/test_xfs_fsstress_crash.c"
