// SPDX-License-Identifier: GPL-2.0
/*
 * The operation generator (fsstress.h). Each task's model is a table of
 * inodes and a table of directory entries (a name in a directory naming
 * an inode); a directory's link count is derived (2 plus its
 * subdirectories), a file's is its entry count. Operations pick their
 * targets in the model, predict the errno the kernel must return, call
 * kshim/vfs.h, compare, and apply the change to the model when it
 * succeeded.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include <linux/mm.h>
#include <linux/timekeeping.h>
#include <kshim/runtime.h>
#include <kshim/host.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include "fsstress.h"

const char *const fsstress_op_names[FSS_NR_OPS] = {
	"create", "mkdir", "symlink", "link", "unlink", "rmdir", "rename",
	"exchange", "whiteout", "chmod", "chown", "setxattr", "getxattr",
	"listxattr", "removexattr", "lookup", "readdir", "sync", "logforce",
	"dropcaches",
};

/* Namespace changes dominate, as in fsstress's default mix; the
 * whole-filesystem operations are rare (each is a stall for all). */
static const unsigned int default_weights[FSS_NR_OPS] = {
	[FSS_CREATE] = 10, [FSS_MKDIR] = 4, [FSS_SYMLINK] = 3, [FSS_LINK] = 4,
	[FSS_UNLINK] = 8, [FSS_RMDIR] = 3, [FSS_RENAME] = 6,
	[FSS_EXCHANGE] = 2, [FSS_WHITEOUT] = 1, [FSS_CHMOD] = 2,
	[FSS_CHOWN] = 2, [FSS_SETXATTR] = 6, [FSS_GETXATTR] = 4,
	[FSS_LISTXATTR] = 2, [FSS_REMOVEXATTR] = 3, [FSS_LOOKUP] = 8,
	[FSS_READDIR] = 3, [FSS_SYNC] = 1, [FSS_LOGFORCE] = 1,
	[FSS_DROPCACHES] = 1,
};

#define MAX_INODES	192
#define MAX_ENTRIES	256
#define MAX_XATTRS	6
#define NAME_LEN	16

enum m_type { M_FREE, M_DIR, M_REG, M_LNK, M_WHT };

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
	bool quiet;			/* count mismatches, do not fail */
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
	struct super_block *sb;
	struct task_model *tm;
	spinlock_t lock;		/* failures, first */
	unsigned long failures;
	char first[320];
};

/* ---- failures -------------------------------------------------------- */

/* The power is going (the crash point) or the filesystem has shut
 * down (cfg.shut_down): results are no longer checked, and stay so. */
static bool results_unknown(struct fsstress *fs)
{
	if (READ_ONCE(fs->crashing))
		return true;
	if (fs->cfg.shut_down && fs->sb && fs->cfg.shut_down(fs->sb)) {
		WRITE_ONCE(fs->crashing, true);
		return true;
	}
	return false;
}

