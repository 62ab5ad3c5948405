// SPDX-License-Identifier: GPL-2.0
/*
 * kshim's block layer below the real block/bio.c: a bio-based disk per
 * image file (kshim/bdev.h), submit_bio() with the checks the kernel's
 * submit_bio_noacct() makes, a queue-depth limit, and a completion task
 * per device that performs each I/O on the image (kshim/host_disk.h) and
 * ends the bio in hard-irq context.
 *
 * Order of service: each I/O gets a due time (submission + the latency
 * model + injected delay) on the backend's clock; the completion task
 * serves them in due order, FIFO among equals. With no latency, I/O
 * completes in submission order; with jitter, it may be reordered as on
 * a real device. Data moves when the I/O is served, as DMA would.
 *
 * A device opened with complete_inline serves an I/O in the submitting
 * task when that order could not differ: no latency model, no fault
 * rule, nothing queued (kshim_blk_inline()). It ends the bio in hard-irq
 * context all the same, as if the interrupt came at once on the
 * submitter's CPU. That is how the kernel's brd completes its bios
 * (in process context, though), so kernel code copes with an end_io
 * called from inside submit_bio().
 *
 * Faked here instead of compiled from block/blk-core.c, blk-flush.c,
 * genhd.c (see docs/FAKES.md): submit_bio(), submit_bio_noacct(),
 * blk_status_to_errno(), errno_to_blk_status(), blkdev_issue_flush(),
 * the plug functions.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <linux/vmstat.h>
#include <linux/err.h>
#include <linux/string.h>
#include <linux/fs.h>
#include <linux/log2.h>

#include <kshim/bdev.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>

#include "blk-rq-qos.h"
#include "kshim_blk.h"

#define KSHIM_BLK_MAJOR		259	/* the kernel's BLOCK_EXT_MAJOR */

static atomic_t disk_index = ATOMIC_INIT(0);
/* Open devices, for lookup_bdev() and bdev_file_open_by_dev(). */
static LIST_HEAD(kshim_bdevs);
static DEFINE_SPINLOCK(kshim_bdevs_lock);

/* By disk name (name != NULL) or by device number. */
struct kshim_bdev *kshim_bdev_find(const char *name, dev_t dev)
{
	struct kshim_bdev *kb, *found = NULL;

	spin_lock(&kshim_bdevs_lock);
	list_for_each_entry(kb, &kshim_bdevs, node)
		if (name ? !strcmp(kb->gd->disk_name, name) :
			   kb->bdev->bd_dev == dev) {
			found = kb;
			break;
		}
	spin_unlock(&kshim_bdevs_lock);
	return found;
}

/* Without the VFS glue linked in, nothing was set up on the disk. */
void __weak kshim_bdev_vfs_release(struct kshim_bdev *kb)
{
}

/* ---- completion -------------------------------------------------------- */

/* Copy the bio's data out of (write, into bounce, which the device then
 * owns) or into (read) its pages. */
static int bio_do_data(struct kshim_bdev *kb, struct bio *bio, void *bounce)
{
	u64 off = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	struct bvec_iter iter;
	struct bio_vec bv;
	size_t done = 0;
	int err = 0;

	/*
	 * Slab objects are host allocations outside kshim's linear map: a
	 * bio page made from one by virt_to_page() is the placeholder page,
	 * with no data behind it (asm/page.h). Loud rather than a wrong copy.
	 */
	bio_for_each_segment(bv, bio, iter)
		if (bv.bv_page == kshim_foreign_page(NULL))
			kshim_fatal("bio at sector %llu: its data is slab memory, "
				    "which kshim cannot do I/O on (use pages, "
				    "vmalloc or kvmalloc of a page or more)",
				    (unsigned long long)bio->bi_iter.bi_sector);

	if (op_is_write(bio_op(bio))) {
		bio_for_each_segment(bv, bio, iter) {
			void *p = bvec_kmap_local(&bv);

			memcpy(bounce + done, p, bv.bv_len);
			kunmap_local(p);
			done += bv.bv_len;
		}
		return kshim_host_disk_write_wbuf(kb->disk, off, bounce, done,
						  !!(bio->bi_opf & REQ_FUA));
	}
	bio_for_each_segment(bv, bio, iter) {
		void *p = bvec_kmap_local(&bv);

		err = kshim_host_disk_read(kb->disk, off + done, p, bv.bv_len);
		kunmap_local(p);
		if (err)
			break;
		done += bv.bv_len;
	}
	return err;
}

