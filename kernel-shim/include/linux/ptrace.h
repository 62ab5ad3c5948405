/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/ptrace.h: the real one is the tracer/tracee machinery
 * (task->parent, ->ptrace, job control, signal delivery). Nothing traces
 * a kshim task and kshim delivers no signals, so only the uapi constants
 * and the register type are offered; linux/audit.h (reached from
 * linux/fsnotify.h) is what includes it. Lost: nothing that runs.
 */
#ifndef _LINUX_PTRACE_H
#define _LINUX_PTRACE_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/err.h>
#include <linux/bug.h>
#include <uapi/linux/ptrace.h>
#include <asm/ptrace.h>
/* The real one reaches it (through linux/pid_namespace.h): linux/audit.h
 * relies on it for kuid_t. */
#include <linux/uidgid.h>

/* linux/audit.h's stubs take pointers to these, which the real one's
 * headers (linux/signal.h, linux/fcntl.h) declare: named here so that a
 * parameter's struct is not one of its own (gcc's "declared inside
 * parameter list" warning, and a type no caller could match). */
struct sigevent;
struct open_how;

#endif
