/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/device.h: there is no driver model. struct device is an
 * opaque name so headers that mention it compile; the devm_* helpers that
 * lib/bitmap.c defines declare their allocator here. Calling into the
 * driver model aborts (kshim_unimplemented()).
 */
#ifndef _DEVICE_H_
#define _DEVICE_H_

#include <linux/types.h>
#include <linux/gfp.h>

struct device;
struct device_driver;

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp);
int devm_add_action(struct device *dev, void (*action)(void *), void *data);
int devm_add_action_or_reset(struct device *dev, void (*action)(void *),
			     void *data);

#endif
