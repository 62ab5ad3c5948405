// SPDX-License-Identifier: GPL-2.0
/*
 * The test runner: main() of every test binary. Registers the binary's
 * kshim_test_suites[] with CUnit, runs them (all, or -s SUITE / -t TEST),
 * and fails a test whose WARN or kshim report count rose unexpectedly.
 * After the suites, the runtime's exit checks (leaks) count as one more
 * test. Before the last line, one line says which tests failed at which
 * seed (see print_seed_line()); the last line is machine-readable for
 * ./kshim run:
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
#include "kshim_test_shard.h"

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
unsigned long long kshim_det_trace_hash(void);
void kshim_det_tests_begin(void);
void kshim_runtime_init(void);
int kshim_runtime_exit_checks(void);

static unsigned long warns_before, reports_before;
static unsigned long warns_expected, reports_expected;

/*
 * Per-test results, as records on a file descriptor, one line each:
 *	backend NAME
 *	begin SUITE/TEST
 *	end SUITE/TEST pass|fail
 *	hash TRACE_HASH			(after the last test)
 * A seed sweep gives each seed's run a file of its own (KSHIM_RESULTS_FD)
 * and reads it back once the run has exited, so a run that dies inside a
 * test (BUG, hang report, signal) still says which test it died in: its
 * last "begin" has no "end". A run on its own writes them to a temporary
 * file. Written unbuffered with write(2) for that reason.
 */
static int results_fd = -1;
static unsigned int failures_before;

static void result_record(const char *fmt, const char *a, const char *b)
{
	if (results_fd >= 0)
		dprintf(results_fd, fmt, a, b);
}

static const char *current_name(char *buf, size_t len)
{
	CU_pSuite s = CU_get_current_suite();
	CU_pTest t = CU_get_current_test();

	snprintf(buf, len, "%s/%s", s && s->pName ? s->pName : "?",
		 t && t->pName ? t->pName : "?");
	return buf;
}

static void results_open(void)
{
	const char *s = getenv("KSHIM_RESULTS_FD");
	FILE *f;

	if (s && *s) {
		results_fd = atoi(s);
		return;
	}
	f = tmpfile();
	if (f)
		results_fd = fileno(f);
}

/*
 * One line for the runs of seed SEED whose records are in FD: how many
 * tests ran, which failed (space-separated SUITE/TEST), the test the run
 * stopped in (a "begin" without "end"), the exit status when known
 * (RC >= 0) and the det backend's trace hash. prevalidate compares base
 * and patched on these lines, per test and per seed:
 *	kshim: seed 3 (det): 12 test(s) run, 1 failed: xfs_log/test_x; exit 1; trace hash 0123456789abcdef
 * With KSHIM_SWEEP_TESTS=1 (./kshim test --seeds, for its JUnit and KCIDB
 * reports), a line per test before it, the passing ones too:
 *	kshim: seed 3 test xfs_log/test_x: pass|fail|stopped
 */
