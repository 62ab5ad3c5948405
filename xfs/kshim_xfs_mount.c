// SPDX-License-Identifier: GPL-2.0
/*
 * Mounting the XFS log on kshim block devices.
 *
 * The kernel mounts XFS through xfs_fs_fill_super() (xfs_super.c: not
 * compiled, it is the VFS mount API) and xfs_mountfs() (compiled, but it
 * goes on to the root inode, quotas and the realtime device). kshim does
 * what those two do up to and including the log, calling the real
 * functions in the same order:
 *
 *   xfs_init_fs_context():  the xfs_mount fields, the caches
 *   xfs_fs_fill_super():    workqueues, per-CPU counters, buftargs,
 *                           xfs_readsb() (real), device sector sizes
 *   xfs_mountfs():          xfs_sb_mount_common(), every btree's
 *                           maxlevels, inode geometry, xfs_da_mount(), xfs_trans_init(),
 *                           xfs_initialize_perag(), xfs_log_mount(),
 *                           xfs_log_mount_finish()
 *
 * and unmounts with the real xfs_log_unmount(). What is skipped (mount
 * options, sysfs, the root inode, quotas, AG reservations) is listed in
 * docs/FAKES.md under kshim_xfs_mount.
 */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_bit.h"
#include "xfs_sb.h"
#include "xfs_mount.h"
#include "xfs_ag.h"
#include "xfs_alloc.h"
#include "xfs_bmap.h"
#include "xfs_ialloc.h"
#include "xfs_rmap_btree.h"
#include "xfs_refcount_btree.h"
#include "xfs_da_format.h"
#include "xfs_da_btree.h"
#include "xfs_dir2.h"
#include "xfs_inode.h"
#include "xfs_btree.h"
#include "xfs_trans.h"
#include "xfs_trans_priv.h"
#include "xfs_log.h"
#include "xfs_log_priv.h"
#include "xfs_buf_item.h"
#include "xfs_error.h"
#include "xfs_errortag.h"
#include "xfs_stats.h"
#include <linux/init.h>
#include <kshim/bdev.h>
#include <kshim/runtime.h>
#include <kshim/xfs.h>

struct kshim_xfs {
	struct kshim_bdev *data, *log;	/* log == data: internal log */
	struct super_block *sb;
	struct xfs_mount *mp;
	bool errortag, da, perag;	/* what mount_geometry() set up */
	bool log_mounted;
};

/* ---- caches (xfs_init_caches(), the ones the log path uses) ----------- */

/*
 * The statistics XFS_STATS_INC() counts in. XFS counts them racily on
 * purpose: xfs_stats.h increments the counter of current_cpu(), which
 * xfs_linux.h defines as raw_smp_processor_id(), with a plain ++ and
 * without disabling preemption, so on a preemptible kernel two tasks can
 * update one CPU's counter at once (and xfs_stats_clearall() zeroes other
 * CPUs' counters while they count); a lost update is accepted, the
 * statistics are approximate. kshim's parallel backend runs several tasks
 * on one simulated CPU at the same time, which makes that race common:
 * TSan is told it is intended.
 */
static struct xfsstats __percpu *stats_alloc(void)
{
	struct xfsstats __percpu *stats = alloc_percpu(struct xfsstats);

	if (stats)
		kshim_percpu_benign_race(stats,
			"XFS_STATS_INC(): raw_smp_processor_id() and a plain ++");
	return stats;
}

/*
 * init_xfs_fs(), the real module init: the caches, the global
 * workqueues, the global statistics, /sys/fs/xfs (no sysfs: kobjects
 * only) and register_filesystem(). What it sets up lives as long as the
 * program, like boot-time memory (not leaks).
 */
extern int (*const kshim_module_init_init_xfs_fs)(void);

static int __init kshim_xfs_init(void)
{
	/* The log reads single sectors into kmalloc()ed buffers. */
	kshim_kmalloc_from_pages(512);
	if (kshim_module_init_init_xfs_fs())
		kshim_fatal("kshim_xfs: init_xfs_fs() failed");
	kshim_percpu_benign_race(xfsstats.xs_stats,
		"XFS_STATS_INC(): raw_smp_processor_id() and a plain ++");
	return 0;
}
device_initcall(kshim_xfs_init);

/* ---- the xfs_mount (xfs_init_fs_context()) ----------------------------- */

static struct xfs_mount *mount_alloc(void)
{
	struct xfs_mount *mp = kzalloc(sizeof(*mp), GFP_KERNEL | __GFP_NOFAIL);

	spin_lock_init(&mp->m_sb_lock);
	xa_init(&mp->m_perags);
	mutex_init(&mp->m_growlock);
	mp->m_finobt_nores = true;
	mp->m_logbufs = -1;		/* the defaults: no mount options */
	mp->m_logbsize = -1;
	mp->m_allocsize_log = 16;
	/* xfs_fs_fill_super(): the per-mount statistics. */
	mp->m_stats.xs_stats = stats_alloc();
	if (!mp->m_stats.xs_stats)
		kshim_fatal("kshim_xfs: out of memory for the mount's statistics");
	return mp;
}

