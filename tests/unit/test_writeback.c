// SPDX-License-Identifier: GPL-2.0
/*
 * Writeback: the real fs/fs-writeback.c, mm/page-writeback.c and
 * mm/backing-dev.c driving wbfs (writeback/kshim_wbfs.c) on a kshim block
 * device. Every assertion is made on the real lists (wb->b_dirty, b_io,
 * b_more_io, b_dirty_time), the real inode state and what reached the
 * device.
 *
 * Timing: only orderings and lower bounds in jiffies; waits poll with a
 * generous limit so a correct run never depends on machine speed. In the
 * deterministic backend time is virtual.
 */
#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>
#include <linux/backing-dev.h>
#include <linux/jiffies.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmstat.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>
#include <kshim/host.h>
#include <kshim/host_disk.h>
#include <kshim/bdev.h>
#include <kshim/wbfs.h>
#include <kshim/sysctl.h>

#define IMG_SIZE	(128ULL << 20)

static char img[128];
static struct kshim_bdev *kb;
static struct super_block *sb;

/* The kernel's defaults, restored before every test. */
static void default_tunables(void)
{
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_background_ratio", "10"), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_ratio", "20"), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_expire_centisecs", "3000"), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_writeback_centisecs", "500"), 0);
}

/* A device of the test's own (queue depth, latency); NULL: the default. */
static void setup_dev(const struct kshim_bdev_config *dev)
{
	struct kshim_bdev_config cfg = { .path = img };

	if (dev) {
		cfg = *dev;
		cfg.path = img;
	}
	default_tunables();
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	kb = kshim_bdev_open(&cfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	sb = kshim_wbfs_mount(kb, 1024);
	KSHIM_ASSERT_FATAL(!IS_ERR(sb));
	/*
	 * A new bdi has no writeout history, so its share of the dirty
	 * thresholds (wb_calc_thresh()) is 0 and any dirty page would start
	 * background writeback. The only disk's share converges to all of
	 * it after its first writeouts; /sys/class/bdi/.../min_ratio gives
	 * it that from the start.
	 */
	KSHIM_ASSERT_EQ_FATAL(bdi_set_min_ratio(sb->s_bdi, 99), 0);
}

static void setup(void)
{
	setup_dev(NULL);
}

static void teardown(void)
{
	kshim_wbfs_umount(sb);
	kshim_bdev_close(kb);
	kshim_host_image_remove(img);
	default_tunables();
}

static struct bdi_writeback *wb(void)
{
	return &sb->s_bdi->wb;
}

/*
 * The inode's fields as the kernel reads them: i_state and dirtied_when
 * under i_lock (every writer holds it), i_io_list under wb->list_lock.
 * A bare read here would race with the flusher (TSan reports it).
 */
static unsigned long i_state_of(struct inode *inode)
{
	unsigned long state;

	spin_lock(&inode->i_lock);
	state = inode->i_state;
	spin_unlock(&inode->i_lock);
	return state;
}

static unsigned long dirtied_when_of(struct inode *inode)
{
	unsigned long when;

	spin_lock(&inode->i_lock);
	when = inode->dirtied_when;
	spin_unlock(&inode->i_lock);
	return when;
}

static bool on_no_list(struct inode *inode)
{
	bool empty;

	spin_lock(&wb()->list_lock);
	empty = list_empty(&inode->i_io_list);
	spin_unlock(&wb()->list_lock);
	return empty;
}

/* Is the inode on this list of its wb? (under wb->list_lock) */
static bool on_list(struct inode *inode, struct list_head *head)
{
	struct inode *i;
	bool found = false;

	spin_lock(&wb()->list_lock);
	list_for_each_entry(i, head, i_io_list)
		if (i == inode)
			found = true;
	spin_unlock(&wb()->list_lock);
	return found;
}

static u8 pat(unsigned long ino, loff_t off)
{
	return (u8)(ino * 131 + off * 7 + (off >> 12));
}

static void fill(void *buf, unsigned long ino, loff_t pos, size_t len)
{
	u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = pat(ino, pos + i);
}

/* Write len bytes of the inode's pattern at pos, through the page cache. */
static void write_file(struct inode *inode, loff_t pos, size_t len)
{
	size_t chunk = 64 << 10;
	void *buf = kmalloc(chunk, GFP_KERNEL);

	KSHIM_ASSERT_FATAL(buf);
	while (len) {
		size_t n = min(len, chunk);

		fill(buf, inode->i_ino, pos, n);
		KSHIM_ASSERT_EQ_FATAL(kshim_wbfs_write(inode, pos, buf, n), n);
		pos += n;
		len -= n;
	}
	kfree(buf);
}

/* Does the device hold the inode's pattern for [0, len)? */
static bool disk_holds(struct inode *inode, size_t len)
{
	u8 *buf = kmalloc(len, GFP_KERNEL), *want = kmalloc(len, GFP_KERNEL);
	bool ok;

	KSHIM_ASSERT_FATAL(buf && want);
	KSHIM_ASSERT_EQ(kshim_wbfs_read_disk(inode, 0, buf, len), 0);
	fill(want, inode->i_ino, 0, len);
	ok = !memcmp(buf, want, len);
	kfree(buf);
	kfree(want);
	return ok;
}

static unsigned long written(struct inode *inode)
{
	struct kshim_wbfs_inode_stats st;

	kshim_wbfs_get_stats(inode, &st);
	return st.pages_written;
}

static void sync_sb(void)
{
	down_read(&sb->s_umount);
	sync_inodes_sb(sb);
	up_read(&sb->s_umount);
}

/* ==== Smoke: write, sync, read back from the device ====================== */

static void test_write_sync_reaches_disk(void)
{
	struct inode *inode;

	setup();
	inode = kshim_wbfs_create(sb, 1 << 20);
	KSHIM_ASSERT_FATAL(!IS_ERR(inode));
	write_file(inode, 0, 100 << 10);
	KSHIM_ASSERT(i_state_of(inode) & I_DIRTY_PAGES);
	KSHIM_ASSERT(mapping_tagged(inode->i_mapping, PAGECACHE_TAG_DIRTY));
	KSHIM_ASSERT(!disk_holds(inode, 100 << 10));
	sync_sb();
	KSHIM_ASSERT_EQ(written(inode), 25);
	KSHIM_ASSERT(!(i_state_of(inode) & I_DIRTY));
	KSHIM_ASSERT(!mapping_tagged(inode->i_mapping, PAGECACHE_TAG_DIRTY));
	KSHIM_ASSERT(!mapping_tagged(inode->i_mapping, PAGECACHE_TAG_WRITEBACK));
	KSHIM_ASSERT(disk_holds(inode, 100 << 10));
	kshim_wbfs_release(inode);
	teardown();
}

/* Tunables that keep the flusher out of the way: no periodic or
 * background writeback, high dirty limits; a test then decides when
 * writeback runs. Chunk sizes: dirty_bytes bounds global_wb_domain's
 * dirty_limit, so writeback_chunk_size() of a WB_SYNC_NONE pass is at
 * most round_down(dirty_limit / DIRTY_SCOPE + MIN_WRITEBACK_PAGES,
 * MIN_WRITEBACK_PAGES) = 2048 pages (8 MiB) below 64 MiB of dirty limit. */
static void quiet_flusher(void)
{
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write("vm/dirty_writeback_centisecs", "0"), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write_ul("vm/dirty_bytes", 32 << 20), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_sysctl_write_ul("vm/dirty_background_bytes", 24 << 20), 0);
}

