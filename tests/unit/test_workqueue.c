// SPDX-License-Identifier: GPL-2.0
/*
 * Workqueues (kernel-shim/kernel/kshim_workqueue.c, a listed fake behind the REAL
 * include/linux/workqueue.h): each guarantee the kernel gives, checked in
 * a way that fails if the guarantee is broken.
 *
 * Timing: only orderings and lower bounds in jiffies are asserted, never
 * an upper bound on wall time. Where a test must see concurrency happen
 * (max_active reached, an overlap that a broken implementation would
 * show), the work items wait for it by polling with
 * schedule_timeout_uninterruptible(1), giving up after a few seconds, so
 * a correct run never depends on the machine's speed and an incorrect one
 * fails instead of hanging. The same code runs in the parallel and the
 * deterministic backend (where time is virtual).
 */
#include <linux/kernel.h>
#include <linux/workqueue.h>
#include <linux/sched.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/delay.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>

#define MAX_TEST_CPUS	64

#define POLL_UNTIL(cond)	POLL_UNTIL_TIMEOUT(cond, 20 * HZ)

static void note_peak(atomic_t *peak, int v)
{
	int old = atomic_read(peak);

	while (old < v && !atomic_try_cmpxchg(peak, &old, v))
		;
}

static unsigned long work_data_now(struct work_struct *work)
{
	return atomic_long_read(&work->data);
}

static int other_cpu(void)
{
	return nr_cpu_ids > 1 ? 1 : 0;
}

/*
 * A task that calls flush_work() and records what it returned. The test
 * knows it is waiting inside once it sleeps (TASK_UNINTERRUPTIBLE: the
 * flush's wait_for_completion()), and only then lets the work finish, so
 * "flush_work() waited" is checked without any timing assumption.
 */
struct flush_task {
	struct work_struct *work;
	struct task_struct *task;
	int ret;
};

static void flush_task_fn(void *arg)
{
	struct flush_task *ft = arg;

	ft->ret = flush_work(ft->work);
}

static void flush_task_start(struct flush_task *ft, struct work_struct *work,
			     int cpu)
{
	ft->work = work;
	ft->ret = -1;
	ft->task = kshim_task_run(flush_task_fn, ft, "wq_flusher", cpu);
}

static bool flush_task_sleeps(struct flush_task *ft)
{
	return POLL_UNTIL(READ_ONCE(ft->task->__state) == TASK_UNINTERRUPTIBLE);
}

static int flush_task_join(struct flush_task *ft)
{
	kshim_task_join(ft->task);
	return ft->ret;
}

/* An item that runs until released: keeps a worker (or an ordered wq) busy. */
struct blocker {
	struct work_struct work;
	struct completion started;
	struct completion release;
};

static void blocker_fn(struct work_struct *work)
{
	struct blocker *b = container_of(work, struct blocker, work);

	complete(&b->started);
	wait_for_completion(&b->release);
}

static void blocker_init(struct blocker *b)
{
	INIT_WORK(&b->work, blocker_fn);
	init_completion(&b->started);
	init_completion(&b->release);
}

/* An item that records what it saw. */
struct probe {
	struct work_struct work;
	atomic_t runs;
	int cpu;
	int task_cpu;
	unsigned int flags;
	bool in_task;
	bool in_softirq;
	bool atomic;
	struct work_struct *current_work;
};

static void probe_fn(struct work_struct *work)
{
	struct probe *p = container_of(work, struct probe, work);

	p->cpu = raw_smp_processor_id();
	p->task_cpu = task_cpu(current);
	p->flags = current->flags;
	p->in_task = in_task();
	p->in_softirq = in_serving_softirq();
	p->atomic = in_atomic();
	p->current_work = current_work();
	if (p->in_task)
		msleep(1);		/* process context: may sleep */
	atomic_inc(&p->runs);
}

static void probe_init(struct probe *p)
{
	memset(p, 0, sizeof(*p));
	INIT_WORK(&p->work, probe_fn);
	p->cpu = -1;
}

/* ==== queueing, PENDING, process context ================================= */

static void test_queue_sets_pending_and_runs_once(void)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("wqtest-%d", 0, 7);
	struct flush_task ft;
	struct blocker b;
	struct probe p;

	KSHIM_ASSERT_FATAL(wq != NULL);
	kshim_printk_clear();
	show_one_workqueue(wq);
	KSHIM_ASSERT(kshim_printk_contains("workqueue wqtest-7:"));

	blocker_init(&b);
	probe_init(&p);
	KSHIM_ASSERT(!work_pending(&p.work));
	KSHIM_ASSERT_EQ(work_busy(&p.work), 0);

	KSHIM_ASSERT(queue_work(wq, &b.work));
	wait_for_completion(&b.started);
	KSHIM_ASSERT_EQ(work_busy(&b.work), WORK_BUSY_RUNNING);
	KSHIM_ASSERT(!work_pending(&b.work));

	/* Behind the blocker on an ordered wq: queued, inactive. */
	KSHIM_ASSERT(queue_work(wq, &p.work));
	KSHIM_ASSERT(work_pending(&p.work));
	KSHIM_ASSERT(work_data_now(&p.work) & WORK_STRUCT_PWQ);
	KSHIM_ASSERT(work_data_now(&p.work) & WORK_STRUCT_INACTIVE);
	KSHIM_ASSERT(!queue_work(wq, &p.work));		/* already pending */
	KSHIM_ASSERT(!queue_work_on(other_cpu(), wq, &p.work));
	KSHIM_ASSERT_EQ(work_busy(&p.work), WORK_BUSY_PENDING);
	KSHIM_ASSERT(workqueue_congested(WORK_CPU_UNBOUND, wq));

	flush_task_start(&ft, &p.work, other_cpu());
	KSHIM_ASSERT(flush_task_sleeps(&ft));
	KSHIM_ASSERT_EQ(atomic_read(&p.runs), 0);
	complete(&b.release);
	KSHIM_ASSERT_EQ(flush_task_join(&ft), 1);	/* it waited... */
	KSHIM_ASSERT_EQ(atomic_read(&p.runs), 1);	/* ...for the run */
	KSHIM_ASSERT(!work_pending(&p.work));
	KSHIM_ASSERT(!(work_data_now(&p.work) & WORK_STRUCT_PWQ));
	KSHIM_ASSERT_EQ(atomic_read(&p.runs), 1);
	KSHIM_ASSERT(!flush_work(&p.work));		/* idle: no wait */
	KSHIM_ASSERT_EQ(work_busy(&p.work), 0);
	KSHIM_ASSERT(!workqueue_congested(WORK_CPU_UNBOUND, wq));

	/* It ran as the kernel runs work: a kthread worker, process context. */
	KSHIM_ASSERT_PTR_EQ(p.current_work, &p.work);
	KSHIM_ASSERT(p.flags & PF_WQ_WORKER);
	KSHIM_ASSERT(p.flags & PF_KTHREAD);
	KSHIM_ASSERT(p.in_task);
	KSHIM_ASSERT(!p.atomic);
	KSHIM_ASSERT_NULL(current_work());
	KSHIM_ASSERT(!(current->flags & PF_WQ_WORKER));

	destroy_workqueue(wq);
}

/* ==== ordered workqueues ================================================= */

#define ORD_N	48

struct ord_item {
	struct work_struct work;
	int idx;
};

