// SPDX-License-Identifier: GPL-2.0
/*
 * The operation generator's namespace, attribute, xattr and
 * whole-filesystem operations (fsstress_internal.h). Each picks its
 * targets in the task's model, predicts the errno the kernel must
 * return, calls kshim/vfs.h, compares, and applies the change to the
 * model when it succeeded.
 */
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <kshim/runtime.h>
#include <kshim/vfs.h>
#include "fsstress_internal.h"

/* ---- operations ------------------------------------------------------------ */

static void op_create(struct task_model *t, enum fsstress_op op)
{
	int dir = fss_pick_inode(t, BIT(M_DIR)), slot = fss_new_inode_slot(t), e, err;
	static const umode_t perms[] = { 0644, 0600, 0755, 0666, 0700 };
	umode_t perm = perms[fss_rnd(t, ARRAY_SIZE(perms))];
	char name[NAME_LEN], target[NAME_LEN];
	struct dentry *d;
	long want = 0;

	if (slot < 0 || fss_new_entry_slot(t) < 0)
		return;
	/* One in eight: an existing name in that directory. */
	e = fss_rnd(t, 8) ? -1 : fss_pick_entry(t, ~0u);
	if (e >= 0) {
		dir = t->en[e].dir;
		strscpy(name, t->en[e].name, NAME_LEN);
		want = -EEXIST;
	} else {
		fss_new_name(t, name);
	}
	snprintf(target, NAME_LEN, "t%llu", fss_random(t) % 1000);
	d = fss_dir_dentry(t, dir);
	if (IS_ERR(d))
		return;
	if (op == FSS_CREATE)
		err = kshim_vfs_create(d, name, perm, NULL);
	else if (op == FSS_MKDIR)
		err = kshim_vfs_mkdir(d, name, perm, NULL);
	else
		err = kshim_vfs_symlink(d, name, target, NULL);
	kshim_vfs_put(d);
	if (!fss_expect(t, op, err, want, name) || err)
		return;
	t->in[slot] = (struct m_inode) {
		.type = op == FSS_CREATE ? M_REG : op == FSS_MKDIR ? M_DIR : M_LNK,
		.nlink = 1,
		.perm = perm & ~022,	/* the umask */
	};
	strscpy(t->in[slot].target, target, NAME_LEN);
	if (op == FSS_CREATE)
		fss_data_created(t, slot);
	fss_add_entry(t, dir, name, slot);
}

static void op_link(struct task_model *t)
{
	int e = fss_pick_entry(t, BIT(M_REG) | BIT(M_LNK) | BIT(M_WHT));
	int dir = fss_pick_inode(t, BIT(M_DIR)), err;
	char name[NAME_LEN];
	struct dentry *old, *d;

	if (e < 0 || fss_new_entry_slot(t) < 0)
		return;
	fss_new_name(t, name);
	old = fss_entry_dentry(t, e);
	if (IS_ERR(old))
		return;
	d = fss_dir_dentry(t, dir);
	if (!IS_ERR(d)) {
		err = kshim_vfs_link(old, d, name);
		kshim_vfs_put(d);
		if (fss_expect(t, FSS_LINK, err, 0, name)) {
			t->in[t->en[e].ino].nlink++;
			fss_add_entry(t, dir, name, t->en[e].ino);
		}
	}
	kshim_vfs_put(old);
}

static void op_remove(struct task_model *t, enum fsstress_op op)
{
	bool rmdir = op == FSS_RMDIR;
	int e = fss_pick_entry(t, rmdir ? BIT(M_DIR) :
			   BIT(M_REG) | BIT(M_LNK) | BIT(M_WHT));
	int dir = e >= 0 ? t->en[e].dir : 0, err;
	char name[NAME_LEN];
	struct dentry *d;
	long want = 0;

	if (e < 0 || !fss_rnd(t, 10)) {	/* and sometimes a missing name */
		e = -1;
		fss_new_name(t, name);
		want = -ENOENT;
	} else {
		strscpy(name, t->en[e].name, NAME_LEN);
		if (rmdir && !fss_dir_empty(t, t->en[e].ino))
			want = -ENOTEMPTY;
	}
	d = fss_dir_dentry(t, dir);
	if (IS_ERR(d))
		return;
	err = rmdir ? kshim_vfs_rmdir(d, name) : kshim_vfs_unlink(d, name);
	kshim_vfs_put(d);
	if (fss_expect(t, op, err, want, name) && !err)
		fss_drop_entry(t, e);
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
	int src = fss_pick_entry(t, op == FSS_WHITEOUT ?
			     BIT(M_REG) | BIT(M_LNK) : ~0u);
	int dst = -1, ddir, wslot = -1, err;
	char name[NAME_LEN];
	struct dentry *od, *nd;
	bool sdir, noreplace = false;
	long want = 0;

	if (src < 0)
		return;
	sdir = t->in[t->en[src].ino].type == M_DIR;
	if (op == FSS_EXCHANGE || fss_rnd(t, 2)) {
		dst = fss_pick_entry(t, ~0u);
		if (dst < 0 || dst == src)
			return;
	}
	ddir = dst >= 0 ? t->en[dst].dir : fss_pick_inode(t, BIT(M_DIR));
	/* No directory under itself, either way round. */
	if (sdir && fss_is_ancestor(t, t->en[src].ino, ddir))
		return;
	if (dst >= 0 && t->in[t->en[dst].ino].type == M_DIR &&
	    fss_is_ancestor(t, t->en[dst].ino, t->en[src].dir))
		return;
	if (op == FSS_WHITEOUT) {
		wslot = fss_new_inode_slot(t);
		if (wslot < 0)
			return;
	}
	if (dst < 0) {
		if (fss_new_entry_slot(t) < 0)
			return;
		fss_new_name(t, name);
	} else {
		strscpy(name, t->en[dst].name, NAME_LEN);
	}
	if (op == FSS_RENAME && dst >= 0 && !fss_rnd(t, 4))
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
		else if (tdir && !fss_dir_empty(t, tino))
			want = t->fs->cfg.rename_notempty ?: -ENOTEMPTY;
	}

	od = fss_dir_dentry(t, t->en[src].dir);
	if (IS_ERR(od))
		return;
	nd = fss_dir_dentry(t, ddir);
	if (IS_ERR(nd)) {
		kshim_vfs_put(od);
		return;
	}
	err = kshim_vfs_rename(od, t->en[src].name, nd, name,
			       flags | (noreplace ? RENAME_NOREPLACE : 0));
	kshim_vfs_put(nd);
	kshim_vfs_put(od);
	if (!fss_expect(t, op, err, want, t->en[src].name) || err)
		return;

	if (op == FSS_EXCHANGE) {
		swap(t->en[src].ino, t->en[dst].ino);
		return;
	}
	if (dst >= 0 && t->en[dst].ino == t->en[src].ino)
		return;
	if (dst >= 0)
		fss_drop_entry(t, dst);
	if (op == FSS_WHITEOUT) {
		/* The old name now names a whiteout, the new one the inode. */
		t->in[wslot] = (struct m_inode) { .type = M_WHT, .nlink = 1 };
		fss_add_entry(t, ddir, name, t->en[src].ino);
		t->en[src].ino = wslot;
		return;
	}
	t->en[src].dir = ddir;
	strscpy(t->en[src].name, name, NAME_LEN);
}

