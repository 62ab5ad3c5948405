// SPDX-License-Identifier: GPL-2.0
/*
 * Workqueues: the API the REAL include/linux/workqueue.h declares, which is
 * used unmodified (struct work_struct and its data word, struct
 * delayed_work and its timer_list, the inline helpers). kernel/workqueue.c
 * itself is not compiled: its worker pools are built into the scheduler
 * (concurrency management hooks in schedule(), CPU hotplug, sysfs, lockdep
 * maps). This file is a listed fake (docs/FAKES.md); the code follows
 * kernel/workqueue.c wherever the shape allows, with its names.
 *
 * Shape: a workqueue has a pool_workqueue ("pwq") per simulated CPU, or one
 * for an unbound workqueue. A pwq is the kernel's pool_workqueue and
 * worker_pool in one: a lock, the list of active items, the list of
 * inactive ones (over max_active), flush colours, flush_work() waiters,
 * and its own worker kthreads. Workers are created on demand, up to
 * max_active per pwq, by a manager kthread (in process context, so
 * queue_work() stays callable from any context) and live until
 * destroy_workqueue(). The workers of a per-CPU pwq are bound to its CPU.
 *
 * KEPT from kernel/workqueue.c:
 *  - work->data encoded as the kernel encodes it: PENDING, INACTIVE, PWQ
 *    and the flush colour while queued; the last pool's ID, the disable
 *    depth and WORK_OFFQ_BH off queue. work_pending() and
 *    delayed_work_pending() read it as in the kernel;
 *  - queue_work*() return false when the item is already pending (or
 *    disabled); WORK_CPU_UNBOUND means the current task's CPU;
 *  - max_active: at most max_active items of a workqueue run at once, per
 *    CPU for a per-CPU workqueue, in total for an unbound one; the others
 *    wait on the inactive list in queueing order. Ordered workqueues
 *    (alloc_ordered_workqueue(), max_active 1, unbound) run items one at
 *    a time in queueing order;
 *  - non-reentrancy: an item never runs on two workers at once. Requeued
 *    while it runs (by itself or by another task, on any CPU of the same
 *    workqueue) it runs again after the current run, on the same worker;
 *  - PENDING is cleared (with a full barrier) right before the function
 *    runs, so it may requeue or free itself; workers are kthreads with
 *    PF_WQ_WORKER, current_work() works, work runs in process context and
 *    may sleep; returning with a changed preempt count, held locks or an
 *    open RCU read-side section is reported as "BUG: workqueue leaked
 *    atomic, lock or RCU";
 *  - delayed work through dwork->timer and delayed_work_timer_fn(); delay
 *    0 queues at once; mod_delayed_work_on() steals and re-arms;
 *  - flush_work() waits for the last queueing instance (and returns
 *    whether it waited); flush_workqueue() for every item queued before it
 *    (flush colours; items queued later do not hold it up);
 *    drain_workqueue() until empty, allowing only chained queueing (an
 *    item of the workqueue queueing onto it): anything else WARNs
 *    (WARN_ON_ONCE, as the kernel) and the item stays PENDING and never
 *    runs, as in the kernel; destroy_workqueue() drains first;
 *  - cancel_work_sync() and cancel_delayed_work_sync() disable the item
 *    while they wait for a running instance, so a racing queue fails (the
 *    6.12 semantics); disable_work*()/enable_work() and the disable depth;
 *  - the kernel's WARNs: flushing a !WQ_MEM_RECLAIM workqueue from
 *    WQ_MEM_RECLAIM work or with PF_MEMALLOC set;
 *  - BH workqueues (system_bh_wq, WQ_BH): items run one at a time per CPU,
 *    in queueing order, in softirq context (in_task() is false), on the
 *    queueing CPU; cancel_work_sync() of a BH item busy-waits.
 *
 * LOCKDEP'S PART, AS WARNs: the kernel finds these deadlocks with lockdep
 * (work and workqueue lockdep_maps); kshim has no lockdep graph, so it
 * checks them directly and WARNs: a work item flushing or cancel_sync-ing
 * itself; a work item flushing or draining its own workqueue; flush_work()
 * from a work item of the same workqueue when that has max_active 1 or
 * WQ_MEM_RECLAIM (the kernel's touch_wq_lockdep_map() recursion). When the
 * deadlock is certain (the item itself, its own workqueue, or a sibling
 * behind it on a max_active 1 pwq) the call returns after the WARN
 * instead of hanging the test.
 *
 * LOST:
 *  - concurrency management: a per-CPU pwq runs up to max_active items
 *    truly in parallel, not one until it sleeps; WQ_CPU_INTENSIVE and
 *    WQ_HIGHPRI change nothing (no priorities), WQ_FREEZABLE nothing (no
 *    freezer), WQ_SYSFS nothing, WQ_POWER_EFFICIENT stays per-CPU (as with
 *    workqueue.power_efficient=0);
 *  - pools are per workqueue, not shared by all per-CPU workqueues of a
 *    CPU: an item requeued onto ANOTHER workqueue while running may run
 *    concurrently (the kernel excludes that only when both pwqs share a
 *    pool);
 *  - no rescuer: a WQ_MEM_RECLAIM workqueue gets one worker per pwq when
 *    it is created instead, so it never needs an allocation to make
 *    progress; current_is_workqueue_rescuer() is always false. A failed
 *    worker creation is retried after a jiffy;
 *  - idle workers are not culled; unbound workqueues have one pwq (no
 *    pods, affinity scopes, NUMA nodes or attrs: apply_workqueue_attrs()
 *    aborts);
 *  - lockdep cycles through other locks or other work items (A flushes B
 *    which flushes A; two items of one INIT_WORK() site, i.e. one lockdep
 *    class) are not predicted;
 *  - kshim's timers all fire on CPU 0: delayed work queued with
 *    WORK_CPU_UNBOUND on a per-CPU workqueue runs on CPU 0; the timer
 *    callback disables interrupts itself (kshim ignores TIMER_IRQSAFE);
 *    flush_delayed_work() waits for a running timer callback with
 *    interrupts enabled (kshim's timer_delete_sync() may sleep);
 *  - flush_workqueue() callers take turns (the kernel lets concurrent
 *    flushers share a colour); flush waiters sleep on a wq_waiter (see
 *    there), not on an on-stack completion and barrier work item;
 *  - no watchdog, no tracepoints, no workqueue stats, no sysfs.
 */
#include <linux/kernel.h>
#include <linux/workqueue.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/percpu.h>
#include <linux/cpumask.h>
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/preempt.h>
#include <linux/bottom_half.h>
#include <kshim/runtime.h>
#include "kshim_internal.h"

void kshim_workqueue_init(void);
void kshim_workqueue_exit(void);
void kshim_workqueue_mark_boot_done(void);

enum {
	WQ_NAME_LEN		= 32,		/* as kernel/workqueue.c */

	POOL_BH			= 1 << 0,	/* pwq->flags: runs in softirq */

	WORKER_IDLE		= 1 << 0,	/* worker->flags: on idle_list */
	WORKER_DIE		= 1 << 1,	/* destroy_workqueue() stops it */

	WORK_CANCEL_DELAYED	= 1 << 0,	/* as kernel/workqueue.c */
	WORK_CANCEL_DISABLE	= 1 << 1,

	CREATE_COOLDOWN		= 1,		/* jiffies after a failed create */
};

struct pool_workqueue;

/*
 * A task sleeping on the stack until a worker says it is done: what the
 * kernel does with an on-stack completion. Not a completion, because
 * complete() would leave the completion's lock after the waiter may
 * already have returned and reused the stack (kshim's lock reads its
 * waiter count after the releasing store); the hand-off is under one
 * global lock instead, which the waker holds across the wake-up and the
 * waiter takes to see "done", so the waker is off the waiter's memory
 * before the waiter can leave.
 */
struct wq_waiter {
	struct task_struct	*task;
	bool			done;		/* wq_wait_lock */
};

struct worker {
	struct list_head	entry;		/* L: pwq->idle_list while idle */
	struct list_head	busy_node;	/* L: pwq->busy_list while busy */
	struct list_head	node;		/* L: pwq->workers */
	struct list_head	scheduled;	/* L: items assigned to it */
	struct work_struct	*current_work;	/* L: item running */
	work_func_t		current_func;	/* L: its function */
	unsigned long		current_data;	/* L: its data when it started */
	struct pool_workqueue	*pwq;
	struct task_struct	*task;
	unsigned int		flags;		/* L: WORKER_* */
	int			id;
	char			desc[WORKER_DESC_LEN];
};

/*
 * L: pwq->lock. The kernel's pool_workqueue and worker_pool in one; aligned
 * so that a pointer to it leaves the low WORK_STRUCT_PWQ_SHIFT bits of
 * work->data for the flags and the colour, as in the kernel.
 */
struct pool_workqueue {
	raw_spinlock_t		lock;
	struct workqueue_struct	*wq;
	int			cpu;		/* -1: unbound */
	int			id;		/* in work->data when off queue */
	unsigned int		flags;		/* POOL_* */
	int			max_active;	/* L */
	int			nr_active;	/* L: active items, queued or running */
	struct list_head	worklist;	/* L: active, waiting for a worker */
	struct list_head	inactive_works;	/* L: over max_active, FIFO */
	int			work_color;	/* L: colour of new items */
	int			flush_color;	/* L: colour being flushed, or -1 */
	int			nr_in_flight[WORK_NR_COLORS];	/* L */
	struct list_head	workers;	/* L: all workers */
	struct list_head	idle_list;	/* L: idle workers, LIFO */
	struct list_head	busy_list;	/* L: workers running an item */
	struct list_head	barriers;	/* L: flush_work() waiters */
	int			nr_workers;	/* L */
	int			nr_idle;	/* L */
	int			nr_woken;	/* L: woken or new, not yet looking */
	int			next_worker_id;	/* wq_pool_mutex */
	struct list_head	manage_node;	/* manage_lock: on manage_list */
	struct rcu_head		rcu;
} __aligned(1 << WORK_STRUCT_PWQ_SHIFT);

