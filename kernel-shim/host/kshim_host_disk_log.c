// SPDX-License-Identifier: GPL-2.0
/*
 * The write log (kshim/host_disk.h), as dm-log-writes keeps one: every
 * write, flush and discard in completion order. Data goes to a file (a
 * memfd when the test wants it in memory); a small index in memory says
 * where each entry's data lies, so replay reads only what it applies.
 *
 * The side file's format, for tools: each entry is a header
 * { u32 magic "KSLG", u32 type, u32 flags, u32 pad, u64 off, u64 len }
 * in host byte order, followed by len bytes of data for writes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kshim/host_disk.h"
#include "kshim_host_disk.h"

#define LOG_MAGIC 0x474c534bu	/* "KSLG" */

struct log_header {
	uint32_t magic, type, flags, pad;
	uint64_t off, len;
};

int kshim_host_disk_log_start(struct kshim_disk *d, const char *path)
{
	bool busy;
	int fd;

	pthread_mutex_lock(&d->lock);
	busy = d->cached_writes != 0;
	pthread_mutex_unlock(&d->lock);
	if (busy)
		return -EBUSY;
	fd = path ? open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
		  : memfd_create("kshim-write-log", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	pthread_mutex_lock(&d->lock);
	kshim_host_disk_log_stop(d);
	d->log_fd = fd;
	pthread_mutex_unlock(&d->lock);
	return 0;
}

/* Called with d->lock held, or when no one else can see d. */
void kshim_host_disk_log_stop(struct kshim_disk *d)
{
	if (d->log_fd >= 0)
		close(d->log_fd);
	d->log_fd = -1;
	free(d->log);
	d->log = NULL;
	d->log_n = d->log_cap = d->log_pos = 0;
	d->log_err = 0;
}

/* Called with d->lock held. */
void kshim_host_disk_log_append(struct kshim_disk *d, uint32_t type,
				uint32_t flags, uint64_t off, uint64_t len,
				const void *data)
{
	struct log_header h = {
		.magic = LOG_MAGIC, .type = type, .flags = flags,
		.off = off, .len = len,
	};
	uint64_t dlen = type == KSHIM_LOG_WRITE ? len : 0;
	struct log_index *e;
	int err;

	if (d->log_fd < 0 || d->log_err)
		return;
	if (d->log_n == d->log_cap) {
		uint64_t cap = d->log_cap ? d->log_cap * 2 : 256;
		void *p = realloc(d->log, cap * sizeof(*d->log));

		if (!p) {
			d->log_err = -ENOMEM;
			return;
		}
		d->log = p;
		d->log_cap = cap;
	}
	err = kshim_host_disk_pwrite(d->log_fd, &h, sizeof(h), d->log_pos);
	if (!err && dlen)
		err = kshim_host_disk_pwrite(d->log_fd, data, dlen,
					     d->log_pos + sizeof(h));
	if (err) {
		d->log_err = err;
		return;
	}
	e = &d->log[d->log_n++];
	e->type = type;
	e->flags = flags;
	e->off = off;
	e->len = len;
	e->data_pos = d->log_pos + sizeof(h);
	d->log_pos += sizeof(h) + dlen;
}

unsigned long long kshim_host_disk_log_count(struct kshim_disk *d)
{
	unsigned long long n;

	pthread_mutex_lock(&d->lock);
	n = d->log_n;
	pthread_mutex_unlock(&d->lock);
	return n;
}

int kshim_host_disk_log_entry(struct kshim_disk *d, unsigned long long i,
			      struct kshim_disk_log_entry *e)
{
	int err = 0;

	pthread_mutex_lock(&d->lock);
	if (d->log_err)
		err = d->log_err;
	else if (i >= d->log_n)
		err = -ENOENT;
	else
		*e = (struct kshim_disk_log_entry) {
			.type = d->log[i].type, .flags = d->log[i].flags,
			.off = d->log[i].off, .len = d->log[i].len,
		};
	pthread_mutex_unlock(&d->lock);
	return err;
}

long long kshim_host_disk_log_flush_index(struct kshim_disk *d,
					  unsigned long long n)
{
	long long found = -1;
	uint64_t i;

	pthread_mutex_lock(&d->lock);
	for (i = 0; i < d->log_n; i++)
		if (d->log[i].type == KSHIM_LOG_FLUSH && n-- == 0) {
			found = i;
			break;
		}
	pthread_mutex_unlock(&d->lock);
	return found;
}

int kshim_host_disk_log_replay(struct kshim_disk *d, const char *base_path,
			       const char *out_path, unsigned long long upto)
{
	int base, out, err;
	uint64_t i;
	void *buf = NULL;
	uint64_t bufsz = 0;

	base = open(base_path, O_RDONLY | O_CLOEXEC);
	if (base < 0)
		return -errno;
	err = kshim_host_disk_copy_fd(base, d->size, out_path);
	close(base);
	if (err)
		return err;
	out = open(out_path, O_WRONLY | O_CLOEXEC);
	if (out < 0)
		return -errno;
	pthread_mutex_lock(&d->lock);
	err = d->log_err;
	if (!err && upto > d->log_n)
		err = -ERANGE;
	for (i = 0; !err && i < upto; i++) {
		struct log_index *e = &d->log[i];

		if (e->type != KSHIM_LOG_WRITE)
			continue;
		if (e->len > bufsz) {
			void *p = realloc(buf, e->len);

			if (!p) {
				err = -ENOMEM;
				break;
			}
			buf = p;
			bufsz = e->len;
		}
		err = kshim_host_disk_pread(d->log_fd, buf, e->len, e->data_pos);
		if (!err)
			err = kshim_host_disk_pwrite(out, buf, e->len, e->off);
	}
	pthread_mutex_unlock(&d->lock);
	free(buf);
	close(out);
	return err;
}
