// SPDX-License-Identifier: GPL-2.0
/*
 * The mkfs.xfs image cache (KSHIM_MKFS_CACHE=DIR): an image that
 * kshim_xfs_mkfs_id() made is kept in DIR under a hash of the mkfs
 * command (options, UUID, frozen time) and the size, and copied from
 * there the next time the same image is asked for. What it is for: a
 * fuzzing fleet's runner (ClusterFuzzLite's base-runner image) has
 * neither mkfs.xfs nor faketime, so the build ships the images its
 * targets make (.clusterfuzzlite/build.sh). A cached image is the very
 * file that command wrote; the cache does not know the xfsprogs version,
 * so a DIR made by one xfsprogs must not be used with another.
 * Host code: built against the C library.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int kshim_xfs_host_image_cache_get(const char *key, const char *path);
void kshim_xfs_host_image_cache_put(const char *key, const char *path);

static int cache_path(const char *key, char *out, size_t len)
{
	const char *dir = getenv("KSHIM_MKFS_CACHE");
	unsigned long long h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	if (!dir || !*dir)
		return -1;
	for (; *key; key++)
		h = (h ^ (unsigned char)*key) * 0x100000001b3ULL;
	snprintf(out, len, "%s/mkfs-%016llx.img", dir, h);
	return 0;
}

/* LEN bytes of IN at OFF into OUT, leaving holes where they are zero.
 * 0 or -errno. */
static int copy_range(int in, int out, off_t off, off_t len)
{
	static const char zero[65536];
	char buf[65536];
	ssize_t n;

	while (len > 0) {
		n = pread(in, buf, len < (off_t)sizeof(buf) ? (size_t)len :
			  sizeof(buf), off);
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		if (memcmp(buf, zero, n) && pwrite(out, buf, n, off) != n)
			return -EIO;
		off += n;
		len -= n;
	}
	return 0;
}

/*
 * SRC into DST, sparse. Only SRC's data extents are read (SEEK_DATA,
 * SEEK_HOLE): a fresh image is mostly holes (the 64 MiB one of
 * test_mkfs_cache.py holds 204 KiB), and the copy used to read all of
 * it. Where the filesystem cannot tell (EINVAL),
 * the whole file is one extent. 0 or -errno.
 */
static int copy_sparse(const char *src, const char *dst)
{
	int in, out, err = 0;
	off_t size, data, hole;
	struct stat st;

	in = open(src, O_RDONLY);
	if (in < 0)
		return -errno;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	if (fstat(in, &st) != 0) {
		err = -errno;
		goto out;
	}
	size = st.st_size;
	for (data = 0; !err && data < size; data = hole) {
		data = lseek(in, data, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break;			/* only a hole is left */
		if (data < 0 && errno == EINVAL) {
			err = copy_range(in, out, 0, size);
			break;
		}
		if (data < 0) {
			err = -errno;
			break;
		}
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0) {
			err = -errno;
			break;
		}
		err = copy_range(in, out, data, hole - data);
	}
	if (!err && ftruncate(out, size) != 0)
		err = -errno;
out:
	if (close(out) != 0 && !err)
		err = -errno;
	close(in);
	return err;
}

/* PATH from the cache: 0, or 1 when there is no cache or no such image. */
int kshim_xfs_host_image_cache_get(const char *key, const char *path)
{
	char cached[4096];

	if (cache_path(key, cached, sizeof(cached)) || access(cached, R_OK))
		return 1;
	return copy_sparse(cached, path) ? 1 : 0;
}

/* PATH into the cache, under a temporary name first so that a reader in
 * another process never sees half an image. Best effort. */
void kshim_xfs_host_image_cache_put(const char *key, const char *path)
{
	char cached[4096], tmp[4200];

	if (cache_path(key, cached, sizeof(cached)))
		return;
	mkdir(getenv("KSHIM_MKFS_CACHE"), 0755);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", cached, (int)getpid());
	if (copy_sparse(path, tmp) || rename(tmp, cached))
		unlink(tmp);
}
