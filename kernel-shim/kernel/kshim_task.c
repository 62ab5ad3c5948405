// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks and simulated CPUs: current, the preempt count, "interrupts off",
 * might_sleep(), and ownership of a simulated CPU while a task is in an
 * atomic section.
 *
 * WHY CPU OWNERSHIP: in the kernel only one task runs on a CPU at a time,
 * so per-CPU data touched with preemption or interrupts disabled needs no
 * lock. The parallel backend runs many threads "on" each simulated CPU, so
 * a task entering an atomic section (preempt count 0 -> 1, or interrupts
 * off) takes its CPU's lock until it leaves. Per-CPU code then runs as
 * exclusively as on a real machine.
 */
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/cpumask.h>
#include <linux/preempt.h>
#include <linux/wait.h>
#include <linux/sched/wake_q.h>
#include <linux/cred.h>
#include <linux/user_namespace.h>
#include <linux/task_work.h>
#include <linux/highuid.h>
#include <kshim/host.h>
#include <kshim/sched.h>
#include <kshim/runtime.h>
#include "kshim_internal.h"

static atomic_t next_pid = ATOMIC_INIT(1);

/* Every live task, for reports (hung tasks); a host-level lock. */
static struct kshim_task *all_tasks;
static u32 all_tasks_lock;

void kshim_tasks_lock(void)
{
	kshim_raw_lock(&all_tasks_lock);
}

void kshim_tasks_unlock(void)
{
	kshim_raw_unlock(&all_tasks_lock);
}

struct kshim_task *kshim_tasks_first(void)
{
	return all_tasks;
}

/*
 * Whether t is a live task; the caller holds kshim_tasks_lock(). A lock's
 * owner pointer outlives a task that exits holding the lock: reports ask
 * this before they dereference it.
 */
bool kshim_task_live_locked(struct task_struct *t)
{
	struct kshim_task *kt;

	for (kt = all_tasks; kt; kt = kt->next_all)
		if (&kt->task == t)
			return true;
	return false;
}

static void task_list_add(struct kshim_task *kt)
{
	kshim_tasks_lock();
	kt->next_all = all_tasks;
	kt->prev_all = NULL;
	if (all_tasks)
		all_tasks->prev_all = kt;
	all_tasks = kt;
	kshim_tasks_unlock();
}

static void task_free(struct kshim_task *kt)
{
	kshim_tasks_lock();
	if (kt->prev_all)
		kt->prev_all->next_all = kt->next_all;
	else
		all_tasks = kt->next_all;
	if (kt->next_all)
		kt->next_all->prev_all = kt->prev_all;
	kshim_tasks_unlock();
	kshim_host_free(kt);
}
static atomic_t next_cpu = ATOMIC_INIT(0);

/*
 * Credentials (kernel/cred.c's init_cred, kernel/user.c's init_user_ns):
 * every kshim task runs as root in the initial user namespace, with all
 * capabilities, like a kernel thread. kernel/cred.c is not compiled (it
 * is credential lifetime and the user/group/ucount accounting behind
 * it); nothing in kshim changes credentials. With CONFIG_USER_NS off the
 * namespace's id maps are the identity (header inlines): only its
 * address is used.
 */
struct user_namespace init_user_ns;

/* kernel/sys.c's: the IDs that stand for one that does not fit (the
 * defaults; no sysctl changes them). */
int overflowuid = DEFAULT_OVERFLOWUID;
int overflowgid = DEFAULT_OVERFLOWGID;

/* kernel/fork.c's: taken by walks over all tasks; kshim has none
 * compiled (linux/sched/signal.h). */
DEFINE_RWLOCK(tasklist_lock);

static struct cred kshim_init_cred = {
	.usage		= ATOMIC_INIT(1),
	.uid		= GLOBAL_ROOT_UID,
	.gid		= GLOBAL_ROOT_GID,
	.suid		= GLOBAL_ROOT_UID,
	.sgid		= GLOBAL_ROOT_GID,
	.euid		= GLOBAL_ROOT_UID,
	.egid		= GLOBAL_ROOT_GID,
	.fsuid		= GLOBAL_ROOT_UID,
	.fsgid		= GLOBAL_ROOT_GID,
	.cap_inheritable = CAP_EMPTY_SET,
	.cap_permitted	= CAP_FULL_SET,
	.cap_effective	= CAP_FULL_SET,
	.cap_bset	= CAP_FULL_SET,
	.user_ns	= &init_user_ns,
};