/*
 * A write the device does not cache (FUA, or one that finds the cache
 * full: kshim_host_disk_write_through()) goes from the bio's pages to
 * the image in one pwritev(), without the copy into a cache record.
 * *done says whether it did; if not, the caller caches it.
 */
static int bio_write_through(struct kshim_bdev *kb, struct bio *bio,
			     int *done)
{
	struct kshim_disk_seg seg[KSHIM_DISK_MAX_SEGS];
	struct bvec_iter iter;
	struct bio_vec bv;
	int n = 0;

	*done = 0;
	bio_for_each_segment(bv, bio, iter) {
		/* Slab memory has no page behind it: bio_do_data() says so. */
		if (n == KSHIM_DISK_MAX_SEGS ||
		    bv.bv_page == kshim_foreign_page(NULL))
			return 0;
		/* No highmem in kshim: a page's address stays valid. */
		seg[n].base = bvec_virt(&bv);
		seg[n++].len = bv.bv_len;
	}
	return kshim_host_disk_write_through(kb->disk,
			(u64)bio->bi_iter.bi_sector << SECTOR_SHIFT, seg, n,
			bio->bi_iter.bi_size, !!(bio->bi_opf & REQ_FUA), done);
}

/* Perform one I/O on the image; the bio's status. */
static blk_status_t kshim_blk_serve(struct kshim_bdev *kb,
				    struct kshim_blk_req *rq)
{
	struct bio *bio = rq->bio;
	void *bounce = NULL;
	int err = 0, done;

