// SPDX-License-Identifier: GPL-2.0
/*
 * Time: the kshim clock, jiffies, ktime_get*(), timer_list timers and the
 * timed sleeps built on them (schedule_timeout(), msleep()).
 *
 * The clock is the backend's (kshim_clock_ns(): host CLOCK_MONOTONIC in
 * the parallel backend, virtual time in the deterministic one). A "ktimer"
 * task is the timer interrupt: it advances jiffies (starting, as in the kernel, at INITIAL_JIFFIES
 * so wrap-around bugs show), and runs expired timers in softirq context.
 * Lost against kernel/time/timer.c: the timer wheel's granularity
 * (kshim fires a timer at the first tick at or after its expiry), per-CPU
 * timer bases, deferrable/pinned semantics, hrtimers (usleep_range()
 * sleeps whole jiffies). The jiffies conversions of kernel/time/time.c are
 * re-done here because that file drags in the syscall layer; see
 * docs/FAKES.md.
 */
#include <linux/kernel.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/workqueue.h>
#include <asm/processor.h>
#include "kshim_internal.h"
#include <kshim/host.h>
#include <kshim/sched.h>
#include <kshim/runtime.h>

u64 jiffies_64 = INITIAL_JIFFIES;
unsigned long volatile jiffies = INITIAL_JIFFIES;

static u64 clock_base;
static DEFINE_RAW_SPINLOCK(timer_lock);
static HLIST_HEAD(timer_list_head);		/* pending timers */
static struct timer_list *running_timer;	/* callback in progress */
/*
 * Taken inside timer_lock around every change to the pending list, so
 * that kshim_timer_check_free() can read the list from any free without
 * timer_lock: a kernel lock is a switch point, and a free must not add
 * one (it would change every deterministic schedule).
 */
static u32 timer_list_word;
static unsigned int timers_pending;
static u32 timer_seq;		/* bumps after each callback */
static u32 timer_gen;		/* bumps when a timer is armed: wakes ktimer */
static u32 tick_stop;
static struct task_struct *tick_task;

u64 kshim_clock_ns(void)
{
	return kshim_sched->clock_ns() - clock_base;
}

/* jiffies as the kernel's tick would have left them at this clock. */
void kshim_time_update_jiffies(void)
{
	u64 j = INITIAL_JIFFIES + div_u64(kshim_clock_ns(), NSEC_PER_SEC / HZ);

	WRITE_ONCE(jiffies_64, j);
	WRITE_ONCE(jiffies, (unsigned long)j);
}

ktime_t ktime_get(void)
{
	return ns_to_ktime(kshim_clock_ns());
}

ktime_t ktime_get_raw(void)
{
	return ktime_get();
}

ktime_t ktime_get_with_offset(enum tk_offsets offs)
{
	return ktime_get();	/* no real-time or boot offset in kshim */
}

ktime_t ktime_get_coarse_with_offset(enum tk_offsets offs)
{
	return ktime_get();
}

ktime_t ktime_mono_to_any(ktime_t tmono, enum tk_offsets offs)
{
	return tmono;
}

u64 ktime_get_mono_fast_ns(void)
{
	return kshim_clock_ns();
}

u64 ktime_get_raw_fast_ns(void)
{
	return kshim_clock_ns();
}

u64 ktime_get_boot_fast_ns(void)
{
	return kshim_clock_ns();
}

u64 ktime_get_real_fast_ns(void)
{
	return kshim_clock_ns();
}

void ktime_get_ts64(struct timespec64 *ts)
{
	*ts = ns_to_timespec64(kshim_clock_ns());
}

void ktime_get_real_ts64(struct timespec64 *ts)
{
	ktime_get_ts64(ts);
}

void ktime_get_coarse_real_ts64(struct timespec64 *ts)
{
	ktime_get_ts64(ts);
}

time64_t ktime_get_seconds(void)
{
	return kshim_clock_ns() / NSEC_PER_SEC;
}

time64_t ktime_get_real_seconds(void)
{
	return ktime_get_seconds();
}

/* ---- jiffies conversions (kernel/time/time.c, HZ divides 1000) ---------- */

unsigned int jiffies_to_msecs(const unsigned long j)
{
	return (MSEC_PER_SEC / HZ) * j;
}

unsigned int jiffies_to_usecs(const unsigned long j)
{
	return (USEC_PER_SEC / HZ) * j;
}

unsigned long __msecs_to_jiffies(const unsigned int m)
{
	if ((int)m < 0)
		return MAX_JIFFY_OFFSET;
	return DIV_ROUND_UP(m, MSEC_PER_SEC / HZ);
}

