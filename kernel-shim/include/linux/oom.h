/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/oom.h: kshim has no OOM killer (an allocation that finds
 * no memory fails or, with __GFP_NOFAIL, stops the run: kshim_page_alloc.c),
 * so no task is ever an OOM victim or the origin of an OOM kill. The real
 * header reads task->signal, which kshim's tasks do not have. mm/vmscan.c
 * includes it and uses none of it.
 */
#ifndef _INCLUDE_LINUX_OOM_H
#define _INCLUDE_LINUX_OOM_H

#include <linux/types.h>
#include <linux/sched.h>
#include <uapi/linux/oom.h>

static inline bool tsk_is_oom_victim(struct task_struct *tsk)
{
	return false;
}

#endif