/*
 * The task is complete before task_list_add() publishes it: khungtaskd walks
 * the list and reads __state and flags without the creator's help.
 */
static struct kshim_task *task_alloc(const char *name, int cpu,
				     unsigned int state, unsigned int pf_flags)
{
	struct kshim_task *kt = kshim_host_alloc(sizeof(*kt), 64);

	if (!kt)
		kshim_fatal("out of host memory for a task");
	memset(kt, 0, sizeof(*kt));
	kt->task.kshim = kt;
	kt->task.pid = atomic_inc_return(&next_pid);
	kt->task.tgid = kt->task.pid;
	kt->task.real_parent = &kt->task;
	refcount_set(&kt->task.usage, 1);
	raw_spin_lock_init(&kt->task.pi_lock);
	kt->task.cred = &kshim_init_cred;
	kt->task.real_cred = &kshim_init_cred;
	kt->task.static_prio = DEFAULT_PRIO;
	kt->task.prio = DEFAULT_PRIO;
	kt->task.__state = state;
	kt->task.flags = pf_flags;
	strscpy(kt->task.comm, name, sizeof(kt->task.comm));
	if (cpu < 0)
		cpu = (atomic_inc_return(&next_cpu) - 1) % nr_cpu_ids;
	kt->task.thread_info.cpu = cpu;
	task_list_add(kt);
	return kt;
}

static void task_leave(struct kshim_task *kt)
{
	if (kt->preempt_count || kt->irqs_off)
		kshim_report("task %s exits in atomic context (preempt_count %d%s)",
			     kt->task.comm, kt->preempt_count,
			     kt->irqs_off ? ", irqs off" : "");
	if (kt->nr_held)
		kshim_report("task %s exits holding %d lock(s)", kt->task.comm,
			     kt->nr_held);
}

/*
 * current: the backend knows which task runs. The first caller of kernel
 * code (the test's main thread) starts the runtime, which adopts it as the
 * task "main" on CPU 0; another host thread that was not started by kshim
 * (a library's helper thread) is adopted on first use in the parallel
 * backend.
 */
struct task_struct *kshim_current(void)
{
	struct task_struct *t = kshim_host_tls_get();

	if (likely(t))
		return t;
	kshim_runtime_init();
	t = kshim_host_tls_get();
	if (t)
		return t;
	return kshim_task_adopt("foreign");
}

struct task_struct *kshim_task_adopt(const char *name)
{
	struct kshim_task *kt = task_alloc(name, 0, TASK_RUNNING, 0);

	kt->adopted = true;
	kt->host_thread = kshim_host_thread_self();
	kshim_sched->task_adopt(&kt->task);
	return &kt->task;
}

void kshim_task_forget_current(void)
{
	struct task_struct *t = kshim_host_tls_get();

	if (t && t->kshim->adopted) {
		task_leave(t->kshim);
		kshim_sched->task_forget(t);
		task_free(t->kshim);
	}
}

/* Every task's thread or fiber runs this; the backend ends the task after. */
void kshim_task_body(void *arg)
{
	struct kshim_task *kt = arg;

	/* Its thread, for the parallel watchdog's stack requests. */
	WRITE_ONCE(kt->host_thread, kshim_host_thread_self());
	kt->fn(kt->arg);
	task_work_run();	/* as do_exit()'s exit_task_work() */
	task_leave(kt);
}

/*
 * Start fn(arg) as a task in the given state: TASK_RUNNING for a task that
 * runs at once, a sleeping state for one (a new kthread) whose fn starts
 * by calling schedule() and so waits for its first wake-up. pf_flags and
 * worker_private are set before the task can run, so neither it nor its
 * creator races on them.
 */
struct task_struct *kshim_task_create_ex(void (*fn)(void *), void *arg,
					 const char *name, int cpu,
					 unsigned int state,
					 unsigned int pf_flags,
					 void *worker_private)
{
	struct kshim_task *kt;
	int err;

	kshim_runtime_init();
	kt = task_alloc(name, cpu, state, pf_flags);
	kt->fn = fn;
	kt->arg = arg;
	kt->task.worker_private = worker_private;
	err = kshim_sched->task_start(&kt->task);
	if (err)
		kshim_fatal("cannot start task %s: error %d", name, err);
	return &kt->task;
}

struct task_struct *kshim_task_create(void (*fn)(void *), void *arg,
				      const char *name, int cpu,
				      unsigned int state)
{
	return kshim_task_create_ex(fn, arg, name, cpu, state, 0, NULL);
}

