/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The steps of an XFS log test (xfs_fixture.c): make a fresh image with
 * mkfs.xfs and mount it on kshim block devices with a device profile
 * (dev_profile.h), commit transactions to scratch metadata blocks while
 * remembering what each commit wrote, force the log, cut the power
 * (a crash mode of the block device), mount again (log recovery) and
 * check that what came back is exactly the state after some prefix of
 * the commits, at least up to the last synchronous force.
 *
 *	struct xfs_fixture fx = { .dev = &dev_ssd };
 *
 *	xfs_fixture_mount_new(&fx);
 *	xfs_fixture_commit(&fx, BIT(0) | BIT(1), 200);
 *	KSHIM_ASSERT_EQ(xfs_fixture_force(&fx), 0);
 *	KSHIM_ASSERT_EQ(xfs_fixture_crash(&fx, KSHIM_CRASH_DROP_ALL), 0);
 *	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(&fx), 0);
 *	xfs_fixture_check_prefix(&fx);
 *	xfs_fixture_unmount(&fx);
 *	xfs_fixture_remove(&fx);
 *
 * Steps that prepare (mkfs, mount, commit) fail the test at once when
 * they fail: nothing after them could mean anything. Steps whose result
 * is what a test is about (force, crash, remount) return it, for the
 * test to assert with its own line number. Check steps assert inside
 * and say what they saw.
 *
 * It includes the XFS headers a log test needs, in the order the kernel
 * includes them, so that a test can call the kernel (xfs_log_force(),
 * xfs_trans_alloc(), xfs_ail_push_all(), fx.mp->m_log...) directly.
 */
#ifndef _TESTS_XFS_FIXTURE_H
#define _TESTS_XFS_FIXTURE_H

#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_trans.h"
#include "xfs_log.h"
#include "xfs_log_priv.h"
#include "xfs_trans_priv.h"
#include <linux/workqueue.h>
#include <linux/completion.h>
#include <kshim/host_disk.h>
#include <kshim/xfs.h>
#include "dev_profile.h"

/* Scratch blocks xfs_fixture_commit() can name (a u32 mask). */
#define XFS_FIXTURE_BLOCKS	32
/* Commits one fixture remembers for xfs_fixture_check_prefix(). */
#define XFS_FIXTURE_MAX_COMMITS	1024

/**
 * struct xfs_fixture - one XFS filesystem on kshim block devices
 * @size: image size in bytes; 0: 64 MiB
 * @mkfs_opts: extra mkfs.xfs options (e.g. "-l size=2736b"), or NULL
 * @sector_size: the devices' logical sector size, 512 or 4096; 0: 512.
 *	4096 also makes the filesystem with "-s size=4096", which such a
 *	device needs.
 * @log_size: bytes of an external log device (mkfs.xfs -l logdev=); 0:
 *	the log is internal
 * @dev: the device profile of both devices; NULL: &dev_fast
 * @img: the data device image's path (xfs_fixture_mkfs())
 * @log_img: the external log image's path, if @log_size
 * @cfg: what every mount of this fixture uses (image, log image, sector
 *	size, latency); a test may change it between mounts
 * @x: the mount, NULL when not mounted
 * @mp: @x's xfs_mount, NULL when not mounted
 * @crashed: what the last xfs_fixture_crash() did to the write caches
 * @committed: the last commit's number (the first is 1)
 * @durable: the last commit a synchronous xfs_fixture_force() covered
 * @last_csn: a CIL sequence covering the last commit (see xfs_fixture_commit())
 * @state: what the image last went through, for xfs_fixture_remove()
 * @wrote: @wrote[n]: the scratch blocks commit n wrote (a mask)
 *
 * Set the first five fields (all optional) and leave the rest zero; the
 * fixture fills in the others. A fixture is for one test function and
 * one image; xfs_fixture_remove() ends it.
 */
struct xfs_fixture {
	u64 size;
	const char *mkfs_opts;
	unsigned int sector_size;
	u64 log_size;
	const struct dev_profile *dev;

	char img[256];
	char log_img[256];
	struct kshim_xfs_config cfg;
	struct kshim_xfs *x;
	struct xfs_mount *mp;
	struct kshim_crash_result crashed;

