// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark, not a test: prints figures, fails on nothing but a broken
 * run. File data through kshim's XFS (kshim/vfs.h: the real VFS, iomap,
 * XFS's writeback onto the kshim block device) against raw pwrite() and
 * pread() of the same sizes and pattern on a plain file of the image's
 * size beside the image (the same host filesystem and page cache), in
 * the same run:
 *  - buffered sequential writes, 1 MiB each, then fsync (XFS: delayed
 *    allocation converted at writeback, the log forced; raw: fdatasync);
 *  - buffered sequential reads of that file after a remount (the page
 *    cache gone: XFS reads through the device, raw from the host's cache);
 *  - O_DIRECT 4 KiB random overwrites of a written file, and O_DIRECT
 *    4 KiB random reads (raw: buffered 4 KiB pwrite/pread, its baseline
 *    everywhere: kshim's device keeps writes in its memory cache, so
 *    raw O_DIRECT to the host disk would flatter it).
 * Each XFS figure is paired with a raw run just before it, ROUNDS times;
 * the medians and the range of the ratios are printed. Run it in the
 * parallel backend (the figures are real time): meson test --benchmark
 * bench_xfs_data, or the binary.
 */
#include <linux/fs.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <kshim/host.h>
#include <kshim/host_disk.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>
#include <kshim/vfs.h>
#include "xfs_fixture.h"

#define IMG_SIZE	(512ULL << 20)
#define FILE_SIZE	(128ULL << 20)	/* the sequential file */
#define NR_RANDOM	4000		/* 4 KiB direct I/Os per round */
#define ROUNDS		3

enum what { SEQ_WRITE, SEQ_READ, DIO_WRITE, DIO_READ, NR_WHAT };

static const char *const names[NR_WHAT] = {
	[SEQ_WRITE] = "buffered 1 MiB writes + fsync",
	[SEQ_READ] = "buffered 1 MiB reads, cold",
	[DIO_WRITE] = "O_DIRECT 4 KiB random writes",
	[DIO_READ] = "O_DIRECT 4 KiB random reads",
};

/* per round: ns of the XFS run and of its raw pair */
static u64 xfs_ns[NR_WHAT][ROUNDS], raw_ns[NR_WHAT][ROUNDS];
static char raw_img[256];

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 median(const u64 *v)
{
	u64 s[ROUNDS];

	memcpy(s, v, sizeof(s));
	sort(s, ROUNDS, sizeof(u64), cmp_u64, NULL);
	return s[ROUNDS / 2];
}

static struct file *open_file(struct dentry *root, const char *name,
			      int flags)
{
	struct file *f;

	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, name, flags, 0644, &f), 0);
	return f;
}

/* NR I/Os of BS bytes at random (seeded) or sequential offsets within
 * SIZE: ns. */
static u64 xfs_io(struct file *f, void *buf, unsigned long bs,
		  unsigned long nr, u64 size, bool random, bool write)
{
	u64 t0 = kshim_host_clock_ns(), x = 0x9E3779B97F4A7C15ULL, i;

	for (i = 0; i < nr; i++) {
		loff_t off;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		off = (random ? x % (size / bs) : i) * bs;
		KSHIM_ASSERT_EQ_FATAL(write ?
			kshim_vfs_pwrite(f, buf, bs, off, 0) :
			kshim_vfs_pread(f, buf, bs, off, 0), (ssize_t)bs);
	}
	return kshim_host_clock_ns() - t0;
}

static struct dentry *remount(struct xfs_fixture *fx, struct dentry *root)
{
	kshim_vfs_put(root);
	xfs_fixture_unmount(fx);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(fx), 0);
	return kshim_vfs_root(kshim_xfs_sb(fx->x));
}

