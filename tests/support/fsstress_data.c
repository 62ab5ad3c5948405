// SPDX-License-Identifier: GPL-2.0
/*
 * The operation generator's file data (fsstress_internal.h): each
 * regular file's contents in the model (struct m_data), the operations
 * on them through kshim/vfs.h's file calls (buffered, O_DSYNC/RWF_DSYNC
 * and O_DIRECT writes and reads, fsync, fdatasync, fallocate's allocate,
 * keep-size, punch-hole, zero-range, collapse and insert, ftruncate),
 * the check of every byte read against the model, and after a crash the
 * check of what the fsync family promised (data_durability.h).
 *
 * Offsets and lengths are seeded and mostly unaligned; writes go past
 * the end of file (holes), truncation goes both ways. O_DIRECT and
 * collapse/insert use 4 KiB multiples: aligned for every geometry the
 * tests make (512-byte or 4 KiB sectors, 1 or 4 KiB blocks).
 */
#include <linux/fs.h>
#include <linux/falloc.h>
#include <linux/stat.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <kshim/bdev.h>
#include <kshim/runtime.h>
#include <kshim/vfs.h>
#include "fsstress_internal.h"

#define DIO_ALIGN	4096

/* ---- the model of a file's contents -------------------------------------- */

static void seg_del(struct m_data *d, u32 k)
{
	memmove(&d->seg[k], &d->seg[k + 1], (d->nseg - k - 1) * sizeof(d->seg[0]));
	d->nseg--;
}

static void seg_ins(struct m_data *d, u32 k, struct m_seg s)
{
	if (d->nseg == MAX_SEGS)
		kshim_fatal("fsstress: a file's model needs more than %d segments",
			    MAX_SEGS);
	memmove(&d->seg[k + 1], &d->seg[k], (d->nseg - k) * sizeof(d->seg[0]));
	d->seg[k] = s;
	d->nseg++;
}

/* Bytes [off, end) become zeroes: a segment may split (one more). */
static void data_zero(struct m_data *d, u32 off, u32 end)
{
	u32 k = 0;

	while (k < d->nseg) {
		struct m_seg *s = &d->seg[k];

		if (s->end <= off || s->off >= end) {
			k++;
		} else if (s->off < off && s->end > end) {
			struct m_seg tail = *s;

			tail.off = end;
			s->end = off;
			seg_ins(d, k + 1, tail);
			return;
		} else if (s->off < off) {
			s->end = off;
			k++;
		} else if (s->end > end) {
			s->off = end;
			k++;
		} else {
			seg_del(d, k);
		}
	}
}

/* Pattern SEED over [off, end): at most two segments more. */
static void data_write(struct m_data *d, u32 off, u32 end, u32 seed)
{
	u32 k = 0;

	data_zero(d, off, end);
	while (k < d->nseg && d->seg[k].end <= off)
		k++;
	seg_ins(d, k, (struct m_seg){ .off = off, .end = end, .seed = seed });
	d->size = max(d->size, end);
}

static void data_resize(struct m_data *d, u32 size)
{
	if (size < d->size)
		data_zero(d, size, d->size);
	d->size = size;
}

/* FALLOC_FL_COLLAPSE_RANGE: [off, off + len) goes, what follows moves
 * down (its pattern with it). */
static void data_collapse(struct m_data *d, u32 off, u32 len)
{
	u32 k;

	data_zero(d, off, off + len);
	for (k = 0; k < d->nseg; k++) {
		if (d->seg[k].off < off + len)
			continue;
		d->seg[k].off -= len;
		d->seg[k].end -= len;
		d->seg[k].adj += len;
	}
	d->size -= len;
}

/* FALLOC_FL_INSERT_RANGE: a hole of LEN at OFF, what follows moves up. */
static void data_insert(struct m_data *d, u32 off, u32 len)
{
	u32 k;

	for (k = 0; k < d->nseg; k++) {
		struct m_seg *s = &d->seg[k];

		if (s->off < off && s->end > off) {
			struct m_seg tail = *s;

			tail.off = off;
			s->end = off;
			seg_ins(d, k + 1, tail);
			break;
		}
	}
	for (k = 0; k < d->nseg; k++) {
		if (d->seg[k].off < off)
			continue;
		d->seg[k].off += len;
		d->seg[k].end += len;
		d->seg[k].adj -= len;
	}
	d->size += len;
}

