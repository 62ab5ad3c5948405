// SPDX-License-Identifier: GPL-2.0
/*
 * The xfsprogs side of the XFS harness: running mkfs.xfs and xfs_logprint
 * (host programs, from Debian's xfsprogs). Host code: built against the C
 * library, not the kernel headers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int kshim_xfs_host_make_file(const char *path, unsigned long long bytes);
int kshim_xfs_host_run(const char *cmd, char *buf, size_t len);

int kshim_xfs_host_make_file(const char *path, unsigned long long bytes)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, bytes) != 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return 0;
}

/* CMD through sh, stdout and stderr into BUF. Exit status, or -1. */
int kshim_xfs_host_run(const char *cmd, char *buf, size_t len)
{
	char *full;
	size_t n = 0;
	FILE *p;
	int st;

	if (asprintf(&full, "%s 2>&1", cmd) < 0)
		return -1;
	p = popen(full, "r");
	free(full);
	if (!p)
		return -1;
	if (len) {
		n = fread(buf, 1, len - 1, p);
		buf[n] = 0;
	}
	/* Drain what did not fit, so the program is not killed by SIGPIPE. */
	while (fgetc(p) != EOF)
		;
	st = pclose(p);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}