	u64 committed;
	u64 durable;
	xfs_csn_t last_csn;
	enum xfs_fixture_state {
		XFS_FIXTURE_NEW,	/* made, never mounted */
		XFS_FIXTURE_MOUNTED,
		XFS_FIXTURE_UNMOUNTED,	/* cleanly */
		XFS_FIXTURE_CRASHED,
		XFS_FIXTURE_MOUNT_FAILED,
	} state;
	u32 wrote[XFS_FIXTURE_MAX_COMMITS + 1];
};

/**
 * xfs_fixture_mkfs() - make the fixture's image with mkfs.xfs
 * @f: the fixture, with its options set
 *
 * Creates the image file (and the external log's), runs mkfs.xfs with
 * fstests' environment (test-sized filesystems accepted) and fills in
 * @f->cfg from the options. Fails the test at once if any of it fails
 * (mkfs.xfs's output is printed).
 */
void xfs_fixture_mkfs(struct xfs_fixture *f);

/**
 * xfs_fixture_try_mount() - mount the image, for a test of the mount
 * @f: the fixture, made and not mounted
 *
 * The real mount (kshim_xfs_mount(): xfs_fs_fill_super(), the log mount
 * and its recovery, the root inode) with @f->cfg. Sets @f->x and @f->mp,
 * both NULL if the mount failed.
 *
 * Return: 0 or the kernel's negative errno (e.g. -EINVAL,
 * -EFSCORRUPTED, -EFSBADCRC).
 */
int xfs_fixture_try_mount(struct xfs_fixture *f);

/**
 * xfs_fixture_mount() - mount the image, which must succeed
 * @f: the fixture, made and not mounted
 *
 * As xfs_fixture_try_mount(), failing the test at once if the mount fails.
 *
 * Return: the xfs_mount (also in @f->mp).
 */
struct xfs_mount *xfs_fixture_mount(struct xfs_fixture *f);

/**
 * xfs_fixture_mount_new() - a fresh filesystem, mounted
 * @f: the fixture, with its options set
 *
 * xfs_fixture_mkfs(), then xfs_fixture_mount().
 *
 * Return: the xfs_mount (also in @f->mp).
 */
struct xfs_mount *xfs_fixture_mount_new(struct xfs_fixture *f);

/**
 * xfs_fixture_remount() - mount again after a crash: log recovery
 * @f: the fixture, crashed (or unmounted)
 *
 * Clears the kernel's message buffer first, so that kshim_printk_contains()
 * afterwards sees only this mount's messages ("Starting recovery",
 * "Metadata CRC error"...), then xfs_fixture_try_mount().
 *
 * Return: 0 or the kernel's negative errno.
 */
int xfs_fixture_remount(struct xfs_fixture *f);

/**
 * xfs_fixture_unmount() - the real unmount
 * @f: the fixture, mounted
 *
 * kshim_xfs_unmount(): xfs_unmountfs() forces the log, writes the AIL
 * back and writes the unmount record; the devices are closed cleanly.
 */
void xfs_fixture_unmount(struct xfs_fixture *f);

/**
 * xfs_fixture_repair_check() - xfsprogs' own check of the image
 * @f: the fixture, unmounted
 *
 * xfs_repair -n on the image (and the external log): any complaint fails
 * the test, with the repair output. xfs_fixture_remove() runs it on
 * every image it removes; a test may run it earlier too.
 *
 * Return: xfs_repair's exit status (0 clean).
 */
int xfs_fixture_repair_check(struct xfs_fixture *f);

/**
 * xfs_fixture_remove() - check the image with xfs_repair, then remove it
 * @f: the fixture, unmounted or crashed
 *
 * Fails the test if the filesystem is still mounted (a test unmounts or
 * crashes it first: an unmount is checked, a forgotten one is a leak).
 * What the test left is checked by xfs_repair -n first: after an
 * unmount as it is; after a crash, or an unmount of a shut-down
 * filesystem (its log is left dirty), once a mount (log recovery) and an
 * unmount made it consistent, which must succeed. An image whose last
 * mount failed, or that was never mounted, is the test's own subject (a
 * damaged superblock, a log recovery cannot read) and is not checked.
 */