/* Segments of D that overlap [off, end). */
static u32 segs_in(const struct m_data *d, u32 off, u32 end)
{
	u32 k, n = 0;

	for (k = 0; k < d->nseg; k++)
		n += d->seg[k].off < end && d->seg[k].end > off;
	return n;
}

/* A reflink clone: bytes [dst, dst + len) of D become those of SRC at
 * [src, src + len), their patterns moved with them. SRC is a copy (it
 * may be D's own contents before the clone). */
static void data_clone(struct m_data *d, const struct m_data *src, u32 off,
		       u32 dst, u32 len)
{
	u32 k, j;

	data_zero(d, dst, dst + len);
	for (k = 0; k < src->nseg; k++) {
		struct m_seg s = src->seg[k];

		if (s.end <= off || s.off >= off + len)
			continue;
		s.off = max(s.off, off) - off + dst;
		s.end = min(s.end, off + len) - off + dst;
		s.adj += off - dst;
		for (j = 0; j < d->nseg && d->seg[j].off < s.off; j++)
			;
		seg_ins(d, j, s);
	}
	d->size = max(d->size, dst + len);
}

/* The model's bytes [off, off + len) into BUF (zeroes past the end). */
static void data_fill(const struct m_data *d, u32 off, u32 len, u8 *buf)
{
	u32 k, i;

	memset(buf, 0, len);
	for (k = 0; k < d->nseg; k++) {
		const struct m_seg *s = &d->seg[k];
		u32 a = max(s->off, off), b = min(s->end, off + len);

		for (i = a; i < b; i++)
			buf[i - off] = data_pat(s->seed, (u32)(i + s->adj));
	}
}

/* Whether an operation that may add two segments keeps within them. */
static bool room(const struct m_data *d)
{
	return d->nseg <= MAX_SEGS - 2;
}

/* Whether file INO may become SIZE bytes within the task's budget. */
static bool fits(struct task_model *t, int ino, u32 size)
{
	u64 sum = size;
	int i;

	for (i = 0; i < MAX_INODES; i++)
		if (i != ino && t->in[i].type == M_REG)
			sum += t->in[i].data.size;
	return sum <= t->fs->task_data;
}

/* ---- what fsync promised (crash tests) ------------------------------------ */

static struct m_durable *durable_of(struct task_model *t, int ino)
{
	if (!t->dur || t->dur[ino].gen != t->in[ino].gen)
		return NULL;
	return &t->dur[ino];
}

static void mark_durable(struct task_model *t, int ino)
{
	struct m_durable *r = durable_of(t, ino);

	if (!r)
		return;
	r->dur = t->in[ino].data;
	r->size_lo = r->size_hi = r->dur.size;
	r->nchange = 0;
	r->unknown = t->in[ino].data_lost;
}

/* Bytes [off, end) of INO may now be SEED's (at ADJ), zeroes for 0. */
static void log_change(struct task_model *t, int ino, u32 seed, u32 adj,
		       u32 off, u32 end, bool durable)
{
	struct m_durable *r = durable_of(t, ino);

	if (!r || end <= off)
		return;
	if (r->nchange == MAX_CHANGES) {
		r->unknown = true;
		return;
	}
	r->ch[r->nchange++] = (struct data_change){
		.seed = seed, .off = off, .end = end, .adj = adj,
		.durable = durable,
	};
}

/* The file is now SIZE bytes (the bytes cut are zeroes if it grows
 * again). */
static void log_size(struct task_model *t, int ino, u32 old, u32 size)
{
	struct m_durable *r = durable_of(t, ino);

	if (!r)
		return;
	if (size < old)
		log_change(t, ino, 0, 0, size, old, false);
	r->size_lo = min(r->size_lo, size);
	r->size_hi = max(r->size_hi, size);
}

void fss_data_created(struct task_model *t, int ino)
{
	t->in[ino].gen = ++t->next_gen;
	if (t->dur)
		t->dur[ino] = (struct m_durable){ .gen = t->in[ino].gen };
}

