/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The XFS log's locks as the log scenarios report them
 * (scenario_log_concurrency, scenario_unwritten_conversion): their lock
 * statistics (kshim/lock.h) copied after a run, and written as a JSON
 * object.
 */
#ifndef _SCENARIO_LOG_LOCKS_H
#define _SCENARIO_LOG_LOCKS_H

#include <kshim/lock.h>

/* Named after their initialisation, as lockdep names classes: the grant
 * heads' lock, the CIL's two, the iclogs', the AIL's. */
#define NR_LOG_LOCKS	5
extern const char *const log_lock_classes[NR_LOG_LOCKS];

/* Copies each class's statistics (left as they are if never taken). */
void log_locks_read(struct kshim_lock_class locks[NR_LOG_LOCKS]);

/* Writes "\"locks\": {\"&head->lock\": {...}, ...}" to FD
 * (scenario_out()). */
void log_locks_json(int fd, const struct kshim_lock_class locks[NR_LOG_LOCKS]);

#endif
