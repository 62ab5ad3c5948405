// SPDX-License-Identifier: GPL-2.0
/*
 * Simulated CPUs and per-CPU memory.
 *
 * nr_cpu_ids comes from KSHIM_NCPUS (default: the meson option ncpus), up
 * to CONFIG_NR_CPUS. Every simulated CPU has a unit of per-CPU memory; all
 * units are UNIT_SIZE apart in one reserved region. Unit 0 starts with a
 * copy of the static per-CPU section (.data..percpu, bracketed by
 * kshim_percpu.ld), and __per_cpu_offset[cpu] maps the section's link
 * address onto unit cpu, so per_cpu_ptr() of a DEFINE_PER_CPU variable
 * and of an alloc_percpu() pointer both work exactly as in the kernel.
 * Dynamic per-CPU allocations take offsets after the static copy, first
 * fit, under a mutex.
 */
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <kshim/host.h>
#include <kshim/lock.h>
#include <kshim/sched.h>
#include <kshim/runtime.h>
#include "kshim_internal.h"

#ifndef KSHIM_DEFAULT_NCPUS
#define KSHIM_DEFAULT_NCPUS 4
#endif

#define UNIT_SIZE	(8UL << 20)	/* reserved, committed only when touched */
#define PCPU_ALIGN	16

extern char __kshim_percpu_start[], __kshim_percpu_end[];

unsigned int nr_cpu_ids = 1;
struct cpumask __cpu_possible_mask;
struct cpumask __cpu_online_mask;
struct cpumask __cpu_present_mask;
struct cpumask __cpu_active_mask;
struct cpumask __cpu_enabled_mask;
struct cpumask __cpu_dying_mask;
atomic_t __num_online_cpus;
unsigned long __per_cpu_offset[NR_CPUS];

static char *pcpu_base;
static struct kshim_lock cpu_locks[NR_CPUS];

/*
 * Dynamic per-CPU chunks: a sorted list of used [start, end) offsets. An
 * area annotated as racy on purpose (kshim_percpu_benign_race()) is kept
 * in the list when freed, so that TSan's annotation, which cannot be
 * withdrawn, never covers a later allocation.
 */
struct pcpu_area {
	unsigned long start, end;
	bool benign_race, freed;
	bool boot;			/* allocated before the tests began */
	struct pcpu_area *next;
};
static struct pcpu_area *pcpu_used;
static unsigned long pcpu_static_size;
static DEFINE_MUTEX(pcpu_lock);
static atomic_long_t pcpu_outstanding;
static long pcpu_boot;		/* of those, boot areas (under pcpu_lock) */

/*
 * Each simulated CPU's copy of the static per-CPU section, as the linker
 * laid it out. Under clang's ASan every variable in it is followed by a
 * poisoned redzone (gcc leaves variables in named sections alone), which
 * a memcpy() of the whole section reads and reports: the copy is made
 * unchecked, byte by byte through volatile pointers so that the compiler
 * does not turn it back into a (checked) memcpy() call.
 */
static __no_sanitize_address void copy_percpu_section(char *to,
		const char *from, unsigned long len)
{
	volatile char *t = to;
	const volatile char *f = from;
	unsigned long i;

	for (i = 0; i < len; i++)
		t[i] = f[i];
}

void kshim_cpus_init(void)
{
	const char *s = kshim_host_getenv("KSHIM_NCPUS");
	unsigned long n = s ? kshim_host_strtoull(s) : KSHIM_DEFAULT_NCPUS;
	unsigned int cpu;

	if (n < 1 || n > NR_CPUS)
		kshim_fatal("KSHIM_NCPUS=%s: must be between 1 and %d", s,
			    NR_CPUS);
	nr_cpu_ids = n;
	pcpu_static_size = __kshim_percpu_end - __kshim_percpu_start;
	if (pcpu_static_size > UNIT_SIZE / 2)
		kshim_fatal("static per-CPU data (%lu bytes) is too large",
			    pcpu_static_size);
	pcpu_base = kshim_host_reserve(UNIT_SIZE * nr_cpu_ids);
	if (!pcpu_base)
		kshim_fatal("cannot reserve %lu bytes of per-CPU memory",
			    UNIT_SIZE * nr_cpu_ids);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		char *unit = pcpu_base + cpu * UNIT_SIZE;

		copy_percpu_section(unit, __kshim_percpu_start,
				    pcpu_static_size);
		__per_cpu_offset[cpu] = unit - __kshim_percpu_start;
		cpumask_set_cpu(cpu, &__cpu_possible_mask);
		cpumask_set_cpu(cpu, &__cpu_online_mask);
		cpumask_set_cpu(cpu, &__cpu_present_mask);
		cpumask_set_cpu(cpu, &__cpu_active_mask);
		cpumask_set_cpu(cpu, &__cpu_enabled_mask);
		kshim_lock_init(&cpu_locks[cpu], NULL);
		cpu_locks[cpu].name = "simulated-cpu";
	}
	atomic_set(&__num_online_cpus, nr_cpu_ids);
}

/* Ownership of a simulated CPU for an atomic section (kshim_task.c). */
void kshim_cpu_claim(int cpu)
{
	kshim_lock_acquire(&cpu_locks[cpu], KSHIM_CPU);
}

bool kshim_cpu_try_claim(int cpu)
{
	return kshim_lock_tryacquire(&cpu_locks[cpu], KSHIM_CPU);
}

void kshim_cpu_release(int cpu)
{
	kshim_lock_release(&cpu_locks[cpu]);
}