void fss_data_synced(struct task_model *t)
{
	int i;

	if (t->fs->cfg.io_errors)
		return;

	for (i = 0; i < MAX_INODES; i++)
		if (t->in[i].type == M_REG)
			mark_durable(t, i);
}

/* ---- the kernel side ------------------------------------------------------ */

static struct file *open_entry(struct task_model *t, int e, int flags)
{
	struct dentry *dir = fss_dir_dentry(t, t->en[e].dir);
	struct file *f;
	int err;

	if (IS_ERR(dir))
		return NULL;
	err = kshim_vfs_open(dir, t->en[e].name, flags, 0, &f);
	kshim_vfs_put(dir);
	if (err) {
		fss_fail(t, "open %s (flags %#x): %d", t->en[e].name, flags, err);
		return NULL;
	}
	return f;
}

static void close_file(struct task_model *t, struct file *f, const char *name)
{
	int err = kshim_vfs_close(f);

	if (err)
		fss_fail(t, "close %s: %d", name, err);
}

/* BUF (LEN bytes read at OFF) against the model. */
static void compare(struct task_model *t, const struct m_data *d,
		    const u8 *buf, u32 off, u32 len, const char *what,
		    const char *name)
{
	u8 *want = kmalloc(max(len, 1u), GFP_KERNEL | __GFP_NOFAIL);
	u32 i;

	t->st.checks++;
	data_fill(d, off, len, want);
	for (i = 0; i < len; i++)
		if (buf[i] != want[i])
			break;
	if (i < len)
		fss_fail(t, "%s %s: byte %u is %#x, the model says %#x (read %u at %u, size %u, %u segments)",
			 what, name, off + i, buf[i], want[i], len, off,
			 d->size, d->nseg);
	kfree(want);
}

/* A buffer for LEN bytes, DIO_ALIGN-aligned for O_DIRECT; *MEM frees. */
static u8 *io_buf(u32 len, void **mem)
{
	*mem = kmalloc(len + DIO_ALIGN, GFP_KERNEL | __GFP_NOFAIL);
	return PTR_ALIGN((u8 *)*mem, DIO_ALIGN);
}

/*
 * With cfg.io_errors: whether a write of INO's data (I_INO, the kernel's
 * inode number) failed on the device, whether or not an operation got
 * the error. A failed writeback leaves the page cache clean; once the
 * pages or the inode are evicted, a read returns the disk's bytes and no
 * call returns the error (kshim/bdev.h). Then nothing more is known of
 * the file, as after an EIO an operation got.
 */
void fss_note_lost_writes(struct task_model *t, int ino, unsigned long i_ino)
{
	struct m_durable *r;

	if (!t->fs->cfg.io_errors || t->in[ino].data_lost ||
	    !kshim_bdev_write_lost(i_ino))
		return;
	t->in[ino].data_lost = true;
	r = durable_of(t, ino);
	if (r)
		r->unknown = true;
}

/*
 * fss_expect() for an operation on file INO, which with cfg.io_errors
 * may also return -EIO: then nothing more is known of the file.
 */
static bool data_expect(struct task_model *t, enum fsstress_op op, int ino,
			long got, long want, const char *name)
{
	struct m_durable *r = durable_of(t, ino);

	if (got == -EIO && want != -EIO && t->fs->cfg.io_errors) {
		t->in[ino].data_lost = true;
		if (r)
			r->unknown = true;
		t->st.checks++;
		t->st.errors[op]++;
		t->st.errnos[EIO]++;
		return false;
	}
	/*
	 * After an EIO the size is not known either: a read's length, and
	 * whether collapse or insert reaches past the end (-EINVAL), are
	 * the kernel's to say (seed 51 of test_xfs_fsstress_crash's write
	 * error: an insert the model placed inside the file got -EINVAL).
	 */
	if (t->in[ino].data_lost &&
	    (got >= 0 || ((op == FSS_COLLAPSE || op == FSS_INSERT) &&
			  (got == -EINVAL || want == -EINVAL))))
		got = want;
	return fss_expect(t, op, got, want, name);
}

/* ---- operations ------------------------------------------------------------ */