static struct ord_item ord_items[ORD_N];
static int ord_order[ORD_N];
static atomic_t ord_running, ord_peak, ord_seq, ord_refused;

static void ord_fn(struct work_struct *work)
{
	struct ord_item *it = container_of(work, struct ord_item, work);

	note_peak(&ord_peak, atomic_inc_return(&ord_running));
	/* Long enough that a second worker, if there were one, overlaps. */
	if (it->idx % 3 == 0)
		schedule_timeout_uninterruptible(1);
	else
		cond_resched();
	ord_order[atomic_inc_return(&ord_seq) - 1] = it->idx;
	atomic_dec(&ord_running);
}

static void ord_queue_second_half(void *arg)
{
	struct workqueue_struct *wq = arg;
	int i;

	for (i = ORD_N / 2; i < ORD_N; i++)
		if (!queue_work(wq, &ord_items[i].work))
			atomic_inc(&ord_refused);
}

static void test_ordered_runs_fifo_one_at_a_time(void)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("wqtest-ordered",
							      WQ_MEM_RECLAIM);
	struct task_struct *t;
	int i;

	KSHIM_ASSERT_FATAL(wq != NULL);
	atomic_set(&ord_running, 0);
	atomic_set(&ord_peak, 0);
	atomic_set(&ord_seq, 0);
	atomic_set(&ord_refused, 0);
	for (i = 0; i < ORD_N; i++) {
		INIT_WORK(&ord_items[i].work, ord_fn);
		ord_items[i].idx = i;
		ord_order[i] = -1;
	}
	/* First half from CPU 0, then the rest from a task on another CPU. */
	for (i = 0; i < ORD_N / 2; i++)
		KSHIM_ASSERT(queue_work(wq, &ord_items[i].work));
	t = kshim_task_run(ord_queue_second_half, wq, "ord_queuer",
			   other_cpu());
	kshim_task_join(t);
	flush_workqueue(wq);

	KSHIM_ASSERT_EQ(atomic_read(&ord_refused), 0);
	KSHIM_ASSERT_EQ(atomic_read(&ord_seq), ORD_N);
	KSHIM_ASSERT_EQ(atomic_read(&ord_peak), 1);
	for (i = 0; i < ORD_N; i++)
		KSHIM_ASSERT_EQ(ord_order[i], i);
	destroy_workqueue(wq);
}

/* ==== max_active ========================================================= */

/*
 * Items that wait until the concurrency they are meant to reach was
 * reached (or a few seconds passed), so the peak is exactly the bound when
 * the bound is honoured, and above it when it is not.
 */
struct ma_ctx {
	atomic_t running, peak, done;
	atomic_t cpu_running[MAX_TEST_CPUS], cpu_peak[MAX_TEST_CPUS];
	atomic_t cpus_at_limit;
	atomic_t wrong_cpu;
	int limit;			/* per pwq */
	int want_cpus;			/* bound: CPUs that must reach limit */
	bool gave_up;
};

struct ma_item {
	struct work_struct work;
	struct ma_ctx *ctx;
	int cpu;			/* -1: unbound */
};

static bool ma_reached(struct ma_ctx *ctx)
{
	if (READ_ONCE(ctx->gave_up))
		return true;
	if (ctx->want_cpus)
		return atomic_read(&ctx->cpus_at_limit) >= ctx->want_cpus;
	return atomic_read(&ctx->peak) >= ctx->limit;
}

static void ma_fn(struct work_struct *work)
{
	struct ma_item *it = container_of(work, struct ma_item, work);
	struct ma_ctx *ctx = it->ctx;
	int cpu = raw_smp_processor_id();

	note_peak(&ctx->peak, atomic_inc_return(&ctx->running));
	if (it->cpu >= 0) {
		int n = atomic_inc_return(&ctx->cpu_running[cpu]);

		if (cpu != it->cpu)
			atomic_inc(&ctx->wrong_cpu);
		note_peak(&ctx->cpu_peak[cpu], n);
		if (n == ctx->limit)
			atomic_inc(&ctx->cpus_at_limit);
	}
	if (!POLL_UNTIL_TIMEOUT(ma_reached(ctx), 5 * HZ))
		WRITE_ONCE(ctx->gave_up, true);
	schedule_timeout_uninterruptible(1);
	if (it->cpu >= 0)
		atomic_dec(&ctx->cpu_running[cpu]);
	atomic_dec(&ctx->running);
	atomic_inc(&ctx->done);
}

#define MA_UNBOUND_LIMIT	3
#define MA_UNBOUND_ITEMS	24

static void test_max_active_unbound_is_global(void)
{
	struct workqueue_struct *wq;
	struct ma_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	struct ma_item *items = kcalloc(MA_UNBOUND_ITEMS, sizeof(*items),
					GFP_KERNEL);
	int i;

	KSHIM_ASSERT_FATAL(ctx && items);
	wq = alloc_workqueue("wqtest-unbound", WQ_UNBOUND, MA_UNBOUND_LIMIT);
	KSHIM_ASSERT_FATAL(wq != NULL);
	ctx->limit = MA_UNBOUND_LIMIT;
	for (i = 0; i < MA_UNBOUND_ITEMS; i++) {
		INIT_WORK(&items[i].work, ma_fn);
		items[i].ctx = ctx;
		items[i].cpu = -1;
		/* from every CPU: the limit is for the whole system */
		KSHIM_ASSERT(queue_work_on(i % nr_cpu_ids, wq, &items[i].work));
	}
	flush_workqueue(wq);
	KSHIM_ASSERT_EQ(atomic_read(&ctx->done), MA_UNBOUND_ITEMS);
	KSHIM_ASSERT_EQ(atomic_read(&ctx->peak), MA_UNBOUND_LIMIT);
	KSHIM_ASSERT(!ctx->gave_up);
	destroy_workqueue(wq);
	kfree(items);
	kfree(ctx);
}

#define MA_BOUND_LIMIT		2
#define MA_BOUND_PER_CPU	6

static void test_max_active_bound_is_per_cpu(void)
{
	int ncpus = min_t(int, nr_cpu_ids, MAX_TEST_CPUS);
	int n = ncpus * MA_BOUND_PER_CPU, i, cpu;
	struct workqueue_struct *wq;
	struct ma_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	struct ma_item *items = kcalloc(n, sizeof(*items), GFP_KERNEL);

	KSHIM_ASSERT_FATAL(ctx && items);
	wq = alloc_workqueue("wqtest-bound", 0, MA_BOUND_LIMIT);
	KSHIM_ASSERT_FATAL(wq != NULL);
	ctx->limit = MA_BOUND_LIMIT;
	ctx->want_cpus = ncpus;
	for (i = 0; i < n; i++) {
		INIT_WORK(&items[i].work, ma_fn);
		items[i].ctx = ctx;
		items[i].cpu = i % ncpus;
		KSHIM_ASSERT(queue_work_on(items[i].cpu, wq, &items[i].work));
	}
	flush_workqueue(wq);
	KSHIM_ASSERT_EQ(atomic_read(&ctx->done), n);
	KSHIM_ASSERT_EQ(atomic_read(&ctx->wrong_cpu), 0);
	for (cpu = 0; cpu < ncpus; cpu++)
		KSHIM_ASSERT_EQ(atomic_read(&ctx->cpu_peak[cpu]),
				MA_BOUND_LIMIT);
	/* Every CPU at its limit at once: the bound is not global. */
	KSHIM_ASSERT_EQ(atomic_read(&ctx->peak), ncpus * MA_BOUND_LIMIT);
	KSHIM_ASSERT(!ctx->gave_up);
	destroy_workqueue(wq);
	kfree(items);
	kfree(ctx);
}

