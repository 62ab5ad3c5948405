// SPDX-License-Identifier: GPL-2.0
/*
 * kshim/vfs.h: the system calls' half after the path walk (fs/namei.c's
 * do_mkdirat(), do_unlinkat(), do_renameat2()...; fs/open.c, fs/stat.c,
 * fs/xattr.c, fs/readdir.c), on a parent dentry and one name instead of
 * a path. The locking, the lookups and the checks each call makes before
 * its vfs_*() function are those of the system call, in the same order,
 * so errors come out as the kernel returns them. What is left out is the
 * path walk itself, mounts (kshim_mount.c: none) and the security hooks
 * (no security module).
 */
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/init_task.h>
#include <linux/namei.h>
#include <linux/dcache.h>
#include <linux/file.h>
#include <linux/stat.h>
#include <linux/xattr.h>
#include <linux/task_work.h>
#include <linux/cred.h>
#include <linux/mnt_idmapping.h>
#include <linux/string.h>
#include <kshim/vfs.h>
#include <kshim/mount.h>
#include <kshim/runtime.h>
#include "kshim_vfs_call.h"

/*
 * Every call starts here: the task gets init_fs (its umask is what
 * vfs_prepare_mode() applies), as every kernel thread has; kshim's tasks
 * start with none.
 */
void kshim_vfs_call_begin(void)
{
	if (!current->fs)
		current->fs = &init_fs;
}

/* And ends here: the task's deferred work (a last fput() queues the
 * release of the file) runs where a system call returns to user space. */
long kshim_vfs_call_end(long ret)
{
	task_work_run();
	return ret;
}

#define call_begin	kshim_vfs_call_begin
#define call_end	kshim_vfs_call_end

/* The vfs_*() calls hand back an inode whose lease must be broken
 * before a retry (break_deleg_wait()); kshim never sets a lease. */
static void no_delegation(const char *fn, struct inode *delegated)
{
	if (delegated)
		kshim_fatal("%s: a delegation to break (no lease is ever set)",
			    fn);
}

struct dentry *kshim_vfs_root(struct super_block *sb)
{
	return dget(kshim_mount_of(sb)->mnt_root);
}

/* The path of DENTRY on its filesystem's kshim mount. */
struct path kshim_vfs_path_of(struct dentry *dentry)
{
	return (struct path) {
		.mnt = kshim_mount_of(dentry->d_sb),
		.dentry = dentry,
	};
}
#define path_of	kshim_vfs_path_of

void kshim_vfs_put(struct dentry *dentry)
{
	call_begin();
	dput(dentry);
	call_end(0);
}

/* The path walk's last step: the parent must be a directory (-ENOTDIR,
 * as link_path_walk() says) the task may search (lookup_one_len()). */
struct dentry *kshim_vfs_lookup_locked(struct dentry *dir, const char *name)
{
	if (!d_can_lookup(dir))
		return ERR_PTR(-ENOTDIR);
	return lookup_one_len(name, dir, strlen(name));
}
#define lookup_locked	kshim_vfs_lookup_locked

struct dentry *kshim_vfs_lookup(struct dentry *dir, const char *name)
{
	struct dentry *d;

	call_begin();
	if (!d_can_lookup(dir))
		return ERR_PTR(call_end(-ENOTDIR));
	d = lookup_one_len_unlocked(name, dir, strlen(name));
	if (!IS_ERR(d) && d_is_negative(d)) {
		dput(d);
		d = ERR_PTR(-ENOENT);
	}
	call_end(0);
	return d;
}

enum create_kind { CREATE_FILE, CREATE_DIR, CREATE_SYMLINK, CREATE_NODE };

/*
 * filename_create() after the walk: the parent locked, the name looked
 * up, -EEXIST if it is there; then the vfs_*() call; the new dentry is
 * handed out or put.
 */
