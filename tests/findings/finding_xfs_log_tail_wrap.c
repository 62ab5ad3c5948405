// SPDX-License-Identifier: GPL-2.0
/*
 * Finding, mechanism found: concurrent reservers overcommit the log's
 * grant heads, and the log then writes over its own tail. On the
 * smallest log mkfs.xfs allows (1368 blocks of 4 KiB), 64 tasks
 * committing tr_write transactions (the load of test_xfs_log's stress
 * test) reach, at 4 of seeds 1..32 (16, 21, 27, 28; before the
 * inode-cache files were compiled, which moved every schedule: 16, 24,
 * 30), a state where the
 * kernel's own XFS_DEBUG check before an iclog write,
 * xlog_verify_tail_lsn(), prints "tail wrapped" and dumps "write grant +
 * tail_space" 200 KB past the log size; the load's checker sees the head
 * pass the tail.
 *
 * Why: xfs_log_reserve() and xfs_log_regrant() check the free space in
 * xlog_grant_head_check() and add to the grant head after it returns,
 * outside head->lock. Two windows let two reservers count the same free
 * space: the first free_bytes is read before head->lock is taken (and
 * used under it when there are waiters), and a woken waiter rechecks
 * under the lock but adds after dropping it, while the next waiter
 * already rechecks. The deterministic scheduler switches at lock
 * acquire and release, so it opens these windows far more often than a
 * machine would; on a machine they need lock hand-over races or a
 * preempted vCPU.
 *
 * tests/findings/patches/experiment-serialise-log-reservations.patch
 * takes a mutex from the check to the add: with it no seed of 32
 * overwrote the tail (measured before the inode-cache files), and the sampled grant never comes closer than
 * 271,856 bytes to the log size (where reservers wait), which unpatched
 * runs pass at 6 seeds.
 * Whether the overwrite happens on real machines is not shown.
 *
 * Not reproduced since the det backend keeps a per-CPU kworker off a CPU
 * another task holds (docs/backends.md, "Per-CPU workers"): no seed of
 * 1..277 overwrote the tail, where before the rule 4 of 32 did, and seed
 * 266 still does with the rule switched off. So every reproduction seen
 * had a bound kworker (which one is not yet known; the log's I/O
 * completion work, xfs-log, is the likely one) run while its CPU was
 * held, which a real CPU
 * does not allow: either the overwrite needs that, and this is not a
 * kernel bug, or the rule only made its schedules rarer. Which of the two
 * is open; until then the test is in suite finding-unreproduced, out of
 * the default run (./kshim test --suite finding-unreproduced).
 *
 * This binary keeps the finding reproducible: the test asserts the log
 * never overwrites its tail, and tests/meson.build expects the seed sweep
 * to FAIL with the kernel's message. When it stops failing (a kshim
 * change or a kernel change), that test fails and says so. With a log
 * twice as big, test_xfs_log's stress test passes every seed tried.
 */
#include <kshim/ktest.h>
#include "xfs_fixture.h"
#include "xfs_log_load.h"

static void test_smallest_log_never_overwrites_its_tail(void)
{
	struct xfs_fixture fx = {
		.size = 256ULL << 20,
		.mkfs_opts = "-l size=1368b",
		.dev = &dev_ssd,
	};
	struct log_load ll = {
		.nr_tasks = 64,
		.commits_per_task = 600,
		.payload = 1000,
	};

	ll.mp = xfs_fixture_mount_new(&fx);
	KSHIM_ASSERT_EQ(log_load_run(&ll), 0);
	kshim_info("finding: write grant + tail space past the log size by "
		   "at most %lld bytes (%llu samples)\n",
		   (long long)ll.grant_overrun_max,
		   (unsigned long long)ll.samples);
	if (ll.violations)
		kshim_info("finding: %s\n", ll.first_violation);
	KSHIM_ASSERT_EQ(ll.violations, 0);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_smallest_log_never_overwrites_its_tail),
	{ }
};

KSHIM_SUITES({ "finding", NULL, NULL, tests });