static __printf(2, 3) void fail(struct task_model *t, const char *fmt, ...)
{
	struct fsstress *fs = t->fs;
	char msg[256];
	va_list ap;

	if (t->quiet || results_unknown(fs)) {
		t->mismatches++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("fsstress: task %d: %s\n", t->id, msg);
	spin_lock(&fs->lock);
	if (!fs->failures++)
		snprintf(fs->first, sizeof(fs->first), "task %d: %s", t->id,
			 msg);
	spin_unlock(&fs->lock);
}

/* The kernel returned GOT where the model says WANT. */
static bool expect(struct task_model *t, enum fsstress_op op, long got,
		   long want, const char *what)
{
	/* Once the power is going or the filesystem shut down, what the
	 * kernel says is not checked: the operation is taken as the model
	 * predicts it, and the task stops after it. */
	if (results_unknown(t->fs))
		got = want;
	t->st.checks++;
	if (got < 0 && -got < (long)ARRAY_SIZE(t->st.errnos))
		t->st.errnos[-got]++;
	if (got < 0)
		t->st.errors[op]++;
	if (got == want)
		return true;
	fail(t, "%s %s: returned %ld, the model says %ld",
	     fsstress_op_names[op], what, got, want);
	return false;
}

/* ---- the model --------------------------------------------------------- */

static u32 rnd(struct task_model *t, u32 n)
{
	return n ? kshim_random(&t->rng) % n : 0;
}

static int nr_subdirs(struct task_model *t, int dir)
{
	int i, n = 0;

	for (i = 0; i < MAX_ENTRIES; i++)
		if (t->en[i].used && t->en[i].dir == dir &&
		    t->in[t->en[i].ino].type == M_DIR)
			n++;
	return n;
}

static bool dir_empty(struct task_model *t, int dir)
{
	int i;

	for (i = 0; i < MAX_ENTRIES; i++)
		if (t->en[i].used && t->en[i].dir == dir)
			return false;
	return true;
}

static int model_nlink(struct task_model *t, int ino)
{
	return t->in[ino].type == M_DIR ? 2 + nr_subdirs(t, ino) :
					  t->in[ino].nlink;
}

/* The entry naming directory DIR (directories have one), or -1: top. */
static int entry_of_dir(struct task_model *t, int dir)
{
	int i;

	for (i = 0; i < MAX_ENTRIES; i++)
		if (t->en[i].used && t->en[i].ino == dir)
			return i;
	return -1;
}

/* Is A the directory D or one of its ancestors? */
static bool is_ancestor(struct task_model *t, int a, int d)
{
	while (d) {
		if (d == a)
			return true;
		d = t->en[entry_of_dir(t, d)].dir;
	}
	return a == 0;
}

static int find_entry(struct task_model *t, int dir, const char *name)
{
	int i;

	for (i = 0; i < MAX_ENTRIES; i++)
		if (t->en[i].used && t->en[i].dir == dir &&
		    !strcmp(t->en[i].name, name))
			return i;
	return -1;
}

static int new_inode_slot(struct task_model *t)
{
	int i;

	for (i = 1; i < MAX_INODES; i++)
		if (t->in[i].type == M_FREE)
			return i;
	return -1;
}

static int new_entry_slot(struct task_model *t)
{
	int i;

	for (i = 0; i < MAX_ENTRIES; i++)
		if (!t->en[i].used)
			return i;
	return -1;
}

/* A random inode of one of the types in MASK (bit per m_type), or -1. */
static int pick_inode(struct task_model *t, unsigned int mask)
{
	int i, n = 0, k;

	for (i = 0; i < MAX_INODES; i++)
		if (mask & BIT(t->in[i].type))
			n++;
	if (!n)
		return -1;
	k = rnd(t, n);
	for (i = 0; i < MAX_INODES; i++)
		if ((mask & BIT(t->in[i].type)) && !k--)
			return i;
	return -1;
}

/* A random entry naming an inode of a type in MASK, or -1. */
static int pick_entry(struct task_model *t, unsigned int mask)
{
	int i, n = 0, k;

	for (i = 0; i < MAX_ENTRIES; i++)
		if (t->en[i].used && (mask & BIT(t->in[t->en[i].ino].type)))
			n++;
	if (!n)
		return -1;
	k = rnd(t, n);
	for (i = 0; i < MAX_ENTRIES; i++)
		if (t->en[i].used && (mask & BIT(t->in[t->en[i].ino].type)) &&
		    !k--)
			return i;
	return -1;
}

static void new_name(struct task_model *t, char *name)
{
	snprintf(name, NAME_LEN, "e%lu", t->next_name++);
}

static void add_entry(struct task_model *t, int dir, const char *name, int ino)
{
	int e = new_entry_slot(t);

	t->en[e].used = true;
	t->en[e].dir = dir;
	t->en[e].ino = ino;
	strscpy(t->en[e].name, name, NAME_LEN);
}

/* An entry goes; its inode goes with its last name. */
static void drop_entry(struct task_model *t, int e)
{
	int ino = t->en[e].ino;

	t->en[e].used = false;
	if (t->in[ino].type != M_DIR && --t->in[ino].nlink > 0)
		return;
	memset(&t->in[ino], 0, sizeof(t->in[ino]));
}

/* ---- the kernel side ---------------------------------------------------- */

/* The dentry of directory DIR, looked up name by name from the top. */
static struct dentry *dir_dentry(struct task_model *t, int dir)
{
	struct dentry *parent, *d;
	int e;

	if (!dir)
		return dget(t->top);
	e = entry_of_dir(t, dir);
	parent = dir_dentry(t, t->en[e].dir);
	if (IS_ERR(parent))
		return parent;
	d = kshim_vfs_lookup(parent, t->en[e].name);
	kshim_vfs_put(parent);
	if (IS_ERR(d))
		fail(t, "lookup of directory %s: %ld", t->en[e].name,
		     PTR_ERR(d));
	return d;
}

static struct dentry *entry_dentry(struct task_model *t, int e)
{
	struct dentry *dir = dir_dentry(t, t->en[e].dir), *d;

	if (IS_ERR(dir))
		return dir;
	d = kshim_vfs_lookup(dir, t->en[e].name);
	kshim_vfs_put(dir);
	if (IS_ERR(d))
		fail(t, "lookup of %s: %ld", t->en[e].name, PTR_ERR(d));
	return d;
}

static const umode_t type_bits[] = {
	[M_DIR] = S_IFDIR, [M_REG] = S_IFREG, [M_LNK] = S_IFLNK,
	[M_WHT] = S_IFCHR,
};

/* getattr() against the model: type, link count, mode, owner. */
static void check_attrs(struct task_model *t, struct dentry *d, int ino,
			const char *name)
{
	struct m_inode *mi = &t->in[ino];
	struct kstat st;
	int err = kshim_vfs_getattr(d, &st);

	t->st.checks++;
	if (err) {
		fail(t, "getattr %s: %d", name, err);
		return;
	}
	if ((st.mode & S_IFMT) != type_bits[mi->type])
		fail(t, "%s: type %o, the model says %o", name,
		     st.mode & S_IFMT, type_bits[mi->type]);
	if (st.nlink != model_nlink(t, ino))
		fail(t, "%s: %u links, the model says %d", name, st.nlink,
		     model_nlink(t, ino));
	if (mi->type == M_DIR || mi->type == M_REG) {
		if ((st.mode & 07777) != mi->perm)
			fail(t, "%s: mode %o, the model says %o", name,
			     st.mode & 07777, mi->perm);
		if (from_kuid(&init_user_ns, st.uid) != mi->uid ||
		    from_kgid(&init_user_ns, st.gid) != mi->gid)
			fail(t, "%s: owner %u:%u, the model says %d:%d", name,
			     from_kuid(&init_user_ns, st.uid),
			     from_kgid(&init_user_ns, st.gid), mi->uid, mi->gid);
	}
	if (mi->type == M_LNK) {
		char buf[NAME_LEN];

		if (kshim_vfs_readlink(d, buf, sizeof(buf)) < 0 ||
		    strcmp(buf, mi->target))
			fail(t, "%s: symlink target is not %s", name,
			     mi->target);
	}
}

struct listing {
	struct task_model *t;
	int dir;
	int seen;			/* names the model knows */
	bool bad;
};

static bool list_one(void *arg, const char *name, int len, u64 ino,
		     unsigned int d_type)
{
	struct listing *l = arg;
	char buf[NAME_LEN];

	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && !memcmp(name, "..", 2)))
		return true;
	if (len >= NAME_LEN) {
		l->bad = true;
		return true;
	}
	memcpy(buf, name, len);
	buf[len] = '\0';
	if (find_entry(l->t, l->dir, buf) < 0) {
		fail(l->t, "readdir lists %s, which the model has not", buf);
		l->bad = true;
	} else {
		l->seen++;
	}
	return true;
}