static void test_set_max_active_raises_the_bound(void)
{
	struct workqueue_struct *wq;
	struct ma_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	struct ma_item *items = kcalloc(8, sizeof(*items), GFP_KERNEL);
	int i;

	KSHIM_ASSERT_FATAL(ctx && items);
	wq = alloc_workqueue("wqtest-setmax", WQ_UNBOUND, 1);
	KSHIM_ASSERT_FATAL(wq != NULL);
	ctx->limit = 4;			/* what the items wait for */
	for (i = 0; i < 8; i++) {
		INIT_WORK(&items[i].work, ma_fn);
		items[i].ctx = ctx;
		items[i].cpu = -1;
		queue_work(wq, &items[i].work);
	}
	/* One runs, waiting for company; the others are inactive. */
	KSHIM_ASSERT(POLL_UNTIL(atomic_read(&ctx->running) == 1));
	KSHIM_ASSERT(workqueue_congested(WORK_CPU_UNBOUND, wq));
	workqueue_set_max_active(wq, 4);
	flush_workqueue(wq);
	KSHIM_ASSERT_EQ(atomic_read(&ctx->done), 8);
	KSHIM_ASSERT_EQ(atomic_read(&ctx->peak), 4);
	KSHIM_ASSERT(!ctx->gave_up);
	destroy_workqueue(wq);
	kfree(items);
	kfree(ctx);
}

/* ==== non-reentrancy ===================================================== */

struct reent {
	struct work_struct work;
	struct workqueue_struct *wq;
	atomic_t running, overlap, runs;
	int self_requeues;		/* runs that requeue themselves */
	bool stop;
};

static void reent_fn(struct work_struct *work)
{
	struct reent *r = container_of(work, struct reent, work);
	int n;

	if (atomic_inc_return(&r->running) != 1)
		atomic_inc(&r->overlap);
	n = atomic_inc_return(&r->runs);
	/* Requeue first, then stay a while: a second run would overlap. */
	if (n <= r->self_requeues)
		queue_work(r->wq, work);
	if (n % 2)
		schedule_timeout_uninterruptible(1);
	else
		cond_resched();
	atomic_dec(&r->running);
}

static void reent_queuer(void *arg)
{
	struct reent *r = arg;
	int i;

	/* queue_work() from this task's CPU while the item may be running */
	for (i = 0; i < 40 && !READ_ONCE(r->stop); i++) {
		queue_work(r->wq, &r->work);
		if (i % 4 == 0)
			schedule_timeout_uninterruptible(1);
		else
			cond_resched();
	}
}

static void test_non_reentrant_when_requeued_while_running(void)
{
	int ncpus = min_t(int, nr_cpu_ids, 8);
	struct task_struct *t[8];
	struct reent r = { };
	int i;

	r.wq = alloc_workqueue("wqtest-reent", 0, 8);
	KSHIM_ASSERT_FATAL(r.wq != NULL);
	INIT_WORK(&r.work, reent_fn);
	r.self_requeues = 30;
	KSHIM_ASSERT(queue_work(r.wq, &r.work));
	for (i = 0; i < ncpus; i++)
		t[i] = kshim_task_run(reent_queuer, &r, "reent_queuer", i);
	for (i = 0; i < ncpus; i++)
		kshim_task_join(t[i]);
	WRITE_ONCE(r.stop, true);
	/* the chain of self-requeues ends by itself */
	KSHIM_ASSERT(POLL_UNTIL(atomic_read(&r.runs) > r.self_requeues &&
				!work_busy(&r.work)));
	flush_work(&r.work);
	KSHIM_ASSERT_EQ(atomic_read(&r.overlap), 0);
	KSHIM_ASSERT(atomic_read(&r.runs) > r.self_requeues);
	destroy_workqueue(r.wq);
}

/* Requeued on another CPU while running: runs after, on the first CPU. */
struct xcpu {
	struct work_struct work;
	atomic_t running, overlap, starts;
	int cpus[2];
	bool release;
	struct completion first_started;
};

static void xcpu_fn(struct work_struct *work)
{
	struct xcpu *x = container_of(work, struct xcpu, work);
	int n = atomic_inc_return(&x->starts);

	if (atomic_inc_return(&x->running) != 1)
		atomic_inc(&x->overlap);
	if (n <= 2)
		x->cpus[n - 1] = raw_smp_processor_id();
	if (n == 1) {
		complete(&x->first_started);
		/* a broken workqueue starts the second run meanwhile */
		POLL_UNTIL_TIMEOUT(READ_ONCE(x->release) ||
				   atomic_read(&x->starts) >= 2, 5 * HZ);
	}
	atomic_dec(&x->running);
}

static void test_non_reentrant_across_cpus(void)
{
	struct workqueue_struct *wq = alloc_workqueue("wqtest-xcpu", 0, 0);
	struct flush_task ft;
	struct xcpu x = { };

	KSHIM_ASSERT_FATAL(wq != NULL);
	INIT_WORK(&x.work, xcpu_fn);
	init_completion(&x.first_started);
	KSHIM_ASSERT(queue_work_on(0, wq, &x.work));
	wait_for_completion(&x.first_started);
	KSHIM_ASSERT(!work_pending(&x.work));	/* cleared before it ran */
	KSHIM_ASSERT(queue_work_on(other_cpu(), wq, &x.work));
	flush_task_start(&ft, &x.work, other_cpu());
	KSHIM_ASSERT(flush_task_sleeps(&ft));
	WRITE_ONCE(x.release, true);
	KSHIM_ASSERT_EQ(flush_task_join(&ft), 1);	/* the second queueing */
	KSHIM_ASSERT_EQ(atomic_read(&x.starts), 2);
	KSHIM_ASSERT_EQ(atomic_read(&x.overlap), 0);
	KSHIM_ASSERT_EQ(x.cpus[0], 0);
	KSHIM_ASSERT_EQ(x.cpus[1], 0);		/* where it was still running */
	destroy_workqueue(wq);
}

/* ==== per-CPU placement ================================================== */

struct placed {
	struct probe p[MAX_TEST_CPUS];
	struct workqueue_struct *wq;
	atomic_t refused;
};

static void queue_from_this_cpu(void *arg)
{
	struct placed *pl = arg;
	struct probe *p = &pl->p[raw_smp_processor_id()];

	if (!queue_work(pl->wq, &p->work))	/* WORK_CPU_UNBOUND */
		atomic_inc(&pl->refused);
	flush_work(&p->work);
}

