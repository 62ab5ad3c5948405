/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's trace/syscall.h: linux/syscalls.h includes it for the ftrace
 * syscall metadata, and the real one pulls in the whole tracing and perf
 * world (linux/trace_events.h, linux/perf_event.h, ptrace). kshim has no
 * syscall entry and CONFIG_FTRACE_SYSCALLS is off, so only the type is
 * named. Lost: nothing that runs.
 */
#ifndef _TRACE_SYSCALL_H
#define _TRACE_SYSCALL_H

#include <linux/tracepoint.h>
#include <linux/unistd.h>
#include <linux/thread_info.h>
/* The real one reaches linux/poll.h (through linux/trace_events.h and
 * linux/ring_buffer.h), and files rely on it: poll.h defines and then
 * undefines its own __MAP, which would remove linux/syscalls.h's if
 * poll.h came later (fs/namei.c includes fs/mount.h after syscalls.h). */
#include <linux/poll.h>
/* And linux/error-injection.h (through linux/module.h), whose
 * ALLOW_ERROR_INJECTION() linux/syscalls.h uses. */
#include <linux/error-injection.h>

struct syscall_metadata;
struct trace_event_call;	/* the real one has linux/trace_events.h */

#endif
