// SPDX-License-Identifier: GPL-2.0
/*
 * The VM statistics that the real mm/ files count (mm/vmstat.c, which
 * keeps them, is not compiled): the event counters (PGSCAN_*,
 * PGSTEAL_*...: count_vm_event()), per CPU and summed when read as the
 * kernel does (the per-CPU adds are atomic: asm/percpu.h; the sums
 * here load each CPU's count atomically), and the zone and node page-state counters (NR_FILE_DIRTY,
 * NR_WRITEBACK...: mod_node_page_state()). Listed in docs/FAKES.md.
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
			ret[i] += __atomic_load_n(
				&per_cpu(vm_event_states, cpu).event[i],
				__ATOMIC_RELAXED);
}

unsigned long kshim_vm_event_sum(int item)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += __atomic_load_n(&per_cpu(vm_event_states, cpu).event[item],
				       __ATOMIC_RELAXED);
	return sum;
}

/*
 * Zone and node page-state counters. Exact atomic counters: no per-CPU deltas or thresholds, so a counter
 * never lags. */

void __mod_zone_page_state(struct zone *zone, enum zone_stat_item item,
			   long delta)
{
	zone_page_state_add(delta, zone, item);
}

void mod_zone_page_state(struct zone *zone, enum zone_stat_item item,
			 long delta)
{
	zone_page_state_add(delta, zone, item);
}

void __mod_node_page_state(struct pglist_data *pgdat,
			   enum node_stat_item item, long delta)
{
	if (vmstat_item_in_bytes(item)) {
		VM_WARN_ON_ONCE(delta & (PAGE_SIZE - 1));
		delta >>= PAGE_SHIFT;
	}
	node_page_state_add(delta, pgdat, item);
}

void mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item item,
			 long delta)
{
	__mod_node_page_state(pgdat, item, delta);
}

void __inc_zone_page_state(struct page *page, enum zone_stat_item item)
{
	__mod_zone_page_state(page_zone(page), item, 1);
}

void __dec_zone_page_state(struct page *page, enum zone_stat_item item)
{
	__mod_zone_page_state(page_zone(page), item, -1);
}

void inc_zone_page_state(struct page *page, enum zone_stat_item item)
{
	__mod_zone_page_state(page_zone(page), item, 1);
}

void dec_zone_page_state(struct page *page, enum zone_stat_item item)
{
	__mod_zone_page_state(page_zone(page), item, -1);
}

void __inc_node_page_state(struct page *page, enum node_stat_item item)
{
	__mod_node_page_state(page_pgdat(page), item, 1);
}

void __dec_node_page_state(struct page *page, enum node_stat_item item)
{
	__mod_node_page_state(page_pgdat(page), item, -1);
}

void inc_node_page_state(struct page *page, enum node_stat_item item)
{
	__mod_node_page_state(page_pgdat(page), item, 1);
}

void dec_node_page_state(struct page *page, enum node_stat_item item)
{
	__mod_node_page_state(page_pgdat(page), item, -1);
}

void __inc_zone_state(struct zone *zone, enum zone_stat_item item)
{
	zone_page_state_add(1, zone, item);
}

void __dec_zone_state(struct zone *zone, enum zone_stat_item item)
{
	zone_page_state_add(-1, zone, item);
}

void dec_zone_state(struct zone *zone, enum zone_stat_item item)
{
	zone_page_state_add(-1, zone, item);
}

void __inc_node_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	__mod_node_page_state(pgdat, item, 1);
}

void inc_node_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	__mod_node_page_state(pgdat, item, 1);
}

void __dec_node_state(struct pglist_data *pgdat, enum node_stat_item item)
{
	__mod_node_page_state(pgdat, item, -1);
}

/*
 * kswapd raises the per-CPU thresholds while it runs (pressure) and
 * restores them before it sleeps (normal), so that NR_FREE_PAGES drifts
 * less while it is near a watermark. kshim's counters have no per-CPU
 * deltas (above), hence no thresholds: nothing to set.
 */
int calculate_pressure_threshold(struct zone *zone)
{
	return 0;
}

int calculate_normal_threshold(struct zone *zone)
{
	return 0;
}

void set_pgdat_percpu_threshold(pg_data_t *pgdat,
				int (*calculate_pressure)(struct zone *))
{
}
