// SPDX-License-Identifier: GPL-2.0
/* The steps of an XFS log test (xfs_fixture.h). */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <linux/completion.h>
#include "xfs_fixture.h"
#include "xfs_buf_item.h"
#include "xfs_trans_priv.h"
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/vfs.h>

#define DEFAULT_SIZE	(64ULL << 20)

/* One xfs_logprint output at a time: tests in a binary run one by one. */
static char logprint[64 << 10];

void xfs_fixture_mkfs(struct xfs_fixture *f)
{
	u64 size = f->size ?: DEFAULT_SIZE;
	char opts[512];

	KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(f->img, sizeof(f->img),
						      size, 0), 0);
	snprintf(opts, sizeof(opts), "%s", f->sector_size == 4096 ?
		 "-s size=4096 " : "");
	if (f->log_size) {
		KSHIM_ASSERT_EQ_FATAL(kshim_host_image_create(f->log_img,
				sizeof(f->log_img), f->log_size, 0), 0);
		KSHIM_ASSERT_EQ_FATAL(kshim_xfs_make_file(f->log_img,
							  f->log_size), 0);
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
			 "-l logdev=%s,size=%llu ", f->log_img,
			 (unsigned long long)f->log_size);
	}
	if (f->mkfs_opts)
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
			 "%s", f->mkfs_opts);
	KSHIM_ASSERT_EQ_FATAL(kshim_xfs_mkfs(f->img, size, opts), 0);
	f->state = XFS_FIXTURE_NEW;
	f->cfg = (struct kshim_xfs_config){
		.image = f->img,
		.log_image = f->log_size ? f->log_img : NULL,
		.sector_size = f->sector_size,
		.latency = (f->dev ?: &dev_fast)->latency,
	};
}

int xfs_fixture_try_mount(struct xfs_fixture *f)
{
	int err;

	KSHIM_ASSERT_FATAL(f->x == NULL);
	err = kshim_xfs_mount(&f->cfg, &f->x);
	f->mp = err ? NULL : kshim_xfs_mp(f->x);
	f->state = err ? XFS_FIXTURE_MOUNT_FAILED : XFS_FIXTURE_MOUNTED;
	return err;
}

struct xfs_mount *xfs_fixture_mount(struct xfs_fixture *f)
{
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_try_mount(f), 0);
	return f->mp;
}

struct xfs_mount *xfs_fixture_mount_new(struct xfs_fixture *f)
{
	xfs_fixture_mkfs(f);
	return xfs_fixture_mount(f);
}

int xfs_fixture_remount(struct xfs_fixture *f)
{
	kshim_printk_clear();
	return xfs_fixture_try_mount(f);
}

void xfs_fixture_unmount(struct xfs_fixture *f)
{
	bool shut_down;

	KSHIM_ASSERT_FATAL(f->x != NULL);
	/* A shut-down log writes nothing more: the unmount leaves it dirty,
	 * as a crash does, for the next mount to recover. */
	shut_down = xfs_is_shutdown(f->mp);
	kshim_xfs_unmount(f->x);
	f->x = NULL;
	f->mp = NULL;
	f->state = shut_down ? XFS_FIXTURE_CRASHED : XFS_FIXTURE_UNMOUNTED;
}

/* One xfs_repair output at a time, as for xfs_logprint. */
static char repair_out[64 << 10];

int xfs_fixture_repair_check(struct xfs_fixture *f)
{
	int st;

	KSHIM_ASSERT_FATAL(f->x == NULL);
	st = kshim_xfs_repair_check(f->img, f->log_size ? f->log_img : NULL,
				    repair_out, sizeof(repair_out));
	if (st != 0)
		kshim_info("xfs_repair -n %s exited %d:\n%s\n", f->img, st,
			   repair_out);
	KSHIM_ASSERT_EQ(st, 0);
	return st;
}

void xfs_fixture_remove(struct xfs_fixture *f)
{
	KSHIM_ASSERT_NULL(f->x);
	if (f->state == XFS_FIXTURE_CRASHED) {
		/* xfs_repair -n does not replay a log: the kernel does. */
		KSHIM_ASSERT_EQ(xfs_fixture_try_mount(f), 0);
		if (f->x)
			xfs_fixture_unmount(f);
	}
	if (f->state == XFS_FIXTURE_UNMOUNTED)
		xfs_fixture_repair_check(f);
	if (f->log_size)
		kshim_host_image_remove(f->log_img);
	kshim_host_image_remove(f->img);
}

