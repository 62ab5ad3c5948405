/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every scenario writes besides its table: a JSON file in
 * $KSHIM_SCENARIO_OUT (default: the current directory), which
 * kshim prevalidate compares and the plot scripts read.
 */
#ifndef _SCENARIO_OUT_H
#define _SCENARIO_OUT_H

#include <linux/compiler.h>

/* Open $KSHIM_SCENARIO_OUT/name for writing; -1 (and says so) if not. */
int scenario_json_open(const char *name, char *path, int size);
/* printf to fd; a line longer than 1 KiB is cut. */
void __printf(2, 3) scenario_out(int fd, const char *fmt, ...);
/* Close it and say where it went. */
void scenario_json_close(int fd, const char *path);

#endif
