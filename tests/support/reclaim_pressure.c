// SPDX-License-Identifier: GPL-2.0
/* Memory pressure for the page-reclaim tests (reclaim_pressure.h). */
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/xarray.h>
#include <linux/slab.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/trace.h>
#include <kshim/vmscan.h>
#include "reclaim_pressure.h"

static LIST_HEAD(filler);

void reclaim_pressure_start(unsigned long wmark_min,
			    void (*on_write)(struct folio *folio))
{
	struct kshim_vmscan_config cfg = {
		.limit = kshim_mem_used_bytes() + 2 * wmark_min,
		.wmark_min = wmark_min,
	};

	kshim_trace_set(mm_vmscan_write_folio, on_write);
	kshim_vmscan_start(&cfg);
	while (kshim_vmscan_free_bytes() > (long)(wmark_min + PAGE_SIZE)) {
		struct list_head *p = kmalloc(PAGE_SIZE, __GFP_NOWARN);

		KSHIM_ASSERT_FATAL(p != NULL);
		list_add(p, &filler);
	}
}

void reclaim_pressure_stop(void)
{
	struct list_head *p, *n;

	kshim_vmscan_stop();
	kshim_trace_set(mm_vmscan_write_folio, NULL);
	list_for_each_safe(p, n, &filler) {
		list_del(p);
		kfree(p);
	}
}

unsigned long reclaim_count_folios(struct address_space *mapping,
				   bool (*test)(const struct folio *))
{
	XA_STATE(xas, &mapping->i_pages, 0);
	struct folio *folio;
	unsigned long n = 0;

	rcu_read_lock();
	xas_for_each(&xas, folio, ULONG_MAX) {
		if (xas_retry(&xas, folio) || xa_is_value(folio))
			continue;
		if (test(folio))
			n++;
	}
	rcu_read_unlock();
	return n;
}
