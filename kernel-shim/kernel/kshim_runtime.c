// SPDX-License-Identifier: GPL-2.0
/*
 * Start-up and exit checks of the runtime, and the kernel globals that
 * kshim defines because the kernel file defining them is not compiled.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/mm.h>
#include <linux/vmstat.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/rcupdate.h>
#include <linux/wait_bit.h>
#include <linux/radix-tree.h>
#include <kshim/host.h>
#include <kshim/sched.h>
#include <kshim/trace.h>
#include <kshim/runtime.h>

#include "kshim_internal.h"

struct kshim_trace_hooks kshim_trace;

/* kshim_workqueue.c: system workqueues and the worker manager. */
void kshim_workqueue_init(void);
void kshim_workqueue_exit(void);
void kshim_workqueue_mark_boot_done(void);

/* mm/vmstat.c is not compiled: the event counters live here. */
DEFINE_PER_CPU(struct vm_event_state, vm_event_states);

void all_vm_events(unsigned long *ret)
{
	int cpu, i;

	memset(ret, 0, NR_VM_EVENT_ITEMS * sizeof(unsigned long));
	for_each_possible_cpu(cpu)
		for (i = 0; i < NR_VM_EVENT_ITEMS; i++)
			ret[i] += per_cpu(vm_event_states, cpu).event[i];
}

unsigned long kshim_vm_event_sum(int item)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(vm_event_states, cpu).event[item]);
	return sum;
}

/*
 * A futex mutex for runtime bookkeeping (Drepper, "Futexes Are Tricky"):
 * 0 free, 1 held, 2 held and maybe waited for. Only an unlock that saw 2
 * makes a system call, so the uncontended path (allocation, call_rcu)
 * costs two atomics. The sections are short: spin briefly first.
 */
void kshim_raw_lock(u32 *word)
{
	u32 c = 0;
	int spin;

	if (__atomic_compare_exchange_n(word, &c, 1, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	for (spin = 0; spin < 100; spin++) {
		__builtin_ia32_pause();
		c = 0;
		if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0 &&
		    __atomic_compare_exchange_n(word, &c, 1, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
	}
	while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE))
		kshim_host_futex_wait(word, 2);
}

void kshim_raw_unlock(u32 *word)
{
	if (__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2)
		kshim_host_futex_wake(word, 1);
}

static u32 init_state;	/* 0 never, 1 running, 2 done */

/*
 * The initcalls of the kernel files linked in (the linker script gathers
 * them in level order), run once the runtime is up, as do_initcalls()
 * runs them after workqueue_init(). What they allocate lives as long as
 * the process, like boot-time memory, and is not reported as a leak.
 */
typedef int (*kshim_initcall_t)(void);
extern kshim_initcall_t __kshim_initcall_start[], __kshim_initcall_end[];

static void kshim_run_initcalls(void)
{
	kshim_initcall_t *fn;

	for (fn = __kshim_initcall_start; fn < __kshim_initcall_end; fn++) {
		int ret = (*fn)();

		if (ret)
			kshim_fatal("initcall %p returned %d", *fn, ret);
	}
	kshim_alloc_mark_boot_done();
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

static void run_dead_callbacks(void);

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
	run_dead_callbacks();
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

/*
 * CPU hotplug states: the simulated CPUs are all online from the start and
 * never go away, so a startup callback runs once per CPU now (when the
 * caller asks for it, as the kernel does for CPUs already up) and a
 * teardown callback never runs while the program does (the CPU-dead ones
 * run at exit, below). Unlike the kernel, the startup callback runs in
 * the calling task, not in a hotplug thread bound to each CPU.
 */
/* Multi-instance states remember their callbacks for later instances. */
static struct {
	int (*startup)(unsigned int cpu, struct hlist_node *node);
	int (*teardown)(unsigned int cpu, struct hlist_node *node);
} cpuhp_multi[CPUHP_ONLINE + 1];

/*
 * The callbacks of the states a CPU passes after it died (before
 * CPUHP_BRINGUP_CPU): they give back what the CPU cached, such as the
 * radix tree's preloaded nodes. At exit kshim runs them for every CPU,
 * newest first, as if the machine took its CPUs down, so that per-CPU
 * caches are not reported as leaks.
 */
#define MAX_DEAD_CALLBACKS	32
static struct {
	const char *name;
	int (*teardown)(unsigned int cpu);
} dead_callbacks[MAX_DEAD_CALLBACKS];
static int nr_dead_callbacks;

static void remember_dead_callback(const char *name,
				   int (*teardown)(unsigned int cpu))
{
	if (nr_dead_callbacks == MAX_DEAD_CALLBACKS)
		kshim_fatal("cpuhp: more than %d CPU-dead callbacks (%s)",
			    MAX_DEAD_CALLBACKS, name);
	dead_callbacks[nr_dead_callbacks].name = name;
	dead_callbacks[nr_dead_callbacks++].teardown = teardown;
}

static void run_dead_callbacks(void)
{
	unsigned int cpu;
	int i;

	for (i = nr_dead_callbacks - 1; i >= 0; i--)
		for_each_possible_cpu(cpu)
			dead_callbacks[i].teardown(cpu);
}

int __cpuhp_setup_state(enum cpuhp_state state, const char *name, bool invoke,
			int (*startup)(unsigned int cpu),
			int (*teardown)(unsigned int cpu), bool multi_instance)
{
	unsigned int cpu;
	int err;

	if (multi_instance) {
		/* The kernel passes the instance callbacks cast to these. */
		if (state <= CPUHP_OFFLINE || state >= CPUHP_ONLINE ||
		    state == CPUHP_AP_ONLINE_DYN || state == CPUHP_BP_PREPARE_DYN)
			kshim_fatal("cpuhp: multi-instance state %d is not a fixed state kshim can record",
				    state);
		cpuhp_multi[state].startup = (void *)startup;
		cpuhp_multi[state].teardown = (void *)teardown;
		return state;
	}
	if (teardown && state < CPUHP_BRINGUP_CPU)
		remember_dead_callback(name, teardown);
	if (!invoke || !startup)
		return 0;
	for_each_online_cpu(cpu) {
		err = startup(cpu);
		if (err)
			return err;
	}
	return 0;
}

int __cpuhp_state_add_instance(enum cpuhp_state state, struct hlist_node *node,
			       bool invoke)
{
	unsigned int cpu;
	int err;

	if (!invoke || !cpuhp_multi[state].startup)
		return 0;
	for_each_online_cpu(cpu) {
		err = cpuhp_multi[state].startup(cpu, node);
		if (err)
			return err;
	}
	return 0;
}

int __cpuhp_state_remove_instance(enum cpuhp_state state,
				  struct hlist_node *node, bool invoke)
{
	unsigned int cpu;

	if (!invoke || !cpuhp_multi[state].teardown)
		return 0;
	for_each_online_cpu(cpu)
		cpuhp_multi[state].teardown(cpu, node);
	return 0;
}

/* ==== Loud stubs: the kernel would do real work here ====================== */

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp)
{
	kshim_unimplemented(__func__);
}

int __devm_add_action(struct device *dev, void (*action)(void *), void *data,
		      const char *name)
{
	kshim_unimplemented(__func__);
}
