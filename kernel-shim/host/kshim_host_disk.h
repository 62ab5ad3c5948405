/* SPDX-License-Identifier: GPL-2.0 */
/* Private to kshim_host_disk.c and kshim_host_disk_log.c. */
#ifndef _KSHIM_HOST_DISK_PRIVATE_H
#define _KSHIM_HOST_DISK_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct rec;

#define KSHIM_DISK_POOL_CLASSES	256	/* 4 KiB to 1 MiB, by 4 KiB */

/* One 4 KiB chunk of the device in the cache's index (kshim_host_disk.c). */
struct slot {
	uint64_t key;		/* chunk + 1; 0: empty */
	struct rec *rec;	/* newest write of each cached sector, */
	struct rec **sub;	/* or, when they differ, of sector i */
	uint32_t mask;		/* the chunk's sectors that are cached */
};

struct log_index {
	uint32_t type, flags;
	uint64_t off, len;
	uint64_t data_pos;	/* where the data lies in the log file */
};

struct kshim_disk {
	pthread_mutex_t lock;	/* everything below */
	int fd;
	char *path;
	uint64_t size;
	unsigned int sector_size;

	/* The write cache: records oldest first, and the sector index. */
	struct rec *head, *tail;
	uint64_t cached_writes, cached_bytes, cache_limit;
	uint64_t pressure_writebacks, write_throughs, superseded_drops;
	struct slot *slots;
	uint64_t nslots, nused;
	/* Record buffers kept for reuse, by size (kshim_host_disk.c). */
	struct rec *pool[KSHIM_DISK_POOL_CLASSES];
	uint64_t pool_bytes, pool_limit;

	/* The write log: a file (memfd when kept in memory) and its index. */
	int log_fd;
	uint64_t log_pos;
	struct log_index *log;
	uint64_t log_n, log_cap;
	int log_err;		/* first failure to append, reported on read */
};

void kshim_host_disk_log_append(struct kshim_disk *d, uint32_t type,
				uint32_t flags, uint64_t off, uint64_t len,
				const void *data);
void kshim_host_disk_log_stop(struct kshim_disk *d);
int kshim_host_disk_copy_fd(int from, uint64_t size, const char *out_path);
int kshim_host_disk_pwrite(int fd, const void *buf, uint64_t len,
			   uint64_t off);
int kshim_host_disk_pread(int fd, void *buf, uint64_t len, uint64_t off);

#endif