static void check_listing(struct task_model *t, struct dentry *d, int dir)
{
	struct listing l = { .t = t, .dir = dir };
	int i, n = 0, err;

	for (i = 0; i < MAX_ENTRIES; i++)
		if (t->en[i].used && t->en[i].dir == dir)
			n++;
	err = kshim_vfs_readdir(d, list_one, &l);
	t->st.checks++;
	if (err)
		fail(t, "readdir: %d", err);
	else if (l.seen != n && !l.bad)
		fail(t, "readdir lists %d of the model's %d names", l.seen, n);
}

static void xattr_value(u32 seed, u16 size, u8 *buf)
{
	u16 i;

	for (i = 0; i < size; i++)
		buf[i] = (u8)(seed + i * 31 + (i >> 8));
}

static void xattr_name(int i, char *name)
{
	snprintf(name, 16, "user.x%d", i);
}

static void check_xattrs(struct task_model *t, struct dentry *d, int ino)
{
	static const size_t bufsize = 4096;
	struct m_inode *mi = &t->in[ino];
	u8 *got = kmalloc(bufsize, GFP_KERNEL), *want = kmalloc(bufsize, GFP_KERNEL);
	char name[16];
	ssize_t len, list_len = 0;
	int i;

	for (i = 0; i < MAX_XATTRS; i++) {
		xattr_name(i, name);
		len = kshim_vfs_getxattr(d, name, got, bufsize);
		t->st.checks++;
		if (!mi->xattr[i].set) {
			if (len != -ENODATA)
				fail(t, "getxattr %s: %zd, the model says -ENODATA",
				     name, len);
			continue;
		}
		list_len += strlen(name) + 1;
		xattr_value(mi->xattr[i].seed, mi->xattr[i].size, want);
		if (len != mi->xattr[i].size || memcmp(got, want, len))
			fail(t, "getxattr %s: %zd bytes, not the model's %u",
			     name, len, mi->xattr[i].size);
	}
	len = kshim_vfs_listxattr(d, NULL, 0);
	t->st.checks++;
	if (len != list_len)
		fail(t, "listxattr: %zd bytes, the model says %zd", len, list_len);
	kfree(got);
	kfree(want);
}