/*
 * write, dsyncwrite (RWF_DSYNC, or a file opened O_DSYNC), dwrite
 * (O_DIRECT, aligned). A file whose model is out of segments is
 * rewritten whole instead; one that would outgrow the task's budget
 * is truncated to nothing.
 */
static void op_write(struct task_model *t, enum fsstress_op op, int e)
{
	int ino = t->en[e].ino, flags = O_WRONLY, rwf = 0;
	struct m_data *d = &t->in[ino].data;
	const char *name = t->en[e].name;
	u32 seed = (u32)fss_random(t) | 1, len, off, i, old = d->size;
	bool unknown, durable = false;
	struct file *f;
	void *mem;
	ssize_t n;
	u8 *buf;

	if (op == FSS_DWRITE) {
		len = DIO_ALIGN * (1 + fss_rnd(t, 4));
		off = DIO_ALIGN * fss_rnd(t, (MAX_FILE - len) / DIO_ALIGN + 1);
		flags |= O_DIRECT;
	} else {
		/* Mostly up to 16 KiB, some small; anywhere below MAX_FILE. */
		len = fss_rnd(t, 4) ? 1 + fss_rnd(t, 16384) : 1 + fss_rnd(t, 512);
		off = fss_rnd(t, MAX_FILE - len + 1);
		if (!room(d)) {
			off = 0;
			len = d->size;
		}
	}
	if (op == FSS_DSYNCWRITE) {
		if (fss_rnd(t, 2))
			flags |= O_DSYNC;
		else
			rwf = RWF_DSYNC;
	}
	if (!len || (op == FSS_DWRITE && !room(d)) ||
	    !fits(t, ino, max(old, off + len))) {
		/* Out of budget (or segments, with a DIO write): empty it. */
		off = len = 0;
	}
	f = open_entry(t, e, flags);
	if (!f)
		return;
	if (!len) {
		n = kshim_vfs_ftruncate(f, 0);
		if (data_expect(t, op, ino, n, 0, name)) {
			data_resize(d, 0);
			log_size(t, ino, old, 0);
		}
		close_file(t, f, name);
		return;
	}
	buf = io_buf(len, &mem);
	for (i = 0; i < len; i++)
		buf[i] = data_pat(seed, off + i);
	n = kshim_vfs_pwrite(f, buf, len, off, rwf);
	unknown = fss_results_unknown(t->fs);
	durable = op == FSS_DSYNCWRITE && n == len && !unknown;
	/* A failed write once the power is going may have written any of
	 * it: the model takes it as done, the crash check as possible. */
	data_expect(t, op, ino, n, len, name);
	data_write(d, off, off + len, seed);
	log_change(t, ino, seed, 0, off, off + len, durable);
	log_size(t, ino, old, d->size);
	/* The size an O_DSYNC write reached is durable with it. */
	if (durable && durable_of(t, ino))
		t->dur[ino].size_lo = max(t->dur[ino].size_lo, off + len);
	kfree(mem);
	close_file(t, f, name);
}

/* read (buffered, anywhere, past the end too) and dread (O_DIRECT). */
static void op_read(struct task_model *t, enum fsstress_op op, int e)
{
	struct m_data *d = &t->in[t->en[e].ino].data;
	const char *name = t->en[e].name;
	u32 len, off, want;
	struct file *f;
	void *mem;
	ssize_t n;
	u8 *buf;

	if (op == FSS_DREAD) {
		len = DIO_ALIGN * (1 + fss_rnd(t, 4));
		off = DIO_ALIGN * fss_rnd(t, (d->size + DIO_ALIGN) / DIO_ALIGN + 1);
	} else {
		len = 1 + fss_rnd(t, 32768);
		off = fss_rnd(t, d->size + 4096);
	}
	want = off >= d->size ? 0 : min(len, d->size - off);
	f = open_entry(t, e, O_RDONLY | (op == FSS_DREAD ? O_DIRECT : 0));
	if (!f)
		return;
	buf = io_buf(len, &mem);
	n = kshim_vfs_pread(f, buf, len, off, 0);
	fss_note_lost_writes(t, t->en[e].ino, file_inode(f)->i_ino);
	if (data_expect(t, op, t->en[e].ino, n, want, name) && n > 0 &&
	    !fss_results_unknown(t->fs) && !t->in[t->en[e].ino].data_lost)
		compare(t, d, buf, off, n, fsstress_op_names[op], name);
	kfree(mem);
	close_file(t, f, name);
}