static void print_seed_line(int fd, unsigned long long seed, int rc)
{
	char *buf = NULL, *line, *save, backend[32] = "?", hash[32] = "";
	char stopped[256] = "", failed[4096] = "";
	size_t cap = 0, len = 0, flen = 0;
	unsigned int run = 0, nfailed = 0;
	const char *per_test = getenv("KSHIM_SWEEP_TESTS");
	bool tests = per_test && !strcmp(per_test, "1");
	ssize_t n;

	if (fd < 0)
		return;
	lseek(fd, 0, SEEK_SET);
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap * 2 + 8192;
			buf = realloc(buf, cap);
			if (!buf)
				return;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n <= 0)
			break;
		len += n;
	}
	if (!buf)
		return;
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[256], what[16];

		if (sscanf(line, "backend %31s", backend) == 1 ||
		    sscanf(line, "hash %31s", hash) == 1)
			continue;
		if (sscanf(line, "begin %255s", name) == 1) {
			run++;
			snprintf(stopped, sizeof(stopped), "%s", name);
			continue;
		}
		if (sscanf(line, "end %255s %15s", name, what) == 2) {
			stopped[0] = '\0';
			if (tests)
				printf("kshim: seed %llu test %s: %s\n", seed,
				       name, what);
			if (strcmp(what, "pass")) {
				nfailed++;
				if (flen + strlen(name) + 2 < sizeof(failed))
					flen += snprintf(failed + flen,
							 sizeof(failed) - flen,
							 " %s", name);
			}
		}
	}
	free(buf);
	if (stopped[0] && tests)
		printf("kshim: seed %llu test %s: stopped\n", seed, stopped);
	if (stopped[0] && flen + strlen(stopped) + 2 < sizeof(failed))
		snprintf(failed + flen, sizeof(failed) - flen, " %s", stopped);
	printf("kshim: seed %llu (%s): %u test(s) run, %u failed%s%s", seed,
	       backend, run, nfailed + !!stopped[0], nfailed || stopped[0] ?
	       ":" : "", failed);
	if (stopped[0])
		printf("; stopped in %s", stopped);
	if (rc >= 0)
		printf("; exit %d", rc);
	if (hash[0])
		printf("; trace hash %s", hash);
	printf("\n");
}

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

/*
 * Coverage per CUnit test (KSHIM_GCOV_PER_TEST=1 with GCOV_PREFIX set, as
 * kshim mutate's coverage run sets them). gcov writes a binary's counts at
 * its exit, which says that the binary reached a line, not which of its
 * tests did; a line that a test ran without noticing a change to it wants
 * a check in that test, so mutate names it. So before each test the
 * counts so far (suite set-up, the previous suite's clean-up) are written
 * under GCOV_PREFIX itself, after it the test's own under
 * GCOV_PREFIX/cunit/SUITE/TEST, and
 * each time they are zeroed: __gcov_dump() reads GCOV_PREFIX on every
 * call, and __gcov_reset() rearms the dump at exit, which adds what runs
 * after the last test (the exit checks) to GCOV_PREFIX. gcov adds to a
 * .gcda already on disk, so the runs of a seed sweep sum up. No switch
 * point is involved: a det schedule is the same with or without it. The
 * hooks are weak: a binary built without coverage has none.
 */
extern void __gcov_dump(void) __attribute__((weak));
extern void __gcov_reset(void) __attribute__((weak));

static char *gcov_prefix;

static void gcov_per_test_init(void)
{
	const char *on = getenv("KSHIM_GCOV_PER_TEST");
	const char *prefix = getenv("GCOV_PREFIX");

	if (__gcov_dump && __gcov_reset && on && !strcmp(on, "1") &&
	    prefix && *prefix)
		gcov_prefix = strdup(prefix);
}

/* Write the counts so far under GCOV_PREFIX[/cunit/NAME] and zero them. */
static void gcov_flush_to(const char *name)
{
	char dir[4096];

	if (!gcov_prefix)
		return;
	if (name)
		snprintf(dir, sizeof(dir), "%s/cunit/%s", gcov_prefix, name);
	else
		snprintf(dir, sizeof(dir), "%s", gcov_prefix);
	setenv("GCOV_PREFIX", dir, 1);
	__gcov_dump();
	__gcov_reset();
	setenv("GCOV_PREFIX", gcov_prefix, 1);
}

static void test_setup(void)
{
	char name[256];

	gcov_flush_to(NULL);
	result_record("begin %s%s\n", current_name(name, sizeof(name)), "");
	failures_before = CU_get_number_of_failures();
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
	result_record("end %s %s\n", current_name(msg, sizeof(msg)),
		      CU_get_number_of_failures() == failures_before ?
		      "pass" : "fail");
	gcov_flush_to(current_name(msg, sizeof(msg)));
}

static int exit_problems;

static void test_exit_checks(void)
{
	result_record("begin %s%s\n", "kshim_exit/exit_checks", "");
	exit_problems = kshim_runtime_exit_checks();
	CU_assertImplementation(exit_problems == 0, 0,
				"no leaks at exit (kshim_runtime_exit_checks)",
				"kshim", "", CU_FALSE);
	result_record("end %s %s\n", "kshim_exit/exit_checks",
		      exit_problems ? "fail" : "pass");
}

