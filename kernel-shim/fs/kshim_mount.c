// SPDX-License-Identifier: GPL-2.0
/*
 * No mounts (fs/namespace.c is not compiled: its mnt_init() builds the
 * mount tree on rootfs, sysfs and kernfs). kshim/vfs.h reaches a
 * filesystem through its super_block's root dentry, and a file it opens
 * has no mount: f_path.mnt is NULL. These stand-ins take the one mount
 * kshim has, NULL, as the real functions take any mount; any other is a
 * mount kshim did not make and aborts. Lost (docs/FAKES.md): read-only
 * mounts and their write counts, so a remount to read-only cannot wait
 * for writers, and the mount hash walked by path lookup (no path walk
 * happens).
 */
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/seqlock.h>
#include <kshim/runtime.h>

/* Path walks read it (dcache.c, namei.c); no mount changes it. */
__cacheline_aligned_in_smp DEFINE_SEQLOCK(mount_lock);

static void kshim_no_mount(const char *fn, struct vfsmount *mnt)
{
	if (mnt)
		kshim_fatal("%s(%p): kshim makes no mounts", fn, mnt);
}

struct vfsmount *mntget(struct vfsmount *mnt)
{
	kshim_no_mount(__func__, mnt);
	return mnt;
}

void mntput(struct vfsmount *mnt)
{
	kshim_no_mount(__func__, mnt);
}

/* No mount is read-only: every write access is granted. */
int mnt_get_write_access(struct vfsmount *mnt)
{
	kshim_no_mount(__func__, mnt);
	return 0;
}

void mnt_put_write_access(struct vfsmount *mnt)
{
	kshim_no_mount(__func__, mnt);
}

bool __mnt_is_readonly(struct vfsmount *mnt)
{
	kshim_no_mount(__func__, mnt);
	return false;
}

/* start_kernel()'s vfs_caches_init() calls it: no mount tree to build. */
void __init mnt_init(void)
{
}
