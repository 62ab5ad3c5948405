// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark, not a test: prints figures, fails on nothing but a broken
 * run. Deterministic backend (KSHIM_BACKEND=det): scheduling decisions per
 * second with 64 and 1024 tasks that each call cond_resched() in a loop,
 * and resident memory per task. Parallel backend: an uncontended
 * mutex_lock()/mutex_unlock() pair against a pthread mutex pair measured
 * in the same run.
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>
#include <kshim/host.h>

unsigned long long bench_pthread_mutex_ns(unsigned long n);
unsigned long bench_rss_kib(void);
u64 kshim_det_steps(void);

#define SWITCHES_PER_TASK	2000

static void spin_task(void *unused)
{
	int i;

	for (i = 0; i < SWITCHES_PER_TASK; i++)
		cond_resched();
}

static void bench_switches(int ntasks)
{
	struct task_struct **t = kcalloc(ntasks, sizeof(*t), GFP_KERNEL);
	unsigned long rss0 = bench_rss_kib(), rss1;
	u64 steps0 = kshim_det_steps(), steps, ns;
	unsigned long long t0;
	int i;

	KSHIM_ASSERT_FATAL(t != NULL);
	t0 = kshim_host_clock_ns();
	for (i = 0; i < ntasks; i++)
		t[i] = kshim_task_run(spin_task, NULL, "spin", -1);
	cond_resched();		/* let them all start: stacks are touched */
	rss1 = bench_rss_kib();
	for (i = 0; i < ntasks; i++)
		kshim_task_join(t[i]);
	ns = kshim_host_clock_ns() - t0;
	steps = kshim_det_steps() - steps0;
	kshim_info("bench: %4d tasks: %llu scheduling decisions in %llu ms = %llu per second; resident memory %lu KiB per task\n",
		   ntasks, (unsigned long long)steps,
		   (unsigned long long)ns / 1000000,
		   (unsigned long long)(steps * 1000000000ULL / (ns ? ns : 1)),
		   (rss1 > rss0 ? rss1 - rss0 : 0) / ntasks);
	kfree(t);
}

static void bench_det_switches(void)
{
	if (strcmp(kshim_sched->name, "det"))
		return;
	bench_switches(64);
	bench_switches(1024);
}

static DEFINE_MUTEX(bench_mutex);

static void bench_parallel_lock_overhead(void)
{
	const unsigned long n = 2000000;
	unsigned long long t0, kshim_ns, pthread_ns;
	unsigned long i;

	if (strcmp(kshim_sched->name, "parallel"))
		return;
	t0 = kshim_host_clock_ns();
	for (i = 0; i < n; i++) {
		mutex_lock(&bench_mutex);
		mutex_unlock(&bench_mutex);
	}
	kshim_ns = kshim_host_clock_ns() - t0;
	pthread_ns = bench_pthread_mutex_ns(n);
	kshim_info("bench: uncontended lock+unlock: kshim mutex %llu ns, pthread mutex %llu ns, ratio %llu.%02llu\n",
		   kshim_ns / n, pthread_ns / n, kshim_ns / pthread_ns,
		   (kshim_ns * 100 / pthread_ns) % 100);
}

static const struct kshim_test bench_tests[] = {
	KSHIM_TEST(bench_det_switches),
	KSHIM_TEST(bench_parallel_lock_overhead),
	{ }
};

KSHIM_SUITES({ "bench_sched", NULL, NULL, bench_tests });
