// SPDX-License-Identifier: GPL-2.0
/*
 * The operation generator (fsstress.h): the operations' names and
 * default mix, the tasks and their steps, the crash history and the API.
 * The model and its checks are fsstress_model.c's, the operations
 * fsstress_ops.c's (fsstress_internal.h).
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/timekeeping.h>
#include <kshim/bdev.h>
#include <kshim/runtime.h>
#include <kshim/host.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include "fsstress_internal.h"

const char *const fsstress_op_names[FSS_NR_OPS] = {
	"create", "mkdir", "symlink", "link", "unlink", "rmdir", "rename",
	"exchange", "whiteout", "chmod", "chown", "setxattr", "getxattr",
	"listxattr", "removexattr", "lookup", "readdir", "sync", "logforce",
	"dropcaches", "write", "read", "dsyncwrite", "dwrite", "dread",
	"fsync", "fdatasync", "fallocate", "punch", "zero", "collapse",
	"insert", "truncate", "clone", "dedupe",
};

/* Namespace changes dominate, as in fsstress's default mix; file data
 * operations are a fifth of it; the whole-filesystem operations are
 * rare (each is a stall for all). */
static const unsigned int default_weights[FSS_NR_OPS] = {
	[FSS_CREATE] = 10, [FSS_MKDIR] = 4, [FSS_SYMLINK] = 3, [FSS_LINK] = 4,
	[FSS_UNLINK] = 8, [FSS_RMDIR] = 3, [FSS_RENAME] = 6,
	[FSS_EXCHANGE] = 2, [FSS_WHITEOUT] = 1, [FSS_CHMOD] = 2,
	[FSS_CHOWN] = 2, [FSS_SETXATTR] = 6, [FSS_GETXATTR] = 4,
	[FSS_LISTXATTR] = 2, [FSS_REMOVEXATTR] = 3, [FSS_LOOKUP] = 8,
	[FSS_READDIR] = 3, [FSS_SYNC] = 1, [FSS_LOGFORCE] = 1,
	[FSS_DROPCACHES] = 1, [FSS_WRITE] = 4, [FSS_READ] = 3,
	[FSS_DSYNCWRITE] = 1, [FSS_DWRITE] = 1, [FSS_DREAD] = 1,
	[FSS_FSYNC] = 1, [FSS_FDATASYNC] = 1, [FSS_FALLOCATE] = 1,
	[FSS_PUNCH] = 1, [FSS_ZERO] = 1, [FSS_COLLAPSE] = 1, [FSS_INSERT] = 1,
	[FSS_TRUNCATE] = 2, [FSS_CLONE] = 2, [FSS_DEDUPE] = 1,
};

/* A log force or sync that completed: every operation each task had
 * completed when it began is on stable storage. */
static void covered_by_force(struct task_model *t, unsigned long *before)
{
	unsigned int i;

	if (READ_ONCE(t->fs->crashing))
		return;
	/* An atomic max: two forces that end together must not move a
	 * task's durable back, and each reads what the other writes. */
	for (i = 0; i < t->fs->cfg.tasks; i++) {
		unsigned long *d = &t->fs->tm[i].durable;
		unsigned long old = READ_ONCE(*d);

		while (before[i] > old && !try_cmpxchg(d, &old, before[i]))
			;
	}
}

static void remember(struct task_model *t, unsigned long k)
{
	memcpy(t->hist[k].in, t->in, sizeof(t->in));
	memcpy(t->hist[k].en, t->en, sizeof(t->en));
}

static enum fsstress_op pick_op(struct task_model *t)
{
	u32 k = fss_rnd(t, t->fs->total_weight);
	int op;

	for (op = 0; op < FSS_NR_OPS; op++) {
		if (k < t->fs->weights[op])
			return op;
		k -= t->fs->weights[op];
	}
	return FSS_LOOKUP;
}

static void top_name(int id, char *name)
{
	snprintf(name, NAME_LEN, "p%d", id);
}

/* The task's top directory, made on the first run, found after. */
static int open_top(struct task_model *t, struct super_block *sb)
{
	struct dentry *root = kshim_vfs_root(sb);
	char name[NAME_LEN];
	int err = 0;

	top_name(t->id, name);
	t->top = kshim_vfs_lookup(root, name);
	if (IS_ERR(t->top)) {
		err = kshim_vfs_mkdir(root, name, 0755, &t->top);
		if (err)
			t->top = NULL;
	}
	kshim_vfs_put(root);
	if (err)
		fss_fail(t, "mkdir %s: %d", name, err);
	return err;
}