/* ---- operations ------------------------------------------------------------ */

static void op_create(struct task_model *t, enum fsstress_op op)
{
	int dir = pick_inode(t, BIT(M_DIR)), slot = new_inode_slot(t), e, err;
	static const umode_t perms[] = { 0644, 0600, 0755, 0666, 0700 };
	umode_t perm = perms[rnd(t, ARRAY_SIZE(perms))];
	char name[NAME_LEN], target[NAME_LEN];
	struct dentry *d;
	long want = 0;

	if (slot < 0 || new_entry_slot(t) < 0)
		return;
	/* One in eight: an existing name in that directory. */
	e = rnd(t, 8) ? -1 : pick_entry(t, ~0u);
	if (e >= 0) {
		dir = t->en[e].dir;
		strscpy(name, t->en[e].name, NAME_LEN);
		want = -EEXIST;
	} else {
		new_name(t, name);
	}
	snprintf(target, NAME_LEN, "t%llu", kshim_random(&t->rng) % 1000);
	d = dir_dentry(t, dir);
	if (IS_ERR(d))
		return;
	if (op == FSS_CREATE)
		err = kshim_vfs_create(d, name, perm, NULL);
	else if (op == FSS_MKDIR)
		err = kshim_vfs_mkdir(d, name, perm, NULL);
	else
		err = kshim_vfs_symlink(d, name, target, NULL);
	kshim_vfs_put(d);
	if (!expect(t, op, err, want, name) || err)
		return;
	t->in[slot] = (struct m_inode) {
		.type = op == FSS_CREATE ? M_REG : op == FSS_MKDIR ? M_DIR : M_LNK,
		.nlink = 1,
		.perm = perm & ~022,	/* the umask */
	};
	strscpy(t->in[slot].target, target, NAME_LEN);
	add_entry(t, dir, name, slot);
}

static void op_link(struct task_model *t)
{
	int e = pick_entry(t, BIT(M_REG) | BIT(M_LNK) | BIT(M_WHT));
	int dir = pick_inode(t, BIT(M_DIR)), err;
	char name[NAME_LEN];
	struct dentry *old, *d;

	if (e < 0 || new_entry_slot(t) < 0)
		return;
	new_name(t, name);
	old = entry_dentry(t, e);
	if (IS_ERR(old))
		return;
	d = dir_dentry(t, dir);
	if (!IS_ERR(d)) {
		err = kshim_vfs_link(old, d, name);
		kshim_vfs_put(d);
		if (expect(t, FSS_LINK, err, 0, name)) {
			t->in[t->en[e].ino].nlink++;
			add_entry(t, dir, name, t->en[e].ino);
		}
	}
	kshim_vfs_put(old);
}

