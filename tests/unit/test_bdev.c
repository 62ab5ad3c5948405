// SPDX-License-Identifier: GPL-2.0
/*
 * kshim's block device through the real block/bio.c: data round trips
 * through bios of many shapes, the write cache's durability rules across
 * simulated power failures, the write log, fault injection, statistics,
 * and the errors a user gets for bad input. Images live in memory
 * (memfd) unless a test needs a tool to read them.
 *
 * The suites run twice: on devices that queue every I/O for their
 * completion task, and ("..._inline") on devices opened with
 * complete_inline, which serve I/O in the submitting task while no
 * latency or fault is in play; the "inline" suite checks that fast path
 * itself.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/err.h>
#include <linux/delay.h>
#include <kshim/bdev.h>
#include <kshim/host.h>
#include <kshim/host_disk.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>

#define IMG_SIZE	(4ULL << 20)

static char img[128];
/* Open devices with complete_inline (the "..._inline" suites). */
static bool inline_mode;

static int inline_on(void)
{
	inline_mode = true;
	return 0;
}

static int inline_off(void)
{
	inline_mode = false;
	return 0;
}

static struct kshim_bdev *open_dev(unsigned int lbs, u64 size)
{
	struct kshim_bdev_config cfg = {
		.path = img, .sector_size = lbs, .size = size,
		.complete_inline = inline_mode,
	};

	return kshim_bdev_open(&cfg);
}

static struct kshim_bdev *new_dev(unsigned int lbs)
{
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	return open_dev(lbs, 0);
}

static void drop_dev(struct kshim_bdev *kb)
{
	kshim_bdev_close(kb);
	kshim_host_image_remove(img);
}

/* Byte i of the pattern for a given tag at byte offset off on disk. */
static u8 pat(u32 tag, u64 off)
{
	u64 x = (off + 1) * 0x9E3779B97F4A7C15ULL + tag * 0xBF58476D1CE4E5B9ULL;

	x ^= x >> 31;
	x *= 0x94D049BB133111EBULL;
	return x >> 56;
}

static void fill(void *p, size_t len, u32 tag, u64 disk_off)
{
	size_t i;

	for (i = 0; i < len; i++)
		((u8 *)p)[i] = pat(tag, disk_off + i);
}

static bool check(const void *p, size_t len, u32 tag, u64 disk_off)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((const u8 *)p)[i] != pat(tag, disk_off + i))
			return false;
	return true;
}

/* Write or read [off, off + len) through one bio of single pages at page
 * offset pgoff (each segment up to the page end). */
static int page_io(struct block_device *bdev, blk_opf_t opf, u64 off,
		   size_t len, unsigned int pgoff, u32 tag, bool *ok)
{
	unsigned int nr = DIV_ROUND_UP(len + pgoff, PAGE_SIZE);
	struct page *pages[64];
	struct bio *bio;
	size_t done = 0;
	unsigned int i;
	int err;

	KSHIM_ASSERT_FATAL(nr <= ARRAY_SIZE(pages));
	bio = bio_alloc(bdev, nr, opf, GFP_NOIO);
	bio->bi_iter.bi_sector = off >> SECTOR_SHIFT;
	for (i = 0; i < nr; i++) {
		unsigned int o = i ? 0 : pgoff;
		unsigned int l = min_t(size_t, PAGE_SIZE - o, len - done);

		pages[i] = alloc_page(GFP_KERNEL);
		KSHIM_ASSERT_FATAL(pages[i]);
		if (op_is_write(opf))
			fill(page_address(pages[i]) + o, l, tag, off + done);
		KSHIM_ASSERT_EQ_FATAL(bio_add_page(bio, pages[i], l, o), l);
		done += l;
	}
	err = submit_bio_wait(bio);
	done = 0;
	if (ok)
		*ok = true;
	for (i = 0; i < nr; i++) {
		unsigned int o = i ? 0 : pgoff;
		unsigned int l = min_t(size_t, PAGE_SIZE - o, len - done);

		/* A failed read leaves the pages as they were: unwritten. */
		if (ok && (err || (!op_is_write(opf) &&
		    !check(page_address(pages[i]) + o, l, tag, off + done))))
			*ok = false;
		done += l;
		__free_page(pages[i]);
	}
	bio_put(bio);
	return err;
}

static int write_tag(struct block_device *bdev, u64 off, size_t len, u32 tag,
		     blk_opf_t flags)
{
	return page_io(bdev, REQ_OP_WRITE | flags, off, len, 0, tag, NULL);
}

/* Does [off, off + len) read back as tag, through a bio? */
static bool reads_as(struct block_device *bdev, u64 off, size_t len, u32 tag)
{
	bool ok = false;

	KSHIM_ASSERT_EQ(page_io(bdev, REQ_OP_READ, off, len, 0, tag, &ok), 0);
	return ok;
}

/* Does the image file itself hold tag at [off, off + len)? */
static bool image_holds(u64 off, size_t len, u32 tag)
{
	void *buf = kvmalloc(len, GFP_KERNEL);
	bool ok;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_pread(img, buf, len, off), 0);
	ok = check(buf, len, tag, off);
	kvfree(buf);
	return ok;
}

/* Is the image file zero at [off, off + len)? */
static bool image_zero(u64 off, size_t len)
{
	u8 *buf = kvzalloc(len, GFP_KERNEL);
	bool ok;
	size_t i;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_pread(img, buf, len, off), 0);
	for (i = 0, ok = true; i < len; i++)
		ok &= !buf[i];
	kvfree(buf);
	return ok;
}

/* ---- round trips ----------------------------------------------------------- */

