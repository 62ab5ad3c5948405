/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sysctls without /proc: the tables the real kernel files register
 * (register_sysctl_init(), e.g. "vm" from mm/page-writeback.c) are kept
 * by kshim (kernel-shim/fs/kshim_sysctl.c), and a test writes a value as
 * "echo VALUE > /proc/sys/PATH" would: through the table's own handler,
 * so a handler's side effects (dirty_ratio clearing dirty_bytes, the
 * ratelimit update) happen as in the kernel.
 */
#ifndef _KSHIM_SYSCTL_H
#define _KSHIM_SYSCTL_H

#include <linux/types.h>

/* path: "vm/dirty_ratio". 0, -ENOENT for an unknown path, or the
 * handler's error (-EINVAL for a value out of its range). */
int kshim_sysctl_write(const char *path, const char *value);
int kshim_sysctl_write_ul(const char *path, unsigned long value);
/* The current value as text, without the newline. */
int kshim_sysctl_read(const char *path, char *buf, size_t len);
long kshim_sysctl_read_long(const char *path);

#endif