static struct inode *new_file(u64 max)
{
	struct inode *inode = kshim_wbfs_create(sb, max);

	KSHIM_ASSERT_FATAL(!IS_ERR(inode));
	return inode;
}

/* ==== The dirty lists ===================================================== */

static void test_dirtied_inode_goes_to_b_dirty_with_its_time(void)
{
	struct inode *inode;
	unsigned long before;

	setup();
	quiet_flusher();
	inode = new_file(1 << 20);
	KSHIM_ASSERT(on_no_list(inode));
	before = jiffies;
	write_file(inode, 0, 4096);
	KSHIM_ASSERT(on_list(inode, &wb()->b_dirty));
	KSHIM_ASSERT(i_state_of(inode) & I_DIRTY_PAGES);
	KSHIM_ASSERT(!time_before(dirtied_when_of(inode), before));
	KSHIM_ASSERT(!time_after(dirtied_when_of(inode), jiffies));
	KSHIM_ASSERT(wb_has_dirty_io(wb()));
	kshim_wbfs_release(inode);
	teardown();
}

/* Newest first: fs-writeback.c takes the oldest from the tail. */
static void test_b_dirty_stays_ordered_by_dirtied_when(void)
{
	struct inode *f[4], *i;
	unsigned long newer = ULONG_MAX;
	int k, n = 0;

	setup();
	quiet_flusher();
	for (k = 0; k < 4; k++) {
		f[k] = new_file(1 << 20);
		write_file(f[k], 0, 4096);
		schedule_timeout_uninterruptible(2);
	}
	/* Dirtying an already dirty inode again keeps its place and time. */
	write_file(f[0], 4096, 4096);
	spin_lock(&wb()->list_lock);
	list_for_each_entry(i, &wb()->b_dirty, i_io_list) {
		KSHIM_ASSERT(newer == ULONG_MAX || !time_after(i->dirtied_when, newer));
		newer = i->dirtied_when;
		n++;
	}
	KSHIM_ASSERT_PTR_EQ(list_last_entry(&wb()->b_dirty, struct inode, i_io_list), f[0]);
	spin_unlock(&wb()->list_lock);
	KSHIM_ASSERT_EQ(n, 4);
	KSHIM_ASSERT(time_before(dirtied_when_of(f[0]), dirtied_when_of(f[3])));
	for (k = 0; k < 4; k++)
		kshim_wbfs_release(f[k]);
	teardown();
}

/* The periodic (kupdate) flush writes only what is older than
 * dirty_expire_centisecs. */
static void test_kupdate_takes_only_expired_inodes(void)
{
	struct inode *old, *young;

	setup();
	quiet_flusher();
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_expire_centisecs", "100"), 0);
	/* Periodic writeback every 100 ms from the real wb_workfn(). Set
	 * first: a new interval wakes the flusher for a full pass. */
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_writeback_centisecs", "10"), 0);
	old = new_file(1 << 20);
	young = new_file(1 << 20);
	write_file(old, 0, 8192);
	schedule_timeout_uninterruptible(msecs_to_jiffies(600));
	write_file(young, 0, 8192);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(written(old) == 2, 10 * HZ));
	/* young is 400 ms younger than the expiry: still dirty, still
	 * listed, nothing written. */
	KSHIM_ASSERT_EQ(written(young), 0);
	KSHIM_ASSERT(on_list(young, &wb()->b_dirty));
	KSHIM_ASSERT(!on_list(old, &wb()->b_dirty));
	/* ... until it expires too. */
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(written(young) == 2, 10 * HZ));
	kshim_wbfs_release(old);
	kshim_wbfs_release(young);
	teardown();
}

struct creator {
	bool stop;
	unsigned int interval_ms;	/* 0: 50 */
	bool one_page;			/* else 1 to 3 pages */
	struct inode *files[256];
	int nr;
};

/* Small files, one every 50 ms: there is always a young dirty inode on
 * b_dirty, as in the large-file starvation report. */
static void creator_fn(void *arg)
{
	struct creator *c = arg;

	while (!READ_ONCE(c->stop) && c->nr < ARRAY_SIZE(c->files)) {
		struct inode *inode = new_file(16384);

		write_file(inode, 0, c->one_page ? 4096 :
					4096 + c->nr % 3 * 4096);
		c->files[c->nr++] = inode;
		schedule_timeout_uninterruptible(
			msecs_to_jiffies(c->interval_ms ?: 50));
	}
}

static void creator_stop(struct creator *c, struct task_struct *t)
{
	WRITE_ONCE(c->stop, true);
	kshim_task_join(t);
	while (c->nr)
		kshim_wbfs_release(c->files[--c->nr]);
}

/*
 * kupdate writes an expired inode in slices (writeback_chunk_size(), at
 * most 2048 pages with these limits); when a slice runs out the inode
 * goes to b_more_io (requeue_io()) and the same pass serves it again,
 * even while younger inodes wait on b_dirty. The demonstration patch
 * (redirty_tail() for a used-up slice, the 2006 behaviour) gives it a
 * fresh dirtied_when behind the young inodes, so each further slice
 * waits another dirty_expire interval.
 */
