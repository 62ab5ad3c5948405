// SPDX-License-Identifier: GPL-2.0
/*
 * Fibers for the deterministic backend (kshim/host.h), each on an mmap'd
 * stack with a guard page below it. On x86-64 a switch saves and restores
 * only the callee-saved registers and the FPU control words (the System V
 * ABI says nothing else survives a call), about ten times cheaper than
 * swapcontext(), which also makes a sigprocmask system call; elsewhere
 * ucontext is used. The stacks are
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
#include <sanitizer/asan_interface.h>
#define ASAN_FIBERS 1
#else
#define ASAN_FIBERS 0
#endif

#define GUARD_SIZE	4096UL

struct kshim_fiber {
#ifdef __x86_64__
	void *sp;		/* saved stack pointer while switched out */
#else
	ucontext_t ctx;
#endif
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

#ifdef __x86_64__
/* Save callee-saved state on this stack, switch stacks, restore. */
__attribute__((naked, noinline))
static void ctx_switch(void **from_sp, void *to_sp)
{
	__asm__ volatile(
		"pushq %rbp\n\t"
		"pushq %rbx\n\t"
		"pushq %r12\n\t"
		"pushq %r13\n\t"
		"pushq %r14\n\t"
		"pushq %r15\n\t"
		"subq $8, %rsp\n\t"
		"stmxcsr (%rsp)\n\t"
		"fnstcw 4(%rsp)\n\t"
		"movq %rsp, (%rdi)\n\t"
		"movq %rsi, %rsp\n\t"
		"ldmxcsr (%rsp)\n\t"
		"fldcw 4(%rsp)\n\t"
		"addq $8, %rsp\n\t"
		"popq %r15\n\t"
		"popq %r14\n\t"
		"popq %r13\n\t"
		"popq %r12\n\t"
		"popq %rbx\n\t"
		"popq %rbp\n\t"
		"ret\n\t");
}

static void fiber_entry_c(struct kshim_fiber *f);

/*
 * A new fiber's first "return": its fiber pointer was left in r12. The
 * undefined return address tells unwinders (backtrace()) the stack ends.
 */
__attribute__((naked, noinline))
static void fiber_trampoline(void)
{
	__asm__ volatile(
		".cfi_undefined rip\n\t"
		"movq %r12, %rdi\n\t"
		"call fiber_entry_c\n\t"
		"ud2\n\t");
}
#endif

struct kshim_fiber *kshim_host_fiber_self(void)
{
	return &main_fiber;
}

static __attribute__((used)) void fiber_entry_c(struct kshim_fiber *f)
{
#if ASAN_FIBERS
	asan_finish_switch(NULL);
#endif
	f->fn(f->arg);
	abort();	/* a fiber must never return: see kshim/host.h */
}

#ifndef __x86_64__
static void fiber_entry(unsigned int hi, unsigned int lo)
{
	fiber_entry_c((struct kshim_fiber *)(((unsigned long)hi << 32) | lo));
}
#endif

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
#if ASAN_FIBERS
	/* A new mapping may reuse an old fiber's addresses: their stack
	 * shadow (redzones of dead frames) must not carry over. */
	__asan_unpoison_memory_region(f->stack_bottom, stack_size);
#endif
	f->valgrind_id = VALGRIND_STACK_REGISTER(f->stack_bottom,
			(char *)f->stack_bottom + stack_size);
#ifdef __x86_64__
	{
		/*
		 * The frame ctx_switch() pops: FPU control words, r15..rbp
		 * (r12 = the fiber), then the trampoline as return address,
		 * leaving rsp 16-byte aligned for its call, as the ABI wants.
		 */
		unsigned long *sp = (unsigned long *)
			((char *)f->stack_bottom + stack_size);

		*--sp = (unsigned long)fiber_trampoline;
		*--sp = 0;				/* rbp */
		*--sp = 0;				/* rbx */
		*--sp = (unsigned long)f;		/* r12 */
		*--sp = 0;				/* r13 */
		*--sp = 0;				/* r14 */
		*--sp = 0;				/* r15 */
		*--sp = 0x037FUL << 32 | 0x1F80;	/* fcw, mxcsr */
		f->sp = sp;
	}
	(void)p;
#else
	getcontext(&f->ctx);
	f->ctx.uc_stack.ss_sp = (void *)f->stack_bottom;
	f->ctx.uc_stack.ss_size = stack_size;
	f->ctx.uc_link = NULL;
	p = (unsigned long)f;
	makecontext(&f->ctx, (void (*)(void))fiber_entry, 2,
		    (unsigned int)(p >> 32), (unsigned int)p);
#endif
	return f;
}

static inline void fiber_swap(struct kshim_fiber *from, struct kshim_fiber *to)
{
#ifdef __x86_64__
	ctx_switch(&from->sp, to->sp);
#else
	swapcontext(&from->ctx, &to->ctx);
#endif
}

void kshim_host_fiber_switch(struct kshim_fiber *from, struct kshim_fiber *to)
{
#if ASAN_FIBERS
	asan_from = from;
	__sanitizer_start_switch_fiber(&asan_fake_stack, to->stack_bottom,
				       to->stack_size);
	fiber_swap(from, to);
	asan_finish_switch(asan_fake_stack);
#else
	fiber_swap(from, to);
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