struct task_struct *kshim_cpu_holder(int cpu)
{
	return READ_ONCE(cpu_locks[cpu].owner);
}

/* A held CPU's interrupt window (see kshim/sched.h). */
enum { IRQ_WINDOW_CLOSED, IRQ_WINDOW_OPEN, IRQ_WINDOW_BORROWED };
static atomic_t irq_window[NR_CPUS];

void kshim_cpu_open_irq_window(int cpu)
{
	atomic_set(&irq_window[cpu], IRQ_WINDOW_OPEN);
}

/* The owner goes on once no interrupt runs on its CPU. */
void kshim_cpu_close_irq_window(int cpu)
{
	while (atomic_cmpxchg(&irq_window[cpu], IRQ_WINDOW_OPEN,
			      IRQ_WINDOW_CLOSED) != IRQ_WINDOW_OPEN)
		kshim_switch_point(KSHIM_SW_CPU_RELAX, NULL);
}

bool kshim_cpu_try_borrow(int cpu)
{
	return atomic_cmpxchg(&irq_window[cpu], IRQ_WINDOW_OPEN,
			      IRQ_WINDOW_BORROWED) == IRQ_WINDOW_OPEN;
}

void kshim_cpu_return(int cpu)
{
	atomic_set(&irq_window[cpu], IRQ_WINDOW_OPEN);
}

void __percpu *pcpu_alloc_noprof(size_t size, size_t align, bool reserved,
				 gfp_t gfp)
{
	struct pcpu_area **pp, *a;
	unsigned long start, cpu;

	if (!size || size > UNIT_SIZE / 4)
		return NULL;
	if (align < PCPU_ALIGN)
		align = PCPU_ALIGN;
	a = kshim_host_alloc(sizeof(*a), 0);
	if (!a)
		return NULL;
	mutex_lock(&pcpu_lock);
	start = ALIGN(pcpu_static_size, align);
	for (pp = &pcpu_used; *pp; pp = &(*pp)->next) {
		if (start + size <= (*pp)->start)
			break;
		start = ALIGN((*pp)->end, align);
	}
	if (start + size > UNIT_SIZE) {
		mutex_unlock(&pcpu_lock);
		kshim_host_free(a);
		return NULL;
	}
	a->start = start;
	a->end = start + size;
	a->benign_race = a->freed = a->boot = false;
	a->next = *pp;
	*pp = a;
	mutex_unlock(&pcpu_lock);
	/* Zeroed, as the kernel's percpu allocator returns memory. */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		memset(pcpu_base + cpu * UNIT_SIZE + start, 0, size);
	atomic_long_inc(&pcpu_outstanding);
	return (void __percpu *)(__kshim_percpu_start + start);
}

void free_percpu(void __percpu *ptr)
{
	unsigned long start = (char __force *)ptr - __kshim_percpu_start;
	struct pcpu_area **pp, *a;
	unsigned int cpu;

	if (!ptr)
		return;
	mutex_lock(&pcpu_lock);
	for (pp = &pcpu_used; *pp; pp = &(*pp)->next)
		if ((*pp)->start == start && !(*pp)->freed)
			break;
	a = *pp;
	if (a && a->boot)
		pcpu_boot--;	/* a module exit giving back its init's */
	if (a && a->benign_race)
		a->freed = true;
	else if (a)
		*pp = a->next;
	mutex_unlock(&pcpu_lock);
	if (!a)
		kshim_fatal("free_percpu(%p): not a per-CPU allocation", ptr);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		kshim_timer_check_free(per_cpu_ptr(ptr, cpu), a->end - a->start);
	if (!a->benign_race)
		kshim_host_free(a);
	atomic_long_dec(&pcpu_outstanding);
}

/**
 * kshim_percpu_benign_race - tell ThreadSanitizer a per-CPU area is racy
 * @ptr: an alloc_percpu() pointer
 * @why: the kernel's reason, in a few words
 *
 * Every CPU's copy of the area is annotated. The area is never reused
 * after free_percpu(), so the annotation does not outlive it: its size
 * stays taken, per CPU, for the rest of the run.
 */
void kshim_percpu_benign_race(void __percpu *ptr, const char *why)
{
	unsigned long start = (char __force *)ptr - __kshim_percpu_start;
	unsigned long size = 0;
	struct pcpu_area *a;
	unsigned int cpu;

	mutex_lock(&pcpu_lock);
	for (a = pcpu_used; a; a = a->next)
		if (a->start == start && !a->freed)
			break;
	if (a) {
		a->benign_race = true;
		size = a->end - a->start;
	}
	mutex_unlock(&pcpu_lock);
	if (!a)
		kshim_fatal("kshim_percpu_benign_race(%p): not a per-CPU allocation",
			    ptr);
	for_each_possible_cpu(cpu)
		kshim_host_tsan_benign_race(per_cpu_ptr(ptr, cpu), size, why);
}

/* Per-CPU areas allocated before the tests began (by initcalls) live
 * until exit and are not leaks: marked when the initcalls are done. */
void kshim_percpu_mark_boot_done(void)
{
	struct pcpu_area *a;

	mutex_lock(&pcpu_lock);
	for (a = pcpu_used; a; a = a->next)
		if (!a->freed && !a->boot) {
			a->boot = true;
			pcpu_boot++;
		}
	mutex_unlock(&pcpu_lock);
}

long kshim_percpu_outstanding(void)
{
	return atomic_long_read(&pcpu_outstanding) - pcpu_boot;
}
