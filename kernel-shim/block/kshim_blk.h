/* SPDX-License-Identifier: GPL-2.0 */
/* Private to the block device's files (kshim_blk*.c, kshim_bdev.c). */
#ifndef _KSHIM_BLK_PRIVATE_H
#define _KSHIM_BLK_PRIVATE_H

#include <linux/blkdev.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <kshim/bdev.h>

/* One submitted bio on its way through the device. */
struct kshim_blk_req {
	struct list_head list;		/* kshim_bdev.queue, by due_ns */
	struct bio *bio;
	u64 submit_ns, due_ns;
	blk_status_t status;		/* injected, or IOERR after a crash */
};

/* Latency histogram: 8 sub-buckets per power of two (12.5% precision). */
#define KSHIM_LAT_BUCKETS	(64 * 8)

struct kshim_bdev {
	struct list_head node;		/* kshim_bdevs: open devices */
	struct kshim_disk *disk;
	struct gendisk *gd;
	struct block_device *bdev;
	struct file *file;		/* the open device, as bdev_file_open_*() gives */
	unsigned int blocksize;		/* set_blocksize()'s, block_size() gives it */
	struct request_queue *q;
	struct task_struct *task;	/* completion ("interrupt") task */

	spinlock_t lock;		/* queue, gen, dead, stopping, faults, rng */
	struct list_head queue;
	u32 gen;			/* bumped on every change: wakes task */
	bool dead, stopping;
	bool waiting;			/* the completion task sleeps on gen */
	bool complete_inline;		/* asked for, and no latency model */
	struct mutex serve_lock;	/* held while one I/O is performed */
	struct list_head faults;
	int next_fault_id;
	u64 rng;
	struct kshim_latency latency;
	kshim_bio_observer_fn observer;	/* under lock */
	void *observer_priv;

	atomic_t inflight;
	unsigned int queue_depth;
	unsigned int wake_batch;	/* slot waiters woken per this many */
	wait_queue_head_t slot_wait;

	spinlock_t stats_lock;
	struct kshim_bdev_stats st;
	u64 *lat_hist;
};

/* kshim_blk.c: the open devices, by name or number (kshim_bdev.c). */
struct kshim_bdev *kshim_bdev_find(const char *name, dev_t dev);
/* kshim_bdev.c, when linked: what the VFS side set up on the disk. */
void kshim_bdev_vfs_release(struct kshim_bdev *kb);

/* kshim_blk_latency.c */
u64 kshim_blk_service_ns(struct kshim_bdev *kb, struct bio *bio,
			 blk_status_t *status);
/* kshim_blk_fault.c */
u64 kshim_blk_inject_faults(struct kshim_bdev *kb, struct bio *bio,
			    blk_status_t *status);
void kshim_blk_clear_faults(struct kshim_bdev *kb);
void kshim_blk_note_failed_write(struct bio *bio);
/* kshim_blk_profile.c: KSHIM_DEVICE */
void kshim_blk_device_override(struct kshim_bdev_config *cfg);
/* kshim_blk_stats.c */
void kshim_blk_stats_init(struct kshim_bdev *kb);
void kshim_blk_stats_free(struct kshim_bdev *kb);
void kshim_blk_account(struct kshim_bdev *kb, struct bio *bio,
		       blk_status_t status, u64 lat_ns);
void kshim_blk_reject(struct kshim_bdev *kb);
void kshim_blk_note_depth(struct kshim_bdev *kb, unsigned int depth);

#endif