static int create(struct dentry *dir, const char *name, enum create_kind kind,
		  umode_t mode, const char *target, struct dentry **out)
{
	struct inode *dinode = d_inode(dir);
	struct dentry *d;
	int err;

	call_begin();
	inode_lock_nested(dinode, I_MUTEX_PARENT);
	d = lookup_locked(dir, name);
	if (IS_ERR(d)) {
		err = PTR_ERR(d);
		goto unlock;
	}
	err = -EEXIST;
	if (d_is_positive(d))
		goto put;
	switch (kind) {
	case CREATE_FILE:
		err = vfs_create(&nop_mnt_idmap, dinode, d, mode, true);
		break;
	case CREATE_DIR:
		err = vfs_mkdir(&nop_mnt_idmap, dinode, d, mode);
		break;
	case CREATE_SYMLINK:
		err = vfs_symlink(&nop_mnt_idmap, dinode, d, target);
		break;
	case CREATE_NODE:
		/* may_mknod(): FIFOs and sockets; no device numbers. */
		err = -EINVAL;
		if (S_ISFIFO(mode) || S_ISSOCK(mode))
			err = vfs_mknod(&nop_mnt_idmap, dinode, d, mode, 0);
		break;
	}
put:
	if (!err && out)
		*out = d;
	else
		dput(d);
unlock:
	inode_unlock(dinode);
	return call_end(err);
}

int kshim_vfs_create(struct dentry *dir, const char *name, umode_t mode,
		     struct dentry **out)
{
	return create(dir, name, CREATE_FILE, S_IFREG | (mode & ~S_IFMT),
		      NULL, out);
}

int kshim_vfs_mkdir(struct dentry *dir, const char *name, umode_t mode,
		    struct dentry **out)
{
	return create(dir, name, CREATE_DIR, mode, NULL, out);
}

int kshim_vfs_symlink(struct dentry *dir, const char *name,
		      const char *target, struct dentry **out)
{
	return create(dir, name, CREATE_SYMLINK, 0, target, out);
}

int kshim_vfs_mknod(struct dentry *dir, const char *name, umode_t mode,
		    struct dentry **out)
{
	return create(dir, name, CREATE_NODE, mode, NULL, out);
}

/* do_linkat() after the walks: the new name is created as above. */
int kshim_vfs_link(struct dentry *old, struct dentry *newdir,
		   const char *newname)
{
	struct inode *dinode = d_inode(newdir);
	struct inode *delegated = NULL;
	struct dentry *d;
	int err;

	call_begin();
	inode_lock_nested(dinode, I_MUTEX_PARENT);
	d = lookup_locked(newdir, newname);
	if (IS_ERR(d)) {
		err = PTR_ERR(d);
		goto unlock;
	}
	err = -EEXIST;
	if (d_is_negative(d))
		err = vfs_link(old, &nop_mnt_idmap, dinode, d, &delegated);
	dput(d);
unlock:
	inode_unlock(dinode);
	no_delegation(__func__, delegated);
	return call_end(err);
}

/*
 * do_unlinkat(): the inode is held across the unlink and put after the
 * parent is unlocked, so that the last iput() (eviction, and XFS's
 * inactivation) does not run under the directory's lock.
 */
int kshim_vfs_unlink(struct dentry *dir, const char *name)
{
	struct inode *dinode = d_inode(dir);
	struct inode *delegated = NULL, *inode = NULL;
	struct dentry *d;
	int err;

	call_begin();
	inode_lock_nested(dinode, I_MUTEX_PARENT);
	d = lookup_locked(dir, name);
	err = PTR_ERR(d);
	if (!IS_ERR(d)) {
		if (d_is_negative(d)) {
			err = -ENOENT;
		} else {
			inode = d_inode(d);
			ihold(inode);
			err = vfs_unlink(&nop_mnt_idmap, dinode, d, &delegated);
		}
		dput(d);
	}
	inode_unlock(dinode);
	if (inode)
		iput(inode);
	no_delegation(__func__, delegated);
	return call_end(err);
}

/* do_rmdir() after the walk. */
int kshim_vfs_rmdir(struct dentry *dir, const char *name)
{
	struct inode *dinode = d_inode(dir);
	struct dentry *d;
	int err;

	call_begin();
	inode_lock_nested(dinode, I_MUTEX_PARENT);
	d = lookup_locked(dir, name);
	err = PTR_ERR(d);
	if (!IS_ERR(d)) {
		err = -ENOENT;
		if (d_is_positive(d))
			err = vfs_rmdir(&nop_mnt_idmap, dinode, d);
		dput(d);
	}
	inode_unlock(dinode);
	return call_end(err);
}

