// SPDX-License-Identifier: GPL-2.0
/*
 * The replay runner: main() of a fuzz target built without libFuzzer
 * (any compiler, the default build). It runs LLVMFuzzerInitialize() once,
 * then LLVMFuzzerTestOneInput() on each file named, or on each file of
 * each directory named (sorted by name, so that a replay repeats), then
 * the target's kshim_fuzz_exit() (unmount, leak checks). A crash is the
 * target's own abort, with its report; exit 1 if the exit checks found
 * a problem, 2 on bad input (an unreadable file or directory).
 * --repeat N replays the inputs N times and prints executions per second
 * (wall and CPU time): the benchmark (meson test --benchmark), with the
 * checks a target runs now and then under libFuzzer run as there
 * (KSHIM_FUZZ_REPLAY is set only without it).
 *
 *	fuzz_metadata_replay fuzz/metadata/corpus fuzz/metadata/crashers
 *	fuzz_metadata_replay crash-0123abcd
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "kshim_fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;

static void replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "kshim fuzz replay: %s: %s\n", path,
			strerror(errno));
		exit(2);
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		fprintf(stderr, "kshim fuzz replay: %s: read error\n", path);
		exit(2);
	}
	fclose(f);
	if (getenv("KSHIM_VERBOSE"))
		fprintf(stderr, "kshim fuzz replay: %s (%zu bytes)\n", path,
			len);
	/* Its own copy, exactly its size: an overrun is the sanitizer's. */
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	replayed++;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int regular(const struct dirent *d)
{
	/* README and the like are not inputs; neither are dot files. */
	return d->d_name[0] != '.' && strcmp(d->d_name, "README.md");
}

static void replay_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	char file[4096];
	int n, i;

	if (stat(path, &st)) {
		fprintf(stderr, "kshim fuzz replay: %s: %s\n", path,
			strerror(errno));
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return;
	}
	n = scandir(path, &names, regular, by_name);
	if (n < 0) {
		fprintf(stderr, "kshim fuzz replay: %s: %s\n", path,
			strerror(errno));
		exit(2);
	}
	for (i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (!stat(file, &st) && S_ISREG(st.st_mode))
			replay_file(file);
		free(names[i]);
	}
	free(names);
}

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int i, first = 1, problems;
	long repeat = 1, r;
	double wall, cpu;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("usage: %s FILE|DIR...\n"
		       "  replays each input (each file of each DIR, by name) "
		       "through the fuzz target\n", argv[0]);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--repeat") && argc > 3) {
		repeat = strtol(argv[2], NULL, 0);
		first = 3;
		if (repeat <= 0) {
			fprintf(stderr, "kshim fuzz replay: --repeat %s\n",
				argv[2]);
			return 2;
		}
	}
	/* For the targets whose costly checks libFuzzer runs only now
	 * and then (op-sequence's xfs_repair -n): here, every input; as
	 * libFuzzer runs them in the benchmark (--repeat). */
	if (repeat == 1)
		setenv("KSHIM_FUZZ_REPLAY", "1", 1);
	LLVMFuzzerInitialize(&argc, &argv);
	wall = now(CLOCK_MONOTONIC);
	cpu = now(CLOCK_PROCESS_CPUTIME_ID);
	for (r = 0; r < repeat; r++)
		for (i = first; i < argc; i++)
			replay_path(argv[i]);
	wall = now(CLOCK_MONOTONIC) - wall;
	cpu = now(CLOCK_PROCESS_CPUTIME_ID) - cpu;
	if (repeat > 1)
		printf("kshim fuzz replay: %lu executions in %.2f s: %.0f/s "
		       "wall, %.0f/s of CPU time\n", replayed, wall,
		       replayed / wall, replayed / cpu);
	problems = kshim_fuzz_exit();
	printf("kshim fuzz replay: %lu input(s) replayed, %s\n", replayed,
	       problems ? "exit checks FAILED" : "no crash, no leak");
	printf("KSHIM-RESULT tests=%lu passed=%lu failed=%d skipped=0\n",
	       replayed + 1, replayed + !problems, !!problems);
	return problems ? 1 : 0;
}
