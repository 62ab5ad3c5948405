// SPDX-License-Identifier: GPL-2.0
/*
 * Fibers for the deterministic backend (kshim/host.h): ucontext contexts,
 * each on an mmap'd stack with a guard page below it. The stacks are
 * registered with valgrind (so it does not take a switch for a stack
 * overflow) and the switches announced to AddressSanitizer (so it tracks
 * which stack is live). ThreadSanitizer runs the parallel backend only:
 * with one host thread, the deterministic backend has no data races to
 * find (see README).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <valgrind/valgrind.h>

#include "kshim/host.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define ASAN_FIBERS 1
#else
#define ASAN_FIBERS 0
#endif

#define GUARD_SIZE	4096UL

struct kshim_fiber {
	ucontext_t ctx;
	void *map;		/* guard page + stack; NULL for a thread's own */
	unsigned long map_size;
	unsigned int valgrind_id;
	void (*fn)(void *);
	void *arg;
	const void *stack_bottom;	/* for ASan */
	size_t stack_size;
};

static struct kshim_fiber main_fiber;

#if ASAN_FIBERS
/*
 * ASan must be told the stack being switched to. The main thread's stack
 * bounds are learnt from the first switch away from it.
 */
static void *asan_fake_stack;
static struct kshim_fiber *asan_from;

static void asan_finish_switch(void *fake_stack)
{
	const void *old_bottom;
	size_t old_size;

	__sanitizer_finish_switch_fiber(fake_stack, &old_bottom, &old_size);
	if (asan_from == &main_fiber && !main_fiber.stack_bottom) {
		main_fiber.stack_bottom = old_bottom;
		main_fiber.stack_size = old_size;
	}
}
#endif

struct kshim_fiber *kshim_host_fiber_self(void)
{
	return &main_fiber;
}

static void fiber_entry(unsigned int hi, unsigned int lo)
{
	struct kshim_fiber *f = (struct kshim_fiber *)
		(((unsigned long)hi << 32) | lo);

#if ASAN_FIBERS
	asan_finish_switch(NULL);
#endif
	f->fn(f->arg);
	abort();	/* a fiber must never return: see kshim/host.h */
}

struct kshim_fiber *kshim_host_fiber_create(void (*fn)(void *), void *arg,
					    unsigned long stack_size)
{
	struct kshim_fiber *f = calloc(1, sizeof(*f));
	unsigned long p;

	if (!f)
		return NULL;
	f->map_size = GUARD_SIZE + stack_size;
	f->map = mmap(NULL, f->map_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (f->map == MAP_FAILED) {
		free(f);
		return NULL;
	}
	mprotect(f->map, GUARD_SIZE, PROT_NONE);
	f->fn = fn;
	f->arg = arg;
	f->stack_bottom = (char *)f->map + GUARD_SIZE;
	f->stack_size = stack_size;
	f->valgrind_id = VALGRIND_STACK_REGISTER(f->stack_bottom,
			(char *)f->stack_bottom + stack_size);
	getcontext(&f->ctx);
	f->ctx.uc_stack.ss_sp = (void *)f->stack_bottom;
	f->ctx.uc_stack.ss_size = stack_size;
	f->ctx.uc_link = NULL;
	p = (unsigned long)f;
	makecontext(&f->ctx, (void (*)(void))fiber_entry, 2,
		    (unsigned int)(p >> 32), (unsigned int)p);
	return f;
}

void kshim_host_fiber_switch(struct kshim_fiber *from, struct kshim_fiber *to)
{
#if ASAN_FIBERS
	asan_from = from;
	__sanitizer_start_switch_fiber(&asan_fake_stack, to->stack_bottom,
				       to->stack_size);
	swapcontext(&from->ctx, &to->ctx);
	asan_finish_switch(asan_fake_stack);
#else
	swapcontext(&from->ctx, &to->ctx);
#endif
}

void kshim_host_fiber_destroy(struct kshim_fiber *f)
{
	if (!f || f == &main_fiber)
		return;
	VALGRIND_STACK_DEREGISTER(f->valgrind_id);
	munmap(f->map, f->map_size);
	free(f);
}
