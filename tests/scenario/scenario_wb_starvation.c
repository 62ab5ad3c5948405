// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario: a large file's writeback starved by small-file
 * creation. ../shared/context/seeds/004_6563f4e94b6a22f8.txt: a large
 * file waited an hour while thousands of small files were created,
 * because a slice-exhausted inode went back to b_dirty with a fresh
 * dirtied_when instead of to b_more_io.
 *
 * Workload, on wbfs over a kshim block device (1 ms per I/O, queue depth
 * 8), with the real flusher (fs/fs-writeback.c), dirty throttling and
 * thresholds (mm/page-writeback.c):
 * - CREATORS tasks create small files (1-10 KiB, seeded) continuously,
 *   each pausing 2 ms between files, and keep them;
 * - one task writes a large file of LARGE_MB (4x the background
 *   threshold of 16 MiB; the dirty limit is 48 MiB) in 1 MiB writes.
 * Kernel defaults otherwise: dirty_expire 30 s, dirty_writeback 5 s.
 *
 * Measured (virtual time in the deterministic backend, and real time):
 * the large file's dirty pages over time, its completion time (from its
 * first write until all of it is on the device), its share of the bytes
 * written meanwhile, the small-file create rate, and how many
 * ->writepages passes touched the large file and the small ones.
 *
 * Pass/fail criterion: the large file is on disk within
 *   dirty_expire + 2 x dirty_writeback + 4 x (size / device bandwidth),
 * where the device bandwidth is the large file's own rate of writing
 * once it is being written (size over its sequential-write time at the
 * device's service rate). Reason: once the large file has expired, the
 * flusher owes it a fair share of every pass (b_more_io round robin), so
 * it must finish within a small multiple of its transfer time after one
 * expiry and one flusher period. With the 2006 behaviour each 16 MiB
 * slice waits another 30 s expiry behind the young small files, and the
 * bound is missed by minutes (writeback/patches/0001-...).
 *
 * Output: a table on stdout, JSON with the time series to
 * $KSHIM_SCENARIO_OUT (default wb_starvation.json), for
 * ./kshim plot.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>
#include <linux/backing-dev.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>
#include <kshim/host.h>
#include <kshim/runtime.h>
#include <kshim/host_disk.h>
#include <kshim/bdev.h>
#include <kshim/wbfs.h>
#include <kshim/sysctl.h>
#include "../support/scenario_out.h"

#define CREATORS	4
#define MAX_SMALL	30000
#define CREATE_PAUSE_MS	20
#define IO_LATENCY_NS	(1 * NSEC_PER_MSEC)
#define QUEUE_DEPTH	8
#define SAMPLE_MS	250
#define GIVE_UP_S	900		/* virtual seconds */
#define MAX_SAMPLES	(GIVE_UP_S * 1000 / SAMPLE_MS + 1)

static char img[128];
static struct kshim_bdev *kb;
static struct super_block *sb;

struct sample {
	u64 t_ms;
	unsigned long large_dirty, large_written, small_files;
	u64 bytes_written;
};

struct regime {
	const char *name;
	unsigned long bg_mb, dirty_mb, large_mb;
};

static struct {
	const struct regime *r;
	struct inode *large;
	struct inode **small;
	atomic_t nr_small;
	bool stop;
	unsigned long large_app_pages;	/* written by the task, in pages */
	u64 t_start_ns, t_large_written_ns, t_done_ns;
	u64 real_start_ns, real_done_ns;
	struct sample *samples;
	int nr_samples;
} s;

static void write_bytes(struct inode *inode, loff_t pos, size_t len, u8 v)
{
	static const size_t chunk = 1 << 20;
	void *buf = kmalloc(min(len, chunk), GFP_KERNEL);

	KSHIM_ASSERT_FATAL(buf);
	memset(buf, v, min(len, chunk));
	while (len) {
		size_t n = min(len, chunk);

		KSHIM_ASSERT_EQ_FATAL(kshim_wbfs_write(inode, pos, buf, n), n);
		pos += n;
		len -= n;
		if (inode == s.large)
			WRITE_ONCE(s.large_app_pages, pos >> PAGE_SHIFT);
	}
	kfree(buf);
}

static void creator_fn(void *arg)
{
	u64 rnd = kshim_seed() ^ (unsigned long)arg;

	while (!READ_ONCE(s.stop)) {
		int i = atomic_inc_return(&s.nr_small) - 1;
		size_t len = 1024 + kshim_random(&rnd) % (9 * 1024);
		struct inode *inode;

		if (i >= MAX_SMALL) {
			atomic_dec(&s.nr_small);
			break;
		}
		inode = kshim_wbfs_create(sb, len);
		KSHIM_ASSERT_FATAL(!IS_ERR(inode));
		write_bytes(inode, 0, len, i);
		s.small[i] = inode;
		schedule_timeout_uninterruptible(msecs_to_jiffies(CREATE_PAUSE_MS));
	}
}

static void large_writer_fn(void *arg)
{
	s.t_start_ns = kshim_clock_ns();
	write_bytes(s.large, 0, (size_t)s.r->large_mb << 20, 0xa5);
	s.t_large_written_ns = kshim_clock_ns();
}

static unsigned long large_on_disk(void)
{
	struct kshim_wbfs_inode_stats st;

	kshim_wbfs_get_stats(s.large, &st);
	return st.pages_written;
}

static void sample(void)
{
	struct sample *p = &s.samples[s.nr_samples++];
	unsigned long on_disk = large_on_disk();

	p->t_ms = (kshim_clock_ns() - s.t_start_ns) / NSEC_PER_MSEC;
	p->large_written = on_disk;
	p->large_dirty = READ_ONCE(s.large_app_pages) - min(on_disk,
					READ_ONCE(s.large_app_pages));
	p->small_files = atomic_read(&s.nr_small);
	p->bytes_written = kshim_wbfs_bytes_written(sb);
}

static void set(const char *knob, unsigned long v)
{
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write_ul(knob, v), 0);
}

