// SPDX-License-Identifier: GPL-2.0
/*
 * The service time of each I/O on kshim's block device: the latency model
 * (a base time, uniform jitter, and a rare slow I/O: struct kshim_latency
 * in kshim/bdev.h) plus the delays of the faults that fire. The due time
 * it gives decides the order in which the completion task serves I/O, so
 * jitter reorders completions as a real device's queue would.
 *
 * Drawn at submission from the device's own random stream (seeded from
 * the run's seed): a deterministic run gets the same times every time.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>

#include <kshim/bdev.h>
#include <kshim/runtime.h>

#include "kshim_blk.h"

/* Called with kb->lock held: the I/O's service time; sets *status if a
 * fault fires. */
u64 kshim_blk_service_ns(struct kshim_bdev *kb, struct bio *bio,
			 blk_status_t *status)
{
	const struct kshim_latency *l = &kb->latency;
	u64 ns = l->base_ns;

	if (l->jitter_ns)
		ns += kshim_random(&kb->rng) % l->jitter_ns;
	if (l->slow_ppm && kshim_random(&kb->rng) % 1000000 < l->slow_ppm)
		ns += l->slow_ns;
	return ns + kshim_blk_inject_faults(kb, bio, status);
}