static void close_top(struct task_model *t)
{
	if (t->top)
		kshim_vfs_put(t->top);
	t->top = NULL;
}

/* One operation; in a crash test, with its place in the history. */
static void step(struct task_model *t)
{
	struct fsstress *fs = t->fs;
	enum fsstress_op op = pick_op(t);
	unsigned long *before = NULL;
	unsigned int i;

	if (!t->hist) {
		fss_do_op(t, op);
		return;
	}
	if (op == FSS_SYNC || op == FSS_LOGFORCE) {
		before = kmalloc_array(fs->cfg.tasks, sizeof(*before),
				       GFP_KERNEL | __GFP_NOFAIL);
		for (i = 0; i < fs->cfg.tasks; i++)
			before[i] = READ_ONCE(fs->tm[i].done);
	}
	fss_do_op(t, op);
	if (before && !t->mismatches)
		covered_by_force(t, before);
	kfree(before);
	remember(t, t->done + 1);
	t->last = t->done + 1;
	if (READ_ONCE(fs->crashing))
		return;
	WRITE_ONCE(t->done, t->done + 1);
	if (fs->cfg.crash_after &&
	    atomic_long_inc_return(&fs->completed) == fs->cfg.crash_after) {
		WRITE_ONCE(fs->crashing, true);
		fs->cfg.crash(fs->cfg.crash_arg);
		WRITE_ONCE(fs->crashed, true);
	}
}

static void task_fn(void *arg)
{
	struct task_model *t = arg;
	struct fsstress *fs = t->fs;
	unsigned long i;

	if (open_top(t, fs->sb))
		return;
	for (i = 0; i < fs->cfg.ops && !READ_ONCE(fs->crashing); i++) {
		step(t);
		if (!t->id && fs->cfg.progress &&
		    !((i + 1) % fs->cfg.progress))
			kshim_info("fsstress: %lu of %lu operations (task 0)\n",
				i + 1, fs->cfg.ops);
	}
	if (!READ_ONCE(fs->crashing))
		fss_check_tree(t);
	close_top(t);
}

/* ---- the API -------------------------------------------------------------- */

int fsstress_parse_mix(const char *spec, unsigned int weights[FSS_NR_OPS],
		       char *err, size_t errlen)
{
	char buf[512], *s, *item;
	unsigned int total = 0;
	int op;

	memcpy(weights, default_weights, sizeof(default_weights));
	if (!spec || !*spec)
		return 0;
	strscpy(buf, spec, sizeof(buf));
	s = buf;
	if (!strncmp(s, "only:", 5)) {
		memset(weights, 0, sizeof(default_weights));
		s += 5;
	} else if (!strncmp(s, "nodata:", 7)) {
		for (op = FSS_WRITE; op < FSS_NR_OPS; op++)
			weights[op] = 0;
		s += 7;
		if (!*s)
			goto sum;
	}
	while ((item = strsep(&s, ","))) {
		char *eq = strchr(item, '=');
		unsigned int w;

		if (!eq || kstrtouint(eq + 1, 10, &w)) {
			snprintf(err, errlen, "mix: \"%s\" is not NAME=WEIGHT",
				 item);
			return -EINVAL;
		}
		*eq = '\0';
		for (op = 0; op < FSS_NR_OPS; op++)
			if (!strcmp(item, fsstress_op_names[op]))
				break;
		if (op == FSS_NR_OPS) {
			snprintf(err, errlen, "mix: unknown operation \"%s\"",
				 item);
			return -EINVAL;
		}
		weights[op] = w;
	}
sum:
	for (op = 0; op < FSS_NR_OPS; op++)
		total += weights[op];
	if (!total) {
		snprintf(err, errlen, "mix: the weights sum to zero");
		return -EINVAL;
	}
	return 0;
}

struct fsstress *fsstress_new(const struct fsstress_config *cfg)
{
	struct fsstress *fs = kzalloc(sizeof(*fs), GFP_KERNEL | __GFP_NOFAIL);
	unsigned int i;
	int op;