struct workqueue_struct {
	char			name[WQ_NAME_LEN];
	unsigned int		flags;		/* WQ_*, __WQ_ORDERED/LEGACY: fixed */
	unsigned int		state;		/* __WQ_DRAINING, __WQ_DESTROYING:
						   READ_ONCE, changed under mutex */
	int			saved_max_active; /* READ_ONCE; set under mutex */
	int			nr_pwqs;
	struct pool_workqueue	**pwqs;		/* [cpu], or [0] if unbound */
	struct mutex		mutex;		/* drainers, max_active */
	int			nr_drainers;	/* mutex */
	struct mutex		flush_mutex;	/* one flush_workqueue() at a time */
	int			work_color;	/* flush_mutex */
	atomic_t		nr_pwqs_to_flush;
	struct wq_waiter	*flusher;	/* flush_mutex: the one waiting */
	struct list_head	list;		/* wq_pool_mutex: workqueues */
	bool			boot;		/* made by an initcall */
};

/*
 * A flush_work() waiter. The kernel queues a barrier work item linked
 * behind the target; here the waiter hangs on the pwq and is woken when
 * the instance it waits for finishes (or is cancelled off the queue).
 */
struct wq_barrier {
	struct list_head	entry;		/* L: pwq->barriers */
	struct work_struct	*work;		/* the item being flushed */
	struct worker		*worker;	/* L: running it; NULL: queued */
	struct wq_waiter	waiter;
};

struct work_offq_data {
	u32			pool_id;
	u32			disable;
	u32			flags;
};

struct workqueue_struct *system_wq;
struct workqueue_struct *system_percpu_wq;
struct workqueue_struct *system_highpri_wq;
struct workqueue_struct *system_long_wq;
struct workqueue_struct *system_unbound_wq;
struct workqueue_struct *system_dfl_wq;
struct workqueue_struct *system_freezable_wq;
struct workqueue_struct *system_power_efficient_wq;
struct workqueue_struct *system_freezable_power_efficient_wq;
struct workqueue_struct *system_bh_wq;
struct workqueue_struct *system_bh_highpri_wq;

static struct kmem_cache *pwq_cache;
/*
 * Pool ID -> pwq, for work->data off queue (the kernel's worker_pool_idr):
 * chunks that never move, so a reader under rcu_read_lock() needs no lock;
 * set and cleared under wq_pool_mutex.
 */
#define POOL_ID_CHUNK		256
#define POOL_ID_CHUNKS		256
static struct pool_workqueue **pool_ids[POOL_ID_CHUNKS];
static DEFINE_MUTEX(wq_pool_mutex);		/* workqueues, pwqs, workers */
static LIST_HEAD(workqueues);
static DEFINE_RAW_SPINLOCK(manage_lock);	/* nests inside pwq->lock */
static LIST_HEAD(manage_list);			/* pwqs that need workers */
static struct task_struct *manager_task;
static bool wq_online;				/* READ_ONCE */
static bool wq_power_efficient;			/* default of the kernel param */

/* ==== pool IDs =========================================================== */

static struct pool_workqueue *pool_id_find(unsigned long id)
{
	struct pool_workqueue **chunk;

	if (id >= POOL_ID_CHUNK * POOL_ID_CHUNKS)
		return NULL;
	chunk = smp_load_acquire(&pool_ids[id / POOL_ID_CHUNK]);
	return chunk ? smp_load_acquire(&chunk[id % POOL_ID_CHUNK]) : NULL;
}

/* The lowest free ID for pwq (wq_pool_mutex held). */
static int pool_id_assign(struct pool_workqueue *pwq)
{
	int c, i;

	lockdep_assert_held(&wq_pool_mutex);
	for (c = 0; c < POOL_ID_CHUNKS; c++) {
		struct pool_workqueue **chunk = pool_ids[c];

		if (!chunk) {
			chunk = kcalloc(POOL_ID_CHUNK, sizeof(*chunk),
					GFP_KERNEL);
			if (!chunk)
				return -ENOMEM;
			smp_store_release(&pool_ids[c], chunk);
		}
		for (i = 0; i < POOL_ID_CHUNK; i++) {
			if (chunk[i])
				continue;
			pwq->id = c * POOL_ID_CHUNK + i;
			smp_store_release(&chunk[i], pwq);
			return 0;
		}
	}
	return -ENOSPC;
}

static void pool_id_remove(struct pool_workqueue *pwq)
{
	lockdep_assert_held(&wq_pool_mutex);
	WRITE_ONCE(pool_ids[pwq->id / POOL_ID_CHUNK][pwq->id % POOL_ID_CHUNK],
		   NULL);
}

/* ==== waiting for a worker ============================================== */

static DEFINE_RAW_SPINLOCK(wq_wait_lock);	/* never freed; see wq_waiter */

static void wq_waiter_init(struct wq_waiter *w)
{
	w->task = current;
	w->done = false;
}

/* Any context; may be called under pwq->lock. */
static void wq_waiter_wake(struct wq_waiter *w)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&wq_wait_lock, flags);
	w->done = true;
	wake_up_process(w->task);
	raw_spin_unlock_irqrestore(&wq_wait_lock, flags);
}

static bool wq_waiter_done(struct wq_waiter *w)
{
	unsigned long flags;
	bool done;

	raw_spin_lock_irqsave(&wq_wait_lock, flags);
	done = w->done;
	raw_spin_unlock_irqrestore(&wq_wait_lock, flags);
	return done;
}

