/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim/mount.h: the one mount a harness makes for each filesystem it
 * mounts (kernel-shim/fs/kshim_mount.c), on the filesystem's root.
 */
#ifndef _KSHIM_MOUNT_H
#define _KSHIM_MOUNT_H

struct dentry;
struct super_block;
struct vfsmount;

/* Takes over the reference to ROOT, as a mount holds its root. */
struct vfsmount *kshim_mount_create(struct dentry *root);
/* The mount of SB; aborts if it has none. */
struct vfsmount *kshim_mount_of(struct super_block *sb);
/* 0, or -EBUSY while a file opened on it is still open. */
int kshim_mount_destroy(struct vfsmount *mnt);

#endif