unsigned long __usecs_to_jiffies(const unsigned int u)
{
	if (u > jiffies_to_usecs(MAX_JIFFY_OFFSET))
		return MAX_JIFFY_OFFSET;
	return DIV_ROUND_UP(u, USEC_PER_SEC / HZ);
}

u64 jiffies64_to_nsecs(u64 j)
{
	return j * (NSEC_PER_SEC / HZ);
}

u64 jiffies64_to_msecs(u64 j)
{
	return j * (MSEC_PER_SEC / HZ);
}

u64 nsecs_to_jiffies64(u64 n)
{
	return div_u64(n, NSEC_PER_SEC / HZ);
}

unsigned long nsecs_to_jiffies(u64 n)
{
	return (unsigned long)nsecs_to_jiffies64(n);
}

struct timespec64 ns_to_timespec64(s64 nsec)
{
	struct timespec64 ts = { 0, 0 };
	s32 rem;

	if (!nsec)
		return ts;
	ts.tv_sec = div_s64_rem(nsec, NSEC_PER_SEC, &rem);
	if (rem < 0) {
		ts.tv_sec--;
		rem += NSEC_PER_SEC;
	}
	ts.tv_nsec = rem;
	return ts;
}

/* ---- timers -------------------------------------------------------------- */

void init_timer_key(struct timer_list *timer,
		    void (*func)(struct timer_list *), unsigned int flags,
		    const char *name, struct lock_class_key *key)
{
	timer->entry.pprev = NULL;
	timer->entry.next = NULL;
	timer->function = func;
	timer->flags = flags;
	timer->expires = 0;
}

/*
 * Called with timer_lock held. Returns 1 if the timer was pending.
 * timer_pending() reads entry.pprev locklessly (hlist_unhashed_lockless(),
 * READ_ONCE()), so it goes from linked to NULL in one marked store, as
 * kernel/time/timer.c's detach_timer() does (__hlist_del(), then pprev =
 * NULL): hlist_del() would first poison it with LIST_POISON2, which a
 * concurrent timer_pending() read as still pending.
 */
static int detach_timer(struct timer_list *timer)
{
	if (!timer_pending(timer))
		return 0;
	kshim_raw_lock(&timer_list_word);
	__hlist_del(&timer->entry);
	timer->entry.next = LIST_POISON2;
	WRITE_ONCE(timer->entry.pprev, NULL);
	__atomic_sub_fetch(&timers_pending, 1, __ATOMIC_RELAXED);
	kshim_raw_unlock(&timer_list_word);
	return 1;
}

static void link_timer(struct timer_list *timer)
{
	kshim_raw_lock(&timer_list_word);
	hlist_add_head(&timer->entry, &timer_list_head);
	__atomic_add_fetch(&timers_pending, 1, __ATOMIC_RELAXED);
	kshim_raw_unlock(&timer_list_word);
}

/*
 * CONFIG_DEBUG_OBJECTS_TIMERS' check at free (debug_check_no_obj_freed()):
 * memory being freed must not hold a pending timer, which would fire into
 * it later, or into whatever reuses it. The kernel warns "ODEBUG: free
 * active" with the timer's function as the hint, and takes the timer off
 * its wheel (timer_fixup_free()); kshim does the same, so that the run goes
 * on to its report, and names a delayed_work's function too. kshim also
 * checks free_percpu(), which the kernel's debugobjects does not: a
 * per-CPU delayed_work is as exposed.
 */
void kshim_timer_check_free(const void *addr, size_t size)
{
	const char *start = addr, *end = start + size;
	struct timer_list *timer, *found;

	if (!__atomic_load_n(&timers_pending, __ATOMIC_RELAXED) ||
	    size < sizeof(*timer))
		return;
	for (;;) {
		found = NULL;
		kshim_raw_lock(&timer_list_word);
		hlist_for_each_entry(timer, &timer_list_head, entry) {
			if ((const char *)timer >= start &&
			    (const char *)(timer + 1) <= end) {
				found = timer;
				break;
			}
		}
		kshim_raw_unlock(&timer_list_word);
		if (!found)
			return;
		/* First, so that it cannot fire while the report prints. */
		timer_delete(found);
		pr_err("ODEBUG: free active (active state 0) object: %p object type: timer_list hint: %pS\n",
		       found, found->function);
		/* The line a finding names (kshim_test_known_warn()). */
		if (found->function == delayed_work_timer_fn)
			pr_err("ODEBUG: the timer is the delayed_work of %ps\n",
			       container_of(found, struct delayed_work,
					    timer)->work.func);
		WARN_ON(1);
	}
}

