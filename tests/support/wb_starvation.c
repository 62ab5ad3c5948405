// SPDX-License-Identifier: GPL-2.0
/* Seed 004's workload, measurement and report (wb_starvation.h). */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>
#include <kshim/host.h>
#include <kshim/runtime.h>
#include <kshim/sysctl.h>
#include "scenario_out.h"
#include "wb_starvation.h"

#define SAMPLE_MS	250
#define SMALL_MAX	(10 * 1024)
#define LARGE_CHUNK	(1 << 20)	/* dd bs=1024k, as in the report */

struct sample {
	u64 t_ms;
	unsigned long large_dirty, large_written, small_files;
	u64 bytes_written;
};

static struct {
	const struct wbs_ops *ops;
	const struct wbs_regime *r;
	const struct wbs_params *p;
	atomic_t nr_small;
	bool stop, writer_done;
	unsigned long large_app_pages;	/* written by the task, in pages */
	u64 t_start_ns, t_done_ns, real_start_ns, real_done_ns;
	u64 bytes_at_start;
	struct sample *samples;
	int nr_samples, max_samples;
} s;

static void creator_fn(void *arg)
{
	u64 rnd = kshim_seed() ^ (unsigned long)arg;
	u8 *buf = kmalloc(SMALL_MAX, GFP_KERNEL | __GFP_NOFAIL);

	while (!READ_ONCE(s.stop)) {
		int i = atomic_inc_return(&s.nr_small) - 1;
		size_t len = 1024 + kshim_random(&rnd) % (9 * 1024);

		if (i >= s.p->max_small) {
			atomic_dec(&s.nr_small);
			break;
		}
		memset(buf, (u8)i, len);
		s.ops->create_small(i, buf, len);
		schedule_timeout_uninterruptible(
				msecs_to_jiffies(s.p->pause_ms));
	}
	kfree(buf);
}

static void large_writer_fn(void *arg)
{
	size_t len = (size_t)s.r->large_mb << 20;
	u8 *buf = kvmalloc(LARGE_CHUNK, GFP_KERNEL | __GFP_NOFAIL);
	loff_t pos = 0;

	memset(buf, 0xa5, LARGE_CHUNK);
	s.t_start_ns = kshim_clock_ns();
	while (pos < len) {
		size_t n = min_t(size_t, len - pos, LARGE_CHUNK);

		s.ops->write_large(pos, buf, n);
		pos += n;
		WRITE_ONCE(s.large_app_pages, pos >> PAGE_SHIFT);
	}
	kvfree(buf);
	WRITE_ONCE(s.writer_done, true);
}

static void sample(void)
{
	struct sample *p = &s.samples[s.nr_samples++];
	unsigned long on_disk = s.ops->large_written();
	unsigned long app = READ_ONCE(s.large_app_pages);

	p->t_ms = (kshim_clock_ns() - s.t_start_ns) / NSEC_PER_MSEC;
	p->large_written = on_disk;
	p->large_dirty = app - min(on_disk, app);
	p->small_files = atomic_read(&s.nr_small);
	p->bytes_written = s.ops->bytes_written() - s.bytes_at_start;
}

void wbs_set_thresholds(const struct wbs_regime *r, unsigned int expire_cs,
			unsigned int period_cs)
{
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write_ul("vm/dirty_background_bytes",
						    r->bg_mb << 20), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write_ul("vm/dirty_bytes",
						    r->dirty_mb << 20), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write_ul("vm/dirty_expire_centisecs",
						    expire_cs), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write_ul(
			"vm/dirty_writeback_centisecs", period_cs), 0);
}

/* ==== Output ============================================================== */

static void write_json(const struct wbs_result *res, unsigned long large_passes,
		       unsigned long small_passes, double creates_per_s)
{
	const struct wbs_regime *r = s.r;
	char name[128], path[512];
	int fd, i;

	snprintf(name, sizeof(name), "%s_%s.json", s.ops->scenario, r->name);
	fd = scenario_json_open(name, path, sizeof(path));
	if (fd < 0)
		return;
	scenario_out(fd, "{\n  \"scenario\": \"%s\",\n  \"fs\": \"%s\",\n"
	    "  \"regime\": \"%s\",\n  \"seed\": %llu,\n", s.ops->scenario,
	    s.ops->fs, r->name, (unsigned long long)kshim_seed());
	scenario_out(fd, "  \"dirty_background_mb\": %lu,\n  \"dirty_mb\": %lu,\n",
	    r->bg_mb, r->dirty_mb);
	scenario_out(fd, "  \"dirty_expire_cs\": %u,\n  \"dirty_writeback_cs\": %u,\n",
	    s.p->expire_cs, s.p->period_cs);
	scenario_out(fd, "  \"backend\": \"%s\",\n",
	    kshim_host_getenv("KSHIM_BACKEND") ?: "parallel");
	scenario_out(fd, "  \"large_mb\": %lu,\n  \"creators\": %d,\n"
	    "  \"create_pause_ms\": %u,\n", r->large_mb, s.p->creators,
	    s.p->pause_ms);
	scenario_out(fd, "  \"large_completion_ms\": %llu,\n",
	    (unsigned long long)res->done_ms);
	scenario_out(fd, "  \"bound_ms\": %llu,\n", (unsigned long long)res->bound_ms);
	scenario_out(fd, "  \"real_ms\": %llu,\n", (unsigned long long)res->real_ms);
	scenario_out(fd, "  \"large_share_pct\": %d.%d,\n", (int)res->share,
	    (int)(res->share * 10) % 10);
	scenario_out(fd, "  \"small_files\": %lu,\n", res->small_files);
	scenario_out(fd, "  \"small_creates_per_s\": %d,\n", (int)creates_per_s);
	scenario_out(fd, "  \"large_writepages_passes\": %lu,\n", large_passes);
	scenario_out(fd, "  \"small_writepages_passes\": %lu,\n", small_passes);
	scenario_out(fd, "  \"verdict\": \"%s\",\n  \"samples\": [\n",
	    res->pass ? "pass" : "FAIL");
	for (i = 0; i < s.nr_samples; i++)
		scenario_out(fd, "    [%llu, %lu, %lu, %lu, %llu]%s\n",
		    (unsigned long long)s.samples[i].t_ms,
		    s.samples[i].large_dirty, s.samples[i].large_written,
		    s.samples[i].small_files,
		    (unsigned long long)s.samples[i].bytes_written,
		    i + 1 < s.nr_samples ? "," : "");
	scenario_out(fd, "  ],\n  \"sample_columns\": [\"t_ms\", \"large_dirty_pages\", "
	    "\"large_written_pages\", \"small_files\", \"bytes_written\"]\n}\n");
	scenario_json_close(fd, path);
}