	if (rq->status != BLK_STS_OK)
		return rq->status;		/* injected */
	if (READ_ONCE(kb->dead))
		return BLK_STS_IOERR;
	if (bio->bi_opf & REQ_PREFLUSH)
		err = kshim_host_disk_flush(kb->disk);
	if (err)
		goto out;
	switch (bio_op(bio)) {
	case REQ_OP_DISCARD:
		err = kshim_host_disk_discard(kb->disk,
				(u64)bio->bi_iter.bi_sector << SECTOR_SHIFT,
				bio->bi_iter.bi_size);
		break;
	case REQ_OP_WRITE:
		if (!bio->bi_iter.bi_size)
			break;			/* an empty flush */
		err = bio_write_through(kb, bio, &done);
		if (done)
			break;
		/* The cache record itself: filled once, then owned by it. */
		bounce = kshim_host_disk_wbuf_alloc(kb->disk,
						    bio->bi_iter.bi_size);
		err = bounce ? bio_do_data(kb, bio, bounce) : -ENOMEM;
		break;
	case REQ_OP_READ:
		err = bio_do_data(kb, bio, NULL);
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
out:
	if (err)
		pr_err("kshim: %s: host I/O error %d at sector %llu\n",
		       kb->gd->disk_name, err,
		       (unsigned long long)bio->bi_iter.bi_sector);
	return err ? BLK_STS_IOERR : BLK_STS_OK;
}

/* End the bio as the interrupt handler of a real device would. */
static void kshim_blk_end(struct kshim_bdev *kb, struct bio *bio,
			  u64 submit_ns, blk_status_t status)
{
	u64 lat = kshim_clock_ns() - submit_ns;
	int left;

	kshim_blk_account(kb, bio, status, lat);
	if (status != BLK_STS_OK)
		kshim_blk_note_failed_write(bio);
	local_irq_disable();
	__preempt_count_add(HARDIRQ_OFFSET);
	bio->bi_status = status;
	bio_endio(bio);
	__preempt_count_sub(HARDIRQ_OFFSET);
	local_irq_enable();
	/* Slot waiters are woken in batches, as blk-mq's tag waiters are
	 * (sbitmap's wake_batch): one wake-up per wake_batch completions. */
	left = atomic_dec_return(&kb->inflight);
	if (left == 0 || (kb->queue_depth - left) % kb->wake_batch == 0)
		wake_up(&kb->slot_wait);
}

/* The earliest-due request, or NULL. Called with kb->lock held. */
static struct kshim_blk_req *first_due(struct kshim_bdev *kb)
{
	return list_first_entry_or_null(&kb->queue, struct kshim_blk_req,
					list);
}

static void kshim_blk_complete_main(void *arg)
{
	struct kshim_bdev *kb = arg;

	kshim_task_set_interrupt();	/* the disk's completion interrupt */
	for (;;) {
		struct kshim_blk_req *rq;
		blk_status_t status;
		struct bio *bio;
		u64 now, submit_ns;
		u32 gen;

		spin_lock(&kb->lock);
		kb->waiting = false;
		gen = READ_ONCE(kb->gen);
		rq = first_due(kb);
		if (!rq) {
			bool stop = kb->stopping;

			kb->waiting = !stop;
			spin_unlock(&kb->lock);
			if (stop)
				return;
			kshim_wait(&kb->gen, gen, "block device idle");
			continue;
		}
		now = kshim_clock_ns();
		if (rq->due_ns > now && !kb->dead) {
			kb->waiting = true;
			spin_unlock(&kb->lock);
			kshim_wait_timeout(&kb->gen, gen, rq->due_ns - now,
					   "block device latency");
			continue;
		}
		list_del(&rq->list);
		spin_unlock(&kb->lock);
		/* A crash waits for the I/O being served, then is atomic. */
		mutex_lock(&kb->serve_lock);
		status = kshim_blk_serve(kb, rq);
		mutex_unlock(&kb->serve_lock);
		bio = rq->bio;
		submit_ns = rq->submit_ns;
		kfree(rq);
		kshim_blk_end(kb, bio, submit_ns, status);
	}
}

/*
 * The queue or the device state changed: tell the completion task. Called
 * with kb->lock held. Only a task that is (about to be) waiting needs
 * the wake-up call; a running one rereads the queue anyway.
 */
static void kshim_blk_kick(struct kshim_bdev *kb)
{
	WRITE_ONCE(kb->gen, kb->gen + 1);
	if (kb->waiting)
		kshim_wake(&kb->gen, 1);
}

/* ---- submission ---------------------------------------------------------- */

/* Is the bio one the kernel's submit_bio_noacct() would refuse? */
static blk_status_t kshim_blk_check(struct kshim_bdev *kb, struct bio *bio)
{
	struct block_device *bdev = bio->bi_bdev;
	sector_t nr = bdev_nr_sectors(bdev);
	unsigned int lbs = bdev_logical_block_size(bdev);

	switch (bio_op(bio)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
	case REQ_OP_DISCARD:
		break;
	default:
		pr_err("kshim: %s: operation %u is not supported (REQ_OP_FLUSH is never a bio: use REQ_PREFLUSH)\n",
		       kb->gd->disk_name, bio_op(bio));
		return BLK_STS_NOTSUPP;
	}
	if (op_is_flush(bio->bi_opf) && bio_op(bio) != REQ_OP_WRITE) {
		WARN_ON_ONCE(1);	/* as submit_bio_noacct() */
		return BLK_STS_IOERR;
	}
	if (bio->bi_iter.bi_sector > nr || bio_sectors(bio) > nr - bio->bi_iter.bi_sector) {
		pr_err("kshim: %s: attempt to access beyond end of device: sector %llu + %u > %llu\n",
		       kb->gd->disk_name,
		       (unsigned long long)bio->bi_iter.bi_sector,
		       bio_sectors(bio), (unsigned long long)nr);
		return BLK_STS_IOERR;
	}
	if ((((u64)bio->bi_iter.bi_sector << SECTOR_SHIFT) | bio->bi_iter.bi_size) &
	    (lbs - 1)) {
		pr_err("kshim: %s: I/O at sector %llu of %u bytes is not aligned to the %u-byte logical block size\n",
		       kb->gd->disk_name,
		       (unsigned long long)bio->bi_iter.bi_sector,
		       bio->bi_iter.bi_size, lbs);
		return BLK_STS_IOERR;
	}
	return BLK_STS_OK;
}

/*
 * complete_inline: serve the bio and end it here, in the submitter, as
 * long as nothing could have delayed or reordered it on the queued path
 * (no latency model, checked at open; no fault rule; nothing queued
 * ahead of it). False, having done nothing, otherwise. The bio holds a
 * slot. The observer sees it first, as on the queued path.
 */
static bool kshim_blk_inline(struct kshim_bdev *kb, struct bio *bio)
{
	struct kshim_blk_req rq = { .bio = bio, .status = BLK_STS_OK };

	rq.submit_ns = kshim_clock_ns();
	spin_lock(&kb->lock);
	if (!list_empty(&kb->faults) || !list_empty(&kb->queue) || kb->dead) {
		spin_unlock(&kb->lock);
		return false;
	}
	if (kb->observer)
		kb->observer(kb->observer_priv, bio);
	spin_unlock(&kb->lock);
	/* As the completion task does: a crash waits for this I/O. */
	mutex_lock(&kb->serve_lock);
	rq.status = kshim_blk_serve(kb, &rq);
	mutex_unlock(&kb->serve_lock);
	kshim_blk_end(kb, bio, rq.submit_ns, rq.status);
	return true;
}

static bool take_slot(struct kshim_bdev *kb)
{
	return atomic_add_unless(&kb->inflight, 1, kb->queue_depth);
}

void submit_bio_noacct(struct bio *bio)
{
	struct kshim_bdev *kb = bio->bi_bdev->bd_disk->private_data;
	struct kshim_blk_req *rq, *pos;
	blk_status_t status;

	might_sleep();
	status = kshim_blk_check(kb, bio);
	if (status != BLK_STS_OK) {
		kshim_blk_reject(kb);
		bio->bi_status = status;
		bio_endio(bio);
		return;
	}
	if (!take_slot(kb)) {
		if (bio->bi_opf & REQ_NOWAIT) {
			bio_wouldblock_error(bio);
			return;
		}
		wait_event(kb->slot_wait, take_slot(kb));
	}
	kshim_blk_note_depth(kb, atomic_read(&kb->inflight));
	if (kb->complete_inline && kshim_blk_inline(kb, bio))
		return;

	rq = kmalloc(sizeof(*rq), GFP_NOIO | __GFP_NOFAIL);
	rq->bio = bio;
	rq->submit_ns = kshim_clock_ns();

	spin_lock(&kb->lock);
	if (kb->observer)
		kb->observer(kb->observer_priv, bio);
	rq->status = BLK_STS_OK;
	rq->due_ns = rq->submit_ns + kshim_blk_service_ns(kb, bio, &rq->status);
	if (kb->dead)
		rq->status = BLK_STS_IOERR;
	/* Keep the queue sorted by due time, FIFO among equals. */
	list_for_each_entry_reverse(pos, &kb->queue, list)
		if (pos->due_ns <= rq->due_ns)
			break;
	list_add(&rq->list, &pos->list);
	kshim_blk_kick(kb);
	spin_unlock(&kb->lock);
}

void submit_bio(struct bio *bio)
{
	if (bio_op(bio) == REQ_OP_READ) {
		count_vm_events(PGPGIN, bio_sectors(bio));
	} else if (bio_op(bio) == REQ_OP_WRITE) {
		count_vm_events(PGPGOUT, bio_sectors(bio));
	}
	submit_bio_noacct(bio);
}

/* An empty REQ_PREFLUSH write, waited for: what blk-flush.c sends. */
int blkdev_issue_flush(struct block_device *bdev)
{
	struct bio bio;

	bio_init(&bio, bdev, NULL, 0, REQ_OP_WRITE | REQ_PREFLUSH);
	return submit_bio_wait(&bio);
}

/* ---- status codes (block/blk-core.c's table, by name) -------------------- */

static const struct {
	blk_status_t status;
	int err;
	const char *name;
} kshim_blk_errors[] = {
	{ BLK_STS_OK, 0, "" },
	{ BLK_STS_NOTSUPP, -EOPNOTSUPP, "operation not supported" },
	{ BLK_STS_TIMEOUT, -ETIMEDOUT, "timeout" },
	{ BLK_STS_NOSPC, -ENOSPC, "critical space allocation" },
	{ BLK_STS_TRANSPORT, -ENOLINK, "recoverable transport" },
	{ BLK_STS_TARGET, -EREMOTEIO, "critical target" },
	{ BLK_STS_RESV_CONFLICT, -EBADE, "reservation conflict" },
	{ BLK_STS_MEDIUM, -ENODATA, "critical medium" },
	{ BLK_STS_PROTECTION, -EILSEQ, "protection" },
	{ BLK_STS_RESOURCE, -ENOMEM, "kernel resource" },
	{ BLK_STS_DEV_RESOURCE, -EBUSY, "device resource" },
	{ BLK_STS_AGAIN, -EAGAIN, "nonblocking retry" },
	{ BLK_STS_OFFLINE, -ENODEV, "device offline" },
	{ BLK_STS_DM_REQUEUE, -EREMCHG, "dm internal retry" },
	{ BLK_STS_ZONE_OPEN_RESOURCE, -ETOOMANYREFS, "open zones exceeded" },
	{ BLK_STS_ZONE_ACTIVE_RESOURCE, -EOVERFLOW, "active zones exceeded" },
	{ BLK_STS_DURATION_LIMIT, -ETIME, "duration limit exceeded" },
	{ BLK_STS_INVAL, -EINVAL, "invalid" },
	{ BLK_STS_IOERR, -EIO, "I/O" },
};

int blk_status_to_errno(blk_status_t status)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kshim_blk_errors); i++)
		if (kshim_blk_errors[i].status == status)
			return kshim_blk_errors[i].err;
	return -EIO;
}