static void test_slice_exhausted_inode_is_served_again_in_the_same_pass(void)
{
	const size_t size = 16 << 20;	/* 4096 pages: at least two slices */
	struct kshim_wbfs_inode_stats st;
	struct creator c = { };
	struct task_struct *t;
	struct inode *big;
	unsigned long t0;

	setup();
	quiet_flusher();
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_expire_centisecs", "100"), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_writeback_centisecs", "10"), 0);
	big = new_file(size);
	t = kshim_task_run(creator_fn, &c, "creator", -1);
	t0 = jiffies;
	write_file(big, 0, size);
	/* Expiry (1 s) plus slack; one more expiry would be 2 s. */
	POLL_UNTIL_TIMEOUT(({ kshim_wbfs_get_stats(big, &st);
			      st.pages_submitted == size >> PAGE_SHIFT; }),
			   msecs_to_jiffies(5000));
	kshim_wbfs_get_stats(big, &st);
	KSHIM_ASSERT(st.writepages_calls >= 2);
	KSHIM_ASSERT_EQ(st.pages_submitted, size >> PAGE_SHIFT);
	/*
	 * Served again in the same pass: done before a second expiry. On
	 * virtual time that is exact; on the host's clock a loaded machine
	 * (TSan with valgrind alongside) can take longer to write 16 MiB,
	 * so the parallel backend checks only that all of it was written.
	 */
	if (kshim_sched->virtual_time)
		KSHIM_ASSERT(time_before(jiffies, t0 + msecs_to_jiffies(1700)));
	creator_stop(&c, t);
	filemap_fdatawait(big->i_mapping);
	KSHIM_ASSERT(disk_holds(big, size));
	kshim_wbfs_release(big);
	teardown();
}

/* An inode writeback cannot take now (here: still I_NEW) goes back to
 * b_dirty (redirty_tail()) with a fresh dirtied_when, behind a younger
 * dirty inode, rather than being retried at once; it is written once it
 * is available. */
static void test_blocked_inode_is_redirtied_with_a_fresh_time(void)
{
	struct inode *inode, *young;
	unsigned long first;

	setup();
	quiet_flusher();
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_expire_centisecs", "100"), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_writeback_centisecs", "10"), 0);
	inode = new_file(1 << 20);
	young = new_file(1 << 20);
	write_file(inode, 0, 4096);
	spin_lock(&inode->i_lock);
	inode->i_state |= I_NEW;
	spin_unlock(&inode->i_lock);
	first = dirtied_when_of(inode);
	schedule_timeout_uninterruptible(msecs_to_jiffies(600));
	write_file(young, 0, 4096);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(time_after(dirtied_when_of(inode),
						   first), 5 * HZ));
	KSHIM_ASSERT_EQ(written(inode), 0);
	KSHIM_ASSERT(i_state_of(inode) & I_DIRTY_PAGES);
	unlock_new_inode(inode);
	sync_sb();
	KSHIM_ASSERT_EQ(written(inode), 1);
	kshim_wbfs_release(inode);
	kshim_wbfs_release(young);
	teardown();
}

/* Timestamps-only dirt (lazytime, I_DIRTY_TIME) waits on b_dirty_time;
 * sync moves it to b_dirty and writes the inode. */
static void test_dirty_time_inode_is_written_on_sync(void)
{
	struct kshim_wbfs_inode_stats st;
	struct inode *inode;

	setup();
	quiet_flusher();
	inode = new_file(1 << 20);
	sync_sb();	/* the creation's own dirt, if any, is gone */
	kshim_wbfs_get_stats(inode, &st);
	kshim_wbfs_touch_time(inode);
	KSHIM_ASSERT(i_state_of(inode) & I_DIRTY_TIME);
	KSHIM_ASSERT(on_list(inode, &wb()->b_dirty_time));
	KSHIM_ASSERT(!on_list(inode, &wb()->b_dirty));
	sync_sb();
	KSHIM_ASSERT(!(i_state_of(inode) & I_DIRTY_TIME));
	KSHIM_ASSERT(on_no_list(inode));
	KSHIM_ASSERT_EQ(st.write_inode_calls + 1, ({
		struct kshim_wbfs_inode_stats now;
		kshim_wbfs_get_stats(inode, &now);
		now.write_inode_calls; }));
	kshim_wbfs_release(inode);
	teardown();
}

/* ... and on its own once dirtytime_expire_seconds have passed. */
static void test_dirty_time_inode_expires_to_b_dirty(void)
{
	struct kshim_wbfs_inode_stats st;
	struct inode *inode;

	setup();
	quiet_flusher();
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirtytime_expire_seconds", "1"), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_expire_centisecs", "50"), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_writeback_centisecs", "10"), 0);
	inode = new_file(1 << 20);
	sync_sb();
	kshim_wbfs_touch_time(inode);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(!(i_state_of(inode) & I_DIRTY_TIME),
					20 * HZ));
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(on_no_list(inode), 20 * HZ));
	kshim_wbfs_get_stats(inode, &st);
	KSHIM_ASSERT(st.write_inode_calls >= 1);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirtytime_expire_seconds", "43200"), 0);
	kshim_wbfs_release(inode);
	teardown();
}

static void test_clean_inode_leaves_the_lists(void)
{
	struct inode *inode;

	setup();
	quiet_flusher();
	inode = new_file(1 << 20);
	write_file(inode, 0, 3 * 4096);
	KSHIM_ASSERT(!on_no_list(inode));
	sync_sb();
	KSHIM_ASSERT(on_no_list(inode));
	KSHIM_ASSERT(!wb_has_dirty_io(wb()));
	kshim_wbfs_release(inode);
	teardown();
}

/* ==== Sync ================================================================ */

/* sync_inodes_sb() writes everything dirtied before it and returns only
 * when it is written, also what a WB_SYNC_NONE pass had already put under
 * writeback (wait_sb_inodes()). Writes are slow here (20 ms each). */
static void test_sync_waits_for_writeback_already_in_flight(void)
{
	struct kshim_fault slow = {
		.ops = KSHIM_FAULT_WRITE, .status = BLK_STS_OK,
		.delay_ns = 20 * NSEC_PER_MSEC,
	};
	struct inode *f[3];
	int k;

	setup();
	quiet_flusher();
	KSHIM_ASSERT(kshim_bdev_add_fault(kb, &slow) >= 0);
	for (k = 0; k < 3; k++) {
		f[k] = new_file(1 << 20);
		write_file(f[k], 0, 256 << 10);
	}
	down_read(&sb->s_umount);
	writeback_inodes_sb(sb, WB_REASON_SYNC);	/* submitted, not waited */
	up_read(&sb->s_umount);
	KSHIM_ASSERT(!mapping_tagged(f[0]->i_mapping, PAGECACHE_TAG_DIRTY));
	sync_sb();
	for (k = 0; k < 3; k++) {
		KSHIM_ASSERT(!mapping_tagged(f[k]->i_mapping, PAGECACHE_TAG_WRITEBACK));
		KSHIM_ASSERT_EQ(written(f[k]), 64);
		KSHIM_ASSERT(disk_holds(f[k], 256 << 10));
	}
	kshim_bdev_clear_faults(kb);
	for (k = 0; k < 3; k++)
		kshim_wbfs_release(f[k]);
	teardown();
}