static void test_bound_work_runs_on_its_cpu(void)
{
	int ncpus = min_t(int, nr_cpu_ids, MAX_TEST_CPUS), cpu;
	struct placed *pl = kzalloc(sizeof(*pl), GFP_KERNEL);
	struct task_struct *t;

	KSHIM_ASSERT_FATAL(pl != NULL);
	pl->wq = alloc_workqueue("wqtest-percpu", 0, 0);
	KSHIM_ASSERT_FATAL(pl->wq != NULL);

	/* queue_work_on(cpu) from CPU 0 */
	for (cpu = 0; cpu < ncpus; cpu++) {
		probe_init(&pl->p[cpu]);
		KSHIM_ASSERT(queue_work_on(cpu, pl->wq, &pl->p[cpu].work));
	}
	flush_workqueue(pl->wq);
	for (cpu = 0; cpu < ncpus; cpu++) {
		KSHIM_ASSERT_EQ(atomic_read(&pl->p[cpu].runs), 1);
		KSHIM_ASSERT_EQ(pl->p[cpu].cpu, cpu);
		KSHIM_ASSERT_EQ(pl->p[cpu].task_cpu, cpu);
	}

	/* queue_work() from a task on each CPU: the queueing CPU */
	for (cpu = 0; cpu < ncpus; cpu++) {
		probe_init(&pl->p[cpu]);
		t = kshim_task_run(queue_from_this_cpu, pl, "wq_queuer", cpu);
		kshim_task_join(t);
		KSHIM_ASSERT_EQ(atomic_read(&pl->p[cpu].runs), 1);
		KSHIM_ASSERT_EQ(pl->p[cpu].cpu, cpu);
	}
	KSHIM_ASSERT_EQ(atomic_read(&pl->refused), 0);

	/* schedule_work_on(): the system per-CPU workqueue */
	for (cpu = 0; cpu < ncpus; cpu++) {
		probe_init(&pl->p[cpu]);
		KSHIM_ASSERT(schedule_work_on(cpu, &pl->p[cpu].work));
		flush_work(&pl->p[cpu].work);
		KSHIM_ASSERT_EQ(pl->p[cpu].cpu, cpu);
	}
	destroy_workqueue(pl->wq);
	kfree(pl);
}

/*
 * A CPU's kworker does not run while another task holds that CPU with
 * preemption off, not even a work item already running: per-CPU code
 * such as xfs_inodegc_queue() adds to the CPU's list and arms the CPU's
 * worker under get_cpu(), and relies on the worker, which may be in the
 * middle of its work function, not emptying the list in between. Here
 * the work item counts its steps (switch points, where the scheduler may
 * run anyone); the holder gives the scheduler many chances and the count
 * must not move. The det backend keeps the rule; the parallel backend's
 * host threads cannot (FAKES.md), so there only the rest is checked.
 */
struct held_cpu {
	struct work_struct work;
	atomic_t steps;
	bool started, stop;
	int cpu, ran_on;
	int moved_while_held;
};

static void held_cpu_fn(struct work_struct *work)
{
	struct held_cpu *h = container_of(work, struct held_cpu, work);

	h->ran_on = raw_smp_processor_id();
	WRITE_ONCE(h->started, true);
	while (!READ_ONCE(h->stop)) {
		atomic_inc(&h->steps);
		kshim_switch_point(KSHIM_SW_CPU_RELAX, NULL);
	}
}

static void hold_cpu(void *arg)
{
	struct held_cpu *h = arg;
	int i, before;

	get_cpu();
	before = atomic_read(&h->steps);
	for (i = 0; i < 2000; i++)
		kshim_switch_point(KSHIM_SW_CPU_RELAX, NULL);
	h->moved_while_held = atomic_read(&h->steps) - before;
	put_cpu();
}

static void test_bound_worker_waits_while_its_cpu_is_held(void)
{
	struct held_cpu h = { .cpu = nr_cpu_ids - 1, .ran_on = -1 };
	struct task_struct *t;

	INIT_WORK(&h.work, held_cpu_fn);
	KSHIM_ASSERT(queue_work_on(h.cpu, system_wq, &h.work));
	KSHIM_ASSERT(POLL_UNTIL(READ_ONCE(h.started)));
	t = kshim_task_run(hold_cpu, &h, "cpu_holder", h.cpu);
	kshim_task_join(t);
	WRITE_ONCE(h.stop, true);
	flush_work(&h.work);
	/* Both backends: the item ran on its CPU's worker. */
	KSHIM_ASSERT_EQ(h.ran_on, h.cpu);
	if (!strcmp(kshim_sched->name, "det"))
		KSHIM_ASSERT_EQ(h.moved_while_held, 0);
}

/* ==== delayed work ======================================================= */

struct dw_item {
	struct delayed_work dw;
	unsigned long ran_at;
	int cpu;
	int id;
	struct completion done;
};

static int dw_order[4];
static atomic_t dw_seq;

static void dw_fn(struct work_struct *work)
{
	struct dw_item *it = container_of(to_delayed_work(work),
					  struct dw_item, dw);
	int seq = atomic_inc_return(&dw_seq) - 1;

	it->ran_at = jiffies;
	it->cpu = raw_smp_processor_id();
	if (seq < ARRAY_SIZE(dw_order))	/* order kept where a test resets it */
		dw_order[seq] = it->id;
	complete(&it->done);
}

/*
 * Wait for the item's run, then for the end of the item itself: the
 * completion is re-initialised next, and the worker's complete() must
 * have left it (its lock) by then, which flush_work() orders.
 */
static void dw_wait(struct dw_item *it)
{
	wait_for_completion(&it->done);
	flush_work(&it->dw.work);
}

static void dw_init(struct dw_item *it, int id)
{
	INIT_DELAYED_WORK(&it->dw, dw_fn);
	init_completion(&it->done);
	it->id = id;
	it->cpu = -1;
}

static void test_delayed_work_runs_no_earlier_than_its_delay(void)
{
	struct workqueue_struct *wq = alloc_workqueue("wqtest-dw", 0, 0);
	struct dw_item a, b;
	unsigned long j0;

	KSHIM_ASSERT_FATAL(wq != NULL);
	dw_init(&a, 0);
	j0 = jiffies;
	KSHIM_ASSERT(queue_delayed_work(wq, &a.dw, 10));
	dw_wait(&a);
	KSHIM_ASSERT(time_after_eq(a.ran_at, j0 + 10));
	KSHIM_ASSERT(!delayed_work_pending(&a.dw));

	/* pending while on its timer (not on a queue): a second queue fails */
	dw_init(&a, 0);
	KSHIM_ASSERT(queue_delayed_work(wq, &a.dw, 100 * HZ));
	KSHIM_ASSERT(delayed_work_pending(&a.dw));
	KSHIM_ASSERT(timer_pending(&a.dw.timer));
	KSHIM_ASSERT(!(work_data_now(&a.dw.work) & WORK_STRUCT_PWQ));
	KSHIM_ASSERT(!queue_delayed_work(wq, &a.dw, 1));
	KSHIM_ASSERT(!queue_work(wq, &a.dw.work));
	/* flush_delayed_work() queues it now and waits for it */
	flush_delayed_work(&a.dw);	/* true unless it already ran: racy */
	KSHIM_ASSERT(completion_done(&a.done));
	KSHIM_ASSERT(!delayed_work_pending(&a.dw));
	KSHIM_ASSERT(!timer_pending(&a.dw.timer));

	/* delay 0: queued at once, no timer */
	dw_init(&a, 0);
	KSHIM_ASSERT(queue_delayed_work(wq, &a.dw, 0));
	KSHIM_ASSERT(!timer_pending(&a.dw.timer));
	dw_wait(&a);

	/* on a given CPU of a per-CPU workqueue, after the delay */
	dw_init(&b, 1);
	j0 = jiffies;
	KSHIM_ASSERT(queue_delayed_work_on(other_cpu(), wq, &b.dw, 3));
	dw_wait(&b);
	KSHIM_ASSERT(time_after_eq(b.ran_at, j0 + 3));
	KSHIM_ASSERT_EQ(b.cpu, other_cpu());
	destroy_workqueue(wq);
}

