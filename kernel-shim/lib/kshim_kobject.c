// SPDX-License-Identifier: GPL-2.0
/*
 * kobjects without sysfs (lib/kobject.c is not compiled: there is no
 * sysfs to add them to). What callers rely on is kept: the reference
 * count, and ktype->release() when the last reference goes, which is
 * where XFS frees or completes what the kobject is embedded in
 * (xfs_sysfs_release() completes the kobject's completion). Listed in
 * docs/FAKES.md.
 */
#include <linux/kobject.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kshim/runtime.h>

int kobject_init_and_add(struct kobject *kobj, const struct kobj_type *ktype,
			 struct kobject *parent, const char *fmt, ...)
{
	va_list ap;

	if (!kobj || !ktype)
		kshim_fatal("kobject_init_and_add: %s is NULL",
			    kobj ? "the ktype" : "the kobject");
	if (kobj->state_initialized)
		kshim_fatal("kobject %p initialised twice", kobj);
	/* As kobject_init(): the caller's kset stays. */
	kref_init(&kobj->kref);
	INIT_LIST_HEAD(&kobj->entry);
	kobj->ktype = ktype;
	kobj->parent = parent;
	kobj->state_initialized = 1;
	va_start(ap, fmt);
	kobj->name = kvasprintf(GFP_KERNEL, fmt, ap);
	va_end(ap);
	return kobj->name ? 0 : -ENOMEM;
}

void kobject_del(struct kobject *kobj)
{
	/* Nothing was added to sysfs; the references stay. */
}

static void kobject_release(struct kref *kref)
{
	struct kobject *kobj = container_of(kref, struct kobject, kref);
	const char *name = kobj->name;

	if (kobj->ktype->release)
		kobj->ktype->release(kobj);
	else
		kshim_report("kobject '%s' has no release function", name);
	kfree(name);
}

void kobject_put(struct kobject *kobj)
{
	if (!kobj)
		return;
	if (!kobj->state_initialized)
		kshim_fatal("kobject_put of an uninitialised kobject %p", kobj);
	kref_put(&kobj->kref, kobject_release);
}

/*
 * ksets without sysfs: a kset is a kobject that others name as their
 * parent; XFS's init makes /sys/fs/xfs one (xfs_kset). fs_kobj is
 * fs/namespace.c's /sys/fs.
 */
struct kobject *fs_kobj;

static void kset_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct kset, kobj));
}

static const struct kobj_type kset_ktype = {
	.release = kset_release,
};

struct kset *kset_create_and_add(const char *name,
				 const struct kset_uevent_ops *uevent_ops,
				 struct kobject *parent_kobj)
{
	struct kset *kset = kzalloc(sizeof(*kset), GFP_KERNEL);

	if (!kset)
		return NULL;
	INIT_LIST_HEAD(&kset->list);
	spin_lock_init(&kset->list_lock);
	kset->uevent_ops = uevent_ops;
	if (kobject_init_and_add(&kset->kobj, &kset_ktype, parent_kobj,
				 "%s", name)) {
		kfree(kset);
		return NULL;
	}
	return kset;
}

void kset_unregister(struct kset *kset)
{
	if (kset)
		kobject_put(&kset->kobj);
}