	if (!cfg->tasks || cfg->tasks > FSS_MAX_TASKS)
		kshim_fatal("fsstress: %u tasks (1..%d)", cfg->tasks,
			    FSS_MAX_TASKS);
	if (cfg->crash_after && (!cfg->history || !cfg->crash))
		kshim_fatal("fsstress: a crash point needs cfg.history and cfg.crash");
	fs->cfg = *cfg;
	/* The writes an earlier run of the process lost are not this one's. */
	kshim_bdev_forget_lost_writes();
	memcpy(fs->weights, cfg->weights, sizeof(fs->weights));
	for (op = 0; op < FSS_NR_OPS; op++)
		fs->total_weight += fs->weights[op];
	if (!fs->total_weight) {
		memcpy(fs->weights, default_weights, sizeof(fs->weights));
		for (op = 0; op < FSS_NR_OPS; op++)
			fs->total_weight += fs->weights[op];
	}
	fs->task_data = min_t(u32, TASK_DATA, ALL_DATA / cfg->tasks);
	spin_lock_init(&fs->lock);
	/* The models are the test's bookkeeping, not kernel memory: host
	 * memory, outside the simulated RAM the kernel code competes for. */
	fs->tm = kshim_host_alloc(cfg->tasks * sizeof(*fs->tm), 64);
	if (!fs->tm)
		kshim_fatal("fsstress: no memory for %u models", cfg->tasks);
	memset(fs->tm, 0, cfg->tasks * sizeof(*fs->tm));
	for (i = 0; i < cfg->tasks; i++) {
		fs->tm[i].fs = fs;
		fs->tm[i].id = i;
		fs->tm[i].rng = cfg->seed * 1000003 + i + 1;
		fs->tm[i].in[0].type = M_DIR;	/* the top, "p<i>" */
		fs->tm[i].in[0].perm = 0755;
		if (cfg->history) {
			fs->tm[i].hist = kshim_host_alloc((cfg->ops + 2) *
							  sizeof(struct m_state), 64);
			if (!fs->tm[i].hist)
				kshim_fatal("fsstress: no memory for histories");
			remember(&fs->tm[i], 0);
			fs->tm[i].dur = kshim_host_alloc(MAX_INODES *
							 sizeof(struct m_durable), 64);
			if (!fs->tm[i].dur)
				kshim_fatal("fsstress: no memory for histories");
			memset(fs->tm[i].dur, 0,
			       MAX_INODES * sizeof(struct m_durable));
		}
	}
	fs->recovered_at = kcalloc(cfg->tasks, sizeof(long),
				   GFP_KERNEL | __GFP_NOFAIL);
	return fs;
}

void fsstress_start(struct fsstress *fs, struct super_block *sb)
{
	unsigned int i;

	fs->sb = sb;
	fs->start_ns = ktime_get_ns();
	for (i = 0; i < fs->cfg.tasks; i++)
		fs->tm[i].task = kshim_task_run(task_fn, &fs->tm[i],
						"fsstress", -1);
}

/* Whether cfg.crash was called (the crash point was reached). */
bool fsstress_crashed(struct fsstress *fs)
{
	return READ_ONCE(fs->crashed);
}

void fsstress_join(struct fsstress *fs)
{
	unsigned int i;

	for (i = 0; i < fs->cfg.tasks; i++)
		kshim_task_join(fs->tm[i].task);
	fs->tm[0].st.ns += ktime_get_ns() - fs->start_ns;
}

void fsstress_run(struct fsstress *fs, struct super_block *sb)
{
	fsstress_start(fs, sb);
	fsstress_join(fs);
}

/*
 * After the crash and recovery: each task's tree must be its model after
 * some number of its operations between what a log force covered and
 * the one in flight. Tried from the newest; if none matches, the check
 * against the state the force covered says what differs.
 */
