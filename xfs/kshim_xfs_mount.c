// SPDX-License-Identifier: GPL-2.0
/*
 * Mounting XFS on kshim block devices, as the kernel mounts it: an
 * fs_context for the registered "xfs" type (init_xfs_fs() registered
 * it), the log device as the "logdev" option (the real
 * xfs_fs_parse_param()), then the real vfs_get_tree(): xfs_fs_get_tree()
 * -> get_tree_bdev() -> sget_dev() (alloc_super(): the superblock and its
 * shrinker) -> setup_bdev_super() -> xfs_fs_fill_super() -> the whole of
 * xfs_mountfs() (the log and its recovery, the root inode, AG
 * reservations, inodegc). Unmount drops the root and the superblock's
 * last active reference: deactivate_super() -> xfs_kill_sb() ->
 * kill_block_super() -> xfs_fs_put_super() -> xfs_unmountfs().
 *
 * fs/fs_context.c is not compiled: the context is filled in here the way
 * fs_context_for_mount() and put_fs_context() do (docs/FAKES.md).
 */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_stats.h"
#include <linux/cred.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/init.h>
#include <linux/user_namespace.h>
#include <kshim/bdev.h>
#include <kshim/runtime.h>
#include <kshim/xfs.h>
#include <kshim/mount.h>

#define DATA_NAME	"kshim-xfs"
#define LOG_NAME	"kshim-xfslog"

struct kshim_xfs {
	struct kshim_bdev *data, *log;	/* log == data: internal log */
	struct vfsmount *mnt;		/* holds the root dentry */
	struct super_block *sb;
	struct xfs_mount *mp;
};

/*
 * init_xfs_fs(), the real module init: the caches, the global
 * workqueues, the global statistics, /sys/fs/xfs (no sysfs: kobjects
 * only) and register_filesystem(). What it sets up lives as long as the
 * program, like boot-time memory (not leaks).
 */
extern int (*const kshim_module_init_init_xfs_fs)(void);
extern void (*const kshim_module_exit_exit_xfs_fs)(void);

/* exit_xfs_fs(), the real module exit, at the end of the program: it
 * gives back what XFS keeps until unload (the table of mounted UUIDs,
 * the caches, the global workqueues and statistics). */
static void kshim_xfs_exit(void)
{
	kshim_module_exit_exit_xfs_fs();
}

static const char stats_race[] =
	"XFS_STATS_INC(): raw_smp_processor_id() and a plain ++";

static int __init kshim_xfs_init(void)
{
	/* The log reads single sectors into kmalloc()ed buffers. */
	kshim_kmalloc_from_pages(512);
	if (kshim_module_init_init_xfs_fs())
		kshim_fatal("kshim_xfs: init_xfs_fs() failed");
	/*
	 * XFS counts its statistics racily on purpose: xfs_stats.h
	 * increments the counter of current_cpu() (raw_smp_processor_id())
	 * with a plain ++ and preemption enabled, and a lost update is
	 * accepted. kshim's parallel backend runs several tasks on one
	 * simulated CPU at once, which makes that race common: TSan is told
	 * it is intended (the per-mount statistics too, after the mount).
	 */
	kshim_percpu_benign_race(xfsstats.xs_stats, stats_race);
	kshim_at_exit(kshim_xfs_exit);
	return 0;
}
device_initcall(kshim_xfs_init);

static struct kshim_bdev *open_device(const struct kshim_xfs_config *cfg,
				      const char *path, const char *name)
{
	struct kshim_bdev_config bc = {
		.path = path,
		.sector_size = cfg->sector_size,
		.name = name,
		.latency = cfg->latency,
		.queue_depth = cfg->queue_depth,
	};

	return kshim_bdev_open(&bc);
}

static void close_devices(struct kshim_xfs *x)
{
	if (x->log && x->log != x->data)
		kshim_bdev_close(x->log);
	if (x->data)
		kshim_bdev_close(x->data);
	kfree(x);
}

/* fs_context_for_mount(), vfs_parse_fs_string(), vfs_get_tree(),
 * put_fs_context(): the superblock, s_umount released, or -errno. */
/* A flag mount option, as vfs_parse_fs_string() hands one over. */
static int parse_flag(struct fs_context *fc, const char *key)
{
	struct fs_parameter param = {
		.key	= key,
		.type	= fs_value_is_flag,
	};

	return fc->ops->parse_param(fc, &param);
}