static void round_trip_shapes(unsigned int lbs)
{
	struct kshim_bdev *kb = new_dev(lbs);
	struct block_device *bdev;
	bool ok;

	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	bdev = kshim_bdev_bdev(kb);
	KSHIM_ASSERT_EQ(bdev_logical_block_size(bdev), lbs);
	KSHIM_ASSERT_EQ(bdev_nr_sectors(bdev), IMG_SIZE >> SECTOR_SHIFT);
	KSHIM_ASSERT(bdev_write_cache(bdev) && bdev_fua(bdev));

	/* One block, a multi-page bio, and one starting mid-page. */
	KSHIM_ASSERT_EQ(write_tag(bdev, 0, lbs, 1, 0), 0);
	KSHIM_ASSERT_EQ(write_tag(bdev, 64 << 10, 9 * PAGE_SIZE, 2, 0), 0);
	KSHIM_ASSERT_EQ(page_io(bdev, REQ_OP_WRITE, 256 << 10, 3 * lbs + 4096,
				lbs == 512 ? 1536 : 0, 3, NULL), 0);
	KSHIM_ASSERT(reads_as(bdev, 0, lbs, 1));
	KSHIM_ASSERT(reads_as(bdev, 64 << 10, 9 * PAGE_SIZE, 2));
	/* Read back with another shape than was written. */
	KSHIM_ASSERT_EQ(page_io(bdev, REQ_OP_READ, 64 << 10, 9 * PAGE_SIZE,
				lbs == 512 ? 512 : 0, 2, &ok), 0);
	KSHIM_ASSERT(ok);
	KSHIM_ASSERT(reads_as(bdev, 256 << 10, 3 * lbs + 4096, 3));
	/* The last block of the device. */
	KSHIM_ASSERT_EQ(write_tag(bdev, IMG_SIZE - lbs, lbs, 4, 0), 0);
	KSHIM_ASSERT(reads_as(bdev, IMG_SIZE - lbs, lbs, 4));
	/* After a flush the image file itself holds the data. */
	KSHIM_ASSERT_EQ(blkdev_issue_flush(bdev), 0);
	KSHIM_ASSERT(image_holds(64 << 10, 9 * PAGE_SIZE, 2));
	drop_dev(kb);
}

static void test_round_trip_512(void)
{
	round_trip_shapes(512);
}

static void test_round_trip_4096(void)
{
	round_trip_shapes(4096);
}

static void test_folio_bio_round_trip(void)
{
	struct kshim_bdev *kb = new_dev(512);
	struct folio *folio = folio_alloc(GFP_KERNEL, 2);
	struct bio *bio;

	KSHIM_ASSERT_FATAL(folio);
	fill(folio_address(folio), folio_size(folio), 7, 1 << 20);
	bio = bio_alloc(kshim_bdev_bdev(kb), 1, REQ_OP_WRITE, GFP_NOIO);
	bio->bi_iter.bi_sector = (1 << 20) >> SECTOR_SHIFT;
	KSHIM_ASSERT(bio_add_folio(bio, folio, folio_size(folio), 0));
	KSHIM_ASSERT_EQ(bio->bi_vcnt, 1);	/* one segment for 16 KiB */
	KSHIM_ASSERT_EQ(submit_bio_wait(bio), 0);
	bio_put(bio);
	folio_put(folio);
	KSHIM_ASSERT(reads_as(kshim_bdev_bdev(kb), 1 << 20, 4 * PAGE_SIZE, 7));
	drop_dev(kb);
}

static void test_split_and_chain(void)
{
	struct kshim_bdev *kb = new_dev(512);
	struct block_device *bdev = kshim_bdev_bdev(kb);
	struct page *pages[4];
	struct bio *bio, *front;
	int i;

	bio = bio_alloc(bdev, 4, REQ_OP_WRITE, GFP_NOIO);
	bio->bi_iter.bi_sector = 8;
	for (i = 0; i < 4; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		fill(page_address(pages[i]), PAGE_SIZE, 9, 4096 + i * PAGE_SIZE);
		__bio_add_page(bio, pages[i], PAGE_SIZE, 0);
	}
	/* Split 5 sectors off the front, mid-page, and chain it to the rest:
	 * the parent completes after both. */
	front = bio_split(bio, 5, GFP_NOIO, &fs_bio_set);
	KSHIM_ASSERT_FATAL(!IS_ERR_OR_NULL(front));
	KSHIM_ASSERT_EQ(bio_sectors(front), 5);
	KSHIM_ASSERT_EQ(bio->bi_iter.bi_sector, 13);
	bio_chain(front, bio);
	submit_bio(front);
	KSHIM_ASSERT_EQ(submit_bio_wait(bio), 0);
	bio_put(bio);
	for (i = 0; i < 4; i++)
		__free_page(pages[i]);
	KSHIM_ASSERT(reads_as(bdev, 4096, 4 * PAGE_SIZE, 9));
	drop_dev(kb);
}

/* ---- bad input ------------------------------------------------------------- */

static void test_out_of_range_io_fails_and_writes_nothing(void)
{
	struct kshim_bdev *kb = new_dev(512);
	struct block_device *bdev = kshim_bdev_bdev(kb);
	struct kshim_bdev_stats st;

	/* Straddles the end, and lies wholly past it. */
	KSHIM_ASSERT_EQ(write_tag(bdev, IMG_SIZE - 512, 4096, 1, 0), -EIO);
	KSHIM_ASSERT_EQ(write_tag(bdev, IMG_SIZE, 512, 1, 0), -EIO);
	KSHIM_ASSERT(kshim_printk_contains("beyond end of device"));
	KSHIM_ASSERT_EQ(blkdev_issue_flush(bdev), 0);
	kshim_bdev_get_stats(kb, &st);
	KSHIM_ASSERT_EQ(st.rejected, 2);
	KSHIM_ASSERT_EQ(st.ios[KSHIM_OP_WRITE], 0);
	KSHIM_ASSERT(image_zero(IMG_SIZE - 512, 512));
	KSHIM_ASSERT_EQ(kshim_host_image_size(img), (long long)IMG_SIZE);
	drop_dev(kb);
}

static void test_image_never_grows(void)
{
	struct kshim_bdev *kb;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	/* A device smaller than its file: I/O past the device fails even
	 * though the file is longer, and the file keeps its size. */
	kb = open_dev(512, IMG_SIZE / 2);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	KSHIM_ASSERT_EQ(write_tag(kshim_bdev_bdev(kb), IMG_SIZE / 2, 512, 1, 0),
			-EIO);
	kshim_bdev_close(kb);
	KSHIM_ASSERT(image_zero(IMG_SIZE / 2, 512));
	KSHIM_ASSERT_EQ(kshim_host_image_size(img), (long long)IMG_SIZE);
	kshim_host_image_remove(img);
}

static void test_misaligned_io_fails(void)
{
	struct kshim_bdev *kb = new_dev(4096);

	KSHIM_ASSERT_EQ(write_tag(kshim_bdev_bdev(kb), 512, 4096, 1, 0), -EIO);
	KSHIM_ASSERT_EQ(write_tag(kshim_bdev_bdev(kb), 0, 512, 1, 0), -EIO);
	KSHIM_ASSERT(kshim_printk_contains("not aligned"));
	drop_dev(kb);
}

