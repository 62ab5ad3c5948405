// SPDX-License-Identifier: GPL-2.0
/*
 * The deterministic backend (KSHIM_BACKEND=det): exactly one task runs at a
 * time, every task a fiber on the one host thread. At every switch point
 * (lock acquire/release, wake-up, cond_resched, cpu_relax, block) a seeded
 * PRNG picks the next task, by uniform random walk or by PCT (random
 * priorities with KSHIM_PCT_DEPTH - 1 priority change points). Time is
 * virtual: it advances by KSHIM_DET_STEP_NS (100 ns) per decision, and
 * when no task can run, straight to the earliest timed wait. The same seed gives the same schedule: every
 * decision is folded into a trace hash printed at the end, and
 * KSHIM_SCHEDULE_FILE=path writes the decisions out. When no task can run
 * and no timed wait is pending, the run stops with a report of every task
 * and the seed that replays it.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <kshim/host.h>
#include <kshim/lock.h>
#include <kshim/sched.h>
#include <kshim/runtime.h>
#include "kshim_internal.h"

#define DET_STACK_SIZE	(256UL << 10)
/*
 * Frames kept of a task's call chain for a hang report: enough to reach
 * the test function's caller (libcunit) in a coverage build too, whose
 * det_wait() and block_current() are not inlined (8 stopped short there,
 * so detect_lost_completion failed in every prevalidate run).
 */
#define DET_WHERE_MAX	16

enum det_state { DET_RUNNABLE, DET_BLOCKED, DET_EXITED };

struct det_task {
	struct kshim_task *kt;
	struct kshim_fiber *fiber;
	enum det_state state;
	int runq_index;			/* in runq[] while runnable */
	u32 *word;			/* blocked on */
	const char *what;
	bool timed, timed_out;
	u64 deadline;
	bool started;			/* its fiber has run */
	u32 exited;			/* 1 once the body returned */
	u64 prio;			/* PCT priority: higher runs first */
	u64 rcu_unlocks;		/* outermost rcu_read_unlock()s */
	void *where[DET_WHERE_MAX];	/* call chain, for a hang report */
	int nwhere;
};

enum det_strategy { DET_RANDOM, DET_PCT };

static struct det_task **all;		/* every live task, creation order */
static int nall, all_cap;
static struct det_task **runq;
static int nrunq;
static struct det_task *cur;
static u64 now_ns;
static u64 rng;
static u64 steps;
static u64 trace_hash = 0xcbf29ce484222325ULL;	/* FNV-1a */
static enum det_strategy strategy;
static u64 pct_change[16];
static int pct_nchange;
/* Change points give priorities counting up from here, below every
 * initial one; spinning tasks get ones counting down from just below it,
 * so a spinner is below every task that is not spinning, and the one
 * that spun last is the lowest of all. */
#define PCT_CHANGE_BASE	(1ULL << 40)
static u64 pct_next_low = PCT_CHANGE_BASE;
static u64 pct_spin_low = PCT_CHANGE_BASE - 1;
/* Decisions in a row that kept the running task (see det_reschedule()). */
#define PCT_STREAK_MAX	100000
static u64 pct_streak;
static u64 pct_base;		/* steps before the tests began */
static int sched_fd = -1;
static u32 rcu_gen;
static u64 next_deadline = U64_MAX;	/* earliest timed wait, if any */
/*
 * Running costs time: each decision advances the clock by step_ns, so a
 * task that spins (cond_resched() until a timer fires) lets time reach
 * the timer, as on a real machine. max_steps bounds a livelock.
 */
static u64 step_ns = 100;
static u64 max_steps = 2000000000ULL;

