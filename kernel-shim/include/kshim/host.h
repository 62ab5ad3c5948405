/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's whole boundary to the host (like LKL's host_ops): threads,
 * futexes, time, memory, output, RCU and exit. Kernel-world code (compiled
 * with -nostdinc against kernel headers) calls only these; host-world code
 * (kshim_host*.c, with the C library) implements them. Plain C types only,
 * so the header is valid in both worlds.
 */
#ifndef _KSHIM_HOST_H
#define _KSHIM_HOST_H

/* Memory from the C library: counted by the caller, not here. */
void *kshim_host_alloc(unsigned long size, unsigned long align);
void kshim_host_free(void *p);
/* Reserve (not commit) a large zeroed region; never freed. */
void *kshim_host_reserve(unsigned long size);
/* ASan poisoning and valgrind state of part of a reserved region: no
 * access (free pages), undefined (newly allocated), defined (zeroed). */
void kshim_host_mem_noaccess(void *p, unsigned long len);
void kshim_host_mem_undefined(void *p, unsigned long len);
void kshim_host_mem_defined(void *p, unsigned long len);

/* Sleep while *word == val (may return spuriously); wake up to nr sleepers. */
void kshim_host_futex_wait(unsigned int *word, unsigned int val);
void kshim_host_futex_wake(unsigned int *word, int nr);
/* The same wait for at most ns nanoseconds; 0 if the time ran out. */
int kshim_host_futex_wait_timeout(unsigned int *word, unsigned int val,
				  unsigned long long ns);

/* Threads: every kshim task in the parallel backend is one. */
int kshim_host_thread_start(void (*fn)(void *), void *arg, unsigned long *id);
void kshim_host_thread_join(unsigned long id);
void *kshim_host_tls_get(void);
void kshim_host_tls_set(void *p);
void kshim_host_yield(void);

/* CLOCK_MONOTONIC in nanoseconds; sleep for ns nanoseconds. */
unsigned long long kshim_host_clock_ns(void);
void kshim_host_sleep_ns(unsigned long long ns);
/* CPU time of the whole process, every thread, in nanoseconds: what a
 * benchmark costs on a machine other work also loads. */
unsigned long long kshim_host_cpu_ns(void);

/*
 * Fibers for the deterministic backend: user-level contexts on one host
 * thread, each on its own stack, registered with valgrind and the
 * sanitizers. A fiber's function must never return: the scheduler
 * switches away from a finished task and frees its fiber from another.
 */
struct kshim_fiber;
struct kshim_fiber *kshim_host_fiber_self(void);
struct kshim_fiber *kshim_host_fiber_create(void (*fn)(void *), void *arg,
					    unsigned long stack_size);
void kshim_host_fiber_switch(struct kshim_fiber *from, struct kshim_fiber *to);
void kshim_host_fiber_destroy(struct kshim_fiber *f);

/* The calling context's return addresses, and printing them to stderr. */
int kshim_host_backtrace(void **buf, int n);
/*
 * Another thread's (a kshim_host_thread_self() value): a signal makes it
 * take its own, for a hang report; 0 frames if it does not answer within
 * 200 ms (under TSan a thread blocked in a futex never does). Only for a
 * report before the run aborts: the thread's futex wait returns early.
 */
unsigned long kshim_host_thread_self(void);
int kshim_host_thread_backtrace(unsigned long thread, void **buf, int n);
void kshim_host_print_backtrace(void *const *buf, int n);
/*
 * The function names of a call chain, innermost first, inlined frames
 * included, joined by " < " into out; frames whose name starts with skip
 * (e.g. "kshim_") are left out. Returns out.
 */
char *kshim_host_symbolize(void *const *buf, int n, const char *skip,
			   char *out, unsigned long size);

/* The running executable's path (read in this process: see kshim_host.c). */
const char *kshim_host_exe_path(void);
/*
 * A code address as the kernel's %pS prints it, "function+0xoff/0xsize"
 * (with_offset), or as %ps, "function", into out; -1 if no symbol holds
 * it (kshim_host_symbols.c).
 */
int kshim_host_symbol_name(const void *addr, int with_offset,
			   char *out, unsigned long size);

/* One code address as "function (file.c:line)", inlined frames joined
 * by " < ", innermost first; empty if it cannot be told. Returns out. */
char *kshim_host_where(void *addr, char *out, unsigned long size);

/* Output files (the deterministic backend's schedule log). */
int kshim_host_open_write(const char *path);
void kshim_host_write_fd(int fd, const char *s, unsigned long len);
void kshim_host_close(int fd);

/* Output and formatting (the C library's printf, not the kernel's). */
int kshim_host_vsnprintf(char *buf, unsigned long size, const char *fmt,
			 __builtin_va_list ap);
void kshim_host_write_err(const char *s, unsigned long len);
const char *kshim_host_getenv(const char *name);
/*
 * The KSHIM_* settings of this run other than the seed, as
 * "NAME=VALUE " words to put before KSHIM_SEED=N in a replay line: the
 * backend, the strategy and the CPUs decide the schedule as much as the
 * seed does. Empty when none is set.
 */
const char *kshim_host_replay_env(void);
unsigned long long kshim_host_strtoull(const char *s);

void __attribute__((noreturn)) kshim_host_abort(void);
void __attribute__((noreturn)) kshim_host_exit(int status);

/*
 * Tell ThreadSanitizer that races on [p, p + len) are intended (why says
 * whose intent, for TSan's list of matched benign races); a no-op
 * without TSan. The range stays annotated for the life of the process.
 */
void kshim_host_tsan_benign_race(const void *p, unsigned long len,
				 const char *why);

/* RCU for the parallel backend: liburcu (memb flavour). */
void kshim_host_rcu_register(void);
void kshim_host_rcu_unregister(void);
void kshim_host_rcu_read_lock(void);
void kshim_host_rcu_read_unlock(void);
void kshim_host_synchronize_rcu(void);

#endif
