/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every iclog write checked as a bio (tests/support/xfs_log_bio.c): a
 * kshim bio observer on the log device reads each write to the log's
 * region, decodes the log record in it (header, then the operation
 * headers) and counts what the 6.12 log promises about its flags:
 *
 *  - every iclog write is REQ_SYNC | REQ_IDLE | REQ_META (xlog_write_iclog:
 *    so writeback throttling never holds the log behind metadata);
 *  - an iclog holding a checkpoint's commit record is REQ_FUA
 *    (xlog_cil_push_work(): "The commit iclog must be written to stable
 *    storage");
 *  - an iclog holding a checkpoint's start record is REQ_PREFLUSH
 *    (xlog_cil_set_ctx_write_state(): the metadata it is about to
 *    overwrite in the log must be stable first);
 *  - the unmount record is REQ_PREFLUSH | REQ_FUA.
 *
 * It also measures how many iclog writes at most were in the volatile
 * write cache at once (not FUA, no cache flush since): log recovery
 * assumes at most XLOG_MAX_ICLOGS of them can be missing or out of order.
 */
#ifndef _TESTS_XFS_LOG_BIO_H
#define _TESTS_XFS_LOG_BIO_H

#include <linux/blk_types.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct xfs_mount;
struct kshim_bdev;

struct log_bio_counts {
	u64 writes;			/* iclog writes (split halves: one) */
	u64 preflush, fua;
	u64 commit_iclogs;		/* writes holding a commit record */
	u64 start_iclogs;		/* writes holding a start record */
	u64 unmount_iclogs;
	u64 undecoded;			/* too big to decode: not checked */
	u64 volatile_max;		/* iclog writes cached at once, most */
	u64 violations;
	char first_violation[200];
};

struct log_bio_trace {
	spinlock_t lock;
	struct kshim_bdev *kb;
	sector_t start, nr;		/* the log's sectors on its device */
	void *buf;			/* one decoded iclog */
	u64 volatile_now;
	void *split_buf;		/* first part of a split record */
	size_t split_have;
	blk_opf_t split_opf;
	struct log_bio_counts c;
};

/**
 * log_bio_trace_start() - check every iclog write of a mount from now on
 * @t: the trace, the caller's storage (contents need not be set)
 * @mp: the mount whose log device to watch
 */
void log_bio_trace_start(struct log_bio_trace *t, struct xfs_mount *mp);

/**
 * log_bio_trace_stop() - stop watching, the device still open
 * @t: a started trace
 *
 * An unmount (or a crash) stops it too.
 */
void log_bio_trace_stop(struct log_bio_trace *t);

/**
 * log_bio_trace_release() - free what log_bio_trace_start() allocated
 * @t: a trace, stopped or its filesystem unmounted
 */
void log_bio_trace_release(struct log_bio_trace *t);

/**
 * log_bio_trace_read() - the counters so far
 * @t: a started trace
 * @out: a copy of the counters, taken under the trace's lock
 *
 * Nothing is asserted: a test asserts on @out->violations and the rest.
 */
void log_bio_trace_read(struct log_bio_trace *t, struct log_bio_counts *out);

#endif
