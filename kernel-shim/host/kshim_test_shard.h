/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which seeds of a seed sweep this run takes: --shard K/N, or the shard a
 * CI engine gives the job in its environment. Host world, used by the test
 * runner (kshim_test_main.c) only; scripts/testing/shard.py is the same
 * rule in Python for ./kshim test, and tests/unit/test_shard.py checks
 * that the two agree.
 *
 * K counts from 1, as GitLab's CI_NODE_INDEX, Jest's and Playwright's
 * --shard and nextest's --partition do: shards 1/N..N/N. Shard K of N
 * runs the seeds s with s mod N == K mod N, so seed K is its first and
 * shard N takes the multiples of N. A seed's shard depends on the seed
 * alone, never on the sweep's first seed. docs/test.md has the table of
 * CI variables and how each maps to K.
 */
#ifndef KSHIM_TEST_SHARD_H
#define KSHIM_TEST_SHARD_H

#include <stdbool.h>
#include <stddef.h>

struct kshim_shard {
	unsigned long k, n;	/* 1 <= k <= n; 1/1 is every seed */
	char from[256];		/* "--shard 2/4", "CI_NODE_INDEX=2 ..." */
};

/*
 * The shard of a sweep: FLAG (--shard's argument) if not NULL, else
 * KSHIM_SHARD, else 1/1 (every seed). Either is K/N or "auto": the shard
 * the CI engine's variables give this job. False with a one-line reason
 * in ERR (bad syntax, K out of 1..N, N = 0, a variable without its
 * partner, two engines naming different shards, "auto" without any).
 */
bool kshim_shard_resolve(const char *flag, struct kshim_shard *out,
			 char *err, size_t errlen);

static inline bool kshim_shard_has(const struct kshim_shard *s,
				   unsigned long seed)
{
	return seed % s->n == s->k % s->n;
}

/* A count for --jobs or --seeds: decimal digits only, no sign, no
 * overflow. False if S is anything else. */
bool kshim_parse_count(const char *s, unsigned long *out);

#endif
