/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's runtime API for tests and glue: start-up, failure reporting,
 * captured printk, WARN and error counters, allocation accounting and
 * failure injection. Kernel-world header.
 */
#ifndef _KSHIM_RUNTIME_H
#define _KSHIM_RUNTIME_H

#include <linux/types.h>
#include <linux/compiler.h>

/* Idempotent; run on first use of current or of any runtime service. */
void kshim_runtime_init(void);
/* Checks at the end of a test binary: leaks, unexpected WARNs/reports. */
int kshim_runtime_exit_checks(void);
/*
 * Run fn at the start of the exit checks, before the workqueues and RCU
 * stop (newest first): where glue that ran a subsystem's module init
 * runs its module exit, so that what lives until unload is given back
 * rather than reported as a leak.
 */
void kshim_at_exit(void (*fn)(void));

/* The seed of this run (KSHIM_SEED, or chosen and printed at start). */
u64 kshim_seed(void);
/* A PRNG stream from the run's seed (xorshift*): same seed, same values. */
u64 kshim_random(u64 *state);

/* kmalloc() of MIN_SIZE bytes or more from pages (0: never), see kshim_slab.c. */
void kshim_kmalloc_from_pages(size_t min_size);

/* Abort the run now: message, task, seed. */
void __noreturn __printf(1, 2) kshim_fatal(const char *fmt, ...);
/*
 * A kernel-detected bug that must fail the test but need not stop the
 * program (sleep in atomic context, preempt count underflow, leak): print
 * it and count it. The test runner fails the test whose count rose.
 */
void __printf(1, 2) kshim_report(const char *fmt, ...);
unsigned long kshim_report_count(void);
/* An information line of kshim's own (not the kernel's): always shown. */
void __printf(1, 2) kshim_info(const char *fmt, ...);
unsigned long kshim_warn_count(void);

/* A kernel function kshim does not provide was called. */
void __noreturn kshim_unimplemented(const char *func);

/*
 * printk capture: everything printed is kept in a buffer (and echoed to
 * stderr when KSHIM_VERBOSE is set) so tests can assert on it.
 */
void kshim_printk_clear(void);
bool kshim_printk_contains(const char *needle);
const char *kshim_printk_buffer(void);
/*
 * A mark of what has been printed so far, and whether NEEDLE was printed
 * after it (and is still in the buffer, which keeps the newest 128 KiB
 * at least; kshim_printk_clear() empties it): for glue that checks the
 * kernel's messages of one step without clearing the test's.
 */
unsigned long kshim_printk_mark(void);
bool kshim_printk_contains_since(unsigned long mark, const char *needle);

/* Allocation accounting (kmalloc, kmem_cache, vmalloc, pages, percpu). */
long kshim_alloc_outstanding(void);
unsigned long kshim_alloc_count(void);
/*
 * Objects of cache S allocated and not yet given back: a kmem_cache_free()
 * has not run for them (e.g. an RCU callback that frees one is still
 * waiting for its grace period).
 */
struct kmem_cache;
long kshim_kmem_cache_live(struct kmem_cache *s);
/* Fail every nth allocation (0: off) / with probability ppm from the seed. */
void kshim_alloc_fail_every(unsigned long nth);
void kshim_alloc_fail_ppm(unsigned long ppm);
/* Fail one allocation: the first that may fail from the nth on (0: off). */
void kshim_alloc_fail_nth(unsigned long nth);
unsigned long kshim_alloc_failures(void);
/*
 * User-copy faults (kshim_usercopy.c): a page of a writer's buffer
 * that is not resident, or not mapped, at ADDR. kshim's buffers are
 * kernel memory, whose copies never come up short; a user's can. TIMES
 * > 0: the next TIMES copies into the page cache (the buffered write's
 * copy_folio_from_iter_atomic(), page faults disabled) that reach ADDR
 * stop there, as when reclaim takes the page again after each fault-in;
 * then the fault is gone. TIMES < 0: ADDR and every byte of the buffer
 * after it are not mapped: the copies stop there and
 * fault_in_iov_iter_readable() reports them unreadable (the write's
 * -EFAULT), until kshim_usercopy_fault(NULL, 0). The copies that came up
 * short so far: kshim_usercopy_short_copies().
 */
void kshim_usercopy_fault(const void *addr, long times);
unsigned long kshim_usercopy_short_copies(void);
/*
 * Workqueue workers alive, all pools. A pool starts workers as work
 * waits and never culls them (kshim_workqueue.c): each is two
 * allocations (the worker, its kthread) a leak check between a fuzz
 * target's inputs does not count as the input's.
 */
long kshim_workqueue_workers(void);
#define KSHIM_WORKER_ALLOCS	2
/* Per-CPU caches (the radix tree's preloads...) given back, as at exit:
 * between a fuzz target's inputs, before its leak check. */
void kshim_cpu_caches_drain(void);
/* Report every allocation still live (type, size, call site). */
long kshim_alloc_report_leaks(void);
/* Pages (kshim_page_alloc.c): allocated now; report the live ones (a
 * kshim report when there is any) and return how many. */
long kshim_page_outstanding(void);
long kshim_page_report_leaks(void);

/*
 * The memory-pressure model's view (kshim/vmscan.h): bytes in use
 * (objects and pages), and the hook every allocation calls first with
 * the caller's gfp and size when one is set (NULL by default).
 */
unsigned long kshim_mem_used_bytes(void);
/* Slab object bytes alone; and the page allocator's account of them
 * (kshim_page_alloc.c), told when their page count changes. */
unsigned long kshim_slab_bytes(void);
void kshim_slab_pages_changed(long pages);
/*
 * The zone reclaim works in (kshim_page_alloc.c, used by kshim/vmscan.h):
 * LIMIT pages with the min/low/high watermarks given (pages), slab bytes
 * counted in it; 0 restores the whole region, no watermarks.
 */
void kshim_zone_set_limit(unsigned long limit, unsigned long min,
			  unsigned long low, unsigned long high);
extern void (*kshim_alloc_pressure_hook)(gfp_t gfp, unsigned long bytes);
static inline void kshim_alloc_pressure(gfp_t gfp, unsigned long bytes)
{
	void (*hook)(gfp_t, unsigned long) =
		__atomic_load_n(&kshim_alloc_pressure_hook, __ATOMIC_ACQUIRE);

	if (hook)
		hook(gfp, bytes);
}

/* An alloc_percpu() area the kernel races on by design (kshim_cpu.c). */
void kshim_percpu_benign_race(void __percpu *ptr, const char *why);

/* VM event counter summed over the CPUs (linux/vm_event_item.h). */
unsigned long kshim_vm_event_sum(int item);

/*
 * A lock for the runtime's own bookkeeping (printk capture, the
 * allocator's live list, task lists...): a futex word taken directly from
 * the host, never a switch point, invisible to lock statistics and
 * lockdep checks, usable where a kernel lock would recurse into the
 * runtime. Held only for a few instructions.
 */
void kshim_raw_lock(u32 *word);
void kshim_raw_unlock(u32 *word);

#endif
