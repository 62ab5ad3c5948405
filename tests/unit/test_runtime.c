// SPDX-License-Identifier: GPL-2.0
/*
 * kshim's own runtime, checked the way the kernel code under test relies
 * on it: lockdep_assert_held() really checks the owner, sleeping in atomic
 * context is reported, per-CPU variables are per simulated CPU, allocation
 * failure injection fails allocations, WARN_ON is counted, a mutex
 * excludes concurrent tasks, and a cache destroyed too early is kept.
 */
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/completion.h>
#include <linux/rcupdate.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>
#include <kshim/lock.h>
#include <linux/string.h>
#include <linux/uuid.h>
#include <kshim/runtime.h>

static DEFINE_SPINLOCK(test_lock);
static DEFINE_MUTEX(test_mutex);
static DEFINE_PER_CPU(unsigned long, test_pcpu);

static void test_lockdep_assert_held_checks_owner(void)
{
	spin_lock(&test_lock);
	lockdep_assert_held(&test_lock);	/* held: silent */
	spin_unlock(&test_lock);

	kshim_test_expect_reports(1);
	lockdep_assert_held(&test_lock);	/* not held: reported */
}

static void other_task_holds(void *arg)
{
	struct completion *c = arg;

	mutex_lock(&test_mutex);
	complete(&c[0]);
	wait_for_completion(&c[1]);
	mutex_unlock(&test_mutex);
}

static void test_lockdep_assert_held_by_other_task_fails(void)
{
	struct completion c[2];
	struct task_struct *t;

	init_completion(&c[0]);
	init_completion(&c[1]);
	t = kshim_task_run(other_task_holds, c, "holder", -1);
	wait_for_completion(&c[0]);
	KSHIM_ASSERT(mutex_is_locked(&test_mutex));
	kshim_test_expect_reports(1);
	lockdep_assert_held(&test_mutex);	/* locked, but not by us */
	complete(&c[1]);
	kshim_task_join(t);
	KSHIM_ASSERT(!mutex_is_locked(&test_mutex));
}

static void test_sleep_in_atomic_is_reported(void)
{
	spin_lock(&test_lock);
	kshim_test_expect_reports(1);
	might_sleep();
	spin_unlock(&test_lock);
	might_sleep();				/* not atomic: silent */
}

static void test_context_assertions_check_the_task_state(void)
{
	unsigned long flags;

	local_irq_save(flags);
	lockdep_assert_irqs_disabled();		/* holds: silent */
	lockdep_assert_preemption_disabled();
	local_irq_restore(flags);
	lockdep_assert_irqs_enabled();
	lockdep_assert_preemption_enabled();

	kshim_test_expect_warns(1);
	lockdep_assert_irqs_disabled();		/* does not hold: WARN */
}

static void test_percpu_is_per_simulated_cpu(void)
{
	unsigned long __percpu *dyn = alloc_percpu(unsigned long);
	int cpu;

	KSHIM_ASSERT_FATAL(dyn != NULL);
	KSHIM_ASSERT(nr_cpu_ids >= 1);
	for_each_possible_cpu(cpu) {
		*per_cpu_ptr(&test_pcpu, cpu) = 100 + cpu;
		*per_cpu_ptr(dyn, cpu) = 200 + cpu;
	}
	for_each_possible_cpu(cpu) {
		KSHIM_ASSERT_EQ(per_cpu(test_pcpu, cpu), 100 + cpu);
		KSHIM_ASSERT_EQ(*per_cpu_ptr(dyn, cpu), 200 + cpu);
	}
	if (nr_cpu_ids > 1)
		KSHIM_ASSERT(per_cpu_ptr(&test_pcpu, 0) !=
			     per_cpu_ptr(&test_pcpu, 1));
	/* this_cpu_* reach the current task's CPU. */
	this_cpu_add(test_pcpu, 5);
	KSHIM_ASSERT_EQ(per_cpu(test_pcpu, raw_smp_processor_id()),
			100 + raw_smp_processor_id() + 5);
	free_percpu(dyn);
}

static void test_alloc_failure_injection(void)
{
	void *p;

	kshim_alloc_fail_every(1);
	p = kmalloc(64, GFP_KERNEL);
	KSHIM_ASSERT_NULL(p);
	p = kmalloc(64, GFP_KERNEL | __GFP_NOFAIL);	/* never fails */
	KSHIM_ASSERT_NOT_NULL(p);
	kshim_alloc_fail_every(0);
	kfree(p);
	p = kmalloc(64, GFP_KERNEL);
	KSHIM_ASSERT_NOT_NULL(p);
	kfree(p);
}

static void test_warn_on_is_counted(void)
{
	unsigned long before = kshim_warn_count();

	kshim_test_expect_warns(1);
	KSHIM_ASSERT(WARN_ON(1));
	KSHIM_ASSERT(!WARN_ON(0));
	KSHIM_ASSERT_EQ(kshim_warn_count(), before + 1);
}

#define COUNTER_TASKS	8
static unsigned long shared_counter;	/* guarded by test_mutex */

static void count_under_mutex(void *arg)
{
	int i;

	for (i = 0; i < 2000; i++) {
		mutex_lock(&test_mutex);
		shared_counter++;
		mutex_unlock(&test_mutex);
	}
}

static void test_mutex_excludes_tasks(void)
{
	struct task_struct *t[COUNTER_TASKS];
	int i;

	shared_counter = 0;
	for (i = 0; i < COUNTER_TASKS; i++)
		t[i] = kshim_task_run(count_under_mutex, NULL, "counter", -1);
	for (i = 0; i < COUNTER_TASKS; i++)
		kshim_task_join(t[i]);
	KSHIM_ASSERT_EQ(shared_counter, COUNTER_TASKS * 2000);
}

