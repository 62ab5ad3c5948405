// SPDX-License-Identifier: GPL-2.0
/*
 * The write cache of kshim's block device (kernel-shim/host/kshim_host_disk.c)
 * against a reference model, in the host world: random writes (some FUA),
 * reads, flushes and crashes, each checked byte for byte.
 *
 * The model keeps two images: "newest" (what reads must return) and
 * "durable" (what a crash that drops everything must leave), plus the
 * list of writes not yet durable, so a crash that keeps a subset can be
 * checked: every sector must then hold a version some plausible order of
 * write-back could have left (the durable one or any later cached one).
 * A write that went past a full cache (the device's write_throughs
 * count rose) is durable at once, as a FUA write is. Either drops the
 * cached writes it overlaps, unwritten, when it covers them all and
 * none had another under it.
 *
 * Usage: test_host_disk [iterations] [seed]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kshim/host_disk.h"

#define SECTOR	512u
#define NSECT	256u
#define SIZE	(SECTOR * NSECT)
#define MAXW	64

/* alone: no other pending write overlapped it when it was made. */
struct cached { unsigned off, len; int alone; unsigned char *data; };

static unsigned char newest[SIZE], durable[SIZE], buf[SIZE];
static struct cached pend[4096];
static unsigned npend;
static unsigned long long rng;
static int failures;

static unsigned long long rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#define CHECK(cond, ...) do { if (!(cond)) { \
	fprintf(stderr, "test_host_disk: FAIL %s:%d: ", __FILE__, __LINE__); \
	fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); failures++; \
	return; } } while (0)

static void make_durable(void)
{
	memcpy(durable, newest, SIZE);
	while (npend)
		free(pend[--npend].data);
}

/* Whether pending write i overlaps [off, off + len), and lies within it. */
static int pend_overlaps(unsigned i, unsigned off, unsigned len)
{
	return pend[i].off < off + len && off < pend[i].off + pend[i].len;
}

static int pend_within(unsigned i, unsigned off, unsigned len)
{
	return pend[i].off >= off && pend[i].off + pend[i].len <= off + len;
}

/* Take the pending writes that overlap [off, off + len) off, unwritten. */
static void drop_superseded(unsigned off, unsigned len)
{
	unsigned i, kept = 0;

	for (i = 0; i < npend; i++) {
		if (pend_overlaps(i, off, len))
			free(pend[i].data);
		else
			pend[kept++] = pend[i];
	}
	npend = kept;
}

/* Whether the device would drop what [off, off + len) overlaps, as the
 * model holds it: something overlaps, and all of that lies within and
 * was alone when written (else an older write may lie under it, and the
 * device writes back in order instead). */
static int covers_pending(unsigned off, unsigned len)
{
	int any = 0;
	unsigned i;

	for (i = 0; i < npend; i++)
		if (pend_overlaps(i, off, len)) {
			if (!pend_within(i, off, len) || !pend[i].alone)
				return 0;
			any = 1;
		}
	return any;
}

/* Whether no pending write overlaps [off, off + len). */
static int pending_alone(unsigned off, unsigned len)
{
	unsigned i;

	for (i = 0; i < npend; i++)
		if (pend_overlaps(i, off, len))
			return 0;
	return 1;
}

/*
 * The device's documented rule for a write that goes to the media at
 * once (FUA, or past a full cache): it first writes back the older
 * cached writes up to the last one it overlaps, in order, then itself;
 * unless it covers every cached write it overlaps and each was alone
 * (dropped: the device said so), which are then dropped unwritten, the
 * others left cached.
 * The device may hold less than the model, having written back its
 * oldest writes under pressure: a write the model has that overlaps but
 * is not covered was among them when the device dropped, and so was
 * everything older.
 */