/* Sleep (or, for a BH cancel in atomic context, spin) until woken. */
static void wq_waiter_wait(struct wq_waiter *w, bool spin)
{
	if (spin) {
		while (!wq_waiter_done(w))
			cpu_relax();
		return;
	}
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (wq_waiter_done(w))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* ==== work->data ========================================================= */

static unsigned long work_data(struct work_struct *work)
{
	return atomic_long_read(&work->data);
}

/* work_pending(), as an atomic read (test_bit() is a plain one). */
static bool work_is_pending(struct work_struct *work)
{
	return work_data(work) & WORK_STRUCT_PENDING;
}

static unsigned long work_color_to_flags(int color)
{
	return (unsigned long)color << WORK_STRUCT_COLOR_SHIFT;
}

static int get_work_color(unsigned long work_data)
{
	return (work_data >> WORK_STRUCT_COLOR_SHIFT) &
		((1 << WORK_STRUCT_COLOR_BITS) - 1);
}

static int work_next_color(int color)
{
	return (color + 1) % WORK_NR_COLORS;
}

static void set_work_data(struct work_struct *work, unsigned long data)
{
	WARN_ON_ONCE(!work_is_pending(work));
	atomic_long_set(&work->data, data | work_static(work));
}

static void set_work_pwq(struct work_struct *work, struct pool_workqueue *pwq,
			 unsigned long flags)
{
	set_work_data(work, (unsigned long)pwq | WORK_STRUCT_PENDING |
		      WORK_STRUCT_PWQ | flags);
}

static void set_work_pool_and_keep_pending(struct work_struct *work,
					   int pool_id, unsigned long flags)
{
	set_work_data(work, ((unsigned long)pool_id << WORK_OFFQ_POOL_SHIFT) |
		      WORK_STRUCT_PENDING | flags);
}

/*
 * The kernel's smp_wmb(); store; smp_mb() as one exchange: a full barrier
 * on both sides, and an access ThreadSanitizer sees ordered after a racing
 * queue_work()'s test_and_set_bit(), which the kernel relies on (see the
 * comment in kernel/workqueue.c).
 */
static void set_work_pool_and_clear_pending(struct work_struct *work,
					    int pool_id, unsigned long flags)
{
	WARN_ON_ONCE(!work_is_pending(work));
	atomic_long_xchg(&work->data,
			 ((unsigned long)pool_id << WORK_OFFQ_POOL_SHIFT) |
			 flags | work_static(work));
}

static struct pool_workqueue *work_struct_pwq(unsigned long data)
{
	return (struct pool_workqueue *)(data & WORK_STRUCT_PWQ_MASK);
}

static struct pool_workqueue *get_work_pwq(struct work_struct *work)
{
	unsigned long data = work_data(work);

	return data & WORK_STRUCT_PWQ ? work_struct_pwq(data) : NULL;
}

/*
 * The pwq the item is queued on or last ran on: under rcu_read_lock() (pwqs
 * are freed after a grace period) or wq_pool_mutex. NULL if none.
 */
static struct pool_workqueue *get_work_pool(struct work_struct *work)
{
	unsigned long data = work_data(work);
	unsigned long pool_id;

	if (data & WORK_STRUCT_PWQ)
		return work_struct_pwq(data);
	pool_id = data >> WORK_OFFQ_POOL_SHIFT;
	if (pool_id == WORK_OFFQ_POOL_NONE)
		return NULL;
	return pool_id_find(pool_id);
}

static unsigned long shift_and_mask(unsigned long v, u32 shift, u32 bits)
{
	return (v >> shift) & ((1U << bits) - 1);
}

static void work_offqd_unpack(struct work_offq_data *offqd, unsigned long data)
{
	WARN_ON_ONCE(data & WORK_STRUCT_PWQ);

	offqd->pool_id = shift_and_mask(data, WORK_OFFQ_POOL_SHIFT,
					WORK_OFFQ_POOL_BITS);
	offqd->disable = shift_and_mask(data, WORK_OFFQ_DISABLE_SHIFT,
					WORK_OFFQ_DISABLE_BITS);
	offqd->flags = data & WORK_OFFQ_FLAG_MASK;
}

static unsigned long work_offqd_pack_flags(struct work_offq_data *offqd)
{
	return ((unsigned long)offqd->disable << WORK_OFFQ_DISABLE_SHIFT) |
		((unsigned long)offqd->flags);
}

static unsigned long pool_offq_flags(struct pool_workqueue *pwq)
{
	return (pwq->flags & POOL_BH) ? WORK_OFFQ_BH : 0;
}

static bool clear_pending_if_disabled(struct work_struct *work)
{
	unsigned long data = work_data(work);
	struct work_offq_data offqd;

	if (likely((data & WORK_STRUCT_PWQ) ||
		   !(data & WORK_OFFQ_DISABLE_MASK)))
		return false;

	work_offqd_unpack(&offqd, data);
	set_work_pool_and_clear_pending(work, offqd.pool_id,
					work_offqd_pack_flags(&offqd));
	return true;
}

/* ==== workers ============================================================ */

/* kernel/workqueue_internal.h's current_wq_worker() */
static struct worker *current_wq_worker(void)
{
	if (in_task() && (current->flags & PF_WQ_WORKER))
		return kthread_data(current);
	return NULL;
}

static int pwq_max_workers(struct pool_workqueue *pwq)
{
	/* A BH pool has one execution context per CPU, as in the kernel. */
	return (pwq->flags & POOL_BH) ? 1 : pwq->max_active;
}

static struct worker *find_worker_executing_work(struct pool_workqueue *pwq,
						 struct work_struct *work)
{
	struct worker *worker;

	lockdep_assert_held(&pwq->lock);
	/* Address and function, as the kernel: see its comment. */
	list_for_each_entry(worker, &pwq->busy_list, busy_node)
		if (worker->current_work == work &&
		    worker->current_func == work->func)
			return worker;
	return NULL;
}

static void worker_enter_idle(struct worker *worker)
{
	struct pool_workqueue *pwq = worker->pwq;

	worker->flags |= WORKER_IDLE;
	pwq->nr_idle++;
	list_add(&worker->entry, &pwq->idle_list);
}

static void worker_leave_idle(struct worker *worker)
{
	struct pool_workqueue *pwq = worker->pwq;

	if (WARN_ON_ONCE(!(worker->flags & WORKER_IDLE)))
		return;
	worker->flags &= ~WORKER_IDLE;
	pwq->nr_idle--;
	list_del_init(&worker->entry);
}

static bool need_to_create_worker(struct pool_workqueue *pwq)
{
	return !list_empty(&pwq->worklist) && !pwq->nr_idle &&
		!pwq->nr_woken && pwq->nr_workers < pwq_max_workers(pwq);
}

/* Ask the manager for workers (any context; pwq->lock held). */
static void request_workers(struct pool_workqueue *pwq)
{
	raw_spin_lock(&manage_lock);
	if (list_empty(&pwq->manage_node))
		list_add_tail(&pwq->manage_node, &manage_list);
	raw_spin_unlock(&manage_lock);
	wake_up_process(manager_task);
}

/*
 * An item waits on the worklist: wake an idle worker for it (each kick
 * takes a different one off the idle list, so items run in parallel up to
 * the number of workers), or have one created.
 */
static void kick_pool(struct pool_workqueue *pwq)
{
	struct worker *worker;

	lockdep_assert_held(&pwq->lock);
	if (list_empty(&pwq->worklist))
		return;
	worker = list_first_entry_or_null(&pwq->idle_list, struct worker,
					  entry);
	if (worker) {
		worker_leave_idle(worker);
		pwq->nr_woken++;
		wake_up_process(worker->task);
	} else if (need_to_create_worker(pwq)) {
		request_workers(pwq);
	}
}

/* Move inactive items to the worklist while max_active allows. */
static void pwq_activate_inactive(struct pool_workqueue *pwq)
{
	struct work_struct *work;

	lockdep_assert_held(&pwq->lock);
	while (pwq->nr_active < pwq->max_active &&
	       (work = list_first_entry_or_null(&pwq->inactive_works,
						struct work_struct, entry))) {
		clear_bit(WORK_STRUCT_INACTIVE_BIT, work_data_bits(work));
		list_move_tail(&work->entry, &pwq->worklist);
		pwq->nr_active++;
	}
	kick_pool(pwq);
}

/*
 * An item left the pwq (it ran, or was stolen off the queue): the end of
 * its max_active slot and of its flush colour, as pwq_dec_nr_in_flight().
 */
static void pwq_dec_nr_in_flight(struct pool_workqueue *pwq,
				 unsigned long work_data)
{
	int color = get_work_color(work_data);

	lockdep_assert_held(&pwq->lock);
	if (!(work_data & WORK_STRUCT_INACTIVE)) {
		pwq->nr_active--;
		pwq_activate_inactive(pwq);
	}
	pwq->nr_in_flight[color]--;
	if (likely(pwq->flush_color != color) || pwq->nr_in_flight[color])
		return;
	pwq->flush_color = -1;
	if (atomic_dec_and_test(&pwq->wq->nr_pwqs_to_flush))
		wq_waiter_wake(pwq->wq->flusher);
}

/* flush_work() waiters of an instance that is gone or done: release them. */
static void wake_barriers(struct pool_workqueue *pwq,
			  struct work_struct *work, struct worker *worker)
{
	struct wq_barrier *barr, *tmp;

	list_for_each_entry_safe(barr, tmp, &pwq->barriers, entry) {
		if (worker ? barr->worker != worker :
			     barr->worker || barr->work != work)
			continue;
		list_del_init(&barr->entry);
		wq_waiter_wake(&barr->waiter);
	}
}

static bool assign_work(struct work_struct *work, struct worker *worker)
{
	struct pool_workqueue *pwq = worker->pwq;
	struct worker *collision;

	lockdep_assert_held(&pwq->lock);
	/*
	 * Non-reentrancy: an item already running on another worker of this
	 * pwq is handed to that worker, which runs it after its current run.
	 */
	collision = find_worker_executing_work(pwq, work);
	if (unlikely(collision)) {
		list_move_tail(&work->entry, &collision->scheduled);
		return false;
	}
	list_move_tail(&work->entry, &worker->scheduled);
	return true;
}

static void process_one_work(struct worker *worker, struct work_struct *work)
	__releases(&pwq->lock) __acquires(&pwq->lock)
{
	struct pool_workqueue *pwq = worker->pwq;
	struct kshim_task *kt = kshim_task_of(current);
	bool bh = pwq->flags & POOL_BH;
	unsigned long data = work_data(work);
	int pc_start, rcu_start, held_start;
	struct wq_barrier *barr;

	WARN_ON_ONCE(pwq->cpu >= 0 && raw_smp_processor_id() != pwq->cpu);
	WARN_ON_ONCE(get_work_pwq(work) != pwq);

	/* claim and dequeue */
	list_add(&worker->busy_node, &pwq->busy_list);
	worker->current_work = work;
	worker->current_func = work->func;
	worker->current_data = data;
	strscpy(worker->desc, pwq->wq->name, WORKER_DESC_LEN);
	list_del_init(&work->entry);
	/* flush_work() waiters of this queueing now wait for this run */
	list_for_each_entry(barr, &pwq->barriers, entry)
		if (!barr->worker && barr->work == work)
			barr->worker = worker;

	/* more items waiting: let another worker take them */
	kick_pool(pwq);

	/*
	 * Record the pool and clear PENDING, the last update to the item:
	 * from here on it may be requeued, or freed by its function.
	 */
	set_work_pool_and_clear_pending(work, pwq->id, pool_offq_flags(pwq));

	/*
	 * A BH item runs in softirq context, entered (as __do_softirq() does)
	 * before the pool lock is dropped, so the CPU is owned throughout and
	 * an atomic cancel_work_sync() on this CPU can never see it between.
	 */
	if (bh)
		__local_bh_disable_ip(_THIS_IP_, SOFTIRQ_OFFSET);
	raw_spin_unlock_irq(&pwq->lock);

	pc_start = preempt_count();
	rcu_start = rcu_preempt_depth();
	held_start = kt->nr_held;
	worker->current_func(work);
	if (unlikely(preempt_count() != pc_start ||
		     rcu_preempt_depth() != rcu_start ||
		     kt->nr_held != held_start))
		kshim_report("BUG: workqueue leaked atomic, lock or RCU: %s[%d]\n"
			     "     preempt=0x%08x lock=%d->%d RCU=%d->%d workfn=%p",
			     current->comm, task_pid_nr(current),
			     preempt_count(), held_start, kt->nr_held,
			     rcu_start, rcu_preempt_depth(),
			     worker->current_func);
	if (!bh)
		cond_resched();

	raw_spin_lock_irq(&pwq->lock);
	if (bh)	/* __local_bh_enable(SOFTIRQ_OFFSET) of __do_softirq() */
		__preempt_count_sub(SOFTIRQ_OFFSET);

	/* we're done with it, release */
	list_del_init(&worker->busy_node);
	wake_barriers(pwq, work, worker);
	worker->current_work = NULL;
	worker->current_func = NULL;
	worker->current_data = 0;
	pwq_dec_nr_in_flight(pwq, data);
}

static void process_scheduled_works(struct worker *worker)
{
	struct work_struct *work;

	while ((work = list_first_entry_or_null(&worker->scheduled,
						struct work_struct, entry)))
		process_one_work(worker, work);
}

static int worker_thread(void *arg)
{
	struct worker *worker = arg;
	struct pool_workqueue *pwq = worker->pwq;

	current->flags |= PF_WQ_WORKER;
	raw_spin_lock_irq(&pwq->lock);
	pwq->nr_woken--;
	for (;;) {
		struct work_struct *work;

		if (worker->flags & WORKER_DIE)
			break;
		work = list_first_entry_or_null(&pwq->worklist,
						struct work_struct, entry);
		if (work) {
			if (assign_work(work, worker))
				process_scheduled_works(worker);
			continue;
		}
		worker_enter_idle(worker);
		__set_current_state(TASK_IDLE);
		raw_spin_unlock_irq(&pwq->lock);
		schedule();
		raw_spin_lock_irq(&pwq->lock);
		if (worker->flags & WORKER_IDLE)
			worker_leave_idle(worker);	/* woken to die */
		else
			pwq->nr_woken--;		/* kicked */
	}
	raw_spin_unlock_irq(&pwq->lock);
	current->flags &= ~PF_WQ_WORKER;
	return 0;
}

/* Workers alive, all pools (kshim_workqueue_workers()). */
static atomic_long_t nr_workers_alive;

long kshim_workqueue_workers(void)
{
	return atomic_long_read(&nr_workers_alive);
}

/* A new worker for pwq, running and looking for work. */
static struct worker *create_worker(struct pool_workqueue *pwq)
{
	struct worker *worker;
	struct task_struct *task;
	char name[32];		/* the task's comm keeps TASK_COMM_LEN - 1 */

	lockdep_assert_held(&wq_pool_mutex);
	worker = kzalloc(sizeof(*worker), GFP_KERNEL);
	if (!worker)
		return NULL;
	INIT_LIST_HEAD(&worker->entry);
	INIT_LIST_HEAD(&worker->busy_node);
	INIT_LIST_HEAD(&worker->node);
	INIT_LIST_HEAD(&worker->scheduled);
	worker->pwq = pwq;
	worker->id = pwq->next_worker_id++;
	if (pwq->cpu >= 0)
		snprintf(name, sizeof(name), "kworker/%d:%d%s", pwq->cpu,
			 worker->id, pwq->wq->flags & WQ_HIGHPRI ? "H" : "");
	else
		snprintf(name, sizeof(name), "kworker/u%d:%d", pwq->id,
			 worker->id);
	task = kthread_create(worker_thread, worker, "%s", name);
	if (IS_ERR(task)) {
		kfree(worker);
		return NULL;
	}
	if (pwq->cpu >= 0)
		kthread_bind(task, pwq->cpu);
	worker->task = task;

	raw_spin_lock_irq(&pwq->lock);
	list_add_tail(&worker->node, &pwq->workers);
	pwq->nr_workers++;
	pwq->nr_woken++;
	raw_spin_unlock_irq(&pwq->lock);
	atomic_long_inc(&nr_workers_alive);
	wake_up_process(task);
	return worker;
}

/* Create workers while items wait with none to take them. */
static bool maybe_create_workers(struct pool_workqueue *pwq)
{
	for (;;) {
		bool need;

		raw_spin_lock_irq(&pwq->lock);
		need = need_to_create_worker(pwq);
		raw_spin_unlock_irq(&pwq->lock);
		if (!need)
			return true;
		if (!create_worker(pwq))
			return false;
	}
}

static struct pool_workqueue *pop_manage_request(void)
{
	struct pool_workqueue *pwq;

	raw_spin_lock_irq(&manage_lock);
	pwq = list_first_entry_or_null(&manage_list, struct pool_workqueue,
				       manage_node);
	if (pwq)
		list_del_init(&pwq->manage_node);
	raw_spin_unlock_irq(&manage_lock);
	return pwq;
}

/*
 * The manager: the kernel's manager role and kthreadd in one. It creates
 * workers in process context for pwqs that asked, under wq_pool_mutex,
 * which destroy_workqueue() takes before it frees a pwq.
 */
static int manager_thread(void *unused)
{
	for (;;) {
		struct pool_workqueue *pwq;
		bool idle, failed = false;

		set_current_state(TASK_IDLE);
		if (kthread_should_stop())
			break;
		raw_spin_lock_irq(&manage_lock);
		idle = list_empty(&manage_list);
		raw_spin_unlock_irq(&manage_lock);
		if (idle) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);

		mutex_lock(&wq_pool_mutex);
		while (!failed && (pwq = pop_manage_request())) {
			if (maybe_create_workers(pwq))
				continue;
			raw_spin_lock_irq(&pwq->lock);
			request_workers(pwq);	/* retry after a cooldown */
			raw_spin_unlock_irq(&pwq->lock);
			failed = true;
		}
		mutex_unlock(&wq_pool_mutex);
		if (failed)
			schedule_timeout_idle(CREATE_COOLDOWN);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* ==== queueing =========================================================== */

/* Is current a worker running an item of wq? */
static bool is_chained_work(struct workqueue_struct *wq)
{
	struct worker *worker = current_wq_worker();

	return worker && worker->current_work && worker->pwq->wq == wq;
}

static struct pool_workqueue *wq_cpu_pwq(struct workqueue_struct *wq, int cpu)
{
	if (wq->flags & WQ_UNBOUND)
		return wq->pwqs[0];
	if (cpu < 0 || cpu >= nr_cpu_ids)
		kshim_fatal("workqueue %s: queueing on CPU %d, which does not exist",
			    wq->name, cpu);
	return wq->pwqs[cpu];
}

static void insert_work(struct pool_workqueue *pwq, struct work_struct *work,
			struct list_head *head, unsigned int extra_flags)
{
	set_work_pwq(work, pwq, extra_flags);
	list_add_tail(&work->entry, head);
}

/* Called with interrupts off and PENDING owned by the caller. */
static void __queue_work(int cpu, struct workqueue_struct *wq,
			 struct work_struct *work)
{
	struct pool_workqueue *pwq, *last_pwq;
	unsigned int work_flags;
	lockdep_assert_irqs_disabled();

	/*
	 * For a draining wq, only works from the same workqueue are
	 * allowed. The __WQ_DESTROYING helps to spot the issue that
	 * queues a new work item to a wq after destroy_workqueue(wq).
	 */
	if (unlikely(READ_ONCE(wq->state) & (__WQ_DESTROYING | __WQ_DRAINING) &&
		     WARN_ON_ONCE(!is_chained_work(wq))))
		return;
	rcu_read_lock();
	if (cpu == WORK_CPU_UNBOUND)
		cpu = raw_smp_processor_id();
	pwq = wq_cpu_pwq(wq, cpu);

	/*
	 * If @work was previously on a different pwq of this workqueue, it
	 * might still be running there, in which case it must be queued
	 * there to guarantee non-reentrancy.
	 */
	last_pwq = get_work_pool(work);
	if (last_pwq && last_pwq != pwq && !(wq->flags & __WQ_ORDERED)) {
		raw_spin_lock(&last_pwq->lock);
		if (last_pwq->wq == wq &&
		    find_worker_executing_work(last_pwq, work)) {
			pwq = last_pwq;
		} else {
			raw_spin_unlock(&last_pwq->lock);
			raw_spin_lock(&pwq->lock);
		}
	} else {
		raw_spin_lock(&pwq->lock);
	}

	if (WARN_ON(!list_empty(&work->entry)))
		goto out;

	pwq->nr_in_flight[pwq->work_color]++;
	work_flags = work_color_to_flags(pwq->work_color);

	/*
	 * Limit the number of concurrently active work items to max_active;
	 * a new item also queues behind inactive ones, to keep their order.
	 */
	if (list_empty(&pwq->inactive_works) &&
	    pwq->nr_active < pwq->max_active) {
		pwq->nr_active++;
		insert_work(pwq, work, &pwq->worklist, work_flags);
		kick_pool(pwq);
	} else {
		insert_work(pwq, work, &pwq->inactive_works,
			    work_flags | WORK_STRUCT_INACTIVE);
	}
out:
	raw_spin_unlock(&pwq->lock);
	rcu_read_unlock();
}

bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work)
{
	unsigned long irq_flags;
	bool ret = false;

	local_irq_save(irq_flags);
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)) &&
	    !clear_pending_if_disabled(work)) {
		__queue_work(cpu, wq, work);
		ret = true;
	}
	local_irq_restore(irq_flags);
	return ret;
}

