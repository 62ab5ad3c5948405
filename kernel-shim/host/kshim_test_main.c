// SPDX-License-Identifier: GPL-2.0
/*
 * The test runner: main() of every test binary. Registers the binary's
 * kshim_test_suites[] with CUnit, runs them (all, or -s SUITE / -t TEST),
 * and fails a test whose WARN or kshim report count rose unexpectedly.
 * After the suites, the runtime's exit checks (leaks) count as one more
 * test. The last line is machine-readable for ./kshim run:
 *	KSHIM-RESULT tests=N passed=P failed=F skipped=S
 * Exit status: 0 all passed, 1 a failure, 77 skipped (with the reason).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <CUnit/Basic.h>

#include "kshim/host.h"

struct kshim_test {
	const char *name;
	void (*fn)(void);
};

struct kshim_suite {
	const char *name;
	int (*init)(void);
	int (*cleanup)(void);
	const struct kshim_test *tests;
};

extern const struct kshim_suite kshim_test_suites[];

/* Kernel-world services the runner needs (kshim/runtime.h). */
unsigned long kshim_warn_count(void);
unsigned long kshim_report_count(void);
unsigned long long kshim_seed(void);
const char *kshim_sched_name(void);
void kshim_det_tests_begin(void);
void kshim_runtime_init(void);
int kshim_runtime_exit_checks(void);

static unsigned long warns_before, reports_before;
static unsigned long warns_expected, reports_expected;

void kshim_test_assert(bool ok, const char *expr, const char *file, int line,
		       const char *func, bool fatal)
{
	CU_assertImplementation(ok, line, expr, file, func, fatal);
}

void kshim_test_assert_eq(long long a, long long b, const char *ea,
			  const char *eb, const char *file, int line,
			  const char *func, bool fatal)
{
	char msg[512];

	if (a == b) {
		CU_assertImplementation(CU_TRUE, line, ea, file, func, fatal);
		return;
	}
	snprintf(msg, sizeof(msg), "%s == %s (%lld != %lld)", ea, eb, a, b);
	fprintf(stderr, "%s:%d: %s: assertion failed: %s\n", file, line,
		func, msg);
	CU_assertImplementation(CU_FALSE, line, msg, file, func,
				fatal);
}

void kshim_test_expect_warns(unsigned long n)
{
	warns_expected += n;
}

void kshim_test_expect_reports(unsigned long n)
{
	reports_expected += n;
}

void kshim_test_skip(const char *why)
{
	printf("SKIP: %s\n", why);
	printf("KSHIM-RESULT tests=0 passed=0 failed=0 skipped=1\n");
	exit(77);
}

unsigned long kshim_test_scale(unsigned long n)
{
	const char *s = getenv("KSHIM_STRESS");
	unsigned long f = s ? strtoul(s, NULL, 0) : 1;

	return n * (f ? f : 1);
}

static void test_setup(void)
{
	warns_before = kshim_warn_count();
	reports_before = kshim_report_count();
	warns_expected = reports_expected = 0;
}

static void test_teardown(void)
{
	unsigned long w = kshim_warn_count() - warns_before;
	unsigned long r = kshim_report_count() - reports_before;
	char msg[160];

	if (w != warns_expected) {
		snprintf(msg, sizeof(msg),
			 "%lu WARN(s) fired, %lu expected (see the log)", w,
			 warns_expected);
		CU_assertImplementation(CU_FALSE, 0, msg, "kshim", "",
					CU_FALSE);
	}
	if (r != reports_expected) {
		snprintf(msg, sizeof(msg),
			 "%lu kshim report(s), %lu expected (see the log)", r,
			 reports_expected);
		CU_assertImplementation(CU_FALSE, 0, msg, "kshim", "",
					CU_FALSE);
	}
}

static int exit_problems;

static void test_exit_checks(void)
{
	exit_problems = kshim_runtime_exit_checks();
	CU_assertImplementation(exit_problems == 0, 0,
				"no leaks at exit (kshim_runtime_exit_checks)",
				"kshim", "", CU_FALSE);
}

