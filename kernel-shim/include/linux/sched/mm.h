/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/sched/mm.h: the memalloc scope API (NOFS/NOIO/noreclaim
 * as flags on the current task, exactly as the kernel keeps them) and
 * current_gfp_context(). There are no mm_structs.
 */
#ifndef _LINUX_SCHED_MM_H
#define _LINUX_SCHED_MM_H

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/gfp.h>

/* Tasks have no mm (current->mm is NULL): there is none to get. */
struct mm_struct;
static inline struct mm_struct *get_task_mm(struct task_struct *task)
{
	return NULL;
}
void mmput(struct mm_struct *mm);	/* loud: nothing holds an mm */

static inline gfp_t current_gfp_context(gfp_t flags)
{
	unsigned int pflags = READ_ONCE(current->flags);

	if (unlikely(pflags & (PF_MEMALLOC_NOIO | PF_MEMALLOC_NOFS))) {
		if (pflags & PF_MEMALLOC_NOIO)
			flags &= ~(__GFP_IO | __GFP_FS);
		else if (pflags & PF_MEMALLOC_NOFS)
			flags &= ~__GFP_FS;
	}
	return flags;
}

static inline unsigned int memalloc_flags_save(unsigned int flags)
{
	unsigned int oldflags = ~current->flags & flags;

	current->flags |= flags;
	return oldflags;
}
static inline void memalloc_flags_restore(unsigned int flags)
{
	current->flags &= ~flags;
}
#define memalloc_noio_save()		memalloc_flags_save(PF_MEMALLOC_NOIO)
#define memalloc_noio_restore(f)	memalloc_flags_restore(f)
#define memalloc_nofs_save()		memalloc_flags_save(PF_MEMALLOC_NOFS)
#define memalloc_nofs_restore(f)	memalloc_flags_restore(f)
#define memalloc_noreclaim_save()	memalloc_flags_save(PF_MEMALLOC)
#define memalloc_noreclaim_restore(f)	memalloc_flags_restore(f)
#define memalloc_pin_save()		memalloc_flags_save(PF_MEMALLOC_PIN)
#define memalloc_pin_restore(f)		memalloc_flags_restore(f)

/*
 * An allocation that failed and will be retried (xfs_buf.c) waits a tick
 * first, as the kernel's memalloc_retry_wait() does, whatever the flags.
 */
static inline void memalloc_retry_wait(gfp_t gfp_flags)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	io_schedule_timeout(1);
}

/* Where lockdep would check reclaim recursion; kshim's allocator checks it. */
#define fs_reclaim_acquire(gfp)		do { (void)(gfp); } while (0)
#define fs_reclaim_release(gfp)		do { (void)(gfp); } while (0)
#define __fs_reclaim_acquire(ip)	do { (void)(ip); } while (0)
#define __fs_reclaim_release(ip)	do { (void)(ip); } while (0)
#define might_alloc(gfp)						\
	do { if (gfpflags_allow_blocking(gfp)) might_sleep(); } while (0)

#endif