/* One NUMA node in kshim: the node's CPU is the current one. */
bool queue_work_node(int node, struct workqueue_struct *wq,
		     struct work_struct *work)
{
	WARN_ON_ONCE(!(wq->flags & WQ_UNBOUND));
	return queue_work_on(WORK_CPU_UNBOUND, wq, work);
}

void delayed_work_timer_fn(struct timer_list *t)
{
	struct delayed_work *dwork = from_timer(dwork, t, timer);
	unsigned long irq_flags;

	/* TIMER_IRQSAFE: the kernel calls this with interrupts off. */
	local_irq_save(irq_flags);
	__queue_work(dwork->cpu, dwork->wq, &dwork->work);
	local_irq_restore(irq_flags);
}

static void __queue_delayed_work(int cpu, struct workqueue_struct *wq,
				 struct delayed_work *dwork,
				 unsigned long delay)
{
	struct timer_list *timer = &dwork->timer;
	struct work_struct *work = &dwork->work;

	WARN_ON_ONCE(!wq);
	WARN_ON_ONCE(timer->function != delayed_work_timer_fn);
	WARN_ON_ONCE(timer_pending(timer));
	WARN_ON_ONCE(!list_empty(&work->entry));

	/*
	 * If @delay is 0, queue @dwork->work immediately: the earliest the
	 * timer could expire is the next tick, and users rely on no delay.
	 */
	if (!delay) {
		__queue_work(cpu, wq, &dwork->work);
		return;
	}

	dwork->wq = wq;
	dwork->cpu = cpu;
	timer->expires = jiffies + delay;
	if (likely(cpu == WORK_CPU_UNBOUND))
		add_timer_global(timer);
	else
		add_timer_on(timer, cpu);
}

bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay)
{
	struct work_struct *work = &dwork->work;
	unsigned long irq_flags;
	bool ret = false;

	local_irq_save(irq_flags);
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)) &&
	    !clear_pending_if_disabled(work)) {
		__queue_delayed_work(cpu, wq, dwork, delay);
		ret = true;
	}
	local_irq_restore(irq_flags);
	return ret;
}

static void rcu_work_rcufn(struct rcu_head *rcu)
{
	struct rcu_work *rwork = container_of(rcu, struct rcu_work, rcu);

	local_irq_disable();
	__queue_work(WORK_CPU_UNBOUND, rwork->wq, &rwork->work);
	local_irq_enable();
}

bool queue_rcu_work(struct workqueue_struct *wq, struct rcu_work *rwork)
{
	struct work_struct *work = &rwork->work;

	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)) &&
	    !WARN_ON_ONCE(clear_pending_if_disabled(work))) {
		rwork->wq = wq;
		call_rcu_hurry(&rwork->rcu, rcu_work_rcufn);
		return true;
	}
	return false;
}

/* ==== grabbing PENDING: cancel, mod_delayed_work, disable, enable ======== */

/*
 * As the kernel's: 1 if @work was pending and PENDING was stolen (off the
 * timer or off the queue), 0 if it was idle and PENDING was claimed,
 * -EAGAIN if it is being queued right now. On >= 0, interrupts are off.
 */
static int try_to_grab_pending(struct work_struct *work, u32 cflags,
			       unsigned long *irq_flags)
{
	struct pool_workqueue *pwq;

	local_irq_save(*irq_flags);

	/* try to steal the timer if it exists */
	if (cflags & WORK_CANCEL_DELAYED) {
		struct delayed_work *dwork = to_delayed_work(work);

		if (likely(timer_delete(&dwork->timer)))
			return 1;
	}

	/* try to claim PENDING the normal way */
	if (!test_and_set_bit(WORK_STRUCT_PENDING_BIT, work_data_bits(work)))
		return 0;

	rcu_read_lock();
	pwq = get_work_pool(work);
	if (!pwq)
		goto fail;
	raw_spin_lock(&pwq->lock);
	/* queued on this very pwq? (data only points to a pwq while queued) */
	if (get_work_pwq(work) == pwq) {
		unsigned long data = work_data(work);

		list_del_init(&work->entry);
		/* flush_work() waiters of this queueing instance: it is gone */
		wake_barriers(pwq, work, NULL);
		set_work_pool_and_keep_pending(work, pwq->id,
					       pool_offq_flags(pwq));
		/* must be the last step */
		pwq_dec_nr_in_flight(pwq, data);
		raw_spin_unlock(&pwq->lock);
		rcu_read_unlock();
		return 1;
	}
	raw_spin_unlock(&pwq->lock);
fail:
	rcu_read_unlock();
	local_irq_restore(*irq_flags);
	return -EAGAIN;
}

static bool work_grab_pending(struct work_struct *work, u32 cflags,
			      unsigned long *irq_flags)
{
	int ret;

	while (true) {
		ret = try_to_grab_pending(work, cflags, irq_flags);
		if (ret >= 0)
			return ret;
		cpu_relax();
	}
}

bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay)
{
	unsigned long irq_flags;
	bool ret;

	ret = work_grab_pending(&dwork->work, WORK_CANCEL_DELAYED, &irq_flags);
	if (!clear_pending_if_disabled(&dwork->work))
		__queue_delayed_work(cpu, wq, dwork, delay);
	local_irq_restore(irq_flags);
	return ret;
}

/* ==== flushing =========================================================== */

/*
 * What the kernel's lockdep annotations of flush_work() catch
 * (touch_work_lockdep_map() and touch_wq_lockdep_map() while the worker
 * holds both maps), as a WARN. Returns true when the flush must not wait:
 * it would wait for itself forever.
 */
static bool flush_would_deadlock(struct pool_workqueue *pwq,
				 struct work_struct *work, bool from_cancel)
{
	struct worker *worker = current_wq_worker();
	struct workqueue_struct *wq = pwq->wq;

	if (!worker || !worker->current_work)
		return false;
	if (worker->current_work == work &&
	    worker->current_func == work->func) {
		WARN(1, "workqueue: %s:%p %s itself: deadlock (lockdep: recursive locking of the work)\n",
		     wq->name, work->func,
		     from_cancel ? "cancels and waits for" : "flushes");
		return true;
	}
	if (from_cancel || worker->pwq->wq != wq ||
	    !(READ_ONCE(wq->saved_max_active) == 1 ||
	      (wq->flags & WQ_MEM_RECLAIM)))
		return false;
	WARN(1, "workqueue: %s:%p flushes %p of its own workqueue, which has %s (lockdep: recursive locking of the workqueue)\n",
	     wq->name, worker->current_func, work->func,
	     (wq->flags & WQ_MEM_RECLAIM) ? "a rescuer" : "max_active 1");
	/* Behind us on a one-at-a-time pwq, it can never start. */
	return worker->pwq == pwq && pwq->max_active == 1;
}

/* flush_workqueue() or drain_workqueue() from an item of wq itself. */
static bool flushing_own_wq(struct workqueue_struct *wq, const char *what)
{
	struct worker *worker = current_wq_worker();

	if (!worker || !worker->current_work || worker->pwq->wq != wq)
		return false;
	WARN(1, "workqueue: %s:%p calls %s() on its own workqueue: deadlock (lockdep: recursive locking of the workqueue)\n",
	     wq->name, worker->current_func, what);
	return true;
}

static void check_flush_dependency(struct workqueue_struct *target_wq,
				   struct work_struct *target_work,
				   bool from_cancel)
{
	work_func_t target_func;
	struct worker *worker;

	if (from_cancel || target_wq->flags & WQ_MEM_RECLAIM)
		return;

	worker = current_wq_worker();
	target_func = target_work ? target_work->func : NULL;

	WARN_ONCE(current->flags & PF_MEMALLOC,
		  "workqueue: PF_MEMALLOC task %d(%s) is flushing !WQ_MEM_RECLAIM %s:%p",
		  current->pid, current->comm, target_wq->name, target_func);
	WARN_ONCE(worker && worker->current_work &&
		  ((worker->pwq->wq->flags & (WQ_MEM_RECLAIM | __WQ_LEGACY)) ==
		   WQ_MEM_RECLAIM),
		  "workqueue: WQ_MEM_RECLAIM %s:%p is flushing !WQ_MEM_RECLAIM %s:%p",
		  worker->pwq->wq->name, worker->current_func,
		  target_wq->name, target_func);
}

static bool __flush_work(struct work_struct *work, bool from_cancel)
{
	struct pool_workqueue *pwq;
	struct worker *worker = NULL;
	struct wq_barrier barr;

	if (WARN_ON(!READ_ONCE(wq_online)))
		return false;
	if (WARN_ON(!work->func))
		return false;

	rcu_read_lock();
	pwq = get_work_pool(work);
	if (!pwq) {
		rcu_read_unlock();
		return false;
	}
	raw_spin_lock_irq(&pwq->lock);
	if (get_work_pwq(work)) {
		/* queued: wait for that instance (and anything running first) */
		if (unlikely(get_work_pwq(work) != pwq))
			goto already_gone;
	} else {
		worker = find_worker_executing_work(pwq, work);
		if (!worker)
			goto already_gone;
	}
	if (flush_would_deadlock(pwq, work, from_cancel))
		goto already_gone;
	check_flush_dependency(pwq->wq, work, from_cancel);

	barr.work = work;
	barr.worker = worker;
	wq_waiter_init(&barr.waiter);
	list_add_tail(&barr.entry, &pwq->barriers);
	raw_spin_unlock_irq(&pwq->lock);
	rcu_read_unlock();

	/* A BH item may be cancelled from atomic context: busy-wait. */
	wq_waiter_wait(&barr.waiter,
		       from_cancel && (work_data(work) & WORK_OFFQ_BH));
	return true;
already_gone:
	raw_spin_unlock_irq(&pwq->lock);
	rcu_read_unlock();
	return false;
}

bool flush_work(struct work_struct *work)
{
	might_sleep();
	return __flush_work(work, false);
}