static void media_write(unsigned off, unsigned len, const unsigned char *data,
			int dropped)
{
	int last = -1;
	unsigned i;

	for (i = 0; i < npend; i++)
		if (pend_overlaps(i, off, len) &&
		    (!dropped || !pend_within(i, off, len)))
			last = i;
	for (i = 0; (int)i <= last; i++) {
		memcpy(durable + pend[i].off, pend[i].data, pend[i].len);
		free(pend[i].data);
	}
	memmove(pend, pend + last + 1, (npend - last - 1) * sizeof(*pend));
	npend -= last + 1;
	if (dropped)
		drop_superseded(off, len);
	memcpy(durable + off, data, len);
}

static struct kshim_disk_cache_stats cache_stats(struct kshim_disk *d)
{
	struct kshim_disk_cache_stats st;

	kshim_host_disk_cache_stats(d, &st);
	return st;
}

/*
 * Whether the cache has written back under pressure since the last
 * flush or crash: those write-backs are not in the model, so a crash
 * that drops the cache may leave more than "durable" then.
 */
static unsigned long long pressure_mark;

static int pressured(struct kshim_disk *d)
{
	return cache_stats(d).pressure_writebacks != pressure_mark;
}

static void pressure_reset(struct kshim_disk *d)
{
	pressure_mark = cache_stats(d).pressure_writebacks;
}

/* Could sector s hold version v after a crash? */
static int plausible(unsigned s, const unsigned char *v)
{
	unsigned i;

	if (!memcmp(v, durable + s * SECTOR, SECTOR))
		return 1;
	for (i = 0; i < npend; i++) {
		struct cached *c = &pend[i];

		if (s * SECTOR >= c->off && s * SECTOR < c->off + c->len &&
		    !memcmp(v, c->data + (s * SECTOR - c->off), SECTOR))
			return 1;
	}
	return 0;
}

