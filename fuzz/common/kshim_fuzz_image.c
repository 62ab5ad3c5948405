// SPDX-License-Identifier: GPL-2.0
/*
 * An image file a fuzz target lays its inputs onto (host side, plain C):
 * kshim_fuzz_image_map() maps it shared, so that the target reads and
 * writes it as memory while kshim's block device reads and writes the
 * same file (one page cache), and keeps a private copy of its bytes as
 * they are then: the golden image every input starts from, which the
 * target copies back over what an input changed. Declared in
 * kshim_fuzz.h.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kshim_fuzz.h"

int kshim_fuzz_image_map(const char *path, struct kshim_fuzz_image *im)
{
	struct stat st;
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	im->size = st.st_size;
	im->map = mmap(NULL, im->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);
	close(fd);
	if (im->map == MAP_FAILED) {
		perror("kshim fuzz: mmap");
		return -1;
	}
	im->golden = malloc(im->size);
	if (!im->golden) {
		munmap(im->map, im->size);
		return -1;
	}
	memcpy(im->golden, im->map, im->size);
	return 0;
}

void kshim_fuzz_image_unmap(struct kshim_fuzz_image *im)
{
	munmap(im->map, im->size);
	free(im->golden);
	im->map = im->golden = NULL;
}

void kshim_fuzz_image_restore(struct kshim_fuzz_image *im,
			      unsigned long long sector,
			      unsigned long long count)
{
	unsigned long long start = sector << 9, end = (sector + count) << 9;

	if (end > im->size)
		end = im->size;
	if (start < end)
		memcpy(im->map + start, im->golden + start, end - start);
}

void kshim_fuzz_image_restore_all(struct kshim_fuzz_image *im)
{
	memcpy(im->map, im->golden, im->size);
}
