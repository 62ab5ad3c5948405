// SPDX-License-Identifier: GPL-2.0
/*
 * The VFS around the real fs/inode.c, fs/super.c and fs/fs-writeback.c:
 * what kshim fakes because the real file is the dentry cache or needs
 * device nodes and pipes, none of which a kshim filesystem uses (the
 * driver model is drivers/base/kshim_device.c, block-device inodes
 * block/kshim_bdev.c). Listed in docs/FAKES.md with what each loses; the
 * calls kshim never makes are loud stubs (kshim_stubs_vfs.c).
 *
 * Linked whole with the writeback library: its initcall sets up the
 * inode cache as start_kernel()'s vfs_caches_init() does.
 */
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/iversion.h>
#include <linux/dcache.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/memblock.h>
#include <linux/blkdev.h>
#include <linux/writeback.h>
#include <linux/sysctl.h>
#include <linux/pipe_fs_i.h>
#include <linux/user_namespace.h>
#include <linux/log2.h>
#include <kshim/host.h>
#include <kshim/runtime.h>


/* ==== The inode cache (fs/inode.c's inode_init(), mm/mm_init.c) ========== */

/*
 * mm/mm_init.c sizes a boot hash from the memory size; kshim does the
 * same with the simulated memory (one bucket per 2^scale bytes, a power
 * of two, within the limits), allocated zeroed. Lost: the boot-time
 * memblock allocation and the "printk the table size" line.
 */
void *alloc_large_system_hash(const char *tablename, unsigned long bucketsize,
			      unsigned long numentries, int scale, int flags,
			      unsigned int *_hash_shift,
			      unsigned int *_hash_mask,
			      unsigned long low_limit,
			      unsigned long high_limit)
{
	unsigned long bytes = totalram_pages() << PAGE_SHIFT;
	void *table;

	if (!numentries)
		numentries = max(bytes >> scale, 1UL);
	numentries = roundup_pow_of_two(numentries);
	if (numentries < low_limit)
		numentries = low_limit;
	if (high_limit && numentries > high_limit)
		numentries = high_limit;
	/* Boot memory, as memblock's is: never freed, not a leak. */
	table = kshim_host_alloc(numentries * bucketsize, PAGE_SIZE);
	if (table)
		memset(table, 0, numentries * bucketsize);
	if (!table)
		kshim_fatal("cannot allocate the %s hash table", tablename);
	if (_hash_shift)
		*_hash_shift = ilog2(numentries);
	if (_hash_mask)
		*_hash_mask = numentries - 1;
	return table;
}

/* What start_kernel() calls directly rather than as initcalls: the
 * inode hash (vfs_caches_init_early(); early unless NUMA hash spreading
 * is on) and cache (vfs_caches_init()), and pagecache_init(): the folio
 * wait queues, then the global dirty-limit domain, its CPU hotplug hooks
 * and the "vm" sysctls (page_writeback_init()). */
/* The "vm" entry of kernel/sysctl.c (not compiled) that fs-writeback.c
 * serves: the expiry of timestamp-only (lazytime) dirt. */
static struct ctl_table kshim_vm_writeback_table[] = {
	{
		.procname	= "dirtytime_expire_seconds",
		.data		= &dirtytime_expire_interval,
		.maxlen		= sizeof(dirtytime_expire_interval),
		.mode		= 0644,
		.proc_handler	= dirtytime_interval_handler,
		.extra1		= SYSCTL_ZERO,
	},
};

static int __init kshim_vfs_init(void)
{
	register_sysctl_init("vm", kshim_vm_writeback_table);
	inode_init_early();
	inode_init();
	pagecache_init();	/* folio wait queues, then page_writeback_init() */
	return 0;
}
core_initcall(kshim_vfs_init);

/* ==== No dentry cache (fs/dcache.c) =======================================
 * kshim filesystems have no dentry cache: the superblock's dentry LRU is
 * always empty, so pruning finds nothing. A filesystem's root is a
 * placeholder it owns (the VFS only tests that there is one), so unmount
 * detaches it rather than freeing a tree. Lost: everything dentries do. */

