/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A log load for the stress test and the log concurrency scenarios: N
 * tasks, each running reserve -> log one scratch block -> commit with the
 * real tr_write reservation, or a caller's own work (task_fn: the
 * unwritten-conversion scenario's direct I/O writes), while a checker
 * task samples the log's invariants (tests/support/xfs_log_load.c).
 */
#ifndef _TESTS_XFS_LOG_LOAD_H
#define _TESTS_XFS_LOG_LOAD_H

#include <linux/types.h>

struct xfs_mount;

/*
 * A log load: the first fields, to hold_push_ns, say what to run;
 * log_load_run() fills in the others.
 */
struct log_load {
	/* What to run. */
	struct xfs_mount *mp;
	unsigned int nr_tasks;
	unsigned int commits_per_task;
	unsigned int payload;		/* bytes logged per commit (16..1023) */
	u64 hold_push_ns;		/* hold the CIL push worker back from
					   the start until this long after
					   the CIL reached its hard limit;
					   0: never */
	/* Each task's work instead of the scratch commits, or NULL. ID is
	 * the task's number, 0..nr_tasks-1. Returns 0 or a -errno. Its
	 * reservations and commits are the caller's to time and count:
	 * log_load_run() leaves commits, reserve_wait_ns,
	 * reserve_wait_max_ns and commit_ns at 0 (commits_per_task and
	 * payload unused). */
	int (*task_fn)(struct log_load *ll, unsigned int id);
	void *priv;			/* for task_fn */

	/* What happened (times on the kshim clock: virtual in det). */
	u64 commits;
	u64 elapsed_ns, real_ns;
	u64 reserve_wait_ns;		/* summed over tasks: in xfs_trans_alloc() */
	u64 reserve_wait_max_ns;
	u64 commit_ns;			/* summed: in xfs_trans_commit() */
	u64 sleep_logspace;		/* XFS stat: reservers that slept */
	u64 checkpoints;		/* CIL sequences pushed */
	u32 log_cycles;			/* times the head went round the log */
	u64 log_bytes;			/* written to the log (head moved) */

	/* The checker's samples. */
	u64 samples;
	s64 cil_max_bytes;		/* the largest CIL seen */
	s64 cil_hard_limit;		/* XLOG_CIL_BLOCKING_SPACE_LIMIT */
	s64 logsize;
	s64 grant_overrun_max;		/* grant head past the log size, most */
	unsigned int cil_max_cpus;	/* per-CPU CIL parts in use at once */
	u64 throttled_max;		/* committers waiting at the hard limit */
	u64 violations;
	u64 tail_overwrites;		/* of the violations: the log head past
					   its tail, the kernel's known race
					   (tests/findings/
					   finding_xfs_log_tail_wrap.c) */
	char first_violation[256];
};

/**
 * log_load_run() - run the load to its end
 * @ll: what to run (the fields to hold_push_ns; @ll->mp mounted, e.g. by
 *	xfs_fixture_mount_new()); the rest is filled in with what happened
 *
 * Starts @ll->nr_tasks committers and samples the invariants from the
 * calling task until they are done. It clears the printk buffer first:
 * the kernel's messages during the run are checked at its end
 * (xlog_verify_tail_lsn()). A broken invariant is counted in
 * @ll->violations (the first one's text in @ll->first_violation), not
 * asserted: the caller decides what fails.
 *
 * Return: 0, or the -errno of the first transaction that failed.
 */
int log_load_run(struct log_load *ll);

#endif
