/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a file's bytes may be after a power failure, as the fsync family
 * promises it: the rule test_xfs_data_crash.c and the operation
 * generator's crash tests (fsstress_data.c) both check, and the byte
 * pattern both write.
 *
 * A file has a durable point (its last fsync or fdatasync that returned
 * 0; its creation before one) with that point's bytes. Since then, a
 * log of changes: each wrote pattern SEED (or zeroes, seed 0) over
 * [off, end). A byte no change covers must have the durable point's
 * value. A byte changes cover may have that value or the value of any
 * change covering it, except that a change made durable when it returned
 * (an RWF_DSYNC or O_DSYNC write) is a durable point for its bytes: the
 * byte then has its value or a later change's, never an older one. Never
 * a byte nobody wrote: unwritten extents and never-written blocks read
 * as zeroes. The size lies within the sizes the file had since its
 * durable point, and at least the end of any durable write since.
 */
#ifndef _TESTS_DATA_DURABILITY_H
#define _TESTS_DATA_DURABILITY_H

#include <linux/types.h>

/* The byte at offset OFF of pattern SEED (a splitmix64 step, so that a
 * byte from elsewhere in the file or another seed rarely matches). */
static inline u8 data_pat(u64 seed, u64 off)
{
	u64 x = seed * 0x9E3779B97F4A7C15ull + off;

	x ^= x >> 31;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 29;
	return (u8)x;
}

/* Bytes [off, end) became pattern SEED at offsets shifted by ADJ
 * (data_pat(seed, (u32)(i + adj)), for data moved by a collapse or an
 * insert: 0 otherwise), or zeroes (seed 0). DURABLE: it was durable when
 * it returned. */
struct data_change {
	u64 seed;
	loff_t off, end;
	u32 adj;
	bool durable;
};

static inline u8 data_change_byte(const struct data_change *ch, loff_t i)
{
	return ch->seed ? data_pat(ch->seed, (u32)(i + ch->adj)) : 0;
}

/*
 * Whether GOT may be byte I after a power failure: DUR is its value at
 * the durable point, LOG[0..N) the changes since, oldest first.
 */
static inline bool data_byte_allowed(u8 got, u8 dur,
				     const struct data_change *log,
				     unsigned int n, loff_t i)
{
	unsigned int c = n;

	while (c--) {
		const struct data_change *ch = &log[c];

		if (i < ch->off || i >= ch->end)
			continue;
		if (got == data_change_byte(ch, i))
			return true;
		if (ch->durable)
			return false;
	}
	return got == dur;
}

#endif