struct dirtier {
	struct inode *inode;
	bool stop;
	unsigned long rounds;
};

static void dirtier_fn(void *arg)
{
	struct dirtier *d = arg;

	while (!READ_ONCE(d->stop)) {
		write_file(d->inode, 0, 1 << 20);
		d->rounds++;
		schedule_timeout_uninterruptible(1);
	}
}

/* A task that keeps re-dirtying a file cannot keep sync from returning:
 * sync tags what is dirty when it starts (TOWRITE) and writes only that. */
static void test_sync_is_not_livelocked_by_a_dirtier(void)
{
	struct dirtier d = { };
	struct task_struct *t;
	int k;

	setup();
	quiet_flusher();
	d.inode = new_file(1 << 20);
	write_file(d.inode, 0, 1 << 20);
	t = kshim_task_run(dirtier_fn, &d, "dirtier", -1);
	for (k = 0; k < 3; k++)
		sync_sb();
	WRITE_ONCE(d.stop, true);
	kshim_task_join(t);
	KSHIM_ASSERT(written(d.inode) >= 256);
	sync_sb();
	KSHIM_ASSERT(disk_holds(d.inode, 1 << 20));
	kshim_wbfs_release(d.inode);
	teardown();
}

/* ==== Eviction during writeback =========================================== */

struct flusher_arg {
	bool stop;
};

static void flusher_fn(void *arg)
{
	struct flusher_arg *fa = arg;

	while (!READ_ONCE(fa->stop)) {
		down_read(&sb->s_umount);
		writeback_inodes_sb(sb, WB_REASON_SYNC);
		up_read(&sb->s_umount);
		schedule_timeout_uninterruptible(1);
	}
}

/* Files unlinked and released while the flusher writes them: evict()
 * waits for their writeback (I_FREEING), the flusher skips them, and no
 * one touches an inode after it is freed (ASan and valgrind runs). */
static void test_evicting_inodes_wait_for_their_writeback(void)
{
	struct kshim_fault slow = {
		.ops = KSHIM_FAULT_WRITE, .status = BLK_STS_OK,
		.delay_ns = 2 * NSEC_PER_MSEC,
	};
	struct flusher_arg fa = { };
	struct task_struct *t;
	struct inode *inode;
	int k, busy = 0;

	setup();
	quiet_flusher();
	KSHIM_ASSERT(kshim_bdev_add_fault(kb, &slow) >= 0);
	t = kshim_task_run(flusher_fn, &fa, "flusher", -1);
	for (k = 0; k < 24; k++) {
		inode = new_file(256 << 10);
		write_file(inode, 0, (k % 4 + 1) * 16384);
		if (k % 3)
			schedule_timeout_uninterruptible(k % 5);
		if (k % 2) {
			/* Dirty it again and start its writeback (not waited
			 * for), so the eviction finds I/O in flight. */
			write_file(inode, 0, 16384);
			filemap_fdatawrite(inode->i_mapping);
		}
		if (kshim_wbfs_pages_in_flight(sb) > 0)
			busy++;
		kshim_wbfs_release(inode);
		/* It was the only file: evict() returned, so none of its
		 * writeback is still in flight. */
		KSHIM_ASSERT_EQ(kshim_wbfs_pages_in_flight(sb), 0);
	}
	WRITE_ONCE(fa.stop, true);
	kshim_task_join(t);
	kshim_bdev_clear_faults(kb);
	/* The case under test happened: evictions with writeback in flight. */
	KSHIM_ASSERT(busy >= 6);
	KSHIM_ASSERT(!wb_has_dirty_io(wb()));
	teardown();
}

/* ==== The flusher: background and periodic ================================ */

/* Past the background threshold, the writer's balance_dirty_pages() wakes
 * the real wb_workfn() on the bdi workqueue; nobody calls sync. */
static void test_background_writeback_starts_past_the_threshold(void)
{
	struct inode *inode;

	setup();
	quiet_flusher();
	KSHIM_ASSERT_EQ(kshim_sysctl_write_ul("vm/dirty_background_bytes", 1 << 20), 0);
	inode = new_file(8 << 20);
	write_file(inode, 0, 8 << 20);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(written(inode) > 0, 10 * HZ));
	/* Background writeback brings the dirty data down to about the
	 * threshold (it checks at chunk boundaries; one seed stopped 6
	 * pages above it), having written most of the 8 MiB unasked. */
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(global_node_page_state(NR_FILE_DIRTY) <=
					2 * ((1 << 20) >> PAGE_SHIFT), 10 * HZ));
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(written(inode) >=
					((8 << 20) - (2 << 20)) >> PAGE_SHIFT, 10 * HZ));
	kshim_wbfs_release(inode);
	teardown();
}

/* Below every threshold, the periodic timer (dirty_writeback_centisecs)
 * writes what has expired; no one else does. */
static void test_periodic_writeback_writes_expired_data(void)
{
	struct inode *inode;
	unsigned long t0;

	setup();
	quiet_flusher();
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_expire_centisecs", "20"), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_writeback_centisecs", "10"), 0);
	inode = new_file(1 << 20);
	t0 = jiffies;
	write_file(inode, 0, 64 << 10);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(written(inode) == 16, 10 * HZ));
	KSHIM_ASSERT(time_after_eq(jiffies, t0 + msecs_to_jiffies(200)));
	KSHIM_ASSERT(disk_holds(inode, 64 << 10));
	kshim_wbfs_release(inode);
	teardown();
}

/* ==== Bad input: the device fails the writes ============================== */

/* EIO from the device: the folios end writeback, the mapping records the
 * error, and fdatawait reports it once; nothing hangs. */
static void test_write_error_is_reported_by_fdatawait(void)
{
	struct kshim_fault eio = {
		.ops = KSHIM_FAULT_WRITE, .status = BLK_STS_IOERR,
	};
	struct inode *inode;

	setup();
	quiet_flusher();
	inode = new_file(1 << 20);
	write_file(inode, 0, 32 << 10);
	KSHIM_ASSERT(kshim_bdev_add_fault(kb, &eio) >= 0);
	KSHIM_ASSERT_EQ(filemap_write_and_wait(inode->i_mapping), -EIO);
	KSHIM_ASSERT(!mapping_tagged(inode->i_mapping, PAGECACHE_TAG_WRITEBACK));
	KSHIM_ASSERT_EQ(written(inode), 0);
	/* Reported once (AS_EIO is cleared by the check). */
	KSHIM_ASSERT_EQ(filemap_fdatawait(inode->i_mapping), 0);
	kshim_bdev_clear_faults(kb);
	/* The data is not silently lost: written again, it reaches disk. */
	write_file(inode, 0, 32 << 10);
	KSHIM_ASSERT_EQ(filemap_write_and_wait(inode->i_mapping), 0);
	KSHIM_ASSERT(disk_holds(inode, 32 << 10));
	kshim_wbfs_release(inode);
	teardown();
}

