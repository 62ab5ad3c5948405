// SPDX-License-Identifier: GPL-2.0
/*
 * kshim/vfs.h's file I/O: open(2), close(2), pwritev2(2), preadv2(2),
 * fsync(2), fdatasync(2), fallocate(2) and ftruncate(2) on a struct file,
 * each what the system call does once it has its file (or, for open, its
 * parent directory): the same fs/open.c, fs/namei.c and fs/read_write.c
 * functions in the same order, so the filesystem's real file_operations
 * run with a real kiocb and iov_iter. What is left out: file descriptors
 * (the caller holds the struct file), the path walk, user memory (the
 * iov_iter is an ITER_KVEC over the caller's buffer, as kernel_write()
 * makes), mounts' write counts (mnt_want_write(): no mounts) and the
 * security hooks.
 */
#include <linux/fs.h>
#include <linux/file.h>
#include <linux/falloc.h>
#include <linux/namei.h>
#include <linux/dcache.h>
#include <linux/uio.h>
#include <linux/cred.h>
#include <linux/mnt_idmapping.h>
#include <linux/string.h>
#include <kshim/vfs.h>
#include <kshim/runtime.h>
#include "internal.h"		/* the real fs/internal.h: do_ftruncate() */
#include "kshim_vfs_call.h"

/* The open flags kshim_vfs_open() takes; anything else (O_PATH,
 * O_TMPFILE, O_DIRECTORY, O_NOFOLLOW...) needs a path walk or a file
 * type this call does not open. */
#define OPEN_FLAGS	(O_ACCMODE | O_CREAT | O_EXCL | O_TRUNC | O_APPEND | \
			 O_DIRECT | O_DSYNC | __O_SYNC | O_NOATIME | \
			 O_LARGEFILE | O_NONBLOCK)

/* The part of namei.c's may_open() for what kshim_vfs_open() opens. */
static int may_open(struct inode *inode, int acc_mode, int flags)
{
	int err;

	switch (inode->i_mode & S_IFMT) {
	case S_IFLNK:
		return -ELOOP;
	case S_IFDIR:
		if (acc_mode & MAY_WRITE)
			return -EISDIR;
		break;
	case S_IFREG:
		break;
	default:
		kshim_fatal("kshim_vfs_open: only regular files and "
			    "directories (mode %o)", inode->i_mode);
	}
	err = inode_permission(&nop_mnt_idmap, inode, MAY_OPEN | acc_mode);
	if (err)
		return err;
	if (IS_APPEND(inode)) {
		if ((flags & O_ACCMODE) != O_RDONLY && !(flags & O_APPEND))
			return -EPERM;
		if (flags & O_TRUNC)
			return -EPERM;
	}
	/* O_NOATIME: kshim's tasks are root, the owner check passes. */
	return 0;
}

/* namei.c's handle_truncate(): O_TRUNC on an existing file. */
static int handle_truncate(struct file *file)
{
	struct inode *inode = file_inode(file);
	int err = get_write_access(inode);

	if (err)
		return err;
	err = do_truncate(&nop_mnt_idmap, file->f_path.dentry, 0,
			  ATTR_MTIME | ATTR_CTIME | ATTR_OPEN, file);
	put_write_access(inode);
	return err;
}

/*
 * open_last_lookups() and do_open() after the walk: O_CREAT looks up and
 * creates under the parent's lock, then the checks of may_open(), the
 * real vfs_open() (dentry_open()), and O_TRUNC's do_truncate().
 */
int kshim_vfs_open(struct dentry *dir, const char *name, int flags,
		   umode_t mode, struct file **out)
{
	struct inode *dinode = d_inode(dir);
	struct path path;
	struct dentry *d;
	struct file *file;
	bool created = false;
	int acc_mode, err;

	if (flags & ~OPEN_FLAGS)
		kshim_fatal("kshim_vfs_open: flags %#x not supported",
			    flags & ~OPEN_FLAGS);
	/* build_open_flags(): O_SYNC implies O_DSYNC; 64-bit files. */
	if (flags & __O_SYNC)
		flags |= O_DSYNC;
	flags |= O_LARGEFILE;
	acc_mode = ACC_MODE(flags);
	if (flags & O_TRUNC)
		acc_mode |= MAY_WRITE;
	if (flags & O_APPEND)
		acc_mode |= MAY_APPEND;

	kshim_vfs_call_begin();
	if (flags & O_CREAT) {
		inode_lock(dinode);
		d = kshim_vfs_lookup_locked(dir, name);
		if (!IS_ERR(d) && d_is_negative(d)) {
			err = vfs_create(&nop_mnt_idmap, dinode, d,
					 S_IFREG | (mode & ~S_IFMT), true);
			if (err) {
				dput(d);
				d = ERR_PTR(err);
			} else {
				created = true;
			}
		}
		inode_unlock(dinode);
	} else {
		d = d_can_lookup(dir) ?
		    lookup_one_len_unlocked(name, dir, strlen(name)) :
		    ERR_PTR(-ENOTDIR);
		if (!IS_ERR(d) && d_is_negative(d)) {
			dput(d);
			d = ERR_PTR(-ENOENT);
		}
	}
	if (IS_ERR(d))
		return kshim_vfs_call_end(PTR_ERR(d));

	err = -EEXIST;
	if ((flags & O_CREAT) && (flags & O_EXCL) && !created)
		goto put;
	err = -EISDIR;
	if ((flags & O_CREAT) && d_is_dir(d))
		goto put;
	if (created) {
		/* No write permission check, no truncation. */
		flags &= ~O_TRUNC;
		acc_mode = 0;
	}
	err = may_open(d_inode(d), acc_mode, flags);
	if (err)
		goto put;
	path = kshim_vfs_path_of(d);
	file = dentry_open(&path, flags, current_cred());
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		goto put;
	}
	if ((flags & O_TRUNC) && d_is_reg(d)) {
		err = handle_truncate(file);
		if (err) {
			fput(file);
			goto put;
		}
	}
	*out = file;