static void test_mod_delayed_work_moves_it(void)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("wqtest-mod", 0);
	struct blocker blk;
	struct dw_item a, s;
	unsigned long j;

	KSHIM_ASSERT_FATAL(wq != NULL);

	/* Earlier: a (1000 -> 5) runs before s (250), after its new delay. */
	atomic_set(&dw_seq, 0);
	dw_init(&a, 1);
	dw_init(&s, 2);
	KSHIM_ASSERT(queue_delayed_work(wq, &a.dw, 1000));
	KSHIM_ASSERT(queue_delayed_work(wq, &s.dw, 250));
	j = jiffies;
	KSHIM_ASSERT(mod_delayed_work(wq, &a.dw, 5));	/* was pending */
	dw_wait(&a);
	dw_wait(&s);
	KSHIM_ASSERT_EQ(dw_order[0], 1);
	KSHIM_ASSERT_EQ(dw_order[1], 2);
	KSHIM_ASSERT(time_after_eq(a.ran_at, j + 5));

	/*
	 * Later: a (100 -> 200) runs after s (100, armed after the mod). A
	 * blocker holds the ordered wq, so a is still pending at the mod even
	 * if its first timer fired (mod then steals it off the queue).
	 */
	atomic_set(&dw_seq, 0);
	dw_init(&a, 1);
	dw_init(&s, 2);
	blocker_init(&blk);
	queue_work(wq, &blk.work);
	wait_for_completion(&blk.started);
	KSHIM_ASSERT(queue_delayed_work(wq, &a.dw, 100));
	j = jiffies;
	KSHIM_ASSERT(mod_delayed_work(wq, &a.dw, 200));
	KSHIM_ASSERT(queue_delayed_work(wq, &s.dw, 100));
	complete(&blk.release);
	dw_wait(&a);
	dw_wait(&s);
	KSHIM_ASSERT_EQ(dw_order[0], 2);
	KSHIM_ASSERT_EQ(dw_order[1], 1);
	KSHIM_ASSERT(time_after_eq(a.ran_at, j + 200));

	/* Idle: mod_delayed_work() queues it and returns false. */
	dw_init(&a, 1);
	KSHIM_ASSERT(!mod_delayed_work(wq, &a.dw, 0));
	dw_wait(&a);
	flush_workqueue(wq);
	destroy_workqueue(wq);
}

/* ==== cancelling ========================================================= */

struct slow {
	struct work_struct work;
	struct workqueue_struct *wq;
	struct completion started, release;
	atomic_t runs, finished;
	bool wait_release;
	bool requeue_forever;
	int cancel_ret;
};

static void slow_fn(struct work_struct *work)
{
	struct slow *s = container_of(work, struct slow, work);

	atomic_inc(&s->runs);
	complete(&s->started);
	if (s->wait_release)
		wait_for_completion(&s->release);
	else
		schedule_timeout_uninterruptible(3);
	if (s->requeue_forever)
		queue_work(s->wq, work);
	atomic_inc(&s->finished);
}

static void slow_init(struct slow *s, struct workqueue_struct *wq)
{
	memset(s, 0, sizeof(*s));
	INIT_WORK(&s->work, slow_fn);
	s->wq = wq;
	init_completion(&s->started);
	init_completion(&s->release);
}

static void canceller(void *arg)
{
	struct slow *s = arg;

	s->cancel_ret = cancel_work_sync(&s->work);
}

static void test_cancel_work_sync_returns_pending_and_waits(void)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("wqtest-cancel", 0);
	struct task_struct *t;
	struct blocker b;
	struct slow s;

	KSHIM_ASSERT_FATAL(wq != NULL);

	/* idle */
	slow_init(&s, wq);
	KSHIM_ASSERT(!cancel_work_sync(&s.work));
	KSHIM_ASSERT(!cancel_work(&s.work));

	/* queued, not running: true, and it never runs */
	blocker_init(&b);
	queue_work(wq, &b.work);
	wait_for_completion(&b.started);
	KSHIM_ASSERT(queue_work(wq, &s.work));
	KSHIM_ASSERT(cancel_work_sync(&s.work));
	KSHIM_ASSERT(!work_pending(&s.work));
	KSHIM_ASSERT(queue_work(wq, &s.work));
	KSHIM_ASSERT(cancel_work(&s.work));
	complete(&b.release);
	flush_workqueue(wq);
	KSHIM_ASSERT_EQ(atomic_read(&s.runs), 0);

	/* running, not pending: false, after the run finished */
	slow_init(&s, wq);
	queue_work(wq, &s.work);
	wait_for_completion(&s.started);
	KSHIM_ASSERT(!cancel_work_sync(&s.work));
	KSHIM_ASSERT_EQ(atomic_read(&s.finished), 1);
	flush_work(&s.work);		/* (only needed if the above failed) */

	/*
	 * Running and requeued: true; while it waits the item is disabled (a
	 * racing queue_work() fails); afterwards it can be queued again.
	 */
	slow_init(&s, wq);
	s.wait_release = true;
	queue_work(wq, &s.work);
	wait_for_completion(&s.started);
	KSHIM_ASSERT(queue_work(wq, &s.work));
	t = kshim_task_run(canceller, &s, "wq_canceller", other_cpu());
	KSHIM_ASSERT(POLL_UNTIL(!(work_data_now(&s.work) & WORK_STRUCT_PWQ) &&
				(work_data_now(&s.work) & WORK_OFFQ_DISABLE_MASK)));
	KSHIM_ASSERT(!queue_work(wq, &s.work));
	KSHIM_ASSERT_EQ(atomic_read(&s.finished), 0);
	complete(&s.release);
	kshim_task_join(t);
	KSHIM_ASSERT_EQ(s.cancel_ret, 1);
	KSHIM_ASSERT_EQ(atomic_read(&s.finished), 1);
	KSHIM_ASSERT_EQ(atomic_read(&s.runs), 1);	/* requeue never ran */
	KSHIM_ASSERT(!(work_data_now(&s.work) & WORK_OFFQ_DISABLE_MASK));
	s.wait_release = false;
	KSHIM_ASSERT(queue_work(wq, &s.work));
	flush_work(&s.work);
	KSHIM_ASSERT_EQ(atomic_read(&s.runs), 2);
	destroy_workqueue(wq);
}

static void test_cancel_sync_stops_a_self_requeueing_item(void)
{
	struct workqueue_struct *wq = alloc_workqueue("wqtest-forever", 0, 0);
	struct slow s;
	int runs;

	KSHIM_ASSERT_FATAL(wq != NULL);
	slow_init(&s, wq);
	s.requeue_forever = true;
	queue_work(wq, &s.work);
	KSHIM_ASSERT(POLL_UNTIL(atomic_read(&s.runs) >= 5));
	cancel_work_sync(&s.work);
	runs = atomic_read(&s.runs);
	KSHIM_ASSERT_EQ(atomic_read(&s.finished), runs);
	KSHIM_ASSERT(!work_pending(&s.work));
	KSHIM_ASSERT_EQ(work_busy(&s.work), 0);
	msleep(30);
	KSHIM_ASSERT_EQ(atomic_read(&s.runs), runs);	/* no run after */
	destroy_workqueue(wq);
}

