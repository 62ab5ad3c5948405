// SPDX-License-Identifier: GPL-2.0
/*
 * XFS's namespace and attribute operations through the real VFS
 * (kshim/vfs.h): each operation and its error cases, checked against the
 * errno the kernel returns, and what survives an unmount and a remount
 * (the image then passes xfs_repair -n, xfs_fixture_remove()).
 */
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/stat.h>
#include <linux/xattr.h>
#include <linux/falloc.h>
#include <linux/sizes.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"

static unsigned int nlink_of(struct dentry *dir, const char *name)
{
	struct dentry *d = kshim_vfs_lookup(dir, name);
	struct kstat st;

	KSHIM_ASSERT_FATAL(!IS_ERR(d));
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(d, &st), 0);
	kshim_vfs_put(d);
	return st.nlink;
}

static void test_create_mkdir_link_unlink_rmdir(void)
{
	struct xfs_fixture fx = { 0 };
	struct dentry *root = xfs_fixture_mount_root(&fx), *dir, *file;
	struct kstat st;

	KSHIM_ASSERT_EQ(kshim_vfs_mkdir(root, "d", 0777, &dir), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_create(dir, "f", 0666, &file), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(file, &st), 0);
	KSHIM_ASSERT(S_ISREG(st.mode));
	KSHIM_ASSERT_EQ(st.mode & 0777, 0644);	/* umask 022 */
	KSHIM_ASSERT_EQ(st.nlink, 1);
	KSHIM_ASSERT_EQ(kshim_vfs_link(file, root, "g"), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(file, &st), 0);
	KSHIM_ASSERT_EQ(st.nlink, 2);
	KSHIM_ASSERT_EQ(nlink_of(root, "d"), 2);
	KSHIM_ASSERT_EQ(kshim_vfs_mkdir(dir, "sub", 0755, NULL), 0);
	KSHIM_ASSERT_EQ(nlink_of(root, "d"), 3);
	kshim_vfs_put(file);
	kshim_vfs_put(dir);

	/* The same after a remount: it was all logged. */
	xfs_fixture_remount_root(&fx, &root);
	KSHIM_ASSERT_EQ(nlink_of(root, "g"), 2);
	dir = kshim_vfs_lookup(root, "d");
	KSHIM_ASSERT_FATAL(!IS_ERR(dir));
	KSHIM_ASSERT(xfs_fixture_exists(dir, "f"));
	KSHIM_ASSERT_EQ(kshim_vfs_rmdir(root, "d"), -ENOTEMPTY);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(dir, "f"), 0);
	KSHIM_ASSERT(!xfs_fixture_exists(dir, "f"));
	KSHIM_ASSERT_EQ(nlink_of(root, "g"), 1);
	KSHIM_ASSERT_EQ(kshim_vfs_rmdir(dir, "sub"), 0);
	kshim_vfs_put(dir);
	KSHIM_ASSERT_EQ(kshim_vfs_rmdir(root, "d"), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "g"), 0);
	KSHIM_ASSERT(!xfs_fixture_exists(root, "g"));
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(root, &st), 0);
	KSHIM_ASSERT_EQ(st.nlink, 2);

	xfs_fixture_remount_root(&fx, &root);
	KSHIM_ASSERT(!xfs_fixture_exists(root, "d"));
	KSHIM_ASSERT(!xfs_fixture_exists(root, "g"));
	xfs_fixture_finish(&fx, root);
}

static void test_namespace_errors_are_the_kernels(void)
{
	struct xfs_fixture fx = { 0 };
	struct dentry *root = xfs_fixture_mount_root(&fx), *file;
	char longname[MAXNAMELEN + 1];

	memset(longname, 'x', MAXNAMELEN);
	longname[MAXNAMELEN] = '\0';	/* 256 bytes: one too many */

	KSHIM_ASSERT_EQ(kshim_vfs_create(root, "f", 0644, &file), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_create(root, "f", 0644, NULL), -EEXIST);
	KSHIM_ASSERT_EQ(kshim_vfs_mkdir(root, "f", 0755, NULL), -EEXIST);
	KSHIM_ASSERT_EQ(kshim_vfs_create(root, longname, 0644, NULL),
			-ENAMETOOLONG);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "nothing"), -ENOENT);
	KSHIM_ASSERT_EQ(kshim_vfs_rmdir(root, "nothing"), -ENOENT);
	KSHIM_ASSERT_EQ(kshim_vfs_rmdir(root, "f"), -ENOTDIR);
	KSHIM_ASSERT_EQ(kshim_vfs_mkdir(root, "d", 0755, NULL), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "d"), -EISDIR);
	KSHIM_ASSERT_EQ(kshim_vfs_create(file, "x", 0644, NULL), -ENOTDIR);
	KSHIM_ASSERT_EQ(kshim_vfs_link(file, root, "d"), -EEXIST);
	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "nothing", root, "y", 0),
			-ENOENT);
	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "f", root, "d", 0), -EISDIR);
	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "d", root, "f", 0), -ENOTDIR);
	KSHIM_ASSERT(PTR_ERR(kshim_vfs_lookup(root, "nothing")) == -ENOENT);
	kshim_vfs_put(file);
	xfs_fixture_finish(&fx, root);
}