void xfs_fixture_remove(struct xfs_fixture *f);

/*
 * Through the VFS (kshim/vfs.h), for tests that work by name:
 * xfs_fixture_mount_root() mounts a fresh filesystem and gives its root
 * dentry; xfs_fixture_remount_root() puts *root, unmounts, mounts again
 * (recovery, after a crash) and gives the new root in *root;
 * xfs_fixture_finish() puts the root, unmounts and removes the image
 * (xfs_repair -n checks it first); xfs_fixture_exists() says whether
 * NAME is in DIR (any lookup error but -ENOENT fails the test).
 */
struct dentry;
struct dentry *xfs_fixture_mount_root(struct xfs_fixture *f);
void xfs_fixture_remount_root(struct xfs_fixture *f, struct dentry **root);
void xfs_fixture_finish(struct xfs_fixture *f, struct dentry *root);
bool xfs_fixture_exists(struct dentry *dir, const char *name);

/*
 * BYTES (a multiple of 1 MiB) of 0xa5 written to a file "junk" in ROOT,
 * fsynced, and the file removed: a block that later reads back without
 * having been written shows up as stale bytes. The blocks are free once
 * inodegc has run (a syncfs flushes it).
 */
void xfs_fixture_junk_free_space(struct dentry *root, loff_t bytes);

/*
 * An item that occupies CPU's inodegc worker (the workqueue runs one item
 * at a time per CPU), as a long inactivation of an earlier inode would:
 * xfs_inodegc_busy_start() returns once it runs; inodes queued on that
 * CPU wait until xfs_inodegc_busy_end().
 */
struct xfs_inodegc_busy {
	struct work_struct work;
	struct completion running, release;
};

void xfs_inodegc_busy_start(struct xfs_mount *mp, int cpu,
			    struct xfs_inodegc_busy *b);
void xfs_inodegc_busy_end(struct xfs_inodegc_busy *b);

/**
 * xfs_fixture_commit() - one transaction writing scratch blocks
 * @f: the fixture, mounted
 * @blocks: the scratch blocks to write, a mask of BIT(0)..BIT(31); not 0
 * @len: payload bytes logged per block, 16..1023
 *
 * A transaction with the real tr_write reservation (the one an
 * unwritten-extent conversion takes) logging each block in @blocks
 * through a real buffer log item, recording the commit's number
 * (@f->committed + 1) in it, then xfs_trans_commit(). The commit is in
 * the CIL, not yet in the log on disk. Remembers which blocks the commit
 * wrote, for xfs_fixture_check_prefix(). Fails the test at once if the
 * transaction fails or @f has no room left (XFS_FIXTURE_MAX_COMMITS).
 *
 * Return: a CIL sequence at least the one the commit went into: forcing
 * it with xfs_log_force_seq() makes the commit durable.
 */
xfs_csn_t xfs_fixture_commit(struct xfs_fixture *f, u32 blocks,
			     unsigned int len);

/**
 * xfs_fixture_force() - a synchronous log force of every commit so far
 * @f: the fixture, mounted
 *
 * xfs_log_force_seq(XFS_LOG_SYNC) of the last commit's CIL sequence: it
 * returns once the checkpoint is on stable storage. If it succeeds, every
 * commit so far is durable (@f->durable): xfs_fixture_check_prefix()
 * then requires recovery to bring them back. An asynchronous force is
 * the kernel's own call: xfs_log_force(f->mp, 0).
 *
 * Return: the kernel's 0 or negative errno.
 */
int xfs_fixture_force(struct xfs_fixture *f);

/**
 * xfs_fixture_crash() - power failure, then the kernel's forced shutdown
 * @f: the fixture, mounted
 * @mode: what the device's volatile write cache does: KSHIM_CRASH_DROP_ALL
 *	loses every cached write; KSHIM_CRASH_KEEP_RANDOM keeps a seeded
 *	random subset; KSHIM_CRASH_TEAR also tears kept multi-sector writes
 *	(kshim/host_disk.h)
 *
 * kshim_xfs_crash() on the data and log devices: I/O not yet completed
 * is lost, the cache treated as @mode says, then the filesystem is shut
 * down and released. @f->crashed says what happened to the caches.
 * xfs_fixture_remount() runs recovery.
 *
 * Return: 0 or -errno.
 */
