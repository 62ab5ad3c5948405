// SPDX-License-Identifier: GPL-2.0
/*
 * What a task blocked in schedule() waits for, told from its call chain,
 * for the hang reports of both backends (kshim_sched_det.c's and the
 * parallel backend's watchdog, kshim_hung_task.c).
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <kshim/host.h>
#include "kshim_internal.h"

/*
 * The first of these functions found in the chain, most telling first (a
 * flush_work() waits on a completion, which waits in schedule_timeout()).
 * The wait_event() family are macros, so no frame names them: the
 * backtrace's caller line does. NULL if none is found.
 */
const char *kshim_wait_object(void *const *where, int n)
{
	static const struct { const char *fn, *what; } waits[] = {
		{ "__flush_work", "a work item (flush_work)" },
		{ "wait_for_common", "a completion" },
		{ "__wait_on_bit", "a bit (wait_on_bit)" },
		{ "wait_woken", "a wait queue (wait_woken)" },
		{ "msleep", "a timer (msleep)" },
		{ "schedule_timeout", "a timer (schedule_timeout)" },
	};
	static char chain[1024];
	int i;

	if (!n)
		return NULL;
	kshim_host_symbolize(where, n, "kshim_", chain, sizeof(chain));
	for (i = 0; i < ARRAY_SIZE(waits); i++)
		if (strstr(chain, waits[i].fn))
			return waits[i].what;
	return NULL;
}
