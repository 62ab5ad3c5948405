// SPDX-License-Identifier: GPL-2.0
/*
 * The hung-task watchdog of the parallel backend, like the kernel's
 * khungtaskd: a task blocked uninterruptibly (in TASK_UNINTERRUPTIBLE, or
 * on a lock) for longer than KSHIM_HUNG_TIMEOUT seconds
 * (default 60; 0 turns it off) is reported with what it waits on, the
 * lock's owner and the locks it holds, and the run fails there rather than
 * hanging until the test harness kills it. The deterministic backend needs
 * no watchdog: it sees a hang the moment no task can run.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <kshim/host.h>
#include <kshim/lock.h>
#include <kshim/sched.h>
#include <kshim/runtime.h>
#include "kshim_internal.h"

static u32 stop;
static struct task_struct *khungtaskd;
static u64 timeout_ns;

/*
 * 10% of one CPU. A process whose every task sleeps or retries msleep(10)
 * uses 0.7% (tests/detect/detect_no_progress.c), 2% under valgrind, and
 * a tighter retry loop more; an honest run, however slow (valgrind, TSan,
 * a loaded machine), keeps a CPU busy. A test that sleeps on purpose for
 * longer than KSHIM_HUNG_TIMEOUT (a slow device's real-time latency in
 * the parallel backend) would be reported: none in the suite does.
 */
#define NO_PROGRESS_PERMILLE 100
/* Samples of (wall, CPU) time, one per period: enough for a window of
 * KSHIM_HUNG_TIMEOUT at 4 samples per timeout or 5 s apart up to 640 s. */
#define NO_PROGRESS_SAMPLES 128
static struct {
	u64 wall, cpu;
} samples[NO_PROGRESS_SAMPLES];
static unsigned int nr_samples;

#define STACK_FRAMES	16

/*
 * What a blocked task waits on: "on WHAT", and for one in schedule() the
 * object its stack shows it waits for ("a completion"), as the det
 * backend's report says. STACK gets the stack (the task is asked for it,
 * kshim_host_thread_backtrace()); returns its frames, 0 if none.
 */
static int print_blocked_on(struct kshim_task *kt, void **stack)
{
	const char *what = READ_ONCE(kt->blocked_on);
	unsigned long thread = READ_ONCE(kt->host_thread);
	int n = thread ? kshim_host_thread_backtrace(thread, stack,
						       STACK_FRAMES) : 0;
	const char *obj = NULL;

	if (what && !strcmp(what, "schedule") && !READ_ONCE(kt->waiting_for))
		obj = kshim_wait_object(stack, n);
	pr_cont(" on %s", what ?: "?");
	if (obj)
		pr_cont(" (waiting for %s)", obj);
	return n;
}

static void print_stack(void *const *stack, int n)
{
	if (n) {
		pr_err("      blocked at:\n");
		kshim_host_print_backtrace(stack, n);
	}
}

static void report(struct kshim_task *kt, u64 blocked_ns)
{
	struct kshim_lock *l = READ_ONCE(kt->waiting_for);
	void *stack[STACK_FRAMES];
	int n;

	pr_err("INFO: task %s:%d blocked for more than %llu seconds,",
	       kt->task.comm, kt->task.pid, blocked_ns / NSEC_PER_SEC);
	n = print_blocked_on(kt, stack);
	struct task_struct *owner = l ? READ_ONCE(l->owner) : NULL;

	if (owner && kshim_task_live_locked(owner))
		pr_cont(" held by %s (pid %d)", owner->comm, owner->pid);
	else if (owner)
		pr_cont(" held by a task that has exited");
	pr_cont("\n");
	kshim_lock_print_held(kt);
	print_stack(stack, n);
}

static char state_letter(struct kshim_task *kt)
{
	unsigned int state = READ_ONCE(kt->task.__state);

	if (READ_ONCE(kt->waiting_for))
		return 'L';		/* waits for a lock */
	/* A runtime thread (timers, RCU callbacks) waits in TASK_RUNNING. */
	if (state == TASK_RUNNING)
		return READ_ONCE(kt->blocked_since) ? 'S' : 'R';
	if ((state & TASK_UNINTERRUPTIBLE) && (state & TASK_NOLOAD))
		return 'I';
	if (state & TASK_UNINTERRUPTIBLE)
		return 'D';
	return 'S';
}

/* An idle worker or runtime task, waiting for work: one line for all. */
static bool idle_worker(struct kshim_task *kt)
{
	char c = state_letter(kt);

	/* The runtime's own service tasks wait for their next event. */
	return (c == 'S' || c == 'I') && !READ_ONCE(kt->nr_held) &&
	       (!strncmp(kt->task.comm, "kworker", 7) ||
		!strcmp(kt->task.comm, "rcu_cb") ||
		!strcmp(kt->task.comm, "ktimer"));
}

/* Every task, what it waits on and the locks it holds; idle workers
 * collapsed into a count. Called with the task list locked. */