static void one_round(int round)
{
	struct xfs_fixture fx = { .size = IMG_SIZE, .dev = &dev_fast };
	struct dentry *root;
	void *big = kvmalloc(SZ_1M, GFP_KERNEL | __GFP_NOFAIL);
	void *small = kmalloc(SZ_4K, GFP_KERNEL | __GFP_NOFAIL);
	unsigned long nr_seq = FILE_SIZE / SZ_1M;
	struct file *f;
	u64 t0;

	memset(big, 0xa5, SZ_1M);
	memset(small, 0x5a, SZ_4K);
	xfs_fixture_mount_new(&fx);
	root = kshim_vfs_root(kshim_xfs_sb(fx.x));

	raw_ns[SEQ_WRITE][round] = kshim_host_image_raw_io(raw_img, FILE_SIZE,
		SZ_1M, nr_seq, 0, 1, KSHIM_RAW_SYNC);
	f = open_file(root, "seq", O_CREAT | O_RDWR);
	t0 = kshim_host_clock_ns();
	xfs_io(f, big, SZ_1M, nr_seq, FILE_SIZE, false, true);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(f, 0), 0);
	xfs_ns[SEQ_WRITE][round] = kshim_host_clock_ns() - t0;
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);

	root = remount(&fx, root);
	raw_ns[SEQ_READ][round] = kshim_host_image_raw_io(raw_img, FILE_SIZE,
		SZ_1M, nr_seq, 0, 1, KSHIM_RAW_READ);
	f = open_file(root, "seq", O_RDONLY);
	xfs_ns[SEQ_READ][round] = xfs_io(f, big, SZ_1M, nr_seq, FILE_SIZE,
					 false, false);
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);

	/* The sequential file is written: overwrites convert nothing. */
	raw_ns[DIO_WRITE][round] = kshim_host_image_raw_io(raw_img, FILE_SIZE,
		SZ_4K, NR_RANDOM, 1, 2, 0);
	f = open_file(root, "seq", O_RDWR | O_DIRECT);
	xfs_ns[DIO_WRITE][round] = xfs_io(f, small, SZ_4K, NR_RANDOM,
					  FILE_SIZE, true, true);
	raw_ns[DIO_READ][round] = kshim_host_image_raw_io(raw_img, FILE_SIZE,
		SZ_4K, NR_RANDOM, 1, 3, KSHIM_RAW_READ);
	xfs_ns[DIO_READ][round] = xfs_io(f, small, SZ_4K, NR_RANDOM,
					 FILE_SIZE, true, false);
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);

	kshim_vfs_put(root);
	xfs_fixture_unmount(&fx);
	xfs_fixture_remove(&fx);
	kvfree(big);
	kfree(small);
}

static void report(enum what w)
{
	u64 ratio[ROUNDS], lo = U64_MAX, hi = 0, x, r;
	bool seq = w == SEQ_WRITE || w == SEQ_READ;
	u64 bytes = seq ? FILE_SIZE : NR_RANDOM;	/* or I/Os */
	int i;

	for (i = 0; i < ROUNDS; i++) {
		ratio[i] = raw_ns[w][i] * 1000 / (xfs_ns[w][i] ?: 1);
		lo = min(lo, ratio[i]);
		hi = max(hi, ratio[i]);
	}
	x = bytes * NSEC_PER_SEC / (median(xfs_ns[w]) ?: 1);
	r = bytes * NSEC_PER_SEC / (median(raw_ns[w]) ?: 1);
	if (seq)
		kshim_info("%-32s XFS %5llu MB/s  raw %5llu MB/s  XFS/raw %3llu%% (%llu-%llu%%)\n",
			   names[w], x / 1000000, r / 1000000,
			   median(ratio) / 10, lo / 10, hi / 10);
	else
		kshim_info("%-32s XFS %7llu/s  raw %7llu/s  XFS/raw %3llu%% (%llu-%llu%%)\n",
			   names[w], x, r, median(ratio) / 10, lo / 10,
			   hi / 10);
}

static void bench_xfs_data(void)
{
	int round;
	enum what w;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(raw_img, sizeof(raw_img),
						      IMG_SIZE, 0), 0);
	/* Write the raw file once: its blocks exist, as the image's do. */
	kshim_host_image_raw_io(raw_img, IMG_SIZE, SZ_1M, IMG_SIZE >> 20, 0, 1,
				KSHIM_RAW_SYNC);
	for (round = 0; round < ROUNDS; round++)
		one_round(round);
	kshim_info("bench_xfs_data: %s backend, %d rounds, %llu MiB file, %d random I/Os; each XFS run paired with a raw run just before it: median (range) of XFS/raw\n",
		   kshim_sched->name, ROUNDS, FILE_SIZE >> 20, NR_RANDOM);
	for (w = 0; w < NR_WHAT; w++)
		report(w);
	kshim_host_image_remove(raw_img);
}

static const struct kshim_test tests[] = {
	KSHIM_TEST(bench_xfs_data),
	{ }
};

KSHIM_SUITES({ "bench_xfs_data", NULL, NULL, tests });