/* ==== The run ============================================================= */

bool wbs_run(const struct wbs_ops *ops, const struct wbs_regime *r,
	     const struct wbs_params *p, struct wbs_result *out)
{
	const unsigned long large_pages = r->large_mb << (20 - PAGE_SHIFT);
	struct task_struct **creators, *writer;
	unsigned long large_passes = 0, small_passes = 0;
	struct wbs_result res = { };
	u64 bytes_at_done;
	double creates_per_s;
	bool done;
	int i;

	memset(&s, 0, sizeof(s));
	s.ops = ops;
	s.r = r;
	s.p = p;
	s.max_samples = p->give_up_s * 1000 / SAMPLE_MS + 2;
	s.samples = vzalloc(sizeof(*s.samples) * s.max_samples);
	creators = kcalloc(p->creators, sizeof(*creators), GFP_KERNEL);
	KSHIM_ASSERT_FATAL(s.samples && creators);

	s.bytes_at_start = ops->bytes_written();
	s.real_start_ns = kshim_host_clock_ns();
	s.t_start_ns = kshim_clock_ns();
	for (i = 0; i < p->creators; i++)
		creators[i] = kshim_task_run(creator_fn, (void *)(long)i,
					     "creator", -1);
	writer = kshim_task_run(large_writer_fn, NULL, "large", -1);

	for (;;) {
		done = READ_ONCE(s.writer_done) && ops->large_done();
		if (done || s.nr_samples >= s.max_samples - 1 ||
		    kshim_clock_ns() - s.t_start_ns >=
				(u64)p->give_up_s * NSEC_PER_SEC)
			break;
		sample();
		schedule_timeout_uninterruptible(msecs_to_jiffies(SAMPLE_MS));
	}
	s.t_done_ns = kshim_clock_ns();
	s.real_done_ns = kshim_host_clock_ns();
	bytes_at_done = ops->bytes_written() - s.bytes_at_start;
	sample();
	WRITE_ONCE(s.stop, true);
	for (i = 0; i < p->creators; i++)
		kshim_task_join(creators[i]);
	kshim_task_join(writer);
	res.small_files = atomic_read(&s.nr_small);

	ops->passes(&large_passes, &small_passes);
	res.done_ms = (s.t_done_ns - s.t_start_ns) / NSEC_PER_MSEC;
	res.real_ms = (s.real_done_ns - s.real_start_ns) / NSEC_PER_MSEC;
	res.bound_ms = (u64)p->expire_cs * 10 + 2ull * p->period_cs * 10 +
		       4 * p->transfer_ms;
	res.share = bytes_at_done ?
		    100.0 * ((u64)r->large_mb << 20) / bytes_at_done : 0;
	creates_per_s = res.done_ms ? res.small_files * 1000.0 / res.done_ms : 0;
	res.pass = done && res.done_ms <= res.bound_ms;

	kshim_info("\nscenario %s, %s regime: %lu MiB file on %s, background threshold %lu MiB, %d small-file creators, %s backend\n",
		ops->scenario, r->name, r->large_mb, ops->fs, r->bg_mb,
		p->creators, kshim_host_getenv("KSHIM_BACKEND") ?: "parallel");
	kshim_info("  %-40s %10llu ms (virtual)\n", "large file on disk after",
		(unsigned long long)res.done_ms);
	kshim_info("  %-40s %10llu ms\n", "bound (expire + 2 periods + 4x transfer)",
		(unsigned long long)res.bound_ms);
	kshim_info("  %-40s %10llu ms\n", "real time",
		(unsigned long long)res.real_ms);
	kshim_info("  %-40s %10lu of %lu pages\n", "large file written",
		ops->large_written(), large_pages);
	kshim_info("  %-40s %9d.%d %%\n", "large file share of bytes written",
		(int)res.share, (int)(res.share * 10) % 10);
	kshim_info("  %-40s %10lu (%d/s virtual)\n", "small files created",
		res.small_files, (int)creates_per_s);
	kshim_info("  %-40s %10lu\n", "writepages passes, large file", large_passes);
	kshim_info("  %-40s %10lu (%lu.%02lu per file)\n", "writepages passes, small files",
		small_passes,
		res.small_files ? small_passes / res.small_files : 0,
		res.small_files ? small_passes * 100 / res.small_files % 100 : 0);
	kshim_info("  %-40s %10s\n", "verdict", res.pass ? "pass" : "FAIL");
	write_json(&res, large_passes, small_passes, creates_per_s);

	vfree(s.samples);
	kfree(creators);
	if (out)
		*out = res;
	return res.pass;
}