static int get_tree(struct kshim_xfs *x, bool read_only, bool nouuid)
{
	struct file_system_type *type = get_fs_type("xfs");
	struct fs_context *fc;
	int error;

	if (!type)
		kshim_fatal("kshim_xfs: the xfs filesystem type is not registered");
	fc = kzalloc(sizeof(*fc), GFP_KERNEL | __GFP_NOFAIL);
	fc->purpose = FS_CONTEXT_FOR_MOUNT;
	fc->fs_type = type;
	if (read_only)
		fc->sb_flags |= SB_RDONLY;
	/* Borrowed, not counted: the task's credentials outlive the call
	 * (and kernel/cred.c, which frees them, is not compiled). */
	fc->cred = current_cred();
	fc->user_ns = get_user_ns(fc->cred->user_ns);
	fc->log.prefix = type->name;
	fc->source = kstrdup(DATA_NAME, GFP_KERNEL | __GFP_NOFAIL);
	error = type->init_fs_context(fc);
	if (!error && x->log != x->data) {
		struct fs_parameter param = {
			.key	= "logdev",
			.type	= fs_value_is_string,
			.string	= kstrdup(LOG_NAME, GFP_KERNEL | __GFP_NOFAIL),
			.size	= strlen(LOG_NAME),
		};

		error = fc->ops->parse_param(fc, &param);
		kfree(param.string);
	}
	if (!error && nouuid)
		error = parse_flag(fc, "nouuid");
	if (!error)
		error = vfs_get_tree(fc);
	if (!error) {
		x->mnt = kshim_mount_create(fc->root);
		fc->root = NULL;
		x->sb = x->mnt->mnt_sb;
		x->mp = XFS_M(x->sb);
		up_write(&x->sb->s_umount);
		kshim_percpu_benign_race(x->mp->m_stats.xs_stats, stats_race);
	}
	if (fc->ops && fc->ops->free)
		fc->ops->free(fc);
	put_user_ns(fc->user_ns);
	kfree(fc->source);
	kfree(fc);
	return error;
}

int kshim_xfs_mount(const struct kshim_xfs_config *cfg, struct kshim_xfs **out)
{
	struct kshim_xfs *x = kzalloc(sizeof(*x), GFP_KERNEL | __GFP_NOFAIL);
	int error;

	*out = NULL;
	x->data = open_device(cfg, cfg->image, DATA_NAME);
	if (IS_ERR(x->data)) {
		error = PTR_ERR(x->data);
		x->data = NULL;
		goto fail;
	}
	if (cfg->observer)
		kshim_bdev_set_observer(x->data, cfg->observer,
					cfg->observer_priv);
	x->log = x->data;
	if (cfg->log_image) {
		x->log = open_device(cfg, cfg->log_image, LOG_NAME);
		if (IS_ERR(x->log)) {
			error = PTR_ERR(x->log);
			x->log = NULL;
			goto fail;
		}
	}
	error = get_tree(x, cfg->read_only, cfg->nouuid);
	if (error)
		goto fail;
	*out = x;
	return 0;

fail:
	close_devices(x);
	return error;
}

struct xfs_mount *kshim_xfs_mp(struct kshim_xfs *x)
{
	return x->mp;
}

struct super_block *kshim_xfs_sb(struct kshim_xfs *x)
{
	return x->sb;
}

struct kshim_bdev *kshim_xfs_data_bdev(struct kshim_xfs *x)
{
	return x->data;
}

/*
 * xfs_free_perag_range(), the unmount's last step, checks that nothing
 * still holds a reference to a perag it frees: XFS_IS_CORRUPT() on its
 * passive (pag_ref) and active (pag_active_ref) counts. In every build
 * that is an alert and no more, and the perag is freed all the same, so
 * a leaked reference (an xfs_perag_get() without its xfs_perag_put())
 * would pass unnoticed: here it fails the test. The needle is the start
 * of XFS_IS_CORRUPT()'s expression for both, as xfs_error_report()
 * prints it.
 */
static const char perag_ref_left[] =
	"Internal error atomic_read(&pag->pag_";

void kshim_xfs_unmount(struct kshim_xfs *x)
{
	unsigned long mark;

	if (kshim_mount_destroy(x->mnt))
		kshim_fatal("kshim_xfs_unmount: a file is still open");
	mark = kshim_printk_mark();
	deactivate_super(x->sb);
	if (kshim_printk_contains_since(mark, perag_ref_left))
		kshim_report("kshim_xfs_unmount: a perag reference was left "
			     "at unmount (xfs_free_perag_range()'s alert "
			     "above): a leaked xfs_perag_get()");
	close_devices(x);
}

int kshim_xfs_power_cut(struct kshim_xfs *x, enum kshim_crash_mode mode,
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
	return 0;
}

int kshim_xfs_crash(struct kshim_xfs *x, enum kshim_crash_mode mode,
		    struct kshim_crash_result *res)
{
	int error = kshim_xfs_power_cut(x, mode, res);

