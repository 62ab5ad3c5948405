/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's block device, as tests and fixtures see it: an image file
 * opened as a real struct block_device / gendisk, driven by the real bio
 * code (block/bio.c) through kshim's submit_bio() (kernel-shim/block/kshim_blk.c).
 *
 * - Completions are asynchronous: each device has a completion task that
 *   performs the I/O on the image and calls bio_endio() in hard-irq
 *   context, in due-time order (submission time + the latency model),
 *   on the backend's clock (virtual time in the deterministic backend).
 *   A device opened with complete_inline does that in the submitting
 *   task instead while no latency or fault is in play.
 * - Writes land in a volatile write cache (kshim/host_disk.h) and become
 *   durable on REQ_PREFLUSH, REQ_OP_FLUSH or with REQ_FUA.
 * - kshim_bdev_crash() is a power failure; faults and delays can be
 *   injected per operation; every device keeps statistics.
 */
#ifndef _KSHIM_BDEV_H
#define _KSHIM_BDEV_H

#include <linux/types.h>
#include <linux/blk_types.h>
#include <kshim/host_disk.h>

struct kshim_bdev;
struct block_device;

/* Per-I/O service time: base + uniform [0, jitter), and with probability
 * slow_ppm / 1e6 another slow_ns (a tail). All zero: complete at once. */
struct kshim_latency {
	u64 base_ns;
	u64 jitter_ns;
	u32 slow_ppm;
	u64 slow_ns;
};

/* The named devices (tests/support/dev_profile.h says what window each
 * opens; KSHIM_DEVICE=NAME gives one to every device of a run). */
#define KSHIM_LATENCY_SSD \
	{ .base_ns = 20 * NSEC_PER_USEC, .jitter_ns = 30 * NSEC_PER_USEC }
#define KSHIM_LATENCY_SSD_REORDERING \
	{ .base_ns = 20 * NSEC_PER_USEC, .jitter_ns = 80 * NSEC_PER_USEC }
#define KSHIM_LATENCY_SLOW_DISK \
	{ .base_ns = 500 * NSEC_PER_USEC, .jitter_ns = 1000 * NSEC_PER_USEC }

struct kshim_bdev_config {
	const char *path;		/* the image file; it must exist */
	u64 size;			/* bytes; 0: the whole file */
	unsigned int sector_size;	/* logical: 512 or 4096; 0: 512 */
	unsigned int queue_depth;	/* in flight at most; 0: 64 */
	u64 cache_bytes;		/* write cache bound; 0: 64 MiB */
	const char *name;		/* disk name; NULL: "kshimN" */
	struct kshim_latency latency;
	/*
	 * Complete each I/O in the task that submits it, as a bio-based RAM
	 * disk (brd) does, whenever nothing could delay or reorder it: no
	 * latency model (a device with one ignores this), no fault rule,
	 * nothing queued for the completion task, the device not crashed.
	 * bio_endio() still runs as from a hard interrupt; the queue depth
	 * still holds. Saves the two hand-offs to and from the completion
	 * task (bench_bdev), but the switch points differ, so a
	 * deterministic run's schedule is not the queued device's.
	 */
	bool complete_inline;
};

/* Open an image as a device. ERR_PTR with the reason printed on error. */
struct kshim_bdev *kshim_bdev_open(const struct kshim_bdev_config *cfg);
struct block_device *kshim_bdev_bdev(struct kshim_bdev *kb);
/* The device opened as a file (file_bdev() gives the bdev back): what
 * bdev_file_open_by_path() gives a filesystem. */
struct file *kshim_bdev_file(struct kshim_bdev *kb);
struct kshim_disk *kshim_bdev_disk(struct kshim_bdev *kb);
/* Wait for in-flight I/O, write the cache back (clean power-down), free. */
void kshim_bdev_close(struct kshim_bdev *kb);

