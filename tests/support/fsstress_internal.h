/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The operation generator's insides (fsstress.h is its API), shared by
 * its files: fsstress_model.c (each task's model, the failure
 * reports and the checks of the kernel's state against the model),
 * fsstress_ops.c (the namespace, attribute, xattr and whole-filesystem
 * operations) and fsstress.c (the mix, the tasks, crash history, the
 * API). Not for tests: they use fsstress.h.
 */
#ifndef _TESTS_FSSTRESS_INTERNAL_H
#define _TESTS_FSSTRESS_INTERNAL_H

#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include "fsstress.h"
#include "data_durability.h"

struct dentry;
struct task_struct;

#define MAX_INODES	192
#define MAX_ENTRIES	256
#define MAX_XATTRS	6
#define NAME_LEN	16

enum m_type { M_FREE, M_DIR, M_REG, M_LNK, M_WHT };

/*
 * A regular file's contents, compact enough to keep after every
 * operation: sorted, disjoint segments [off, end) of pattern SEED
 * (data_pat(seed, (u32)(i + adj))), zeroes elsewhere below SIZE. An
 * operation that could need more than MAX_SEGS segments rewrites the
 * whole file instead (fsstress_data.c).
 */
#define MAX_FILE	(64 * 1024)
#define MAX_SEGS	8
/* Bytes of file data a task keeps at most (its files' sizes summed):
 * TASK_DATA, less with many tasks, all of them ALL_DATA at most: a
 * quarter of the fixtures' 64 MiB, as ENOSPC is not modelled. */
#define TASK_DATA	(512 * 1024)
#define ALL_DATA	(16 << 20)

struct m_seg {
	u32 off, end, seed, adj;
};

struct m_data {
	u32 size;
	u32 nseg;
	struct m_seg seg[MAX_SEGS];
};

struct m_xattr {
	bool set;
	u16 size;
	u32 seed;
};

struct m_inode {
	enum m_type type;
	int nlink;			/* files: entries naming it */
	umode_t perm;			/* the 07777 bits */
	int uid, gid;
	char target[NAME_LEN];		/* symlinks */
	struct m_xattr xattr[MAX_XATTRS];	/* "user.x<i>" */
	u32 gen;			/* which file the slot holds */
	bool data_lost;			/* an I/O error (cfg.io_errors) */
	struct m_data data;		/* regular files */
};

/*
 * Crash tests: what the fsync family promised of a regular file
 * (data_durability.h), outside the history: its bytes and size at its
 * last fsync, fdatasync or the task's sync (or its creation), and the
 * changes since. UNKNOWN: a change the log cannot hold (too many, a
 * collapse or an insert moving bytes): nothing checked until the next
 * durable point.
 */
#define MAX_CHANGES	24

struct m_durable {
	u32 gen;
	bool unknown;
	struct m_data dur;
	u32 size_lo, size_hi;
	unsigned int nchange;
	struct data_change ch[MAX_CHANGES];
};

struct m_entry {
	bool used;
	int dir;			/* inode index of the directory */
	int ino;			/* inode index it names */
	char name[NAME_LEN];
};

/* The model's state: what a crash test keeps after every operation. */
struct m_state {
	struct m_inode in[MAX_INODES];
	struct m_entry en[MAX_ENTRIES];
};

struct task_model {
	struct fsstress *fs;
	int id;
	u64 rng;
	unsigned long next_name;
	struct dentry *top;		/* "p<id>", the model's inode 0 */
	struct m_inode in[MAX_INODES];
	struct m_entry en[MAX_ENTRIES];
	struct fsstress_stats st;
	struct task_struct *task;
	/*
	 * Crash tests: done counts the operations whose result the model
	 * took (its state after each is hist[done]); durable is the done
	 * count a completed log force or sync covered. An operation still
	 * running when the power went is taken as predicted, at
	 * hist[done], without counting it in done: recovery may or may not
	 * have it.
	 */
	unsigned long done, durable, last;
	struct m_state *hist;
	struct m_durable *dur;		/* per inode slot, with hist */
	u32 next_gen;
	bool quiet;			/* count mismatches, do not fail */
	/* After a crash: sizes and contents are not the model's (data
	 * written back or not), fss_check_durable() checks them. */
	bool recovering;
	unsigned long mismatches;
};

struct fsstress {
	struct fsstress_config cfg;
	bool crashing;			/* the power goes: results unknown */
	atomic_long_t completed;	/* operations, all tasks (crash point) */
	bool crashed;			/* cfg.crash was called */
	u64 start_ns;
	long *recovered_at;		/* per task, fsstress_check_recovered() */
	unsigned int weights[FSS_NR_OPS];
	unsigned int total_weight;
	u32 task_data;			/* TASK_DATA, or less */
	struct super_block *sb;
	struct task_model *tm;
	spinlock_t lock;		/* failures, first */
	unsigned long failures;
	char first[320];
};
/* fsstress_model.c: failures. */
bool fss_results_unknown(struct fsstress *fs);
__printf(2, 3) void fss_fail(struct task_model *t, const char *fmt, ...);
bool fss_expect(struct task_model *t, enum fsstress_op op, long got,
		long want, const char *what);

/* fsstress_model.c: the model. */
u64 fss_random(struct task_model *t);
u32 fss_rnd(struct task_model *t, u32 n);
bool fss_dir_empty(struct task_model *t, int dir);
bool fss_is_ancestor(struct task_model *t, int a, int d);
int fss_new_inode_slot(struct task_model *t);
int fss_new_entry_slot(struct task_model *t);
int fss_pick_inode(struct task_model *t, unsigned int mask);
int fss_pick_entry(struct task_model *t, unsigned int mask);
void fss_new_name(struct task_model *t, char *name);
void fss_add_entry(struct task_model *t, int dir, const char *name, int ino);
void fss_drop_entry(struct task_model *t, int e);

/* fsstress_model.c: the kernel's side, checked against the model. */
struct dentry *fss_dir_dentry(struct task_model *t, int dir);
struct dentry *fss_entry_dentry(struct task_model *t, int e);
void fss_check_attrs(struct task_model *t, struct dentry *d, int ino,
		     const char *name);
void fss_check_listing(struct task_model *t, struct dentry *d, int dir);
void fss_xattr_value(u32 seed, u16 size, u8 *buf);
void fss_xattr_name(int i, char *name);
void fss_check_xattrs(struct task_model *t, struct dentry *d, int ino);
void fss_check_tree(struct task_model *t);

/* fsstress_ops.c: one operation of the mix. */
void fss_do_op(struct task_model *t, enum fsstress_op op);

/* fsstress_data.c: the file data operations, the model of contents and
 * their checks. */
void fss_data_op(struct task_model *t, enum fsstress_op op);
void fss_data_created(struct task_model *t, int ino);
void fss_data_synced(struct task_model *t);
void fss_check_data(struct task_model *t, int e);
void fss_note_lost_writes(struct task_model *t, int ino, unsigned long i_ino);
void fss_check_durable(struct task_model *t);

#endif
