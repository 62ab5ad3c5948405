// SPDX-License-Identifier: GPL-2.0
/*
 * An image file behind a volatile write cache (kshim/host_disk.h).
 *
 * The file holds what is durable. A completed write that is not FUA sits
 * in the cache as a record (offset, data) until a flush writes every
 * record back in order. A read is served from the file, then overlaid
 * with the newest cached data for each sector: the sector index maps a
 * sector to the newest record covering it. Superseded records stay until
 * written back, because a power failure may leave an older version on
 * the media: a disk could have written it back before the newer write
 * arrived. That is also why a crash applies the surviving records in
 * their original order.
 *
 * A FUA write first writes back the older cached records it overlaps (a
 * disk may always write back early), so no later flush can bring stale
 * data over it. When it covers every cached record it overlaps, and
 * none of those was cached over another, they are dropped instead,
 * unwritten: the media gets the newer data at once, and a drive need
 * never write back data a newer write replaced.
 *
 * A write that finds the cache full goes straight to the media, as a
 * drive streams writes past a full cache: like a FUA write, after the
 * older records it overlaps. A power failure may keep any cached write,
 * so one kept at once is a state the cache could always leave. The cache
 * keeps the rest of what it held, so a power failure after a stream
 * loses older writes and keeps newer ones: no order between writes is
 * promised before a flush, as by no real drive.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "kshim/host_disk.h"
#include "kshim_host_disk.h"

/* A cached write. data follows. */
struct rec {
	struct rec *next, *prev;	/* oldest first; next: pool list too */
	/* No other cached record covered any of its sectors when it was
	 * cached: then, while it is the newest for a sector, it is the only
	 * record there, since an older one is only ever written back first
	 * and one that is alone is the only kind taken out of order. */
	bool alone;
	uint64_t off;
	uint64_t len;
	uint64_t cap;		/* bytes allocated for data */
	unsigned char data[];
};

/*
 * Record buffers are kept for reuse rather than freed, by size in 4 KiB
 * steps up to 1 MiB: the host (glibc) hands freed memory back once the
 * cache empties, and memory fresh from the host is faulted in page by
 * page on the copy into it, which cost more than the copy itself
 * (bench_bdev). Kept at most d->pool_limit bytes: the cache's own bound,
 * so a device holds at most twice that, and keeps what it once held.
 */
#define POOL_STEP	4096u

static int pool_class(uint64_t len)
{
	if (!len || len % POOL_STEP || len > KSHIM_DISK_POOL_CLASSES * POOL_STEP)
		return -1;
	return len / POOL_STEP - 1;
}

/*
 * Called with d->lock held. A full pool makes room by freeing buffers of
 * other sizes, largest first: the sizes in use now are the ones to keep.
 */
static void rec_free(struct kshim_disk *d, struct rec *r)
{
	int c = pool_class(r->cap), o;

	for (o = KSHIM_DISK_POOL_CLASSES - 1;
	     c >= 0 && o >= 0 && d->pool_bytes + r->cap > d->pool_limit; o--)
		while (o != c && d->pool[o] &&
		       d->pool_bytes + r->cap > d->pool_limit) {
			struct rec *e = d->pool[o];

			d->pool[o] = e->next;
			d->pool_bytes -= e->cap;
			free(e);
		}
	if (c < 0 || d->pool_bytes + r->cap > d->pool_limit) {
		free(r);
		return;
	}
	r->next = d->pool[c];
	d->pool[c] = r;
	d->pool_bytes += r->cap;
}

/* Called with d->lock held: a kept buffer of len bytes, or NULL. */
static struct rec *rec_reuse(struct kshim_disk *d, uint64_t len)
{
	int c = pool_class(len);
	struct rec *r;

