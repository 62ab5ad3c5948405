// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug states (kernel/cpu.c is not compiled): the simulated CPUs
 * are all online from the start and never go away, so a startup callback
 * runs once per CPU now (when the caller asks for it, as the kernel does
 * for CPUs already up) and a teardown callback never runs while the
 * program does (the CPU-dead ones run at exit, below). Unlike the kernel,
 * the startup callback runs in the calling task, not in a hotplug thread
 * bound to each CPU.
 */
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/cpuhotplug.h>
#include <kshim/runtime.h>

#include "kshim_internal.h"

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

/* At exit (kshim_runtime_exit_checks()): every CPU goes down. */
void kshim_cpuhp_run_dead_callbacks(void)
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

/*
 * The same between a fuzz target's inputs: what each CPU cached (the
 * radix tree's preloaded nodes: how many are left depends on what the
 * input inserted) given back, so that an input's live allocations can
 * be compared with the count before it. The CPUs stay up: the caches
 * refill on their next use, as after a CPU comes back.
 */
void kshim_cpu_caches_drain(void)
{
	kshim_cpuhp_run_dead_callbacks();
}
