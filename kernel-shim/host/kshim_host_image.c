// SPDX-License-Identifier: GPL-2.0
/*
 * Image files for tests and benchmarks (kshim/host_disk.h): made on disk
 * or in memory, read and written outside any device, and the raw pwrite()
 * baseline the block device benchmark compares against.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kshim/host_disk.h"
#include "kshim_host_disk.h"

int kshim_host_image_create(char *path, unsigned long pathlen,
			    unsigned long long size, int in_memory)
{
	int fd;

	if (in_memory) {
		/* Kept open for the life of the process: the path names it. */
		fd = memfd_create("kshim-image", 0);
		if (fd < 0)
			return -errno;
		snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	} else {
		const char *dir = getenv("TMPDIR");

		snprintf(path, pathlen, "%s/kshim-image-XXXXXX",
			 dir && *dir ? dir : "/tmp");
		fd = mkstemp(path);
		if (fd < 0)
			return -errno;
	}
	if (ftruncate(fd, size)) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!in_memory)
		close(fd);
	return 0;
}

void kshim_host_image_remove(const char *path)
{
	int fd;

	if (sscanf(path, "/proc/self/fd/%d", &fd) == 1)
		close(fd);
	else
		unlink(path);
}

long long kshim_host_image_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -errno : (long long)st.st_size;
}

int kshim_host_image_pread(const char *path, void *buf, unsigned long len,
			   unsigned long long off)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = kshim_host_disk_pread(fd, buf, len, off);
	close(fd);
	return err;
}

int kshim_host_run_command(const char *cmd)
{
	int st = system(cmd);

	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

unsigned long long kshim_host_image_raw_io(const char *path,
					   unsigned long long size,
					   unsigned long bs, unsigned long nr,
					   int random, unsigned long long seed,
					   unsigned int flags)
{
	unsigned long long nblocks = size / bs, x = seed | 1, t0, i;
	bool rd = flags & KSHIM_RAW_READ;
	struct timespec a, b;
	char *buf = malloc(bs);
	int fd = open(path, (rd ? O_RDONLY : O_WRONLY) | O_CLOEXEC), err;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return 0;
	}
	memset(buf, 0xa5, bs);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < nr; i++) {
		unsigned long long blk;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		blk = random ? x % nblocks : i % nblocks;
		err = rd ? kshim_host_disk_pread(fd, buf, bs, blk * bs) :
			   kshim_host_disk_pwrite(fd, buf, bs, blk * bs);
		if (err)
			break;
	}
	if (flags & KSHIM_RAW_SYNC)
		fdatasync(fd);
	clock_gettime(CLOCK_MONOTONIC, &b);
	close(fd);
	free(buf);
	t0 = a.tv_sec * 1000000000ULL + a.tv_nsec;
	return b.tv_sec * 1000000000ULL + b.tv_nsec - t0;
}

unsigned long long kshim_host_image_raw_writes(const char *path,
					       unsigned long long size,
					       unsigned long bs,
					       unsigned long nr, int random,
					       unsigned long long seed)
{
	return kshim_host_image_raw_io(path, size, bs, nr, random, seed, 0);
}