static void usage(const char *prog)
{
	printf("usage: %s [-s SUITE] [-t TEST] [-l] [--seed N] [--seeds [A..]N]\n"
	       "  -s SUITE   run only this suite\n"
	       "  -t TEST    run only this test\n"
	       "  -l         list suites and tests\n"
	       "  --seed N   replay with this seed (same as KSHIM_SEED=N)\n"
	       "  --seeds N  run with seeds 1..N, stop at the first that fails\n"
	       "             and replay it with its output (use with\n"
	       "             KSHIM_BACKEND=det, where a seed is a schedule);\n"
	       "             A..N: seeds A to N\n"
	       "KSHIM_SEEDS=N in the environment sweeps N seeds in the det backend\n"
	       "in place of --seeds or a random seed, unless KSHIM_SEED is set\n",
	       prog);
}

/* Run this binary once with KSHIM_SEED=seed; its exit status. */
static int run_seed(char **argv, unsigned long seed, bool quiet)
{
	char buf[32];
	pid_t pid;
	int status;

	snprintf(buf, sizeof(buf), "%lu", seed);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		setenv("KSHIM_SEED", buf, 1);
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		/* By path when we have one: under valgrind, /proc/self/exe is
		 * valgrind's own tool, and with --trace-children=yes valgrind
		 * follows an exec of the test binary into every seed. */
		execv(strchr(argv[0], '/') ? argv[0] : "/proc/self/exe", argv);
		perror("execv");
		_exit(2);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* The seed sweep: argv without the --seeds option, run per seed. */
static int sweep(int argc, char **argv, unsigned long first,
		 unsigned long nseeds)
{
	char **args = calloc(argc + 1, sizeof(*args));
	unsigned long seed;
	int i, n = 0, rc;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--seeds")) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--seeds=", 8))
			continue;
		args[n++] = argv[i];
	}
	for (seed = first; seed <= nseeds; seed++) {
		rc = run_seed(args, seed, true);
		if (rc && rc != 77) {
			printf("kshim: seed sweep: seed %lu of %lu fails (exit %d); replaying it:\n",
			       seed, nseeds, rc);
			run_seed(args, seed, false);
			printf("kshim: first failing seed: %lu (replay: %sKSHIM_SEED=%lu %s)\n",
			       seed, kshim_host_replay_env(), seed, argv[0]);
			printf("KSHIM-RESULT tests=%lu passed=%lu failed=1 skipped=0\n",
			       seed - first + 1, seed - first);
			free(args);
			fflush(stdout);
			return 1;
		}
	}
	printf("kshim: seed sweep: seeds %lu..%lu all pass\n", first, nseeds);
	printf("KSHIM-RESULT tests=%lu passed=%lu failed=0 skipped=0\n",
	       nseeds - first + 1, nseeds - first + 1);
	free(args);
	fflush(stdout);
	return 0;
}

static bool env_set(const char *name)
{
	const char *s = getenv(name);

	return s && *s;
}

/*
 * KSHIM_SEEDS=N (kshim prevalidate --seeds): in the deterministic backend
 * sweep seeds 1..N in place of --seeds or of one random seed, so that two
 * builds compared run the same schedules. A fixed KSHIM_SEED wins: a
 * scenario's seed, a replay, and each seed a sweep re-executes (which is
 * how the sweep does not recurse).
 */
static unsigned long env_seeds(unsigned long nseeds)
{
	const char *b = getenv("KSHIM_BACKEND");

	if (!env_set("KSHIM_SEEDS") || env_set("KSHIM_SEED") ||
	    !b || strcmp(b, "det"))
		return nseeds;
	return strtoul(getenv("KSHIM_SEEDS"), NULL, 0);
}