void fsstress_check_recovered(struct fsstress *fs, struct super_block *sb)
{
	unsigned int i;
	long k;

	fs->sb = sb;
	fs->crashing = false;
	for (i = 0; i < fs->cfg.tasks; i++) {
		struct task_model *t = &fs->tm[i];
		struct dentry *root = kshim_vfs_root(sb);
		char name[NAME_LEN];

		top_name(t->id, name);
		t->top = kshim_vfs_lookup(root, name);
		kshim_vfs_put(root);
		if (IS_ERR(t->top)) {
			t->top = NULL;
			if (t->durable)
				fss_fail(t, "%s is gone, after %lu operations a log force covered",
				     name, t->durable);
			continue;
		}
		t->quiet = true;
		t->recovering = true;
		for (k = t->last; k >= (long)t->durable; k--) {
			memcpy(t->in, t->hist[k].in, sizeof(t->in));
			memcpy(t->en, t->hist[k].en, sizeof(t->en));
			t->mismatches = 0;
			fss_check_tree(t);
			if (!t->mismatches)
				break;
		}
		t->quiet = false;
		fs->recovered_at[i] = k;
		if (k < (long)t->durable) {
			fss_fail(t, "the recovered tree is no state between operation %lu (forced) and %lu (in flight); against %lu:",
			     t->durable, t->last, t->durable);
			memcpy(t->in, t->hist[t->durable].in, sizeof(t->in));
			memcpy(t->en, t->hist[t->durable].en, sizeof(t->en));
			fss_check_tree(t);
		}
		/* The files of that tree, against what fsync promised. */
		fss_check_durable(t);
		t->recovering = false;
		close_top(t);
	}
}

/* Which operation each task's recovered tree matched (-1: none). */
long fsstress_recovered_at(struct fsstress *fs, unsigned int task)
{
	return fs->recovered_at[task];
}

unsigned long fsstress_durable(struct fsstress *fs, unsigned int task)
{
	return fs->tm[task].durable;
}

unsigned long fsstress_last(struct fsstress *fs, unsigned int task)
{
	return fs->tm[task].last;
}

void fsstress_check(struct fsstress *fs, struct super_block *sb)
{
	unsigned int i;

	fs->sb = sb;
	for (i = 0; i < fs->cfg.tasks; i++) {
		struct task_model *t = &fs->tm[i];

		if (open_top(t, sb))
			continue;
		fss_check_tree(t);
		close_top(t);
	}
}

unsigned long fsstress_failures(struct fsstress *fs)
{
	return fs->failures;
}

const char *fsstress_first_failure(struct fsstress *fs)
{
	return fs->failures ? fs->first : "";
}

void fsstress_stats(struct fsstress *fs, struct fsstress_stats *out)
{
	unsigned int i, k;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < fs->cfg.tasks; i++) {
		struct fsstress_stats *s = &fs->tm[i].st;

		for (k = 0; k < FSS_NR_OPS; k++) {
			out->ops[k] += s->ops[k];
			out->errors[k] += s->errors[k];
		}
		for (k = 0; k < ARRAY_SIZE(out->errnos); k++)
			out->errnos[k] += s->errnos[k];
		out->checks += s->checks;
		out->ns += s->ns;
	}
}

void fsstress_print(struct fsstress *fs)
{
	struct fsstress_stats st;
	unsigned int k;
	u64 total = 0;

	fsstress_stats(fs, &st);
	kshim_info("fsstress: seed %llu, %u task(s) x %lu operations, %llu checks, %llu ms\n",
		fs->cfg.seed, fs->cfg.tasks, fs->cfg.ops, st.checks,
		st.ns / NSEC_PER_MSEC);
	for (k = 0; k < FSS_NR_OPS; k++) {
		total += st.ops[k];
		if (st.ops[k])
			kshim_info("fsstress:   %-12s %8llu  (errors %llu)\n",
				fsstress_op_names[k], st.ops[k], st.errors[k]);
	}
	for (k = 0; k < ARRAY_SIZE(st.errnos); k++)
		if (st.errnos[k])
			kshim_info("fsstress:   errno %-3u     %8llu\n", k,
				st.errnos[k]);
	kshim_info("fsstress: %llu operations, %lu check(s) failed%s%s\n", total,
		fs->failures, fs->failures ? ": first: " : "",
		fsstress_first_failure(fs));
}

void fsstress_free(struct fsstress *fs)
{
	unsigned int i;

	for (i = 0; i < fs->cfg.tasks; i++)
		if (fs->tm[i].hist) {
			kshim_host_free(fs->tm[i].hist);
			kshim_host_free(fs->tm[i].dur);
		}
	kshim_host_free(fs->tm);
	kfree(fs->recovered_at);
	kfree(fs);
}
