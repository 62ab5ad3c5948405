// SPDX-License-Identifier: GPL-2.0
/*
 * KSHIM_DEVICE: one device for every image a run opens, whatever each
 * test asked for. A fast device (the default of most tests) completes I/O
 * almost at once and hides the windows that are open while an I/O is in
 * flight; a slower one, or a shallower queue, opens them. prevalidate's
 * --device passes it to both sides, so base and patched meet the same
 * device, and it is one of the KSHIM_* words of every replay line.
 *
 *	KSHIM_DEVICE=fast | ssd | ssd-reordering | slow-disk | slow
 *	KSHIM_DEVICE=base=200us,jitter=1ms,slow=20ms@1000ppm,qd=4
 *
 * A name gives its latency (kshim/bdev.h's KSHIM_LATENCY_*, the ones
 * tests/support/dev_profile.h describes) and keeps the queue depth; the
 * field form starts from no latency, and each field sets one value
 * (times take ns, us, ms or s). Anything else aborts with the reason.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/time64.h>

#include <kshim/bdev.h>
#include <kshim/host.h>
#include <kshim/runtime.h>

#include "kshim_blk.h"

static const struct {
	const char *name;
	struct kshim_latency latency;
} named[] = {
	{ "fast", {} },
	{ "ssd", KSHIM_LATENCY_SSD },
	{ "ssd-reordering", KSHIM_LATENCY_SSD_REORDERING },
	{ "slow-disk", KSHIM_LATENCY_SLOW_DISK },
	{ "slow", KSHIM_LATENCY_SLOW_DISK },
};

/*
 * What KSHIM_DEVICE says, parsed anew at every open: the parse is pure
 * and cheap, and taking a lock here would add switch points to every
 * deterministic run, moving every seed's schedule.
 */
struct kshim_device {
	const char *spec;
	struct kshim_latency latency;
	unsigned int queue_depth;	/* 0: the test's own */
};

static void __noreturn bad(const struct kshim_device *d, const char *what)
{
	kshim_fatal("KSHIM_DEVICE=%s: %s (a name: fast, ssd, ssd-reordering, slow-disk, slow; or fields: base=T,jitter=T,slow=T@PPMppm,qd=N with T in ns, us, ms or s)",
		    d->spec, what);
}

/* A number at *p, advancing past it; none is an error. */
static u64 number(const struct kshim_device *d, const char **p)
{
	u64 v = 0;

	if (**p < '0' || **p > '9')
		bad(d, "a number expected");
	while (**p >= '0' && **p <= '9')
		v = v * 10 + *(*p)++ - '0';
	return v;
}

static u64 duration(const struct kshim_device *d, const char **p)
{
	static const struct { const char *unit; u64 ns; } units[] = {
		{ "ns", 1 }, { "us", NSEC_PER_USEC }, { "ms", NSEC_PER_MSEC },
		{ "s", NSEC_PER_SEC },
	};
	u64 v = number(d, p);
	int i;

	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strncmp(*p, units[i].unit, strlen(units[i].unit))) {
			*p += strlen(units[i].unit);
			return v * units[i].ns;
		}
	bad(d, "a time needs its unit (ns, us, ms or s)");
}

static void parse_fields(struct kshim_device *d, const char *p)
{
	while (*p) {
		if (!strncmp(p, "base=", 5)) {
			p += 5;
			d->latency.base_ns = duration(d, &p);
		} else if (!strncmp(p, "jitter=", 7)) {
			p += 7;
			d->latency.jitter_ns = duration(d, &p);
		} else if (!strncmp(p, "slow=", 5)) {
			p += 5;
			d->latency.slow_ns = duration(d, &p);
			if (*p++ != '@')
				bad(d, "slow=T@PPMppm: the share of slow I/Os is missing");
			d->latency.slow_ppm = number(d, &p);
			if (strncmp(p, "ppm", 3) || d->latency.slow_ppm > 1000000)
				bad(d, "slow=T@PPMppm: PPM, up to 1000000, then 'ppm'");
			p += 3;
		} else if (!strncmp(p, "qd=", 3)) {
			p += 3;
			d->queue_depth = number(d, &p);
			if (!d->queue_depth)
				bad(d, "qd must be at least 1");
		} else {
			bad(d, "unknown field");
		}
		if (*p && *p++ != ',')
			bad(d, "fields are separated by commas");
	}
}

/* KSHIM_DEVICE into *d; false if it is not set. */
static bool parse(struct kshim_device *d)
{
	int i;

	*d = (struct kshim_device){ .spec = kshim_host_getenv("KSHIM_DEVICE") };
	if (!d->spec || !*d->spec)
		return false;
	for (i = 0; i < ARRAY_SIZE(named); i++)
		if (!strcmp(d->spec, named[i].name)) {
			d->latency = named[i].latency;
			return true;
		}
	if (!strchr(d->spec, '='))
		bad(d, "not a device name");
	parse_fields(d, d->spec);
	return true;
}

/* Called by kshim_bdev_open(): KSHIM_DEVICE, if set, replaces the
 * test's latency (and queue depth, if it gives one), said once a run. */
void kshim_blk_device_override(struct kshim_bdev_config *cfg)
{
	static int said;
	char qd[32] = "each test's";
	struct kshim_device d;

	if (!parse(&d))
		return;
	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED)) {
		if (d.queue_depth)
			snprintf(qd, sizeof(qd), "%u", d.queue_depth);
		pr_warn("kshim: KSHIM_DEVICE=%s: every device takes %llu-%llu us per I/O%s, queue depth %s (the tests' own device settings replaced)\n",
			d.spec, d.latency.base_ns / NSEC_PER_USEC,
			(d.latency.base_ns + d.latency.jitter_ns) /
			NSEC_PER_USEC,
			d.latency.slow_ppm ? " and sometimes more" : "", qd);
	}
	cfg->latency = d.latency;
	if (d.queue_depth)
		cfg->queue_depth = d.queue_depth;
}