put:
	dput(d);
	return kshim_vfs_call_end(err);
}

/* close(): the file's ->flush, then the last fput() (the filesystem's
 * ->release) as the return to user space runs it. */
int kshim_vfs_close(struct file *file)
{
	kshim_vfs_call_begin();
	return kshim_vfs_call_end(filp_close(file, NULL));
}

/*
 * pwritev2() and preadv2() with one segment: do_pwritev()'s checks, then
 * fs/read_write.c's vfs_iter_write()/vfs_iter_read(), which make the
 * kiocb (kiocb_set_rw_flags() for RWF_*) and call ->write_iter or
 * ->read_iter, with sb_start_write() around a write.
 */
ssize_t kshim_vfs_pwrite(struct file *file, const void *buf, size_t count,
			 loff_t pos, int rwf)
{
	struct kvec kv = { .iov_base = (void *)buf, .iov_len = count };
	struct iov_iter iter;

	if (pos < 0)
		return -EINVAL;
	if (!(file->f_mode & FMODE_PWRITE))
		return -ESPIPE;
	kshim_vfs_call_begin();
	iov_iter_kvec(&iter, ITER_SOURCE, &kv, 1,
		      min_t(size_t, count, MAX_RW_COUNT));
	return kshim_vfs_call_end(vfs_iter_write(file, &iter, &pos, rwf));
}

ssize_t kshim_vfs_pread(struct file *file, void *buf, size_t count,
			loff_t pos, int rwf)
{
	struct kvec kv = { .iov_base = buf, .iov_len = count };
	struct iov_iter iter;

	if (pos < 0)
		return -EINVAL;
	if (!(file->f_mode & FMODE_PREAD))
		return -ESPIPE;
	kshim_vfs_call_begin();
	iov_iter_kvec(&iter, ITER_DEST, &kv, 1,
		      min_t(size_t, count, MAX_RW_COUNT));
	return kshim_vfs_call_end(vfs_iter_read(file, &iter, &pos, rwf));
}

/* do_fsync(): vfs_fsync(), the filesystem's ->fsync over the whole file. */
int kshim_vfs_fsync(struct file *file, int datasync)
{
	kshim_vfs_call_begin();
	return kshim_vfs_call_end(vfs_fsync(file, datasync));
}

/* ksys_fallocate(): vfs_fallocate() makes every check and calls
 * ->fallocate inside sb_start_write(). */
int kshim_vfs_fallocate(struct file *file, int mode, loff_t offset,
			loff_t len)
{
	kshim_vfs_call_begin();
	return kshim_vfs_call_end(vfs_fallocate(file, mode, offset, len));
}

/* do_sys_ftruncate(): do_ftruncate(), then do_truncate() and the
 * filesystem's ->setattr (ATTR_SIZE). */
int kshim_vfs_ftruncate(struct file *file, loff_t length)
{
	if (length < 0)
		return -EINVAL;
	kshim_vfs_call_begin();
	return kshim_vfs_call_end(do_ftruncate(file, length, 0));
}

/* ioctl_file_clone(), once the source descriptor is its file. */
int kshim_vfs_clone_range(struct file *src, loff_t src_pos,
			  struct file *dst, loff_t dst_pos, loff_t len)
{
	loff_t cloned;

	kshim_vfs_call_begin();
	cloned = vfs_clone_file_range(src, src_pos, dst, dst_pos, len, 0);
	if (cloned >= 0 && len && cloned != len)
		cloned = -EINVAL;
	return kshim_vfs_call_end(cloned < 0 ? cloned : 0);
}

/* vfs_dedupe_file_range()'s call for one destination: its checks of the
 * request (the source range within the source file, at most 1 GiB) are
 * the caller's. */
loff_t kshim_vfs_dedupe_range(struct file *src, loff_t src_pos,
			      struct file *dst, loff_t dst_pos, loff_t len)
{
	kshim_vfs_call_begin();
	return kshim_vfs_call_end(vfs_dedupe_file_range_one(src, src_pos, dst,
				dst_pos, len, REMAP_FILE_CAN_SHORTEN));
}