int sysctl_vfs_cache_pressure __read_mostly = 100;	/* the kernel default */

long prune_dcache_sb(struct super_block *sb, struct shrink_control *sc)
{
	return 0;
}

void shrink_dcache_sb(struct super_block *sb)
{
}

/*
 * A root dentry for a filesystem that asks for one (XFS's mount calls
 * d_make_root()): it holds the root inode's reference and counts its own
 * references; nothing ever looks names up under it. kshim_dentry_ops
 * tells it from a placeholder root a kshim filesystem owns.
 */
static const struct dentry_operations kshim_dentry_ops;

struct dentry *d_make_root(struct inode *root_inode)
{
	struct dentry *d;

	if (!root_inode)
		return NULL;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d) {
		iput(root_inode);
		return NULL;
	}
	spin_lock_init(&d->d_lock);
	d->d_lockref.count = 1;
	d->d_inode = root_inode;
	d->d_sb = root_inode->i_sb;
	d->d_parent = d;
	d->d_op = &kshim_dentry_ops;
	d->d_name.name = d->d_iname;
	d->d_iname[0] = '/';
	INIT_LIST_HEAD(&d->d_lru);
	INIT_HLIST_NODE(&d->d_u.d_alias);
	INIT_HLIST_HEAD(&d->d_children);
	return d;
}

void dput(struct dentry *d)
{
	bool last;

	if (!d)
		return;
	if (d->d_op != &kshim_dentry_ops)
		kshim_fatal("dput() of a dentry kshim did not make");
	spin_lock(&d->d_lock);
	if (d->d_lockref.count <= 0)
		kshim_fatal("dput(): the root dentry's count is %d",
			    d->d_lockref.count);
	last = --d->d_lockref.count == 0;
	spin_unlock(&d->d_lock);
	if (last) {
		iput(d->d_inode);
		kfree(d);
	}
}

/* Unmount: a placeholder root is detached; a made one is put (its last
 * reference: the mount's went first), which puts the root inode. */
void shrink_dcache_for_umount(struct super_block *sb)
{
	struct dentry *root = sb->s_root;

	sb->s_root = NULL;
	if (root && root->d_op == &kshim_dentry_ops)
		dput(root);
}

/* fs/fs_context.c's logging: to the kernel log, as with no log buffer. */
void logfc(struct fc_log *log, const char *prefix, char level,
	   const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	switch (level) {
	case 'w':
		pr_warn("%s%s%pV\n", prefix ?: "", prefix ? ": " : "", &vaf);
		break;
	case 'e':
		pr_err("%s%s%pV\n", prefix ?: "", prefix ? ": " : "", &vaf);
		break;
	default:
		pr_notice("%s%s%pV\n", prefix ?: "", prefix ? ": " : "", &vaf);
		break;
	}
	va_end(args);
}

void d_genocide(struct dentry *root)
{
	kshim_fatal("%s: kshim has no dentries", __func__);
}

/* ==== fs/libfs.c (not compiled: it needs the dentry cache, the maple
 * tree and mounts) ========================================================
 * The change attribute an inode's modifications bump (XFS logs it in
 * every inode it changes): the kernel's rule, bumped only when it was
 * queried since the last bump, unless forced. */

bool inode_maybe_inc_iversion(struct inode *inode, bool force)
{
	u64 cur = inode_peek_iversion_raw(inode), new;

	do {
		if (!force && !(cur & I_VERSION_QUERIED))
			return false;
		new = (cur & ~I_VERSION_QUERIED) + I_VERSION_INCREMENT;
	} while (!atomic64_try_cmpxchg(&inode->i_version, &cur, new));
	return true;
}

/* ==== Objects only device nodes and pipes use (fs/ files) ===================
 * init_special_inode() and splice name these tables; kshim creates no
 * device nodes or pipes, so nothing calls through them. */
const struct file_operations def_blk_fops;
const struct file_operations def_chr_fops;
const struct file_operations pipefifo_fops;
const struct pipe_buf_operations page_cache_pipe_buf_ops;