static void test_bad_open_arguments(void)
{
	struct kshim_bdev_config cfg = { .path = "/nonexistent/kshim.img" };
	struct kshim_bdev *kb;

	kb = kshim_bdev_open(&cfg);
	KSHIM_ASSERT_EQ(PTR_ERR(kb), -ENOENT);
	KSHIM_ASSERT(kshim_printk_contains("/nonexistent/kshim.img"));

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	kb = open_dev(512, IMG_SIZE * 2);
	KSHIM_ASSERT_EQ(PTR_ERR(kb), -ENOSPC);
	KSHIM_ASSERT(kshim_printk_contains("smaller than"));
	kb = open_dev(1024, 0);
	KSHIM_ASSERT_EQ(PTR_ERR(kb), -EINVAL);
	KSHIM_ASSERT(kshim_printk_contains("must be 512 or 4096"));
	kb = open_dev(4096, IMG_SIZE - 512);
	KSHIM_ASSERT_EQ(PTR_ERR(kb), -EINVAL);
	kshim_host_image_remove(img);
}

static void test_flush_op_bio_is_refused(void)
{
	struct kshim_bdev *kb = new_dev(512);
	struct bio bio;

	/* REQ_OP_FLUSH never travels as a bio: submit_bio_noacct() says so. */
	bio_init(&bio, kshim_bdev_bdev(kb), NULL, 0, REQ_OP_FLUSH);
	KSHIM_ASSERT_EQ(submit_bio_wait(&bio), -EOPNOTSUPP);
	bio_uninit(&bio);
	drop_dev(kb);
}

/* ---- durability --------------------------------------------------------------- */

/* Crash, close, reopen: the device after a reboot. */
static struct kshim_bdev *crash_reboot(struct kshim_bdev *kb,
				       enum kshim_crash_mode mode,
				       struct kshim_crash_result *res)
{
	unsigned int lbs = bdev_logical_block_size(kshim_bdev_bdev(kb));

	KSHIM_ASSERT_EQ(kshim_bdev_crash(kb, mode, res), 0);
	kshim_bdev_close(kb);
	kb = open_dev(lbs, 0);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	return kb;
}

static void test_write_without_flush_is_lost(void)
{
	struct kshim_bdev *kb = new_dev(512);

	KSHIM_ASSERT_EQ(write_tag(kshim_bdev_bdev(kb), 0, 8192, 1, 0), 0);
	KSHIM_ASSERT(reads_as(kshim_bdev_bdev(kb), 0, 8192, 1));
	kb = crash_reboot(kb, KSHIM_CRASH_DROP_ALL, NULL);
	KSHIM_ASSERT(!reads_as(kshim_bdev_bdev(kb), 0, 8192, 1));
	KSHIM_ASSERT(image_zero(0, 8192));
	drop_dev(kb);
}

/*
 * A write that finds the cache full goes to the media at once, without
 * a copy, as a drive streams past its cache. First, as for FUA, the
 * cached writes up to the last it overlaps go to the media; or, when it
 * covers every cached write it overlaps, those are dropped unwritten. A power cut
 * then keeps what went through and loses what is still cached, older
 * writes included.
 */
