// SPDX-License-Identifier: GPL-2.0
/*
 * The host side of kshim/host.h: the only runtime file built against the C
 * library (plus kshim_host_rcu.c and the test runner). Everything the
 * kernel world needs from the operating system goes through here.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <valgrind/memcheck.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include "kshim/host.h"

void *kshim_host_alloc(unsigned long size, unsigned long align)
{
	void *p;

	if (align <= 16)
		return malloc(size ? size : 1);
	if (posix_memalign(&p, align, size ? size : 1))
		return NULL;
	return p;
}

void kshim_host_free(void *p)
{
	free(p);
}

#if defined(__SANITIZE_THREAD__)
void AnnotateBenignRaceSized(const char *file, int line,
			     const volatile void *mem, unsigned long size,
			     const char *desc);
#endif

void kshim_host_tsan_benign_race(const void *p, unsigned long len,
				 const char *why)
{
#if defined(__SANITIZE_THREAD__)
	AnnotateBenignRaceSized(__FILE__, __LINE__, p, len, why);
#else
	(void)p;
	(void)len;
	(void)why;
#endif
}

void *kshim_host_reserve(unsigned long size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * Memory states for the page allocator's "physical memory" (a reserved
 * region the host cannot see allocations in): ASan poison and valgrind
 * access/definedness. No-ops outside ASan and valgrind.
 */
void kshim_host_mem_noaccess(void *p, unsigned long len)
{
#if defined(__SANITIZE_ADDRESS__)
	ASAN_POISON_MEMORY_REGION(p, len);
#endif
	VALGRIND_MAKE_MEM_NOACCESS(p, len);
}

void kshim_host_mem_undefined(void *p, unsigned long len)
{
#if defined(__SANITIZE_ADDRESS__)
	ASAN_UNPOISON_MEMORY_REGION(p, len);
#endif
	VALGRIND_MAKE_MEM_UNDEFINED(p, len);
}

void kshim_host_mem_defined(void *p, unsigned long len)
{
#if defined(__SANITIZE_ADDRESS__)
	ASAN_UNPOISON_MEMORY_REGION(p, len);
#endif
	VALGRIND_MAKE_MEM_DEFINED(p, len);
}

void kshim_host_futex_wait(unsigned int *word, unsigned int val)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

void kshim_host_futex_wake(unsigned int *word, int nr)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
}

int kshim_host_futex_wait_timeout(unsigned int *word, unsigned int val,
				  unsigned long long ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000ULL,
		.tv_nsec = ns % 1000000000ULL,
	};

	if (syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, val, &ts, NULL, 0) &&
	    errno == ETIMEDOUT)
		return 0;
	return 1;
}

struct thread_start {
	void (*fn)(void *);
	void *arg;
};

static void *thread_trampoline(void *p)
{
	struct thread_start ts = *(struct thread_start *)p;

	free(p);
	ts.fn(ts.arg);
	return NULL;
}

int kshim_host_thread_start(void (*fn)(void *), void *arg, unsigned long *id)
{
	struct thread_start *ts = malloc(sizeof(*ts));
	pthread_attr_t attr;
	pthread_t t;
	int err;

	if (!ts)
		return -ENOMEM;
	ts->fn = fn;
	ts->arg = arg;
	/* Small stacks: stress tests run a thousand tasks. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	err = pthread_create(&t, &attr, thread_trampoline, ts);
	pthread_attr_destroy(&attr);
	if (err) {
		free(ts);
		return -err;
	}
	*id = (unsigned long)t;
	return 0;
}

void kshim_host_thread_join(unsigned long id)
{
	pthread_join((pthread_t)id, NULL);
}

static __thread void *tls_task;

void *kshim_host_tls_get(void)
{
	return tls_task;
}

void kshim_host_tls_set(void *p)
{
	tls_task = p;
}

void kshim_host_yield(void)
{
	sched_yield();
}

unsigned long long kshim_host_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

unsigned long long kshim_host_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void kshim_host_sleep_ns(unsigned long long ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000ULL,
		.tv_nsec = ns % 1000000000ULL,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int kshim_host_vsnprintf(char *buf, unsigned long size, const char *fmt,
			 __builtin_va_list ap)
{
	return vsnprintf(buf, size, fmt, ap);
}

void kshim_host_write_err(const char *s, unsigned long len)
{
	kshim_host_write_fd(STDERR_FILENO, s, len);
}

int kshim_host_backtrace(void **buf, int n)
{
	return backtrace(buf, n);
}

unsigned long kshim_host_thread_self(void)
{
	return (unsigned long)pthread_self();
}

/* The request kshim_host_thread_backtrace() signals a thread with. Static:
 * a thread that answers after the 200 ms writes into these, not into a
 * stack frame that is gone. */
#define BACKTRACE_FRAMES	64
static struct {
	pthread_t target;
	void *frames[BACKTRACE_FRAMES];
	int n;
	int done;
} bt_request;

static void backtrace_signal(int sig)
{
	int saved = errno;

	if (pthread_equal(pthread_self(), bt_request.target)) {
		bt_request.n = backtrace(bt_request.frames, BACKTRACE_FRAMES);
		__atomic_store_n(&bt_request.done, 1, __ATOMIC_RELEASE);
	}
	errno = saved;
}

static bool in_executable(void *addr, Dl_info *info);

int kshim_host_thread_backtrace(unsigned long thread, void **buf, int n)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static bool installed;
	struct timespec ms = { 0, 1000000 };
	int i, first, got = 0;

	pthread_mutex_lock(&lock);
	if (!installed) {
		struct sigaction sa = { .sa_handler = backtrace_signal };

		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		installed = !sigaction(SIGRTMIN + 7, &sa, NULL);
	}
	bt_request.target = (pthread_t)thread;
	__atomic_store_n(&bt_request.done, 0, __ATOMIC_RELEASE);
	if (installed && !pthread_kill((pthread_t)thread, SIGRTMIN + 7))
		for (i = 0; i < 200; i++) {
			if (__atomic_load_n(&bt_request.done, __ATOMIC_ACQUIRE))
				break;
			nanosleep(&ms, NULL);
		}
	if (__atomic_load_n(&bt_request.done, __ATOMIC_ACQUIRE)) {
		/* From the first frame of the executable: not the handler
		 * and the C library's signal return and futex call. */
		for (first = 0; first < bt_request.n; first++) {
			Dl_info info = { 0 };

			if (first && in_executable(bt_request.frames[first],
						   &info))
				break;
		}
		for (; first < bt_request.n && got < n; first++)
			buf[got++] = bt_request.frames[first];
	}
	bt_request.target = (pthread_t)0;
	pthread_mutex_unlock(&lock);
	return got;
}

