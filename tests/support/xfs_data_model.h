/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files checked against a model of their bytes, for the XFS file-data
 * tests (test_xfs_data.c, test_xfs_data_iomap.c): each file's contents
 * are a seeded pattern (pat()) written through kshim/vfs.h and mirrored
 * in the model (struct mfile), read back byte for byte (mcheck()), again
 * after a remount or a power cut (the page cache gone: the bytes came
 * from the device); finish() unmounts and removes the image, which
 * xfs_repair -n checks (xfs_fixture_remove()). Failures are KSHIM_ASSERTs
 * of the calling test. And what the data fork maps at an offset.
 */
#ifndef _TESTS_XFS_DATA_MODEL_H
#define _TESTS_XFS_DATA_MODEL_H

#include <linux/types.h>
#include "xfs_fixture.h"

struct dentry;
struct file;
struct xfs_bmbt_irec;
struct xfs_mount;

#define KB	1024
#define MAXF	(512 * KB)	/* largest model file */

/* A byte of the seeded pattern SEED at file offset OFF. */
u8 pat(u64 seed, loff_t off);

/* A file and what it must contain. */
struct mfile {
	struct file *f;
	const char *name;
	u8 *want;		/* MAXF bytes; beyond size: zero */
	loff_t size;
};

/* open() of NAME in DIR with FLAGS (mode 0644) into M; the model is
 * allocated on first use (zero) and kept across reopens. */
void mopen(struct mfile *m, struct dentry *dir, const char *name, int flags);
void mclose(struct mfile *m);
void mfree(struct mfile *m);
/* pwrite LEN bytes of pattern SEED at OFF (RWF: pwritev2's flags), and
 * into the model; the write must be whole. */
void mwrite(struct mfile *m, u64 seed, loff_t off, size_t len, int rwf);
/* The model's size set to SIZE (truncated bytes zero). */
void msize(struct mfile *m, loff_t size);
/* The whole file read back and its size, against the model (an O_DIRECT
 * file through a buffered open of its own). Returns the first wrong
 * offset or -1. */
loff_t mcheck(struct mfile *m, const char *when);
/* Unmount (the last writeback) and mount again: the page cache is gone,
 * what reads back came from the device. The files are opened again. */
void remount(struct xfs_fixture *fx, struct dentry **root,
	     struct mfile *files, unsigned int n);
/* The power fails with the files open: they are closed on the shut-down
 * filesystem, which is unmounted as it is, mounted again (recovery) and
 * the files reopened. */
void power_cut_remount(struct xfs_fixture *fx, struct dentry **root,
		       struct mfile *files, unsigned int n);
/* What power_cut_remount() does after the cut, for a filesystem already
 * shut down under the open files (an I/O error). */
void shut_down_remount(struct xfs_fixture *fx, struct dentry **root,
		       struct mfile *files, unsigned int n);
/* The files closed and their models freed, the root put, unmounted, the
 * image checked and removed. */
void finish(struct xfs_fixture *fx, struct dentry *root,
	    struct mfile *files, unsigned int n);
/* Dirty or under writeback in the page cache. */
bool dirty_in_cache(struct file *f);
/* The data fork's mapping at file offset OFF (xfs_bmapi_read() on the
 * inode); false for a hole. */
bool extent_at(struct file *f, loff_t off, struct xfs_bmbt_irec *map);
/* The state of the extent at file offset OFF: 1 unwritten, 0 written,
 * 2 delayed allocation, -1 a hole. */
int extent_state(struct file *f, loff_t off);
/* The disk block under file offset OFF (a hole or delayed allocation:
 * NULLFSBLOCK). */
u64 disk_block(struct file *f, loff_t off);
/* Blocks the next allocation without XFS_TRANS_RESERVE may take. */
s64 free_blocks(struct xfs_mount *mp);

#endif