/* xfs_init_mount_workqueues(): the queues the log and buffers use. */
static int mount_workqueues(struct xfs_mount *mp)
{
	const char *id = mp->m_super->s_id;

	mp->m_buf_workqueue = alloc_workqueue("xfs-buf/%s",
			WQ_FREEZABLE | WQ_MEM_RECLAIM, 1, id);
	mp->m_unwritten_workqueue = alloc_workqueue("xfs-conv/%s",
			WQ_FREEZABLE | WQ_MEM_RECLAIM, 0, id);
	mp->m_reclaim_workqueue = alloc_workqueue("xfs-reclaim/%s",
			WQ_FREEZABLE | WQ_MEM_RECLAIM, 0, id);
	mp->m_blockgc_wq = alloc_workqueue("xfs-blockgc/%s",
			WQ_UNBOUND | WQ_FREEZABLE | WQ_MEM_RECLAIM, 0, id);
	mp->m_inodegc_wq = alloc_workqueue("xfs-inodegc/%s",
			WQ_FREEZABLE | WQ_MEM_RECLAIM, 1, id);
	mp->m_sync_workqueue = alloc_workqueue("xfs-sync/%s",
			WQ_FREEZABLE | WQ_MEM_RECLAIM, 0, id);
	if (!mp->m_buf_workqueue || !mp->m_unwritten_workqueue ||
	    !mp->m_reclaim_workqueue || !mp->m_blockgc_wq ||
	    !mp->m_inodegc_wq || !mp->m_sync_workqueue)
		return -ENOMEM;
	return 0;
}

static void mount_workqueues_destroy(struct xfs_mount *mp)
{
	struct workqueue_struct **wq[] = {
		&mp->m_sync_workqueue, &mp->m_inodegc_wq, &mp->m_blockgc_wq,
		&mp->m_reclaim_workqueue, &mp->m_unwritten_workqueue,
		&mp->m_buf_workqueue,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(wq); i++) {
		if (*wq[i])
			destroy_workqueue(*wq[i]);
		*wq[i] = NULL;
	}
}

/* xfs_init_percpu_counters() */
static int percpu_counters_init(struct xfs_mount *mp)
{
	struct percpu_counter *c[] = {
		&mp->m_icount, &mp->m_ifree, &mp->m_fdblocks,
		&mp->m_delalloc_blks, &mp->m_delalloc_rtextents,
		&mp->m_frextents,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		if (percpu_counter_init(c[i], 0, GFP_KERNEL)) {
			while (i--)
				percpu_counter_destroy(c[i]);
			return -ENOMEM;
		}
	}
	return 0;
}

static void percpu_counters_destroy(struct xfs_mount *mp)
{
	percpu_counter_destroy(&mp->m_icount);
	percpu_counter_destroy(&mp->m_ifree);
	percpu_counter_destroy(&mp->m_fdblocks);
	percpu_counter_destroy(&mp->m_delalloc_blks);
	percpu_counter_destroy(&mp->m_delalloc_rtextents);
	percpu_counter_destroy(&mp->m_frextents);
}

/* ---- xfs_mountfs(), up to the log ------------------------------------- */

static int mount_geometry(struct kshim_xfs *x)
{
	struct xfs_mount *mp = x->mp;
	struct xfs_sb *sbp = &mp->m_sb;
	unsigned int levels;
	int error;

	xfs_sb_mount_common(mp, sbp);
	xfs_alloc_compute_maxlevels(mp);
	xfs_bmap_compute_maxlevels(mp, XFS_DATA_FORK);
	xfs_bmap_compute_maxlevels(mp, XFS_ATTR_FORK);
	M_IGEO(mp)->attr_fork_offset = xfs_bmap_compute_attr_offset(mp);
	xfs_ialloc_setup_geometry(mp);
	xfs_rmapbt_compute_maxlevels(mp);
	xfs_refcountbt_compute_maxlevels(mp);
	levels = max(mp->m_alloc_maxlevels, M_IGEO(mp)->inobt_maxlevels);
	levels = max(levels, mp->m_rmap_maxlevels);
	mp->m_agbtree_maxlevels = max(levels, mp->m_refc_maxlevels);

	error = xfs_errortag_init(mp);
	if (error)
		return error;
	x->errortag = true;
	mp->m_allocsize_log = max_t(uint32_t, sbp->sb_blocklog,
				    mp->m_allocsize_log);
	mp->m_allocsize_blocks = 1U << (mp->m_allocsize_log -
					sbp->sb_blocklog);
	error = xfs_da_mount(mp);
	if (error)
		return error;
	x->da = true;
	xfs_trans_init(mp);
	error = xfs_initialize_perag(mp, 0, sbp->sb_agcount, sbp->sb_dblocks,
				     &mp->m_maxagi);
	if (error)
		return error;
	x->perag = true;
	if (XFS_IS_CORRUPT(mp, !sbp->sb_logblocks)) {
		xfs_warn(mp, "no log defined");
		return -EFSCORRUPTED;
	}
	return 0;
}

