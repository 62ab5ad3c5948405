// SPDX-License-Identifier: GPL-2.0
/* The device profiles (dev_profile.h). */
#include <linux/time64.h>
#include "dev_profile.h"

const struct dev_profile dev_fast = {
	.name = "fast",
};

const struct dev_profile dev_ssd = {
	.name = "ssd",
	.latency = KSHIM_LATENCY_SSD,
};

const struct dev_profile dev_ssd_reordering = {
	.name = "ssd-reordering",
	.latency = KSHIM_LATENCY_SSD_REORDERING,
};

const struct dev_profile dev_slow_disk = {
	.name = "slow-disk",
	.latency = KSHIM_LATENCY_SLOW_DISK,
};
