/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory pressure for the page-reclaim tests (test_reclaim_lru.c,
 * test_xfs_reclaim.c): reclaim started in a memory whose free part is
 * above high, so kswapd starts asleep, then filled with the test's own
 * kmalloc()s, without reclaiming, to one page above the min watermark,
 * so that the next allocation of two pages stalls in direct reclaim.
 * And what those tests count afterwards: a mapping's folios of a kind.
 */
#ifndef _TESTS_RECLAIM_PRESSURE_H
#define _TESTS_RECLAIM_PRESSURE_H

struct address_space;
struct folio;

/* WMARK_MIN bytes of min watermark; ON_WRITE is called for each folio
 * reclaim writes (kshim_trace.mm_vmscan_write_folio), or NULL. */
void reclaim_pressure_start(unsigned long wmark_min,
			    void (*on_write)(struct folio *folio));
/* Reclaim stopped, the filler freed. */
void reclaim_pressure_stop(void);

/* How many of the mapping's folios pass TEST (shadow entries skipped). */
unsigned long reclaim_count_folios(struct address_space *mapping,
				   bool (*test)(const struct folio *));

#endif