static void op_remove(struct task_model *t, enum fsstress_op op)
{
	bool rmdir = op == FSS_RMDIR;
	int e = pick_entry(t, rmdir ? BIT(M_DIR) :
			   BIT(M_REG) | BIT(M_LNK) | BIT(M_WHT));
	int dir = e >= 0 ? t->en[e].dir : 0, err;
	char name[NAME_LEN];
	struct dentry *d;
	long want = 0;

	if (e < 0 || !rnd(t, 10)) {	/* and sometimes a missing name */
		e = -1;
		new_name(t, name);
		want = -ENOENT;
	} else {
		strscpy(name, t->en[e].name, NAME_LEN);
		if (rmdir && !dir_empty(t, t->en[e].ino))
			want = -ENOTEMPTY;
	}
	d = dir_dentry(t, dir);
	if (IS_ERR(d))
		return;
	err = rmdir ? kshim_vfs_rmdir(d, name) : kshim_vfs_unlink(d, name);
	kshim_vfs_put(d);
	if (expect(t, op, err, want, name) && !err)
		drop_entry(t, e);
}

/*
 * rename(), RENAME_EXCHANGE and RENAME_WHITEOUT. A directory is never
 * moved under itself (the unit tests cover that error); everything else
 * the kernel decides is predicted: the target's type and emptiness, two
 * names of one inode.
 */
static void op_rename(struct task_model *t, enum fsstress_op op)
{
	unsigned int flags = op == FSS_EXCHANGE ? RENAME_EXCHANGE :
			     op == FSS_WHITEOUT ? RENAME_WHITEOUT : 0;
	int src = pick_entry(t, op == FSS_WHITEOUT ?
			     BIT(M_REG) | BIT(M_LNK) : ~0u);
	int dst = -1, ddir, wslot = -1, err;
	char name[NAME_LEN];
	struct dentry *od, *nd;
	bool sdir, noreplace = false;
	long want = 0;

	if (src < 0)
		return;
	sdir = t->in[t->en[src].ino].type == M_DIR;
	if (op == FSS_EXCHANGE || rnd(t, 2)) {
		dst = pick_entry(t, ~0u);
		if (dst < 0 || dst == src)
			return;
	}
	ddir = dst >= 0 ? t->en[dst].dir : pick_inode(t, BIT(M_DIR));
	/* No directory under itself, either way round. */
	if (sdir && is_ancestor(t, t->en[src].ino, ddir))
		return;
	if (dst >= 0 && t->in[t->en[dst].ino].type == M_DIR &&
	    is_ancestor(t, t->en[dst].ino, t->en[src].dir))
		return;
	if (op == FSS_WHITEOUT) {
		wslot = new_inode_slot(t);
		if (wslot < 0)
			return;
	}
	if (dst < 0) {
		if (new_entry_slot(t) < 0)
			return;
		new_name(t, name);
	} else {
		strscpy(name, t->en[dst].name, NAME_LEN);
	}
	if (op == FSS_RENAME && dst >= 0 && !rnd(t, 4))
		noreplace = true;

	if (noreplace) {
		want = -EEXIST;
	} else if (dst >= 0 && op != FSS_EXCHANGE) {
		int tino = t->en[dst].ino;
		bool tdir = t->in[tino].type == M_DIR;

		if (tino == t->en[src].ino)
			want = 0;	/* two names of one inode: nothing */
		else if (sdir && !tdir)
			want = -ENOTDIR;
		else if (!sdir && tdir)
			want = -EISDIR;
		else if (tdir && !dir_empty(t, tino))
			want = t->fs->cfg.rename_notempty ?: -ENOTEMPTY;
	}

	od = dir_dentry(t, t->en[src].dir);
	if (IS_ERR(od))
		return;
	nd = dir_dentry(t, ddir);
	if (IS_ERR(nd)) {
		kshim_vfs_put(od);
		return;
	}
	err = kshim_vfs_rename(od, t->en[src].name, nd, name,
			       flags | (noreplace ? RENAME_NOREPLACE : 0));
	kshim_vfs_put(nd);
	kshim_vfs_put(od);
	if (!expect(t, op, err, want, t->en[src].name) || err)
		return;

	if (op == FSS_EXCHANGE) {
		swap(t->en[src].ino, t->en[dst].ino);
		return;
	}
	if (dst >= 0 && t->en[dst].ino == t->en[src].ino)
		return;
	if (dst >= 0)
		drop_entry(t, dst);
	if (op == FSS_WHITEOUT) {
		/* The old name now names a whiteout, the new one the inode. */
		t->in[wslot] = (struct m_inode) { .type = M_WHT, .nlink = 1 };
		add_entry(t, ddir, name, t->en[src].ino);
		t->en[src].ino = wslot;
		return;
	}
	t->en[src].dir = ddir;
	strscpy(t->en[src].name, name, NAME_LEN);
}