/* Make room in array p (cap elements, count used) for one more. */
static void *grow(void *p, int *cap, int count, size_t elem)
{
	void *n;

	if (count < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 64;
	n = kshim_host_alloc(*cap * elem, 0);
	if (!n)
		kshim_fatal("deterministic scheduler: out of host memory");
	if (p) {
		memcpy(n, p, (size_t)count * elem);
		kshim_host_free(p);
	}
	return n;
}

static int runq_cap;

static void runq_add(struct det_task *dt)
{
	runq = grow(runq, &runq_cap, nrunq, sizeof(*runq));
	dt->runq_index = nrunq;
	runq[nrunq++] = dt;
}

static void runq_del(struct det_task *dt)
{
	struct det_task *last = runq[--nrunq];

	runq[dt->runq_index] = last;
	last->runq_index = dt->runq_index;
	dt->runq_index = -1;
}

static void make_runnable(struct det_task *dt)
{
	if (dt->state == DET_BLOCKED) {
		dt->state = DET_RUNNABLE;
		dt->word = NULL;
		runq_add(dt);
	}
}

static void det_init_once(void)
{
	static bool done;
	const char *s;

	if (done)
		return;
	done = true;
	rng = kshim_seed() * 0x9E3779B97F4A7C15ULL + 1;
	s = kshim_host_getenv("KSHIM_STRATEGY");
	if (s && !strcmp(s, "pct"))
		strategy = DET_PCT;
	else if (s && *s && strcmp(s, "random"))
		kshim_fatal("KSHIM_STRATEGY=%s: use random or pct", s);
	if (strategy == DET_PCT) {
		const char *d = kshim_host_getenv("KSHIM_PCT_DEPTH");
		const char *k = kshim_host_getenv("KSHIM_PCT_STEPS");
		u64 depth = d ? kshim_host_strtoull(d) : 3;
		u64 len = k ? kshim_host_strtoull(k) : 20000;
		int i;

		if (depth < 1 || depth > ARRAY_SIZE(pct_change) + 1)
			kshim_fatal("KSHIM_PCT_DEPTH must be 1..%zu",
				    ARRAY_SIZE(pct_change) + 1);
		pct_nchange = depth - 1;
		for (i = 0; i < pct_nchange; i++)
			pct_change[i] = 1 + kshim_random(&rng) % (len ? len : 1);
	}
	s = kshim_host_getenv("KSHIM_DET_STEP_NS");
	if (s && *s)
		step_ns = kshim_host_strtoull(s);
	s = kshim_host_getenv("KSHIM_DET_MAX_STEPS");
	if (s && *s)
		max_steps = kshim_host_strtoull(s);
	s = kshim_host_getenv("KSHIM_SCHEDULE_FILE");
	if (s && *s) {
		sched_fd = kshim_host_open_write(s);
		if (sched_fd < 0)
			kshim_fatal("cannot write KSHIM_SCHEDULE_FILE=%s", s);
	}
}

static struct det_task *det_new(struct kshim_task *kt)
{
	struct det_task *dt = kshim_host_alloc(sizeof(*dt), 0);

	if (!dt)
		kshim_fatal("deterministic scheduler: out of host memory");
	memset(dt, 0, sizeof(*dt));
	dt->kt = kt;
	dt->runq_index = -1;
	/* PCT: distinct random initial priorities above every change level. */
	dt->prio = (kshim_random(&rng) >> 8) + (1ULL << 56);
	kt->backend = dt;
	all = grow(all, &all_cap, nall, sizeof(*all));
	all[nall++] = dt;
	runq_add(dt);
	return dt;
}

static void det_forget(struct det_task *dt)
{
	int i;

	for (i = 0; i < nall; i++)
		if (all[i] == dt) {
			memmove(&all[i], &all[i + 1],
				(nall - i - 1) * sizeof(*all));
			nall--;
			break;
		}
	if (dt->runq_index >= 0)
		runq_del(dt);
}

/*
 * Wake every timed waiter whose deadline has come, and find the next
 * deadline. Only scans when one is due: this runs at every decision.
 */
static void expire_timeouts(void)
{
	int i;

	if (now_ns < next_deadline)
		return;
	next_deadline = U64_MAX;
	for (i = 0; i < nall; i++) {
		struct det_task *dt = all[i];

		if (dt->state != DET_BLOCKED || !dt->timed)
			continue;
		if (dt->deadline <= now_ns) {
			dt->timed_out = true;
			make_runnable(dt);
		} else if (dt->deadline < next_deadline) {
			next_deadline = dt->deadline;
		}
	}
}

/* Nothing can run: jump to the earliest deadline. False if there is none. */
static bool advance_time(void)
{
	if (next_deadline == U64_MAX)
		return false;
	if (next_deadline > now_ns)
		now_ns = next_deadline;
	expire_timeouts();
	kshim_time_update_jiffies();
	return true;
}

/*
 * A task asleep in TASK_IDLE holding no lock: a worker or service thread
 * waiting for work. Their stacks are all alike and say nothing about a
 * hang; they are named on one line instead.
 */
static bool idle_task(struct det_task *dt)
{
	const char *comm = dt->kt->task.comm;
	unsigned int state = READ_ONCE(dt->kt->task.__state);

	if (dt->state != DET_BLOCKED || dt->kt->nr_held ||
	    dt->kt->waiting_for)
		return false;
	/* The runtime's own service tasks wait for their next event. */
	return state == TASK_IDLE || !strcmp(comm, "rcu_cb") ||
	       !strcmp(comm, "ktimer");
}

static void print_idle_tasks(void)
{
	int i, n = 0;

	for (i = 0; i < nall; i++) {
		if (!idle_task(all[i]))
			continue;
		if (!n++)
			pr_err("  idle, holding no lock (workers in TASK_IDLE, the runtime's timer and RCU tasks):");
		pr_cont(" %s", all[i]->kt->task.comm);
	}
	if (n)
		pr_cont("\n");
}

static void __noreturn det_hang(const char *why);

/*
 * A task bound to a CPU (a per-CPU kworker) cannot run while another
 * task holds that CPU with preemption or interrupts off: on a real CPU it
 * would wait to be scheduled there. Per-CPU code relies on it:
 * xfs_inodegc_queue() adds an inode to this CPU's list and arms the
 * CPU's worker under get_cpu(), so that the worker cannot empty the list
 * in between and leave its timer armed on an empty list, which
 * xfs_inodegc_stop() would not cancel (a timer firing on a freed mount:
 * seen at unmount before this rule). Interrupts (timers, completions)
 * still run; unbound tasks stand for tasks that would migrate.
 */
static bool cpu_taken(struct det_task *dt)
{
	struct task_struct *holder;

	if (!dt->kt->bound)
		return false;
	holder = kshim_cpu_holder(dt->kt->task.thread_info.cpu);
	return holder && holder != &dt->kt->task;
}

/* A random runnable task; if the first drawn may not run (cpu_taken()),
 * one of those that may, drawn again, so that runs where the rule never
 * applies keep their schedules. If none may (every CPU holder blocked),
 * the first drawn runs: a broken rule, not a false hang report. */
static struct det_task *pick_random(void)
{
	struct det_task *dt = runq[kshim_random(&rng) % nrunq];
	int i, n = 0, k;

	if (!cpu_taken(dt))
		return dt;
	for (i = 0; i < nrunq; i++)
		n += !cpu_taken(runq[i]);
	if (!n)
		return dt;
	k = kshim_random(&rng) % n;
	for (i = 0; i < nrunq; i++)
		if (!cpu_taken(runq[i]) && !k--)
			return runq[i];
	return dt;
}

static struct det_task *pick_next(void)
{
	struct det_task *best = NULL;
	int i;

	if (!nrunq)
		return NULL;
	if (strategy == DET_RANDOM)
		return pick_random();
	for (i = 0; i < nrunq; i++)
		if (!cpu_taken(runq[i]) && (!best || runq[i]->prio > best->prio))
			best = runq[i];
	if (best)
		return best;
	best = runq[0];
	for (i = 1; i < nrunq; i++)
		if (runq[i]->prio > best->prio)
			best = runq[i];
	return best;
}

static void record(struct det_task *next, enum kshim_switch_reason why)
{
	int pid = next->kt->task.pid;
	int i;

	steps++;
	now_ns += step_ns;
	if (steps > max_steps)
		det_hang("LIVELOCK: tasks ran KSHIM_DET_MAX_STEPS decisions without finishing");
	for (i = 0; i < 4; i++) {
		trace_hash ^= (pid >> (8 * i)) & 0xff;
		trace_hash *= 0x100000001b3ULL;
	}
	if (sched_fd >= 0) {
		char line[64];
		int n = snprintf(line, sizeof(line), "%llu %d %d\n",
				 (unsigned long long)steps, pid, why);

		kshim_host_write_fd(sched_fd, line, n);
	}
	/* PCT: at a change point the running task drops below all others. */
	for (i = 0; i < pct_nchange; i++)
		if (steps - pct_base == pct_change[i] && cur)
			cur->prio = pct_next_low++;
}

/*
 * Where a task waits, or spins, is read only when a hang is reported
 * (det_hang()): the reporter resumes each task's fiber with
 * where_request pointing at it; the fiber takes its own call chain in
 * det_reschedule() and switches straight back. Taking it at every block
 * instead cost a quarter of a deterministic run (backtrace() unwinds
 * with libgcc; bench_xfs_log's profile).
 */
static struct det_task *where_request, *where_reporter;

static void det_reschedule(enum kshim_switch_reason why)
{
	struct det_task *prev = cur, *next;

	expire_timeouts();
	/*
	 * PCT: a task busy-waiting (cpu_relax()) waits for another to move;
	 * at the top priority it would spin forever and that one never run
	 * (seen in test_xfs_icache, seed 1: a spinner for 5 million
	 * decisions). A spin is a priority change point of its own, as
	 * CHESS treats a yield: the spinner drops below all others. A loop
	 * that polls with cond_resched() between pieces of work is the same
	 * livelock (that test's reclaimer, 2 billion decisions), but
	 * cond_resched() is also every kernel loop's preemption point, which
	 * PCT must not turn into a yield: such a task drops only after
	 * PCT_STREAK_MAX decisions in a row while others could run.
	 */
	if (strategy == DET_PCT && prev && prev->state == DET_RUNNABLE &&
	    (why == KSHIM_SW_CPU_RELAX || ++pct_streak >= PCT_STREAK_MAX)) {
		prev->prio = pct_spin_low--;
		pct_streak = 0;
	}
	for (;;) {
		next = pick_next();
		if (next)
			break;
		if (!advance_time())
			det_hang("HANG: no task can run and no timer is pending");
	}
	record(next, why);
	if (next == prev)
		return;
	pct_streak = 0;
	cur = next;
	kshim_host_tls_set(&next->kt->task);
	kshim_host_fiber_switch(prev->fiber, next->fiber);
	/* Running again: the scheduler chose prev, or a hang report asks
	 * where it is (collect_where()): it takes its own call chain and
	 * switches straight back. */
	while (where_request == prev) {
		prev->nwhere = kshim_host_backtrace(prev->where, DET_WHERE_MAX);
		where_request = NULL;
		kshim_host_fiber_switch(prev->fiber, where_reporter->fiber);
	}
}

static void block_current(u32 *word, const char *what, bool timed, u64 ns)
{
	cur->state = DET_BLOCKED;
	cur->word = word;
	cur->what = what;
	cur->timed = timed;
	cur->timed_out = false;
	cur->deadline = timed ? now_ns + ns : 0;
	if (timed && cur->deadline < next_deadline)
		next_deadline = cur->deadline;
	cur->nwhere = 0;
	runq_del(cur);
	det_reschedule(KSHIM_SW_WAKE);
}

/* Fill in where every task waits or last ran (see det_reschedule()).
 * The reporter's own chain starts below its two scheduler frames. */
static void collect_where(void)
{
	struct det_task *me = cur;
	void *buf[DET_WHERE_MAX + 2];
	int i, n;

	where_reporter = me;
	for (i = 0; i < nall; i++) {
		struct det_task *dt = all[i];

		if (dt == me || dt->state == DET_EXITED || !dt->started)
			continue;
		where_request = dt;
		kshim_host_fiber_switch(me->fiber, dt->fiber);
	}
	/* The reporter: blocked, or the runnable task a livelock stopped. */
	if (me && me->state != DET_EXITED) {
		n = kshim_host_backtrace(buf, DET_WHERE_MAX + 2);
		me->nwhere = n > 2 ? n - 2 : 0;
		memcpy(me->where, buf + 2, me->nwhere * sizeof(void *));
	}
}

static void det_wait(u32 *word, u32 val, const char *what)
{
	if (READ_ONCE(*word) == val)
		block_current(word, what, false, 0);
}

static bool det_wait_timeout(u32 *word, u32 val, u64 ns, const char *what)
{
	if (READ_ONCE(*word) != val)
		return true;
	block_current(word, what, true, ns);
	return !cur->timed_out;
}

static void det_wake(u32 *word, int nr)
{
	int i;

	for (i = 0; i < nall && nr > 0; i++)
		if (all[i]->state == DET_BLOCKED && all[i]->word == word) {
			make_runnable(all[i]);
			nr--;
		}
}

static void det_switch_point(enum kshim_switch_reason why, const void *obj)
{
	if (cur)
		det_reschedule(why);
}

static u64 det_clock_ns(void)
{
	return now_ns;
}

/* A busy-wait burns virtual time; others may run meanwhile. */
static void det_spin_ns(u64 ns)
{
	now_ns += ns;
	det_reschedule(KSHIM_SW_CPU_RELAX);
}

static void det_fiber_main(void *arg)
{
	struct det_task *dt = arg;

	dt->started = true;
	kshim_task_body(dt->kt);
	dt->state = DET_EXITED;
	dt->exited = 1;
	runq_del(dt);
	det_wake(&dt->exited, INT_MAX);
	det_reschedule(KSHIM_SW_WAKE);
	kshim_fatal("an exited task was scheduled again");
}

static int det_task_start(struct task_struct *t)
{
	struct det_task *dt;

	det_init_once();
	dt = det_new(t->kshim);
	dt->fiber = kshim_host_fiber_create(det_fiber_main, dt,
					    DET_STACK_SIZE);
	if (!dt->fiber)
		return -ENOMEM;
	return 0;
}

static void det_task_join(struct task_struct *t)
{
	struct det_task *dt = t->kshim->backend;

	while (!dt->exited)
		det_wait(&dt->exited, 0, "task exit");
	det_forget(dt);
	kshim_host_fiber_destroy(dt->fiber);
	kshim_host_free(dt);
}

static void det_task_adopt(struct task_struct *t)
{
	struct det_task *dt;

	if (cur)
		kshim_fatal("deterministic backend: a second host thread (%s) called kernel code",
			    t->comm);
	det_init_once();
	dt = det_new(t->kshim);
	dt->fiber = kshim_host_fiber_self();
	dt->started = true;
	cur = dt;
	kshim_host_tls_set(t);
}

static void det_task_forget(struct task_struct *t)
{
	struct det_task *dt = t->kshim->backend;

	det_forget(dt);
	kshim_host_free(dt);
	cur = NULL;
	kshim_host_tls_set(NULL);
}

/* ---- RCU: a grace period waits out every reader that was inside -------- */

static void det_rcu_read_lock(void)
{
}

static void det_rcu_read_unlock(void)
{
	if (!cur || cur->kt->task.rcu_read_lock_nesting)
		return;
	cur->rcu_unlocks++;
	rcu_gen++;
	det_wake(&rcu_gen, INT_MAX);
}

/* A live (not yet joined) task by pid; pids are never reused. */
static struct det_task *det_find_pid(int pid)
{
	int i;

	for (i = 0; i < nall; i++)
		if (all[i]->kt->task.pid == pid)
			return all[i];
	return NULL;
}

/*
 * The readers are remembered by pid and looked up again after every
 * wait, not kept as pointers: a reader may leave its section, exit and
 * be joined (its det_task freed) before this task runs again, which
 * valgrind reported as a use after free (test_xfs_icache's
 * test_reclaimed_inode_is_freed_after_rcu_grace_period at det seed 2).
 */
static void det_synchronize_rcu(void)
{
	u64 *snap = kshim_host_alloc(sizeof(u64) * (nall ? nall : 1), 0);
	int *pids = kshim_host_alloc(sizeof(*pids) * (nall ? nall : 1), 0);
	struct det_task *dt;
	int i, n = 0;

	for (i = 0; i < nall; i++)
		if (all[i]->kt->task.rcu_read_lock_nesting) {
			pids[n] = all[i]->kt->task.pid;
			snap[n++] = all[i]->rcu_unlocks;
		}
	for (i = 0; i < n; i++)
		while ((dt = det_find_pid(pids[i])) &&
		       dt->rcu_unlocks == snap[i] && !dt->exited)
			det_wait(&rcu_gen, rcu_gen, "rcu grace period");
	kshim_host_free(snap);
	kshim_host_free(pids);
}

/* ---- reports ------------------------------------------------------------- */

static void print_task(struct det_task *dt)
{
	struct kshim_task *kt = dt->kt;
	struct task_struct *t = &kt->task;
	struct kshim_lock *l = kt->waiting_for;

	pr_err("  %s (pid %d, cpu %d): %s", t->comm, t->pid,
	       (int)t->thread_info.cpu,
	       dt->state == DET_RUNNABLE ? (dt->started ? "runnable" :
					    "runnable, never ran yet") :
	       dt->state == DET_EXITED ? "exited (not joined)" : "blocked");
	if (dt->state == DET_BLOCKED) {
		pr_cont(" on %s", dt->what ? dt->what : "?");
		if (!l && dt->what && !strcmp(dt->what, "schedule")) {
			const char *obj = kshim_wait_object(dt->where,
							   dt->nwhere);

			if (obj)
				pr_cont(" (waiting for %s)", obj);
		}
		if (l && l->owner && kshim_task_live_locked(l->owner))
			pr_cont(" held by %s (pid %d)", l->owner->comm,
				l->owner->pid);
		else if (l && l->owner)
			pr_cont(" held by a task that has exited");
		else if (l)
			pr_cont(" (shared holders)");
		if (dt->timed)
			pr_cont(", until %llu ns", dt->deadline);
	}
	pr_cont(", task state 0x%x\n", READ_ONCE(t->__state));
	kshim_lock_print_held(kt);
	if (dt->state != DET_EXITED && dt->nwhere) {
		pr_err("      %s at:\n", dt->state == DET_BLOCKED ?
		       "blocked" : "last ran");
		kshim_host_print_backtrace(dt->where, dt->nwhere);
	}
}

static void __noreturn det_hang(const char *why)
{
	int i;

	pr_err("kshim: %s (deterministic backend)\n", why);
	pr_err("kshim: virtual time %llu ns, step %llu, seed %llu; replay: KSHIM_BACKEND=det KSHIM_SEED=%llu%s\n",
	       (unsigned long long)now_ns, (unsigned long long)steps,
	       (unsigned long long)kshim_seed(),
	       (unsigned long long)kshim_seed(),
	       strategy == DET_PCT ? " KSHIM_STRATEGY=pct" : "");
	collect_where();
	kshim_tasks_lock();
	for (i = 0; i < nall; i++)
		if (!idle_task(all[i]))
			print_task(all[i]);
	print_idle_tasks();
	kshim_tasks_unlock();
	kshim_fatal("%s", why);
}

void kshim_det_print_summary(void)
{
	if (kshim_sched != &kshim_sched_det)
		return;
	kshim_info("kshim: deterministic backend (%s): %llu scheduling decisions, virtual time %llu ns, trace hash %016llx\n",
		strategy == DET_PCT ? "pct" : "random walk",
		(unsigned long long)steps, (unsigned long long)now_ns,
		(unsigned long long)trace_hash);
	if (sched_fd >= 0)
		kshim_host_close(sched_fd);
}

/*
 * The test runner calls this when the tests begin: PCT's change points
 * count from here, so the runtime's own start-up (its service tasks)
 * does not shift where they fall in the code under test.
 */
void kshim_det_tests_begin(void)
{
	pct_base = steps;
}

/*
 * Start the schedule's choices over, as from SEED: a program that runs
 * many independent pieces of work in one process (a fuzz target's
 * inputs) calls it before each, so that a piece schedules the same
 * whatever ran before it, and replays alone as it ran in the batch.
 * Tasks, timers and the virtual clock are left as they are. Nothing in
 * the parallel backend.
 */
void kshim_det_reseed(u64 seed)
{
	if (kshim_sched != &kshim_sched_det)
		return;
	det_init_once();
	rng = seed * 0x9E3779B97F4A7C15ULL + 1;
}

u64 kshim_det_steps(void)
{
	return steps;
}

u64 kshim_det_trace_hash(void)
{
	return trace_hash;
}

const struct kshim_sched_ops kshim_sched_det = {
	.name		= "det",
	.virtual_time	= true,
	.wait		= det_wait,
	.wait_timeout	= det_wait_timeout,
	.wake		= det_wake,
	.switch_point	= det_switch_point,
	.clock_ns	= det_clock_ns,
	.spin_ns	= det_spin_ns,
	.task_start	= det_task_start,
	.task_join	= det_task_join,
	.task_adopt	= det_task_adopt,
	.task_forget	= det_task_forget,
	.rcu_read_lock	= det_rcu_read_lock,
	.rcu_read_unlock = det_rcu_read_unlock,
	.synchronize_rcu = det_synchronize_rcu,
};

const char *kshim_sched_name(void)
{
	return kshim_sched->name;
}

void kshim_sched_select(void)
{
	const char *s = kshim_host_getenv("KSHIM_BACKEND");

	if (!s || !*s || !strcmp(s, "parallel"))
		kshim_sched = &kshim_sched_parallel;
	else if (!strcmp(s, "det"))
		kshim_sched = &kshim_sched_det;
	else
		kshim_fatal("KSHIM_BACKEND=%s: use parallel or det", s);
}
