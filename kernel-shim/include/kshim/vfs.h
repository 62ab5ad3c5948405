/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim/vfs.h: namespace, attribute and directory operations, and file
 * I/O (below, kshim_vfs_file.c), on a mounted kshim filesystem, through
 * the kernel's own VFS functions (fs/namei.c's
 * vfs_create(), vfs_mkdir(), vfs_unlink(), vfs_rmdir(), vfs_link(),
 * vfs_symlink(), vfs_rename(); fs/attr.c's notify_change(); fs/xattr.c;
 * fs/readdir.c's iterate_dir()) into the filesystem's real
 * inode_operations, on real dentries (fs/dcache.c).
 *
 * Each call is what the system call does once its path walk has found
 * the parent: lock the parent, look the name up in the dentry cache (and
 * the filesystem, on a miss), make the system call's own checks, call
 * the vfs_*() function, unlock, put, and run the task's deferred work
 * (a last fput()) as the return to user space would. A name is one
 * component: "." and ".." are refused by the lookup (-EACCES), as
 * lookup_one_len() refuses them. Errors are the kernel's negative errnos.
 *
 * Dentries returned are referenced: kshim_vfs_put() each. The mount's
 * root is kshim_vfs_root() of its super_block (kshim_xfs_root() for XFS).
 * Credentials: kshim's root (every capability); umask 022 (init_fs).
 */
#ifndef _KSHIM_VFS_H
#define _KSHIM_VFS_H

#include <linux/types.h>

struct dentry;
struct file;
struct super_block;
struct kstat;
struct iattr;

struct dentry *kshim_vfs_root(struct super_block *sb);
void kshim_vfs_put(struct dentry *dentry);

/* The dentry of NAME in DIR, positive, or ERR_PTR(-ENOENT) and others. */
struct dentry *kshim_vfs_lookup(struct dentry *dir, const char *name);

/* open(O_CREAT | O_EXCL), mkdir(), symlink(), mknod() of a FIFO or
 * socket (no devices): the new dentry in *OUT if OUT is not NULL. */
int kshim_vfs_create(struct dentry *dir, const char *name, umode_t mode,
		     struct dentry **out);
int kshim_vfs_mkdir(struct dentry *dir, const char *name, umode_t mode,
		    struct dentry **out);
int kshim_vfs_symlink(struct dentry *dir, const char *name,
		      const char *target, struct dentry **out);
int kshim_vfs_mknod(struct dentry *dir, const char *name, umode_t mode,
		    struct dentry **out);
/* link(): a new name NEWNAME in NEWDIR for the inode of OLD. */
int kshim_vfs_link(struct dentry *old, struct dentry *newdir,
		   const char *newname);
int kshim_vfs_unlink(struct dentry *dir, const char *name);
int kshim_vfs_rmdir(struct dentry *dir, const char *name);
/* renameat2(): FLAGS is 0 or RENAME_NOREPLACE, RENAME_EXCHANGE,
 * RENAME_WHITEOUT as the system call takes them. */
int kshim_vfs_rename(struct dentry *olddir, const char *oldname,
		     struct dentry *newdir, const char *newname,
		     unsigned int flags);

/* readlink(): the target copied into BUF (NUL-terminated, cut to SIZE),
 * or a negative errno; the length of the target on success. */
int kshim_vfs_readlink(struct dentry *dentry, char *buf, size_t size);

/* stat() (vfs_getattr(), the basic fields) and notify_change() as
 * chmod(), chown() (uid or gid -1: unchanged) and utimensat() make it. */
int kshim_vfs_getattr(struct dentry *dentry, struct kstat *stat);
int kshim_vfs_chmod(struct dentry *dentry, umode_t mode);
int kshim_vfs_chown(struct dentry *dentry, int uid, int gid);
int kshim_vfs_utimes(struct dentry *dentry, s64 atime_sec, s64 mtime_sec);

/* The xattr system calls' VFS halves. FLAGS: 0, XATTR_CREATE or
 * XATTR_REPLACE. get and list return the size, as the calls do. */
int kshim_vfs_setxattr(struct dentry *dentry, const char *name,
		       const void *value, size_t size, int flags);
ssize_t kshim_vfs_getxattr(struct dentry *dentry, const char *name,
			   void *value, size_t size);
