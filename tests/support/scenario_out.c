// SPDX-License-Identifier: GPL-2.0
/* The scenarios' JSON output (scenario_out.h). */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <kshim/host.h>
#include <kshim/runtime.h>
#include "scenario_out.h"

int scenario_json_open(const char *name, char *path, int size)
{
	const char *dir = kshim_host_getenv("KSHIM_SCENARIO_OUT") ?: ".";
	int fd;

	snprintf(path, size, "%s/%s", dir, name);
	fd = kshim_host_open_write(path);
	if (fd < 0)
		pr_err("scenario: cannot write %s\n", path);
	return fd;
}

void scenario_out(int fd, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	kshim_host_write_fd(fd, buf, min_t(int, n, sizeof(buf) - 1));
}

void scenario_json_close(int fd, const char *path)
{
	kshim_host_close(fd);
	kshim_info("scenario: wrote %s\n", path);
}