blk_status_t errno_to_blk_status(int errno)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kshim_blk_errors); i++)
		if (kshim_blk_errors[i].err == errno)
			return kshim_blk_errors[i].status;
	return BLK_STS_IOERR;
}

/* ---- loud stubs ------------------------------------------------------------- */

/* rq-qos policies attach to a queue's rq_qos list; kshim's queues have
 * none, so block/blk-rq-qos.h never calls this. */
void __rq_qos_done_bio(struct rq_qos *rqos, struct bio *bio)
{
	kshim_unimplemented(__func__);
}

/*
 * Waiting for a bio (direct I/O): the kernel sleeps with a timeout of
 * half the hung-task period so that a long wait is not reported as hung.
 * kshim's hung-task detector watches the whole run instead, so this is a
 * plain I/O sleep.
 */
void blk_io_schedule(void)
{
	io_schedule();
}

/* ---- plugging -------------------------------------------------------------- */

/*
 * A bio-based disk is never held back by a plug (the kernel's plug only
 * batches blk-mq requests), so a plug here is what it is for such disks:
 * a place for unplug callbacks (blk_check_plugged()), run on finish.
 */
void blk_start_plug_nr_ios(struct blk_plug *plug, unsigned short nr_ios)
{
	if (current->plug)
		return;			/* nested: the outermost plug counts */
	memset(plug, 0, sizeof(*plug));
	plug->nr_ios = nr_ios;
	INIT_LIST_HEAD(&plug->cb_list);
	current->plug = plug;
}