bool flush_delayed_work(struct delayed_work *dwork)
{
	int ret;

	/*
	 * As the kernel, with interrupts off from the timer's deletion to
	 * the queueing: in between this task owns PENDING, and a racing
	 * grab (mod_delayed_work_on() under get_cpu() on this CPU) busy-
	 * waits for it holding the CPU. With interrupts on here, this task
	 * waited for that CPU while the grab waited for it: 256 generator
	 * tasks queueing and flushing inodegc work livelocked. kshim's
	 * timer_delete_sync() may sleep, so a running callback is waited
	 * for with interrupts on, as a spin that lets it in (cpu_relax()).
	 */
	local_irq_disable();
	while ((ret = try_to_del_timer_sync(&dwork->timer)) < 0) {
		local_irq_enable();
		cpu_relax();
		local_irq_disable();
	}
	if (ret)
		__queue_work(dwork->cpu, dwork->wq, &dwork->work);
	local_irq_enable();
	return flush_work(&dwork->work);
}

bool flush_rcu_work(struct rcu_work *rwork)
{
	if (work_is_pending(&rwork->work)) {
		rcu_barrier();
		flush_work(&rwork->work);
		return true;
	}
	return flush_work(&rwork->work);
}

/*
 * Wait for every item queued before the call: start a new colour for new
 * items and wait until no item of the old colour is in flight. Flushers
 * take turns (the kernel queues them and lets them share a colour; the
 * guarantee is the same).
 */
void __flush_workqueue(struct workqueue_struct *wq)
{
	struct wq_waiter waiter;
	int i, color, next;

	if (WARN_ON(!READ_ONCE(wq_online)))
		return;
	if (flushing_own_wq(wq, "flush_workqueue"))
		return;
	might_sleep();
	check_flush_dependency(wq, NULL, false);

	mutex_lock(&wq->flush_mutex);
	wq_waiter_init(&waiter);
	wq->flusher = &waiter;
	atomic_set(&wq->nr_pwqs_to_flush, 1);
	color = wq->work_color;
	next = work_next_color(color);
	wq->work_color = next;
	for (i = 0; i < wq->nr_pwqs; i++) {
		struct pool_workqueue *pwq = wq->pwqs[i];

		raw_spin_lock_irq(&pwq->lock);
		WARN_ON_ONCE(pwq->flush_color != -1);
		WARN_ON_ONCE(pwq->work_color != color);
		if (pwq->nr_in_flight[color]) {
			pwq->flush_color = color;
			atomic_inc(&wq->nr_pwqs_to_flush);
		}
		pwq->work_color = next;
		raw_spin_unlock_irq(&pwq->lock);
	}
	if (!atomic_dec_and_test(&wq->nr_pwqs_to_flush))
		wq_waiter_wait(&waiter, false);
	wq->flusher = NULL;
	mutex_unlock(&wq->flush_mutex);
}

static bool pwq_is_empty(struct pool_workqueue *pwq)
{
	return !pwq->nr_active && list_empty(&pwq->inactive_works);
}

void drain_workqueue(struct workqueue_struct *wq)
{
	unsigned int flush_cnt = 0;
	int i;

	if (flushing_own_wq(wq, "drain_workqueue"))
		return;

	/*
	 * __queue_work() needs to test whether there are drainers, is much
	 * hotter than drain_workqueue() and already looks at @wq->flags.
	 * Use __WQ_DRAINING so that queue doesn't have to check nr_drainers.
	 */
	mutex_lock(&wq->mutex);
	if (!wq->nr_drainers++)
		WRITE_ONCE(wq->state, wq->state | __WQ_DRAINING);
	mutex_unlock(&wq->mutex);
reflush:
	__flush_workqueue(wq);

	mutex_lock(&wq->mutex);
	for (i = 0; i < wq->nr_pwqs; i++) {
		struct pool_workqueue *pwq = wq->pwqs[i];
		bool drained;

		raw_spin_lock_irq(&pwq->lock);
		drained = pwq_is_empty(pwq);
		raw_spin_unlock_irq(&pwq->lock);

		if (drained)
			continue;

		if (++flush_cnt == 10 ||
		    (flush_cnt % 100 == 0 && flush_cnt <= 1000))
			pr_warn("workqueue %s: %s() isn't complete after %u tries\n",
				wq->name, __func__, flush_cnt);

		mutex_unlock(&wq->mutex);
		goto reflush;
	}

	if (!--wq->nr_drainers)
		WRITE_ONCE(wq->state, wq->state & ~__WQ_DRAINING);
	mutex_unlock(&wq->mutex);
}

/* ==== cancelling, disabling ============================================== */

static void work_offqd_disable(struct work_offq_data *offqd)
{
	const unsigned long max = (1lu << WORK_OFFQ_DISABLE_BITS) - 1;

	if (likely(offqd->disable < max))
		offqd->disable++;
	else
		WARN_ONCE(true, "workqueue: work disable count overflowed\n");
}

static void work_offqd_enable(struct work_offq_data *offqd)
{
	if (likely(offqd->disable > 0))
		offqd->disable--;
	else
		WARN_ONCE(true, "workqueue: work disable count underflowed\n");
}

static bool __cancel_work(struct work_struct *work, u32 cflags)
{
	struct work_offq_data offqd;
	unsigned long irq_flags;
	int ret;

	ret = work_grab_pending(work, cflags, &irq_flags);

	work_offqd_unpack(&offqd, work_data(work));

	if (cflags & WORK_CANCEL_DISABLE)
		work_offqd_disable(&offqd);

	set_work_pool_and_clear_pending(work, offqd.pool_id,
					work_offqd_pack_flags(&offqd));
	local_irq_restore(irq_flags);
	return ret;
}

static bool __cancel_work_sync(struct work_struct *work, u32 cflags)
{
	bool ret;

	ret = __cancel_work(work, cflags | WORK_CANCEL_DISABLE);

	if (work_data(work) & WORK_OFFQ_BH)
		WARN_ON_ONCE(in_hardirq());
	else
		might_sleep();

	if (READ_ONCE(wq_online))
		__flush_work(work, true);

	if (!(cflags & WORK_CANCEL_DISABLE))
		enable_work(work);

	return ret;
}

bool cancel_work(struct work_struct *work)
{
	return __cancel_work(work, 0);
}

bool cancel_work_sync(struct work_struct *work)
{
	return __cancel_work_sync(work, 0);
}

bool cancel_delayed_work(struct delayed_work *dwork)
{
	return __cancel_work(&dwork->work, WORK_CANCEL_DELAYED);
}

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	return __cancel_work_sync(&dwork->work, WORK_CANCEL_DELAYED);
}

bool disable_work(struct work_struct *work)
{
	return __cancel_work(work, WORK_CANCEL_DISABLE);
}

bool disable_work_sync(struct work_struct *work)
{
	return __cancel_work_sync(work, WORK_CANCEL_DISABLE);
}

bool enable_work(struct work_struct *work)
{
	struct work_offq_data offqd;
	unsigned long irq_flags;

	work_grab_pending(work, 0, &irq_flags);

	work_offqd_unpack(&offqd, work_data(work));
	work_offqd_enable(&offqd);
	set_work_pool_and_clear_pending(work, offqd.pool_id,
					work_offqd_pack_flags(&offqd));
	local_irq_restore(irq_flags);

	return !offqd.disable;
}

bool disable_delayed_work(struct delayed_work *dwork)
{
	return __cancel_work(&dwork->work,
			     WORK_CANCEL_DELAYED | WORK_CANCEL_DISABLE);
}

bool disable_delayed_work_sync(struct delayed_work *dwork)
{
	return __cancel_work_sync(&dwork->work,
				  WORK_CANCEL_DELAYED | WORK_CANCEL_DISABLE);
}

bool enable_delayed_work(struct delayed_work *dwork)
{
	return enable_work(&dwork->work);
}

/* ==== creating and destroying workqueues ================================= */

static void free_pwq_rcu(struct rcu_head *rcu)
{
	kmem_cache_free(pwq_cache,
			container_of(rcu, struct pool_workqueue, rcu));
}

static struct pool_workqueue *alloc_pwq(struct workqueue_struct *wq, int cpu)
{
	struct pool_workqueue *pwq = kmem_cache_zalloc(pwq_cache, GFP_KERNEL);

	if (!pwq)
		return NULL;
	raw_spin_lock_init(&pwq->lock);
	pwq->wq = wq;
	pwq->cpu = cpu;
	pwq->id = -1;
	pwq->flags = (wq->flags & WQ_BH) ? POOL_BH : 0;
	pwq->max_active = wq->saved_max_active;
	pwq->flush_color = -1;
	INIT_LIST_HEAD(&pwq->worklist);
	INIT_LIST_HEAD(&pwq->inactive_works);
	INIT_LIST_HEAD(&pwq->workers);
	INIT_LIST_HEAD(&pwq->idle_list);
	INIT_LIST_HEAD(&pwq->busy_list);
	INIT_LIST_HEAD(&pwq->barriers);
	INIT_LIST_HEAD(&pwq->manage_node);
	return pwq;
}

/* Stop every worker of an idle pwq (wq_pool_mutex held). */
static void pwq_stop_workers(struct pool_workqueue *pwq)
{
	struct worker *worker, *tmp;
	LIST_HEAD(dying);

	lockdep_assert_held(&wq_pool_mutex);
	raw_spin_lock_irq(&manage_lock);
	list_del_init(&pwq->manage_node);
	raw_spin_unlock_irq(&manage_lock);

	raw_spin_lock_irq(&pwq->lock);
	list_for_each_entry(worker, &pwq->workers, node)
		worker->flags |= WORKER_DIE;
	list_splice_init(&pwq->workers, &dying);
	pwq->nr_workers = 0;
	raw_spin_unlock_irq(&pwq->lock);

	list_for_each_entry_safe(worker, tmp, &dying, node) {
		kthread_stop(worker->task);
		kfree(worker);
		atomic_long_dec(&nr_workers_alive);
	}
}