	if (c < 0 || !(r = d->pool[c]))
		return NULL;
	d->pool[c] = r->next;
	d->pool_bytes -= r->cap;
	return r;
}

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/*
 * The index: one slot per 4 KiB chunk of the device (a 512-byte-sector
 * device has eight sectors in a chunk), found by open addressing with
 * linear probing and backward-shift deletion (no tombstones). key is
 * chunk + 1 (0 marks an empty slot). mask says which of the chunk's
 * sectors are cached. While one record is the newest for all of them
 * (every write of whole 4 KiB blocks), rec names it; once they differ,
 * sub names the newest per sector. Per chunk rather than per sector: a
 * 1 MiB write is 256 index updates, not 2048.
 */
#define CHUNK_SHIFT	12

static unsigned int chunk_sectors(const struct kshim_disk *d)
{
	return (1u << CHUNK_SHIFT) / d->sector_size;
}

static struct slot *index_find(struct kshim_disk *d, uint64_t chunk)
{
	uint64_t mask = d->nslots - 1, i = hash64(chunk) & mask;

	for (;; i = (i + 1) & mask) {
		if (!d->slots[i].key)
			return NULL;
		if (d->slots[i].key == chunk + 1)
			return &d->slots[i];
	}
}

/* Put a slot known to be absent into the table; no growing. */
static struct slot *index_place(struct kshim_disk *d, const struct slot *src)
{
	uint64_t mask = d->nslots - 1, i;

	for (i = hash64(src->key - 1) & mask; d->slots[i].key; i = (i + 1) & mask)
		;
	d->slots[i] = *src;
	d->nused++;
	return &d->slots[i];
}

static int index_grow(struct kshim_disk *d)
{
	struct slot *old = d->slots;
	uint64_t n = d->nslots, i;

	d->slots = calloc(n * 2, sizeof(*d->slots));
	if (!d->slots) {
		d->slots = old;
		return -ENOMEM;
	}
	d->nslots = n * 2;
	d->nused = 0;
	for (i = 0; i < n; i++)
		if (old[i].key)
			index_place(d, &old[i]);
	free(old);
	return 0;
}

/* The chunk's slot, made empty if there was none; NULL if out of memory. */
static struct slot *index_get(struct kshim_disk *d, uint64_t chunk)
{
	struct slot *sl = index_find(d, chunk), fresh = { .key = chunk + 1 };

	if (sl)
		return sl;
	if ((d->nused + 1) * 4 > d->nslots * 3 && index_grow(d))
		return NULL;
	return index_place(d, &fresh);
}

static void index_del(struct kshim_disk *d, struct slot *s)
{
	uint64_t mask = d->nslots - 1, i = s - d->slots, j = i, home;

	free(s->sub);
	for (;;) {
		j = (j + 1) & mask;
		if (!d->slots[j].key)
			break;
		home = hash64(d->slots[j].key - 1) & mask;
		/* Move j back to the hole at i unless its home lies in (i, j]. */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			d->slots[i] = d->slots[j];
			i = j;
		}
	}
	memset(&d->slots[i], 0, sizeof(d->slots[i]));
	d->nused--;
}

/* The newest cached record for sector i of the slot's chunk, or NULL. */
static struct rec *slot_rec(const struct slot *sl, unsigned int i)
{
	if (!(sl->mask & (1u << i)))
		return NULL;
	return sl->sub ? sl->sub[i] : sl->rec;
}

/* For each chunk r covers: the chunk, and the mask of r's sectors in it. */
#define for_each_rec_chunk(d, r, chunk, bits)				\
	for (uint64_t _s = (r)->off / (d)->sector_size,			\
		      _e = ((r)->off + (r)->len) / (d)->sector_size,	\
		      _spc = chunk_sectors(d), _n;			\
	     _s < _e && ((chunk) = _s / _spc,				\
			 _n = _spc - _s % _spc,				\
			 _n = _n < _e - _s ? _n : _e - _s,		\
			 (bits) = ((1u << _n) - 1) << (_s % _spc), 1);	\
	     _s += _n)

