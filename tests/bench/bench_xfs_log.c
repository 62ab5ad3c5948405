// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark, not a test: prints figures, fails on nothing but a broken
 * run. The real XFS log under N = 8, 64, 256, 1024 committers: the load
 * of the log concurrency scenario (tests/support/xfs_log_load.c: the real
 * tr_write reservation, one 1000-byte scratch block logged, commit), on
 * the same image (256 MiB, the smallest log mkfs.xfs allows, a device at
 * 20-50 us per I/O), with the CIL push worker never held back. Each N
 * shares the same number of commits and gets a fresh image.
 *
 * Printed per N: commits per second in real time, and in the
 * deterministic backend also in virtual time (the kshim clock), each
 * with its ratio to N=8 in the same run. Real time is the host's, on
 * whatever else the machine is doing: compare ratios, not runs.
 *
 * Environment: KSHIM_BENCH_N=64 runs that N alone (the profile,
 * ./kshim profile, takes one N at a time);
 * KSHIM_BENCH_COMMITS=n changes the commits per N (rounded down to a
 * multiple of N).
 */
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/string.h>
#include <kshim/ktest.h>
#include <kshim/host.h>
#include <kshim/sched.h>
#include "xfs_fixture.h"
#include "xfs_log_load.h"

#define IMG_SIZE	(256ULL << 20)
#define MKFS_OPTS	"-l size=1368b"
/* A few seconds per N in the parallel backend on the development
 * machine (22-33 k commits/s there, README "XFS log"). */
#define COMMITS		65536
#define PAYLOAD		1000

static const unsigned int concurrency[] = { 8, 64, 256, 1024 };

struct result {
	unsigned int n;
	u64 commits, real_ns, virt_ns;
	u64 violations;
	char first_violation[256];
};

static unsigned int env_uint(const char *name, unsigned int def)
{
	const char *s = kshim_host_getenv(name);
	unsigned int v;

	if (!s)
		return def;
	if (kstrtouint(s, 10, &v) || !v) {
		pr_err("bench_xfs_log: %s=%s is not a positive number\n", name, s);
		KSHIM_ASSERT_FATAL(false);
	}
	return v;
}

static u64 per_s(u64 n, u64 ns)
{
	return ns ? div64_u64(n * NSEC_PER_SEC, ns) : 0;
}

static void one_n(struct result *r, unsigned int total)
{
	struct xfs_fixture fx = {
		.size = IMG_SIZE,
		.mkfs_opts = MKFS_OPTS,
		.dev = &dev_ssd,
	};
	struct log_load ll = {
		.nr_tasks = r->n,
		.commits_per_task = total / r->n,
		.payload = PAYLOAD,
	};

	ll.mp = xfs_fixture_mount_new(&fx);
	KSHIM_ASSERT_EQ_FATAL(log_load_run(&ll), 0);
	/* A broken run is no figure. */
	KSHIM_ASSERT_EQ(ll.commits, (u64)ll.nr_tasks * ll.commits_per_task);
	/*
	 * A broken log invariant is a finding, not a broken run: on this
	 * log some deterministic schedules reach one (the finding suite's
	 * finding_xfs_log_tail_wrap). Reported with the figures.
	 */
	r->violations = ll.violations;
	strscpy(r->first_violation, ll.first_violation,
		sizeof(r->first_violation));
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
	r->commits = ll.commits;
	r->real_ns = ll.real_ns;
	r->virt_ns = ll.elapsed_ns;
}

/* "x1.23": A/B in hundredths, or "-" without a baseline. */
static const char *ratio(char *buf, size_t len, u64 a, u64 b)
{
	u64 h;

	if (!b)
		return "-";
	h = div64_u64(a * 100, b);
	snprintf(buf, len, "x%llu.%02llu", h / 100, h % 100);
	return buf;
}

static void bench_commits_per_second(void)
{
	bool det = !strcmp(kshim_sched->name, "det");
	unsigned int only = env_uint("KSHIM_BENCH_N", 0);
	unsigned int total = env_uint("KSHIM_BENCH_COMMITS", COMMITS);
	struct result res[ARRAY_SIZE(concurrency)] = { };
	u64 base_real = 0, base_virt = 0;
	unsigned int i, nr = 0;
	char b1[24], b2[24], line[128];

	if (only) {
		res[nr++].n = only;
	} else {
		for (i = 0; i < ARRAY_SIZE(concurrency); i++)
			res[nr++].n = concurrency[i];
	}
	for (i = 0; i < nr; i++) {
		KSHIM_ASSERT_FATAL(total >= res[i].n);
		one_n(&res[i], total);
		kshim_info("bench_xfs_log: N=%u done, %llu commits in %llu ms\n",
			   res[i].n, res[i].commits,
			   res[i].real_ns / NSEC_PER_MSEC);
	}

	kshim_info("\nbench_xfs_log: %s backend, %u commits of tr_write "
		   "(%d bytes logged) per N, log of %s, push worker on time\n",
		   kshim_sched->name, total, PAYLOAD, MKFS_OPTS);
	/* One kshim_info() per line: other tasks may print between. */
	snprintf(line, sizeof(line), "%5s %9s %9s %7s%s", "N", "real ms",
		 "real c/s", "vs N=8",
		 det ? "   virt ms  virt c/s  vs N=8" : "");
	kshim_info("%s\n", line);
	for (i = 0; i < nr; i++) {
		struct result *r = &res[i];
		u64 real = per_s(r->commits, r->real_ns);
		u64 virt = per_s(r->commits, r->virt_ns);
		int len;

		if (r->n == 8) {
			base_real = real;
			base_virt = virt;
		}
		len = scnprintf(line, sizeof(line), "%5u %9llu %9llu %7s", r->n,
				r->real_ns / NSEC_PER_MSEC, real,
				ratio(b1, sizeof(b1), real, base_real));
		if (det)
			scnprintf(line + len, sizeof(line) - len,
				  " %9llu %9llu %7s",
				  r->virt_ns / NSEC_PER_MSEC, virt,
				  ratio(b2, sizeof(b2), virt, base_virt));
		kshim_info("%s\n", line);
	}
	for (i = 0; i < nr; i++)
		if (res[i].violations)
			kshim_info("N=%u: %llu broken log invariant(s), the first: "
				   "%s (README, \"XFS log\": a finding)\n",
				   res[i].n, res[i].violations,
				   res[i].first_violation);
}

static const struct kshim_test bench_tests[] = {
	KSHIM_TEST(bench_commits_per_second),
	{ }
};

KSHIM_SUITES({ "bench_xfs_log", NULL, NULL, bench_tests });