xfs_csn_t xfs_fixture_commit(struct xfs_fixture *f, u32 blocks,
			     unsigned int len)
{
	struct xfs_mount *mp = f->mp;
	u64 seq = f->committed + 1;
	struct xfs_trans *tp;
	unsigned int b;

	KSHIM_ASSERT_FATAL(blocks != 0);
	KSHIM_ASSERT_FATAL(seq <= XFS_FIXTURE_MAX_COMMITS);
	KSHIM_ASSERT_EQ_FATAL(xfs_trans_alloc(mp, &M_RES(mp)->tr_write, 0, 0,
					      0, &tp), 0);
	for (b = 0; b < XFS_FIXTURE_BLOCKS; b++)
		if (blocks & BIT(b))
			KSHIM_ASSERT_EQ_FATAL(kshim_xfs_scratch_log(tp, b, seq,
								    len), 0);
	KSHIM_ASSERT_EQ_FATAL(xfs_trans_commit(tp), 0);
	/*
	 * The commit went into the CIL's current sequence or, if a push
	 * switched contexts since, an older one: forcing the current one
	 * covers it (checkpoints commit in order). Not the item's li_seq:
	 * the CIL sets it on an item's first commit only, so for a block
	 * relogged before its writeback it names an older checkpoint.
	 */
	f->last_csn = READ_ONCE(mp->m_log->l_cilp->xc_current_sequence);
	f->wrote[seq] = blocks;
	f->committed = seq;
	return f->last_csn;
}

int xfs_fixture_force(struct xfs_fixture *f)
{
	u64 upto = f->committed;
	int err;

	err = xfs_log_force_seq(f->mp, f->last_csn, XFS_LOG_SYNC, NULL);
	if (!err)
		f->durable = upto;
	return err;
}

int xfs_fixture_crash(struct xfs_fixture *f, enum kshim_crash_mode mode)
{
	int err;

	KSHIM_ASSERT_FATAL(f->x != NULL);
	memset(&f->crashed, 0, sizeof(f->crashed));
	err = kshim_xfs_crash(f->x, mode, &f->crashed);
	/* kshim_xfs_crash() releases the mount whatever it returns. */
	f->x = NULL;
	f->mp = NULL;
	f->state = XFS_FIXTURE_CRASHED;
	return err;
}

int xfs_fixture_power_cut(struct xfs_fixture *f, enum kshim_crash_mode mode)
{
	KSHIM_ASSERT_FATAL(f->x != NULL);
	memset(&f->crashed, 0, sizeof(f->crashed));
	return kshim_xfs_power_cut(f->x, mode, &f->crashed);
}

void xfs_fixture_cut_the_power(void *arg)
{
	struct xfs_power_cut *pc = arg;

	if (pc->write_back_first)
		xfs_ail_push_all_sync(pc->f->mp->m_ail);
	pc->err = xfs_fixture_power_cut(pc->f, pc->mode);
}

/* The commit that last wrote BLOCK among commits 1..UPTO; 0 if none. */
static u64 expected_seq(const struct xfs_fixture *f, unsigned int block,
			u64 upto)
{
	u64 s;

	for (s = upto; s > 0; s--)
		if (f->wrote[s] & BIT(block))
			return s;
	return 0;
}

u64 xfs_fixture_check_prefix(struct xfs_fixture *f)
{
	u64 seen[XFS_FIXTURE_BLOCKS], prefix = 0;
	unsigned int b;

	for (b = 0; b < XFS_FIXTURE_BLOCKS; b++) {
		KSHIM_ASSERT_EQ_FATAL(kshim_xfs_scratch_read(f->mp, b,
							     &seen[b]), 0);
		prefix = max(prefix, seen[b]);
	}
	/* The newest commit seen anywhere is the only candidate prefix. */
	if (prefix < f->durable)
		kshim_info("recovered up to commit %llu, but commits up to "
			   "%llu were forced to stable storage\n", prefix,
			   f->durable);
	KSHIM_ASSERT(prefix >= f->durable);
	for (b = 0; b < XFS_FIXTURE_BLOCKS; b++) {
		if (seen[b] != expected_seq(f, b, prefix))
			kshim_info("block %u: seq %llu on disk, %llu expected "
				   "after a recovery up to seq %llu\n", b,
				   seen[b], expected_seq(f, b, prefix), prefix);
		KSHIM_ASSERT_EQ(seen[b], expected_seq(f, b, prefix));
	}
	return prefix;
}

