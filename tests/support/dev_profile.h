/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Device profiles: named service times for kshim's block device
 * (struct kshim_latency, kshim/bdev.h), so that a test says which
 * window it opens instead of carrying bare numbers.
 *
 * The latency decides how long an I/O is in flight: what other tasks do
 * meanwhile, how many writes sit in the device at a crash, and, with a
 * jitter larger than the base, whether completions come back out of
 * submission order. The times are on kshim's clock: virtual in the
 * deterministic backend (free to wait), real in the parallel one.
 *
 *	struct xfs_fixture fx = { .dev = &dev_ssd };
 *	struct kshim_bdev_config cfg = { .latency = dev_slow_disk.latency };
 */
#ifndef _TESTS_DEV_PROFILE_H
#define _TESTS_DEV_PROFILE_H

#include <kshim/bdev.h>

/**
 * struct dev_profile - a named device service time
 * @name: a short name for output ("ssd", "slow-disk")
 * @latency: what the device takes per I/O (kshim_bdev_config.latency)
 */
struct dev_profile {
	const char *name;
	struct kshim_latency latency;
};

/*
 * dev_fast: no service time. An I/O still completes asynchronously, from
 * the device's completion task, but as soon as that task runs: almost
 * nothing is in flight, so a test of accounting or of a single I/O path
 * is not slowed down by the device. Opens no window of its own.
 */
extern const struct dev_profile dev_fast;

/*
 * dev_ssd: 20-50 us per I/O. Long enough that work overlaps I/O: while
 * an iclog is written, committers fill the next one, the CIL push and
 * the AIL run beside them, and reservers wait for the log tail to move.
 * The XFS log load (xfs_log_load.h), its findings and its scenario.
 */
extern const struct dev_profile dev_ssd;

/*
 * dev_ssd_reordering: 20-100 us per I/O, a jitter four times the base,
 * so a later I/O often completes before an earlier one, and a crash finds
 * writes in flight and in the volatile cache in varied orders: for crash
 * and recovery tests (test_xfs_log's crash_run()).
 */
extern const struct dev_profile dev_ssd_reordering;

/*
 * dev_slow_disk: 0.5-1.5 ms per I/O. Writeback is slow against the CPU:
 * dirty and pinned objects pile up and reclaim ends up waiting on I/O
 * (scenario_reclaim_stalls). A window as long as one I/O (a
 * force that returns before its write is durable) stays open for
 * whatever the test does next (test_xfs_log_example).
 */
extern const struct dev_profile dev_slow_disk;

#endif