static void op_setattr(struct task_model *t, enum fsstress_op op)
{
	int e = pick_entry(t, BIT(M_REG) | BIT(M_DIR)), err;
	struct m_inode *mi;
	struct dentry *d;
	umode_t perm = rnd(t, 01000);
	int uid = rnd(t, 4), gid = rnd(t, 4);

	if (e < 0)
		return;
	mi = &t->in[t->en[e].ino];
	d = entry_dentry(t, e);
	if (IS_ERR(d))
		return;
	if (op == FSS_CHMOD)
		err = kshim_vfs_chmod(d, perm);
	else
		err = kshim_vfs_chown(d, uid, gid);
	kshim_vfs_put(d);
	if (!expect(t, op, err, 0, t->en[e].name))
		return;
	if (op == FSS_CHMOD) {
		mi->perm = perm;
	} else {
		mi->uid = uid;
		mi->gid = gid;
	}
}

static void op_xattr(struct task_model *t, enum fsstress_op op)
{
	int e = pick_entry(t, BIT(M_REG) | BIT(M_DIR)), i = rnd(t, MAX_XATTRS);
	struct m_xattr *mx;
	struct dentry *d;
	char name[16];
	long err, want = 0;
	u8 *buf;
	u16 size;
	u32 seed;

	if (e < 0)
		return;
	mx = &t->in[t->en[e].ino].xattr[i];
	xattr_name(i, name);
	d = entry_dentry(t, e);
	if (IS_ERR(d))
		return;
	switch (op) {
	case FSS_SETXATTR:
		/* Mostly short (in the inode or a leaf), some remote. */
		size = rnd(t, 8) ? rnd(t, 80) : 1000 + rnd(t, 3000);
		seed = kshim_random(&t->rng);
		buf = kmalloc(size + 1, GFP_KERNEL);
		xattr_value(seed, size, buf);
		err = kshim_vfs_setxattr(d, name, buf, size, 0);
		kfree(buf);
		if (expect(t, op, err, 0, name))
			*mx = (struct m_xattr) { true, size, seed };
		break;
	case FSS_REMOVEXATTR:
		err = kshim_vfs_removexattr(d, name);
		if (expect(t, op, err, mx->set ? 0 : -ENODATA, name))
			mx->set = false;
		break;
	case FSS_GETXATTR:
		err = kshim_vfs_getxattr(d, name, NULL, 0);
		if (mx->set)
			want = mx->size;
		else
			want = -ENODATA;
		expect(t, op, err, want, name);
		break;
	default:	/* listxattr, and every value with it */
		check_xattrs(t, d, t->en[e].ino);
		break;
	}
	kshim_vfs_put(d);
}

static void op_lookup(struct task_model *t)
{
	int e = pick_entry(t, ~0u);
	struct dentry *d;

	if (e < 0)
		return;
	d = entry_dentry(t, e);
	if (IS_ERR(d))
		return;
	check_attrs(t, d, t->en[e].ino, t->en[e].name);
	kshim_vfs_put(d);
}

static void op_readdir(struct task_model *t)
{
	int dir = pick_inode(t, BIT(M_DIR));
	struct dentry *d = dir_dentry(t, dir);

	if (IS_ERR(d))
		return;
	check_listing(t, d, dir);
	kshim_vfs_put(d);
}

static void op_global(struct task_model *t, enum fsstress_op op)
{
	struct fsstress *fs = t->fs;
	int err = 0;

	if (op == FSS_SYNC)
		err = kshim_vfs_syncfs(fs->sb);
	else if (op == FSS_LOGFORCE && fs->cfg.log_force)
		err = fs->cfg.log_force(fs->sb);
	else if (op == FSS_DROPCACHES)
		drop_slab();
	expect(t, op, err, 0, "");
}

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
	u32 k = rnd(t, t->fs->total_weight);
	int op;

	for (op = 0; op < FSS_NR_OPS; op++) {
		if (k < t->fs->weights[op])
			return op;
		k -= t->fs->weights[op];
	}
	return FSS_LOOKUP;
}