/* A sysctl outside its range is refused by its handler, as
 * echo 101 > /proc/sys/vm/dirty_ratio is. */
static void test_bad_tunables_are_refused(void)
{
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_ratio", "101"), -EINVAL);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_ratio", "x"), -EINVAL);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/no_such_knob", "1"), -ENOENT);
	KSHIM_ASSERT_EQ(kshim_sysctl_read_long("vm/dirty_ratio"), 20);
	/* The handler's side effect: a ratio clears the bytes form. */
	KSHIM_ASSERT_EQ(kshim_sysctl_write_ul("vm/dirty_bytes", 64 << 20), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_read_long("vm/dirty_ratio"), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_ratio", "15"), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_read_long("vm/dirty_bytes"), 0);
	default_tunables();
}

/* ==== One inode's data integrity: write_inode_now() ======================= */

static unsigned long submitted(struct inode *inode)
{
	struct kshim_wbfs_inode_stats st;

	kshim_wbfs_get_stats(inode, &st);
	return st.pages_submitted;
}

static unsigned long write_inode_calls(struct inode *inode)
{
	struct kshim_wbfs_inode_stats st;

	kshim_wbfs_get_stats(inode, &st);
	return st.write_inode_calls;
}

/* A fault rule on the file's data extent only, or on its inode's sector
 * only (kshim_wbfs_sectors()). */
static int fault_on(struct inode *inode, bool data, blk_status_t status,
		    u64 delay_ns)
{
	struct kshim_fault f = {
		.ops = KSHIM_FAULT_WRITE, .status = status, .delay_ns = delay_ns,
	};
	sector_t data_start, inode_sector;
	u64 data_sectors;

	kshim_wbfs_sectors(inode, &data_start, &data_sectors, &inode_sector);
	f.start = data ? data_start : inode_sector;
	f.nr_sectors = data ? data_sectors : 1;
	return kshim_bdev_add_fault(kb, &f);
}

/*
 * write_inode_now(inode, 1), what a filesystem calls to make one inode
 * durable, is a data-integrity write: it waits for the data it submitted
 * and only then writes the inode, whose metadata may describe that data
 * (filesystems that update metadata at data I/O completion depend on
 * it). Data writes are slow here (30 ms) and the inode's sector fast: a
 * write_inode_now() that did not wait would return with the data still
 * in flight.
 */
static void test_write_inode_now_waits_for_the_data(void)
{
	struct inode *inode;
	unsigned long calls;

	setup();
	quiet_flusher();
	inode = new_file(1 << 20);
	write_file(inode, 0, 64 << 10);
	calls = write_inode_calls(inode);
	KSHIM_ASSERT(fault_on(inode, true, BLK_STS_OK, 30 * NSEC_PER_MSEC) >= 0);
	KSHIM_ASSERT_EQ(write_inode_now(inode, 1), 0);
	KSHIM_ASSERT_EQ(written(inode), 16);
	KSHIM_ASSERT(!mapping_tagged(inode->i_mapping, PAGECACHE_TAG_WRITEBACK));
	KSHIM_ASSERT_EQ(write_inode_calls(inode), calls + 1);
	KSHIM_ASSERT(!(i_state_of(inode) & I_DIRTY_ALL));
	KSHIM_ASSERT(on_no_list(inode));
	KSHIM_ASSERT(disk_holds(inode, 64 << 10));
	kshim_bdev_clear_faults(kb);
	kshim_wbfs_release(inode);
	teardown();
}

/*
 * ... and it tells its caller when the data or the inode did not reach
 * the device: a caller told 0 believes the inode durable. The data's
 * error is found by the wait for it; the inode's by ->write_inode.
 */
static void test_write_inode_now_reports_write_errors(void)
{
	struct inode *inode;

	setup();
	quiet_flusher();
	inode = new_file(1 << 20);
	write_file(inode, 0, 16 << 10);
	KSHIM_ASSERT(fault_on(inode, true, BLK_STS_IOERR, 0) >= 0);
	KSHIM_ASSERT_EQ(write_inode_now(inode, 1), -EIO);
	KSHIM_ASSERT_EQ(written(inode), 0);
	kshim_bdev_clear_faults(kb);

	/* Extending the file dirties the inode (its size) as well. */
	write_file(inode, 16 << 10, 16 << 10);
	KSHIM_ASSERT(i_state_of(inode) & I_DIRTY_SYNC);
	KSHIM_ASSERT(fault_on(inode, false, BLK_STS_IOERR, 0) >= 0);
	KSHIM_ASSERT_EQ(write_inode_now(inode, 1), -EIO);
	KSHIM_ASSERT_EQ(written(inode), 4);	/* the data itself is fine */
	kshim_bdev_clear_faults(kb);
	kshim_wbfs_release(inode);
	teardown();
}

/*
 * Writeback calls ->write_inode only for dirty metadata: an overwrite in
 * place dirties pages, not the inode, and sync or write_inode_now() then
 * writes the pages alone. An inode write per file per sync would be I/O
 * (a journal transaction on most filesystems) that nothing asked for.
 */
static void test_sync_writes_the_inode_only_when_its_metadata_is_dirty(void)
{
	struct inode *inode;
	unsigned long calls;

	setup();
	quiet_flusher();
	inode = new_file(1 << 20);
	write_file(inode, 0, 16 << 10);
	sync_sb();
	calls = write_inode_calls(inode);
	KSHIM_ASSERT(calls >= 1);	/* the new size */
	write_file(inode, 0, 16 << 10);	/* in place: no new size, no time */
	KSHIM_ASSERT_EQ(i_state_of(inode) & (I_DIRTY_ALL), I_DIRTY_PAGES);
	sync_sb();
	KSHIM_ASSERT_EQ(written(inode), 8);
	KSHIM_ASSERT_EQ(write_inode_calls(inode), calls);
	write_file(inode, 0, 4096);
	KSHIM_ASSERT_EQ(write_inode_now(inode, 1), 0);
	KSHIM_ASSERT_EQ(written(inode), 9);
	KSHIM_ASSERT_EQ(write_inode_calls(inode), calls);
	kshim_wbfs_release(inode);
	teardown();
}

