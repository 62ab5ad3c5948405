/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every scenario writes besides its table: a JSON file in
 * $KSHIM_SCENARIO_OUT (default: the current directory), which
 * kshim prevalidate compares and the plot scripts read.
 */
#ifndef _SCENARIO_OUT_H
#define _SCENARIO_OUT_H

#include <linux/compiler.h>

/**
 * scenario_json_open() - open the scenario's JSON file for writing
 * @name: the file name, e.g. "log_concurrency.json"
 * @path: receives $KSHIM_SCENARIO_OUT/@name
 * @size: @path's size
 *
 * Return: a file descriptor, or -1 (and says so) if it cannot be written.
 */
int scenario_json_open(const char *name, char *path, int size);

/**
 * scenario_out() - printf to the JSON file
 * @fd: from scenario_json_open()
 * @fmt: printf format; a line longer than 1 KiB is cut
 */
void __printf(2, 3) scenario_out(int fd, const char *fmt, ...);

/**
 * scenario_json_close() - close the JSON file and say where it went
 * @fd: from scenario_json_open()
 * @path: its path, for the message
 */
void scenario_json_close(int fd, const char *path);

#endif
