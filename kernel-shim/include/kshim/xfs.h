/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's XFS harness: make an image with mkfs.xfs, mount it with the
 * real XFS and VFS code on kshim block devices, unmount, and read the log
 * back with xfs_logprint. See README, "XFS log".
 */
#ifndef _KSHIM_XFS_H
#define _KSHIM_XFS_H

#include <linux/types.h>
#include <kshim/bdev.h>

struct xfs_mount;
struct kshim_xfs;

struct kshim_xfs_config {
	const char *image;	/* the data device image (mkfs.xfs made it) */
	const char *log_image;	/* the external log device; NULL: internal */
	unsigned int sector_size; /* the devices' logical sector size; 0: 512 */
	struct kshim_latency latency;	/* both devices' service times */
	unsigned int queue_depth;	/* I/Os each device serves at once;
					 * 0: kshim_bdev's default (64) */
	bool read_only;		/* mount -o ro: nothing is written, no
				 * inactivation (the fuzz targets) */
	/* A bio observer (kshim/bdev.h) set on the data device as soon as
	 * it is open, before the mount reads or writes anything: what the
	 * log-recovery fuzz target uses to learn which sectors a run wrote.
	 * NULL: none. */
	kshim_bio_observer_fn observer;
	void *observer_priv;
	bool nouuid;		/* mount -o nouuid: the filesystem's UUID is
				 * not entered in the table of mounted ones */
};

/*
 * Mount: open the devices and mount them as the kernel does, through
 * the real vfs_get_tree() (xfs_fs_fill_super(), then all of
 * xfs_mountfs(): superblock, geometry, log mount and recovery, the root
 * inode). 0 with *out set, or the kernel's negative errno (e.g.
 * -EFSCORRUPTED, -EINVAL) with everything released.
 */
int kshim_xfs_mount(const struct kshim_xfs_config *cfg, struct kshim_xfs **out);
struct xfs_mount *kshim_xfs_mp(struct kshim_xfs *x);
/* The mounted filesystem's super_block: kshim/vfs.h's operations start
 * at kshim_vfs_root() of it. */
struct super_block *kshim_xfs_sb(struct kshim_xfs *x);
/* The data device, for fault injection (kshim/bdev.h). */
struct kshim_bdev *kshim_xfs_data_bdev(struct kshim_xfs *x);
/* The real unmount (deactivate_super(): xfs_unmountfs() forces the log,
 * empties the AIL, reclaims the inodes, writes the unmount record), then
 * the devices closed cleanly. A perag reference left held at the end
 * (xfs_free_perag_range()'s alert) is a kshim report: it fails the test. */
void kshim_xfs_unmount(struct kshim_xfs *x);

/*
 * Power failure (kshim_bdev_crash() with MODE on the data and log
 * devices; RES, if not NULL, sums what happened to their caches), then
 * the kernel's forced shutdown and unmount, which release everything.
 * Mount the image again to run log recovery. 0 or -errno.
 */
/*
 * The same power failure and shutdown with the filesystem left mounted,
 * for tasks still running on it to see fail; kshim_xfs_unmount() after.
 */
int kshim_xfs_power_cut(struct kshim_xfs *x, enum kshim_crash_mode mode,
			struct kshim_crash_result *res);
int kshim_xfs_crash(struct kshim_xfs *x, enum kshim_crash_mode mode,
		    struct kshim_crash_result *res);

/*
 * Scratch metadata for log tests (xfs/kshim_xfs_scratch.c): blocks in the
 * free space of the last AG, formatted as remote symlink blocks and
 * logged through real buffer log items, so what is logged, written back
 * and recovered is checked by the real verifier.
 *
 * kshim_xfs_scratch_log(): in transaction TP, write into scratch block
 * BLOCK a record of SEQ with a payload of LEN bytes (16 to 1023), and
 * log it. kshim_xfs_scratch_read(): read BLOCK from the device
 * (uncached), verify it (the real verifier: CRC, UUID, block number;
 * then the payload), and give the SEQ that last wrote it, 0 if none did.
 * Both 0 or -errno (-EFSCORRUPTED/-EFSBADCRC: a torn or wrong block).
 */
struct xfs_trans;
int kshim_xfs_scratch_blocks(struct xfs_mount *mp);
int kshim_xfs_scratch_log(struct xfs_trans *tp, unsigned int block, u64 seq,
			  unsigned int len);
int kshim_xfs_scratch_read(struct xfs_mount *mp, unsigned int block,
			   u64 *seq);

/*
 * Run mkfs.xfs -f on PATH (created or truncated to BYTES) with OPTS
 * (extra mkfs.xfs options, may be NULL). 0, or -1 with mkfs.xfs's output
 * printed. The image depends on the run's seed and the number of images
 * made before it in this run, nothing else: its UUID comes from them and
 * mkfs.xfs's clock is frozen (faketime).
 */
int kshim_xfs_mkfs(const char *path, u64 bytes, const char *opts);
/* The same with the image's number given: same seed, same ID, same bytes. */
int kshim_xfs_mkfs_id(const char *path, u64 bytes, const char *opts, u64 id);
/* Make an empty file of BYTES (an external log device). 0 or -errno. */
int kshim_xfs_make_file(const char *path, u64 bytes);
/*
 * Run xfs_logprint on IMAGE (and LOG_IMAGE, an external log, or NULL)
 * with ARGS; its output (stdout and stderr) goes into BUF, NUL-ended,
 * cut at LEN - 1. Returns xfs_logprint's exit status, or -1 if it
 * could not run.
 */
int kshim_xfs_logprint(const char *image, const char *log_image,
		       const char *args, char *buf, size_t len);
/*
 * Run xfs_repair -n (check only, nothing written) on IMAGE (and LOG_IMAGE,
 * or NULL), unmounted; output into BUF as for kshim_xfs_logprint().
 * Returns its exit status: 0 clean, 1 corruption found; -1 if it could
 * not run.
 */
int kshim_xfs_repair_check(const char *image, const char *log_image,
			   char *buf, size_t len);

#endif