static int __mod_timer(struct timer_list *timer, unsigned long expires,
		       bool pending_only)
{
	unsigned long flags;
	int was_pending;

	raw_spin_lock_irqsave(&timer_lock, flags);
	/* A shut-down timer has no function; re-arming it does nothing. */
	if (!timer->function) {
		raw_spin_unlock_irqrestore(&timer_lock, flags);
		return 0;
	}
	was_pending = detach_timer(timer);
	if (!pending_only || was_pending) {
		timer->expires = expires;
		link_timer(timer);
	}
	raw_spin_unlock_irqrestore(&timer_lock, flags);
	__atomic_add_fetch(&timer_gen, 1, __ATOMIC_RELEASE);
	kshim_wake(&timer_gen, 1);
	return was_pending;
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	return __mod_timer(timer, expires, false);
}

int mod_timer_pending(struct timer_list *timer, unsigned long expires)
{
	return __mod_timer(timer, expires, true);
}

int timer_reduce(struct timer_list *timer, unsigned long expires)
{
	if (timer_pending(timer) && time_before_eq(timer->expires, expires))
		return 1;
	return __mod_timer(timer, expires, false);
}

void add_timer(struct timer_list *timer)
{
	if (timer_pending(timer))
		kshim_fatal("add_timer() of a pending timer %p", timer);
	mod_timer(timer, timer->expires);
}

void add_timer_on(struct timer_list *timer, int cpu)
{
	add_timer(timer);
}

void add_timer_local(struct timer_list *timer)
{
	add_timer(timer);
}

void add_timer_global(struct timer_list *timer)
{
	add_timer(timer);
}

int timer_delete(struct timer_list *timer)
{
	unsigned long flags;
	int ret;

	raw_spin_lock_irqsave(&timer_lock, flags);
	ret = detach_timer(timer);
	raw_spin_unlock_irqrestore(&timer_lock, flags);
	return ret;
}

/* -1 if the callback is running right now, else whether it was pending. */
int try_to_del_timer_sync(struct timer_list *timer)
{
	unsigned long flags;
	int ret = -1;

	raw_spin_lock_irqsave(&timer_lock, flags);
	if (running_timer != timer)
		ret = detach_timer(timer);
	raw_spin_unlock_irqrestore(&timer_lock, flags);
	return ret;
}

int timer_delete_sync(struct timer_list *timer)
{
	int ret;

	if (current == tick_task)
		kshim_fatal("timer_delete_sync() from a timer callback would deadlock");
	might_sleep();
	for (;;) {
		u32 seq = __atomic_load_n(&timer_seq, __ATOMIC_ACQUIRE);

		ret = try_to_del_timer_sync(timer);
		if (ret >= 0)
			return ret;
		kshim_wait(&timer_seq, seq, "timer_delete_sync");
	}
}

/*
 * As kernel/time/timer.c does: a shut-down timer is dequeued and loses its
 * function, in one step, so it can never be armed or run again.
 */
int timer_shutdown(struct timer_list *timer)
{
	unsigned long flags;
	int ret;

	raw_spin_lock_irqsave(&timer_lock, flags);
	ret = detach_timer(timer);
	timer->function = NULL;
	raw_spin_unlock_irqrestore(&timer_lock, flags);
	return ret;
}

int timer_shutdown_sync(struct timer_list *timer)
{
	int ret = timer_shutdown(timer);

	return timer_delete_sync(timer) || ret;
}

/* Run every timer whose expiry has come, one at a time, lock dropped. */
static void run_expired_timers(void)
{
	for (;;) {
		struct timer_list *timer, *due = NULL;
		void (*fn)(struct timer_list *);

		raw_spin_lock_irq(&timer_lock);
		hlist_for_each_entry(timer, &timer_list_head, entry) {
			if (time_after_eq(jiffies, timer->expires) &&
			    (!due || time_before(timer->expires, due->expires)))
				due = timer;
		}
		if (!due) {
			raw_spin_unlock_irq(&timer_lock);
			return;
		}
		detach_timer(due);
		running_timer = due;
		fn = due->function;
		raw_spin_unlock_irq(&timer_lock);

		__local_bh_disable_ip(_THIS_IP_, SOFTIRQ_OFFSET);
		fn(due);
		__local_bh_enable_ip(_THIS_IP_, SOFTIRQ_OFFSET);

		raw_spin_lock_irq(&timer_lock);
		running_timer = NULL;
		raw_spin_unlock_irq(&timer_lock);
		__atomic_add_fetch(&timer_seq, 1, __ATOMIC_RELEASE);
		kshim_wake(&timer_seq, INT_MAX);
	}
}

/* ns until the earliest pending timer is due, or U64_MAX if none. */
static u64 next_timer_ns(void)
{
	struct timer_list *timer;
	unsigned long first = 0;
	bool any = false;
	long delta;

	raw_spin_lock_irq(&timer_lock);
	hlist_for_each_entry(timer, &timer_list_head, entry) {
		if (!any || time_before(timer->expires, first))
			first = timer->expires;
		any = true;
	}
	raw_spin_unlock_irq(&timer_lock);
	if (!any)
		return U64_MAX;
	delta = (long)(first - jiffies);
	return delta <= 0 ? 0 : (u64)delta * (NSEC_PER_SEC / HZ);
}

