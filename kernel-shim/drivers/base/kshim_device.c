// SPDX-License-Identifier: GPL-2.0
/*
 * The driver model's devices and classes (drivers/base/core.c, class.c
 * are not compiled): mm/backing-dev.c registers each bdi as a device of
 * bdi_class, for sysfs. kshim has no sysfs: a device is only its name
 * and driver data. Lost: sysfs attributes, uevents, the device
 * hierarchy. Listed in docs/FAKES.md.
 */
#include <linux/kernel.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/slab.h>
#include <linux/printk.h>

struct kshim_device {
	struct device dev;
	char name[64];
};

struct device *device_create(const struct class *cls, struct device *parent,
			     dev_t devt, void *drvdata, const char *fmt, ...)
{
	struct kshim_device *kd = kzalloc(sizeof(*kd), GFP_KERNEL);
	va_list args;

	if (!kd)
		return ERR_PTR(-ENOMEM);
	va_start(args, fmt);
	vsnprintf(kd->name, sizeof(kd->name), fmt, args);
	va_end(args);
	kd->dev.kobj.name = kd->name;
	kd->dev.class = cls;
	kd->dev.parent = parent;
	kd->dev.devt = devt;
	kref_init(&kd->dev.kobj.kref);
	dev_set_drvdata(&kd->dev, drvdata);
	return &kd->dev;
}

struct device *get_device(struct device *dev)
{
	if (dev)
		kref_get(&dev->kobj.kref);
	return dev;
}

static void kshim_device_release(struct kref *kref)
{
	kfree(container_of(kref, struct kshim_device, dev.kobj.kref));
}

void put_device(struct device *dev)
{
	if (dev)
		kref_put(&dev->kobj.kref, kshim_device_release);
}

void device_unregister(struct device *dev)
{
	put_device(dev);
}

int class_register(const struct class *cls)
{
	return 0;
}

void _dev_warn(const struct device *dev, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_warn("%s: %pV", dev_name(dev), &vaf);
	va_end(args);
}