/* ==== Sharing the flusher: slices, budgets, s_umount ====================== */

/*
 * A slow device with one I/O in flight at most: a submitter waits for the
 * previous I/O, so a flusher pass over many small files takes time
 * (virtual in det) and the 100 ms slices of writeback_sb_inodes() and
 * __writeback_inodes_wb() come into play. A one-page file costs two I/Os
 * of 2 ms (its data and, under WB_SYNC_NONE, its inode's sector): about
 * 25 files a slice.
 */
static const struct kshim_bdev_config slow_serial_dev = {
	.queue_depth = 1,
	.latency = { .base_ns = 2 * NSEC_PER_MSEC },
};

#define SMALL_FILES	80

static int count_untouched(struct inode **f, int n)
{
	int k, untouched = 0;

	for (k = 0; k < n; k++)
		if (!submitted(f[k]))
			untouched++;
	return untouched;
}

/*
 * kupdate runs for as long as there is expired data, so it gives the
 * flusher back after each 100 ms slice: wb_writeback() ends a periodic
 * pass when other work is queued, and the pass resumes later. Work that
 * someone waits for (writeback_inodes_sb_nr(), which a filesystem short
 * of space calls) must not wait for the whole periodic pass: neither
 * behind many small inodes nor behind a few large ones, each of which
 * takes longer than a slice to write.
 */
static void kupdate_yields(const struct kshim_bdev_config *dev, int nr,
			   size_t size, unsigned long max_wait_ms)
{
	struct inode *f[SMALL_FILES];
	unsigned long t0, waited;
	int k, untouched;

	setup_dev(dev);
	quiet_flusher();
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_expire_centisecs", "10"), 0);
	KSHIM_ASSERT_EQ(kshim_sysctl_write("vm/dirty_writeback_centisecs", "10"), 0);
	for (k = 0; k < nr; k++) {
		f[k] = new_file(size);
		write_file(f[k], 0, size);
	}
	/* The periodic pass has begun: the oldest file is on its way. */
	KSHIM_ASSERT_FATAL(POLL_UNTIL_TIMEOUT(submitted(f[0]) > 0, 10 * HZ));
	t0 = jiffies;
	down_read(&sb->s_umount);
	writeback_inodes_sb_nr(sb, 1, WB_REASON_FS_FREE_SPACE);
	up_read(&sb->s_umount);
	waited = jiffies - t0;
	untouched = count_untouched(f, nr);
	kshim_info("queued work waited %lu jiffies; %d of %d files not yet written\n",
		   waited, untouched, nr);
	/*
	 * It ran in the middle of the pass, not after it ... In virtual
	 * time only: on the host clock the device's 2 ms and the slices'
	 * 100 ms race the test's own start-up, which a slow host (TSan, a
	 * loaded machine) stretches until the pass has reached every file.
	 */
	if (kshim_sched->virtual_time) {
		KSHIM_ASSERT(untouched >= max(1, nr / 4));
		KSHIM_ASSERT(waited < msecs_to_jiffies(max_wait_ms));
	}
	/* ... and the periodic flusher came back for the rest. */
	for (k = 0; k < nr; k++)
		KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(written(f[k]) == size >> PAGE_SHIFT,
						10 * HZ));
	for (k = 0; k < nr; k++)
		kshim_wbfs_release(f[k]);
	teardown();
}

/* 80 one-page files, about 25 to a slice. */
static void test_kupdate_yields_to_queued_work_after_its_slice(void)
{
	kupdate_yields(&slow_serial_dev, SMALL_FILES, 4096, 300);
}

/*
 * 5 files of 1 MiB on a device of 110 ms per I/O, one at a time: each
 * file is one data bio and one inode write, and the flusher, which does
 * not wait for the last, spends 110 ms on each (submitting the inode
 * write waits for the data bio). The slice is over after the first file;
 * the queued work writes the second, and the periodic pass resumes with
 * the rest (it may have submitted the third by the time the test looks).
 * A pass that did not yield would write all five first.
 */
static void test_kupdate_yields_to_queued_work_between_large_inodes(void)
{
	static const struct kshim_bdev_config slow_large_dev = {
		.queue_depth = 1,
		.latency = { .base_ns = 110 * NSEC_PER_MSEC },
	};

	kupdate_yields(&slow_large_dev, 5, 1 << 20, 500);
}

/*
 * Background writeback is for getting under dirty_background_bytes, not
 * for writing everything: wb_writeback() checks the threshold each time a
 * slice ends and stops once under it. A flusher that wrote on to the last
 * page would turn every small dirtying into I/O (that is sync's job).
 */
static void test_background_writeback_stops_under_the_threshold(void)
{
	const unsigned long thresh = 64;	/* pages: 256 KiB */
	struct inode *f[SMALL_FILES];
	unsigned long dirty;
	int k, untouched;

	setup_dev(&slow_serial_dev);
	quiet_flusher();
	KSHIM_ASSERT_EQ(kshim_sysctl_write_ul("vm/dirty_background_bytes",
					      thresh << PAGE_SHIFT), 0);
	/* 160 pages, in 80 files: the writer's balance_dirty_pages() starts
	 * background writeback on its way. */
	for (k = 0; k < SMALL_FILES; k++) {
		f[k] = new_file(1 << 16);
		write_file(f[k], 0, 8192);
	}
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(global_node_page_state(NR_FILE_DIRTY) <=
					thresh, 10 * HZ));
	/* Long enough for a flusher that went on to write the rest. */
	schedule_timeout_uninterruptible(msecs_to_jiffies(500));
	dirty = global_node_page_state(NR_FILE_DIRTY);
	untouched = count_untouched(f, SMALL_FILES);
	kshim_info("background writeback left %lu pages dirty, %d files untouched\n",
		   dirty, untouched);
	KSHIM_ASSERT(dirty > 0);
	KSHIM_ASSERT(dirty <= thresh);
	KSHIM_ASSERT(untouched > 0);
	for (k = 0; k < SMALL_FILES; k++)
		kshim_wbfs_release(f[k]);
	teardown();
}

/*
 * A flusher pass started by wakeup_flusher_threads() (sync(2)'s first
 * step, and what a filesystem short of space calls) writes a large
 * inode in slices: when one runs out, the inode goes to b_more_io
 * (requeue_io()) and the same pass comes back for the rest, even though
 * other inodes were dirtied meanwhile. Put back on b_dirty behind those
 * instead, it would get a new dirtied_when, after the pass's
 * dirtied_before, and the pass would end with half of it dirty.
 */