ssize_t kshim_vfs_listxattr(struct dentry *dentry, char *list, size_t size);
int kshim_vfs_removexattr(struct dentry *dentry, const char *name);

/* getdents(): opens DIR as a file (dentry_open(), the filesystem's
 * ->open), then iterate_dir() calls ACTOR for each entry, "." and ".."
 * included, until it returns false; then the last fput(). */
typedef bool (*kshim_vfs_dirent_fn)(void *arg, const char *name, int len,
				    u64 ino, unsigned int d_type);
int kshim_vfs_readdir(struct dentry *dir, kshim_vfs_dirent_fn actor,
		      void *arg);

/* sync(): every dirty inode and the filesystem's ->sync_fs(), waited. */
int kshim_vfs_syncfs(struct super_block *sb);

/*
 * File I/O (kshim_vfs_file.c): the system calls on a struct file the
 * caller holds instead of a descriptor, through the filesystem's real
 * file_operations with a real kiocb and an ITER_KVEC iov_iter over BUF
 * (kernel memory: kmalloc() it for O_DIRECT, whose alignment the
 * filesystem checks). Errors are negative errnos.
 */

/* open() of NAME in DIR: FLAGS are open(2)'s: O_RDONLY, O_WRONLY, O_RDWR
 * with O_CREAT (MODE, less the umask), O_EXCL, O_TRUNC, O_APPEND,
 * O_DIRECT, O_DSYNC, O_SYNC, O_NOATIME, O_NONBLOCK (others abort). After
 * the walk: O_CREAT looks up and creates under the parent's lock
 * (vfs_create()), then may_open()'s checks, dentry_open() (the real
 * vfs_open() and the filesystem's ->open) and O_TRUNC's do_truncate().
 * The file in *OUT; kshim_vfs_close() it. */
int kshim_vfs_open(struct dentry *dir, const char *name, int flags,
		   umode_t mode, struct file **out);
/* close(): filp_close() (->flush), then the last fput() (->release). */
int kshim_vfs_close(struct file *file);

/* pwritev2() and preadv2() of one buffer at POS: vfs_iter_write() and
 * vfs_iter_read() (fs/read_write.c). RWF: 0 or RWF_DSYNC, RWF_SYNC,
 * RWF_APPEND, RWF_NOWAIT as the system call takes them
 * (kiocb_set_rw_flags()). The bytes moved, or a negative errno. */
ssize_t kshim_vfs_pwrite(struct file *file, const void *buf, size_t count,
			 loff_t pos, int rwf);
ssize_t kshim_vfs_pread(struct file *file, void *buf, size_t count,
			loff_t pos, int rwf);

/* fsync() (DATASYNC 0) and fdatasync() (1): vfs_fsync(), the
 * filesystem's ->fsync over the whole file. */
int kshim_vfs_fsync(struct file *file, int datasync);

/* fallocate(): vfs_fallocate(). MODE: 0, FALLOC_FL_KEEP_SIZE,
 * FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, FALLOC_FL_ZERO_RANGE,
 * FALLOC_FL_COLLAPSE_RANGE, FALLOC_FL_INSERT_RANGE (linux/falloc.h). */
int kshim_vfs_fallocate(struct file *file, int mode, loff_t offset,
			loff_t len);

/* ftruncate(): do_ftruncate(), then do_truncate() and ->setattr. */
int kshim_vfs_ftruncate(struct file *file, loff_t length);

/* ioctl(FICLONERANGE) (FICLONE: LEN 0, to the source's end): what
 * fs/ioctl.c's ioctl_file_clone() does with its two files:
 * vfs_clone_file_range() (fs/remap_range.c), the filesystem's
 * ->remap_file_range (XFS: reflink), and -EINVAL when fewer bytes than
 * asked were cloned. 0 or a negative errno. */
int kshim_vfs_clone_range(struct file *src, loff_t src_pos,
			  struct file *dst, loff_t dst_pos, loff_t len);

/* ioctl(FIDEDUPERANGE) for one destination: what vfs_dedupe_file_range()
 * runs per destination, vfs_dedupe_file_range_one() with
 * REMAP_FILE_CAN_SHORTEN. The bytes now shared, -EBADE when the ranges'
 * contents differ, or a negative errno. */
loff_t kshim_vfs_dedupe_range(struct file *src, loff_t src_pos,
			      struct file *dst, loff_t dst_pos, loff_t len);

#endif