static void do_op(struct task_model *t, enum fsstress_op op)
{
	t->st.ops[op]++;
	switch (op) {
	case FSS_CREATE: case FSS_MKDIR: case FSS_SYMLINK:
		op_create(t, op);
		break;
	case FSS_LINK:
		op_link(t);
		break;
	case FSS_UNLINK: case FSS_RMDIR:
		op_remove(t, op);
		break;
	case FSS_RENAME: case FSS_EXCHANGE: case FSS_WHITEOUT:
		op_rename(t, op);
		break;
	case FSS_CHMOD: case FSS_CHOWN:
		op_setattr(t, op);
		break;
	case FSS_SETXATTR: case FSS_GETXATTR: case FSS_LISTXATTR:
	case FSS_REMOVEXATTR:
		op_xattr(t, op);
		break;
	case FSS_LOOKUP:
		op_lookup(t);
		break;
	case FSS_READDIR:
		op_readdir(t);
		break;
	default:
		op_global(t, op);
		break;
	}
}

/* ---- the whole check ------------------------------------------------------- */

/* Every entry of the task's tree: its attributes, xattrs and, for
 * directories, the listing. */
static void check_tree(struct task_model *t)
{
	struct dentry *d;
	int e;

	check_listing(t, t->top, 0);
	for (e = 0; e < MAX_ENTRIES; e++) {
		int ino = t->en[e].ino;

		if (!t->en[e].used)
			continue;
		d = entry_dentry(t, e);
		if (IS_ERR(d))
			continue;
		check_attrs(t, d, ino, t->en[e].name);
		if (t->in[ino].type == M_DIR)
			check_listing(t, d, ino);
		if (t->in[ino].type == M_DIR || t->in[ino].type == M_REG)
			check_xattrs(t, d, ino);
		kshim_vfs_put(d);
	}
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
		fail(t, "mkdir %s: %d", name, err);
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
		do_op(t, op);
		return;
	}
	if (op == FSS_SYNC || op == FSS_LOGFORCE) {
		before = kmalloc_array(fs->cfg.tasks, sizeof(*before),
				       GFP_KERNEL | __GFP_NOFAIL);
		for (i = 0; i < fs->cfg.tasks; i++)
			before[i] = READ_ONCE(fs->tm[i].done);
	}
	do_op(t, op);
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
		check_tree(t);
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
	memcpy(fs->weights, cfg->weights, sizeof(fs->weights));
	for (op = 0; op < FSS_NR_OPS; op++)
		fs->total_weight += fs->weights[op];
	if (!fs->total_weight) {
		memcpy(fs->weights, default_weights, sizeof(fs->weights));
		for (op = 0; op < FSS_NR_OPS; op++)
			fs->total_weight += fs->weights[op];
	}
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
				fail(t, "%s is gone, after %lu operations a log force covered",
				     name, t->durable);
			continue;
		}
		t->quiet = true;
		for (k = t->last; k >= (long)t->durable; k--) {
			memcpy(t->in, t->hist[k].in, sizeof(t->in));
			memcpy(t->en, t->hist[k].en, sizeof(t->en));
			t->mismatches = 0;
			check_tree(t);
			if (!t->mismatches)
				break;
		}
		t->quiet = false;
		fs->recovered_at[i] = k;
		if (k < (long)t->durable) {
			fail(t, "the recovered tree is no state between operation %lu (forced) and %lu (in flight); against %lu:",
			     t->durable, t->last, t->durable);
			memcpy(t->in, t->hist[t->durable].in, sizeof(t->in));
			memcpy(t->en, t->hist[t->durable].en, sizeof(t->en));
			check_tree(t);
		}
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
		check_tree(t);
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
		if (fs->tm[i].hist)
			kshim_host_free(fs->tm[i].hist);
	kshim_host_free(fs->tm);
	kfree(fs->recovered_at);
	kfree(fs);
}
