// SPDX-License-Identifier: GPL-2.0
/*
 * The real XFS log (fs/xfs/xfs_log.c, xfs_log_cil.c, xfs_trans_ail.c,
 * xfs_log_recover.c) on an image made by mkfs.xfs: mount, transactions,
 * log forces, unmount, and xfs_logprint reading back what was written.
 */
#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/string.h>
#include <kshim/ktest.h>
#include <kshim/host_disk.h>
#include <kshim/xfs.h>
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_trans.h"
#include "xfs_log.h"
#include "xfs_log_priv.h"

#define IMG_SIZE	(64ULL << 20)

static char img[256];
static char logprint[64 << 10];

static void make_image(const char *opts)
{
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 0), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_xfs_mkfs(img, IMG_SIZE, opts), 0);
}

static struct kshim_xfs *mount_image(void)
{
	struct kshim_xfs_config cfg = { .image = img };
	struct kshim_xfs *x;

	KSHIM_ASSERT_EQ_FATAL(kshim_xfs_mount(&cfg, &x), 0);
	return x;
}

/* xfs_logprint of the image; its exit status must be 0. */
static void read_log(void)
{
	int st = kshim_xfs_logprint(img, NULL, "-c", logprint,
				    sizeof(logprint));

	if (st != 0)
		kshim_info("xfs_logprint exited %d:\n%s\n", st, logprint);
	KSHIM_ASSERT_EQ_FATAL(st, 0);
}

/*
 * The log of a fresh filesystem mounts clean (no recovery), its geometry
 * is the superblock's, and unmounting writes the log cover (a superblock
 * transaction) and then an unmount record, which xfs_logprint finds.
 */
static void test_mount_and_unmount_write_an_unmount_record(void)
{
	struct kshim_xfs *x;
	struct xfs_mount *mp;
	struct xlog *log;
	const char *commit;

	make_image(NULL);
	kshim_printk_clear();
	x = mount_image();
	mp = kshim_xfs_mp(x);
	log = mp->m_log;
	KSHIM_ASSERT_NOT_NULL(log);
	KSHIM_ASSERT_EQ(log->l_logBBsize,
			XFS_FSB_TO_BB(mp, mp->m_sb.sb_logblocks));
	KSHIM_ASSERT(!kshim_printk_contains("Starting recovery"));
	kshim_xfs_unmount(x);
	read_log();
	/*
	 * mkfs.xfs left an unmount record already; kshim's unmount must add
	 * a transaction logging the superblock buffer (the log cover) and,
	 * after its commit, an unmount record of its own.
	 */
	commit = strstr(logprint, "flags: COMMIT");
	KSHIM_ASSERT(strstr(logprint, "SUPER BLOCK Buffer") != NULL);
	KSHIM_ASSERT(commit && strstr(commit, "flags: UNMOUNT") != NULL);

	/* Mounted again: the tail is found clean, nothing to recover. */
	kshim_printk_clear();
	x = mount_image();
	KSHIM_ASSERT(!kshim_printk_contains("Starting recovery"));
	kshim_xfs_unmount(x);
	kshim_host_image_remove(img);
}

/* dd over the image: COUNT blocks of 4 KiB from block SEEK. */
static void overwrite(const char *src, unsigned long long seek,
		      unsigned long long count, const char *bs)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "dd if=%s of=%s bs=%s seek=%llu count=%llu "
		 "conv=notrunc status=none", src, img, bs, seek, count);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_run_command(cmd), 0);
}

/* A superblock with the wrong magic: the kernel's own refusal, no crash. */
static void test_bad_superblock_magic_fails_the_mount(void)
{
	struct kshim_xfs_config cfg = { .image = img };
	struct kshim_xfs *x;

	make_image(NULL);
	overwrite("/dev/zero", 0, 1, "4");
	KSHIM_ASSERT_EQ(kshim_xfs_mount(&cfg, &x), -EINVAL);
	KSHIM_ASSERT_NULL(x);
	kshim_host_image_remove(img);
}

/*
 * A log full of garbage: xlog_find_head() finds no record header, says
 * "Log inconsistent", and the mount fails with -EFSCORRUPTED. An
 * XFS_DEBUG kernel also fires ASSERT(0) there: a WARN, as
 * CONFIG_XFS_ASSERT_FATAL is off (any WARN a test does not expect fails
 * it), expected here.
 */
static void test_garbage_log_fails_the_mount(void)
{
	struct kshim_xfs_config cfg = { .image = img };
	struct kshim_xfs *x;
	unsigned long long logstart, logblocks;
	int err;

	make_image(NULL);
	x = mount_image();
	logstart = kshim_xfs_mp(x)->m_sb.sb_logstart;
	logblocks = kshim_xfs_mp(x)->m_sb.sb_logblocks;
	kshim_xfs_unmount(x);
	overwrite("/dev/urandom", logstart, logblocks, "4096");
	kshim_printk_clear();
	kshim_test_expect_warns(1);
	err = kshim_xfs_mount(&cfg, &x);
	KSHIM_ASSERT_EQ(err, -EFSCORRUPTED);
	KSHIM_ASSERT(kshim_printk_contains("Log inconsistent"));
	KSHIM_ASSERT_NULL(x);
	kshim_host_image_remove(img);
}

static const struct kshim_test mount_tests[] = {
	KSHIM_TEST(test_mount_and_unmount_write_an_unmount_record),
	{ }
};

static const struct kshim_test bad_input_tests[] = {
	KSHIM_TEST(test_bad_superblock_magic_fails_the_mount),
	KSHIM_TEST(test_garbage_log_fails_the_mount),
	{ }
};

KSHIM_SUITES({ "mount", NULL, NULL, mount_tests },
	     { "bad_input", NULL, NULL, bad_input_tests });