static void usage(const char *prog)
{
	printf("usage: %s [-s SUITE] [-t TEST] [-l] [--seed N] [--seeds [A..]N\n"
	       "       [--shard K/N] [--jobs J] [--list-seeds]]\n"
	       "  -s SUITE   run only this suite\n"
	       "  -t TEST    run only this test\n"
	       "  -l         list suites and tests\n"
	       "  --seed N   replay with this seed (same as KSHIM_SEED=N)\n"
	       "  --seeds N  run with seeds 1..N, stop at the first that fails\n"
	       "             and replay it with its output (use with\n"
	       "             KSHIM_BACKEND=det, where a seed is a schedule);\n"
	       "             A..N: seeds A to N\n"
	       "  --shard K/N  of the sweep, run only the seeds s with\n"
	       "             s mod N = K mod N (K counts from 1); default:\n"
	       "             KSHIM_SHARD, else every seed. --shard auto: the\n"
	       "             shard of CI_NODE_INDEX, SLURM_ARRAY_TASK_ID or\n"
	       "             JOB_COMPLETION_INDEX (docs/test.md)\n"
	       "  --jobs J   run J seeds of the sweep at a time (default 1)\n"
	       "  --list-seeds  print the seeds the sweep would run, and exit\n"
	       "KSHIM_SEEDS=N in the environment sweeps N seeds in the det backend\n"
	       "in place of --seeds or a random seed, unless KSHIM_SEED is set\n",
	       prog);
}

/* Exit 2 with one line: bad input on the command line or environment. */
static void __attribute__((noreturn)) bad_input(const char *fmt, const char *a)
{
	fflush(stdout);
	fprintf(stderr, "kshim: ");
	fprintf(stderr, fmt, a);
	fprintf(stderr, "\n");
	exit(2);
}

/*
 * Start this binary once with KSHIM_SEED=seed; its pid. With RESULTS >= 0,
 * the run writes its per-test records there. OUT >= 0: the run's output
 * goes there (a sweep's runs are quiet, their output kept in case the
 * replay of a failure does not reproduce it); else to ours.
 */
static pid_t spawn_seed(char **argv, unsigned long seed, int out,
			int results)
{
	char buf[32], fdbuf[16];
	pid_t pid;

	snprintf(buf, sizeof(buf), "%lu", seed);
	snprintf(fdbuf, sizeof(fdbuf), "%d", results);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (pid == 0) {
		setenv("KSHIM_SEED", buf, 1);
		if (results >= 0)
			setenv("KSHIM_RESULTS_FD", fdbuf, 1);
		else
			unsetenv("KSHIM_RESULTS_FD");
		if (out < 0)
			out = open("/dev/null", O_WRONLY);
		if (out != STDOUT_FILENO) {
			dup2(out, STDOUT_FILENO);
			dup2(out, STDERR_FILENO);
		}
		/* By path when we have one: under valgrind, /proc/self/exe is
		 * valgrind's own tool, and with --trace-children=yes valgrind
		 * follows an exec of the test binary into every seed. */
		execv(strchr(argv[0], '/') ? argv[0] : "/proc/self/exe", argv);
		perror("execv");
		_exit(2);
	}
	return pid;
}

static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* Run one seed to its end, its output ours (the replay of a failing
 * seed); its status. */
static int run_seed(char **argv, unsigned long seed)
{
	pid_t pid = spawn_seed(argv, seed, STDOUT_FILENO, -1);
	int status;

	waitpid(pid, &status, 0);
	return exit_code(status);
}

/* What a sweep runs: seeds FIRST..LAST of SHARD, J at a time. */
struct sweep_plan {
	unsigned long first, last, jobs;
	bool all;			/* KSHIM_SEEDS: every seed runs */
	struct kshim_shard shard;
};