static void test_rename_flags(void)
{
	struct xfs_fixture fx = { 0 };
	struct dentry *root = xfs_fixture_mount_root(&fx), *a, *b, *d;
	struct kstat sa, sb, st;
	char buf[8];

	KSHIM_ASSERT_EQ(kshim_vfs_create(root, "a", 0644, &a), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_create(root, "b", 0644, &b), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(a, &sa), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(b, &sb), 0);
	kshim_vfs_put(a);
	kshim_vfs_put(b);

	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "a", root, "b",
					 RENAME_NOREPLACE), -EEXIST);
	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "a", root, "c",
					 RENAME_EXCHANGE), -ENOENT);
	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "a", root, "b",
					 RENAME_EXCHANGE | RENAME_NOREPLACE),
			-EINVAL);
	/* Exchange: the names trade inodes. */
	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "a", root, "b",
					 RENAME_EXCHANGE), 0);
	a = kshim_vfs_lookup(root, "a");
	KSHIM_ASSERT_FATAL(!IS_ERR(a));
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(a, &st), 0);
	KSHIM_ASSERT_EQ(st.ino, sb.ino);
	kshim_vfs_put(a);
	/* Whiteout: the old name becomes a 0:0 character device. */
	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "a", root, "c",
					 RENAME_WHITEOUT), 0);
	a = kshim_vfs_lookup(root, "a");
	KSHIM_ASSERT_FATAL(!IS_ERR(a));
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(a, &st), 0);
	KSHIM_ASSERT(S_ISCHR(st.mode) && st.rdev == WHITEOUT_DEV);
	kshim_vfs_put(a);
	/* Over an existing name: the target's inode goes. */
	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "c", root, "b", 0), 0);
	KSHIM_ASSERT(!xfs_fixture_exists(root, "c"));
	b = kshim_vfs_lookup(root, "b");
	KSHIM_ASSERT_FATAL(!IS_ERR(b));
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(b, &st), 0);
	KSHIM_ASSERT_EQ(st.ino, sb.ino);
	kshim_vfs_put(b);
	/* A directory into its own subdirectory. */
	KSHIM_ASSERT_EQ(kshim_vfs_mkdir(root, "d", 0755, &d), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_mkdir(d, "e", 0755, NULL), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "d", d, "x", 0), -EINVAL);
	KSHIM_ASSERT_EQ(kshim_vfs_rename(root, "d", root, "d2", 0), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_symlink(d, "l", "../b", NULL), 0);
	kshim_vfs_put(d);

	xfs_fixture_remount_root(&fx, &root);
	KSHIM_ASSERT(!xfs_fixture_exists(root, "d"));
	d = kshim_vfs_lookup(root, "d2");
	KSHIM_ASSERT_FATAL(!IS_ERR(d));
	KSHIM_ASSERT(xfs_fixture_exists(d, "e"));
	a = kshim_vfs_lookup(d, "l");
	KSHIM_ASSERT_FATAL(!IS_ERR(a));
	KSHIM_ASSERT_EQ(kshim_vfs_readlink(a, buf, sizeof(buf)), 4);
	KSHIM_ASSERT(!strcmp(buf, "../b"));
	kshim_vfs_put(a);
	kshim_vfs_put(d);
	xfs_fixture_finish(&fx, root);
}

static void test_setattr_mode_owner_times(void)
{
	struct xfs_fixture fx = { 0 };
	struct dentry *root = xfs_fixture_mount_root(&fx), *f;
	struct kstat st;

	KSHIM_ASSERT_EQ(kshim_vfs_create(root, "f", 0644, &f), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_chmod(f, 04711), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_chown(f, 1000, 100), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(f, &st), 0);
	/* chown() drops set-user-ID from a file. */
	KSHIM_ASSERT_EQ(st.mode & 07777, 0711);
	KSHIM_ASSERT_EQ(from_kuid(&init_user_ns, st.uid), 1000);
	KSHIM_ASSERT_EQ(from_kgid(&init_user_ns, st.gid), 100);
	KSHIM_ASSERT_EQ(kshim_vfs_utimes(f, 1000000, 2000000), 0);
	kshim_vfs_put(f);

	xfs_fixture_remount_root(&fx, &root);
	f = kshim_vfs_lookup(root, "f");
	KSHIM_ASSERT_FATAL(!IS_ERR(f));
	KSHIM_ASSERT_EQ(kshim_vfs_getattr(f, &st), 0);
	KSHIM_ASSERT_EQ(st.mode & 07777, 0711);
	KSHIM_ASSERT_EQ(from_kuid(&init_user_ns, st.uid), 1000);
	KSHIM_ASSERT_EQ(st.atime.tv_sec, 1000000);
	KSHIM_ASSERT_EQ(st.mtime.tv_sec, 2000000);
	kshim_vfs_put(f);
	xfs_fixture_finish(&fx, root);
}