void blk_start_plug(struct blk_plug *plug)
{
	blk_start_plug_nr_ios(plug, 1);
}

void __blk_flush_plug(struct blk_plug *plug, bool from_schedule)
{
	while (!list_empty(&plug->cb_list)) {
		struct blk_plug_cb *cb = list_first_entry(&plug->cb_list,
						struct blk_plug_cb, list);

		list_del(&cb->list);
		cb->callback(cb, from_schedule);
	}
	plug->cur_ktime = 0;
}

void blk_finish_plug(struct blk_plug *plug)
{
	if (plug == current->plug) {
		__blk_flush_plug(plug, false);
		current->plug = NULL;
	}
}

/* ---- devices ----------------------------------------------------------------- */

/* Marks the struct file of a kshim device (file_bdev()); no operations. */
static const struct file_operations kshim_bdev_file_ops;

/*
 * What blk_validate_limits() would leave for a simple bio-based disk
 * with a volatile write cache and FUA. The limits are advertised only:
 * kshim does not split bios to them (block/blk-merge.c is not compiled).
 */
static void kshim_blk_limits(struct queue_limits *lim, unsigned int lbs)
{
	memset(lim, 0, sizeof(*lim));
	lim->features = BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA;
	lim->logical_block_size = lbs;
	lim->physical_block_size = lbs;
	lim->io_min = lbs;
	lim->max_hw_sectors = BLK_SAFE_MAX_SECTORS;
	lim->max_sectors = BLK_SAFE_MAX_SECTORS;
	lim->max_dev_sectors = BLK_SAFE_MAX_SECTORS;
	lim->max_user_sectors = BLK_SAFE_MAX_SECTORS;
	lim->max_segments = BLK_MAX_SEGMENTS;
	lim->max_segment_size = BLK_MAX_SEGMENT_SIZE;
	lim->seg_boundary_mask = BLK_SEG_BOUNDARY_MASK;
	lim->max_hw_discard_sectors = UINT_MAX >> SECTOR_SHIFT;
	lim->max_discard_sectors = UINT_MAX >> SECTOR_SHIFT;
	lim->max_discard_segments = 1;
	lim->discard_granularity = lbs;
	lim->dma_alignment = SECTOR_SIZE - 1;
}