/* r becomes the newest record for every sector it covers. */
static int index_rec(struct kshim_disk *d, struct rec *r)
{
	uint64_t chunk;
	uint32_t bits;

	r->alone = true;
	for_each_rec_chunk(d, r, chunk, bits) {
		struct slot *sl = index_get(d, chunk);
		unsigned int i;

		if (!sl)
			return -ENOMEM;
		if (sl->mask & bits)
			r->alone = false;
		if (sl->sub && bits == (1u << chunk_sectors(d)) - 1) {
			free(sl->sub);
			sl->sub = NULL;
		}
		if (!sl->sub && (sl->rec == r || !(sl->mask & ~bits))) {
			sl->rec = r;
			sl->mask |= bits;
			continue;
		}
		if (!sl->sub) {
			struct rec **sub = calloc(chunk_sectors(d), sizeof(*sub));

			if (!sub)
				return -ENOMEM;
			for (i = 0; i < chunk_sectors(d); i++)
				sub[i] = slot_rec(sl, i);
			sl->sub = sub;
			sl->rec = NULL;
		}
		for (i = 0; i < chunk_sectors(d); i++)
			if (bits & (1u << i))
				sl->sub[i] = r;
		sl->mask |= bits;
	}
	return 0;
}

static int pwrite_all(int fd, const void *buf, uint64_t len, uint64_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

/* The kernel side's segments are struct iovec's twins (host_disk.h). */
_Static_assert(sizeof(struct kshim_disk_seg) == sizeof(struct iovec) &&
	       offsetof(struct kshim_disk_seg, base) ==
	       offsetof(struct iovec, iov_base) &&
	       offsetof(struct kshim_disk_seg, len) ==
	       offsetof(struct iovec, iov_len), "kshim_disk_seg is an iovec");

static int pwritev_all(int fd, const struct kshim_disk_seg *seg, int nseg,
		       uint64_t off)
{
	struct iovec iov[KSHIM_DISK_MAX_SEGS];
	int i = 0, n;

	if (nseg > KSHIM_DISK_MAX_SEGS)
		return -EINVAL;
	memcpy(iov, seg, nseg * sizeof(*iov));
	while (i < nseg) {
		ssize_t done = pwritev(fd, iov + i, nseg - i, off);

		if (done < 0 && errno == EINTR)
			continue;
		if (done <= 0)
			return done < 0 ? -errno : -EIO;
		off += done;
		/* A short write: skip what was written, go on from there. */
		for (n = i; n < nseg && (size_t)done >= iov[n].iov_len; n++)
			done -= iov[n].iov_len;
		i = n;
		if (i < nseg) {
			iov[i].iov_base = (char *)iov[i].iov_base + done;
			iov[i].iov_len -= done;
		}
	}
	return 0;
}

static int pread_all(int fd, void *buf, uint64_t len, uint64_t off)
{
	char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {		/* a sparse tail reads as zeroes */
			memset(p, 0, len);
			return 0;
		}
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

/* Forget r's sectors in the index where r is still the newest. */
static void unindex_rec(struct kshim_disk *d, struct rec *r)
{
	uint64_t chunk;
	uint32_t bits;

	for_each_rec_chunk(d, r, chunk, bits) {
		struct slot *sl = index_find(d, chunk);
		unsigned int i;

		if (!sl)
			continue;
		if (!sl->sub) {
			if (sl->rec == r)
				sl->mask &= ~bits;
		} else {
			for (i = 0; i < chunk_sectors(d); i++)
				if ((bits & (1u << i)) && sl->sub[i] == r) {
					sl->sub[i] = NULL;
					sl->mask &= ~(1u << i);
				}
		}
		if (!sl->mask)
			index_del(d, sl);
	}
}

/* Take the oldest record off the cache (caller writes it back or not). */
static struct rec *pop_oldest(struct kshim_disk *d)
{
	struct rec *r = d->head;

	if (!r)
		return NULL;
	d->head = r->next;
	if (d->head)
		d->head->prev = NULL;
	else
		d->tail = NULL;
	d->cached_writes--;
	d->cached_bytes -= r->len;
	unindex_rec(d, r);
	return r;
}

static int writeback_oldest(struct kshim_disk *d)
{
	struct rec *r = pop_oldest(d);
	int err = pwrite_all(d->fd, r->data, r->len, r->off);

	rec_free(d, r);
	return err;
}

static int writeback_all(struct kshim_disk *d)
{
	int err = 0;

	while (d->head && !err)
		err = writeback_oldest(d);
	return err;
}

static bool overlaps(const struct rec *r, uint64_t off, uint64_t len)
{
	return r->off < off + len && off < r->off + r->len;
}

/*
 * Whether any cached record covers a sector of [off, off + len). The
 * index names the newest record of each cached sector, and an older one
 * is never cached without it (records are written back oldest first).
 */
static bool cache_holds(struct kshim_disk *d, uint64_t off, uint64_t len)
{
	struct rec probe = { .off = off, .len = len };
	uint64_t chunk;
	uint32_t bits;

	if (!d->nused)
		return false;
	for_each_rec_chunk(d, &probe, chunk, bits) {
		struct slot *sl = index_find(d, chunk);

		if (sl && (sl->mask & bits))
			return true;
	}
	return false;
}

int kshim_host_disk_open(const char *path, unsigned long long size,
			 unsigned int sector_size,
			 unsigned long long cache_bytes,
			 struct kshim_disk **out, char *msg,
			 unsigned long msglen)
{
	struct kshim_disk *d;
	struct stat st;
	int fd;

	*out = NULL;
	if (!path || !*path) {
		snprintf(msg, msglen, "no image path given");
		return -EINVAL;
	}
	if (sector_size != 512 && sector_size != 4096) {
		snprintf(msg, msglen, "%s: logical sector size %u: must be 512 or 4096",
			 path, sector_size);
		return -EINVAL;
	}
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		snprintf(msg, msglen, "%s: cannot open image: %s", path,
			 strerror(errno));
		return err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(msg, msglen, "%s: not a regular file", path);
		close(fd);
		return -EINVAL;
	}
	if (!size)
		size = st.st_size;
	if ((unsigned long long)st.st_size < size) {
		snprintf(msg, msglen, "%s: image is %lld bytes, smaller than the %llu asked for",
			 path, (long long)st.st_size, size);
		close(fd);
		return -ENOSPC;
	}
	if (!size || size % sector_size) {
		snprintf(msg, msglen, "%s: size %llu is not a positive multiple of the %u-byte sector",
			 path, size, sector_size);
		close(fd);
		return -EINVAL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		close(fd);
		return -ENOMEM;
	}
	d->fd = fd;
	d->path = strdup(path);
	d->size = size;
	d->sector_size = sector_size;
	d->cache_limit = cache_bytes;
	d->pool_limit = cache_bytes ? cache_bytes : 64ULL << 20;
	d->nslots = 1024;
	d->slots = calloc(d->nslots, sizeof(*d->slots));
	d->log_fd = -1;
	pthread_mutex_init(&d->lock, NULL);
	if (!d->slots || !d->path) {
		free(d->slots);
		free(d->path);
		free(d);
		close(fd);
		return -ENOMEM;
	}
	*out = d;
	return 0;
}

void kshim_host_disk_close(struct kshim_disk *d)
{
	uint64_t i;

	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	writeback_all(d);
	pthread_mutex_unlock(&d->lock);
	kshim_host_disk_log_stop(d);
	close(d->fd);
	pthread_mutex_destroy(&d->lock);
	/* Left only if writing back failed. */
	for (i = 0; i < d->nslots; i++)
		free(d->slots[i].sub);
	while (d->head) {
		struct rec *r = d->head;

		d->head = r->next;
		free(r);
	}
	for (i = 0; i < KSHIM_DISK_POOL_CLASSES; i++)
		while (d->pool[i]) {
			struct rec *r = d->pool[i];

			d->pool[i] = r->next;
			free(r);
		}
	free(d->slots);
	free(d->path);
	free(d);
}

unsigned long long kshim_host_disk_size(struct kshim_disk *d)
{
	return d->size;
}

int kshim_host_disk_read(struct kshim_disk *d, unsigned long long off,
			 void *buf, unsigned long len)
{
	unsigned char *p = buf;
	uint64_t s, first = off / d->sector_size, end = first + len / d->sector_size;
	unsigned int spc = chunk_sectors(d);
	int err;

	pthread_mutex_lock(&d->lock);
	err = pread_all(d->fd, buf, len, off);
	for (s = first; !err && d->nused && s < end;
	     s = (s / spc + 1) * spc) {
		struct slot *sl = index_find(d, s / spc);
		uint64_t t;

		for (t = s; sl && t < end && t < (s / spc + 1) * spc; t++) {
			struct rec *r = slot_rec(sl, t % spc);

			if (r)
				memcpy(p + (t - first) * d->sector_size,
				       r->data + (t * d->sector_size - r->off),
				       d->sector_size);
		}
	}
	pthread_mutex_unlock(&d->lock);
	return err;
}

void *kshim_host_disk_wbuf_alloc(struct kshim_disk *d, unsigned long len)
{
	struct rec *r;

	pthread_mutex_lock(&d->lock);
	r = rec_reuse(d, len);
	pthread_mutex_unlock(&d->lock);
	if (!r) {
		r = malloc(sizeof(*r) + len);
		if (!r)
			return NULL;
		r->cap = len;
	}
	return r->data;
}

static struct rec *wbuf_rec(void *wbuf)
{
	return (struct rec *)((char *)wbuf - offsetof(struct rec, data));
}

void kshim_host_disk_wbuf_free(struct kshim_disk *d, void *wbuf)
{
	if (!wbuf)
		return;
	pthread_mutex_lock(&d->lock);
	rec_free(d, wbuf_rec(wbuf));
	pthread_mutex_unlock(&d->lock);
}

/* Write back the cached records up to the newest one that overlaps
 * [off, off + len): they reach the media before a write that bypasses
 * the cache, so no later flush can bring older data over it. */
static int writeback_overlapping(struct kshim_disk *d, uint64_t off,
				 uint64_t len)
{
	struct rec *prev = NULL, *o;
	int err = 0;

	for (o = d->head; o; o = o->next)
		if (overlaps(o, off, len))
			prev = o;
	while (prev && !err) {
		bool last = d->head == prev;

		err = writeback_oldest(d);
		if (last)
			break;
	}
	return err;
}

/* Take r off the cache, unwritten: a newer write replaced all of it. */
static void drop_rec(struct kshim_disk *d, struct rec *r)
{
	if (r->prev)
		r->prev->next = r->next;
	else
		d->head = r->next;
	if (r->next)
		r->next->prev = r->prev;
	else
		d->tail = r->prev;
	d->cached_writes--;
	d->cached_bytes -= r->len;
	d->superseded_drops++;
	unindex_rec(d, r);
	rec_free(d, r);
}

/* Whether the newest record of every cached sector of [off, off + len)
 * is alone and lies within it. */
static bool alone_within(struct kshim_disk *d, uint64_t off, uint64_t len)
{
	struct rec probe = { .off = off, .len = len };
	uint64_t chunk;
	uint32_t bits;

	for_each_rec_chunk(d, &probe, chunk, bits) {
		struct slot *sl = index_find(d, chunk);
		unsigned int i;

		for (i = 0; sl && i < chunk_sectors(d); i++) {
			struct rec *r = (bits & (1u << i)) ? slot_rec(sl, i) : NULL;

			if (r && (!r->alone || r->off < off ||
				  r->off + r->len > off + len))
				return false;
		}
	}
	return true;
}

/*
 * When every cached sector of [off, off + len) belongs to a record that
 * lies within it and is alone, those records are all the cache holds of
 * the range: drop them unwritten. Found through the index, in time of
 * the range, however long the cache is. False, having done nothing,
 * otherwise.
 */
static bool drop_covered(struct kshim_disk *d, uint64_t off, uint64_t len)
{
	struct rec probe = { .off = off, .len = len };
	uint64_t chunk;
	uint32_t bits;

	if (!alone_within(d, off, len))
		return false;
	for_each_rec_chunk(d, &probe, chunk, bits) {
		struct slot *sl;

		/* Dropping unindexes, which may move or free the slot. */
		while ((sl = index_find(d, chunk)) && (sl->mask & bits))
			drop_rec(d, slot_rec(sl, __builtin_ctz(sl->mask & bits)));
	}
	return true;
}

/*
 * Before a write of [off, off + len) that goes straight to the media
 * (FUA, or past a full cache): the cached records it overlaps either
 * drop out, superseded, when it covers them all, or reach the media
 * first. Dropping leaves the older records that do not overlap it in
 * the cache, where a power failure may lose them, as it always could.
 * A record that was not alone when cached may have older ones under
 * it, which only the list knows of: then the write-back, as before.
 */
static int make_way_for_media_write(struct kshim_disk *d, uint64_t off,
				    uint64_t len)
{
	if (!cache_holds(d, off, len) || drop_covered(d, off, len))
		return 0;
	return writeback_overlapping(d, off, len);
}

int kshim_host_disk_write_through(struct kshim_disk *d,
				  unsigned long long off,
				  const struct kshim_disk_seg *seg, int nseg,
				  unsigned long len, int fua, int *done)
{
	int err = 0;

	*done = 0;
	if (nseg > KSHIM_DISK_MAX_SEGS)
		return 0;
	pthread_mutex_lock(&d->lock);
	/* The write log keeps each write's data whole: through the cache. */
	if (d->log_fd >= 0)
		goto out;
	if (!fua && (!d->cache_limit ||
		     d->cached_bytes + len <= d->cache_limit))
		goto out;
	if (!fua)
		d->write_throughs++;
	err = make_way_for_media_write(d, off, len);
	if (!err)
		err = pwritev_all(d->fd, seg, nseg, off);
	*done = 1;
out:
	pthread_mutex_unlock(&d->lock);
	return err;
}

int kshim_host_disk_write_wbuf(struct kshim_disk *d, unsigned long long off,
			       void *wbuf, unsigned long len, int fua)
{
	struct rec *r = wbuf_rec(wbuf);
	int err = 0;

	pthread_mutex_lock(&d->lock);
	if (fua) {
		err = make_way_for_media_write(d, off, len);
		if (!err)
			err = pwrite_all(d->fd, wbuf, len, off);
		if (!err)
			kshim_host_disk_log_append(d, KSHIM_LOG_WRITE,
						   KSHIM_LOG_FUA, off, len, wbuf);
		rec_free(d, r);
		goto out;
	}
	r->next = NULL;
	r->off = off;
	r->len = len;
	err = index_rec(d, r);
	if (err) {
		unindex_rec(d, r);
		rec_free(d, r);
		goto out;
	}
	r->prev = d->tail;
	if (d->tail)
		d->tail->next = r;
	else
		d->head = r;
	d->tail = r;
	d->cached_writes++;
	d->cached_bytes += len;
	/* Logged once accepted; write-back below may free the record. */
	kshim_host_disk_log_append(d, KSHIM_LOG_WRITE, 0, off, len, wbuf);
	while (d->cache_limit && d->cached_bytes > d->cache_limit && !err) {
		err = writeback_oldest(d);
		d->pressure_writebacks++;
	}
out:
	pthread_mutex_unlock(&d->lock);
	return err;
}

int kshim_host_disk_write(struct kshim_disk *d, unsigned long long off,
			  const void *buf, unsigned long len, int fua)
{
	struct kshim_disk_seg seg = { .base = buf, .len = len };
	void *wbuf;
	int done, err;

	err = kshim_host_disk_write_through(d, off, &seg, 1, len, fua, &done);
	if (done)
		return err;
	wbuf = kshim_host_disk_wbuf_alloc(d, len);
	if (!wbuf)
		return -ENOMEM;
	memcpy(wbuf, buf, len);
	return kshim_host_disk_write_wbuf(d, off, wbuf, len, fua);
}

int kshim_host_disk_flush(struct kshim_disk *d)
{
	int err;

	pthread_mutex_lock(&d->lock);
	err = writeback_all(d);
	if (!err)
		kshim_host_disk_log_append(d, KSHIM_LOG_FLUSH, 0, 0, 0, NULL);
	pthread_mutex_unlock(&d->lock);
	return err;
}

int kshim_host_disk_discard(struct kshim_disk *d, unsigned long long off,
			    unsigned long long len)
{
	pthread_mutex_lock(&d->lock);
	kshim_host_disk_log_append(d, KSHIM_LOG_DISCARD, 0, off, len, NULL);
	pthread_mutex_unlock(&d->lock);
	return 0;
}

/* splitmix64: the crash's own stream, from the caller's seed. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int kshim_host_disk_crash(struct kshim_disk *d, enum kshim_crash_mode mode,
			  unsigned long long seed,
			  struct kshim_crash_result *res)
{
	uint64_t state = seed;
	struct kshim_crash_result rs = { 0 };
	/* KSHIM_CRASH_TRACE=1: list every cached write and its fate, in
	 * completion order, to see what a recovery had to cope with. */
	const char *trace_env = getenv("KSHIM_CRASH_TRACE");
	int trace = trace_env && *trace_env && *trace_env != '0';
	struct rec *r;
	int err = 0;

	pthread_mutex_lock(&d->lock);
	rs.cached = d->cached_writes;
	while ((r = pop_oldest(d))) {
		uint64_t len = r->len, n = r->len / d->sector_size;
		uint64_t pick = next_random(&state);

		if (mode == KSHIM_CRASH_DROP_ALL || !(pick & 1)) {
			if (trace)
				fprintf(stderr, "kshim crash: off %llu len %llu lost\n",
					(unsigned long long)r->off,
					(unsigned long long)r->len);
			rec_free(d, r);
			continue;
		}
		if (mode == KSHIM_CRASH_TEAR && n > 1 && (pick & 2)) {
			len = (1 + (pick >> 2) % (n - 1)) * d->sector_size;
			rs.torn++;
		}
		if (trace)
			fprintf(stderr, "kshim crash: off %llu len %llu kept %llu\n",
				(unsigned long long)r->off,
				(unsigned long long)r->len,
				(unsigned long long)len);
		rs.kept++;
		if (!err)
			err = pwrite_all(d->fd, r->data, len, r->off);
		rec_free(d, r);
	}
	pthread_mutex_unlock(&d->lock);
	if (res)
		*res = rs;
	return err;
}

