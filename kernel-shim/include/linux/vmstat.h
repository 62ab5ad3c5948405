/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/vmstat.h: VM event counters (the real vm_event_item.h
 * enum) as real per-CPU counters, summed by all_vm_events(), so tests can
 * assert e.g. SLABS_SCANNED. Zone and node page-state counters (which need
 * mmzone.h) are not here yet.
 */
#ifndef _LINUX_VMSTAT_H
#define _LINUX_VMSTAT_H

#include <linux/types.h>
#include <linux/percpu.h>
#include <linux/vm_event_item.h>
#include <linux/atomic.h>

struct vm_event_state {
	unsigned long event[NR_VM_EVENT_ITEMS];
};

DECLARE_PER_CPU(struct vm_event_state, vm_event_states);

static inline void __count_vm_event(enum vm_event_item item)
{
	raw_cpu_inc(vm_event_states.event[item]);
}
static inline void count_vm_event(enum vm_event_item item)
{
	this_cpu_inc(vm_event_states.event[item]);
}
static inline void __count_vm_events(enum vm_event_item item, long delta)
{
	raw_cpu_add(vm_event_states.event[item], delta);
}
static inline void count_vm_events(enum vm_event_item item, long delta)
{
	this_cpu_add(vm_event_states.event[item], delta);
}

void all_vm_events(unsigned long *ret);
unsigned long kshim_vm_event_sum(enum vm_event_item item);

#endif