static void test_write_past_a_full_cache_goes_to_the_media(void)
{
	struct kshim_bdev_config cfg = {
		.path = img, .sector_size = 512, .cache_bytes = 4 * 4096,
		.complete_inline = inline_mode,
	};
	struct kshim_disk_cache_stats st;
	struct kshim_bdev *kb;
	struct block_device *bdev;
	int b;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	kb = kshim_bdev_open(&cfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	bdev = kshim_bdev_bdev(kb);
	for (b = 0; b < 4; b++)
		KSHIM_ASSERT_EQ(write_tag(bdev, b * 4096, 4096, 1 + b, 0), 0);
	KSHIM_ASSERT(image_zero(0, 4 * 4096));
	/* Full: through, one bio of three pages starting mid-page. */
	KSHIM_ASSERT_EQ(page_io(bdev, REQ_OP_WRITE, 40960, 3 * 4096, 1536, 5,
				NULL), 0);
	KSHIM_ASSERT(image_holds(40960, 3 * 4096, 5));
	/* Still full, over the whole third cached block: that one
	 * dropped, never written; the others stay cached. */
	KSHIM_ASSERT_EQ(write_tag(bdev, 8192, 4096, 8, 0), 0);
	KSHIM_ASSERT(image_holds(8192, 4096, 8));
	KSHIM_ASSERT(image_zero(0, 2 * 4096));
	KSHIM_ASSERT(image_zero(12288, 4096));
	/* A FUA write over half of each of the first two: both written
	 * back, in order, then this one. */
	KSHIM_ASSERT_EQ(write_tag(bdev, 2048, 4096, 6, REQ_FUA), 0);
	KSHIM_ASSERT(image_holds(0, 2048, 1));
	KSHIM_ASSERT(image_holds(2048, 4096, 6));
	KSHIM_ASSERT(image_holds(6144, 2048, 2));
	KSHIM_ASSERT(image_zero(12288, 4096));
	KSHIM_ASSERT(reads_as(bdev, 12288, 4096, 4));
	kshim_host_disk_cache_stats(kshim_bdev_disk(kb), &st);
	KSHIM_ASSERT_EQ(st.write_throughs, 2);
	KSHIM_ASSERT_EQ(st.superseded_drops, 1);
	KSHIM_ASSERT_EQ(st.pressure_writebacks, 0);
	KSHIM_ASSERT_EQ(st.cached_bytes, 4096);
	/* Room again: cached. */
	KSHIM_ASSERT_EQ(write_tag(bdev, 16384, 4096, 7, 0), 0);
	KSHIM_ASSERT(image_zero(16384, 4096));

	kb = crash_reboot(kb, KSHIM_CRASH_DROP_ALL, NULL);
	bdev = kshim_bdev_bdev(kb);
	KSHIM_ASSERT(reads_as(bdev, 40960, 3 * 4096, 5));
	KSHIM_ASSERT(reads_as(bdev, 0, 2048, 1));
	KSHIM_ASSERT(reads_as(bdev, 2048, 4096, 6));
	KSHIM_ASSERT(reads_as(bdev, 6144, 2048, 2));
	KSHIM_ASSERT(reads_as(bdev, 8192, 4096, 8));
	KSHIM_ASSERT(image_zero(12288, 2 * 4096));
	drop_dev(kb);
}

static void test_fua_write_survives(void)
{
	struct kshim_bdev *kb = new_dev(512);

	KSHIM_ASSERT_EQ(write_tag(kshim_bdev_bdev(kb), 0, 8192, 1, REQ_FUA), 0);
	/* Durable on the host too, when a test asks (fsync of the image). */
	KSHIM_ASSERT_EQ(kshim_host_disk_host_sync(kshim_bdev_disk(kb)), 0);
	kb = crash_reboot(kb, KSHIM_CRASH_DROP_ALL, NULL);
	KSHIM_ASSERT(reads_as(kshim_bdev_bdev(kb), 0, 8192, 1));
	drop_dev(kb);
}

static void test_flush_covers_earlier_writes_only(void)
{
	struct kshim_bdev *kb = new_dev(512);
	struct block_device *bdev = kshim_bdev_bdev(kb);

	KSHIM_ASSERT_EQ(write_tag(bdev, 0, 4096, 1, 0), 0);
	KSHIM_ASSERT_EQ(write_tag(bdev, 8192, 4096, 2, 0), 0);
	KSHIM_ASSERT_EQ(blkdev_issue_flush(bdev), 0);
	KSHIM_ASSERT_EQ(write_tag(bdev, 16384, 4096, 3, 0), 0);
	/* A preflush write: what came before it is durable, it is not. */
	KSHIM_ASSERT_EQ(write_tag(bdev, 32768, 4096, 4, REQ_PREFLUSH), 0);
	KSHIM_ASSERT_EQ(write_tag(bdev, 0, 4096, 5, 0), 0);
	kb = crash_reboot(kb, KSHIM_CRASH_DROP_ALL, NULL);
	bdev = kshim_bdev_bdev(kb);
	KSHIM_ASSERT(reads_as(bdev, 0, 4096, 1));	/* 5 was lost */
	KSHIM_ASSERT(reads_as(bdev, 8192, 4096, 2));
	KSHIM_ASSERT(reads_as(bdev, 16384, 4096, 3));
	KSHIM_ASSERT(!reads_as(bdev, 32768, 4096, 4));
	drop_dev(kb);
}

struct async_write {
	struct completion done;
	blk_status_t status;
};

static void async_end_io(struct bio *bio)
{
	struct async_write *aw = bio->bi_private;

	aw->status = bio->bi_status;
	complete(&aw->done);
}

/* Submit a write of one page, not waited for. */
static struct bio *submit_async(struct block_device *bdev, u64 off, u32 tag,
				struct async_write *aw)
{
	struct bio *bio = bio_alloc(bdev, 1, REQ_OP_WRITE, GFP_NOIO);
	struct page *page = alloc_page(GFP_KERNEL);

	fill(page_address(page), PAGE_SIZE, tag, off);
	bio->bi_iter.bi_sector = off >> SECTOR_SHIFT;
	__bio_add_page(bio, page, PAGE_SIZE, 0);
	init_completion(&aw->done);
	bio->bi_private = aw;
	bio->bi_end_io = async_end_io;
	submit_bio(bio);
	return bio;
}

static void free_async(struct bio *bio)
{
	__free_page(bio_first_page_all(bio));
	bio_put(bio);
}

/*
 * Keep-random: over many crashes, every block holds either its durable
 * data or the data of a write that had completed; a write still in
 * flight at the crash (slow, by latency) never appears, and fails.
 */
#define SLOW_SECTOR	4096	/* 2 MiB into the image */

static void test_keep_random_keeps_only_completed_writes(void)
{
	struct kshim_bdev_config cfg = { .path = img,
					 .complete_inline = inline_mode };
	int round, kept = 0, dropped = 0;

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	for (round = 0; round < 8; round++) {
		struct async_write slow;
		struct kshim_crash_result res;
		struct kshim_fault f = {
			.ops = KSHIM_FAULT_WRITE, .start = SLOW_SECTOR,
			.nr_sectors = 8, .delay_ns = 10 * NSEC_PER_SEC,
		};
		struct kshim_bdev *kb = kshim_bdev_open(&cfg);
		struct block_device *bdev;
		struct bio *bio;
		int b;

		KSHIM_ASSERT_FATAL(!IS_ERR(kb));
		bdev = kshim_bdev_bdev(kb);
		for (b = 0; b < 16; b++)
			KSHIM_ASSERT_EQ(write_tag(bdev, b * 4096, 4096,
						  100 + round, 0), 0);
		/* This write waits 10 s in the device: still in flight. */
		KSHIM_ASSERT(kshim_bdev_add_fault(kb, &f) >= 0);
		bio = submit_async(bdev, (u64)SLOW_SECTOR << SECTOR_SHIFT,
				   200 + round, &slow);
		KSHIM_ASSERT_EQ(kshim_bdev_crash(kb, KSHIM_CRASH_KEEP_RANDOM,
						 &res), 0);
		wait_for_completion(&slow.done);
		KSHIM_ASSERT_EQ(slow.status, BLK_STS_IOERR);
		free_async(bio);
		KSHIM_ASSERT_EQ(res.cached, 16);
		kept += res.kept;
		dropped += res.cached - res.kept;
		kshim_bdev_close(kb);
		for (b = 0; b < 16; b++) {
			u32 tag;
			bool any = false;

			/* Durable is any earlier round's tag (or zero). */
			for (tag = 100; tag <= 100 + round; tag++)
				any |= image_holds(b * 4096, 4096, tag);
			if (!any)
				any = image_zero(b * 4096, 4096);
			KSHIM_ASSERT(any);
		}
		KSHIM_ASSERT(image_zero((u64)SLOW_SECTOR << SECTOR_SHIFT, 4096));
	}
	/* Both outcomes happen: the mode is random, not all or nothing. */
	KSHIM_ASSERT(kept > 0 && dropped > 0);
	kshim_host_image_remove(img);
}

static void test_tear_leaves_a_prefix(void)
{
	int torn = 0, round;

	/* A round tears with probability 1/4: 64 rounds miss with 1e-8. */
	for (round = 0; round < 64 && !torn; round++) {
		struct kshim_bdev *kb = new_dev(512);
		struct kshim_crash_result res;
		int s, first_old = 64;

		KSHIM_ASSERT_EQ(write_tag(kshim_bdev_bdev(kb), 0, 32768, 1,
					  REQ_FUA), 0);
		KSHIM_ASSERT_EQ(write_tag(kshim_bdev_bdev(kb), 0, 32768, 2, 0), 0);
		KSHIM_ASSERT_EQ(kshim_bdev_crash(kb, KSHIM_CRASH_TEAR, &res), 0);
		kshim_bdev_close(kb);
		torn += res.torn;
		/* Sector by sector: new data, then old data, never mixed
		 * within a sector and never new after old. */
		for (s = 0; s < 64; s++) {
			bool is_new = image_holds(s * 512, 512, 2);

			KSHIM_ASSERT(is_new || image_holds(s * 512, 512, 1));
			if (!is_new && first_old == 64)
				first_old = s;
			KSHIM_ASSERT(!(is_new && first_old < s));
		}
		if (res.torn && !(first_old > 0 && first_old < 64))
			kshim_info("torn write left %d new sectors\n", first_old);
		if (res.torn)
			KSHIM_ASSERT(first_old > 0 && first_old < 64);
		kshim_host_image_remove(img);
	}
	KSHIM_ASSERT(torn > 0);
}

/* ---- the write log -------------------------------------------------------------- */

static void test_write_log_rebuilds_every_flush_point(void)
{
	struct kshim_bdev *kb = new_dev(512);
	struct block_device *bdev = kshim_bdev_bdev(kb);
	char base[128], out[128];
	struct kshim_disk_log_entry e;
	unsigned long long n;
	int point, b;

	KSHIM_ASSERT_EQ(write_tag(bdev, 0, 65536, 1, REQ_FUA), 0);
	/* A cached write would be in neither the base nor the log. */
	KSHIM_ASSERT_EQ(write_tag(bdev, 1 << 20, 4096, 99, 0), 0);
	KSHIM_ASSERT_EQ(kshim_bdev_log_start(kb, NULL), -EBUSY);
	KSHIM_ASSERT(kshim_printk_contains("writes are still cached"));
	KSHIM_ASSERT_EQ(blkdev_issue_flush(bdev), 0);
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(base, sizeof(base),
						      IMG_SIZE, 1), 0);
	KSHIM_ASSERT_EQ(kshim_host_disk_snapshot(kshim_bdev_disk(kb), base), 0);
	KSHIM_ASSERT_EQ(kshim_bdev_log_start(kb, NULL), 0);
	/* Flush point p: blocks 0..p rewritten with tag 10 + p, then block
	 * p + 1 written and not flushed before the next point. */
	for (point = 0; point < 6; point++) {
		for (b = 0; b <= point; b++)
			KSHIM_ASSERT_EQ(write_tag(bdev, b * 4096, 4096,
						  10 + point, 0), 0);
		KSHIM_ASSERT_EQ(blkdev_issue_flush(bdev), 0);
		KSHIM_ASSERT_EQ(write_tag(bdev, (point + 1) * 4096, 4096,
					  50 + point, 0), 0);
	}
	/* One FUA write last: logged with its flag. */
	KSHIM_ASSERT_EQ(write_tag(bdev, 7 * 4096, 4096, 77, REQ_FUA), 0);
	/* The log's first entries: point 0's write of block 0, its flush. */
	KSHIM_ASSERT_EQ(kshim_host_disk_log_entry(kshim_bdev_disk(kb), 0, &e), 0);
	KSHIM_ASSERT(e.type == KSHIM_LOG_WRITE && e.off == 0 && e.len == 4096 &&
		     !e.flags);
	KSHIM_ASSERT_EQ(kshim_host_disk_log_flush_index(kshim_bdev_disk(kb), 0), 1);
	KSHIM_ASSERT_EQ(kshim_host_disk_log_entry(kshim_bdev_disk(kb), 1, &e), 0);
	KSHIM_ASSERT_EQ(e.type, KSHIM_LOG_FLUSH);
	n = kshim_host_disk_log_count(kshim_bdev_disk(kb));
	KSHIM_ASSERT_EQ(kshim_host_disk_log_entry(kshim_bdev_disk(kb), n - 1, &e), 0);
	KSHIM_ASSERT(e.type == KSHIM_LOG_WRITE && e.flags == KSHIM_LOG_FUA &&
		     e.off == 7 * 4096);
	KSHIM_ASSERT_EQ(kshim_host_disk_log_entry(kshim_bdev_disk(kb), n, &e),
			-ENOENT);
	KSHIM_ASSERT_EQ(kshim_host_image_create(out, sizeof(out), IMG_SIZE, 1), 0);
	for (point = 0; point < 6; point++) {
		long long at = kshim_host_disk_log_flush_index(
					kshim_bdev_disk(kb), point);
		u8 *buf = kmalloc(4096, GFP_KERNEL);

		KSHIM_ASSERT_FATAL(at >= 0);
		KSHIM_ASSERT_EQ(kshim_host_disk_log_replay(kshim_bdev_disk(kb),
						base, out, at + 1), 0);
		/* Independently: at flush point p, blocks 0..p hold 10 + p
		 * (the 50 + p - 1 write to block p came before and was
		 * overwritten); block p + 1's 50 + p write came after the
		 * flush, so it and every later block still hold tag 1. */
		for (b = 0; b < 16; b++) {
			u32 want = b <= point ? 10 + point : 1;

			KSHIM_ASSERT_EQ(kshim_host_image_pread(out, buf, 4096,
							       b * 4096), 0);
			KSHIM_ASSERT(check(buf, 4096, want, b * 4096));
		}
		kfree(buf);
	}
	/* Any point at all: the whole log gives the device's contents. */
	KSHIM_ASSERT_EQ(kshim_host_disk_log_replay(kshim_bdev_disk(kb), base, out,
			kshim_host_disk_log_count(kshim_bdev_disk(kb))), 0);
	for (b = 0; b < 16; b++) {
		u32 want = b <= 5 ? 15 : b == 6 ? 55 : b == 7 ? 77 : 1;
		u8 *buf = kmalloc(4096, GFP_KERNEL);

		KSHIM_ASSERT_EQ(kshim_host_image_pread(out, buf, 4096, b * 4096), 0);
		KSHIM_ASSERT(check(buf, 4096, want, b * 4096));
		KSHIM_ASSERT(reads_as(bdev, b * 4096, 4096, want));
		kfree(buf);
	}
	kshim_host_image_remove(out);
	kshim_host_image_remove(base);
	drop_dev(kb);
}

