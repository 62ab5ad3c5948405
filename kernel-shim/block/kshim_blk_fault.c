// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection on kshim's block device (kshim/bdev.h): errors and
 * delays on chosen operations and sectors, every Nth, a number of times,
 * or with a probability.
 *
 * Faults are decided at submission, in submission order, from the
 * device's own random stream (seeded from the run's seed), so a
 * deterministic run injects the same faults at the same I/Os every time.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/slab.h>

#include <kshim/bdev.h>
#include <kshim/runtime.h>

#include "kshim_blk.h"

struct kshim_blk_fault {
	struct list_head list;
	int id;
	struct kshim_fault f;
	unsigned long matched, hits;
};

static unsigned int bio_fault_ops(struct bio *bio)
{
	unsigned int ops = (bio->bi_opf & REQ_PREFLUSH) ? KSHIM_FAULT_FLUSH : 0;

	switch (bio_op(bio)) {
	case REQ_OP_READ:
		return ops | KSHIM_FAULT_READ;
	case REQ_OP_DISCARD:
		return ops | KSHIM_FAULT_DISCARD;
	default:
		return ops | (bio_sectors(bio) ? KSHIM_FAULT_WRITE : 0);
	}
}

static bool fault_matches(struct kshim_blk_fault *kf, struct bio *bio)
{
	const struct kshim_fault *f = &kf->f;

	if (!(f->ops & bio_fault_ops(bio)))
		return false;
	if (f->nr_sectors && !(bio->bi_iter.bi_sector < f->start + f->nr_sectors &&
			       f->start < bio_end_sector(bio) + !bio_sectors(bio)))
		return false;
	return true;
}

/*
 * Called with kb->lock held, after the latency model drew its numbers
 * from the same stream: the delay the faults that fire add to BIO; sets
 * *status to the first injected error.
 */
u64 kshim_blk_inject_faults(struct kshim_bdev *kb, struct bio *bio,
			    blk_status_t *status)
{
	struct kshim_blk_fault *kf;
	u64 ns = 0;

	list_for_each_entry(kf, &kb->faults, list) {
		if (!fault_matches(kf, bio))
			continue;
		kf->matched++;
		if (kf->f.times && kf->hits >= kf->f.times)
			continue;
		if (kf->f.nth && kf->matched != kf->f.nth)
			continue;
		if (kf->f.ppm && kshim_random(&kb->rng) % 1000000 >= kf->f.ppm)
			continue;
		kf->hits++;
		ns += kf->f.delay_ns;
		spin_lock(&kb->stats_lock);
		if (kf->f.delay_ns)
			kb->st.delays_injected++;
		if (kf->f.status != BLK_STS_OK && *status == BLK_STS_OK) {
			*status = kf->f.status;
			kb->st.faults_injected++;
		}
		spin_unlock(&kb->stats_lock);
	}
	return ns;
}

int kshim_bdev_add_fault(struct kshim_bdev *kb, const struct kshim_fault *f)
{
	struct kshim_blk_fault *kf;

	if (!f->ops || (f->ops & ~(KSHIM_FAULT_READ | KSHIM_FAULT_WRITE |
				   KSHIM_FAULT_FLUSH | KSHIM_FAULT_DISCARD))) {
		pr_err("kshim: %s: fault with operation mask %#x: give one or more KSHIM_FAULT_* bits\n",
		       kb->gd->disk_name, f->ops);
		return -EINVAL;
	}
	if (f->ppm > 1000000) {
		pr_err("kshim: %s: fault probability %u ppm is above 1000000\n",
		       kb->gd->disk_name, f->ppm);
		return -EINVAL;
	}
	kf = kzalloc(sizeof(*kf), GFP_KERNEL | __GFP_NOFAIL);
	kf->f = *f;
	spin_lock(&kb->lock);
	kf->id = kb->next_fault_id++;
	list_add_tail(&kf->list, &kb->faults);
	spin_unlock(&kb->lock);
	return kf->id;
}

unsigned long kshim_bdev_fault_hits(struct kshim_bdev *kb, int id)
{
	struct kshim_blk_fault *kf;
	unsigned long hits = 0;

	spin_lock(&kb->lock);
	list_for_each_entry(kf, &kb->faults, list)
		if (kf->id == id)
			hits = kf->hits;
	spin_unlock(&kb->lock);
	return hits;
}

void kshim_blk_clear_faults(struct kshim_bdev *kb)
{
	struct kshim_blk_fault *kf, *tmp;
	LIST_HEAD(gone);

	spin_lock(&kb->lock);
	list_splice_init(&kb->faults, &gone);
	spin_unlock(&kb->lock);
	list_for_each_entry_safe(kf, tmp, &gone, list)
		kfree(kf);
}

void kshim_bdev_clear_faults(struct kshim_bdev *kb)
{
	kshim_blk_clear_faults(kb);
}

/*
 * The inodes whose file data was in a write that failed (an injected
 * error, a removed device). The kernel records such an error in the
 * inode's mapping (mapping_set_error()), where the next fsync() finds it,
 * and leaves the page cache clean: once the pages, or the whole inode,
 * are evicted, a read returns what the disk holds and no call returns
 * the error. A test's model of file contents asks here which files'
 * data the kernel may have lost without telling it.
 * Inode numbers, not inodes: an evicted inode's number stays.
 */
#define LOST_WRITE_INODES	1024

static unsigned long lost_write_ino[LOST_WRITE_INODES];
static unsigned int nr_lost_write_ino;
static bool lost_write_overflow;
/* kshim_raw_lock: never a switch point, so that keeping the record does
 * not change a deterministic run's schedule. */
static u32 lost_write_lock;

static void note_lost_write_ino(unsigned long ino)
{
	unsigned int i;

	for (i = 0; i < nr_lost_write_ino; i++)
		if (lost_write_ino[i] == ino)
			return;
	if (nr_lost_write_ino == LOST_WRITE_INODES)
		lost_write_overflow = true;
	else
		lost_write_ino[nr_lost_write_ino++] = ino;
}

/* A write BIO ended with an error: its page-cache pages' inodes. */
void kshim_blk_note_failed_write(struct bio *bio)
{
	struct bvec_iter iter;
	struct bio_vec bv;

	if (!op_is_write(bio_op(bio)))
		return;
	kshim_raw_lock(&lost_write_lock);
	bio_for_each_segment(bv, bio, iter) {
		struct folio *folio = page_folio(bv.bv_page);
		struct address_space *mapping = folio->mapping;

		/* Page cache only: a buffer's pages have no mapping. */
		if (mapping && !folio_test_anon(folio) && mapping->host)
			note_lost_write_ino(mapping->host->i_ino);
	}
	kshim_raw_unlock(&lost_write_lock);
}

bool kshim_bdev_write_lost(unsigned long ino)
{
	unsigned int i;
	bool lost;

	kshim_raw_lock(&lost_write_lock);
	lost = lost_write_overflow;
	for (i = 0; i < nr_lost_write_ino && !lost; i++)
		lost = lost_write_ino[i] == ino;
	kshim_raw_unlock(&lost_write_lock);
	return lost;
}

void kshim_bdev_forget_lost_writes(void)
{
	kshim_raw_lock(&lost_write_lock);
	nr_lost_write_ino = 0;
	lost_write_overflow = false;
	kshim_raw_unlock(&lost_write_lock);
}
