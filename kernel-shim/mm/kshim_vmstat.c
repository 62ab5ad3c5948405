// SPDX-License-Identifier: GPL-2.0
/*
 * The VM event counters (PGSCAN_*, PGSTEAL_*...) that the real mm/ files
 * count with count_vm_event(): mm/vmstat.c, which defines them, is not
 * compiled. Per CPU, summed when read, as the kernel does.
 */
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/mm.h>
#include <linux/vmstat.h>
#include <kshim/runtime.h>

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