/* Undo what alloc_workqueue() set up (wq_pool_mutex held). */
static void free_pwqs(struct workqueue_struct *wq)
{
	int i;

	for (i = 0; i < wq->nr_pwqs; i++) {
		struct pool_workqueue *pwq = wq->pwqs[i];

		if (!pwq)
			continue;
		pwq_stop_workers(pwq);
		if (pwq->id >= 0)
			pool_id_remove(pwq);
		call_rcu(&pwq->rcu, free_pwq_rcu);
	}
	kfree(wq->pwqs);
}

static int wq_clamp_max_active(int max_active, unsigned int flags,
			       const char *name)
{
	if (max_active < 1 || max_active > WQ_MAX_ACTIVE)
		pr_warn("workqueue: max_active %d requested for %s is out of range, clamping between %d and %d\n",
			max_active, name, 1, WQ_MAX_ACTIVE);

	return clamp_val(max_active, 1, WQ_MAX_ACTIVE);
}

/* wq_pool_mutex held (once for all system workqueues at start-up). */
static struct workqueue_struct *__alloc_workqueue(const char *fmt,
						  unsigned int flags,
						  int max_active, va_list args)
{
	struct workqueue_struct *wq;
	int name_len, i;

	lockdep_assert_held(&wq_pool_mutex);

	if (flags & WQ_BH) {
		if (WARN_ON_ONCE(flags & ~__WQ_BH_ALLOWS))
			return NULL;
		if (WARN_ON_ONCE(max_active))
			return NULL;
	}

	/* see the comment above the definition of WQ_POWER_EFFICIENT */
	if ((flags & WQ_POWER_EFFICIENT) && wq_power_efficient)
		flags |= WQ_UNBOUND;

	wq = kzalloc(sizeof(*wq), GFP_KERNEL);
	if (!wq)
		return NULL;

	name_len = vsnprintf(wq->name, sizeof(wq->name), fmt, args);
	if (name_len >= WQ_NAME_LEN)
		pr_warn_once("workqueue: name exceeds WQ_NAME_LEN. Truncating to: %s\n",
			     wq->name);

	if (flags & WQ_BH) {
		/* BH workqueues impose no max_active limit */
		max_active = INT_MAX;
	} else {
		max_active = max_active ?: WQ_DFL_ACTIVE;
		max_active = wq_clamp_max_active(max_active, flags, wq->name);
	}

	wq->flags = flags;
	wq->saved_max_active = max_active;
	mutex_init(&wq->mutex);
	mutex_init(&wq->flush_mutex);
	atomic_set(&wq->nr_pwqs_to_flush, 0);
	INIT_LIST_HEAD(&wq->list);

	wq->nr_pwqs = (flags & WQ_UNBOUND) ? 1 : nr_cpu_ids;
	wq->pwqs = kcalloc(wq->nr_pwqs, sizeof(wq->pwqs[0]), GFP_KERNEL);
	if (!wq->pwqs)
		goto err_free_wq;

	for (i = 0; i < wq->nr_pwqs; i++) {
		struct pool_workqueue *pwq;

		pwq = alloc_pwq(wq, (flags & WQ_UNBOUND) ? -1 : i);
		if (!pwq)
			goto err_free_pwqs;
		wq->pwqs[i] = pwq;
		if (pool_id_assign(pwq))
			goto err_free_pwqs;
	}
	/* In place of a rescuer: progress without allocating, from now on. */
	if (flags & WQ_MEM_RECLAIM)
		for (i = 0; i < wq->nr_pwqs; i++)
			if (!create_worker(wq->pwqs[i]))
				goto err_free_pwqs;
	list_add_tail(&wq->list, &workqueues);
	return wq;

err_free_pwqs:
	free_pwqs(wq);
err_free_wq:
	kfree(wq);
	return NULL;
}

struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...)
{
	struct workqueue_struct *wq;
	va_list args;

	va_start(args, max_active);
	mutex_lock(&wq_pool_mutex);
	wq = __alloc_workqueue(fmt, flags, max_active, args);
	mutex_unlock(&wq_pool_mutex);
	va_end(args);
	return wq;
}

static struct workqueue_struct *alloc_workqueue_locked(const char *fmt,
						       unsigned int flags,
						       int max_active, ...)
{
	struct workqueue_struct *wq;
	va_list args;

	va_start(args, max_active);
	wq = __alloc_workqueue(fmt, flags, max_active, args);
	va_end(args);
	return wq;
}

static bool pwq_busy(struct pool_workqueue *pwq)
{
	int i;

	for (i = 0; i < WORK_NR_COLORS; i++)
		if (pwq->nr_in_flight[i])
			return true;
	return !pwq_is_empty(pwq) || !list_empty(&pwq->busy_list);
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	int i;

	/* mark the workqueue destruction is in progress */
	mutex_lock(&wq->mutex);
	WRITE_ONCE(wq->state, wq->state | __WQ_DESTROYING);
	mutex_unlock(&wq->mutex);

	/* drain it before proceeding with destruction */
	drain_workqueue(wq);

	mutex_lock(&wq_pool_mutex);
	for (i = 0; i < wq->nr_pwqs; i++) {
		struct pool_workqueue *pwq = wq->pwqs[i];
		bool busy;

		raw_spin_lock_irq(&pwq->lock);
		busy = pwq_busy(pwq);
		raw_spin_unlock_irq(&pwq->lock);
		if (WARN_ON(busy)) {
			pr_warn("%s: %s has the following busy pwq\n",
				__func__, wq->name);
			mutex_unlock(&wq_pool_mutex);
			show_one_workqueue(wq);
			return;
		}
	}
	list_del(&wq->list);
	free_pwqs(wq);
	mutex_unlock(&wq_pool_mutex);
	kfree(wq);
}

void workqueue_set_max_active(struct workqueue_struct *wq, int max_active)
{
	int i;

	/* max_active doesn't mean anything for BH workqueues */
	if (WARN_ON(wq->flags & WQ_BH))
		return;
	/* disallow meddling with max_active for ordered workqueues */
	if (WARN_ON(wq->flags & __WQ_ORDERED))
		return;

	max_active = wq_clamp_max_active(max_active, wq->flags, wq->name);

	mutex_lock(&wq->mutex);
	WRITE_ONCE(wq->saved_max_active, max_active);
	for (i = 0; i < wq->nr_pwqs; i++) {
		struct pool_workqueue *pwq = wq->pwqs[i];

		raw_spin_lock_irq(&pwq->lock);
		pwq->max_active = max_active;
		pwq_activate_inactive(pwq);
		raw_spin_unlock_irq(&pwq->lock);
	}
	mutex_unlock(&wq->mutex);
}

/* ==== introspection ====================================================== */

struct work_struct *current_work(void)
{
	struct worker *worker = current_wq_worker();

	return worker ? worker->current_work : NULL;
}

/* kshim has no rescuers (see the top of the file). */
bool current_is_workqueue_rescuer(void)
{
	return false;
}

bool workqueue_congested(int cpu, struct workqueue_struct *wq)
{
	struct pool_workqueue *pwq;
	unsigned long irq_flags;
	bool ret;

	if (cpu == WORK_CPU_UNBOUND)
		cpu = raw_smp_processor_id();
	pwq = wq_cpu_pwq(wq, cpu);
	raw_spin_lock_irqsave(&pwq->lock, irq_flags);
	ret = !list_empty(&pwq->inactive_works);
	raw_spin_unlock_irqrestore(&pwq->lock, irq_flags);
	return ret;
}

unsigned int work_busy(struct work_struct *work)
{
	struct pool_workqueue *pwq;
	unsigned long irq_flags;
	unsigned int ret = 0;

	if (work_is_pending(work))
		ret |= WORK_BUSY_PENDING;

	rcu_read_lock();
	pwq = get_work_pool(work);
	if (pwq) {
		raw_spin_lock_irqsave(&pwq->lock, irq_flags);
		if (find_worker_executing_work(pwq, work))
			ret |= WORK_BUSY_RUNNING;
		raw_spin_unlock_irqrestore(&pwq->lock, irq_flags);
	}
	rcu_read_unlock();

	return ret;
}

void set_worker_desc(const char *fmt, ...)
{
	struct worker *worker = current_wq_worker();
	va_list args;

	if (worker) {
		va_start(args, fmt);
		vsnprintf(worker->desc, sizeof(worker->desc), fmt, args);
		va_end(args);
	}
}

void show_one_workqueue(struct workqueue_struct *wq)
{
	int i;

	pr_info("workqueue %s: flags=0x%x max_active=%d\n", wq->name,
		wq->flags, READ_ONCE(wq->saved_max_active));
	for (i = 0; i < wq->nr_pwqs; i++) {
		struct pool_workqueue *pwq = wq->pwqs[i];
		struct work_struct *work;
		struct worker *worker;
		unsigned long irq_flags;
		int queued = 0, inactive = 0;

		raw_spin_lock_irqsave(&pwq->lock, irq_flags);
		list_for_each_entry(work, &pwq->worklist, entry)
			queued++;
		list_for_each_entry(work, &pwq->inactive_works, entry)
			inactive++;
		if (pwq->nr_active || inactive || !list_empty(&pwq->busy_list))
			pr_info("  pwq %d (cpu %d): active=%d/%d queued=%d inactive=%d workers=%d idle=%d\n",
				pwq->id, pwq->cpu, pwq->nr_active,
				pwq->max_active, queued, inactive,
				pwq->nr_workers, pwq->nr_idle);
		list_for_each_entry(worker, &pwq->busy_list, busy_node)
			pr_info("    in-flight: %s(%d) %p\n", worker->task->comm,
				worker->task->pid, worker->current_func);
		raw_spin_unlock_irqrestore(&pwq->lock, irq_flags);
	}
}