static struct kshim_bdev *open_device(const struct kshim_xfs_config *cfg,
				      const char *path, const char *name)
{
	struct kshim_bdev_config bc = {
		.path = path,
		.sector_size = cfg->sector_size,
		.name = name,
		.latency = cfg->latency,
	};

	return kshim_bdev_open(&bc);
}

/* Undo whatever of the mount was done; safe at every stage. */
static void teardown(struct kshim_xfs *x)
{
	struct xfs_mount *mp = x->mp;

	if (mp) {
		/*
		 * xfs_mountfs()'s out_fail_wait: cached buffers hold per-AG
		 * references, so they go before the per-AG structures (a
		 * failed log mount leaves recovery's buffers behind).
		 */
		if (mp->m_logdev_targp && mp->m_logdev_targp != mp->m_ddev_targp)
			xfs_buftarg_drain(mp->m_logdev_targp);
		if (mp->m_ddev_targp)
			xfs_buftarg_drain(mp->m_ddev_targp);
		if (x->perag)
			xfs_free_perag_range(mp, 0, mp->m_sb.sb_agcount);
		if (x->da)
			xfs_da_unmount(mp);
		if (x->errortag)
			xfs_errortag_del(mp);
		if (mp->m_sb_bp) {
			struct xfs_buf *bp = mp->m_sb_bp;

			xfs_buf_lock(bp);
			mp->m_sb_bp = NULL;
			xfs_buf_relse(bp);
		}
		if (mp->m_logdev_targp && mp->m_logdev_targp != mp->m_ddev_targp)
			xfs_free_buftarg(mp->m_logdev_targp);
		if (mp->m_ddev_targp)
			xfs_free_buftarg(mp->m_ddev_targp);
		mount_workqueues_destroy(mp);
		if (mp->m_icount.counters)
			percpu_counters_destroy(mp);
		free_percpu(mp->m_stats.xs_stats);
		kfree(mp);
	}
	kfree(x->sb);
	if (x->log && x->log != x->data)
		kshim_bdev_close(x->log);
	if (x->data)
		kshim_bdev_close(x->data);
	kfree(x);
}

int kshim_xfs_mount(const struct kshim_xfs_config *cfg, struct kshim_xfs **out)
{
	struct kshim_xfs *x = kzalloc(sizeof(*x), GFP_KERNEL | __GFP_NOFAIL);
	struct xfs_mount *mp;
	struct xfs_sb *sbp;
	int error, i;

	*out = NULL;
	x->data = open_device(cfg, cfg->image, "kshim-xfs");
	if (IS_ERR(x->data)) {
		error = PTR_ERR(x->data);
		x->data = NULL;
		goto fail;
	}
	x->log = x->data;
	if (cfg->log_image) {
		x->log = open_device(cfg, cfg->log_image, "kshim-xfslog");
		if (IS_ERR(x->log)) {
			error = PTR_ERR(x->log);
			x->log = NULL;
			goto fail;
		}
	}

	/* The superblock the messages and xfs_fs_writable() look at. */
	x->sb = kzalloc(sizeof(*x->sb), GFP_KERNEL | __GFP_NOFAIL);
	strscpy(x->sb->s_id, "kshim-xfs", sizeof(x->sb->s_id));
	INIT_LIST_HEAD(&x->sb->s_inodes);	/* evict_inodes() walks it */
	spin_lock_init(&x->sb->s_inode_list_lock);
	/* xfs_trans_alloc() takes sb_start_intwrite(). */
	for (i = 0; i < SB_FREEZE_LEVELS; i++)
		percpu_init_rwsem(&x->sb->s_writers.rw_sem[i]);
	x->sb->s_bdev = kshim_bdev_bdev(x->data);
	x->sb->s_bdev_file = kshim_bdev_file(x->data);
	mp = x->mp = mount_alloc();
	mp->m_super = x->sb;
	x->sb->s_fs_info = mp;

	error = mount_workqueues(mp);
	if (error)
		goto fail;
	error = percpu_counters_init(mp);
	if (error)
		goto fail;
	mp->m_ddev_targp = xfs_alloc_buftarg(mp, kshim_bdev_file(x->data));
	if (!mp->m_ddev_targp) {
		error = -ENOMEM;
		goto fail;
	}
	mp->m_logdev_targp = mp->m_ddev_targp;
	if (x->log != x->data) {
		mp->m_logdev_targp = xfs_alloc_buftarg(mp,
						kshim_bdev_file(x->log));
		if (!mp->m_logdev_targp) {
			error = -ENOMEM;
			goto fail;
		}
	}

	error = xfs_readsb(mp, 0);
	if (error)
		goto fail;
	sbp = &mp->m_sb;
	/* An internal log needs sb_logstart; an external one needs a device. */
	if (!sbp->sb_logstart != (x->log != x->data)) {
		xfs_warn(mp, "the log is %s but kshim was given %s",
			 sbp->sb_logstart ? "internal" : "external",
			 x->log != x->data ? "a log device" : "none");
		error = -EINVAL;
		goto fail;
	}
	/* xfs_setup_devices() */
	error = xfs_setsize_buftarg(mp->m_ddev_targp, sbp->sb_sectsize);
	if (!error && x->log != x->data)
		error = xfs_setsize_buftarg(mp->m_logdev_targp,
				xfs_has_sector(mp) ? sbp->sb_logsectsize :
						     BBSIZE);
	if (error)
		goto fail;

	error = mount_geometry(x);
	if (error)
		goto fail;
	error = xfs_log_mount(mp, mp->m_logdev_targp,
			      XFS_FSB_TO_DADDR(mp, sbp->sb_logstart),
			      XFS_FSB_TO_BB(mp, sbp->sb_logblocks));
	if (error) {
		xfs_warn(mp, "log mount failed");
		goto fail;
	}
	x->log_mounted = true;
	error = xfs_log_mount_finish(mp);
	if (error) {
		xfs_warn(mp, "log mount finish failed");
		xfs_log_mount_cancel(mp);
		x->log_mounted = false;
		goto fail;
	}
	*out = x;
	return 0;

fail:
	teardown(x);
	return error;
}

