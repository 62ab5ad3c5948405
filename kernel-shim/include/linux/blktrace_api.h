/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/blktrace_api.h: blktrace is off (CONFIG_BLK_DEV_IO_TRACE
 * unset), and the real header then offers only the stubs below, but it
 * still includes linux/compat.h and linux/relay.h (32-bit syscall
 * compatibility, signal frames), which kshim has no use for. Same
 * interface as the real header with blktrace off.
 */
#ifndef BLKTRACE_H
#define BLKTRACE_H

#include <linux/blk-mq.h>
#include <uapi/linux/blktrace_api.h>
#include <linux/list.h>
#include <linux/blk_types.h>

#ifdef CONFIG_BLK_DEV_IO_TRACE
#error "kshim: CONFIG_BLK_DEV_IO_TRACE needs the real linux/blktrace_api.h"
#endif

#define blk_trace_ioctl(bdev, cmd, arg)			(-ENOTTY)
#define blk_trace_shutdown(q)				do { } while (0)
#define blk_add_driver_data(rq, data, len)		do { } while (0)
#define blk_trace_setup(q, name, dev, bdev, arg)	(-ENOTTY)
#define blk_trace_startstop(q, start)			(-ENOTTY)
#define blk_add_trace_msg(q, fmt, ...)			do { } while (0)
#define blk_add_cgroup_trace_msg(q, cg, fmt, ...)	do { } while (0)
#define blk_trace_note_message_enabled(q)		(false)

static inline int blk_trace_remove(struct request_queue *q)
{
	return -ENOTTY;
}

void blk_fill_rwbs(char *rwbs, blk_opf_t opf);

#endif