void show_all_workqueues(void)
{
	struct workqueue_struct *wq;

	pr_info("Showing busy workqueues and worker pools:\n");
	mutex_lock(&wq_pool_mutex);
	list_for_each_entry(wq, &workqueues, list)
		show_one_workqueue(wq);
	mutex_unlock(&wq_pool_mutex);
}

/* ==== helpers on top of the queue ======================================== */

int schedule_on_each_cpu(work_func_t func)
{
	int cpu;
	struct work_struct __percpu *works;

	works = alloc_percpu(struct work_struct);
	if (!works)
		return -ENOMEM;

	cpus_read_lock();

	for_each_online_cpu(cpu) {
		struct work_struct *work = per_cpu_ptr(works, cpu);

		INIT_WORK(work, func);
		schedule_work_on(cpu, work);
	}

	for_each_online_cpu(cpu)
		flush_work(per_cpu_ptr(works, cpu));

	cpus_read_unlock();
	free_percpu(works);
	return 0;
}

int execute_in_process_context(work_func_t fn, struct execute_work *ew)
{
	if (!in_interrupt()) {
		fn(&ew->work);
		return 0;
	}

	INIT_WORK(&ew->work, fn);
	schedule_work(&ew->work);

	return 1;
}

struct work_for_cpu {
	struct work_struct work;
	long (*fn)(void *);
	void *arg;
	long ret;
};

static void work_for_cpu_fn(struct work_struct *work)
{
	struct work_for_cpu *wfc = container_of(work, struct work_for_cpu,
						work);

	wfc->ret = wfc->fn(wfc->arg);
}

long work_on_cpu_key(int cpu, long (*fn)(void *), void *arg,
		     struct lock_class_key *key)
{
	struct work_for_cpu wfc = { .fn = fn, .arg = arg };

	INIT_WORK_ONSTACK_KEY(&wfc.work, work_for_cpu_fn, key);
	schedule_work_on(cpu, &wfc.work);
	flush_work(&wfc.work);
	destroy_work_on_stack(&wfc.work);
	return wfc.ret;
}

long work_on_cpu_safe_key(int cpu, long (*fn)(void *), void *arg,
			  struct lock_class_key *key)
{
	long ret = -ENODEV;

	cpus_read_lock();
	if (cpu_online(cpu))
		ret = work_on_cpu_key(cpu, fn, arg, key);
	cpus_read_unlock();
	return ret;
}

void __warn_flushing_systemwide_wq(void)
{
	pr_warn("WARNING: Flushing system-wide workqueues will be prohibited in near future.\n");
}

/* ==== start-up and exit (kshim_runtime.c) ================================ */

static struct {
	struct workqueue_struct **wq;
	const char *name;
	unsigned int flags;
	int max_active;
} system_wqs[] = {
	/* workqueue_init_early()'s list */
	{ &system_wq, "events", 0, 0 },
	{ &system_percpu_wq, "events", 0, 0 },
	{ &system_highpri_wq, "events_highpri", WQ_HIGHPRI, 0 },
	{ &system_long_wq, "events_long", 0, 0 },
	{ &system_unbound_wq, "events_unbound", WQ_UNBOUND, WQ_MAX_ACTIVE },
	{ &system_dfl_wq, "events_unbound", WQ_UNBOUND, WQ_MAX_ACTIVE },
	{ &system_freezable_wq, "events_freezable", WQ_FREEZABLE, 0 },
	{ &system_power_efficient_wq, "events_power_efficient",
	  WQ_POWER_EFFICIENT, 0 },
	{ &system_freezable_power_efficient_wq,
	  "events_freezable_pwr_efficient",
	  WQ_FREEZABLE | WQ_POWER_EFFICIENT, 0 },
	{ &system_bh_wq, "events_bh", WQ_BH, 0 },
	{ &system_bh_highpri_wq, "events_bh_highpri", WQ_BH | WQ_HIGHPRI, 0 },
};

/*
 * After the clock and timers: the manager and the system workqueues (no
 * worker yet: they come with the first work). Few switch points, one
 * wq_pool_mutex section: the deterministic backend counts its steps (and
 * places PCT change points) from the start of the program.
 */
void kshim_workqueue_init(void)
{
	int i;

	pwq_cache = KMEM_CACHE(pool_workqueue, SLAB_PANIC);
	manager_task = kthread_run(manager_thread, NULL, "kworker/manager");
	if (IS_ERR(manager_task))
		kshim_fatal("cannot start the workqueue manager");
	mutex_lock(&wq_pool_mutex);
	for (i = 0; i < ARRAY_SIZE(system_wqs); i++) {
		*system_wqs[i].wq = alloc_workqueue_locked("%s",
				system_wqs[i].flags, system_wqs[i].max_active,
				system_wqs[i].name);
		if (!*system_wqs[i].wq)
			kshim_fatal("cannot create workqueue %s",
				    system_wqs[i].name);
	}
	mutex_unlock(&wq_pool_mutex);
	WRITE_ONCE(wq_online, true);
}

/*
 * Before the timers stop: run what is still queued on the system
 * workqueues, stop every worker and the manager, free the pwqs. A
 * workqueue a test did not destroy stays, and is reported as a leak.
 */
void kshim_workqueue_exit(void)
{
	bool leaked;
	int i;

	if (!manager_task)
		return;
	/* RCU callbacks may still queue work (fs/super.c frees a superblock
	 * from an RCU callback through schedule_work()): run them first. */
	rcu_barrier();
	/* The initcalls' workqueues (bdi_wq, mm_percpu_wq): boot-time
	 * objects, destroyed newest first, before the system ones. */
	for (;;) {
		struct workqueue_struct *wq = NULL, *w;

		mutex_lock(&wq_pool_mutex);
		list_for_each_entry(w, &workqueues, list)
			if (w->boot)
				wq = w;
		mutex_unlock(&wq_pool_mutex);
		if (!wq)
			break;
		destroy_workqueue(wq);
	}
	for (i = ARRAY_SIZE(system_wqs) - 1; i >= 0; i--) {
		destroy_workqueue(*system_wqs[i].wq);
		*system_wqs[i].wq = NULL;
	}
	kthread_stop(manager_task);
	manager_task = NULL;
	mutex_lock(&wq_pool_mutex);
	leaked = !list_empty(&workqueues);
	mutex_unlock(&wq_pool_mutex);
	if (leaked) {
		pr_err("kshim: workqueue(s) not destroyed at exit:\n");
		show_all_workqueues();
		return;
	}
	WRITE_ONCE(wq_online, false);
	rcu_barrier();		/* the pwqs' free_pwq_rcu() */
	for (i = 0; i < POOL_ID_CHUNKS; i++) {
		kfree(pool_ids[i]);
		pool_ids[i] = NULL;
	}
	kmem_cache_destroy(pwq_cache);
	pwq_cache = NULL;
}

/* After the initcalls: the workqueues they made live as long as the
 * process, like boot memory (kshim_workqueue_exit() destroys them). */
void kshim_workqueue_mark_boot_done(void)
{
	struct workqueue_struct *wq;
	int i;

	mutex_lock(&wq_pool_mutex);
	list_for_each_entry(wq, &workqueues, list)
		wq->boot = true;
	for (i = 0; i < ARRAY_SIZE(system_wqs); i++)
		(*system_wqs[i].wq)->boot = false;	/* destroyed by name */
	mutex_unlock(&wq_pool_mutex);
}

/* ==== Deliberate no-ops: each says why it is safe ========================= */

/* min_active only spreads max_active over NUMA nodes: kshim has one. */
void workqueue_set_min_active(struct workqueue_struct *wq, int min_active)
{
	WARN_ON((wq->flags & (WQ_BH | WQ_UNBOUND | __WQ_ORDERED)) !=
		WQ_UNBOUND);
}

/* ==== Loud stubs: the kernel would do real work here ====================== */

struct workqueue_attrs *alloc_workqueue_attrs(void)
{
	kshim_unimplemented(__func__);
}

void free_workqueue_attrs(struct workqueue_attrs *attrs)
{
	kshim_unimplemented(__func__);
}

int apply_workqueue_attrs(struct workqueue_struct *wq,
			  const struct workqueue_attrs *attrs)
{
	kshim_unimplemented(__func__);
}

int workqueue_unbound_exclude_cpumask(cpumask_var_t cpumask)
{
	kshim_unimplemented(__func__);
}

void print_worker_info(const char *log_lvl, struct task_struct *task)
{
	kshim_unimplemented(__func__);
}

void show_freezable_workqueues(void)
{
	kshim_unimplemented(__func__);
}

void wq_worker_comm(char *buf, size_t size, struct task_struct *task)
{
	kshim_unimplemented(__func__);
}

void workqueue_softirq_action(bool highpri)
{
	kshim_unimplemented(__func__);
}

void workqueue_softirq_dead(unsigned int cpu)
{
	kshim_unimplemented(__func__);
}

int workqueue_prepare_cpu(unsigned int cpu)
{
	kshim_unimplemented(__func__);
}

int workqueue_online_cpu(unsigned int cpu)
{
	kshim_unimplemented(__func__);
}

int workqueue_offline_cpu(unsigned int cpu)
{
	kshim_unimplemented(__func__);
}