/* One value of each of XFS's attribute forms: in the inode (short
 * form), in a leaf block, and remote (in blocks of its own). */
static void test_xattr_short_leaf_and_remote(void)
{
	static char big[5000], got[5000];
	struct xfs_fixture fx = { 0 };
	struct dentry *root = xfs_fixture_mount_root(&fx), *f;
	char name[32], list[4096];
	ssize_t len;
	int i;

	for (i = 0; i < (int)sizeof(big); i++)
		big[i] = 'a' + i % 26;
	KSHIM_ASSERT_EQ(kshim_vfs_create(root, "f", 0644, &f), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_getxattr(f, "user.none", got, 10), -ENODATA);
	KSHIM_ASSERT_EQ(kshim_vfs_setxattr(f, "user.small", "v", 1, 0), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_setxattr(f, "user.small", "w", 1,
					   XATTR_CREATE), -EEXIST);
	KSHIM_ASSERT_EQ(kshim_vfs_setxattr(f, "user.other", "w", 1,
					   XATTR_REPLACE), -ENODATA);
	/* Enough names to leave short form: a leaf block. */
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "user.attr%02d", i);
		KSHIM_ASSERT_EQ(kshim_vfs_setxattr(f, name, big, 64, 0), 0);
	}
	KSHIM_ASSERT_EQ(kshim_vfs_setxattr(f, "trusted.remote", big,
					   sizeof(big), 0), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_getxattr(f, "trusted.remote", got, 100),
			-ERANGE);
	KSHIM_ASSERT_EQ(kshim_vfs_getxattr(f, "trusted.remote", NULL, 0),
			(ssize_t)sizeof(big));
	kshim_vfs_put(f);

	xfs_fixture_remount_root(&fx, &root);
	f = kshim_vfs_lookup(root, "f");
	KSHIM_ASSERT_FATAL(!IS_ERR(f));
	KSHIM_ASSERT_EQ(kshim_vfs_getxattr(f, "trusted.remote", got,
					   sizeof(got)), (ssize_t)sizeof(big));
	KSHIM_ASSERT(!memcmp(got, big, sizeof(big)));
	KSHIM_ASSERT_EQ(kshim_vfs_getxattr(f, "user.attr39", got, sizeof(got)),
			64);
	KSHIM_ASSERT(!memcmp(got, big, 64));
	len = kshim_vfs_listxattr(f, list, sizeof(list));
	/* 41 user names of 12 bytes with their NULs, "user.small",
	 * "trusted.remote". */
	KSHIM_ASSERT_EQ(len, 40 * 12 + 11 + 15);
	KSHIM_ASSERT_EQ(kshim_vfs_listxattr(f, list, 10), -ERANGE);
	KSHIM_ASSERT_EQ(kshim_vfs_removexattr(f, "trusted.remote"), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_removexattr(f, "trusted.remote"), -ENODATA);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "user.attr%02d", i);
		KSHIM_ASSERT_EQ(kshim_vfs_removexattr(f, name), 0);
	}
	KSHIM_ASSERT_EQ(kshim_vfs_listxattr(f, list, sizeof(list)), 11);
	kshim_vfs_put(f);
	/* The file goes with its attribute fork (inactivation). */
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "f"), 0);
	xfs_fixture_finish(&fx, root);
}

struct listing {
	int n;
	bool saw_dot, saw_dotdot;
	unsigned long seen[4];	/* bit i: "n<i>" was listed */
};

static bool collect(void *arg, const char *name, int len, u64 ino,
		    unsigned int d_type)
{
	struct listing *l = arg;
	char buf[16];
	int i;

	l->n++;
	if (len == 1 && name[0] == '.')
		l->saw_dot = true;
	else if (len == 2 && !memcmp(name, "..", 2))
		l->saw_dotdot = true;
	else if (len < (int)sizeof(buf)) {
		/* A name in a directory block: len bytes, no NUL after them. */
		memcpy(buf, name, len);
		buf[len] = '\0';
		if (sscanf(buf, "n%d", &i) == 1 && i >= 0 && i < 256)
			__set_bit(i, l->seen);
	}
	return true;
}

/* Enough entries to take a directory from short form through block to
 * leaf form; readdir lists each once. */