/*
 * A deterministic run replays its seed only if the kernel code sees the
 * same addresses every time: some of it hashes addresses into shared
 * tables, and a collision changes the schedule. E.g. evict() wakes
 * __I_NEW waiters with wake_up_bit(), which takes the hashed wait queue's
 * lock (switch points) only if a task waits in that bucket
 * (waitqueue_active()), and whether another task's unrelated wait shares
 * the bucket depends on where malloc() put the two objects. With address
 * space randomisation that differed from run to run: about 1 in 20 runs
 * of test_xfs_icache at KSHIM_SEED=8 took another schedule (and a seed
 * that failed in a sweep could pass when replayed). So a det run
 * re-executes itself once with randomisation off for this process and
 * its children (personality(2) ADDR_NO_RANDOMIZE, what setarch -R does).
 * Not under valgrind, whose address space does not vary; if the flag
 * cannot be set, the run goes on as it is.
 */
static void det_fixed_addresses(char **argv)
{
	const char *backend = getenv("KSHIM_BACKEND");
	const char *preload = getenv("LD_PRELOAD");
	int pers = personality(0xffffffff);

	if (!backend || strcmp(backend, "det") || pers == -1 ||
	    (pers & ADDR_NO_RANDOMIZE))
		return;
	if (preload && strstr(preload, "vgpreload"))
		return;
	if (personality(pers | ADDR_NO_RANDOMIZE) == -1 ||
	    !(personality(0xffffffff) & ADDR_NO_RANDOMIZE))
		return;
	fflush(NULL);
	execv("/proc/self/exe", argv);
	/* Could not re-execute: go on with the addresses we have. */
	personality(pers);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 'S' },
		{ "seeds", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *only_suite = NULL, *only_test = NULL;
	const struct kshim_suite *s;
	bool list = false;
	unsigned long first = 1, nseeds = 0;
	char *dots;
	unsigned int run, failed;
	int c;

	det_fixed_addresses(argv);
	while ((c = getopt_long(argc, argv, "s:t:lh", longopts, NULL)) != -1) {
		switch (c) {
		case 's': only_suite = optarg; break;
		case 't': only_test = optarg; break;
		case 'l': list = true; break;
		case 'S': setenv("KSHIM_SEED", optarg, 1); break;
		case 'N':
			dots = strstr(optarg, "..");
			if (dots)
				first = strtoul(optarg, NULL, 0);
			nseeds = strtoul(dots ? dots + 2 : optarg, NULL, 0);
			break;
		case 'h': usage(argv[0]); return 0;
		default: usage(argv[0]); return 2;
		}
	}
	if (list) {
		for (s = kshim_test_suites; s->name; s++) {
			const struct kshim_test *t;

			for (t = s->tests; t->name; t++)
				printf("%s/%s\n", s->name, t->name);
		}
		return 0;
	}

	nseeds = env_seeds(nseeds);
	if (nseeds)
		return sweep(argc, argv, first, nseeds);

	kshim_runtime_init();
	printf("kshim: seed %llu, %s backend (replay: %sKSHIM_SEED=%llu)\n",
	       kshim_seed(), kshim_sched_name(), kshim_host_replay_env(),
	       kshim_seed());
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (s = kshim_test_suites; s->name; s++) {
		const struct kshim_test *t;
		CU_pSuite cs;

		if (only_suite && strcmp(only_suite, s->name))
			continue;
		cs = CU_add_suite_with_setup_and_teardown(s->name, s->init,
				s->cleanup, test_setup, test_teardown);
		for (t = s->tests; t->name; t++)
			if (!only_test || !strcmp(only_test, t->name))
				CU_add_test(cs, t->name, t->fn);
	}
	CU_add_test(CU_add_suite("kshim_exit", NULL, NULL), "exit_checks",
		    test_exit_checks);

	CU_basic_set_mode(CU_BRM_VERBOSE);
	kshim_det_tests_begin();
	CU_basic_run_tests();
	run = CU_get_number_of_tests_run();
	failed = CU_get_number_of_tests_failed();
	if (CU_get_number_of_suites_failed())
		failed += CU_get_number_of_suites_failed();
	printf("\nkshim: seed %llu\n", kshim_seed());
	printf("KSHIM-RESULT tests=%u passed=%u failed=%u skipped=0\n", run,
	       run - (failed > run ? run : failed), failed);
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