struct kshim_bdev *kshim_bdev_open(const struct kshim_bdev_config *asked)
{
	struct kshim_bdev_config device = *asked, *cfg = &device;
	unsigned int lbs = cfg->sector_size ? cfg->sector_size : 512;
	struct kshim_bdev *kb;
	struct gendisk *gd;
	struct block_device *bdev;
	struct request_queue *q;
	char msg[256];
	int idx, err;

	kshim_blk_device_override(cfg);
	kb = kzalloc(sizeof(*kb), GFP_KERNEL | __GFP_NOFAIL);
	err = kshim_host_disk_open(cfg->path, cfg->size, lbs,
				   cfg->cache_bytes ? cfg->cache_bytes : 64 << 20,
				   &kb->disk, msg, sizeof(msg));
	if (err) {
		pr_err("kshim: kshim_bdev_open: %s\n", msg);
		kfree(kb);
		return ERR_PTR(err);
	}
	idx = atomic_inc_return(&disk_index) - 1;
	gd = kb->gd = kzalloc(sizeof(*gd), GFP_KERNEL | __GFP_NOFAIL);
	bdev = kb->bdev = kzalloc(sizeof(*bdev), GFP_KERNEL | __GFP_NOFAIL);
	q = kb->q = kzalloc(sizeof(*q), GFP_KERNEL | __GFP_NOFAIL);
	if (cfg->name)
		strscpy(gd->disk_name, cfg->name, sizeof(gd->disk_name));
	else
		snprintf(gd->disk_name, sizeof(gd->disk_name), "kshim%d", idx);
	kshim_blk_limits(&q->limits, lbs);
	q->disk = gd;
	q->queuedata = kb;
	gd->queue = q;
	gd->part0 = bdev;
	gd->private_data = kb;
	gd->major = KSHIM_BLK_MAJOR;
	gd->first_minor = idx;
	gd->minors = 1;
	bdev->bd_disk = gd;
	bdev->bd_queue = q;
	bdev->bd_dev = MKDEV(KSHIM_BLK_MAJOR, idx);
	bdev->bd_nr_sectors = kshim_host_disk_size(kb->disk) >> SECTOR_SHIFT;
	atomic_set(&bdev->__bd_flags, BD_HAS_SUBMIT_BIO);
	kb->file = kzalloc(sizeof(*kb->file), GFP_KERNEL | __GFP_NOFAIL);
	kb->file->f_op = &kshim_bdev_file_ops;
	kb->file->private_data = bdev;
	kb->blocksize = lbs;

	kb->queue_depth = cfg->queue_depth ? cfg->queue_depth : 64;
	kb->wake_batch = clamp(kb->queue_depth / 8, 1U, 8U);
	kb->latency = cfg->latency;
	kb->complete_inline = cfg->complete_inline && !cfg->latency.base_ns &&
			      !cfg->latency.jitter_ns && !cfg->latency.slow_ppm;
	kb->rng = kshim_seed() ^ (0x9E3779B97F4A7C15ULL * (idx + 1));
	spin_lock_init(&kb->lock);
	mutex_init(&kb->serve_lock);
	INIT_LIST_HEAD(&kb->queue);
	INIT_LIST_HEAD(&kb->faults);
	init_waitqueue_head(&kb->slot_wait);
	atomic_set(&kb->inflight, 0);
	kshim_blk_stats_init(kb);
	kb->task = kshim_task_run(kshim_blk_complete_main, kb, gd->disk_name, -1);
	spin_lock(&kshim_bdevs_lock);
	list_add_tail(&kb->node, &kshim_bdevs);
	spin_unlock(&kshim_bdevs_lock);
	return kb;
}

struct block_device *kshim_bdev_bdev(struct kshim_bdev *kb)
{
	return kb->bdev;
}

struct file *kshim_bdev_file(struct kshim_bdev *kb)
{
	return kb->file;
}

static struct kshim_bdev *kshim_bdev_of(struct block_device *bdev)
{
	return bdev->bd_disk->private_data;
}

struct kshim_bdev *kshim_bdev_of_bdev(struct block_device *bdev)
{
	return kshim_bdev_of(bdev);
}

void kshim_bdev_set_observer(struct kshim_bdev *kb, kshim_bio_observer_fn fn,
			     void *priv)
{
	spin_lock(&kb->lock);
	kb->observer = fn;
	kb->observer_priv = priv;
	spin_unlock(&kb->lock);
}