/* ---- faults ---------------------------------------------------------------------- */

static void test_fault_on_sector_range(void)
{
	struct kshim_bdev *kb = new_dev(512);
	struct block_device *bdev = kshim_bdev_bdev(kb);
	struct kshim_fault f = {
		.ops = KSHIM_FAULT_WRITE, .start = 64, .nr_sectors = 8,
		.status = BLK_STS_MEDIUM,
	};
	int id = kshim_bdev_add_fault(kb, &f);

	KSHIM_ASSERT(id >= 0);
	KSHIM_ASSERT_EQ(write_tag(bdev, 60 << 9, 4096, 1, 0), -ENODATA);
	KSHIM_ASSERT_EQ(write_tag(bdev, 72 << 9, 4096, 1, 0), 0);
	KSHIM_ASSERT(reads_as(bdev, 72 << 9, 4096, 1));
	KSHIM_ASSERT(!reads_as(bdev, 60 << 9, 4096, 1));	/* never written */
	KSHIM_ASSERT_EQ(kshim_bdev_fault_hits(kb, id), 1);
	drop_dev(kb);
}

static void test_fault_on_nth_io_and_flush(void)
{
	struct kshim_bdev *kb = new_dev(512);
	struct block_device *bdev = kshim_bdev_bdev(kb);
	struct kshim_fault nth = { .ops = KSHIM_FAULT_READ, .nth = 3,
				   .status = BLK_STS_IOERR };
	struct kshim_fault fl = { .ops = KSHIM_FAULT_FLUSH, .times = 1,
				  .status = BLK_STS_IOERR };
	struct kshim_bdev_stats st;
	int i, errors = 0;

	KSHIM_ASSERT_EQ(write_tag(bdev, 0, 4096, 1, 0), 0);
	KSHIM_ASSERT(kshim_bdev_add_fault(kb, &nth) >= 0);
	for (i = 1; i <= 5; i++) {
		bool ok;
		int err = page_io(bdev, REQ_OP_READ, 0, 4096, 0, 1, &ok);

		KSHIM_ASSERT_EQ(err, i == 3 ? -EIO : 0);
		errors += !!err;
	}
	KSHIM_ASSERT_EQ(errors, 1);
	KSHIM_ASSERT(kshim_bdev_add_fault(kb, &fl) >= 0);
	KSHIM_ASSERT_EQ(blkdev_issue_flush(bdev), -EIO);
	KSHIM_ASSERT_EQ(blkdev_issue_flush(bdev), 0);	/* times = 1 */
	kshim_bdev_get_stats(kb, &st);
	KSHIM_ASSERT_EQ(st.faults_injected, 2);
	KSHIM_ASSERT_EQ(st.errors, 2);
	drop_dev(kb);
}