/* The shard's first seed >= FIRST, and how many of its seeds are <= LAST. */
static unsigned long shard_start(const struct sweep_plan *p,
				 unsigned long *count)
{
	unsigned long n = p->shard.n;
	unsigned long s = p->first + (p->shard.k % n + n - p->first % n) % n;

	*count = s < p->first || s > p->last ? 0 : (p->last - s) / n + 1;
	return s;
}

/* One seed's run in the sweep's window of at most J runs. */
struct seed_run {
	pid_t pid;
	FILE *res;
	FILE *out;			/* its output */
	int rc;
	bool done;
};

static void close_file(FILE **f)
{
	if (*f)
		fclose(*f);
	*f = NULL;
}

/*
 * The replay of a failing seed (exit RC) did not fail the same way
 * (exit REPLAY_RC): something outside the seed changed the run, which is
 * a kshim bug, and the only report of the failure is the sweep's own run
 * of the seed. Print it (OUT, kept for this), each line after "| ", so
 * that its seed and result lines are not read as the sweep's.
 */
static void not_reproduced(unsigned long seed, int rc, int replay_rc,
			   FILE *out)
{
	char buf[4096];
	bool line_start = true;

	printf("kshim: seed sweep: seed %lu DID NOT REPLAY: it failed "
	       "(exit %d) in the sweep and its replay exited %d. Something "
	       "outside the seed changed the run (a kshim bug); the "
	       "sweep's run of the seed printed:\n", seed, rc, replay_rc);
	if (!out || fseek(out, 0, SEEK_SET)) {
		printf("kshim: (its output was not kept)\n");
		return;
	}
	while (fgets(buf, sizeof(buf), out)) {
		printf("%s%s", line_start ? "| " : "", buf);
		line_start = buf[strlen(buf) - 1] == '\n';
	}
	if (!line_start)
		printf("\n");
	printf("kshim: seed sweep: end of the output of seed %lu's run in "
	       "the sweep\n", seed);
}

/* Argument-taking options of the sweep itself: not passed to each seed. */
static bool sweep_option(const char *arg, bool *takes_value)
{
	static const char *const with_value[] = { "--seeds", "--shard",
						  "--jobs", NULL };
	int i;

	*takes_value = false;
	if (!strcmp(arg, "--list-seeds"))
		return true;
	for (i = 0; with_value[i]; i++) {
		size_t len = strlen(with_value[i]);

		if (strncmp(arg, with_value[i], len))
			continue;
		if (!arg[len]) {
			*takes_value = true;
			return true;
		}
		if (arg[len] == '=')
			return true;
	}
	return false;
}

/*
 * The seed sweep: argv without the sweep's own options, run per seed of
 * the plan, each seed's line printed (print_seed_line()) in seed order,
 * whatever order the J runs at a time end in, so the output is the same
 * for every J. ALL (KSHIM_SEEDS, which is how prevalidate sweeps): every
 * seed runs, so that base and patched can be compared per test and per
 * seed; the first failing one is then replayed with its output.
 * Otherwise (--seeds) the sweep stops at the first failing seed and
 * replays it; with J > 1, the later seeds already running are waited for
 * and left out, as a sweep one at a time would not have run them.
 */