	if (error)
		return error;
	kshim_xfs_unmount(x);
	return 0;
}

/* ---- xfsprogs ------------------------------------------------------------ */

int kshim_xfs_host_make_file(const char *path, unsigned long long bytes);
int kshim_xfs_host_run(const char *cmd, char *buf, size_t len);
int kshim_xfs_host_image_cache_get(const char *key, const char *path);
void kshim_xfs_host_image_cache_put(const char *key, const char *path);

int kshim_xfs_make_file(const char *path, u64 bytes)
{
	return kshim_xfs_host_make_file(path, bytes);
}

/*
 * mkfs.xfs writes a random UUID into every metadata block and the current
 * time into the root inode and its siblings. Both are pinned, so that an
 * image, and a run on it, depend on the seed alone: the UUID comes from
 * the run's seed and ID, the time is frozen by faketime (libfaketime).
 */
#define KSHIM_MKFS_TIME	"2024-01-01 00:00:00"

int kshim_xfs_mkfs_id(const char *path, u64 bytes, const char *opts, u64 id)
{
	char mkfs[512], key[600], cmd[1024], out[4096];
	u64 state = kshim_seed() ^ (0x9E3779B97F4A7C15ULL * (id + 1));
	u64 hi = kshim_random(&state), lo = kshim_random(&state);
	int err, st;

	/*
	 * TEST_DIR, TEST_DEV and QA_CHECK_FS, as fstests sets them: with all
	 * three, mkfs.xfs accepts test-sized filesystems below the 300 MB
	 * floor it keeps for real ones. The UUID is a version 4 one.
	 */
	snprintf(mkfs, sizeof(mkfs), "TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1 "
		 "faketime -f '%s' mkfs.xfs -f -q "
		 "-m uuid=%08x-%04x-4%03x-%04x-%012llx %s", KSHIM_MKFS_TIME,
		 (u32)(hi >> 32), (u32)(hi >> 16) & 0xffff,
		 (u32)hi & 0xfff, 0x8000 | ((u32)(lo >> 48) & 0x3fff),
		 (unsigned long long)(lo & 0xffffffffffffULL),
		 opts ? opts : "");
	/* The image is this command's on a file of this size, wherever it
	 * is: KSHIM_MKFS_CACHE may hold it (kshim_xfs_image_cache.c). */
	snprintf(key, sizeof(key), "%llu %s", (unsigned long long)bytes,
		 mkfs);
	if (kshim_xfs_host_image_cache_get(key, path) == 0)
		return 0;
	err = kshim_xfs_make_file(path, bytes);
	if (err) {
		kshim_info("kshim: cannot create %s: error %d\n", path, err);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "%s %s", mkfs, path);
	st = kshim_xfs_host_run(cmd, out, sizeof(out));
	if (st != 0) {
		kshim_info("kshim: '%s' failed (%d%s):\n%s\n", cmd, st,
			   st == 127 || st < 0 ? ": are xfsprogs and faketime "
			   "installed? (./kshim setup)" : "", out);
		return -1;
	}
	kshim_xfs_host_image_cache_put(key, path);
	return 0;
}

int kshim_xfs_mkfs(const char *path, u64 bytes, const char *opts)
{
	static atomic64_t images;

	return kshim_xfs_mkfs_id(path, bytes, opts,
				 atomic64_inc_return(&images));
}

/*
 * -n checks without writing. The others change how xfs_repair works, not
 * what it checks: -P turns off its read-ahead threads, phase2_threads=1
 * scans the AG headers in one thread instead of 32, and bhash=4096 sizes
 * its buffer cache's hash instead of by the host's memory (the cache then
 * holds at most 8 x 4096 entries, xfs_repair(8); a smaller cache costs
 * rereads, not checks): on 24 GiB the default cost 2200 of a check's
 * 2700 page faults. On a 256 MiB image, per check: 5.6 ms of CPU with
 * all three, 10.0 ms without bhash, 17.8 ms with none; the suite runs
 * some 750 checks, session 22 counted (docs/measurements.md).
 */
#define KSHIM_XFS_REPAIR_CHECK \
	"xfs_repair -n -P -o phase2_threads=1 -o bhash=4096"

int kshim_xfs_repair_check(const char *image, const char *log_image,
			   char *buf, size_t len)
{
	char cmd[1024];

	if (log_image)
		snprintf(cmd, sizeof(cmd), "%s -l %s %s", KSHIM_XFS_REPAIR_CHECK,
			 log_image, image);
	else
		snprintf(cmd, sizeof(cmd), "%s %s", KSHIM_XFS_REPAIR_CHECK,
			 image);
	return kshim_xfs_host_run(cmd, buf, len);
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
