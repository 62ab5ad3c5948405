/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seed 001 workload (writeback from page reclaim), shared by its two
 * scenarios: scenario_reclaim_writeback.c (wbfs, with a ->writepage) and
 * scenario_reclaim_writeback_xfs.c (XFS, which has none in 6.12). The
 * scenario mounts its filesystem and opens the files; this runs the
 * workload on the real mm/vmscan.c, measures the same figures on both,
 * prints the table and writes the JSON (reclaim_writeback_FS.json). The
 * criterion is each scenario's own.
 *
 * Workload: RW_WRITERS tasks each write a file of RW_FILE_MB in RW_CHUNK
 * writes (dirtying faster than a device of 4 ms per I/O, 2 at a time,
 * cleans; dirty_ratio 50 and dirty_background_ratio 25, as the post
 * raised dirty_ratio to 40, so that the LRU's tail holds dirty pages),
 * while RW_ALLOCATORS tasks keep replacing a ring of 16 KiB allocations;
 * kswapd in the background, in a memory of what is in use plus
 * RW_BUDGET.
 *
 * The link must wrap wakeup_flusher_threads (-Wl,--wrap=...): the wake-ups
 * of the flushers by reclaim (WB_REASON_VMSCAN) are counted there.
 */
#ifndef _TESTS_RECLAIM_WRITEBACK_H
#define _TESTS_RECLAIM_WRITEBACK_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <kshim/vmscan.h>

#define RW_WRITERS	2
#define RW_FILE_MB	8
#define RW_CHUNK	(64 << 10)
#define RW_ALLOCATORS	2
#define RW_ALLOC_ORDER	2		/* 16 KiB */
#define RW_BUDGET	(8UL << 20)
#define RW_WMARK_MIN	(512UL << 10)
#define RW_IO_LATENCY_NS (4 * NSEC_PER_MSEC)
#define RW_QUEUE_DEPTH	2
#define RW_SAMPLES	2000

struct reclaim_writeback {
	/* Set by the scenario. */
	const char *fs;			/* "wbfs", "xfs": the JSON's name */
	const char *about;		/* the table's first line, after fs */
	/* Writes LEN bytes of BUF at POS of file I; the bytes written. */
	ssize_t (*write)(int i, loff_t pos, const void *buf, size_t len);

	/* Filled in by reclaim_writeback_run(). */
	u64 elapsed_ns;
	s64 kswapd_writes, direct_writes;	/* mm_vmscan_write_folio */
	unsigned long vmscan_write;		/* NR_VMSCAN_WRITE */
	unsigned long flusher_pages;		/* NR_WRITTEN less reclaim's */
	s64 throttled, throttled_us;		/* reclaim_throttle() */
	s64 flusher_wakeups;		/* wakeup_flusher_threads(VMSCAN) */
	s64 allocs, alloc_ns_max, write_errors, alloc_errors;
	unsigned long pgscan_kswapd, pgsteal_kswapd, pgscan_direct,
		      pgsteal_direct, immediate;
	struct kshim_vmscan_stats vm;
	int nr_samples;
	u32 t_ms[RW_SAMPLES], dirty[RW_SAMPLES], writeback[RW_SAMPLES];

	/* Set by the scenario's criterion, before reclaim_writeback_report(). */
	bool pass;
	const char *why;
};

/* Runs the workload on the scenario's files (sysctls set and restored). */
void reclaim_writeback_run(struct reclaim_writeback *rw);
/* The table, then the JSON. */
void reclaim_writeback_report(const struct reclaim_writeback *rw);

#endif