static int sweep(int argc, char **argv, const struct sweep_plan *p)
{
	char **args = calloc(argc + 1, sizeof(*args));
	unsigned long count, start = shard_start(p, &count), limit = count;
	unsigned long launch = 0, print = 0, bad = 0, nfailed = 0;
	unsigned long j = p->jobs, seed, i;
	struct seed_run *ring = calloc(j, sizeof(*ring));
	bool sharded = p->shard.n > 1, takes_value;
	int n = 0, bad_rc = 0, replay_rc, status;
	FILE *bad_out = NULL;

	for (i = 0; i < (unsigned long)argc; i++) {
		if (i && sweep_option(argv[i], &takes_value)) {
			i += takes_value;
			continue;
		}
		args[n++] = argv[i];
	}
	if (sharded)
		printf("kshim: seed sweep: shard %lu/%lu (%s): the %lu seed(s) "
		       "s of %lu..%lu with s mod %lu = %lu\n", p->shard.k,
		       p->shard.n, p->shard.from, count, p->first, p->last,
		       p->shard.n, p->shard.k % p->shard.n);
	if (!count) {
		printf("kshim: seed sweep: shard %lu/%lu has no seed in "
		       "%lu..%lu: nothing to run, passes\n", p->shard.k,
		       p->shard.n, p->first, p->last);
		printf("KSHIM-RESULT tests=0 passed=0 failed=0 skipped=0\n");
		fflush(stdout);
		free(ring);
		free(args);
		return 0;
	}
	while (print < limit) {
		struct seed_run *r;

		while (launch < limit && launch < print + j) {
			r = &ring[launch % j];
			r->res = tmpfile();
			r->out = tmpfile();
			r->done = false;
			r->pid = spawn_seed(args, start + launch * p->shard.n,
					    r->out ? fileno(r->out) : -1,
					    r->res ? fileno(r->res) : -1);
			launch++;
		}
		r = &ring[print % j];
		if (!r->done) {
			pid_t pid = waitpid(-1, &status, 0);

			for (i = 0; pid > 0 && i < j; i++)
				if (ring[i].pid == pid && !ring[i].done) {
					ring[i].done = true;
					ring[i].rc = exit_code(status);
				}
			continue;
		}
		seed = start + print * p->shard.n;
		print_seed_line(r->res ? fileno(r->res) : -1, seed, r->rc);
		close_file(&r->res);
		print++;
		if (r->rc && r->rc != 77) {
			nfailed++;
			if (!bad) {
				bad = seed;
				bad_rc = r->rc;
				bad_out = r->out;
				r->out = NULL;
			}
			if (!p->all)
				limit = print;
		}
		close_file(&r->out);
	}
	/* Runs past a --seeds sweep's first failure: waited for, unused. */
	for (; print < launch; print++) {
		struct seed_run *r = &ring[print % j];

		if (!r->done)
			waitpid(r->pid, &status, 0);
		close_file(&r->res);
		close_file(&r->out);
	}
	free(ring);
	if (bad) {
		printf("kshim: seed sweep: seed %lu of %lu fails (exit %d); replaying it:\n",
		       bad, p->last, bad_rc);
		replay_rc = run_seed(args, bad);
		if (replay_rc != bad_rc)
			not_reproduced(bad, bad_rc, replay_rc, bad_out);
		close_file(&bad_out);
		printf("kshim: first failing seed: %lu (replay: %sKSHIM_SEED=%lu %s)\n",
		       bad, kshim_host_replay_env(), bad, argv[0]);
		printf("KSHIM-RESULT tests=%lu passed=%lu failed=%lu skipped=0\n",
		       limit, limit - nfailed, nfailed);
		free(args);
		fflush(stdout);
		return 1;
	}
	if (sharded)
		printf("kshim: seed sweep: shard %lu/%lu of seeds %lu..%lu: "
		       "all %lu pass\n", p->shard.k, p->shard.n, p->first,
		       p->last, count);
	else
		printf("kshim: seed sweep: seeds %lu..%lu all pass\n",
		       p->first, p->last);
	printf("KSHIM-RESULT tests=%lu passed=%lu failed=0 skipped=0\n",
	       count, count);
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

static bool selects_a_test(const char *only_suite, const char *only_test)
{
	const struct kshim_suite *s;
	const struct kshim_test *t;

	for (s = kshim_test_suites; s->name; s++)
		for (t = s->tests; t->name; t++)
			if ((!only_suite || !strcmp(only_suite, s->name)) &&
			    (!only_test || !strcmp(only_test, t->name)))
				return true;
	return false;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 'S' },
		{ "seeds", required_argument, NULL, 'N' },
		{ "shard", required_argument, NULL, 'K' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "list-seeds", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *only_suite = NULL, *only_test = NULL, *shard = NULL;
	const char *jobs = NULL;
	const struct kshim_suite *s;
	struct sweep_plan plan = { .first = 1, .jobs = 1 };
	bool list = false, list_seeds = false;
	unsigned long nseeds = 0;
	char *dots, err[512];
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
				*dots = '\0';
			if ((dots && !kshim_parse_count(optarg, &plan.first)) ||
			    !kshim_parse_count(dots ? dots + 2 : optarg,
					       &nseeds) ||
			    !nseeds || plan.first > nseeds) {
				if (dots)
					*dots = '.';
				bad_input("--seeds %s: expected N or A..N, "
					  "whole numbers with 1 <= N and A <= N",
					  optarg);
			}
			if (dots)
				*dots = '.';
			break;
		case 'K': shard = optarg; break;
		case 'J':
			if (!kshim_parse_count(optarg, &plan.jobs) ||
			    !plan.jobs)
				bad_input("--jobs %s: expected a number of "
					  "seeds to run at a time, at least 1",
					  optarg);
			jobs = optarg;
			break;
		case 'L': list_seeds = true; break;
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

	/* A -s or -t that names nothing would pass having run no test. */
	if (!selects_a_test(only_suite, only_test))
		bad_input("-s/-t %s: no such test in this binary (-l lists "
			  "them)", only_test ? only_test : only_suite);
	if (env_seeds(0)) {
		plan.first = 1;
		plan.last = env_seeds(0);
		plan.all = true;
	} else {
		plan.last = nseeds;
	}
	/* The sweep's options mean nothing to one run: refused, not ignored,
	 * since "--shard 2/4" on a run of one seed promises a split it does
	 * not make. KSHIM_SHARD in the environment is only read for a
	 * sweep: each seed's own run inherits it. */
	if (!plan.last && (shard || jobs || list_seeds))
		bad_input("%s works on a seed sweep: give --seeds N (or "
			  "KSHIM_SEEDS=N with KSHIM_BACKEND=det)", shard ?
			  "--shard" : jobs ? "--jobs" : "--list-seeds");
	if (plan.last) {
		if (!kshim_shard_resolve(shard, &plan.shard, err, sizeof(err)))
			bad_input("%s", err);
		if (list_seeds) {
			unsigned long count, seed = shard_start(&plan, &count);

			for (; count; count--, seed += plan.shard.n)
				printf("%lu\n", seed);
			return 0;
		}
		return sweep(argc, argv, &plan);
	}

	results_open();
	gcov_per_test_init();
	kshim_runtime_init();
	/* Only a det run replays from its seed: a parallel run's schedule
	 * is the host's, and a "(replay: ...)" there would promise what the
	 * line cannot give. */
	if (!strcmp(kshim_sched_name(), "det"))
		printf("kshim: seed %llu, %s backend (replay: %sKSHIM_SEED=%llu)\n",
		       kshim_seed(), kshim_sched_name(),
		       kshim_host_replay_env(), kshim_seed());
	else
		printf("kshim: seed %llu, %s backend (threads run as the host schedules them: the seed does not replay this run)\n",
		       kshim_seed(), kshim_sched_name());
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
	result_record("backend %s%s\n", kshim_sched_name(), "");
	CU_basic_run_tests();
	run = CU_get_number_of_tests_run();
	failed = CU_get_number_of_tests_failed();
	if (CU_get_number_of_suites_failed())
		failed += CU_get_number_of_suites_failed();
	if (!strcmp(kshim_sched_name(), "det")) {
		char hash[32];

		snprintf(hash, sizeof(hash), "%016llx",
			 kshim_det_trace_hash());
		result_record("hash %s%s\n", hash, "");
	}
	printf("\nkshim: seed %llu\n", kshim_seed());
	if (!getenv("KSHIM_RESULTS_FD"))
		print_seed_line(results_fd, kshim_seed(), -1);
	printf("KSHIM-RESULT tests=%u passed=%u failed=%u skipped=0\n", run,
	       run - (failed > run ? run : failed), failed);
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