/*
 * The executable's path, for addr2line. Read in this process: under
 * valgrind, /proc/PID/exe seen from another process is valgrind's tool,
 * while valgrind answers the client's own readlink() with the client.
 */
const char *kshim_host_exe_path(void)
{
	static char path[4096];
	ssize_t n;

	if (!path[0]) {
		n = readlink("/proc/self/exe", path, sizeof(path) - 1);
		if (n <= 0)
			snprintf(path, sizeof(path), "/proc/%d/exe",
				 (int)getpid());
		else
			path[n] = 0;
	}
	return path;
}

/*
 * Whether ADDR is code of the executable, the one file addr2line reads
 * (a shared library's frames, CUnit's, must not be looked up in it: their
 * offsets would name unrelated lines of the executable). INFO: dladdr's.
 */
static bool in_executable(void *addr, Dl_info *info)
{
	static Dl_info self;

	if (!self.dli_fbase && !dladdr((void *)kshim_host_exe_path, &self))
		return false;
	return dladdr(addr, info) && info->dli_fbase == self.dli_fbase;
}

/*
 * addr2line (binutils, installed with gcc) with OPTS on the frames of BUF
 * that are in the executable, reading its output; NULL if it cannot run.
 * Return addresses point after the call: each steps back one.
 */
static FILE *addr2line(const char *opts, void *const *buf, int n)
{
	char cmd[4096];
	size_t len;
	int i;

	len = snprintf(cmd, sizeof(cmd), "addr2line %s -e '%s'", opts,
		       kshim_host_exe_path());
	for (i = 0; i < n && len < sizeof(cmd) - 32; i++) {
		Dl_info info = { 0 };

		if (!in_executable(buf[i], &info))
			continue;
		len += snprintf(cmd + len, sizeof(cmd) - len, " %#lx",
				(unsigned long)((char *)buf[i] - 1 -
						(char *)info.dli_fbase));
	}
	return popen(cmd, "r");
}

/*
 * Print a call chain as function and file:line for frames in the
 * executable; raw addresses for the rest, or if addr2line is missing.
 */
/* One line of addr2line -a -p: without its "0x...: " address; nothing
 * for a frame it cannot name. */
static void print_frame_line(const char *line)
{
	const char *text = line;

	if (!strncmp(line, "0x", 2) && strstr(line, ": "))
		text = strstr(line, ": ") + 2;
	if (!strstr(text, "??"))
		fprintf(stderr, "        %s", text);
}

