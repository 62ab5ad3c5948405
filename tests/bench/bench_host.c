// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side baselines for bench_sched: a pthread mutex lock/unlock pair
 * and the process's resident memory, measured with the C library.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

unsigned long long bench_pthread_mutex_ns(unsigned long n)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	struct timespec a, b;
	unsigned long i;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a.tv_sec) * 1000000000ULL + b.tv_nsec - a.tv_nsec;
}

unsigned long bench_rss_kib(void)
{
	unsigned long size = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu %lu", &size, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}