static void op_fsync(struct task_model *t, enum fsstress_op op, int e)
{
	struct file *f = open_entry(t, e, O_RDONLY);
	int err;

	if (!f)
		return;
	err = kshim_vfs_fsync(f, op == FSS_FDATASYNC);
	if (!err && !fss_results_unknown(t->fs))
		mark_durable(t, t->en[e].ino);
	data_expect(t, op, t->en[e].ino, err, 0, t->en[e].name);
	close_file(t, f, t->en[e].name);
}

/* fallocate, punch, zero (either keeping the size or not). */
static void op_fallocate(struct task_model *t, enum fsstress_op op, int e)
{
	int ino = t->en[e].ino, mode, err;
	struct m_data *d = &t->in[ino].data;
	u32 off = fss_rnd(t, MAX_FILE), len, end, old = d->size;
	struct file *f;

	len = 1 + fss_rnd(t, min(32768u, MAX_FILE - off));
	end = off + len;
	if (op == FSS_PUNCH)
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
	else if (op == FSS_ZERO)
		mode = FALLOC_FL_ZERO_RANGE | (fss_rnd(t, 2) ? FALLOC_FL_KEEP_SIZE : 0);
	else
		mode = fss_rnd(t, 2) ? FALLOC_FL_KEEP_SIZE : 0;
	if (!room(d))
		return;
	if (!(mode & FALLOC_FL_KEEP_SIZE) && !fits(t, ino, max(old, end)))
		mode |= FALLOC_FL_KEEP_SIZE;
	f = open_entry(t, e, O_WRONLY);
	if (!f)
		return;
	err = kshim_vfs_fallocate(f, mode, off, len);
	data_expect(t, op, ino, err, 0, t->en[e].name);
	if (mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) {
		u32 zend = (mode & FALLOC_FL_KEEP_SIZE) ? min(end, old) : end;

		if (zend > off) {
			data_zero(d, off, zend);
			log_change(t, ino, 0, 0, off, zend, false);
		}
	}
	if (!(mode & FALLOC_FL_KEEP_SIZE) && end > old) {
		data_resize(d, end);
		log_size(t, ino, old, end);
	}
	close_file(t, f, t->en[e].name);
}

/*
 * collapse and insert: 4 KiB multiples (block-aligned), -EINVAL
 * predicted when the range reaches the end of file (collapse) or starts
 * past it (insert). The crash check cannot follow moved bytes: the
 * file is not checked until its next durable point.
 */
static void op_shift(struct task_model *t, enum fsstress_op op, int e)
{
	int ino = t->en[e].ino, err;
	struct m_data *d = &t->in[ino].data;
	u32 old = d->size, len = DIO_ALIGN * (1 + fss_rnd(t, 2));
	/* Mostly within the file; a quarter anywhere (-EINVAL past it). */
	u32 off = DIO_ALIGN * fss_rnd(t, (fss_rnd(t, 4) ? old : MAX_FILE) /
					 DIO_ALIGN + 1);
	struct m_durable *r;
	struct file *f;
	long want = 0;

	if (op == FSS_COLLAPSE && off + len >= old)
		want = -EINVAL;
	if (op == FSS_INSERT && off >= old)
		want = -EINVAL;
	if (!room(d) || (op == FSS_INSERT && !want &&
			 (old + len > MAX_FILE || !fits(t, ino, old + len))))
		return;
	f = open_entry(t, e, O_WRONLY);
	if (!f)
		return;
	err = kshim_vfs_fallocate(f, op == FSS_COLLAPSE ?
				  FALLOC_FL_COLLAPSE_RANGE :
				  FALLOC_FL_INSERT_RANGE, off, len);
	if (data_expect(t, op, ino, err, want, t->en[e].name) && !want) {
		if (op == FSS_COLLAPSE)
			data_collapse(d, off, len);
		else
			data_insert(d, off, len);
		r = durable_of(t, ino);
		if (r)
			r->unknown = true;
	}
	close_file(t, f, t->en[e].name);
}