int kshim_host_disk_host_sync(struct kshim_disk *d)
{
	return fsync(d->fd) ? -errno : 0;
}

int kshim_host_disk_copy_fd(int from, uint64_t size, const char *out_path)
{
	static const size_t chunk = 1 << 20;
	char *buf = malloc(chunk);
	int out, err = 0;
	uint64_t off;

	if (!buf)
		return -ENOMEM;
	out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		free(buf);
		return -errno;
	}
	for (off = 0; off < size && !err; off += chunk) {
		uint64_t n = size - off < chunk ? size - off : chunk;

		err = pread_all(from, buf, n, off);
		if (!err)
			err = pwrite_all(out, buf, n, off);
	}
	if (!err && ftruncate(out, size))
		err = -errno;
	close(out);
	free(buf);
	return err;
}

int kshim_host_disk_snapshot(struct kshim_disk *d, const char *out_path)
{
	int err;

	pthread_mutex_lock(&d->lock);
	err = kshim_host_disk_copy_fd(d->fd, d->size, out_path);
	pthread_mutex_unlock(&d->lock);
	return err;
}

void kshim_host_disk_cache_stats(struct kshim_disk *d,
				 struct kshim_disk_cache_stats *st)
{
	pthread_mutex_lock(&d->lock);
	st->cached_writes = d->cached_writes;
	st->cached_bytes = d->cached_bytes;
	st->pressure_writebacks = d->pressure_writebacks;
	st->write_throughs = d->write_throughs;
	st->superseded_drops = d->superseded_drops;
	pthread_mutex_unlock(&d->lock);
}

int kshim_host_disk_pwrite(int fd, const void *buf, uint64_t len, uint64_t off)
{
	return pwrite_all(fd, buf, len, off);
}

int kshim_host_disk_pread(int fd, void *buf, uint64_t len, uint64_t off)
{
	return pread_all(fd, buf, len, off);
}