static void test_flusher_pass_finishes_a_large_inode_over_several_slices(void)
{
	/* One I/O in flight, 50 us a page: a slice is 8 bios of 1 MiB and
	 * the flusher waits about 13 ms before each, time for the test to
	 * dirty another inode during the first slice. */
	static const struct kshim_bdev_config dev = {
		.queue_depth = 1,
		.latency = { .base_ns = 50 * NSEC_PER_USEC },
	};
	const size_t size = 16 << 20;	/* 4096 pages: two slices of 2048 */
	struct inode *big, *young;

	setup_dev(&dev);
	quiet_flusher();
	big = new_file(size);
	write_file(big, 0, size);
	wakeup_flusher_threads(WB_REASON_SYNC);
	/* The first slice is on its way: dirty another inode now, so that
	 * b_dirty is not empty when the slice ends. */
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(submitted(big) > 0, 10 * HZ));
	young = new_file(1 << 16);
	write_file(young, 0, 4096);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(!test_bit(WB_start_all, &wb()->state),
					10 * HZ));
	KSHIM_ASSERT_EQ(submitted(big), size >> PAGE_SHIFT);
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(written(big) == size >> PAGE_SHIFT,
					10 * HZ));
	KSHIM_ASSERT(disk_holds(big, size));
	kshim_wbfs_release(young);
	kshim_wbfs_release(big);
	teardown();
}

/*
 * writeback_inodes_sb_nr(sb, nr) asks for about nr pages: the flusher
 * writes the oldest inodes until the budget is spent and leaves the rest
 * dirty. A filesystem that needs a few pages cleaned (for space, for
 * quota) must not get a full flush of the device.
 */
static void test_writeback_stops_when_its_page_budget_is_spent(void)
{
	struct inode *f[10];
	int k;

	setup();
	quiet_flusher();
	for (k = 0; k < ARRAY_SIZE(f); k++) {
		f[k] = new_file(1 << 16);
		write_file(f[k], 0, 4096);
		schedule_timeout_uninterruptible(2);	/* oldest first */
	}
	down_read(&sb->s_umount);
	writeback_inodes_sb_nr(sb, 3, WB_REASON_FS_FREE_SPACE);
	up_read(&sb->s_umount);
	for (k = 0; k < ARRAY_SIZE(f); k++) {
		KSHIM_ASSERT_EQ(submitted(f[k]), k < 3 ? 1 : 0);
		if (k >= 3)
			KSHIM_ASSERT(i_state_of(f[k]) & I_DIRTY_PAGES);
	}
	for (k = 0; k < ARRAY_SIZE(f); k++)
		kshim_wbfs_release(f[k]);
	teardown();
}

/*
 * sync writes what was dirty when it started, not what is dirtied while
 * it runs: wb_writeback() keeps the dirtied_before it started with for
 * every queue_io() of a sync, so a task creating files the whole time
 * cannot make sync chase them (a sync that never ends while someone
 * writes: the livelock that dirtied_before exists for).
 */
static void test_sync_does_not_chase_inodes_dirtied_after_it_started(void)
{
	struct inode *f[20];
	struct creator c = { .interval_ms = 5, .one_page = true };
	struct task_struct *t;
	unsigned long t0, t1;
	int k, later = 0, chased = 0;

	setup_dev(&slow_serial_dev);
	quiet_flusher();
	for (k = 0; k < ARRAY_SIZE(f); k++) {
		f[k] = new_file(1 << 16);
		write_file(f[k], 0, 4096);
	}
	t = kshim_task_run(creator_fn, &c, "creator", -1);
	t0 = jiffies;
	sync_sb();
	t1 = jiffies;
	WRITE_ONCE(c.stop, true);
	kshim_task_join(t);
	for (k = 0; k < ARRAY_SIZE(f); k++)
		KSHIM_ASSERT_EQ(written(f[k]), 1);
	/* Nothing writes after sync returned (no periodic, no background
	 * writeback): what was submitted, the sync submitted. */
	for (k = 0; k < c.nr; k++) {
		unsigned long when = dirtied_when_of(c.files[k]);

		if (!time_after(when, t0 + 1) || !time_before(when, t1))
			continue;
		later++;
		if (submitted(c.files[k]))
			chased++;
	}
	kshim_info("sync took %lu jiffies; %d files dirtied during it, %d of them written by it\n",
		   t1 - t0, later, chased);
	/*
	 * In virtual time only: sync's cut-off is the jiffies at which the
	 * flusher starts its work, not t0. On the host clock the flusher
	 * thread may start many jiffies after sync_sb() queued the work
	 * (valgrind: the creator dirtied a file in between), and sync
	 * rightly writes what was dirtied before it began.
	 */
	if (kshim_sched->virtual_time) {
		KSHIM_ASSERT_EQ(chased, 0);
		/* The case under test happened: files dirtied during sync. */
		KSHIM_ASSERT(later >= 3);
	}
	while (c.nr)
		kshim_wbfs_release(c.files[--c.nr]);
	for (k = 0; k < ARRAY_SIZE(f); k++)
		kshim_wbfs_release(f[k]);
	teardown();
}

/*
 * A second wbfs on a device of its own but on sb's bdi, as two
 * filesystems on partitions of one disk: their inodes share one
 * bdi_writeback, its flusher and its lists.
 */
static char img2[128];
static struct kshim_bdev *kb2;
static struct super_block *sb2;

static void setup_second_sb(void)
{
	struct kshim_bdev_config cfg = { .path = img2 };

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img2, sizeof(img2),
						      32ULL << 20, 1), 0);
	kb2 = kshim_bdev_open(&cfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb2));
	sb2 = kshim_wbfs_mount_sharing_bdi(kb2, 256, sb);
	KSHIM_ASSERT_FATAL(!IS_ERR(sb2));
	KSHIM_ASSERT_PTR_EQ(sb2->s_bdi, sb->s_bdi);
}

/* Before teardown(): sb's unmount unregisters the bdi. */
static void teardown_second_sb(void)
{
	kshim_wbfs_umount(sb2);
	kshim_bdev_close(kb2);
	kshim_host_image_remove(img2);
}

/*
 * Both sbs mounted, two files of two dirty pages on each; sb2's are the
 * older, so a pass meets them first on b_io (move_expired_inodes() sorts
 * b_io by sb, the oldest inode's sb at the tail).
 */
static void two_sbs_dirty(struct inode **mine, struct inode **theirs)
{
	int k;

	setup();
	quiet_flusher();
	setup_second_sb();
	for (k = 0; k < 2; k++) {
		theirs[k] = kshim_wbfs_create(sb2, 1 << 20);
		KSHIM_ASSERT_FATAL(!IS_ERR(theirs[k]));
		write_file(theirs[k], 0, 8192);
	}
	schedule_timeout_uninterruptible(2);
	for (k = 0; k < 2; k++) {
		mine[k] = new_file(1 << 20);
		write_file(mine[k], 0, 8192);
	}
}