static void test_cancel_delayed_work(void)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("wqtest-canceldw", 0);
	struct blocker blk;
	struct dw_item a;

	KSHIM_ASSERT_FATAL(wq != NULL);
	dw_init(&a, 0);
	KSHIM_ASSERT(!cancel_delayed_work_sync(&a.dw));
	KSHIM_ASSERT(!cancel_delayed_work(&a.dw));

	/* on its timer */
	KSHIM_ASSERT(queue_delayed_work(wq, &a.dw, 100 * HZ));
	KSHIM_ASSERT(cancel_delayed_work_sync(&a.dw));
	KSHIM_ASSERT(!delayed_work_pending(&a.dw));
	KSHIM_ASSERT(!timer_pending(&a.dw.timer));
	KSHIM_ASSERT(queue_delayed_work(wq, &a.dw, 100 * HZ));
	KSHIM_ASSERT(cancel_delayed_work(&a.dw));
	KSHIM_ASSERT(!cancel_delayed_work(&a.dw));

	/* timer fired, queued behind a blocker: stolen off the queue */
	blocker_init(&blk);
	queue_work(wq, &blk.work);
	wait_for_completion(&blk.started);
	KSHIM_ASSERT(queue_delayed_work(wq, &a.dw, 1));
	KSHIM_ASSERT(POLL_UNTIL(work_data_now(&a.dw.work) & WORK_STRUCT_PWQ));
	KSHIM_ASSERT(cancel_delayed_work_sync(&a.dw));
	KSHIM_ASSERT(!delayed_work_pending(&a.dw));
	complete(&blk.release);
	flush_workqueue(wq);
	KSHIM_ASSERT(!completion_done(&a.done));	/* never ran */

	/* mod_delayed_work() on a cancelled item works as on a fresh one */
	KSHIM_ASSERT(!mod_delayed_work(wq, &a.dw, 1));
	dw_wait(&a);
	destroy_workqueue(wq);
}

/* ==== disable / enable, rcu_work ========================================= */

static void test_disable_and_enable_work(void)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("wqtest-disable", 0);
	struct blocker b;
	struct probe p;

	KSHIM_ASSERT_FATAL(wq != NULL);
	probe_init(&p);
	KSHIM_ASSERT(!disable_work(&p.work));		/* was idle */
	KSHIM_ASSERT(!queue_work(wq, &p.work));
	KSHIM_ASSERT(!work_pending(&p.work));
	KSHIM_ASSERT(!disable_work(&p.work));		/* depth 2 */
	KSHIM_ASSERT(!enable_work(&p.work));		/* still 1 */
	KSHIM_ASSERT(!queue_work(wq, &p.work));
	KSHIM_ASSERT(enable_work(&p.work));
	KSHIM_ASSERT(queue_work(wq, &p.work));
	flush_work(&p.work);
	KSHIM_ASSERT_EQ(atomic_read(&p.runs), 1);

	/* disabling a queued item cancels it */
	blocker_init(&b);
	queue_work(wq, &b.work);
	wait_for_completion(&b.started);
	KSHIM_ASSERT(queue_work(wq, &p.work));
	KSHIM_ASSERT(disable_work_sync(&p.work));
	complete(&b.release);
	flush_workqueue(wq);
	KSHIM_ASSERT_EQ(atomic_read(&p.runs), 1);
	KSHIM_ASSERT(enable_work(&p.work));
	destroy_workqueue(wq);
}

struct rcu_probe {
	struct rcu_work rwork;
	atomic_t runs;
};

static void rcu_probe_fn(struct work_struct *work)
{
	struct rcu_probe *r = container_of(to_rcu_work(work), struct rcu_probe,
					   rwork);

	atomic_inc(&r->runs);
}

static void test_queue_rcu_work(void)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("wqtest-rcu", 0);
	struct rcu_probe r = { };
	struct blocker blk;

	KSHIM_ASSERT_FATAL(wq != NULL);
	INIT_RCU_WORK(&r.rwork, rcu_probe_fn);
	/* behind a blocker: pending until it runs, whenever the GP ends */
	blocker_init(&blk);
	queue_work(wq, &blk.work);
	wait_for_completion(&blk.started);
	KSHIM_ASSERT(queue_rcu_work(wq, &r.rwork));
	KSHIM_ASSERT(!queue_rcu_work(wq, &r.rwork));
	rcu_barrier();			/* the grace period ended: queued now */
	KSHIM_ASSERT(work_data_now(&r.rwork.work) & WORK_STRUCT_PWQ);
	KSHIM_ASSERT_EQ(atomic_read(&r.runs), 0);
	complete(&blk.release);
	flush_rcu_work(&r.rwork);	/* true unless it already ran: racy */
	KSHIM_ASSERT_EQ(atomic_read(&r.runs), 1);
	KSHIM_ASSERT(!flush_rcu_work(&r.rwork));
	destroy_workqueue(wq);
}

/* ==== flushing =========================================================== */

struct flushed {
	struct work_struct work;
	atomic_t done;
	int sleep;
};

static void flushed_fn(struct work_struct *work)
{
	struct flushed *f = container_of(work, struct flushed, work);

	schedule_timeout_uninterruptible(f->sleep);
	atomic_inc(&f->done);
}

static void test_flush_work_waits_for_the_run(void)
{
	struct workqueue_struct *wq = alloc_workqueue("wqtest-flush", 0, 0);
	struct flush_task ft[3];
	struct flushed never = { };
	struct slow s;
	int i;

	KSHIM_ASSERT_FATAL(wq != NULL);
	INIT_WORK(&never.work, flushed_fn);
	KSHIM_ASSERT(!flush_work(&never.work));		/* never queued */

	/* three flushers on other CPUs, all asleep while the item runs */
	slow_init(&s, wq);
	s.wait_release = true;
	queue_work(wq, &s.work);
	wait_for_completion(&s.started);
	for (i = 0; i < 3; i++)
		flush_task_start(&ft[i], &s.work, (i + 1) % nr_cpu_ids);
	for (i = 0; i < 3; i++)
		KSHIM_ASSERT(flush_task_sleeps(&ft[i]));
	KSHIM_ASSERT_EQ(atomic_read(&s.finished), 0);
	complete(&s.release);
	for (i = 0; i < 3; i++)
		KSHIM_ASSERT_EQ(flush_task_join(&ft[i]), 1);
	KSHIM_ASSERT_EQ(atomic_read(&s.finished), 1);
	KSHIM_ASSERT(!flush_work(&s.work));		/* idle now */
	destroy_workqueue(wq);
}

#define FLUSH_N	32

static void test_flush_workqueue_waits_for_earlier_items_only(void)
{
	struct workqueue_struct *wq = alloc_workqueue("wqtest-flushwq", 0, 4);
	struct flushed *f = kcalloc(FLUSH_N, sizeof(*f), GFP_KERNEL);
	struct slow forever;
	int i, done = 0;

	KSHIM_ASSERT_FATAL(wq && f);
	/* an item that requeues itself without end: flush must not wait for it */
	slow_init(&forever, wq);
	forever.requeue_forever = true;
	queue_work(wq, &forever.work);
	for (i = 0; i < FLUSH_N; i++) {
		INIT_WORK(&f[i].work, flushed_fn);
		f[i].sleep = i % 4;
		queue_work_on(i % nr_cpu_ids, wq, &f[i].work);
	}
	flush_workqueue(wq);
	for (i = 0; i < FLUSH_N; i++)
		done += atomic_read(&f[i].done);
	KSHIM_ASSERT_EQ(done, FLUSH_N);
	cancel_work_sync(&forever.work);
	destroy_workqueue(wq);
	kfree(f);
}

