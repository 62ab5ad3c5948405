// SPDX-License-Identifier: GPL-2.0
/* The device profiles (dev_profile.h). */
#include <linux/time64.h>
#include "dev_profile.h"

const struct dev_profile dev_fast = {
	.name = "fast",
};

const struct dev_profile dev_ssd = {
	.name = "ssd",
	.latency = { .base_ns = 20 * NSEC_PER_USEC,
		     .jitter_ns = 30 * NSEC_PER_USEC },
};

const struct dev_profile dev_ssd_reordering = {
	.name = "ssd-reordering",
	.latency = { .base_ns = 20 * NSEC_PER_USEC,
		     .jitter_ns = 80 * NSEC_PER_USEC },
};

const struct dev_profile dev_slow_disk = {
	.name = "slow-disk",
	.latency = { .base_ns = 500 * NSEC_PER_USEC,
		     .jitter_ns = 1000 * NSEC_PER_USEC },
};