struct task_struct *kshim_task_run(void (*fn)(void *), void *arg,
				   const char *name, int cpu)
{
	return kshim_task_create(fn, arg, name, cpu, TASK_RUNNING);
}

void kshim_task_join(struct task_struct *t)
{
	kshim_sched->task_join(t);
	task_free(t->kshim);
}

int kshim_cpu_id(void)
{
	return current->thread_info.cpu;
}

/* ---- atomic sections ---------------------------------------------------- */

/*
 * An interrupt's atomic section: on its CPU if free, else on another free
 * one (a timer or a completion may run on any CPU), else on a CPU whose
 * owner spins with interrupts on (cpu_relax() opens the CPU's interrupt
 * window): in the kernel the interrupt would run there, and the owner
 * goes on after it. Until one of these, it waits. Without the window a
 * task spinning with preemption off until a timer callback has run
 * (mod_delayed_work_on() under get_cpu(), waiting for
 * delayed_work_timer_fn() to queue the work) held the callback off for
 * ever once every CPU was so taken: 256 generator tasks, each queueing
 * inodegc work from xfs_inodegc_queue(), livelocked the det backend.
 */
static int interrupt_cpu(struct kshim_task *kt)
{
	int cpu = kt->task.thread_info.cpu, c;

	for (;;) {
		if (kshim_cpu_try_claim(cpu))
			return cpu;
		for (c = 0; c < nr_cpu_ids; c++)
			if (c != cpu && kshim_cpu_try_claim(c))
				return c;
		for (c = 0; c < nr_cpu_ids; c++)
			if (kshim_cpu_try_borrow(c)) {
				kt->cpu_borrowed = true;
				return c;
			}
		kshim_switch_point(KSHIM_SW_CPU_RELAX, NULL);
	}
}

static void atomic_enter(struct kshim_task *kt)
{
	if (kt->cpu_owned)
		return;
	if (kt->interrupt)
		kt->task.thread_info.cpu = interrupt_cpu(kt);
	else
		kshim_cpu_claim(kt->task.thread_info.cpu);
	kt->cpu_owned = true;
}

void kshim_task_set_interrupt(void)
{
	current->kshim->interrupt = true;
}

static void atomic_leave(struct kshim_task *kt)
{
	if (kt->cpu_owned && !kt->preempt_count && !kt->irqs_off) {
		kt->cpu_owned = false;
		if (kt->cpu_borrowed) {
			kt->cpu_borrowed = false;
			kshim_cpu_return(kt->task.thread_info.cpu);
		} else {
			kshim_cpu_release(kt->task.thread_info.cpu);
		}
	}
}

int *kshim_preempt_count_ptr(void)
{
	return &current->kshim->preempt_count;
}

void kshim_preempt_count_add(int val)
{
	struct kshim_task *kt = current->kshim;

	kt->preempt_count += val;
	atomic_enter(kt);
}

void kshim_preempt_count_sub(int val)
{
	struct kshim_task *kt = current->kshim;

	kt->preempt_count -= val;
	if (kt->preempt_count < 0)
		kshim_report("preempt count underflow in %s", kt->task.comm);
	atomic_leave(kt);
}

unsigned long kshim_irq_save_flags(void)
{
	return current->kshim->irqs_off ? ARCH_IRQ_DISABLED : 0;
}

void kshim_irq_restore_flags(unsigned long flags)
{
	struct kshim_task *kt = current->kshim;

	if (flags == ARCH_IRQ_DISABLED) {
		kt->irqs_off = true;
		atomic_enter(kt);
	} else {
		kt->irqs_off = false;
		atomic_leave(kt);
	}
}

void __local_bh_enable_ip(unsigned long ip, unsigned int cnt)
{
	kshim_preempt_count_sub(cnt);
}

void _local_bh_enable(void)
{
	kshim_preempt_count_sub(SOFTIRQ_DISABLE_OFFSET);
}

/*
 * The kernel's "sleeping function called from invalid context" check
 * (CONFIG_DEBUG_ATOMIC_SLEEP): a test that sleeps in atomic context fails.
 */
void __might_sleep(const char *file, int line)
{
	struct kshim_task *kt = current->kshim;

	if (kt->preempt_count || kt->irqs_off)
		kshim_report("BUG: sleeping function called from invalid context at %s:%d\n"
			     "in_atomic(): %d, irqs_disabled(): %d, pid: %d, name: %s",
			     file, line, kt->preempt_count != 0, kt->irqs_off,
			     kt->task.pid, kt->task.comm);
}

