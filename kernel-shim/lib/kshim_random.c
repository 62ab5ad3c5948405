// SPDX-License-Identifier: GPL-2.0
/*
 * Random numbers, all drawn from the run's seed (KSHIM_SEED, or the clock
 * when unset, printed either way): kshim's own streams (kshim_random()),
 * for the scheduler, the block device's faults and latency and the
 * allocator's failures, and the kernel's (drivers/char/random.c) as one
 * more such stream. Same seed, same numbers, so a deterministic run
 * replays. XFS uses the kernel's for hash seeds (rhashtable), the log's
 * cycle-recovery choices and error injection; none of that needs
 * entropy. Listed in docs/FAKES.md.
 */
#include <linux/random.h>
#include <linux/string.h>
#include <kshim/host.h>
#include <kshim/runtime.h>

#include "kshim_internal.h"

static u64 run_seed;

void kshim_seed_init(void)
{
	const char *s = kshim_host_getenv("KSHIM_SEED");

	if (s && *s)
		run_seed = kshim_host_strtoull(s);
	else
		run_seed = kshim_host_clock_ns() % 1000000007ULL;
}

u64 kshim_seed(void)
{
	return run_seed;
}

/* xorshift64*: STATE is the stream's, 0 starts it at a fixed point. */
u64 kshim_random(u64 *state)
{
	u64 x = *state ? *state : 0x9E3779B97F4A7C15ULL;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

/* The kernel's random numbers: one stream behind a host-level lock. */

static u64 rng_state;
static u32 rng_lock;	/* a host-level lock: any task, any context */

static u64 next(void)
{
	u64 v;

	kshim_raw_lock(&rng_lock);
	if (!rng_state)
		rng_state = kshim_seed() ^ 0x9e3779b97f4a7c15ULL;
	v = kshim_random(&rng_state);
	kshim_raw_unlock(&rng_lock);
	return v;
}

void get_random_bytes(void *buf, size_t len)
{
	u8 *p = buf;

	while (len) {
		u64 v = next();
		size_t n = min(len, sizeof(v));

		memcpy(p, &v, n);
		p += n;
		len -= n;
	}
}

u8 get_random_u8(void)
{
	return next();
}

u16 get_random_u16(void)
{
	return next();
}

u32 get_random_u32(void)
{
	return next();
}

u64 get_random_u64(void)
{
	return next();
}

/* Uniform below CEIL (ceil > 0), by rejection, as the kernel promises. */
u32 __get_random_u32_below(u32 ceil)
{
	u32 limit = -ceil % ceil;	/* 2^32 mod ceil */
	u32 v;

	do {
		v = get_random_u32();
	} while (v < limit);
	return v % ceil;
}
