// SPDX-License-Identifier: GPL-2.0
/*
 * The host side of every fuzz target (C library): LLVMFuzzerInitialize()
 * fixes the run's seed and makes a private work directory, then calls the
 * target's kshim_fuzz_init(). Linked into the libFuzzer binaries and the
 * replay runners alike.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ftw.h>

#include "kshim_fuzz.h"

static char workdir[256];

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

static void remove_workdir(void)
{
	if (workdir[0])
		nftw(workdir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

/*
 * A seed input NAME from the target's set-up: written into the directory
 * KSHIM_FUZZ_SEEDS_OUT names (make_seeds.py sets it), nothing otherwise.
 * 0 or -1.
 */
int kshim_fuzz_write_seed(const char *name, const void *buf,
			  unsigned long len)
{
	const char *dir = getenv("KSHIM_FUZZ_SEEDS_OUT");
	char path[4096];
	FILE *f;
	int ok;

	if (!dir || !*dir)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f) {
		perror(path);
		return -1;
	}
	ok = fwrite(buf, 1, len, f) == len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/*
 * A fuzzing fleet's runner has no mkfs.xfs: the build ships the images
 * the targets start from in kshim-images/ beside the binaries
 * (.clusterfuzzlite/build.sh), and kshim_xfs_mkfs_id() copies them from
 * there (KSHIM_MKFS_CACHE, xfs/kshim_xfs_image_cache.c). Elsewhere there
 * is no such folder and mkfs.xfs runs.
 */
static void use_shipped_images(void)
{
	char exe[4096], *slash;
	ssize_t n;

	if (getenv("KSHIM_MKFS_CACHE"))
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 32);
	if (n <= 0)
		return;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	strcpy(slash + 1, "kshim-images");
	if (access(exe, R_OK | X_OK) == 0) {
		setenv("KSHIM_MKFS_CACHE", exe, 1);
		/* Nor has it xfs_repair: targets that run it skip it. */
		setenv("KSHIM_FUZZ_SHIPPED_IMAGES", "1", 1);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	int err;

	use_shipped_images();

	/*
	 * One seed for every run: the image's UUID (written into every
	 * metadata block and checked by every verifier) comes from it, and
	 * the shipped seed corpus was dumped from an image of this seed.
	 */
	setenv("KSHIM_SEED", "1", 1);
	/*
	 * The deterministic backend: its clock is virtual, so that the
	 * timestamps the set-up writes (and the seeds carry) repeat, and an
	 * input replays exactly, background work included.
	 */
	setenv("KSHIM_BACKEND", "det", 0);
	snprintf(workdir, sizeof(workdir), "%s/kshim-fuzz-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(workdir)) {
		perror("kshim fuzz: mkdtemp");
		exit(2);
	}
	atexit(remove_workdir);
	err = kshim_fuzz_init(workdir);
	if (err) {
		fprintf(stderr, "kshim fuzz: the target's set-up failed: %d\n",
			err);
		exit(2);
	}
	return 0;
}
