// SPDX-License-Identifier: GPL-2.0
/*
 * security/commoncap.c's extended-attribute checks, for fs/xattr.c (no
 * security module: linux/security.h calls these directly). commoncap.c
 * itself is not compiled: it needs the signal and ptrace state of a task
 * (task->signal, linux/ptrace.h's modes) that kshim's task has not.
 * Every kshim task has root's full capabilities (kshim_task.c), and for
 * such a task the real checks grant every name, so these grant it too.
 * Lost (docs/FAKES.md): the refusal of security.* names to unprivileged
 * tasks, and file capabilities (security.capability): setting, reading
 * or converting one aborts.
 */
#include <linux/fs.h>
#include <linux/string.h>
#include <linux/xattr.h>
#include <linux/security.h>
#include <linux/cred.h>
#include <kshim/runtime.h>

/* A task's effective set decides, in the one user namespace kshim has. */
int cap_capable(const struct cred *cred, struct user_namespace *ns,
		int cap, unsigned int opts)
{
	if (ns != cred->user_ns)
		kshim_fatal("%s: a user namespace kshim did not make", __func__);
	return cap_raised(cred->cap_effective, cap) ? 0 : -EPERM;
}

static void kshim_no_file_caps(const char *fn, const char *name)
{
	if (!strcmp(name, XATTR_NAME_CAPS))
		kshim_fatal("%s(%s): kshim has no file capabilities", fn, name);
}

int cap_inode_setxattr(struct dentry *dentry, const char *name,
		       const void *value, size_t size, int flags)
{
	kshim_no_file_caps(__func__, name);
	return 0;
}

int cap_inode_removexattr(struct mnt_idmap *idmap, struct dentry *dentry,
			  const char *name)
{
	kshim_no_file_caps(__func__, name);
	return 0;
}

/* Only security.capability has a capability-defined form; any other
 * name is the filesystem's to return. */
int cap_inode_getsecurity(struct mnt_idmap *idmap, struct inode *inode,
			  const char *name, void **buffer, bool alloc)
{
	if (!strcmp(name, XATTR_CAPS_SUFFIX))
		kshim_fatal("%s(%s): kshim has no file capabilities",
			    __func__, name);
	return -EOPNOTSUPP;
}

/* chown() and writes clear a file's capabilities: whether it has any
 * (it never has: setting them aborts above), and their removal. */
int cap_inode_need_killpriv(struct dentry *dentry)
{
	return __vfs_getxattr(dentry, d_backing_inode(dentry),
			      XATTR_NAME_CAPS, NULL, 0) > 0;
}

int cap_inode_killpriv(struct mnt_idmap *idmap, struct dentry *dentry)
{
	int error = __vfs_removexattr(idmap, dentry, XATTR_NAME_CAPS);

	return error == -EOPNOTSUPP ? 0 : error;
}