static DEFINE_MUTEX(stat_mutex);

static void lock_stat_worker(void *unused)
{
	int i;

	for (i = 0; i < 1000; i++) {
		mutex_lock(&stat_mutex);
		cond_resched();		/* hold it across a switch point */
		mutex_unlock(&stat_mutex);
	}
}

static void test_lock_stat_counts_acquisitions_and_contention(void)
{
	struct task_struct *t[4];
	struct kshim_lock_class *c;
	int i;

	kshim_lock_stat_reset();
	kshim_lock_stat_enable(true);
	for (i = 0; i < 4; i++)
		t[i] = kshim_task_run(lock_stat_worker, NULL, "stat", -1);
	for (i = 0; i < 4; i++)
		kshim_task_join(t[i]);
	kshim_lock_stat_enable(false);
	c = kshim_lock_stat_find("stat_mutex");
	KSHIM_ASSERT_FATAL(c != NULL);
	KSHIM_ASSERT_EQ(c->acquisitions, 4000);
	KSHIM_ASSERT(c->contentions <= c->acquisitions);
	KSHIM_ASSERT(c->wait_max <= c->wait_total);
	/* One task at a time, switching while holding: others must wait. */
	if (!strcmp(kshim_sched->name, "det"))
		KSHIM_ASSERT(c->contentions > 0);
	kshim_lock_stat_print(5);
}

struct rcu_obj {
	int v;
	struct rcu_head rcu;
};

static void test_kfree_rcu_frees_after_grace_period(void)
{
	long before = kshim_alloc_outstanding();
	struct rcu_obj *o = kmalloc(sizeof(*o), GFP_KERNEL);

	KSHIM_ASSERT_FATAL(o != NULL);
	kfree_rcu(o, rcu);
	rcu_barrier();
	KSHIM_ASSERT_EQ(kshim_alloc_outstanding(), before);
}

/*
 * A cache destroyed with objects still live is reported and kept, as SLUB
 * keeps it: the objects point at it, and freeing one later must not touch
 * freed memory. kshim then frees the cache with its last object (ASan and
 * valgrind check both here: no invalid read, no leak).
 */
static void test_destroying_a_cache_with_live_objects_keeps_it(void)
{
	long before = kshim_alloc_outstanding();
	struct kmem_cache *s = kmem_cache_create("kshim_test_live", 48, 0, 0,
						 NULL);
	void *obj;

	KSHIM_ASSERT_FATAL(s != NULL);
	obj = kmem_cache_alloc(s, GFP_KERNEL);
	KSHIM_ASSERT_FATAL(obj != NULL);
	kshim_test_expect_reports(1);
	kmem_cache_destroy(s);
	KSHIM_ASSERT_EQ(kshim_kmem_cache_live(s), 1);
	kmem_cache_free(s, obj);	/* the cache goes with it */
	KSHIM_ASSERT_EQ(kshim_alloc_outstanding(), before);
}

/*
 * The kernel's snprintf family is kshim's, not the C library's: the
 * kernel's %p extensions that kshim knows come out as the kernel prints
 * them (lib/vsprintf.c), and a level passed as an argument ("%sXFS...",
 * as xfs_message.c does) is taken as the level, not printed.
 */
static void test_kernel_formats_are_kshims(void)
{
	static const uuid_t u = UUID_INIT(0x01234567, 0x89ab, 0xcdef, 0x01,
					  0x23, 0x45, 0x67, 0x89, 0xab, 0xcd,
					  0xef);
	char buf[64];

	snprintf(buf, sizeof(buf), "%pU", &u);
	KSHIM_ASSERT(!strcmp(buf, "01234567-89ab-cdef-0123-456789abcdef"));
	snprintf(buf, sizeof(buf), "%pUl", &u);
	KSHIM_ASSERT(!strcmp(buf, "67452301-ab89-efcd-0123-456789abcdef"));
	snprintf(buf, sizeof(buf), "%pUB", &u);
	KSHIM_ASSERT(!strcmp(buf, "01234567-89AB-CDEF-0123-456789ABCDEF"));
	KSHIM_ASSERT_EQ(snprintf(buf, 8, "%s-%d", "abcdef", 42), 9);
	KSHIM_ASSERT(!strcmp(buf, "abcdef-"));
	KSHIM_ASSERT_EQ(scnprintf(buf, 8, "%s-%d", "abcdef", 42), 7);

	kshim_printk_clear();
	printk("%skshim level test\n", KERN_INFO);
	KSHIM_ASSERT(kshim_printk_contains("kshim level test"));
	KSHIM_ASSERT(!kshim_printk_contains(KERN_INFO "kshim level test"));
}

static const struct kshim_test runtime_tests[] = {
	KSHIM_TEST(test_lockdep_assert_held_checks_owner),
	KSHIM_TEST(test_lockdep_assert_held_by_other_task_fails),
	KSHIM_TEST(test_sleep_in_atomic_is_reported),
	KSHIM_TEST(test_context_assertions_check_the_task_state),
	KSHIM_TEST(test_percpu_is_per_simulated_cpu),
	KSHIM_TEST(test_alloc_failure_injection),
	KSHIM_TEST(test_warn_on_is_counted),
	KSHIM_TEST(test_mutex_excludes_tasks),
	KSHIM_TEST(test_kfree_rcu_frees_after_grace_period),
	KSHIM_TEST(test_lock_stat_counts_acquisitions_and_contention),
	KSHIM_TEST(test_destroying_a_cache_with_live_objects_keeps_it),
	KSHIM_TEST(test_kernel_formats_are_kshims),
	{ }
};

KSHIM_SUITES({ "runtime", NULL, NULL, runtime_tests });