/* do_renameat2() after the walks, checks in its order. */
int kshim_vfs_rename(struct dentry *olddir, const char *oldname,
		     struct dentry *newdir, const char *newname,
		     unsigned int flags)
{
	struct inode *delegated = NULL;
	struct dentry *trap, *old, *new;
	struct renamedata rd;
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)) &&
	    (flags & RENAME_EXCHANGE))
		return -EINVAL;
	if (olddir->d_sb != newdir->d_sb)
		return -EXDEV;	/* different mounts */

	call_begin();
	trap = lock_rename(newdir, olddir);
	if (IS_ERR(trap))
		return call_end(PTR_ERR(trap));
	old = lookup_locked(olddir, oldname);
	err = PTR_ERR(old);
	if (IS_ERR(old))
		goto unlock;
	err = -ENOENT;
	if (d_is_negative(old))
		goto put_old;
	new = lookup_locked(newdir, newname);
	err = PTR_ERR(new);
	if (IS_ERR(new))
		goto put_old;
	err = -EEXIST;
	if ((flags & RENAME_NOREPLACE) && d_is_positive(new))
		goto put_new;
	err = -ENOENT;
	if ((flags & RENAME_EXCHANGE) && d_is_negative(new))
		goto put_new;
	/* The source must not be an ancestor of the target, nor the
	 * target of the source. */
	err = -EINVAL;
	if (old == trap)
		goto put_new;
	if (!(flags & RENAME_EXCHANGE))
		err = -ENOTEMPTY;
	if (new == trap)
		goto put_new;

	rd = (struct renamedata) {
		.old_mnt_idmap	= &nop_mnt_idmap,
		.old_dir	= d_inode(olddir),
		.old_dentry	= old,
		.new_mnt_idmap	= &nop_mnt_idmap,
		.new_dir	= d_inode(newdir),
		.new_dentry	= new,
		.delegated_inode = &delegated,
		.flags		= flags,
	};
	err = vfs_rename(&rd);
put_new:
	dput(new);
put_old:
	dput(old);
unlock:
	unlock_rename(newdir, olddir);
	no_delegation(__func__, delegated);
	return call_end(err);
}

/* do_readlinkat()'s check, then the link as vfs_readlink() gets it. */
int kshim_vfs_readlink(struct dentry *dentry, char *buf, size_t size)
{
	DEFINE_DELAYED_CALL(done);
	const char *link;
	int len;

	call_begin();
	if (!d_is_symlink(dentry))
		return call_end(-EINVAL);
	link = vfs_get_link(dentry, &done);
	if (IS_ERR(link))
		return call_end(PTR_ERR(link));
	len = strlen(link);
	if (size)
		strscpy(buf, link, size);
	do_delayed_call(&done);
	return call_end(len);
}

int kshim_vfs_getattr(struct dentry *dentry, struct kstat *stat)
{
	struct path path = path_of(dentry);

	call_begin();
	return call_end(vfs_getattr(&path, stat, STATX_BASIC_STATS,
				    AT_STATX_SYNC_AS_STAT));
}

/* chmod_common(), chown_common(), vfs_utimes(): notify_change() under
 * the inode's lock. */
static int setattr(struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	struct inode *delegated = NULL;
	int err;

	call_begin();
	inode_lock(inode);
	err = notify_change(&nop_mnt_idmap, dentry, attr, &delegated);
	inode_unlock(inode);
	no_delegation(__func__, delegated);
	return call_end(err);
}

int kshim_vfs_chmod(struct dentry *dentry, umode_t mode)
{
	struct iattr attr = {
		.ia_valid = ATTR_MODE | ATTR_CTIME,
		.ia_mode = (mode & S_IALLUGO) |
			   (d_inode(dentry)->i_mode & ~S_IALLUGO),
	};

	return setattr(dentry, &attr);
}