int xfs_fixture_crash(struct xfs_fixture *f, enum kshim_crash_mode mode);

/**
 * xfs_fixture_power_cut() - the same power failure and shutdown, mounted
 * @f: the fixture, mounted
 * @mode: as for xfs_fixture_crash()
 *
 * For tasks still running on the filesystem: they see it shut down, and
 * xfs_fixture_unmount() after them leaves the image to recover.
 *
 * Return: 0 or -errno.
 */
int xfs_fixture_power_cut(struct xfs_fixture *f, enum kshim_crash_mode mode);

/**
 * struct xfs_power_cut - a power cut another task makes
 * @f: the fixture, mounted
 * @mode: as for xfs_fixture_crash()
 * @write_back_first: push the AIL and wait until it is empty first
 *	(xfs_ail_push_all_sync()): the logged metadata is then written to
 *	its place and sits in the device's volatile cache, for @mode to
 *	drop, keep or tear. A short run hardly writes anything but the log
 *	otherwise (xfsaild's timers seldom fire in it).
 * @err: what xfs_fixture_power_cut() returned
 */
struct xfs_power_cut {
	struct xfs_fixture *f;
	enum kshim_crash_mode mode;
	bool write_back_first;
	int err;
};

/**
 * xfs_fixture_cut_the_power() - xfs_fixture_power_cut(), as a callback
 * @arg: a struct xfs_power_cut
 *
 * For a workload's crash point (support/fsstress.h's cfg.crash): called
 * by the task that reached it, while the other tasks go on.
 */
void xfs_fixture_cut_the_power(void *arg);

/**
 * xfs_fixture_check_prefix() - did recovery bring back a prefix?
 * @f: the fixture, mounted again after a crash
 *
 * Reads every scratch block that xfs_fixture_commit() can write from the
 * device (uncached, through the real verifier) and requires that they
 * are exactly as commits 1..P left them, for some P, and that P is at
 * least @f->durable: a transaction is all there or not at all,
 * checkpoints replay in order, and nothing a synchronous force covered
 * is lost. Fails the test (at once if a block cannot be read or does not
 * verify), printing each block that differs from the prefix.
 *
 * Return: P, the last commit recovered.
 */
u64 xfs_fixture_check_prefix(struct xfs_fixture *f);

/**
 * xfs_fixture_bad_scratch_blocks() - verify every scratch block
 * @f: the fixture, mounted
 *
 * Reads each of the filesystem's scratch blocks (all of them,
 * kshim_xfs_scratch_blocks(), not only the 32 xfs_fixture_commit()
 * names) through the real verifier, printing each that fails: for a
 * load that wrote them its own way (xfs_log_load.h).
 *
 * Return: how many failed (-EFSCORRUPTED, -EFSBADCRC: torn or wrong).
 */
unsigned int xfs_fixture_bad_scratch_blocks(struct xfs_fixture *f);

/**
 * xfs_fixture_logprint() - xfs_logprint -c over the image
 * @f: the fixture, unmounted or crashed
 *
 * Runs xfsprogs' xfs_logprint on the image (and the external log), which
 * must exit 0: the log kshim wrote is one that xfsprogs reads. Fails the
 * test at once otherwise, printing its output.
 *
 * Return: its output (stdout and stderr), valid until the next call.
 */
const char *xfs_fixture_logprint(struct xfs_fixture *f);

/**
 * xfs_fixture_quiesce() - an idle log: everything committed is forced to
 * disk and written back, the AIL empty (fatal if it is not)
 * @mp: the mounted filesystem
 */
void xfs_fixture_quiesce(struct xfs_mount *mp);

/**
 * xfs_fixture_ail_items() - how many log items the AIL holds now
 * @ailp: the mount's AIL (mp->m_ail)
 *
 * Counted under the AIL's lock: a snapshot, for log and AIL tests.
 *
 * Return: the number of items.
 */
unsigned int xfs_fixture_ail_items(struct xfs_ail *ailp);

#endif