static void two_sbs_release(struct inode **mine, struct inode **theirs)
{
	int k;

	for (k = 0; k < 2; k++) {
		kshim_wbfs_release(mine[k]);
		kshim_wbfs_release(theirs[k]);
	}
	teardown_second_sb();
	teardown();
}

/*
 * The flusher pins each superblock with a trylock of s_umount: while
 * someone holds it for writing (remount, freeze, umount) that sb's
 * inodes go back to b_dirty, neither written without the lock nor spun
 * on; the other sb on the same bdi is written in the same pass, and a
 * later pass writes the skipped inodes once s_umount is free: skipped,
 * never lost.
 */
static void test_flusher_skips_an_sb_whose_s_umount_is_held(void)
{
	struct inode *mine[2], *theirs[2];
	int k;

	two_sbs_dirty(mine, theirs);
	down_write(&sb2->s_umount);
	wakeup_flusher_threads(WB_REASON_SYNC);
	/* wb_check_start_all() clears the bit when its pass has ended. */
	KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(!test_bit(WB_start_all, &wb()->state),
					10 * HZ));
	for (k = 0; k < 2; k++) {
		KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(written(mine[k]) == 2, 10 * HZ));
		KSHIM_ASSERT_EQ(submitted(theirs[k]), 0);
		KSHIM_ASSERT(i_state_of(theirs[k]) & I_DIRTY_PAGES);
		KSHIM_ASSERT(on_list(theirs[k], &wb()->b_dirty));
	}
	up_write(&sb2->s_umount);
	wakeup_flusher_threads(WB_REASON_SYNC);
	for (k = 0; k < 2; k++)
		KSHIM_ASSERT(POLL_UNTIL_TIMEOUT(written(theirs[k]) == 2, 10 * HZ));
	two_sbs_release(mine, theirs);
}

/*
 * sync of one filesystem (sync_inodes_sb(), as syncfs(2)) writes and
 * waits for that sb's inodes, whatever else is on the shared lists: the
 * other sb's inodes it meets on b_io go back to b_dirty (redirty_tail()),
 * not written by the wrong sync and not dropped from the lists.
 */
static void test_sync_of_one_sb_leaves_the_other_sbs_inodes_dirty(void)
{
	struct inode *mine[2], *theirs[2];
	int k;

	two_sbs_dirty(mine, theirs);
	sync_sb();
	for (k = 0; k < 2; k++) {
		KSHIM_ASSERT_EQ(written(mine[k]), 2);
		KSHIM_ASSERT(disk_holds(mine[k], 8192));
		KSHIM_ASSERT(on_no_list(mine[k]));
		KSHIM_ASSERT_EQ(submitted(theirs[k]), 0);
		KSHIM_ASSERT(i_state_of(theirs[k]) & I_DIRTY_PAGES);
		KSHIM_ASSERT(on_list(theirs[k], &wb()->b_dirty));
	}
	down_read(&sb2->s_umount);
	sync_inodes_sb(sb2);
	up_read(&sb2->s_umount);
	for (k = 0; k < 2; k++) {
		KSHIM_ASSERT_EQ(written(theirs[k]), 2);
		KSHIM_ASSERT(disk_holds(theirs[k], 8192));
	}
	two_sbs_release(mine, theirs);
}

static const struct kshim_test list_tests[] = {
	KSHIM_TEST(test_write_sync_reaches_disk),
	KSHIM_TEST(test_dirtied_inode_goes_to_b_dirty_with_its_time),
	KSHIM_TEST(test_b_dirty_stays_ordered_by_dirtied_when),
	KSHIM_TEST(test_kupdate_takes_only_expired_inodes),
	KSHIM_TEST(test_slice_exhausted_inode_is_served_again_in_the_same_pass),
	KSHIM_TEST(test_blocked_inode_is_redirtied_with_a_fresh_time),
	KSHIM_TEST(test_dirty_time_inode_is_written_on_sync),
	KSHIM_TEST(test_dirty_time_inode_expires_to_b_dirty),
	KSHIM_TEST(test_clean_inode_leaves_the_lists),
	{ }
};

static const struct kshim_test sync_tests[] = {
	KSHIM_TEST(test_sync_waits_for_writeback_already_in_flight),
	KSHIM_TEST(test_sync_is_not_livelocked_by_a_dirtier),
	KSHIM_TEST(test_evicting_inodes_wait_for_their_writeback),
	{ }
};

static const struct kshim_test integrity_tests[] = {
	KSHIM_TEST(test_write_inode_now_waits_for_the_data),
	KSHIM_TEST(test_write_inode_now_reports_write_errors),
	KSHIM_TEST(test_sync_writes_the_inode_only_when_its_metadata_is_dirty),
	{ }
};

static const struct kshim_test sharing_tests[] = {
	KSHIM_TEST(test_kupdate_yields_to_queued_work_after_its_slice),
	KSHIM_TEST(test_kupdate_yields_to_queued_work_between_large_inodes),
	KSHIM_TEST(test_background_writeback_stops_under_the_threshold),
	KSHIM_TEST(test_flusher_pass_finishes_a_large_inode_over_several_slices),
	KSHIM_TEST(test_writeback_stops_when_its_page_budget_is_spent),
	KSHIM_TEST(test_sync_does_not_chase_inodes_dirtied_after_it_started),
	KSHIM_TEST(test_flusher_skips_an_sb_whose_s_umount_is_held),
	KSHIM_TEST(test_sync_of_one_sb_leaves_the_other_sbs_inodes_dirty),
	{ }
};

static const struct kshim_test flusher_tests[] = {
	KSHIM_TEST(test_background_writeback_starts_past_the_threshold),
	KSHIM_TEST(test_periodic_writeback_writes_expired_data),
	{ }
};

static const struct kshim_test bad_input_tests[] = {
	KSHIM_TEST(test_write_error_is_reported_by_fdatawait),
	KSHIM_TEST(test_bad_tunables_are_refused),
	{ }
};

KSHIM_SUITES({ "lists", NULL, NULL, list_tests },
	     { "sync", NULL, NULL, sync_tests },
	     { "integrity", NULL, NULL, integrity_tests },
	     { "sharing", NULL, NULL, sharing_tests },
	     { "flusher", NULL, NULL, flusher_tests },
	     { "bad_input", NULL, NULL, bad_input_tests });