static void test_fault_probability_rate(void)
{
	struct kshim_fault f = { .ops = KSHIM_FAULT_WRITE, .ppm = 250000,
				 .status = BLK_STS_IOERR };
	unsigned long hits[2];
	int run;

	for (run = 0; run < 2; run++) {
		struct kshim_bdev *kb = new_dev(512);
		int id = kshim_bdev_add_fault(kb, &f), i;

		for (i = 0; i < 200; i++)
			write_tag(kshim_bdev_bdev(kb), i * 512, 512, 1, 0);
		hits[run] = kshim_bdev_fault_hits(kb, id);
		drop_dev(kb);
	}
	/* 25% of 200, within a wide margin (the device's stream is seeded
	 * from the run's seed and the device number). */
	KSHIM_ASSERT(hits[0] > 20 && hits[0] < 80);
	KSHIM_ASSERT(hits[1] > 20 && hits[1] < 80);
}

static void test_bad_fault_is_refused(void)
{
	struct kshim_bdev *kb = new_dev(512);
	struct kshim_fault none = { .ops = 0 };
	struct kshim_fault ppm = { .ops = KSHIM_FAULT_READ, .ppm = 2000000 };

	KSHIM_ASSERT_EQ(kshim_bdev_add_fault(kb, &none), -EINVAL);
	KSHIM_ASSERT_EQ(kshim_bdev_add_fault(kb, &ppm), -EINVAL);
	drop_dev(kb);
}

/* ---- latency, queue depth, statistics --------------------------------------------- */

/* A new image opened with CFG, and N pages written to its start (tag
 * TAG) by bios all submitted before the first is waited for. */
static struct kshim_bdev *open_and_write_at_once(struct kshim_bdev_config *cfg,
						int n, u32 tag)
{
	struct async_write aw[32];
	struct bio *bios[32];
	struct kshim_bdev *kb;
	int i;

	KSHIM_ASSERT_FATAL(n <= ARRAY_SIZE(aw));
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      IMG_SIZE, 1), 0);
	kb = kshim_bdev_open(cfg);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	for (i = 0; i < n; i++)
		bios[i] = submit_async(kshim_bdev_bdev(kb), i * 4096, tag,
				       &aw[i]);
	for (i = 0; i < n; i++) {
		wait_for_completion(&aw[i].done);
		KSHIM_ASSERT_EQ(aw[i].status, BLK_STS_OK);
		free_async(bios[i]);
	}
	return kb;
}

static void test_latency_and_queue_depth(void)
{
	struct kshim_bdev_config cfg = {
		.path = img, .queue_depth = 4,
		.latency = { .base_ns = 100 * NSEC_PER_USEC },
		/* Ignored: a latency model keeps the device queued. */
		.complete_inline = inline_mode,
	};
	struct kshim_bdev_stats st;
	struct kshim_bdev *kb = open_and_write_at_once(&cfg, 32, 3);

	kshim_bdev_get_stats(kb, &st);
	KSHIM_ASSERT_EQ(st.ios[KSHIM_OP_WRITE], 32);
	KSHIM_ASSERT_EQ(st.bytes[KSHIM_OP_WRITE], 32 * 4096);
	/* The limit held; with virtual time 32 submissions at once fill
	 * it, with threads a slow submitter (TSan, valgrind) may not. */
	KSHIM_ASSERT(st.queue_depth_max >= 1 && st.queue_depth_max <= 4);
	if (kshim_sched->virtual_time)
		KSHIM_ASSERT_EQ(st.queue_depth_max, 4);
	KSHIM_ASSERT(st.lat_p50_ns >= 100 * NSEC_PER_USEC);
	KSHIM_ASSERT(st.lat_max_ns >= st.lat_p99_ns &&
		     st.lat_p99_ns >= st.lat_p95_ns &&
		     st.lat_p95_ns >= st.lat_p50_ns);
	kshim_bdev_print_stats(kb);
	KSHIM_ASSERT(reads_as(kshim_bdev_bdev(kb), 0, 32 * 4096, 3));
	drop_dev(kb);
}

/*
 * KSHIM_DEVICE replaces every device's latency and queue depth
 * (kshim_blk_profile.c): registered again as test_bdev_device_env with
 * KSHIM_DEVICE=base=20ms,qd=1. The device is opened asking for no
 * latency and a queue of 64; with the variable, 8 writes submitted at
 * once must each take 20 ms and go one at a time. Without it, as
 * asked: in the det backend the 8 fill the queue together.
 */
static void test_kshim_device_replaces_the_tests_device(void)
{
	struct kshim_bdev_config cfg = { .path = img, .queue_depth = 64 };
	const char *env = kshim_host_getenv("KSHIM_DEVICE");
	struct kshim_bdev_stats st;
	struct kshim_bdev *kb = open_and_write_at_once(&cfg, 8, 5);

	kshim_bdev_get_stats(kb, &st);
	if (env && !strcmp(env, "base=20ms,qd=1")) {
		KSHIM_ASSERT(st.lat_p50_ns >= 20 * NSEC_PER_MSEC);
		KSHIM_ASSERT_EQ(st.queue_depth_max, 1);
	} else {
		KSHIM_ASSERT_FATAL(!env);	/* registered with one value */
		if (kshim_sched->virtual_time)
			KSHIM_ASSERT(st.queue_depth_max > 1);
	}
	KSHIM_ASSERT(reads_as(kshim_bdev_bdev(kb), 0, 8 * 4096, 5));
	drop_dev(kb);
}

