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
#include <linux/fs_struct.h>
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

/* kernel/fork.c's cache of fs_struct (fs/fs_struct.c allocates from it
 * when a task unshares its root and cwd), made as proc_caches_init()
 * makes it. */
struct kmem_cache *fs_cachep;

static int __init kshim_vfs_init(void)
{
	fs_cachep = kmem_cache_create("fs_cache", sizeof(struct fs_struct), 0,
				      SLAB_HWCACHE_ALIGN | SLAB_PANIC |
				      SLAB_ACCOUNT, NULL);
	register_sysctl_init("vm", kshim_vm_writeback_table);
	vfs_caches_init_early();	/* the dentry and inode hash tables */
	vfs_caches_init();	/* their caches, the file table, names_cache */
	pagecache_init();	/* folio wait queues, then page_writeback_init() */
	return 0;
}
core_initcall(kshim_vfs_init);

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

/* ==== Objects only device nodes and pipes use (fs/ files) ===================
 * init_special_inode() and splice name these tables; kshim creates no
 * device nodes or pipes, so nothing calls through them. */
const struct file_operations def_blk_fops;
const struct file_operations def_chr_fops;
const struct file_operations pipefifo_fops;
const struct pipe_buf_operations page_cache_pipe_buf_ops;

/* ==== What vfs_caches_init() starts beyond the caches ======================
 * fs/char_dev.c's device-number map: kshim makes no character devices. */
void __init chrdev_init(void)
{
}

/* fs/fcntl.c (not compiled: signals to file owners): no file of kshim's
 * ever gets an owner (F_SETOWN), so there is none to release. */
void file_f_owner_release(struct file *file)
{
	if (file->f_owner)
		kshim_fatal("%s: a file with an owner", __func__);
}
