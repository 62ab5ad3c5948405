// SPDX-License-Identifier: GPL-2.0
/*
 * The operation generator's model (fsstress_internal.h). Each task's
 * model is a table of inodes and a table of directory entries (a name in
 * a directory naming an inode); a directory's link count is derived (2
 * plus its subdirectories), a file's is its entry count. Here: the
 * failure reports, the model's queries and changes, and the checks of
 * what the kernel says (attributes, listings, xattrs, a whole tree)
 * against it.
 */
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/xattr.h>
#include <kshim/runtime.h>
#include <kshim/vfs.h>
#include "fsstress_internal.h"

/* ---- failures -------------------------------------------------------- */

/* The power is going (the crash point) or the filesystem has shut
 * down (cfg.shut_down): results are no longer checked, and stay so. */
bool fss_results_unknown(struct fsstress *fs)
{
	if (READ_ONCE(fs->crashing))
		return true;
	if (fs->cfg.shut_down && fs->sb && fs->cfg.shut_down(fs->sb)) {
		WRITE_ONCE(fs->crashing, true);
		return true;
	}
	return false;
}

__printf(2, 3) void fss_fail(struct task_model *t, const char *fmt, ...)
{
	struct fsstress *fs = t->fs;
	char msg[256];
	va_list ap;

	if (t->quiet || fss_results_unknown(fs)) {
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
bool fss_expect(struct task_model *t, enum fsstress_op op, long got,
		   long want, const char *what)
{
	/* Once the power is going or the filesystem shut down, what the
	 * kernel says is not checked: the operation is taken as the model
	 * predicts it, and the task stops after it. */
	if (fss_results_unknown(t->fs))
		got = want;
	t->st.checks++;
	if (got < 0 && -got < (long)ARRAY_SIZE(t->st.errnos))
		t->st.errnos[-got]++;
	if (got < 0)
		t->st.errors[op]++;
	if (got == want)
		return true;
	fss_fail(t, "%s %s: returned %ld, the model says %ld",
	     fsstress_op_names[op], what, got, want);
	return false;
}

/* ---- the model --------------------------------------------------------- */

/* One random choice: cfg.choose's, or the task's generator's. */
u64 fss_random(struct task_model *t)
{
	const struct fsstress_config *cfg = &t->fs->cfg;
	u64 v;

	if (cfg->choose && cfg->choose(cfg->choose_arg, t->id, &v))
		return v;
	return kshim_random(&t->rng);
}

u32 fss_rnd(struct task_model *t, u32 n)
{
	return n ? fss_random(t) % n : 0;
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

bool fss_dir_empty(struct task_model *t, int dir)
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
bool fss_is_ancestor(struct task_model *t, int a, int d)
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

int fss_new_inode_slot(struct task_model *t)
{
	int i;

	for (i = 1; i < MAX_INODES; i++)
		if (t->in[i].type == M_FREE)
			return i;
	return -1;
}

int fss_new_entry_slot(struct task_model *t)
{
	int i;

	for (i = 0; i < MAX_ENTRIES; i++)
		if (!t->en[i].used)
			return i;
	return -1;
}

/* A random inode of one of the types in MASK (bit per m_type), or -1. */
int fss_pick_inode(struct task_model *t, unsigned int mask)
{
	int i, n = 0, k;

	for (i = 0; i < MAX_INODES; i++)
		if (mask & BIT(t->in[i].type))
			n++;
	if (!n)
		return -1;
	k = fss_rnd(t, n);
	for (i = 0; i < MAX_INODES; i++)
		if ((mask & BIT(t->in[i].type)) && !k--)
			return i;
	return -1;
}

/* A random entry naming an inode of a type in MASK, or -1. */
int fss_pick_entry(struct task_model *t, unsigned int mask)
{
	int i, n = 0, k;

	for (i = 0; i < MAX_ENTRIES; i++)
		if (t->en[i].used && (mask & BIT(t->in[t->en[i].ino].type)))
			n++;
	if (!n)
		return -1;
	k = fss_rnd(t, n);
	for (i = 0; i < MAX_ENTRIES; i++)
		if (t->en[i].used && (mask & BIT(t->in[t->en[i].ino].type)) &&
		    !k--)
			return i;
	return -1;
}

void fss_new_name(struct task_model *t, char *name)
{
	snprintf(name, NAME_LEN, "e%lu", t->next_name++);
}

void fss_add_entry(struct task_model *t, int dir, const char *name, int ino)
{
	int e = fss_new_entry_slot(t);

	t->en[e].used = true;
	t->en[e].dir = dir;
	t->en[e].ino = ino;
	strscpy(t->en[e].name, name, NAME_LEN);
}

/* An entry goes; its inode goes with its last name. */
void fss_drop_entry(struct task_model *t, int e)
{
	int ino = t->en[e].ino;

	t->en[e].used = false;
	if (t->in[ino].type != M_DIR && --t->in[ino].nlink > 0)
		return;
	memset(&t->in[ino], 0, sizeof(t->in[ino]));
}

/* ---- the kernel side ---------------------------------------------------- */

/* The dentry of directory DIR, looked up name by name from the top. */
struct dentry *fss_dir_dentry(struct task_model *t, int dir)
{
	struct dentry *parent, *d;
	int e;

	if (!dir)
		return dget(t->top);
	e = entry_of_dir(t, dir);
	parent = fss_dir_dentry(t, t->en[e].dir);
	if (IS_ERR(parent))
		return parent;
	d = kshim_vfs_lookup(parent, t->en[e].name);
	kshim_vfs_put(parent);
	if (IS_ERR(d))
		fss_fail(t, "lookup of directory %s: %ld", t->en[e].name,
		     PTR_ERR(d));
	return d;
}

struct dentry *fss_entry_dentry(struct task_model *t, int e)
{
	struct dentry *dir = fss_dir_dentry(t, t->en[e].dir), *d;

	if (IS_ERR(dir))
		return dir;
	d = kshim_vfs_lookup(dir, t->en[e].name);
	kshim_vfs_put(dir);
	if (IS_ERR(d))
		fss_fail(t, "lookup of %s: %ld", t->en[e].name, PTR_ERR(d));
	return d;
}

static const umode_t type_bits[] = {
	[M_DIR] = S_IFDIR, [M_REG] = S_IFREG, [M_LNK] = S_IFLNK,
	[M_WHT] = S_IFCHR,
};

/* getattr() against the model: type, link count, mode, owner. */
void fss_check_attrs(struct task_model *t, struct dentry *d, int ino,
			const char *name)
{
	struct m_inode *mi = &t->in[ino];
	struct kstat st;
	int err = kshim_vfs_getattr(d, &st);

	t->st.checks++;
	if (err) {
		fss_fail(t, "getattr %s: %d", name, err);
		return;
	}
	if ((st.mode & S_IFMT) != type_bits[mi->type])
		fss_fail(t, "%s: type %o, the model says %o", name,
		     st.mode & S_IFMT, type_bits[mi->type]);
	if (st.nlink != model_nlink(t, ino))
		fss_fail(t, "%s: %u links, the model says %d", name, st.nlink,
		     model_nlink(t, ino));
	if (mi->type == M_DIR || mi->type == M_REG) {
		if ((st.mode & 07777) != mi->perm)
			fss_fail(t, "%s: mode %o, the model says %o", name,
			     st.mode & 07777, mi->perm);
		if (from_kuid(&init_user_ns, st.uid) != mi->uid ||
		    from_kgid(&init_user_ns, st.gid) != mi->gid)
			fss_fail(t, "%s: owner %u:%u, the model says %d:%d", name,
			     from_kuid(&init_user_ns, st.uid),
			     from_kgid(&init_user_ns, st.gid), mi->uid, mi->gid);
	}
	if (mi->type == M_REG)
		fss_note_lost_writes(t, ino, st.ino);
	if (mi->type == M_REG && !t->recovering && !mi->data_lost &&
	    st.size != mi->data.size)
		fss_fail(t, "%s: size %lld, the model says %u", name, st.size,
			 mi->data.size);
	if (mi->type == M_LNK) {
		char buf[NAME_LEN];

		if (kshim_vfs_readlink(d, buf, sizeof(buf)) < 0 ||
		    strcmp(buf, mi->target))
			fss_fail(t, "%s: symlink target is not %s", name,
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
		fss_fail(l->t, "readdir lists %s, which the model has not", buf);
		l->bad = true;
	} else {
		l->seen++;
	}
	return true;
}

void fss_check_listing(struct task_model *t, struct dentry *d, int dir)
{
	struct listing l = { .t = t, .dir = dir };
	int i, n = 0, err;

	for (i = 0; i < MAX_ENTRIES; i++)
		if (t->en[i].used && t->en[i].dir == dir)
			n++;
	err = kshim_vfs_readdir(d, list_one, &l);
	t->st.checks++;
	if (err)
		fss_fail(t, "readdir: %d", err);
	else if (l.seen != n && !l.bad)
		fss_fail(t, "readdir lists %d of the model's %d names", l.seen, n);
}

void fss_xattr_value(u32 seed, u16 size, u8 *buf)
{
	u16 i;

	for (i = 0; i < size; i++)
		buf[i] = (u8)(seed + i * 31 + (i >> 8));
}

void fss_xattr_name(int i, char *name)
{
	snprintf(name, 16, "user.x%d", i);
}

void fss_check_xattrs(struct task_model *t, struct dentry *d, int ino)
{
	static const size_t bufsize = 4096;
	struct m_inode *mi = &t->in[ino];
	/* The generator's own buffers: an injected allocation fault is the
	 * kernel's to meet (the op-sequence fuzz target's), never these. */
	u8 *got = kmalloc(bufsize, GFP_KERNEL | __GFP_NOFAIL);
	u8 *want = kmalloc(bufsize, GFP_KERNEL | __GFP_NOFAIL);
	char name[16];
	ssize_t len, list_len = 0;
	int i;

	for (i = 0; i < MAX_XATTRS; i++) {
		fss_xattr_name(i, name);
		len = kshim_vfs_getxattr(d, name, got, bufsize);
		t->st.checks++;
		if (!mi->xattr[i].set) {
			if (len != -ENODATA)
				fss_fail(t, "getxattr %s: %zd, the model says -ENODATA",
				     name, len);
			continue;
		}
		list_len += strlen(name) + 1;
		fss_xattr_value(mi->xattr[i].seed, mi->xattr[i].size, want);
		if (len != mi->xattr[i].size || memcmp(got, want, len))
			fss_fail(t, "getxattr %s: %zd bytes, not the model's %u",
			     name, len, mi->xattr[i].size);
	}
	len = kshim_vfs_listxattr(d, NULL, 0);
	t->st.checks++;
	if (len != list_len)
		fss_fail(t, "listxattr: %zd bytes, the model says %zd", len, list_len);
	kfree(got);
	kfree(want);
}

/* ---- the whole check ------------------------------------------------------- */

/* Every entry of the task's tree: its attributes, xattrs, for
 * directories the listing, for files the contents (not after a crash:
 * fss_check_durable() checks what may be there then). */
void fss_check_tree(struct task_model *t)
{
	struct dentry *d;
	int e;

	fss_check_listing(t, t->top, 0);
	for (e = 0; e < MAX_ENTRIES; e++) {
		int ino = t->en[e].ino;

		if (!t->en[e].used)
			continue;
		d = fss_entry_dentry(t, e);
		if (IS_ERR(d))
			continue;
		fss_check_attrs(t, d, ino, t->en[e].name);
		if (t->in[ino].type == M_DIR)
			fss_check_listing(t, d, ino);
		if (t->in[ino].type == M_DIR || t->in[ino].type == M_REG)
			fss_check_xattrs(t, d, ino);
		kshim_vfs_put(d);
		if (t->in[ino].type == M_REG && !t->recovering &&
		    !t->in[ino].data_lost)
			fss_check_data(t, e);
	}
}