struct xfs_mount *kshim_xfs_mp(struct kshim_xfs *x)
{
	return x->mp;
}

void kshim_xfs_unmount(struct kshim_xfs *x)
{
	if (x->log_mounted)
		xfs_log_unmount(x->mp);
	teardown(x);
}

int kshim_xfs_crash(struct kshim_xfs *x, enum kshim_crash_mode mode,
		    struct kshim_crash_result *res)
{
	struct kshim_crash_result lres = { };
	int error;

	error = kshim_bdev_crash(x->data, mode, res);
	if (!error && x->log != x->data)
		error = kshim_bdev_crash(x->log, mode, &lres);
	if (error)
		return error;
	if (res) {
		res->cached += lres.cached;
		res->kept += lres.kept;
		res->torn += lres.torn;
	}
	/*
	 * The disk is gone: what the kernel does when it sees that. Every
	 * later I/O fails, the log shuts down, and the unmount of a shut
	 * down filesystem releases what is left.
	 */
	xfs_force_shutdown(x->mp, SHUTDOWN_DEVICE_REMOVED);
	kshim_xfs_unmount(x);
	return 0;
}

/* ---- xfsprogs ------------------------------------------------------------ */

int kshim_xfs_host_make_file(const char *path, unsigned long long bytes);
int kshim_xfs_host_run(const char *cmd, char *buf, size_t len);

int kshim_xfs_make_file(const char *path, u64 bytes)
{
	return kshim_xfs_host_make_file(path, bytes);
}

int kshim_xfs_mkfs(const char *path, u64 bytes, const char *opts)
{
	char cmd[1024], out[4096];
	int err, st;

	err = kshim_xfs_make_file(path, bytes);
	if (err) {
		kshim_info("kshim: cannot create %s: error %d\n", path, err);
		return -1;
	}
	/*
	 * TEST_DIR, TEST_DEV and QA_CHECK_FS, as fstests sets them: with all
	 * three, mkfs.xfs accepts test-sized filesystems below the 300 MB
	 * floor it keeps for real ones.
	 */
	snprintf(cmd, sizeof(cmd), "TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1 "
		 "mkfs.xfs -f -q %s %s",
		 opts ? opts : "", path);
	st = kshim_xfs_host_run(cmd, out, sizeof(out));
	if (st != 0) {
		kshim_info("kshim: '%s' failed (%d%s):\n%s\n", cmd, st,
			   st < 0 ? ": is xfsprogs installed?" : "", out);
		return -1;
	}
	return 0;
}

int kshim_xfs_logprint(const char *image, const char *log_image,
		       const char *args, char *buf, size_t len)
{
	char cmd[1024];

	if (log_image)
		snprintf(cmd, sizeof(cmd), "xfs_logprint %s -l %s %s",
			 args ? args : "", log_image, image);
	else
		snprintf(cmd, sizeof(cmd), "xfs_logprint %s %s",
			 args ? args : "", image);
	return kshim_xfs_host_run(cmd, buf, len);
}
