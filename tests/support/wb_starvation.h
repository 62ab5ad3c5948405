/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seed 004's workload and report (wb_starvation.c), shared by the
 * scenarios that run it on different filesystems: scenario_wb_starvation
 * (wbfs) and scenario_wb_starvation_xfs (XFS's own writeback). The
 * scenario mounts its filesystem, sets the dirty thresholds, and gives
 * the operations below; this runs the small-file creators and the large
 * writer, samples the large file, decides the verdict against the bound,
 * prints the table and writes the JSON that ./kshim plot draws
 * (scripts/plot/wb.py).
 *
 *	static const struct wbs_ops ops = { .scenario = "wb_starvation", ... };
 *	wbs_set_thresholds(&regime, 3000, 500);
 *	KSHIM_ASSERT(wbs_run(&ops, &regime, &params));
 */
#ifndef _TESTS_WB_STARVATION_H
#define _TESTS_WB_STARVATION_H

#include <linux/types.h>

/**
 * struct wbs_regime - where the large file sits against the thresholds
 * @name: "kupdate" or "background", in the output and the JSON's name
 * @bg_mb: vm/dirty_background_bytes, in MiB
 * @dirty_mb: vm/dirty_bytes, in MiB
 * @large_mb: the large file's size, in MiB
 */
struct wbs_regime {
	const char *name;
	unsigned long bg_mb, dirty_mb, large_mb;
};

/**
 * struct wbs_params - the workload's shape and the criterion's terms
 * @creators: small-file creating tasks
 * @max_small: small files at most (the run stops creating there)
 * @pause_ms: each creator's pause between two files
 * @expire_cs: vm/dirty_expire_centisecs the run set
 * @period_cs: vm/dirty_writeback_centisecs the run set
 * @transfer_ms: the large file's transfer time at the device's rate
 * @give_up_s: virtual seconds after which the run stops waiting
 */
struct wbs_params {
	int creators;
	int max_small;
	unsigned int pause_ms;
	unsigned int expire_cs, period_cs;
	u64 transfer_ms;
	unsigned int give_up_s;
};

/**
 * struct wbs_ops - the filesystem's side of the workload
 * @scenario: the JSON's "scenario" field and file name prefix
 * @fs: the filesystem's name, for the table
 * @create_small: create small file number @i and write @len bytes of
 *	@buf into it, kept (called by the creators, concurrently)
 * @write_large: write @len bytes of @buf at @pos of the large file
 * @large_written: pages of the large file written back so far
 * @large_done: all of the large file written by the task is on the
 *	device (nothing dirty or under writeback)
 * @bytes_written: bytes written to the device so far
 * @passes: ->writepages calls on the large file and on the small ones
 */
struct wbs_ops {
	const char *scenario;
	const char *fs;
	void (*create_small)(int i, const void *buf, size_t len);
	void (*write_large)(loff_t pos, const void *buf, size_t len);
	unsigned long (*large_written)(void);
	bool (*large_done)(void);
	u64 (*bytes_written)(void);
	void (*passes)(unsigned long *large, unsigned long *small);
};

/**
 * struct wbs_result - what one run measured
 * @done_ms: from the first write of the large file until all of it was
 *	on the device (or the run gave up), kshim clock
 * @bound_ms: expire + 2 x period + 4 x transfer
 * @real_ms: the same interval in real time
 * @share: the large file's percentage of the bytes written meanwhile
 * @small_files: small files created by then
 * @pass: the large file was on the device within @bound_ms
 */
struct wbs_result {
	u64 done_ms, bound_ms, real_ms;
	double share;
	unsigned long small_files;
	bool pass;
};

/**
 * wbs_set_thresholds() - the vm sysctls for @r's regime
 * @r: the regime (dirty_background_bytes, dirty_bytes)
 * @expire_cs: vm/dirty_expire_centisecs
 * @period_cs: vm/dirty_writeback_centisecs
 */
void wbs_set_thresholds(const struct wbs_regime *r, unsigned int expire_cs,
			unsigned int period_cs);

/**
 * wbs_run() - run the workload once, report it
 * @ops: the filesystem's operations (the filesystem mounted)
 * @r: the regime
 * @p: the workload's shape
 * @res: what was measured (may be NULL)
 *
 * Starts @p->creators creators and the large writer (1 MiB writes),
 * samples every 250 ms until ops->large_done() or @p->give_up_s, stops
 * and joins the tasks, prints the table and writes
 * $KSHIM_SCENARIO_OUT/<scenario>_<regime>.json.
 *
 * Return: the verdict: true if the large file was on the device in time.
 */
bool wbs_run(const struct wbs_ops *ops, const struct wbs_regime *r,
	     const struct wbs_params *p, struct wbs_result *res);

#endif
