/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every kshim/vfs.h call shares (kshim_vfs_calls.c): the start and
 * the end of a system call, the path of a dentry on its kshim mount, and
 * the walk's last step under the parent's lock. Private to
 * kernel-shim/fs/.
 */
#ifndef _KSHIM_FS_VFS_CALL_H
#define _KSHIM_FS_VFS_CALL_H

#include <linux/path.h>

struct dentry;

/* The task gets init_fs (its umask), as a kernel thread has one. */
void kshim_vfs_call_begin(void);
/* The task's deferred work (a last fput()) runs, as on the return to
 * user space; RET is handed back. */
long kshim_vfs_call_end(long ret);
struct path kshim_vfs_path_of(struct dentry *dentry);
/* lookup_one_len() of NAME in DIR, whose inode the caller holds locked;
 * -ENOTDIR if DIR is not a directory. */
struct dentry *kshim_vfs_lookup_locked(struct dentry *dir, const char *name);

#endif