/* ==== Output ============================================================== */

static void write_json(const char *path, const char *verdict, u64 bound_ms,
		       unsigned long large_passes, unsigned long small_passes,
		       unsigned long small_files, double share,
		       double creates_per_s)
{
	int fd = kshim_host_open_write(path);
	int i;

	if (fd < 0) {
		pr_err("scenario: cannot write %s\n", path);
		return;
	}
	scenario_out(fd, "{\n  \"scenario\": \"wb_starvation\",\n  \"regime\": \"%s\",\n"
	    "  \"seed\": %llu,\n", s.r->name, (unsigned long long)kshim_seed());
	scenario_out(fd, "  \"dirty_background_mb\": %lu,\n  \"dirty_mb\": %lu,\n",
	    s.r->bg_mb, s.r->dirty_mb);
	scenario_out(fd, "  \"backend\": \"%s\",\n",
	    kshim_host_getenv("KSHIM_BACKEND") ?: "parallel");
	scenario_out(fd, "  \"large_mb\": %lu,\n  \"creators\": %d,\n", s.r->large_mb, CREATORS);
	scenario_out(fd, "  \"large_completion_ms\": %llu,\n",
	    (unsigned long long)((s.t_done_ns - s.t_start_ns) / NSEC_PER_MSEC));
	scenario_out(fd, "  \"bound_ms\": %llu,\n", (unsigned long long)bound_ms);
	scenario_out(fd, "  \"real_ms\": %llu,\n",
	    (unsigned long long)((s.real_done_ns - s.real_start_ns) / NSEC_PER_MSEC));
	scenario_out(fd, "  \"large_share_pct\": %d.%d,\n", (int)share, (int)(share * 10) % 10);
	scenario_out(fd, "  \"small_files\": %lu,\n", small_files);
	scenario_out(fd, "  \"small_creates_per_s\": %d,\n", (int)creates_per_s);
	scenario_out(fd, "  \"large_writepages_passes\": %lu,\n", large_passes);
	scenario_out(fd, "  \"small_writepages_passes\": %lu,\n", small_passes);
	scenario_out(fd, "  \"verdict\": \"%s\",\n  \"samples\": [\n", verdict);
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

static void run(const struct regime *r)
{
	struct kshim_bdev_config cfg = {
		.path = img, .queue_depth = QUEUE_DEPTH,
		.latency = { .base_ns = IO_LATENCY_NS },
	};
	const unsigned long large_pages = r->large_mb << (20 - PAGE_SHIFT);
	struct task_struct *creators[CREATORS], *writer;
	unsigned long large_passes, small_passes = 0, small_files, n;
	struct kshim_wbfs_inode_stats st;
	u64 bound_ms, done_ms, bytes_at_done, transfer_ms;
	const char *dir = kshim_host_getenv("KSHIM_SCENARIO_OUT") ?: ".";
	char path[256];
	double share, creates_per_s;
	const char *verdict;
	int i;

	memset(&s, 0, sizeof(s));
	s.r = r;
	snprintf(path, sizeof(path), "%s/wb_starvation_%s.json", dir, r->name);
	s.samples = vzalloc(sizeof(*s.samples) * MAX_SAMPLES);
	s.small = vzalloc(sizeof(*s.small) * MAX_SMALL);
	KSHIM_ASSERT_FATAL(s.samples && s.small);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      1ULL << 30, 1), 0);
	kb = kshim_bdev_open(&cfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	sb = kshim_wbfs_mount(kb, MAX_SMALL + 16);
	KSHIM_ASSERT_FATAL(!IS_ERR(sb));
	/* The only disk gets the whole dirty budget from the start (a new
	 * bdi's share is 0 until its first writeouts; see test_writeback). */
	KSHIM_ASSERT_EQ_FATAL(bdi_set_min_ratio(sb->s_bdi, 99), 0);
	set("vm/dirty_background_bytes", r->bg_mb << 20);
	set("vm/dirty_bytes", r->dirty_mb << 20);
	set("vm/dirty_expire_centisecs", 3000);
	set("vm/dirty_writeback_centisecs", 500);

	s.large = kshim_wbfs_create(sb, (u64)r->large_mb << 20);
	KSHIM_ASSERT_FATAL(!IS_ERR(s.large));
	s.real_start_ns = kshim_host_clock_ns();
	s.t_start_ns = kshim_clock_ns();
	for (i = 0; i < CREATORS; i++)
		creators[i] = kshim_task_run(creator_fn, (void *)(long)i,
					     "creator", -1);
	writer = kshim_task_run(large_writer_fn, NULL, "large", -1);

	while (large_on_disk() < large_pages &&
	       kshim_clock_ns() - s.t_start_ns < GIVE_UP_S * NSEC_PER_SEC &&
	       s.nr_samples < MAX_SAMPLES) {
		sample();
		schedule_timeout_uninterruptible(msecs_to_jiffies(SAMPLE_MS));
	}
	s.t_done_ns = kshim_clock_ns();
	s.real_done_ns = kshim_host_clock_ns();
	bytes_at_done = kshim_wbfs_bytes_written(sb);
	sample();
	WRITE_ONCE(s.stop, true);
	for (i = 0; i < CREATORS; i++)
		kshim_task_join(creators[i]);
	kshim_task_join(writer);

	kshim_wbfs_get_stats(s.large, &st);
	large_passes = st.writepages_calls;
	small_files = atomic_read(&s.nr_small);
	for (n = 0; n < small_files; n++) {
		kshim_wbfs_get_stats(s.small[n], &st);
		small_passes += st.writepages_calls;
	}
	done_ms = (s.t_done_ns - s.t_start_ns) / NSEC_PER_MSEC;
	/* The device serves QUEUE_DEPTH 1 MiB bios per IO_LATENCY. */
	transfer_ms = (u64)r->large_mb * IO_LATENCY_NS / QUEUE_DEPTH / NSEC_PER_MSEC;
	bound_ms = 30000 + 2 * 5000 + 4 * transfer_ms;
	share = bytes_at_done ? 100.0 * ((u64)r->large_mb << 20) / bytes_at_done : 0;
	creates_per_s = done_ms ? small_files * 1000.0 / done_ms : 0;
	verdict = large_on_disk() >= large_pages && done_ms <= bound_ms ?
		  "pass" : "FAIL";

	kshim_info("\nscenario wb_starvation, %s regime: %lu MiB file, background threshold %lu MiB, %d small-file creators, %s backend\n",
		r->name, r->large_mb, r->bg_mb, CREATORS,
		kshim_host_getenv("KSHIM_BACKEND") ?: "parallel");
	kshim_info("  %-40s %10llu ms (virtual)\n", "large file on disk after",
		(unsigned long long)done_ms);
	kshim_info("  %-40s %10llu ms\n", "bound (expire + 2 periods + 4x transfer)",
		(unsigned long long)bound_ms);
	kshim_info("  %-40s %10llu ms\n", "real time",
		(unsigned long long)((s.real_done_ns - s.real_start_ns) / NSEC_PER_MSEC));
	kshim_info("  %-40s %10lu of %lu pages\n", "large file written", large_on_disk(),
		large_pages);
	kshim_info("  %-40s %9d.%d %%\n", "large file share of bytes written",
		(int)share, (int)(share * 10) % 10);
	kshim_info("  %-40s %10lu (%d/s virtual)\n", "small files created", small_files,
		(int)creates_per_s);
	kshim_info("  %-40s %10lu\n", "writepages passes, large file", large_passes);
	kshim_info("  %-40s %10lu (%lu.%02lu per file)\n", "writepages passes, small files",
		small_passes, small_files ? small_passes / small_files : 0,
		small_files ? small_passes * 100 / small_files % 100 : 0);
	kshim_info("  %-40s %10s\n", "verdict", verdict);
	write_json(path, verdict, bound_ms, large_passes, small_passes,
		   small_files, share, creates_per_s);

	KSHIM_ASSERT_EQ(large_on_disk(), large_pages);
	KSHIM_ASSERT(done_ms <= bound_ms);

	kshim_wbfs_release(s.large);
	for (n = 0; n < small_files; n++)
		kshim_wbfs_release(s.small[n]);
	kshim_wbfs_umount(sb);
	kshim_bdev_close(kb);
	kshim_host_image_remove(img);
	vfree(s.samples);
	vfree(s.small);
}

/* The large file is 4x the background threshold: background writeback
 * (which ignores expiry) writes it. */
static void scenario_background(void)
{
	static const struct regime r = { "background", 16, 48, 64 };

	run(&r);
}

/* The large file stays below the background threshold, as in the
 * report: only the periodic kupdate writeback, which honours
 * dirty_expire, writes it. */
static void scenario_kupdate(void)
{
	static const struct regime r = { "kupdate", 160, 240, 64 };

	run(&r);
}

static const struct kshim_test scenario_tests[] = {
	KSHIM_TEST(scenario_background),
	KSHIM_TEST(scenario_kupdate),
	{ }
};

KSHIM_SUITES({ "wb_starvation", NULL, NULL, scenario_tests });
