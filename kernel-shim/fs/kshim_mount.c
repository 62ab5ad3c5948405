// SPDX-License-Identifier: GPL-2.0
/*
 * Mounts without fs/namespace.c (not compiled: its mnt_init() builds the
 * mount tree on rootfs, sysfs and kernfs). A harness that mounts a
 * filesystem (kshim_xfs_mount()) makes one kshim mount for it: a struct
 * vfsmount on the filesystem's root with the identity idmap, in no
 * namespace and on no mount point, holding the root dentry as a mount
 * does. kshim/vfs.h builds its paths and files on it. These stand-ins
 * count its references (each open file holds one) and grant every write
 * access; a mount kshim did not make aborts. Lost (docs/FAKES.md): the
 * mount tree (nothing is mounted on anything, so no path crosses a
 * mount), read-only mounts and their writer counts, mount propagation.
 */
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/dcache.h>
#include <linux/list.h>
#include <linux/mnt_idmapping.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <kshim/mount.h>
#include <kshim/runtime.h>

#define KSHIM_MOUNT_MAGIC	0x6d6e7421	/* "mnt!" */

struct kshim_mount {
	struct vfsmount mnt;
	u32 magic;
	atomic_t count;			/* references beyond the mount's own */
	struct list_head list;		/* kshim_mounts */
};

static LIST_HEAD(kshim_mounts);
static DEFINE_SPINLOCK(kshim_mounts_lock);

/* Path walks read it (dcache.c, namei.c); no mount tree changes it. */
__cacheline_aligned_in_smp DEFINE_SEQLOCK(mount_lock);

static struct kshim_mount *kshim_mount(const char *fn, struct vfsmount *mnt)
{
	struct kshim_mount *km = container_of(mnt, struct kshim_mount, mnt);

	if (km->magic != KSHIM_MOUNT_MAGIC)
		kshim_fatal("%s(%p): not a mount kshim made", fn, mnt);
	return km;
}

struct vfsmount *kshim_mount_create(struct dentry *root)
{
	struct kshim_mount *km = kzalloc(sizeof(*km), GFP_KERNEL | __GFP_NOFAIL);

	km->mnt.mnt_root = root;
	km->mnt.mnt_sb = root->d_sb;
	km->mnt.mnt_idmap = &nop_mnt_idmap;
	km->magic = KSHIM_MOUNT_MAGIC;
	spin_lock(&kshim_mounts_lock);
	list_add(&km->list, &kshim_mounts);
	spin_unlock(&kshim_mounts_lock);
	return &km->mnt;
}

struct vfsmount *kshim_mount_of(struct super_block *sb)
{
	struct kshim_mount *km;

	spin_lock(&kshim_mounts_lock);
	list_for_each_entry(km, &kshim_mounts, list) {
		if (km->mnt.mnt_sb == sb) {
			spin_unlock(&kshim_mounts_lock);
			return &km->mnt;
		}
	}
	spin_unlock(&kshim_mounts_lock);
	kshim_fatal("%s: the super_block %p has no kshim mount", __func__, sb);
}

/* umount(): refused while a file is open on it (-EBUSY, as the kernel's
 * do_umount() refuses a busy mount); the root dentry is put. */
int kshim_mount_destroy(struct vfsmount *mnt)
{
	struct kshim_mount *km = kshim_mount(__func__, mnt);

	if (atomic_read(&km->count))
		return -EBUSY;
	spin_lock(&kshim_mounts_lock);
	list_del(&km->list);
	spin_unlock(&kshim_mounts_lock);
	dput(mnt->mnt_root);
	km->magic = 0;
	kfree(km);
	return 0;
}

struct vfsmount *mntget(struct vfsmount *mnt)
{
	if (mnt)
		atomic_inc(&kshim_mount(__func__, mnt)->count);
	return mnt;
}

void mntput(struct vfsmount *mnt)
{
	if (mnt && atomic_dec_return(&kshim_mount(__func__, mnt)->count) < 0)
		kshim_fatal("mntput(%p): more puts than gets", mnt);
}

/* No mount is read-only: every write access is granted. */
int mnt_get_write_access(struct vfsmount *mnt)
{
	kshim_mount(__func__, mnt);
	return 0;
}

void mnt_put_write_access(struct vfsmount *mnt)
{
	kshim_mount(__func__, mnt);
}

/* The file forms (a write to a file updates its times through them;
 * fallocate and ftruncate take sb_start_write()): as above, with the
 * superblock's freeze protection for the "want" pair. */
int mnt_get_write_access_file(struct file *file)
{
	return mnt_get_write_access(file->f_path.mnt);
}

void mnt_put_write_access_file(struct file *file)
{
	mnt_put_write_access(file->f_path.mnt);
}

int mnt_want_write_file(struct file *file)
{
	sb_start_write(file_inode(file)->i_sb);
	return mnt_get_write_access_file(file);
}

void mnt_drop_write_file(struct file *file)
{
	mnt_put_write_access_file(file);
	sb_end_write(file_inode(file)->i_sb);
}

bool __mnt_is_readonly(struct vfsmount *mnt)
{
	kshim_mount(__func__, mnt);
	return false;
}

/* start_kernel()'s vfs_caches_init() calls it: no mount tree to build. */
void __init mnt_init(void)
{
}