/* ---- completing inline ---------------------------------------------------------------- */

struct where_ended {
	struct completion done;
	struct task_struct *task;	/* who ran bi_end_io */
	bool hardirq, irqs_off;
	blk_status_t status;
};

static void where_end_io(struct bio *bio)
{
	struct where_ended *we = bio->bi_private;

	we->task = current;
	we->hardirq = in_hardirq();
	we->irqs_off = irqs_disabled();
	we->status = bio->bi_status;
	complete(&we->done);
}

/*
 * Write one page at off and wait for it; *we says where it ended. Ended
 * by the submitting task (we->task == current) means inside submit_bio():
 * the task waits from its return on. (completion_done() after the call
 * would say so too, but reads done without the lock: TSan objects.)
 */
static void write_where(struct block_device *bdev, u64 off, u32 tag,
			blk_opf_t flags, struct where_ended *we)
{
	struct bio *bio = bio_alloc(bdev, 1, REQ_OP_WRITE | flags, GFP_NOIO);
	struct page *page = alloc_page(GFP_KERNEL);

	fill(page_address(page), PAGE_SIZE, tag, off);
	bio->bi_iter.bi_sector = off >> SECTOR_SHIFT;
	__bio_add_page(bio, page, PAGE_SIZE, 0);
	init_completion(&we->done);
	we->task = NULL;
	bio->bi_private = we;
	bio->bi_end_io = where_end_io;
	submit_bio(bio);
	wait_for_completion(&we->done);
	__free_page(page);
	bio_put(bio);
}

static struct kshim_bdev *new_inline_dev(void)
{
	struct kshim_bdev *kb;

	inline_mode = true;
	kb = new_dev(512);
	inline_mode = false;
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	return kb;
}

static void test_inline_ends_bio_in_submitter_as_irq(void)
{
	struct kshim_bdev *kb = new_inline_dev();
	struct block_device *bdev = kshim_bdev_bdev(kb);
	struct where_ended we;

	/* Ended inside submit_bio(), by the submitter, as from an IRQ. */
	write_where(bdev, 0, 1, 0, &we);
	KSHIM_ASSERT(we.task == current);
	KSHIM_ASSERT(we.hardirq && we.irqs_off);
	KSHIM_ASSERT_EQ(we.status, BLK_STS_OK);
	KSHIM_ASSERT(reads_as(bdev, 0, PAGE_SIZE, 1));
	drop_dev(kb);
}

static void test_inline_falls_back_with_a_fault_rule(void)
{
	struct kshim_bdev *kb = new_inline_dev();
	struct block_device *bdev = kshim_bdev_bdev(kb);
	struct kshim_fault f = { .ops = KSHIM_FAULT_READ, .start = 1 << 20,
				 .nr_sectors = 8, .status = BLK_STS_IOERR };
	struct where_ended we;

	/* Any fault rule, even one this write does not match, sends I/O
	 * through the queue: faults are decided in submission order. */
	KSHIM_ASSERT(kshim_bdev_add_fault(kb, &f) >= 0);
	write_where(bdev, 0, 2, 0, &we);
	KSHIM_ASSERT(we.task && we.task != current);
	KSHIM_ASSERT(we.hardirq);
	KSHIM_ASSERT_EQ(we.status, BLK_STS_OK);
	kshim_bdev_clear_faults(kb);
	write_where(bdev, 0, 3, 0, &we);
	KSHIM_ASSERT(we.task == current);
	KSHIM_ASSERT(we.task == current);
	KSHIM_ASSERT(reads_as(bdev, 0, PAGE_SIZE, 3));
	drop_dev(kb);
}

static void inline_observer(void *priv, struct bio *bio)
{
	(*(int *)priv)++;
}

static void test_inline_flush_fua_and_stats(void)
{
	struct kshim_bdev *kb = new_inline_dev();
	struct block_device *bdev = kshim_bdev_bdev(kb);
	struct kshim_bdev_stats st;
	struct kshim_crash_result res;
	struct where_ended we;
	int seen = 0;

	kshim_bdev_set_observer(kb, inline_observer, &seen);
	write_where(bdev, 0, 1, 0, &we);
	KSHIM_ASSERT(we.task == current);
	write_where(bdev, 4096, 2, REQ_FUA, &we);
	KSHIM_ASSERT(we.task == current);
	/* Durable on the image before the call returns. */
	KSHIM_ASSERT(image_holds(4096, 4096, 2));
	KSHIM_ASSERT(!image_holds(0, 4096, 1));
	write_where(bdev, 8192, 3, REQ_PREFLUSH, &we);
	KSHIM_ASSERT(we.task == current);
	KSHIM_ASSERT(image_holds(0, 4096, 1));		/* the preflush */
	KSHIM_ASSERT(!image_holds(8192, 4096, 3));	/* not itself */
	write_where(bdev, 12288, 4, 0, &we);
	KSHIM_ASSERT(we.task == current);
	KSHIM_ASSERT(reads_as(bdev, 12288, 4096, 4));
	KSHIM_ASSERT_EQ(seen, 5);			/* 4 writes, 1 read */
	kshim_bdev_set_observer(kb, NULL, NULL);
	kshim_bdev_get_stats(kb, &st);
	KSHIM_ASSERT_EQ(st.ios[KSHIM_OP_WRITE], 4);
	KSHIM_ASSERT_EQ(st.bytes[KSHIM_OP_WRITE], 4 * 4096);
	KSHIM_ASSERT_EQ(st.ios[KSHIM_OP_READ], 1);
	KSHIM_ASSERT_EQ(st.preflushes, 1);
	KSHIM_ASSERT_EQ(st.fua_writes, 1);
	KSHIM_ASSERT_EQ(st.errors, 0);
	KSHIM_ASSERT_EQ(st.queue_depth_max, 1);
	/* A power cut loses the two cached writes; I/O after it fails. */
	KSHIM_ASSERT_EQ(kshim_bdev_crash(kb, KSHIM_CRASH_DROP_ALL, &res), 0);
	KSHIM_ASSERT_EQ(res.cached, 2);
	write_where(bdev, 0, 5, 0, &we);
	KSHIM_ASSERT_EQ(we.status, BLK_STS_IOERR);
	kshim_bdev_get_stats(kb, &st);
	KSHIM_ASSERT_EQ(st.errors, 1);
	kshim_bdev_close(kb);
	KSHIM_ASSERT(image_holds(0, 4096, 1));
	KSHIM_ASSERT(image_holds(4096, 4096, 2));
	KSHIM_ASSERT(image_zero(8192, 8192));
	kshim_host_image_remove(img);
}