unsigned int xfs_fixture_bad_scratch_blocks(struct xfs_fixture *f)
{
	unsigned int b, bad = 0;
	u64 seq;
	int err;

	for (b = 0; b < kshim_xfs_scratch_blocks(f->mp); b++) {
		err = kshim_xfs_scratch_read(f->mp, b, &seq);
		if (err) {
			kshim_info("scratch block %u does not verify: %d\n", b,
				   err);
			bad++;
		}
	}
	return bad;
}

const char *xfs_fixture_logprint(struct xfs_fixture *f)
{
	int st = kshim_xfs_logprint(f->img, f->log_size ? f->log_img : NULL,
				    "-c", logprint, sizeof(logprint));

	if (st != 0)
		kshim_info("xfs_logprint exited %d:\n%s\n", st, logprint);
	KSHIM_ASSERT_EQ_FATAL(st, 0);
	return logprint;
}

void xfs_fixture_quiesce(struct xfs_mount *mp)
{
	KSHIM_ASSERT_EQ(xfs_log_force(mp, XFS_LOG_SYNC), 0);
	xfs_ail_push_all_sync(mp->m_ail);
	KSHIM_ASSERT_EQ_FATAL(xfs_ail_min_lsn(mp->m_ail), 0);
}

unsigned int xfs_fixture_ail_items(struct xfs_ail *ailp)
{
	struct xfs_log_item *lip;
	unsigned int n = 0;

	spin_lock(&ailp->ail_lock);
	list_for_each_entry(lip, &ailp->ail_head, li_ail)
		n++;
	spin_unlock(&ailp->ail_lock);
	return n;
}

struct dentry *xfs_fixture_mount_root(struct xfs_fixture *f)
{
	xfs_fixture_mount_new(f);
	return kshim_vfs_root(kshim_xfs_sb(f->x));
}

void xfs_fixture_remount_root(struct xfs_fixture *f, struct dentry **root)
{
	kshim_vfs_put(*root);
	xfs_fixture_unmount(f);
	KSHIM_ASSERT_EQ_FATAL(xfs_fixture_remount(f), 0);
	*root = kshim_vfs_root(kshim_xfs_sb(f->x));
}

void xfs_fixture_finish(struct xfs_fixture *f, struct dentry *root)
{
	kshim_vfs_put(root);
	xfs_fixture_unmount(f);
	xfs_fixture_remove(f);
}

bool xfs_fixture_exists(struct dentry *dir, const char *name)
{
	struct dentry *d = kshim_vfs_lookup(dir, name);

	if (IS_ERR(d)) {
		KSHIM_ASSERT_EQ(PTR_ERR(d), -ENOENT);
		return false;
	}
	kshim_vfs_put(d);
	return true;
}

void xfs_fixture_junk_free_space(struct dentry *root, loff_t bytes)
{
	u8 *buf = kvmalloc(1 << 20, GFP_KERNEL | __GFP_NOFAIL);
	struct file *f;
	loff_t off;

	memset(buf, 0xa5, 1 << 20);
	KSHIM_ASSERT_EQ_FATAL(kshim_vfs_open(root, "junk", O_RDWR | O_CREAT,
					     0644, &f), 0);
	for (off = 0; off < bytes; off += 1 << 20)
		KSHIM_ASSERT_EQ(kshim_vfs_pwrite(f, buf, 1 << 20, off, 0),
				1 << 20);
	KSHIM_ASSERT_EQ(kshim_vfs_fsync(f, 0), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_close(f), 0);
	KSHIM_ASSERT_EQ(kshim_vfs_unlink(root, "junk"), 0);
	kvfree(buf);
}

static void inodegc_busy_fn(struct work_struct *work)
{
	struct xfs_inodegc_busy *b =
		container_of(work, struct xfs_inodegc_busy, work);

	complete(&b->running);
	wait_for_completion(&b->release);
}

void xfs_inodegc_busy_start(struct xfs_mount *mp, int cpu,
			    struct xfs_inodegc_busy *b)
{
	INIT_WORK(&b->work, inodegc_busy_fn);
	init_completion(&b->running);
	init_completion(&b->release);
	KSHIM_ASSERT_FATAL(queue_work_on(cpu, mp->m_inodegc_wq, &b->work));
	wait_for_completion(&b->running);
}

void xfs_inodegc_busy_end(struct xfs_inodegc_busy *b)
{
	complete(&b->release);
	flush_work(&b->work);
}