static void run(int fd_mem, const char *path, unsigned long iters,
		unsigned long long seed, unsigned long long cache_limit)
{
	struct kshim_disk *d;
	char msg[256];
	unsigned long i;
	int err;

	rng = seed | 1;
	memset(newest, 0, SIZE);
	memset(durable, 0, SIZE);
	if (ftruncate(fd_mem, 0) || ftruncate(fd_mem, SIZE))
		CHECK(0, "ftruncate");
	err = kshim_host_disk_open(path, SIZE, SECTOR, cache_limit, &d, msg,
				   sizeof(msg));
	CHECK(!err, "open: %s", msg);
	pressure_reset(d);
	for (i = 0; i < iters; i++) {
		unsigned op = rnd() % 16;
		unsigned s = rnd() % NSECT, n = 1 + rnd() % 16, k;

		if (s + n > NSECT)
			n = NSECT - s;
		if (op < 9) {			/* write, FUA 1 in 9 */
			int fua = op == 0, would_drop, through, dropped;
			struct kshim_disk_cache_stats was = cache_stats(d), st;

			would_drop = covers_pending(s * SECTOR, n * SECTOR);
			for (k = 0; k < n * SECTOR; k++)
				buf[k] = rnd();
			/* 1 in 9 into a buffer the cache takes over, as the
			 * block device does when it cannot write through (the
			 * write log on): always cached, the oldest written
			 * back while the cache is over its bound. */
			if (op == 1) {
				void *w = kshim_host_disk_wbuf_alloc(d, n * SECTOR);

				CHECK(w, "wbuf_alloc");
				memcpy(w, buf, n * SECTOR);
				err = kshim_host_disk_write_wbuf(d, s * SECTOR, w,
								 n * SECTOR, 0);
			} else {
				err = kshim_host_disk_write(d, s * SECTOR, buf,
							    n * SECTOR, fua);
			}
			CHECK(!err, "write %d", err);
			memcpy(newest + s * SECTOR, buf, n * SECTOR);
			st = cache_stats(d);
			through = st.write_throughs != was.write_throughs;
			dropped = st.superseded_drops != was.superseded_drops;
			CHECK(!through || cache_limit,
			      "an unbounded cache wrote through");
			/* Unbounded, the device holds what the model holds,
			 * so it drops exactly when the rule says. */
			CHECK(cache_limit || dropped == (fua && would_drop),
			      "a media write at sector %u (+%u) %s what it overlaps, seed %llu op %lu",
			      s, n, dropped ? "dropped" : "did not drop", seed, i);
			/* Past a full cache, durable at once, as FUA. */
			if (fua || through)
				media_write(s * SECTOR, n * SECTOR, buf, dropped);
			else if (npend < 4096) {
				pend[npend].alone = pending_alone(s * SECTOR,
								  n * SECTOR);
				pend[npend].off = s * SECTOR;
				pend[npend].len = n * SECTOR;
				pend[npend].data = malloc(n * SECTOR);
				memcpy(pend[npend++].data, buf, n * SECTOR);
			}
		} else if (op < 13) {		/* read */
			err = kshim_host_disk_read(d, s * SECTOR, buf, n * SECTOR);
			CHECK(!err, "read %d", err);
			CHECK(!memcmp(buf, newest + s * SECTOR, n * SECTOR),
			      "read at sector %u (+%u) differs from the newest data, seed %llu op %lu",
			      s, n, seed, i);
		} else if (op < 15) {		/* flush */
			CHECK(!kshim_host_disk_flush(d), "flush");
			make_durable();
			pressure_reset(d);
			if (cache_limit == 0) {
				CHECK(pread(fd_mem, buf, SIZE, 0) == SIZE, "pread");
				CHECK(!memcmp(buf, durable, SIZE),
				      "image after flush differs, seed %llu op %lu",
				      seed, i);
			}
		} else {			/* crash, then reopen */
			struct kshim_crash_result res;
			enum kshim_crash_mode mode = rnd() % 3;
			unsigned sct;

			err = kshim_host_disk_crash(d, mode, rnd(), &res);
			CHECK(!err, "crash");
			CHECK(pread(fd_mem, buf, SIZE, 0) == SIZE, "pread");
			if (mode == KSHIM_CRASH_DROP_ALL &&
			    (cache_limit == 0 || !pressured(d)))
				CHECK(!memcmp(buf, durable, SIZE),
				      "drop-all crash left writes that were not durable, seed %llu op %lu",
				      seed, i);
			for (sct = 0; sct < NSECT; sct++)
				CHECK(plausible(sct, buf + sct * SECTOR),
				      "after a mode %d crash sector %u holds data no write-back order could leave, seed %llu op %lu",
				      mode, sct, seed, i);
			memcpy(newest, buf, SIZE);
			make_durable();
			pressure_reset(d);
		}
	}
	{
		struct kshim_disk_cache_stats st = cache_stats(d);

		/* A bounded cache wrote through when full, wrote back under
		 * pressure what it had to take, and never holds more than
		 * its bound. */
		if (cache_limit)
			CHECK(st.pressure_writebacks > 0 &&
			      st.write_throughs > 0 &&
			      st.cached_bytes <= cache_limit,
			      "cache of %llu bytes: %llu written back under pressure, %llu written through, %llu cached",
			      cache_limit, st.pressure_writebacks,
			      st.write_throughs, st.cached_bytes);
		else
			CHECK(!st.pressure_writebacks && !st.write_throughs,
			      "unbounded cache wrote back or through");
		/* and some media write dropped what it covered. */
		CHECK(st.superseded_drops > 0,
		      "cache of %llu bytes: no superseded write dropped",
		      cache_limit);
	}
	kshim_host_disk_close(d);
	make_durable();
}

int main(int argc, char **argv)
{
	unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
	unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	int fd = memfd_create("kshim-disk-test", 0);
	char path[64];
	unsigned long long s;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	for (s = seed; s < seed + 8; s++) {
		run(fd, path, iters, s, 0);
		/* A small cache: write-back under pressure keeps order. */
		run(fd, path, iters, s, 8 * SECTOR);
	}
	printf("KSHIM-RESULT tests=16 passed=%d failed=%d skipped=0\n",
	       16 - (failures > 16 ? 16 : failures), failures);
	return failures ? 1 : 0;
}