static void report_all_tasks(void)
{
	struct kshim_task *kt;
	int idle = 0;

	pr_err("  state: R running or runnable, S sleeping, D uninterruptible, I idle, L waiting for a lock\n");
	for (kt = kshim_tasks_first(); kt; kt = kt->next_all) {
		u64 since = READ_ONCE(kt->blocked_since);

		if (&kt->task == current)	/* this watchdog */
			continue;
		if (idle_worker(kt)) {
			idle++;
			continue;
		}
		void *stack[STACK_FRAMES];
		int n = 0;

		pr_err("  %c %s:%d", state_letter(kt), kt->task.comm,
		       kt->task.pid);
		if (since)
			n = print_blocked_on(kt, stack);
		pr_cont("\n");
		kshim_lock_print_held(kt);
		print_stack(stack, n);
	}
	if (idle)
		pr_err("  and %d idle worker(s) waiting for work (kworkers, the runtime's timer and RCU tasks)\n",
		       idle);
}

/*
 * Record this period's (wall, CPU) sample; true when, since the latest
 * sample at least timeout_ns old, the process used less than
 * NO_PROGRESS_PERMILLE of one CPU. (A debugger that stops the process
 * for that long looks the same: KSHIM_HUNG_TIMEOUT=0 when debugging.)
 */
static bool no_progress(u64 now, u64 *cpu_used, u64 *window)
{
	u64 cpu = kshim_host_cpu_ns();
	unsigned int i, start = NO_PROGRESS_SAMPLES;

	/* The window: from the latest sample at least timeout_ns old. */
	for (i = 0; i < min(nr_samples, NO_PROGRESS_SAMPLES); i++)
		if (now - samples[i].wall >= timeout_ns &&
		    (start == NO_PROGRESS_SAMPLES ||
		     samples[i].wall > samples[start].wall))
			start = i;
	if (start != NO_PROGRESS_SAMPLES) {
		*window = now - samples[start].wall;
		*cpu_used = cpu - samples[start].cpu;
	}
	samples[nr_samples % NO_PROGRESS_SAMPLES].wall = now;
	samples[nr_samples % NO_PROGRESS_SAMPLES].cpu = cpu;
	nr_samples++;
	return start != NO_PROGRESS_SAMPLES &&
	       *cpu_used * 1000 < *window * NO_PROGRESS_PERMILLE;
}

static void khungtaskd_main(void *unused)
{
	u64 period = min_t(u64, timeout_ns / 4, 5 * NSEC_PER_SEC);

	for (;;) {
		u64 now, cpu_used, window;
		struct kshim_task *kt;
		int hung = 0, soon = 0;

		kshim_wait_timeout(&stop, 0, period, "hung-task period");
		if (READ_ONCE(stop))
			break;
		now = kshim_host_clock_ns();
		kshim_tasks_lock();
		for (kt = kshim_tasks_first(); kt; kt = kt->next_all) {
			u64 since = READ_ONCE(kt->blocked_since);
			unsigned int state = READ_ONCE(kt->task.__state);

			/*
			 * A task that blocked after now was sampled has a
			 * later blocked_since: not hung. As an unsigned
			 * difference it would be ~584 years, which made
			 * busy TSan runs fail with a burst of reports of
			 * tasks "blocked for more than 18446744073 seconds".
			 */
			if (&kt->task == current || !since || since > now)
				continue;
			/*
			 * As khungtaskd: only uninterruptible sleeps (a lock
			 * wait is one) count; an idle kthread waiting for work
			 * (TASK_INTERRUPTIBLE, TASK_IDLE) is not hung.
			 */
			if (!READ_ONCE(kt->waiting_for) &&
			    (!(state & TASK_UNINTERRUPTIBLE) ||
			     (state & TASK_NOLOAD)))
				continue;
			if (now - since < timeout_ns) {
				/* Hung at a later check, unless it wakes by
				 * itself (an msleep() retry loop). */
				soon += !READ_ONCE(kt->timed_sleep);
				continue;
			}
			if (!hung++)
				pr_err("kshim: hung tasks (KSHIM_HUNG_TIMEOUT=%llu s):\n",
				       timeout_ns / NSEC_PER_SEC);
			report(kt, now - since);
		}
		kshim_tasks_unlock();
		if (hung)
			kshim_fatal("%d task(s) blocked longer than %llu s", hung,
				    timeout_ns / NSEC_PER_SEC);
		/*
		 * A hung task is the more precise report: it comes first,
		 * also when the no-progress window (which may have begun
		 * before the task blocked) closes before the task has been
		 * blocked for the whole timeout.
		 */
		if (no_progress(now, &cpu_used, &window) && !soon) {
			kshim_tasks_lock();
			pr_err("kshim: no progress: the process used %llu ms of CPU in the last %llu s (KSHIM_HUNG_TIMEOUT=%llu s): every task is asleep or retrying on a timer\n",
			       cpu_used / NSEC_PER_MSEC, window / NSEC_PER_SEC,
			       timeout_ns / NSEC_PER_SEC);
			report_all_tasks();
			kshim_tasks_unlock();
			kshim_fatal("no progress for %llu s", window / NSEC_PER_SEC);
		}
	}
}

void kshim_hung_task_start(void)
{
	const char *s = kshim_host_getenv("KSHIM_HUNG_TIMEOUT");
	u64 secs = s ? kshim_host_strtoull(s) : 60;

	if (kshim_sched->virtual_time || !secs)
		return;
	timeout_ns = secs * NSEC_PER_SEC;
	khungtaskd = kshim_task_run(khungtaskd_main, NULL, "khungtaskd", -1);
}

void kshim_hung_task_stop(void)
{
	if (!khungtaskd)
		return;
	WRITE_ONCE(stop, 1);
	kshim_wake(&stop, 1);
	kshim_task_join(khungtaskd);
	khungtaskd = NULL;
}
