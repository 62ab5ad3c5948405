// SPDX-License-Identifier: GPL-2.0
/*
 * Managed device resources (drivers/base/devres.c is not compiled: kshim
 * has no driver model). Real headers declare these and inline helpers
 * call them; nothing kshim runs should reach one.
 */
#include <linux/kernel.h>
#include <linux/device.h>
#include <kshim/runtime.h>

/* ==== Loud stubs: the kernel would do real work here ====================== */

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp)
{
	kshim_unimplemented(__func__);
}

int __devm_add_action(struct device *dev, void (*action)(void *), void *data,
		      const char *name)
{
	kshim_unimplemented(__func__);
}