/*
 * The timer interrupt. With a real clock it ticks at HZ, as the kernel's
 * periodic tick does. With virtual time it sleeps until the next timer is
 * due (like NO_HZ idle), so a run with nothing pending can be recognised
 * as hung.
 */
static void tick_main(void *unused)
{
	const u64 tick_ns = NSEC_PER_SEC / HZ;

	kshim_task_set_interrupt();
	while (!__atomic_load_n(&tick_stop, __ATOMIC_ACQUIRE)) {
		u32 gen = __atomic_load_n(&timer_gen, __ATOMIC_ACQUIRE);
		u64 wait_ns;

		kshim_time_update_jiffies();
		run_expired_timers();
		if (kshim_sched->virtual_time) {
			wait_ns = next_timer_ns();
			if (wait_ns == U64_MAX) {
				kshim_wait(&timer_gen, gen, "no timer pending");
				continue;
			}
		} else {
			wait_ns = tick_ns - kshim_clock_ns() % tick_ns;
		}
		if (wait_ns)
			kshim_wait_timeout(&timer_gen, gen, wait_ns, "next tick");
	}
}

void kshim_time_init(void)
{
	clock_base = kshim_sched->clock_ns();
	tick_task = kshim_task_run(tick_main, NULL, "ktimer", 0);
}

void kshim_time_exit(void)
{
	__atomic_store_n(&tick_stop, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&timer_gen, 1, __ATOMIC_RELEASE);
	kshim_wake(&timer_gen, 1);
	kshim_task_join(tick_task);
}

/* ---- timed sleeps -------------------------------------------------------- */

struct process_timer {
	struct timer_list timer;
	struct task_struct *task;
};

static void process_timeout(struct timer_list *t)
{
	struct process_timer *pt = from_timer(pt, t, timer);

	wake_up_process(pt->task);
}

/*
 * The kernel's schedule_timeout() contract: sleep in the state the caller
 * set until woken or until timeout jiffies pass; return the jiffies left
 * (0 when the time ran out).
 */
long schedule_timeout(long timeout)
{
	struct process_timer timer;
	unsigned long expire;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		pr_err("schedule_timeout: wrong timeout value %lx\n", timeout);
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = timeout + jiffies;
	timer.task = current;
	timer_setup_on_stack(&timer.timer, process_timeout, 0);
	mod_timer(&timer.timer, expire);
	/* For the parallel backend's watchdog: no hang in the making. */
	WRITE_ONCE(kshim_task_of(current)->timed_sleep, true);
	schedule();
	WRITE_ONCE(kshim_task_of(current)->timed_sleep, false);
	timer_delete_sync(&timer.timer);
	destroy_timer_on_stack(&timer.timer);
	timeout = expire - jiffies;
	return timeout < 0 ? 0 : timeout;
}

long schedule_timeout_interruptible(long timeout)
{
	__set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_killable(long timeout)
{
	__set_current_state(TASK_KILLABLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_idle(long timeout)
{
	__set_current_state(TASK_IDLE);
	return schedule_timeout(timeout);
}

long io_schedule_timeout(long timeout)
{
	return schedule_timeout(timeout);
}

void msleep(unsigned int msecs)
{
	unsigned long timeout = msecs_to_jiffies(msecs) + 1;

	while (timeout)
		timeout = schedule_timeout_uninterruptible(timeout);
}

unsigned long msleep_interruptible(unsigned int msecs)
{
	unsigned long timeout = msecs_to_jiffies(msecs) + 1;

	while (timeout)
		timeout = schedule_timeout_interruptible(timeout);
	return 0;
}

void usleep_range_state(unsigned long min, unsigned long max,
			unsigned int state)
{
	unsigned long timeout = usecs_to_jiffies(min) + 1;

	while (timeout) {
		__set_current_state(state);
		timeout = schedule_timeout(timeout);
	}
}

/* udelay()/ndelay(): busy-waits, allowed in atomic context, on the clock. */
void __ndelay(unsigned long nsecs)
{
	kshim_sched->spin_ns(nsecs);
}

void __udelay(unsigned long usecs)
{
	__ndelay(usecs * NSEC_PER_USEC);
}

/* asm-generic/delay.h scales usecs by 0x10C7 (2**32 / 1000000) for this. */
void __const_udelay(unsigned long xloops)
{
	__udelay(DIV_ROUND_UP(xloops, 0x10C7UL));
}

void __delay(unsigned long loops)
{
	__ndelay(loops);
}