static void op_truncate(struct task_model *t, int e)
{
	int ino = t->en[e].ino, err;
	struct m_data *d = &t->in[ino].data;
	u32 size = fss_rnd(t, 2) ? fss_rnd(t, MAX_FILE + 1) :
				   fss_rnd(t, d->size + 1), old = d->size;
	struct file *f;

	if (!fits(t, ino, size))
		size = 0;
	f = open_entry(t, e, O_WRONLY);
	if (!f)
		return;
	err = kshim_vfs_ftruncate(f, size);
	data_expect(t, FSS_TRUNCATE, ino, err, 0, t->en[e].name);
	data_resize(d, size);
	log_size(t, ino, old, size);
	close_file(t, f, t->en[e].name);
}

/*
 * What vfs_clone_file_range() (DEDUPE false) or a dedupe of one range
 * (vfs_dedupe_file_range_one()) returns for SRC's [off, off + len) onto
 * DST at DOFF, by fs/remap_range.c's rules on 4 KiB blocks: both starts
 * block-aligned (the generator's always are); the source range within
 * the source file, and for a dedupe the destination's within its file;
 * a clone may end unaligned only at the source's end of file and past
 * the destination's; within one file the ranges, their last block
 * rounded up, must not overlap. A dedupe of ranges that differ: -EBADE.
 * 0 when the clone or dedupe happens.
 */
static long remap_result(const struct m_data *src, const struct m_data *dst,
			 bool same_inode, u32 off, u32 doff, u32 len,
			 bool dedupe)
{
	u32 bytes = len;

	if (off >= src->size || off + len > src->size)
		return -EINVAL;
	if (dedupe && (doff >= dst->size || doff + len > dst->size))
		return -EINVAL;
	if (off + len == src->size && (!dedupe || doff + len == dst->size))
		bytes = ALIGN(len, DIO_ALIGN);
	else if (!IS_ALIGNED(len, DIO_ALIGN))
		return -EINVAL;
	if (same_inode && doff + bytes > off && doff < off + bytes)
		return -EINVAL;
	if (!IS_ALIGNED(len, DIO_ALIGN) && doff + len < dst->size)
		return -EINVAL;
	return 0;
}

/* Whether [off, off + len) of A and [doff, doff + len) of B hold the
 * same bytes. */
static bool same_bytes(const struct m_data *a, u32 off,
		       const struct m_data *b, u32 doff, u32 len)
{
	u8 *x = kmalloc(len, GFP_KERNEL | __GFP_NOFAIL);
	u8 *y = kmalloc(len, GFP_KERNEL | __GFP_NOFAIL);
	bool same;

	data_fill(a, off, len, x);
	data_fill(b, doff, len, y);
	same = !memcmp(x, y, len);
	kfree(x);
	kfree(y);
	return same;
}

/* The crash check's view of a clone: each byte of DST's range may now
 * be the source's (its segments' patterns, zeroes between them). */
static void log_clone(struct task_model *t, int ino, const struct m_data *src,
		      u32 off, u32 doff, u32 len)
{
	u32 k, at = off;

	for (k = 0; k < src->nseg; k++) {
		const struct m_seg *s = &src->seg[k];
		u32 a = max(s->off, off), b = min(s->end, off + len);

		if (a >= b)
			continue;
		log_change(t, ino, 0, 0, at - off + doff, a - off + doff, false);
		log_change(t, ino, s->seed, s->adj + off - doff, a - off + doff,
			   b - off + doff, false);
		at = b;
	}
	log_change(t, ino, 0, 0, at - off + doff, len + doff, false);
}

/*
 * clone (FICLONERANGE) and dedupe (FIDEDUPERANGE) between two of the
 * task's files, or within one: block-aligned starts, a length of whole
 * blocks or, for a third of the clones, up to the source's end of file.
 * Mostly valid requests; the model predicts each -EINVAL and, for a
 * dedupe, whether the ranges match (holes often do) or -EBADE. A clone
 * makes later writes to either file copy on write.
 */
