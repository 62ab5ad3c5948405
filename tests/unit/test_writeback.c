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

#define IMG_SIZE	(64ULL << 20)

#define POLL_UNTIL_TIMEOUT(cond, timeout)				\
({									\
	unsigned long __end = READ_ONCE(jiffies) + (timeout);		\
	bool __ok;							\
	while (!(__ok = (cond)) &&					\
	       time_before(READ_ONCE(jiffies), __end))			\
		schedule_timeout_uninterruptible(1);			\
	__ok;								\
})

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

static void setup(void)
{
	struct kshim_bdev_config cfg = { .path = img };

	default_tunables();
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	kb = kshim_bdev_open(&cfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	sb = kshim_wbfs_mount(kb, 1024);
	KSHIM_ASSERT_FATAL(!IS_ERR(sb));
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
	KSHIM_ASSERT(inode->i_state & I_DIRTY_PAGES);
	KSHIM_ASSERT(mapping_tagged(inode->i_mapping, PAGECACHE_TAG_DIRTY));
	KSHIM_ASSERT(!disk_holds(inode, 100 << 10));
	sync_sb();
	KSHIM_ASSERT_EQ(written(inode), 25);
	KSHIM_ASSERT(!(inode->i_state & I_DIRTY));
	KSHIM_ASSERT(!mapping_tagged(inode->i_mapping, PAGECACHE_TAG_DIRTY));
	KSHIM_ASSERT(!mapping_tagged(inode->i_mapping, PAGECACHE_TAG_WRITEBACK));
	KSHIM_ASSERT(disk_holds(inode, 100 << 10));
	kshim_wbfs_release(inode);
	teardown();
}

static const struct kshim_test smoke_tests[] = {
	KSHIM_TEST(test_write_sync_reaches_disk),
	{ NULL, NULL }
};

KSHIM_SUITES({ "smoke", NULL, NULL, smoke_tests });
