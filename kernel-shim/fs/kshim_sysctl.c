// SPDX-License-Identifier: GPL-2.0
/*
 * Sysctl tables without /proc (kshim/sysctl.h). fs/proc/proc_sysctl.c
 * (the /proc/sys tree) and kernel/sysctl.c (the proc_do*() text
 * handlers, which drag in the networking headers) are not compiled:
 *
 * - register: kshim keeps the registered tables in a list by path;
 * - the handlers below parse and print one value as the kernel's do,
 *   with the same range checks (extra1/extra2) and errors. Lost: vector
 *   entries (maxlen of several values; refused loudly), user-space
 *   buffers and partial writes at an offset.
 *
 * Listed in docs/FAKES.md.
 */
#include <linux/sysctl.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/jiffies.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <kshim/runtime.h>
#include <kshim/sysctl.h>

/* The kernel's shared range bounds (kernel/sysctl.c), same order. */
const int sysctl_vals[] = { 0, 1, 2, 3, 4, 100, 200, 1000, 3000, INT_MAX,
			    65535, -1 };
const unsigned long sysctl_long_vals[] = { 0, 1, LONG_MAX };

struct kshim_sysctl_dir {
	struct list_head list;
	const char *path;
	const struct ctl_table *table;
	size_t count;
};

static LIST_HEAD(dirs);
static DEFINE_MUTEX(dirs_lock);

void __init __register_sysctl_init(const char *path, struct ctl_table *table,
				   const char *table_name, size_t table_size)
{
	struct kshim_sysctl_dir *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		kshim_fatal("cannot register sysctl table %s", table_name);
	d->path = path;
	d->table = table;
	d->count = table_size;
	mutex_lock(&dirs_lock);
	list_add_tail(&d->list, &dirs);
	mutex_unlock(&dirs_lock);
}

static const struct ctl_table *lookup(const char *path)
{
	const char *slash = strrchr(path, '/');
	struct kshim_sysctl_dir *d;
	size_t i;

	if (!slash)
		return NULL;
	list_for_each_entry(d, &dirs, list) {
		if (strlen(d->path) != slash - path ||
		    strncmp(d->path, path, slash - path))
			continue;
		for (i = 0; i < d->count; i++)
			if (d->table[i].procname &&
			    !strcmp(d->table[i].procname, slash + 1))
				return &d->table[i];
	}
	return NULL;
}

static int call(const char *path, int write, char *buf, size_t len)
{
	const struct ctl_table *t;
	loff_t pos = 0;
	int ret;

	mutex_lock(&dirs_lock);
	t = lookup(path);
	mutex_unlock(&dirs_lock);
	if (!t) {
		pr_err("kshim: no sysctl %s\n", path);
		return -ENOENT;
	}
	ret = t->proc_handler(t, write, buf, &len, &pos);
	if (!write && !ret)
		buf[min(len, (size_t)strlen(buf))] = '\0';
	return ret;
}

int kshim_sysctl_write(const char *path, const char *value)
{
	char buf[64];

	strscpy(buf, value, sizeof(buf));
	return call(path, 1, buf, strlen(buf));
}

int kshim_sysctl_write_ul(const char *path, unsigned long value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu", value);
	return kshim_sysctl_write(path, buf);
}

int kshim_sysctl_read(const char *path, char *buf, size_t len)
{
	return call(path, 0, buf, len);
}

long kshim_sysctl_read_long(const char *path)
{
	char buf[32];
	long v;
	int ret = kshim_sysctl_read(path, buf, sizeof(buf));

	if (ret)
		return ret;
	if (kstrtol(buf, 10, &v))
		kshim_fatal("sysctl %s reads as \"%s\"", path, buf);
	return v;
}

/* ==== The handlers (kernel/sysctl.c's, for one value) ===================== */

static void one_value(const struct ctl_table *t, size_t size)
{
	if (t->maxlen != size)
		kshim_fatal("sysctl %s: vectors are not supported by kshim",
			    t->procname);
}

static int show(char *buf, size_t *lenp, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, *lenp, fmt, ap);
	va_end(ap);
	*lenp = min_t(size_t, n, *lenp);
	return 0;
}

static int parse_long(char *buf, long *v)
{
	return kstrtol(buf, 10, v) ? -EINVAL : 0;
}

static int do_int(const struct ctl_table *t, int write, char *buf,
		  size_t *lenp, const int *min, const int *max, int scale)
{
	int *val = t->data;
	long v;

	one_value(t, sizeof(int));
	if (!write)
		return show(buf, lenp, "%d\n", *val / scale);
	if (parse_long(buf, &v) || v > INT_MAX / scale || v < INT_MIN / scale)
		return -EINVAL;
	v *= scale;
	if ((min && v < *min) || (max && v > *max))
		return -EINVAL;
	WRITE_ONCE(*val, v);
	return 0;
}

int proc_dointvec(const struct ctl_table *t, int write, void *buf,
		  size_t *lenp, loff_t *ppos)
{
	return do_int(t, write, buf, lenp, NULL, NULL, 1);
}

int proc_dointvec_minmax(const struct ctl_table *t, int write, void *buf,
			 size_t *lenp, loff_t *ppos)
{
	return do_int(t, write, buf, lenp, t->extra1, t->extra2, 1);
}

/* The value is seconds; the variable holds jiffies. */
int proc_dointvec_jiffies(const struct ctl_table *t, int write, void *buf,
			  size_t *lenp, loff_t *ppos)
{
	return do_int(t, write, buf, lenp, NULL, NULL, HZ);
}

int proc_doulongvec_minmax(const struct ctl_table *t, int write, void *buf,
			   size_t *lenp, loff_t *ppos)
{
	unsigned long *val = t->data, v;
	const unsigned long *min = t->extra1, *max = t->extra2;

	one_value(t, sizeof(unsigned long));
	if (!write)
		return show(buf, lenp, "%lu\n", *val);
	if (kstrtoul(buf, 10, &v))
		return -EINVAL;
	if ((min && v < *min) || (max && v > *max))
		return -EINVAL;
	WRITE_ONCE(*val, v);
	return 0;
}