void __might_resched(const char *file, int line, unsigned int offsets)
{
	__might_sleep(file, line);
}

void __cant_sleep(const char *file, int line, int preempt_offset)
{
	struct kshim_task *kt = current->kshim;

	if (!kt->preempt_count && !kt->irqs_off)
		kshim_report("BUG: assuming atomic context at %s:%d", file, line);
}

int kshim_cond_resched(void)
{
	kshim_switch_point(KSHIM_SW_COND_RESCHED, NULL);
	return 0;
}

/* A spin with the CPU held and interrupts on lets interrupts in. */
void kshim_cpu_relax(void)
{
	struct kshim_task *kt = current->kshim;
	bool window = kt->cpu_owned && !kt->irqs_off && !kt->interrupt;
	int cpu = kt->task.thread_info.cpu;

	if (window)
		kshim_cpu_open_irq_window(cpu);
	kshim_switch_point(KSHIM_SW_CPU_RELAX, NULL);
	if (window)
		kshim_cpu_close_irq_window(cpu);
}

/* ---- sleeping and waking ------------------------------------------------- */

/*
 * set_current_state() with the kernel's full barrier (smp_store_mb): the
 * state store is ordered before the caller's condition check, and a waker
 * stores the condition before it looks at the state (try_to_wake_up()).
 * That pairing is what makes "set state, check, schedule()" lose no
 * wake-up.
 */
void kshim_set_task_state(unsigned int state)
{
	/*
	 * A switch point before the store: on a real machine a waker can run
	 * between a condition check and this store. Without it the
	 * deterministic backend could never show the lost wake-up of
	 * "check, then set state".
	 */
	kshim_switch_point(KSHIM_SW_COND_RESCHED, NULL);
	smp_store_mb(current->__state, state);
}

/*
 * schedule() for a task that set a sleeping state: block until a wake-up
 * sets the state back to TASK_RUNNING. If that already happened between
 * the condition check and this call, return at once, as the kernel's
 * schedule() does for a task that was woken before it was dequeued.
 */
void schedule(void)
{
	struct task_struct *t = current;
	unsigned int state;

	__might_sleep(__FILE__, __LINE__);
	kshim_switch_point(KSHIM_SW_COND_RESCHED, NULL);
	while ((state = smp_load_acquire(&t->__state)) != TASK_RUNNING)
		kshim_wait(&t->__state, state, "schedule");
}

void io_schedule(void)
{
	schedule();
}

void schedule_preempt_disabled(void)
{
	sched_preempt_enable_no_resched();
	schedule();
	preempt_disable();
}

/* Returns 1 if p was in a state in state_mask and is now running. */
int try_to_wake_up(struct task_struct *p, unsigned int state_mask,
		   int wake_flags)
{
	unsigned int state;

	smp_mb();	/* the waker's condition store before the state load */
	state = READ_ONCE(p->__state);
	do {
		if (!(state & state_mask))
			return 0;
	} while (!__atomic_compare_exchange_n(&p->__state, &state,
					      TASK_RUNNING, 0,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	kshim_wake(&p->__state, INT_MAX);
	kshim_switch_point(KSHIM_SW_WAKE, p);
	return 1;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL, 0);
}

int wake_up_state(struct task_struct *p, unsigned int state)
{
	return try_to_wake_up(p, state, 0);
}

/*
 * Wake queues (kernel/locking/semaphore.c uses them) without the queue:
 * wake_q_add() wakes the task at once instead of after the waker drops
 * its lock. The waiter has been told it may go on before it is queued
 * (semaphore's waiter->up), so an early wake is one the kernel allows;
 * what is lost is only the shorter lock hold. Listed in docs/FAKES.md.
 */
void wake_q_add(struct wake_q_head *head, struct task_struct *task)
{
	wake_up_process(task);
}

void wake_up_q(struct wake_q_head *head)
{
	/* wake_q_add() woke everyone already. */
}

/* kernel/sched/core.c's, verbatim in effect: wake the waiting task. */
int default_wake_function(struct wait_queue_entry *curr, unsigned mode,
			  int wake_flags, void *key)
{
	return try_to_wake_up(curr->private, mode, wake_flags);
}

void yield(void)
{
	kshim_switch_point(KSHIM_SW_COND_RESCHED, NULL);
	kshim_host_yield();
}