int kshim_vfs_chown(struct dentry *dentry, int uid, int gid)
{
	struct iattr attr = { .ia_valid = ATTR_CTIME };

	if (uid != -1) {
		attr.ia_valid |= ATTR_UID;
		attr.ia_vfsuid = VFSUIDT_INIT(make_kuid(&init_user_ns, uid));
	}
	if (gid != -1) {
		attr.ia_valid |= ATTR_GID;
		attr.ia_vfsgid = VFSGIDT_INIT(make_kgid(&init_user_ns, gid));
	}
	if (!d_is_dir(dentry))
		attr.ia_valid |= ATTR_KILL_SUID | ATTR_KILL_PRIV |
			setattr_should_drop_sgid(&nop_mnt_idmap,
						 d_inode(dentry));
	return setattr(dentry, &attr);
}

int kshim_vfs_utimes(struct dentry *dentry, s64 atime_sec, s64 mtime_sec)
{
	struct iattr attr = {
		.ia_valid = ATTR_CTIME | ATTR_ATIME | ATTR_MTIME |
			    ATTR_ATIME_SET | ATTR_MTIME_SET | ATTR_TOUCH,
		.ia_atime = { .tv_sec = atime_sec },
		.ia_mtime = { .tv_sec = mtime_sec },
	};

	return setattr(dentry, &attr);
}

int kshim_vfs_setxattr(struct dentry *dentry, const char *name,
		       const void *value, size_t size, int flags)
{
	call_begin();
	/* setxattr_copy()'s checks of what user space passed. */
	if (flags & ~(XATTR_CREATE | XATTR_REPLACE))
		return call_end(-EINVAL);
	if (!*name || strlen(name) > XATTR_NAME_MAX)
		return call_end(-ERANGE);
	if (size > XATTR_SIZE_MAX)
		return call_end(-E2BIG);
	return call_end(vfs_setxattr(&nop_mnt_idmap, dentry, name, value,
				     size, flags));
}

ssize_t kshim_vfs_getxattr(struct dentry *dentry, const char *name,
			   void *value, size_t size)
{
	call_begin();
	if (!*name || strlen(name) > XATTR_NAME_MAX)
		return call_end(-ERANGE);
	return call_end(vfs_getxattr(&nop_mnt_idmap, dentry, name, value,
				     min_t(size_t, size, XATTR_SIZE_MAX)));
}

ssize_t kshim_vfs_listxattr(struct dentry *dentry, char *list, size_t size)
{
	call_begin();
	return call_end(vfs_listxattr(dentry, list,
				      min_t(size_t, size, XATTR_LIST_MAX)));
}

int kshim_vfs_removexattr(struct dentry *dentry, const char *name)
{
	call_begin();
	if (!*name || strlen(name) > XATTR_NAME_MAX)
		return call_end(-ERANGE);
	return call_end(vfs_removexattr(&nop_mnt_idmap, dentry, name));
}

struct readdir_ctx {
	struct dir_context ctx;
	kshim_vfs_dirent_fn actor;
	void *arg;
	bool stopped;
};

static bool readdir_actor(struct dir_context *ctx, const char *name,
			  int len, loff_t pos, u64 ino, unsigned int d_type)
{
	struct readdir_ctx *rc = container_of(ctx, struct readdir_ctx, ctx);

	if (!rc->actor(rc->arg, name, len, ino, d_type))
		rc->stopped = true;
	return !rc->stopped;
}

int kshim_vfs_readdir(struct dentry *dir, kshim_vfs_dirent_fn actor,
		      void *arg)
{
	struct path path = path_of(dir);
	struct readdir_ctx rc = {
		.ctx.actor = readdir_actor,
		.actor = actor,
		.arg = arg,
	};
	struct file *file;
	int err;

	call_begin();
	file = dentry_open(&path, O_RDONLY | O_DIRECTORY, current_cred());
	if (IS_ERR(file))
		return call_end(PTR_ERR(file));
	/* getdents() calls until the actor stops or the directory ends
	 * (a call that moves the position no further). */
	for (;;) {
		loff_t pos = rc.ctx.pos;

		err = iterate_dir(file, &rc.ctx);
		if (err || rc.stopped || rc.ctx.pos == pos)
			break;
	}
	fput(file);
	return call_end(err);
}

int kshim_vfs_syncfs(struct super_block *sb)
{
	int err;

	call_begin();
	down_read(&sb->s_umount);
	err = sync_filesystem(sb);
	up_read(&sb->s_umount);
	return call_end(err);
}