/*
 * file_bdev(), set_blocksize() and block_size() on kshim's own
 * open-device files (there is no bdev inode or bdev page cache:
 * block/bdev.c is not compiled).
 */
struct block_device *file_bdev(struct file *bdev_file)
{
	if (!bdev_file || bdev_file->f_op != &kshim_bdev_file_ops)
		kshim_fatal("file_bdev: %p is not a block device kshim opened",
			    bdev_file);
	return bdev_file->private_data;
}

/*
 * A filesystem closing a device it opened (XFS's external log, in
 * xfs_free_buftarg()). kshim's device files belong to their struct
 * kshim_bdev and live until kshim_bdev_close(), the counterpart of the
 * open that made them: there is no holder to yield and nothing to free.
 * The file is checked, so a stray pointer still aborts.
 */
void bdev_fput(struct file *bdev_file)
{
	file_bdev(bdev_file);
}

/* The kernel's checks; there is no bdev page cache to resize or drop. */
int set_blocksize(struct file *file, int size)
{
	struct block_device *bdev = file_bdev(file);

	if (size > PAGE_SIZE || size < 512 || !is_power_of_2(size))
		return -EINVAL;
	if (size < bdev_logical_block_size(bdev))
		return -EINVAL;
	WRITE_ONCE(kshim_bdev_of(bdev)->blocksize, size);
	return 0;
}

/* The block size last set; at open, the logical block size. */
unsigned int block_size(struct block_device *bdev)
{
	return READ_ONCE(kshim_bdev_of(bdev)->blocksize);
}

struct kshim_disk *kshim_bdev_disk(struct kshim_bdev *kb)
{
	return kb->disk;
}

void kshim_bdev_close(struct kshim_bdev *kb)
{
	spin_lock(&kshim_bdevs_lock);
	list_del(&kb->node);
	spin_unlock(&kshim_bdevs_lock);
	kshim_bdev_vfs_release(kb);
	wait_event(kb->slot_wait, atomic_read(&kb->inflight) == 0);
	spin_lock(&kb->lock);
	kb->stopping = true;
	kshim_blk_kick(kb);
	spin_unlock(&kb->lock);
	kshim_task_join(kb->task);
	kshim_host_disk_close(kb->disk);
	kshim_blk_clear_faults(kb);
	kshim_blk_stats_free(kb);
	kfree(kb->q);
	kfree(kb->bdev);
	kfree(kb->file);
	kfree(kb->gd);
	kfree(kb);
}

int kshim_bdev_crash(struct kshim_bdev *kb, enum kshim_crash_mode mode,
		     struct kshim_crash_result *res)
{
	struct kshim_blk_req *rq;
	u64 seed;
	int err;

	mutex_lock(&kb->serve_lock);
	spin_lock(&kb->lock);
	WRITE_ONCE(kb->dead, true);
	seed = kshim_random(&kb->rng);
	/* What was queued never reached the device. */
	list_for_each_entry(rq, &kb->queue, list)
		rq->status = BLK_STS_IOERR;
	kshim_blk_kick(kb);
	spin_unlock(&kb->lock);
	err = kshim_host_disk_crash(kb->disk, mode, seed, res);
	mutex_unlock(&kb->serve_lock);
	return err;
}

int kshim_bdev_log_start(struct kshim_bdev *kb, const char *path)
{
	int err = kshim_host_disk_log_start(kb->disk, path);

	if (err == -EBUSY)
		pr_err("kshim: %s: write log not started: writes are still cached (flush first, then snapshot the image as the log's base)\n",
		       kb->gd->disk_name);
	else if (err)
		pr_err("kshim: %s: write log %s: error %d\n", kb->gd->disk_name,
		       path ? path : "(memory)", err);
	return err;
}

/*
 * fs_bio_set (bio.c's init_bio(), a boot-time allocation kshim does not
 * count as a leak) lives until the machine stops; its mempool's reserve
 * is given back here, at exit. A bio_alloc() whose slab allocation fails
 * takes a reserve element, and the next bio freed refills the reserve,
 * whichever it is: the reserve may then hold a bio allocated after boot,
 * which the exit checks would report as a leak (the op-sequence fuzz
 * target's allocation faults do that).
 */
static void kshim_bio_exit(void)
{
	bioset_exit(&fs_bio_set);
}

static int __init kshim_bio_init(void)
{
	kshim_at_exit(kshim_bio_exit);
	return 0;
}
device_initcall(kshim_bio_init);
