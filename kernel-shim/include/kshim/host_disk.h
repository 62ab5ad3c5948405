/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host side of kshim's block device: an image file with a volatile
 * write cache in front of it, power-failure simulation and a write log
 * (kernel-shim/host/kshim_host_disk*.c). Plain C types only, like
 * kshim/host.h: both worlds include it. The kernel side (bios, queueing,
 * completions, faults) is kernel-shim/block/kshim_blk*.c; tests use kshim/bdev.h.
 *
 * Byte offsets and lengths here are always whole logical sectors; the
 * kernel side has checked them. Functions return 0 or a negative errno.
 */
#ifndef _KSHIM_HOST_DISK_H
#define _KSHIM_HOST_DISK_H

struct kshim_disk;

/* What a simulated power failure does to writes not yet durable. */
enum kshim_crash_mode {
	/* Every cached write is lost. */
	KSHIM_CRASH_DROP_ALL,
	/* Each cached write independently survives or not (seeded): the
	 * cache may have written any of them back, in any order. */
	KSHIM_CRASH_KEEP_RANDOM,
	/* As KEEP_RANDOM, and a surviving multi-sector write may be torn:
	 * only its first k sectors (1 <= k < n) reached the media. */
	KSHIM_CRASH_TEAR,
};

struct kshim_crash_result {
	unsigned long long cached;	/* writes in the cache at the crash */
	unsigned long long kept;	/* of those, written to the image */
	unsigned long long torn;	/* of those kept, torn */
};

/*
 * Open path as a device of size bytes (0: the file's size) and logical
 * sector size (512 or 4096). cache_bytes bounds the write cache: a write
 * that finds it full goes to the media at once, after the older cached
 * writes it overlaps, as a disk streams past a full cache. On
 * error, msg (msglen bytes) says why in one line.
 */
int kshim_host_disk_open(const char *path, unsigned long long size,
			 unsigned int sector_size,
			 unsigned long long cache_bytes,
			 struct kshim_disk **out, char *msg,
			 unsigned long msglen);
/* A clean power-down: the cache is written back, then the file closed. */
void kshim_host_disk_close(struct kshim_disk *d);

unsigned long long kshim_host_disk_size(struct kshim_disk *d);

/* Reads see the newest data, durable or not. */
int kshim_host_disk_read(struct kshim_disk *d, unsigned long long off,
			 void *buf, unsigned long len);
/* A write lands in the cache, or on the media at once if fua. */
int kshim_host_disk_write(struct kshim_disk *d, unsigned long long off,
			  const void *buf, unsigned long len, int fua);
/*
 * The same without a copy: fill a buffer from kshim_host_disk_wbuf_alloc()
 * and hand it over; the device owns it from then on, error or not.
 */
void *kshim_host_disk_wbuf_alloc(struct kshim_disk *d, unsigned long len);
void kshim_host_disk_wbuf_free(struct kshim_disk *d, void *wbuf);
int kshim_host_disk_write_wbuf(struct kshim_disk *d, unsigned long long off,
			       void *wbuf, unsigned long len, int fua);
/*
 * A write from segments (struct iovec's layout, so the host side can
 * hand them to pwritev()), straight to the media when the cache would
 * not keep it: FUA, or the cache full; in both cases after the older
 * cached writes it overlaps, or, when it covers each of them and none
 * was cached over another, with them dropped unwritten. *done says
 * whether it was taken; if not, the caller writes it through the cache
 * (kshim_host_disk_write_wbuf()).
 * The write log, when on, takes every write through the cache.
 */
#define KSHIM_DISK_MAX_SEGS	256	/* BIO_MAX_VECS; more: cached */
struct kshim_disk_seg {
	const void *base;
	unsigned long len;
};
int kshim_host_disk_write_through(struct kshim_disk *d,
				  unsigned long long off,
				  const struct kshim_disk_seg *seg, int nseg,
				  unsigned long len, int fua, int *done);