static void op_setattr(struct task_model *t, enum fsstress_op op)
{
	int e = fss_pick_entry(t, BIT(M_REG) | BIT(M_DIR)), err;
	struct m_inode *mi;
	struct dentry *d;
	umode_t perm = fss_rnd(t, 01000);
	int uid = fss_rnd(t, 4), gid = fss_rnd(t, 4);

	if (e < 0)
		return;
	mi = &t->in[t->en[e].ino];
	d = fss_entry_dentry(t, e);
	if (IS_ERR(d))
		return;
	if (op == FSS_CHMOD)
		err = kshim_vfs_chmod(d, perm);
	else
		err = kshim_vfs_chown(d, uid, gid);
	kshim_vfs_put(d);
	if (!fss_expect(t, op, err, 0, t->en[e].name))
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
	int e = fss_pick_entry(t, BIT(M_REG) | BIT(M_DIR)), i = fss_rnd(t, MAX_XATTRS);
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
	fss_xattr_name(i, name);
	d = fss_entry_dentry(t, e);
	if (IS_ERR(d))
		return;
	switch (op) {
	case FSS_SETXATTR:
		/* Mostly short (in the inode or a leaf), some remote. */
		size = fss_rnd(t, 8) ? fss_rnd(t, 80) : 1000 + fss_rnd(t, 3000);
		seed = fss_random(t);
		buf = kmalloc(size + 1, GFP_KERNEL | __GFP_NOFAIL);
		fss_xattr_value(seed, size, buf);
		err = kshim_vfs_setxattr(d, name, buf, size, 0);
		kfree(buf);
		if (fss_expect(t, op, err, 0, name))
			*mx = (struct m_xattr) { true, size, seed };
		break;
	case FSS_REMOVEXATTR:
		err = kshim_vfs_removexattr(d, name);
		if (fss_expect(t, op, err, mx->set ? 0 : -ENODATA, name))
			mx->set = false;
		break;
	case FSS_GETXATTR:
		err = kshim_vfs_getxattr(d, name, NULL, 0);
		if (mx->set)
			want = mx->size;
		else
			want = -ENODATA;
		fss_expect(t, op, err, want, name);
		break;
	default:	/* listxattr, and every value with it */
		fss_check_xattrs(t, d, t->en[e].ino);
		break;
	}
	kshim_vfs_put(d);
}

static void op_lookup(struct task_model *t)
{
	int e = fss_pick_entry(t, ~0u);
	struct dentry *d;

	if (e < 0)
		return;
	d = fss_entry_dentry(t, e);
	if (IS_ERR(d))
		return;
	fss_check_attrs(t, d, t->en[e].ino, t->en[e].name);
	kshim_vfs_put(d);
}

static void op_readdir(struct task_model *t)
{
	int dir = fss_pick_inode(t, BIT(M_DIR));
	struct dentry *d = fss_dir_dentry(t, dir);

	if (IS_ERR(d))
		return;
	fss_check_listing(t, d, dir);
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
	/* A sync that returned wrote back every file this task had
	 * written (its operations are done, in order; other tasks' may
	 * still be running). */
	if (op == FSS_SYNC && !err && !fss_results_unknown(fs))
		fss_data_synced(t);
	fss_expect(t, op, err, 0, "");
}

void fss_do_op(struct task_model *t, enum fsstress_op op)
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
	case FSS_SYNC: case FSS_LOGFORCE: case FSS_DROPCACHES:
		op_global(t, op);
		break;
	default:
		fss_data_op(t, op);
		break;
	}
}
