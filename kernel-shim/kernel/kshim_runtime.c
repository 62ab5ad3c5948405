// SPDX-License-Identifier: GPL-2.0
/*
 * Start-up and exit of the runtime: each part's init in dependency order,
 * the initcalls of the kernel files linked in, and the exit checks
 * (leaks of objects, pages and per-CPU memory) that fail a test binary.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/wait_bit.h>
#include <linux/radix-tree.h>
#include <kshim/host.h>
#include <kshim/sched.h>
#include <kshim/trace.h>
#include <kshim/runtime.h>

#include "kshim_internal.h"

struct kshim_trace_hooks kshim_trace;

/* init/main.c's boot stage: kernel code a test reaches runs after boot
 * (kswapd_run() only BUG()s on a failure before it). */
enum system_states system_state = SYSTEM_RUNNING;

/* kshim_workqueue.c: system workqueues and the worker manager. */
void kshim_workqueue_init(void);
void kshim_workqueue_exit(void);
void kshim_workqueue_mark_boot_done(void);

static u32 init_state;	/* 0 never, 1 running, 2 done */

/*
 * The initcalls of the kernel files linked in (the linker script gathers
 * them in level order), run once the runtime is up, as do_initcalls()
 * runs them after workqueue_init(). What they allocate lives as long as
 * the process, like boot-time memory, and is not reported as a leak.
 */
typedef int (*kshim_initcall_t)(void);
extern kshim_initcall_t __kshim_initcall_start[], __kshim_initcall_end[];

/*
 * An entry of the gathered initcalls. Under clang's ASan each entry (a
 * global of its own) is followed by a poisoned, zero-filled redzone
 * (gcc leaves variables in named sections alone): the entries are read
 * unchecked and the zeros skipped.
 */
static __no_sanitize_address kshim_initcall_t initcall_at(kshim_initcall_t *p)
{
	return *(kshim_initcall_t volatile *)p;
}

static void kshim_run_initcalls(void)
{
	kshim_initcall_t *p, fn;

	for (p = __kshim_initcall_start; p < __kshim_initcall_end; p++) {
		int ret;

		fn = initcall_at(p);
		if (!fn)
			continue;
		ret = fn();

		if (ret)
			kshim_fatal("initcall %p returned %d", fn, ret);
	}
	kshim_alloc_mark_boot_done();
	kshim_page_mark_boot_done();
	kshim_workqueue_mark_boot_done();
	kshim_percpu_mark_boot_done();
}

void kshim_runtime_init(void)
{
	u32 expected = 0;

	if (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) == 2)
		return;
	if (!__atomic_compare_exchange_n(&init_state, &expected, 1, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) != 2)
			kshim_host_futex_wait(&init_state, 1);
		return;
	}
	kshim_seed_init();
	kshim_printk_init();
	kshim_sched_select();
	kshim_cpus_init();
	kshim_slab_init();
	kshim_page_alloc_init();
	wait_bit_init();	/* kernel/sched/wait_bit.c, as sched_init() calls it */
	__atomic_store_n(&init_state, 2, __ATOMIC_RELEASE);
	kshim_host_futex_wake(&init_state, INT_MAX);
	/* The thread that starts the runtime is the test: task "main". */
	kshim_task_adopt("main");
	kshim_rcu_init();
	kshim_time_init();
	kshim_hung_task_start();
	kshim_workqueue_init();
	radix_tree_init();	/* lib/radix-tree.c, as start_kernel() calls it */
	kshim_run_initcalls();
}

/*
 * End of a test binary: run outstanding RCU callbacks, then every object
 * still allocated is a leak. Returns the number of problems found.
 */
/* mm/swap.c, when linked: folios held by the per-CPU LRU batches are
 * not leaked, only not yet on the LRU. */
extern void lru_add_drain_all(void) __weak;

#define MAX_AT_EXIT	8
static void (*at_exit[MAX_AT_EXIT])(void);
static int nr_at_exit;

void kshim_at_exit(void (*fn)(void))
{
	if (nr_at_exit == MAX_AT_EXIT)
		kshim_fatal("kshim_at_exit: more than %d functions", MAX_AT_EXIT);
	at_exit[nr_at_exit++] = fn;
}

int kshim_runtime_exit_checks(void)
{
	long leaks, pcpu;
	int problems = 0;

	while (nr_at_exit)
		at_exit[--nr_at_exit]();

	if (lru_add_drain_all)
		lru_add_drain_all();	/* queues work: before the workqueues stop */
	kshim_hung_task_stop();
	kshim_workqueue_exit();	/* runs what is queued: timers still tick */
	kshim_time_exit();
	kshim_rcu_exit();
	kshim_cpuhp_run_dead_callbacks();
	leaks = kshim_alloc_report_leaks();
	/* The kmalloc-N caches themselves are host memory, not objects. */
	if (leaks) {
		pr_err("kshim: %ld object(s) leaked\n", leaks);
		problems++;
	}
	if (kshim_page_report_leaks())
		problems++;
	pcpu = kshim_percpu_outstanding();
	if (pcpu) {
		pr_err("kshim: %ld per-CPU allocation(s) leaked\n", pcpu);
		problems++;
	}
	kshim_det_print_summary();
	kshim_task_forget_current();
	return problems;
}
