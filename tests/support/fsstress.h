/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An operation generator in the spirit of fstests' fsstress, on
 * kshim/vfs.h (fsstress.c). N tasks each work in a directory of their own
 * ("p0", "p1"... under the root) with a weighted mix of namespace,
 * attribute and xattr operations, file data operations (buffered,
 * O_DSYNC and direct writes and reads, fsync, fdatasync, fallocate's
 * modes, truncation, reflink clones and dedupes) and whole-filesystem ones (sync, log force,
 * dropping the caches), all chosen from the seed. Each task keeps a
 * model of its directory tree (names, types, link counts, modes, owners,
 * xattrs, symlink targets, each file's size and contents) and checks
 * every result against it: the errno of each operation, each lookup's
 * attributes, each directory listing, each xattr value and every byte
 * read. Tasks share the filesystem (its
 * allocation groups, log, inode clusters, inode cache and inodegc) but
 * not names, so each model stays exact while they run at once.
 *
 *	struct fsstress *fs = fsstress_new(&cfg);
 *	fsstress_run(fs, sb);		// the tasks, then a full check
 *	(unmount, remount)
 *	fsstress_check(fs, sb);		// the same tree came back
 *	KSHIM_ASSERT_EQ(fsstress_failures(fs), 0);
 *	fsstress_free(fs);
 */
#ifndef _TESTS_FSSTRESS_H
#define _TESTS_FSSTRESS_H

#include <linux/types.h>

struct super_block;

enum fsstress_op {
	FSS_CREATE, FSS_MKDIR, FSS_SYMLINK, FSS_LINK, FSS_UNLINK, FSS_RMDIR,
	FSS_RENAME, FSS_EXCHANGE, FSS_WHITEOUT, FSS_CHMOD, FSS_CHOWN,
	FSS_SETXATTR, FSS_GETXATTR, FSS_LISTXATTR, FSS_REMOVEXATTR,
	FSS_LOOKUP, FSS_READDIR, FSS_SYNC, FSS_LOGFORCE, FSS_DROPCACHES,
	/* File data (fsstress_data.c): the first one is FSS_WRITE. */
	FSS_WRITE, FSS_READ, FSS_DSYNCWRITE, FSS_DWRITE, FSS_DREAD,
	FSS_FSYNC, FSS_FDATASYNC, FSS_FALLOCATE, FSS_PUNCH, FSS_ZERO,
	FSS_COLLAPSE, FSS_INSERT, FSS_TRUNCATE, FSS_CLONE, FSS_DEDUPE,
	FSS_NR_OPS
};

extern const char *const fsstress_op_names[FSS_NR_OPS];

struct fsstress_config {
	u64 seed;
	unsigned int tasks;		/* 1..FSS_MAX_TASKS */
	unsigned long ops;		/* per task */
	/* Relative weights; all zero: the default mix. */
	unsigned int weights[FSS_NR_OPS];
	/* The log force operation (XFS: xfs_log_force()); NULL: skipped. */
	int (*log_force)(struct super_block *sb);
	/* What rename() over a non-empty directory returns: POSIX allows
	 * -EEXIST or -ENOTEMPTY (0: -ENOTEMPTY; XFS returns -EEXIST). */
	int rename_notempty;
	/* Whether the filesystem has shut down (XFS: xfs_is_shutdown()):
	 * from then on results are unknown, as after the crash point,
	 * and the tasks stop. NULL: never asked. */
	bool (*shut_down)(struct super_block *sb);
	/*
	 * Writes may fail with EIO (an injected device fault) while the
	 * filesystem stays up: a data operation's -EIO is then accepted and
	 * its file's contents and size are not checked from then on (a
	 * failed writeback is not retried: the page cache and the disk
	 * differ), nor are a file's whose data was in a write the device
	 * failed with no operation getting the error (a background
	 * writeback, kshim_bdev_write_lost()); and a sync, whose return does not report writeback
	 * errors (sync(2) returns nothing), promises no file's data.
	 */
	bool io_errors;
	/* Keep the model's state after every operation, for
	 * fsstress_check_recovered() after a crash. */
	bool history;
	/* Print progress every this many operations of task 0 (0: never). */
	unsigned long progress;
	/*
	 * The crash point: when the operations completed by all tasks
	 * reach crash_after, the task that completed the last one marks
	 * results unknown and calls crash(crash_arg), which cuts the power
	 * or shuts the filesystem down; the others go on into it. Exact,
	 * where a test polling the count is not: in the deterministic
	 * backend one msleep() lets hundreds of operations by. 0: none.
	 */
	unsigned long crash_after;
	void (*crash)(void *arg);
	void *crash_arg;
	/*
	 * Where the tasks' random choices come from (the operation
	 * sequence fuzz target's input): each choice is asked of
	 * choose(choose_arg, task, &value) first, and taken from the
	 * task's generator (seeded from seed) only when it returns false.
	 * NULL: the generator alone.
	 */
	bool (*choose)(void *arg, unsigned int task, u64 *value);
	void *choose_arg;
};

#define FSS_MAX_TASKS	1024

/* Totals over all tasks. */
struct fsstress_stats {
	u64 ops[FSS_NR_OPS];		/* operations done, per type */
	u64 errors[FSS_NR_OPS];		/* of which returned an errno */
	u64 errnos[134];		/* returns per errno (all expected) */
	u64 checks;			/* results compared with the model */
	u64 ns;				/* time the run took (kshim's clock) */
};

struct fsstress;

/* "name=weight,name=weight..." over the default mix (a name not given
 * keeps its default; "only:" before the list sets the others to 0;
 * "nodata:" sets the file data operations, write to dedupe, to 0: the
 * namespace, attribute and whole-filesystem mix, to which the list may
 * give some back). 0, or -EINVAL with a one-line reason in ERR. */
int fsstress_parse_mix(const char *spec, unsigned int weights[FSS_NR_OPS],
		       char *err, size_t errlen);

struct fsstress *fsstress_new(const struct fsstress_config *cfg);
/* Runs the tasks on the mounted filesystem SB, then fsstress_check(). */
void fsstress_run(struct fsstress *fs, struct super_block *sb);
/* Compares the whole tree on SB with the models. */
void fsstress_check(struct fsstress *fs, struct super_block *sb);

/*
 * A crash in the middle (cfg.history set, cfg.crash_after and cfg.crash
 * the crash point and the power cut, xfs_fixture_power_cut()):
 *	fsstress_start(fs, sb); fsstress_join(fs);
 *	fsstress_crashed(fs) says the crash happened; unmount;
 *	remount (recovery), fsstress_check_recovered(fs, sb);
 * Each task's tree must then be its model after some operation between
 * the last a completed log force or sync covered and the one in flight;
 * and each of its regular files what the fsync family promised
 * (support/data_durability.h: bytes and sizes as of the file's last
 * fsync, fdatasync or the task's sync, changed since only to values
 * written since, O_DSYNC writes kept).
 */
void fsstress_start(struct fsstress *fs, struct super_block *sb);
bool fsstress_crashed(struct fsstress *fs);
void fsstress_join(struct fsstress *fs);
void fsstress_check_recovered(struct fsstress *fs, struct super_block *sb);
long fsstress_recovered_at(struct fsstress *fs, unsigned int task);
unsigned long fsstress_durable(struct fsstress *fs, unsigned int task);
unsigned long fsstress_last(struct fsstress *fs, unsigned int task);
/* Checks that failed so far, and the first one's description. */
unsigned long fsstress_failures(struct fsstress *fs);
const char *fsstress_first_failure(struct fsstress *fs);
void fsstress_stats(struct fsstress *fs, struct fsstress_stats *out);
/* The summary: operations and errors per type, errnos, time. */
void fsstress_print(struct fsstress *fs);
void fsstress_free(struct fsstress *fs);

#endif