/* ==== draining and destroying ============================================ */

struct chain {
	struct work_struct work;
	struct workqueue_struct *wq;
	atomic_t runs;
	atomic_t refused;
	int n;
};

static void chain_fn(struct work_struct *work)
{
	struct chain *c = container_of(work, struct chain, work);

	if (atomic_inc_return(&c->runs) < c->n) {
		if (atomic_read(&c->runs) % 3 == 0)
			schedule_timeout_uninterruptible(1);
		if (!queue_work(c->wq, work))	/* chained: allowed */
			atomic_inc(&c->refused);
	}
}

static void test_drain_workqueue_runs_self_requeueing_chain(void)
{
	struct workqueue_struct *wq = alloc_workqueue("wqtest-drain", 0, 0);
	struct chain c[3] = { };
	int i;

	KSHIM_ASSERT_FATAL(wq != NULL);
	for (i = 0; i < 3; i++) {
		INIT_WORK(&c[i].work, chain_fn);
		c[i].wq = wq;
		c[i].n = 20;
		queue_work_on(i % nr_cpu_ids, wq, &c[i].work);
	}
	drain_workqueue(wq);
	for (i = 0; i < 3; i++) {
		KSHIM_ASSERT_EQ(atomic_read(&c[i].runs), 20);
		KSHIM_ASSERT_EQ(atomic_read(&c[i].refused), 0);
		KSHIM_ASSERT(!work_pending(&c[i].work));
	}
	/* draining is over: queueing from outside works again */
	c[0].n = 0;
	KSHIM_ASSERT(queue_work(wq, &c[0].work));
	flush_work(&c[0].work);
	KSHIM_ASSERT_EQ(atomic_read(&c[0].runs), 21);
	destroy_workqueue(wq);
}

static void drainer(void *arg)
{
	drain_workqueue(arg);
}

static void test_queue_from_outside_while_draining_warns(void)
{
	struct workqueue_struct *wq = alloc_workqueue("wqtest-drainwarn", 0, 0);
	struct task_struct *t;
	struct blocker b;
	struct probe p;

	KSHIM_ASSERT_FATAL(wq != NULL);
	blocker_init(&b);
	probe_init(&p);
	queue_work(wq, &b.work);
	wait_for_completion(&b.started);
	t = kshim_task_run(drainer, wq, "wq_drainer", other_cpu());
	/* The drainer sleeps in its flush only once draining has begun. */
	KSHIM_ASSERT(POLL_UNTIL(READ_ONCE(t->__state) == TASK_UNINTERRUPTIBLE));
	kshim_test_expect_warns(1);
	KSHIM_ASSERT(queue_work(wq, &p.work));	/* PENDING taken... */
	KSHIM_ASSERT(work_pending(&p.work));	/* ...and kept, as the kernel */
	complete(&b.release);
	kshim_task_join(t);
	KSHIM_ASSERT_EQ(atomic_read(&p.runs), 0);	/* never queued */
	destroy_workqueue(wq);
}

#define DESTROY_PER_CPU	4

static void test_destroy_workqueue_runs_pending_work(void)
{
	int ncpus = min_t(int, nr_cpu_ids, MAX_TEST_CPUS), i, n;
	struct workqueue_struct *wq = alloc_workqueue("wqtest-destroy", 0, 1);
	struct flushed *f;
	struct chain c = { };
	int done = 0;

	KSHIM_ASSERT_FATAL(wq != NULL);
	n = ncpus * DESTROY_PER_CPU;
	f = kcalloc(n, sizeof(*f), GFP_KERNEL);
	KSHIM_ASSERT_FATAL(f != NULL);
	/* max_active 1: one active per CPU, the rest inactive */
	for (i = 0; i < n; i++) {
		INIT_WORK(&f[i].work, flushed_fn);
		f[i].sleep = 1;
		KSHIM_ASSERT(queue_work_on(i % ncpus, wq, &f[i].work));
	}
	INIT_WORK(&c.work, chain_fn);
	c.wq = wq;
	c.n = 10;
	queue_work(wq, &c.work);
	destroy_workqueue(wq);
	for (i = 0; i < n; i++) {
		done += atomic_read(&f[i].done);
		KSHIM_ASSERT(!work_pending(&f[i].work));
	}
	KSHIM_ASSERT_EQ(done, n);
	KSHIM_ASSERT_EQ(atomic_read(&c.runs), 10);
	KSHIM_ASSERT_EQ(atomic_read(&c.refused), 0);
	kfree(f);
}

/* ==== self-flush: the deadlocks lockdep would report ===================== */

struct selfish {
	struct work_struct work;
	struct work_struct *target;
	struct workqueue_struct *wq;
	int how;			/* 0 flush_work, 1 cancel_work_sync, 2 flush_workqueue */
	int ret;
	struct completion go;
};

static void selfish_fn(struct work_struct *work)
{
	struct selfish *s = container_of(work, struct selfish, work);

	wait_for_completion(&s->go);
	switch (s->how) {
	case 0:
		s->ret = flush_work(s->target);
		break;
	case 1:
		s->ret = cancel_work_sync(s->target);
		break;
	case 2:
		flush_workqueue(s->wq);
		s->ret = 0;
		break;
	}
}

static void run_selfish(int how, bool target_self)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("wqtest-self", 0);
	struct selfish s = { .how = how, .ret = -1 };
	struct probe sibling;

	KSHIM_ASSERT_FATAL(wq != NULL);
	probe_init(&sibling);
	INIT_WORK(&s.work, selfish_fn);
	init_completion(&s.go);
	s.wq = wq;
	s.target = target_self ? &s.work : &sibling.work;
	kshim_test_expect_warns(1);
	queue_work(wq, &s.work);
	if (!target_self)
		queue_work(wq, &sibling.work);	/* behind it: never starts first */
	complete(&s.go);
	flush_workqueue(wq);			/* returns: no deadlock */
	KSHIM_ASSERT_EQ(s.ret, 0);		/* did not wait */
	if (!target_self)
		KSHIM_ASSERT_EQ(atomic_read(&sibling.runs), 1);
	destroy_workqueue(wq);
}

static void test_flush_work_from_itself_warns(void)
{
	run_selfish(0, true);
}

static void test_cancel_work_sync_from_itself_warns(void)
{
	run_selfish(1, true);
}

static void test_flush_workqueue_from_its_own_work_warns(void)
{
	run_selfish(2, true);
}

static void test_flush_sibling_on_ordered_wq_warns(void)
{
	run_selfish(0, false);
}

/* ==== system workqueues, BH, helpers ===================================== */

static atomic_t each_cpu_mask;

static void each_cpu_fn(struct work_struct *work)
{
	atomic_or(1 << raw_smp_processor_id(), &each_cpu_mask);
}

static long on_cpu_fn(void *arg)
{
	return raw_smp_processor_id() * 100 + (long)arg;
}