/* Every write completed so far becomes durable. */
int kshim_host_disk_flush(struct kshim_disk *d);
/* Discard is a hint: the data stays readable as it was. Logged only. */
int kshim_host_disk_discard(struct kshim_disk *d, unsigned long long off,
			    unsigned long long len);

/* Power failure: apply mode to the cache (seeded), empty it. */
int kshim_host_disk_crash(struct kshim_disk *d, enum kshim_crash_mode mode,
			  unsigned long long seed,
			  struct kshim_crash_result *res);
/* Make the image file durable on the host (fsync). */
int kshim_host_disk_host_sync(struct kshim_disk *d);
/* Copy the durable image (what a crash now would leave with DROP_ALL). */
int kshim_host_disk_snapshot(struct kshim_disk *d, const char *out_path);

struct kshim_disk_cache_stats {
	unsigned long long cached_writes;	/* now */
	unsigned long long cached_bytes;	/* now */
	unsigned long long pressure_writebacks;	/* written back: cache full */
	unsigned long long write_throughs;	/* past a full cache, at once */
	unsigned long long superseded_drops;	/* dropped unwritten: covered by
						 * a write to the media */
};
void kshim_host_disk_cache_stats(struct kshim_disk *d,
				 struct kshim_disk_cache_stats *st);

/*
 * The write log, like dm-log-writes: every write, flush and discard as
 * it completes, in order, in memory (path NULL) or in a side file.
 * Replaying the first n entries onto a copy of the image as it was when
 * the log started gives the image as of that point.
 */
enum kshim_disk_log_type {
	KSHIM_LOG_WRITE = 1,
	KSHIM_LOG_FLUSH = 2,
	KSHIM_LOG_DISCARD = 3,
};
#define KSHIM_LOG_FUA	1u	/* a write that was durable on completion */

struct kshim_disk_log_entry {
	unsigned int type;
	unsigned int flags;
	unsigned long long off;
	unsigned long long len;
};

/* -EBUSY while writes are cached: flush first, so that the durable image
 * (kshim_host_disk_snapshot()) is the base the log replays onto. */
int kshim_host_disk_log_start(struct kshim_disk *d, const char *path);
unsigned long long kshim_host_disk_log_count(struct kshim_disk *d);
int kshim_host_disk_log_entry(struct kshim_disk *d, unsigned long long i,
			      struct kshim_disk_log_entry *e);
/* Index of the n-th (0-based) flush entry, or -1 if there is none. */
long long kshim_host_disk_log_flush_index(struct kshim_disk *d,
					  unsigned long long n);
/* Copy base_path to out_path and apply log entries [0, upto). */
int kshim_host_disk_log_replay(struct kshim_disk *d, const char *base_path,
			       const char *out_path, unsigned long long upto);

/*
 * Image files for tests and benchmarks. An image made in memory (a memfd,
 * named /proc/self/fd/N) costs no disk I/O; path receives its name.
 */
int kshim_host_image_create(char *path, unsigned long pathlen,
			    unsigned long long size, int in_memory);
void kshim_host_image_remove(const char *path);
long long kshim_host_image_size(const char *path);
int kshim_host_image_pread(const char *path, void *buf, unsigned long len,
			   unsigned long long off);
/* Run a shell command (e.g. mkfs.xfs); its exit status, or -1. */
int kshim_host_run_command(const char *cmd);
/* Raw pwrite() of nr blocks of bs bytes at random (seeded) or sequential
 * block offsets within size bytes, as a baseline for benchmarks: ns. */
unsigned long long kshim_host_image_raw_writes(const char *path,
					       unsigned long long size,
					       unsigned long bs,
					       unsigned long nr, int random,
					       unsigned long long seed);
/* The same with KSHIM_RAW_READ: pread() instead; KSHIM_RAW_SYNC: an
 * fdatasync() at the end, counted. */
#define KSHIM_RAW_READ	1u
#define KSHIM_RAW_SYNC	2u
unsigned long long kshim_host_image_raw_io(const char *path,
					   unsigned long long size,
					   unsigned long bs, unsigned long nr,
					   int random, unsigned long long seed,
					   unsigned int flags);

#endif