struct inline_writer {
	struct block_device *bdev;
	int id;
	struct task_struct *task;
};

/* Blocks id, id + 4, id + 8 ... of 64, each written twice, the second
 * time with its own tag. */
static void inline_writer_main(void *arg)
{
	struct inline_writer *w = arg;
	int b;

	for (b = w->id; b < 64; b += 4) {
		KSHIM_ASSERT_EQ(write_tag(w->bdev, b * 4096, 4096, 1000, 0), 0);
		KSHIM_ASSERT_EQ(write_tag(w->bdev, b * 4096, 4096, b, 0), 0);
	}
}

static void test_inline_concurrent_submitters(void)
{
	struct kshim_bdev *kb = new_inline_dev();
	struct inline_writer w[4];
	struct kshim_bdev_stats st;
	int i, b;

	for (i = 0; i < 4; i++) {
		w[i].bdev = kshim_bdev_bdev(kb);
		w[i].id = i;
		w[i].task = kshim_task_run(inline_writer_main, &w[i],
					   "inline_writer", -1);
	}
	for (i = 0; i < 4; i++)
		kshim_task_join(w[i].task);
	KSHIM_ASSERT_EQ(blkdev_issue_flush(kshim_bdev_bdev(kb)), 0);
	for (b = 0; b < 64; b++) {
		KSHIM_ASSERT(reads_as(kshim_bdev_bdev(kb), b * 4096, 4096, b));
		KSHIM_ASSERT(image_holds(b * 4096, 4096, b));
	}
	kshim_bdev_get_stats(kb, &st);
	KSHIM_ASSERT_EQ(st.ios[KSHIM_OP_WRITE], 128);
	KSHIM_ASSERT(st.queue_depth_max >= 1 && st.queue_depth_max <= 4);
	drop_dev(kb);
}

/* ---- images from xfsprogs ----------------------------------------------------------- */

static void xfs_superblock_reads_back(unsigned int lbs)
{
	char cmd[512];
	struct kshim_bdev *kb;
	struct page *page = alloc_page(GFP_KERNEL);
	u8 *host = kmalloc(4096, GFP_KERNEL);
	struct bio *bio;

	/* xfsprogs 6 refuses file systems under 300 MB; the file is sparse. */
	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(img, sizeof(img),
						      512ULL << 20, 0), 0);
	snprintf(cmd, sizeof(cmd), "PATH=$PATH:/usr/sbin:/sbin mkfs.xfs -q -f -s size=%u %s",
		 lbs, img);
	if (kshim_host_run_command(cmd) != 0) {
		kshim_info("%s failed (is xfsprogs installed? ./kshim setup installs it)\n",
			   cmd);
		KSHIM_ASSERT(0);
		goto out;
	}
	kb = open_dev(lbs, 0);
	KSHIM_ASSERT_FATAL(!IS_ERR(kb));
	bio = bio_alloc(kshim_bdev_bdev(kb), 1, REQ_OP_READ | REQ_META, GFP_NOIO);
	bio->bi_iter.bi_sector = 0;
	__bio_add_page(bio, page, 4096, 0);
	KSHIM_ASSERT_EQ(submit_bio_wait(bio), 0);
	bio_put(bio);
	KSHIM_ASSERT_EQ(kshim_host_image_pread(img, host, 4096, 0), 0);
	KSHIM_ASSERT(!memcmp(page_address(page), "XFSB", 4));
	KSHIM_ASSERT(!memcmp(page_address(page), host, 4096));
	kshim_bdev_close(kb);
out:
	kshim_host_image_remove(img);
	kfree(host);
	__free_page(page);
}

static void test_mkfs_xfs_image_512(void)
{
	xfs_superblock_reads_back(512);
}

static void test_mkfs_xfs_image_4096(void)
{
	xfs_superblock_reads_back(4096);
}

static const struct kshim_test bio_tests[] = {
	KSHIM_TEST(test_round_trip_512),
	KSHIM_TEST(test_round_trip_4096),
	KSHIM_TEST(test_folio_bio_round_trip),
	KSHIM_TEST(test_split_and_chain),
	{ }
};

static const struct kshim_test input_tests[] = {
	KSHIM_TEST(test_out_of_range_io_fails_and_writes_nothing),
	KSHIM_TEST(test_image_never_grows),
	KSHIM_TEST(test_misaligned_io_fails),
	KSHIM_TEST(test_bad_open_arguments),
	KSHIM_TEST(test_flush_op_bio_is_refused),
	KSHIM_TEST(test_bad_fault_is_refused),
	{ }
};

static const struct kshim_test durability_tests[] = {
	KSHIM_TEST(test_write_without_flush_is_lost),
	KSHIM_TEST(test_fua_write_survives),
	KSHIM_TEST(test_write_past_a_full_cache_goes_to_the_media),
	KSHIM_TEST(test_flush_covers_earlier_writes_only),
	KSHIM_TEST(test_keep_random_keeps_only_completed_writes),
	KSHIM_TEST(test_tear_leaves_a_prefix),
	KSHIM_TEST(test_write_log_rebuilds_every_flush_point),
	{ }
};

static const struct kshim_test fault_tests[] = {
	KSHIM_TEST(test_fault_on_sector_range),
	KSHIM_TEST(test_fault_on_nth_io_and_flush),
	KSHIM_TEST(test_fault_probability_rate),
	KSHIM_TEST(test_latency_and_queue_depth),
	KSHIM_TEST(test_kshim_device_replaces_the_tests_device),
	{ }
};

static const struct kshim_test inline_tests[] = {
	KSHIM_TEST(test_inline_ends_bio_in_submitter_as_irq),
	KSHIM_TEST(test_inline_falls_back_with_a_fault_rule),
	KSHIM_TEST(test_inline_flush_fua_and_stats),
	KSHIM_TEST(test_inline_concurrent_submitters),
	{ }
};

static const struct kshim_test xfs_image_tests[] = {
	KSHIM_TEST(test_mkfs_xfs_image_512),
	KSHIM_TEST(test_mkfs_xfs_image_4096),
	{ }
};

KSHIM_SUITES({ "bio", NULL, NULL, bio_tests },
	     { "bad_input", NULL, NULL, input_tests },
	     { "durability", NULL, NULL, durability_tests },
	     { "faults", NULL, NULL, fault_tests },
	     { "xfs_image", NULL, NULL, xfs_image_tests },
	     { "inline", NULL, NULL, inline_tests },
	     { "bio_inline", inline_on, inline_off, bio_tests },
	     { "bad_input_inline", inline_on, inline_off, input_tests },
	     { "durability_inline", inline_on, inline_off, durability_tests },
	     { "faults_inline", inline_on, inline_off, fault_tests });