static void op_remap(struct task_model *t, enum fsstress_op op, int se, int de)
{
	int sino = t->en[se].ino, dino = t->en[de].ino;
	struct m_data src = t->in[sino].data, *d = &t->in[dino].data;
	bool dedupe = op == FSS_DEDUPE;
	u32 old = d->size, len, off, doff, left, k;
	struct file *sf, *df;
	long want, got;

	/* After an I/O error neither size nor bytes are known. */
	if (t->in[sino].data_lost || t->in[dino].data_lost)
		return;
	off = DIO_ALIGN * fss_rnd(t, src.size / DIO_ALIGN + 1);
	left = off < src.size ? src.size - off : 0;
	if (!fss_rnd(t, 4))		/* anything: -EINVAL's cases */
		len = DIO_ALIGN * (1 + fss_rnd(t, 4));
	else if (!dedupe && (left < DIO_ALIGN || !fss_rnd(t, 3)))
		len = left ?: DIO_ALIGN;	/* to the end of file */
	else
		len = DIO_ALIGN * (1 + fss_rnd(t, clamp(left / DIO_ALIGN, 1u, 4u)));
	doff = DIO_ALIGN * fss_rnd(t, (dedupe ? old : MAX_FILE - len) /
				   DIO_ALIGN + 1);
	/* A dedupe of differing bytes only fails: half of them look for a
	 * destination that matches (holes, cloned ranges). */
	if (dedupe && fss_rnd(t, 2))
		for (k = 0; k + len <= old; k += DIO_ALIGN)
			if ((sino != dino || k >= off + len || k + len <= off) &&
			    same_bytes(&src, off, d, k, len)) {
				doff = k;
				break;
			}
	if (doff + len > MAX_FILE || d->nseg + 1 + segs_in(&src, off, off + len) >
	    MAX_SEGS || !fits(t, dino, max(old, doff + len)))
		return;
	want = remap_result(&src, d, sino == dino, off, doff, len, dedupe);
	if (dedupe && !want && !same_bytes(&src, off, d, doff, len))
		want = -EBADE;
	sf = open_entry(t, se, O_RDONLY);
	if (!sf)
		return;
	df = open_entry(t, de, O_RDWR);
	if (!df) {
		close_file(t, sf, t->en[se].name);
		return;
	}
	if (dedupe) {
		got = kshim_vfs_dedupe_range(sf, off, df, doff, len);
		/* The bytes deduped: all of them, as the range is whole
		 * blocks within both files. */
		if (!want && got == len)
			got = 0;
	} else {
		got = kshim_vfs_clone_range(sf, off, df, doff, len);
	}
	if (data_expect(t, op, dino, got, want, t->en[de].name) && !want &&
	    !dedupe) {
		data_clone(d, &src, off, doff, len);
		log_clone(t, dino, &src, off, doff, len);
		log_size(t, dino, old, d->size);
	}
	close_file(t, df, t->en[de].name);
	close_file(t, sf, t->en[se].name);
}

void fss_data_op(struct task_model *t, enum fsstress_op op)
{
	int e = fss_pick_entry(t, BIT(M_REG)), i;

	if (e < 0)
		return;
	switch (op) {
	case FSS_WRITE: case FSS_DSYNCWRITE: case FSS_DWRITE:
		op_write(t, op, e);
		break;
	case FSS_READ: case FSS_DREAD:
		op_read(t, op, e);
		break;
	case FSS_FSYNC: case FSS_FDATASYNC:
		op_fsync(t, op, e);
		break;
	case FSS_FALLOCATE: case FSS_PUNCH: case FSS_ZERO:
		op_fallocate(t, op, e);
		break;
	case FSS_COLLAPSE: case FSS_INSERT:
		op_shift(t, op, e);
		break;
	case FSS_TRUNCATE:
		op_truncate(t, e);
		break;
	case FSS_CLONE: case FSS_DEDUPE:
		/* Most files are empty (created, not written yet), and an
		 * empty source only gives -EINVAL: look a little further. */
		for (i = 0; i < 3 && !t->in[t->en[e].ino].data.size; i++)
			e = fss_pick_entry(t, BIT(M_REG));
		op_remap(t, op, e, fss_pick_entry(t, BIT(M_REG)));
		break;
	default:
		kshim_fatal("fsstress: operation %d is not a data operation", op);
	}
}