static void test_readdir_lists_every_entry(void)
{
	struct xfs_fixture fx = { 0 };
	struct dentry *root = xfs_fixture_mount_root(&fx), *dir;
	struct listing l = { 0 };
	char name[16];
	int i;

	KSHIM_ASSERT_EQ(kshim_vfs_mkdir(root, "dir", 0755, &dir), 0);
	for (i = 0; i < 256; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		KSHIM_ASSERT_EQ(kshim_vfs_create(dir, name, 0644, NULL), 0);
	}
	KSHIM_ASSERT_EQ(kshim_vfs_readdir(dir, collect, &l), 0);
	KSHIM_ASSERT_EQ(l.n, 258);
	KSHIM_ASSERT(l.saw_dot && l.saw_dotdot);
	KSHIM_ASSERT_EQ(bitmap_weight(l.seen, 256), 256);
	for (i = 0; i < 256; i += 2) {
		snprintf(name, sizeof(name), "n%d", i);
		KSHIM_ASSERT_EQ(kshim_vfs_unlink(dir, name), 0);
	}
	kshim_vfs_put(dir);

	xfs_fixture_remount_root(&fx, &root);
	dir = kshim_vfs_lookup(root, "dir");
	KSHIM_ASSERT_FATAL(!IS_ERR(dir));
	memset(&l, 0, sizeof(l));
	KSHIM_ASSERT_EQ(kshim_vfs_readdir(dir, collect, &l), 0);
	KSHIM_ASSERT_EQ(l.n, 130);
	for (i = 0; i < 256; i++)
		KSHIM_ASSERT_EQ(!!test_bit(i, l.seen), i % 2);
	kshim_vfs_put(dir);
	xfs_fixture_finish(&fx, root);
}

/*
 * A full filesystem: data fills it (fallocate) until -ENOSPC, then new
 * names until the inode chunks they need cannot be allocated either;
 * every failure is -ENOSPC, none half done (the names that failed do not
 * exist). Freeing the data (unlink, then XFS's inactivation in inodegc)
 * gives the space back: new names and data work again, and the image
 * passes xfs_repair -n after a remount.
 */
static void test_enospc_and_space_back(void)
{
	struct xfs_fixture fx = { 0 };
	struct dentry *root = xfs_fixture_mount_root(&fx);
	struct file *big;
	char name[32];
	loff_t off = 0;
	int err = 0, i, created = 0;

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "big", O_CREAT | O_RDWR,
					     0644, &big), 0);
	/* Whole 1 MiB chunks, then 4 KiB ones into what is left. */
	while (!(err = kshim_vfs_fallocate(big, 0, off, SZ_1M)))
		off += SZ_1M;
	KSHIM_ASSERT_EQ(err, -ENOSPC);
	while (!(err = kshim_vfs_fallocate(big, 0, off, SZ_4K)))
		off += SZ_4K;
	KSHIM_ASSERT_EQ(err, -ENOSPC);
	KSHIM_ASSERT(off > 32 * SZ_1M);		/* most of the 64 MiB */
	kshim_info("enospc: %lld bytes allocated before ENOSPC\n", off);

	for (i = 0; i < 100000; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		err = kshim_vfs_create(root, name, 0644, NULL);
		if (err)
			break;
		created++;
	}
	KSHIM_ASSERT_EQ(err, -ENOSPC);
	KSHIM_ASSERT(!xfs_fixture_exists(root, name));
	KSHIM_ASSERT_EQ(kshim_vfs_mkdir(root, "d", 0755, NULL), -ENOSPC);
	KSHIM_ASSERT(!xfs_fixture_exists(root, "d"));
	kshim_info("enospc: %d names created after the data filled it\n",
		   created);

	KSHIM_ASSERT_EQ(kshim_vfs_close(big), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "big"), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_create(root, name, 0644, NULL), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_mkdir(root, "d", 0755, NULL), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "again", O_CREAT | O_RDWR,
					     0644, &big), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_fallocate(big, 0, 0, 16 * SZ_1M), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_close(big), 0);

	xfs_fixture_remount_root(&fx, &root);
	KSHIM_ASSERT(xfs_fixture_exists(root, name));
	KSHIM_ASSERT(xfs_fixture_exists(root, "d"));
	KSHIM_ASSERT(!xfs_fixture_exists(root, "big"));
	xfs_fixture_finish(&fx, root);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(test_create_mkdir_link_unlink_rmdir),
	KSHIM_TEST(test_namespace_errors_are_the_kernels),
	KSHIM_TEST(test_rename_flags),
	KSHIM_TEST(test_setattr_mode_owner_times),
	KSHIM_TEST(test_xattr_short_leaf_and_remote),
	KSHIM_TEST(test_readdir_lists_every_entry),
	KSHIM_TEST(test_enospc_and_space_back),
	{ }
};

KSHIM_SUITES({ "xfs_namespace", NULL, NULL, tests });
