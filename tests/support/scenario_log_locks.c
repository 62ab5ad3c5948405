// SPDX-License-Identifier: GPL-2.0
/* The XFS log's lock statistics for the log scenarios (scenario_log_locks.h). */
#include <linux/kernel.h>
#include "scenario_log_locks.h"
#include "scenario_out.h"

const char *const log_lock_classes[NR_LOG_LOCKS] = {
	"&head->lock",			/* both grant heads */
	"&cil->xc_ctx_lock",
	"&cil->xc_push_lock",
	"&log->l_icloglock",
	"&ailp->ail_lock",
};

void log_locks_read(struct kshim_lock_class locks[NR_LOG_LOCKS])
{
	unsigned int i;

	for (i = 0; i < NR_LOG_LOCKS; i++) {
		struct kshim_lock_class *c = kshim_lock_stat_find(log_lock_classes[i]);

		if (c)
			locks[i] = *c;
	}
}

void log_locks_json(int fd, const struct kshim_lock_class locks[NR_LOG_LOCKS])
{
	unsigned int l;

	scenario_out(fd, "\"locks\": {");
	for (l = 0; l < NR_LOG_LOCKS; l++)
		scenario_out(fd, "%s\"%s\": {\"acquisitions\": %llu, "
			     "\"contentions\": %llu, \"wait_ns\": %llu, "
			     "\"wait_max_ns\": %llu}", l ? ", " : "",
			     log_lock_classes[l], locks[l].acquisitions,
			     locks[l].contentions, locks[l].wait_total,
			     locks[l].wait_max);
	scenario_out(fd, "}");
}