void kshim_host_print_backtrace(void *const *buf, int n)
{
	char line[1024];
	/* -a: each frame's lines start with its address, so that the
	 * library frames, which addr2line is not given, go in between. */
	FILE *p = addr2line("-a -f -i -p -C", buf, n);
	bool pending;
	int i;

	if (!p) {
		backtrace_symbols_fd(buf, n, STDERR_FILENO);
		return;
	}
	pending = fgets(line, sizeof(line), p) != NULL;
	for (i = 0; i < n; i++) {
		Dl_info info = { 0 };

		if (!in_executable(buf[i], &info)) {
			const char *lib = info.dli_fname ?
				strrchr(info.dli_fname, '/') : NULL;

			if (info.dli_sname)
				fprintf(stderr, "        %s+%#lx in %s\n",
					info.dli_sname,
					(unsigned long)((char *)buf[i] -
							(char *)info.dli_saddr),
					lib ? lib + 1 : info.dli_fname);
			else if (info.dli_fname)
				fprintf(stderr, "        %s+%#lx\n",
					lib ? lib + 1 : info.dli_fname,
					(unsigned long)((char *)buf[i] -
							(char *)info.dli_fbase));
			continue;
		}
		if (!pending)
			break;
		/* The frame's "0x...: " line, then its "(inlined by)" ones. */
		print_frame_line(line);
		while ((pending = fgets(line, sizeof(line), p) != NULL) &&
		       strncmp(line, "0x", 2))
			print_frame_line(line);
	}
	while (fgets(line, sizeof(line), p))
		;
	if (pclose(p))
		backtrace_symbols_fd(buf, n, STDERR_FILENO);
}

char *kshim_host_symbolize(void *const *buf, int n, const char *skip,
			   char *out, unsigned long size)
{
	char line[1024];
	size_t used = 0;
	FILE *p = addr2line("-f -i -p", buf, n);

	out[0] = 0;
	if (!p)
		return out;
	/* "func at file:line" or " (inlined by) func at file:line" */
	while (fgets(line, sizeof(line), p)) {
		char *f = line, *end;

		if (strncmp(f, " (inlined by) ", 14) == 0)
			f += 14;
		end = strstr(f, " at ");
		if (!end || f[0] == '?' || (skip && !strncmp(f, skip, strlen(skip))))
			continue;
		*end = 0;
		used += snprintf(out + used, used < size ? size - used : 0,
				 "%s%s", used ? " < " : "", f);
		if (used >= size)
			break;
	}
	pclose(p);
	return out;
}

char *kshim_host_where(void *addr, char *out, unsigned long size)
{
	char line[1024];
	size_t used = 0;
	FILE *p = addr2line("-f -i -p", &addr, 1);

	out[0] = 0;
	if (!p)
		return out;
	/* "func at /dir/file.c:line", then " (inlined by) ..." lines */
	while (fgets(line, sizeof(line), p) && used < size) {
		char *f = line, *at, *file;

		if (strncmp(f, " (inlined by) ", 14) == 0)
			f += 14;
		at = strstr(f, " at ");
		if (!at || f[0] == '?')
			continue;
		*at = 0;
		file = strrchr(at + 4, '/');
		file = file ? file + 1 : at + 4;
		file[strcspn(file, " \n")] = 0;
		used += snprintf(out + used, size - used, "%s%s (%s)",
				 used ? " < " : "", f, file);
	}
	pclose(p);
	return out;
}

int kshim_host_open_write(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

void kshim_host_write_fd(int fd, const char *s, unsigned long len)
{
	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		s += n;
		len -= n;
	}
}

void kshim_host_close(int fd)
{
	close(fd);
}

const char *kshim_host_getenv(const char *name)
{
	return getenv(name);
}

/* Where a run writes, or which seeds a sweep takes (a seed replays
 * alone), not what it does: no part of a replay. */
static const char *const not_replayed[] = {
	"KSHIM_SEED=", "KSHIM_SEEDS=", "KSHIM_VERBOSE=", "KSHIM_SCENARIO_OUT=",
	"KSHIM_SCHEDULE_FILE=", "KSHIM_RESULTS_FD=", "KSHIM_COV_MAP=",
	"KSHIM_SHARD=", "KSHIM_SHARD_TOTAL=", "KSHIM_SWEEP_TESTS=", NULL
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *kshim_host_replay_env(void)
{
	extern char **environ;
	static char buf[1024];
	const char *words[64];
	size_t len = 0;
	int i, n = 0;
	char **e;

	for (e = environ; *e && n < 64; e++) {
		if (strncmp(*e, "KSHIM_", 6) || !strchr(*e, '='))
			continue;
		for (i = 0; not_replayed[i]; i++)
			if (!strncmp(*e, not_replayed[i],
				     strlen(not_replayed[i])))
				break;
		/* Values with a space would need quoting: none has one. */
		if (!not_replayed[i] && !strchr(*e, ' '))
			words[n++] = *e;
	}
	/* In name order: the same line whatever order the caller set them. */
	qsort(words, n, sizeof(words[0]), cmp_str);
	buf[0] = '\0';
	for (i = 0; i < n && len + strlen(words[i]) + 2 <= sizeof(buf); i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s ", words[i]);
	return buf;
}

unsigned long long kshim_host_strtoull(const char *s)
{
	return strtoull(s, NULL, 0);
}

void kshim_host_abort(void)
{
	fflush(NULL);
	abort();
}

void kshim_host_exit(int status)
{
	fflush(NULL);
	_exit(status);
}