/*
 * Power failure. I/O not yet completed is lost (its bios complete with
 * BLK_STS_IOERR, as on a device that went away); the cache is treated as
 * mode says, seeded from the run's seed; then every later I/O fails
 * until the device is closed. Reopen the image to "reboot".
 */
int kshim_bdev_crash(struct kshim_bdev *kb, enum kshim_crash_mode mode,
		     struct kshim_crash_result *res);

/* Fault injection. ops is a mask of these. */
#define KSHIM_FAULT_READ	(1u << 0)
#define KSHIM_FAULT_WRITE	(1u << 1)
#define KSHIM_FAULT_FLUSH	(1u << 2)	/* REQ_OP_FLUSH and preflushes */
#define KSHIM_FAULT_DISCARD	(1u << 3)

struct kshim_fault {
	unsigned int ops;
	/* Only I/O touching [start, start + nr_sectors); nr 0: any sector. */
	sector_t start, nr_sectors;
	/* Fire on the nth matching I/O only (1-based); 0: on every match. */
	unsigned long nth;
	/* Fire with this probability (per million, from the seed); 0: always. */
	u32 ppm;
	/* What the bio completes with; BLK_STS_OK injects a delay only. */
	blk_status_t status;
	u64 delay_ns;		/* added to the I/O's service time */
	unsigned long times;	/* fire at most this often; 0: no limit */
};
/* Returns a fault id (>= 0) or -errno. */
int kshim_bdev_add_fault(struct kshim_bdev *kb, const struct kshim_fault *f);
unsigned long kshim_bdev_fault_hits(struct kshim_bdev *kb, int id);
void kshim_bdev_clear_faults(struct kshim_bdev *kb);
/*
 * Whether file data of inode number INO was in a write that failed, on
 * any kshim device since the last kshim_bdev_forget_lost_writes(): the
 * kernel may then have lost it and, once the inode was evicted, say so
 * to no one (kshim_blk_fault.c). True for every INO when more inodes
 * than kshim keeps lost writes.
 */
bool kshim_bdev_write_lost(unsigned long ino);
void kshim_bdev_forget_lost_writes(void);

enum kshim_bdev_op { KSHIM_OP_READ, KSHIM_OP_WRITE, KSHIM_OP_FLUSH,
		     KSHIM_OP_DISCARD, KSHIM_NR_OPS };

struct kshim_bdev_stats {
	u64 ios[KSHIM_NR_OPS];		/* bios completed, by operation */
	u64 bytes[KSHIM_NR_OPS];
	u64 preflushes;			/* writes carrying REQ_PREFLUSH */
	u64 fua_writes;
	u64 errors;			/* bios completed with an error */
	u64 faults_injected, delays_injected;
	u64 rejected;			/* past the end, misaligned, bad op */
	unsigned int queue_depth_max;	/* in flight, high-water mark */
	u64 lat_p50_ns, lat_p95_ns, lat_p99_ns, lat_max_ns;
};
void kshim_bdev_get_stats(struct kshim_bdev *kb, struct kshim_bdev_stats *st);
void kshim_bdev_print_stats(struct kshim_bdev *kb);

/*
 * A bio observer, what blktrace's queue event sees: fn is called for
 * every bio the device accepts (after its checks, before it is queued),
 * in the submitter's context with the device's queue lock held, so it
 * must not sleep. It may read the bio's data, never change it. NULL
 * removes it. kshim_bdev_of_bdev() finds the device a filesystem uses.
 */
typedef void (*kshim_bio_observer_fn)(void *priv, struct bio *bio);
void kshim_bdev_set_observer(struct kshim_bdev *kb, kshim_bio_observer_fn fn,
			     void *priv);
struct kshim_bdev *kshim_bdev_of_bdev(struct block_device *bdev);

/* The write log (kshim/host_disk.h): start recording now. -EBUSY (and a
 * printed reason) while writes are cached: flush first. */
int kshim_bdev_log_start(struct kshim_bdev *kb, const char *path);

#endif