static void test_system_workqueues(void)
{
	struct workqueue_struct *all[] = {
		system_wq, system_highpri_wq, system_long_wq,
		system_unbound_wq, system_freezable_wq,
		system_power_efficient_wq, system_freezable_power_efficient_wq,
		system_bh_wq, system_bh_highpri_wq,
	};
	struct dw_item d;
	struct probe p;
	int i, ncpus = min_t(int, nr_cpu_ids, 31);

	for (i = 0; i < ARRAY_SIZE(all); i++) {
		KSHIM_ASSERT_NOT_NULL(all[i]);
		probe_init(&p);
		KSHIM_ASSERT(queue_work(all[i], &p.work));
		flush_work(&p.work);
		KSHIM_ASSERT_EQ(atomic_read(&p.runs), 1);
	}

	probe_init(&p);
	KSHIM_ASSERT(schedule_work(&p.work));
	flush_work(&p.work);
	KSHIM_ASSERT_EQ(atomic_read(&p.runs), 1);
	KSHIM_ASSERT(p.in_task);

	dw_init(&d, 0);
	KSHIM_ASSERT(schedule_delayed_work(&d.dw, 1));
	dw_wait(&d);

	/* BH: softirq context on the queueing CPU, not a worker's item */
	probe_init(&p);
	KSHIM_ASSERT(queue_work(system_bh_wq, &p.work));
	flush_work(&p.work);
	KSHIM_ASSERT(!p.in_task);
	KSHIM_ASSERT(p.in_softirq);
	KSHIM_ASSERT_NULL(p.current_work);
	KSHIM_ASSERT_EQ(p.cpu, raw_smp_processor_id());
	probe_init(&p);
	KSHIM_ASSERT(queue_work(system_bh_wq, &p.work));
	cancel_work_sync(&p.work);

	atomic_set(&each_cpu_mask, 0);
	KSHIM_ASSERT_EQ(schedule_on_each_cpu(each_cpu_fn), 0);
	if (nr_cpu_ids <= 31)
		KSHIM_ASSERT_EQ(atomic_read(&each_cpu_mask), (1 << ncpus) - 1);

	KSHIM_ASSERT_EQ(work_on_cpu(other_cpu(), on_cpu_fn, (void *)7L),
			other_cpu() * 100 + 7);
}

/* ==== what the kernel checks after each work function ==================== */

static void rcu_lock_fn(struct work_struct *work)
{
	rcu_read_lock();
}

static void rcu_unlock_fn(struct work_struct *work)
{
	rcu_read_unlock();
}

static void test_leaked_rcu_read_lock_is_reported(void)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("wqtest-leak", 0);
	struct work_struct lock, unlock;

	KSHIM_ASSERT_FATAL(wq != NULL);
	INIT_WORK(&lock, rcu_lock_fn);
	INIT_WORK(&unlock, rcu_unlock_fn);
	/* one worker, back to back: the second item restores the balance */
	kshim_test_expect_reports(2);
	kshim_printk_clear();
	queue_work(wq, &lock);
	queue_work(wq, &unlock);
	flush_workqueue(wq);
	KSHIM_ASSERT(kshim_printk_contains("BUG: workqueue leaked atomic, lock or RCU"));
	destroy_workqueue(wq);
}

/* ==== allocation failure ================================================= */

static void test_worker_creation_failure_is_retried(void)
{
	struct workqueue_struct *wq, *reclaim;
	struct probe p;

	kshim_alloc_fail_every(1);
	KSHIM_ASSERT_NULL(alloc_workqueue("wqtest-nomem", 0, 0));
	kshim_alloc_fail_every(0);

	wq = alloc_workqueue("wqtest-retry", WQ_UNBOUND, 0);
	reclaim = alloc_workqueue("wqtest-reclaim", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	KSHIM_ASSERT_FATAL(wq && reclaim);

	/* WQ_MEM_RECLAIM: its worker exists, no allocation needed to run */
	probe_init(&p);
	kshim_alloc_fail_every(1);
	queue_work(reclaim, &p.work);
	flush_work(&p.work);
	KSHIM_ASSERT_EQ(atomic_read(&p.runs), 1);

	/* no worker yet, none can be created: it waits, and runs later */
	probe_init(&p);
	queue_work(wq, &p.work);
	schedule_timeout_uninterruptible(5);
	KSHIM_ASSERT_EQ(atomic_read(&p.runs), 0);
	kshim_alloc_fail_every(0);
	flush_work(&p.work);
	KSHIM_ASSERT_EQ(atomic_read(&p.runs), 1);
	destroy_workqueue(wq);
	destroy_workqueue(reclaim);
}

static const struct kshim_test wq_basic_tests[] = {
	KSHIM_TEST(test_queue_sets_pending_and_runs_once),
	KSHIM_TEST(test_system_workqueues),
	KSHIM_TEST(test_bound_work_runs_on_its_cpu),
	KSHIM_TEST(test_bound_worker_waits_while_its_cpu_is_held),
	{ }
};

static const struct kshim_test wq_concurrency_tests[] = {
	KSHIM_TEST(test_ordered_runs_fifo_one_at_a_time),
	KSHIM_TEST(test_max_active_unbound_is_global),
	KSHIM_TEST(test_max_active_bound_is_per_cpu),
	KSHIM_TEST(test_set_max_active_raises_the_bound),
	KSHIM_TEST(test_non_reentrant_when_requeued_while_running),
	KSHIM_TEST(test_non_reentrant_across_cpus),
	{ }
};

static const struct kshim_test wq_delayed_tests[] = {
	KSHIM_TEST(test_delayed_work_runs_no_earlier_than_its_delay),
	KSHIM_TEST(test_mod_delayed_work_moves_it),
	KSHIM_TEST(test_cancel_delayed_work),
	{ }
};

static const struct kshim_test wq_cancel_flush_tests[] = {
	KSHIM_TEST(test_cancel_work_sync_returns_pending_and_waits),
	KSHIM_TEST(test_cancel_sync_stops_a_self_requeueing_item),
	KSHIM_TEST(test_disable_and_enable_work),
	KSHIM_TEST(test_queue_rcu_work),
	KSHIM_TEST(test_flush_work_waits_for_the_run),
	KSHIM_TEST(test_flush_workqueue_waits_for_earlier_items_only),
	KSHIM_TEST(test_drain_workqueue_runs_self_requeueing_chain),
	KSHIM_TEST(test_queue_from_outside_while_draining_warns),
	KSHIM_TEST(test_destroy_workqueue_runs_pending_work),
	{ }
};

static const struct kshim_test wq_checks_tests[] = {
	KSHIM_TEST(test_flush_work_from_itself_warns),
	KSHIM_TEST(test_cancel_work_sync_from_itself_warns),
	KSHIM_TEST(test_flush_workqueue_from_its_own_work_warns),
	KSHIM_TEST(test_flush_sibling_on_ordered_wq_warns),
	KSHIM_TEST(test_leaked_rcu_read_lock_is_reported),
	KSHIM_TEST(test_worker_creation_failure_is_retried),
	{ }
};

KSHIM_SUITES({ "workqueue_basic", NULL, NULL, wq_basic_tests },
	     { "workqueue_concurrency", NULL, NULL, wq_concurrency_tests },
	     { "workqueue_delayed", NULL, NULL, wq_delayed_tests },
	     { "workqueue_cancel_flush", NULL, NULL, wq_cancel_flush_tests },
	     { "workqueue_checks", NULL, NULL, wq_checks_tests });
