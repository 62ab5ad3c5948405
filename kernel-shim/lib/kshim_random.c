// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's random numbers (drivers/char/random.c) as one seeded
 * stream: same seed, same numbers, so a deterministic run replays. XFS
 * uses them for hash seeds (rhashtable), the log's cycle-recovery
 * choices and error injection; none of that needs entropy. Listed in
 * docs/FAKES.md.
 */
#include <linux/random.h>
#include <linux/string.h>
#include <kshim/runtime.h>

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