/* ---- the whole check ------------------------------------------------------- */

/* Entry E's file: its whole contents against the model. */
void fss_check_data(struct task_model *t, int e)
{
	struct m_data *d = &t->in[t->en[e].ino].data;
	struct file *f = open_entry(t, e, O_RDONLY | O_NOATIME);
	/* One byte more than the model has: the end of file is checked. */
	u32 len = d->size + 1;
	void *mem;
	ssize_t n;
	u8 *buf;

	if (!f)
		return;
	buf = io_buf(len, &mem);
	n = kshim_vfs_pread(f, buf, len, 0, 0);
	t->st.checks++;
	if (n != d->size)
		fss_fail(t, "read of all of %s: %zd bytes, the model has %u",
			 t->en[e].name, n, d->size);
	else
		compare(t, d, buf, 0, n, "contents of", t->en[e].name);
	kfree(mem);
	close_file(t, f, t->en[e].name);
}

/* After a crash, entry E's file (record R) against data_durability.h;
 * false when it turned out unknown (fss_note_lost_writes()). */
static bool check_durable_file(struct task_model *t, int e,
			       const struct m_durable *r)
{
	struct file *f = open_entry(t, e, O_RDONLY | O_NOATIME);
	const char *name = t->en[e].name;
	struct kstat st;
	u8 *buf, *dur;
	void *mem;
	ssize_t n;
	u32 i;

	if (!f)
		return true;
	/* A write of it failed unseen: nothing was promised. */
	fss_note_lost_writes(t, t->en[e].ino, file_inode(f)->i_ino);
	if (r->unknown) {
		close_file(t, f, name);
		return false;
	}
	t->st.checks++;
	if (kshim_vfs_getattr(f->f_path.dentry, &st)) {
		fss_fail(t, "getattr %s after the crash", name);
		goto out;
	}
	if (st.size < r->size_lo || st.size > r->size_hi) {
		fss_fail(t, "%s: size %lld after the crash, not within %u..%u (since its last fsync)",
			 name, st.size, r->size_lo, r->size_hi);
		goto out;
	}
	buf = io_buf(st.size + 1, &mem);
	dur = kmalloc(st.size + 1, GFP_KERNEL | __GFP_NOFAIL);
	data_fill(&r->dur, 0, st.size, dur);
	n = kshim_vfs_pread(f, buf, st.size, 0, 0);
	if (n != st.size)
		fss_fail(t, "%s: read %zd of its %lld bytes after the crash",
			 name, n, st.size);
	for (i = 0; n == st.size && i < n; i++) {
		if (data_byte_allowed(buf[i], dur[i], r->ch, r->nchange, i))
			continue;
		fss_fail(t, "%s: byte %u is %#x after the crash; %#x at its last fsync, %u change(s) since",
			 name, i, buf[i], dur[i], r->nchange);
		break;
	}
	kfree(dur);
	kfree(mem);
out:
	close_file(t, f, name);
	return true;
}

/*
 * After a crash, with the model at the state the tree recovered to:
 * each regular file it names that the durability records still follow
 * (the same file, created in this run, no collapse or insert since its
 * last durable point) against what was promised.
 */
void fss_check_durable(struct task_model *t)
{
	DECLARE_BITMAP(seen, MAX_INODES);
	unsigned int files = 0, changed = 0, synced = 0;
	struct m_durable *r;
	int e, ino;

	if (!t->dur)
		return;
	bitmap_zero(seen, MAX_INODES);
	for (e = 0; e < MAX_ENTRIES; e++) {
		if (!t->en[e].used)
			continue;
		ino = t->en[e].ino;
		if (t->in[ino].type != M_REG || test_and_set_bit(ino, seen))
			continue;
		r = durable_of(t, ino);
		if (!r || r->unknown || !check_durable_file(t, e, r))
			continue;
		files++;
		changed += r->nchange > 0;
		synced += r->dur.size > 0;
	}
	kshim_info("fsstress: task %d: %u file(s) checked against what fsync promised (%u with data synced, %u changed since)\n",
		   t->id, files, synced, changed);
}
