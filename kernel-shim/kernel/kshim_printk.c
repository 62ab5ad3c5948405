// SPDX-License-Identifier: GPL-2.0
/*
 * printk, panic, BUG and WARN, and kshim's own failure reports.
 *
 * printk output, and the kernel's snprintf family, are formatted by the
 * C library's snprintf one conversion at a time, with the kernel's %pV,
 * %pg, %pU and %pS/%ps expanded by kshim (the other %p extensions are
 * not understood: see docs/FAKES.md). printk output is kept in a capture
 * buffer tests can search, and echoed to stderr when KSHIM_VERBOSE is set
 * or when the message is KERN_WARNING or worse.
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/panic.h>
#include <linux/blkdev.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/uuid.h>
#include <linux/hex.h>
#include <kshim/host.h>
#include <kshim/runtime.h>
#include <kshim/sched.h>

#define CAPTURE_SIZE	(256 * 1024)

static char capture[CAPTURE_SIZE];
static unsigned long capture_len;
static unsigned long capture_total;	/* bytes ever captured: the marks */
static u32 capture_lock;	/* a host-level lock: printk may run anywhere */
static bool verbose;
static atomic_long_t warn_count;
static atomic_long_t report_count;

static void capture_lock_acquire(void)
{
	kshim_raw_lock(&capture_lock);
}

static void capture_lock_release(void)
{
	kshim_raw_unlock(&capture_lock);
}

static void capture_append(const char *s, unsigned long len)
{
	capture_lock_acquire();
	if (capture_len + len >= CAPTURE_SIZE) {
		/* Keep the newest half: tests look at what just happened. */
		unsigned long keep = CAPTURE_SIZE / 2;

		memmove(capture, capture + capture_len - keep, keep);
		capture_len = keep;
	}
	memcpy(capture + capture_len, s, len);
	capture_len += len;
	capture_total += len;
	capture[capture_len] = '\0';
	capture_lock_release();
}

void kshim_printk_clear(void)
{
	capture_lock_acquire();
	capture_len = 0;
	capture[0] = '\0';
	capture_lock_release();
}

bool kshim_printk_contains(const char *needle)
{
	bool found;

	capture_lock_acquire();
	found = strstr(capture, needle) != NULL;
	capture_lock_release();
	return found;
}

unsigned long kshim_printk_mark(void)
{
	unsigned long mark;

	capture_lock_acquire();
	mark = capture_total;
	capture_lock_release();
	return mark;
}

bool kshim_printk_contains_since(unsigned long mark, const char *needle)
{
	unsigned long first;	/* capture[0]'s place in capture_total */
	bool found;

	capture_lock_acquire();
	first = capture_total - capture_len;
	found = strstr(capture + (mark > first ? mark - first : 0),
		       needle) != NULL;
	capture_lock_release();
	return found;
}

const char *kshim_printk_buffer(void)
{
	return capture;
}

static int last_level = LOGLEVEL_DEFAULT;

/*
 * The kernel's %pV (a struct va_format: a format and its va_list, how
 * xfs_message.c and other printk wrappers pass their arguments on) is
 * not known to the C library. kshim_vformat() formats one conversion at a
 * time with the C library and expands %pV itself, recursively, %pg (a
 * block device's name), %pU (a UUID) and %pS/%ps (a code address's
 * function). Other %p extensions print as a plain %p followed by their
 * letters.
 */
static int format_one(char *buf, size_t size, const char *spec, size_t len,
		      va_list *ap);

/* The C library's, for one conversion: in kernel files "snprintf" is
 * kshim's own (below). */
static int host_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kshim_host_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/*
 * %pU[bBlL]: a UUID as lib/vsprintf.c's uuid_string() prints it, bytes in
 * order (b, the default) or the first three fields little-endian (l);
 * capitals print upper case. The byte orders are the real lib/uuid.c's,
 * the digits the real lib/hexdump.c's.
 */
static int format_uuid(char *buf, size_t size, const u8 *uuid, char how)
{
	const u8 *idx = (how == 'l' || how == 'L') ? guid_index : uuid_index;
	const char *hex = (how == 'B' || how == 'L') ? hex_asc_upper : hex_asc;
	char out[UUID_STRING_LEN + 1], *o = out;
	int i;

	if (!uuid)
		return host_snprintf(buf, size, "(null)");
	for (i = 0; i < 16; i++) {
		*o++ = hex[uuid[idx[i]] >> 4];
		*o++ = hex[uuid[idx[i]] & 15];
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*o++ = '-';
	}
	*o = 0;
	return host_snprintf(buf, size, "%s", out);
}

/*
 * %pS, %pB and %pF: a code address as kallsyms prints it,
 * "function+0xoff/0xsize"; %ps: the function alone. As the kernel, the
 * bare hex address when no symbol holds it.
 */
static int format_symbol(char *buf, size_t size, void *addr, bool offset)
{
	char name[256];

	if (kshim_host_symbol_name(addr, offset, name, sizeof(name)) < 0)
		return host_snprintf(buf, size, "%#lx", (unsigned long)addr);
	return host_snprintf(buf, size, "%s", name);
}

static int kshim_vformat(char *buf, size_t size, const char *fmt, va_list *ap)
{
	size_t n = 0;

	while (*fmt) {
		const char *start = fmt;
		size_t room = n < size ? size - n : 0;
		int r;

		if (*fmt != '%') {
			while (*fmt && *fmt != '%')
				fmt++;
			r = fmt - start;
			if (room)
				memcpy(buf + n, start, min_t(size_t, r, room - 1));
		} else {
			fmt++;
			fmt += strspn(fmt, "-+ #0'");
			fmt += strspn(fmt, "0123456789*");
			if (*fmt == '.') {
				fmt++;
				fmt += strspn(fmt, "0123456789*");
			}
			fmt += strspn(fmt, "hlLqjzt");
			if (*fmt == 'p' && fmt[1] == 'V') {
				struct va_format *vaf = va_arg(*ap, struct va_format *);
				va_list inner;

				va_copy(inner, *vaf->va);
				r = kshim_vformat(room ? buf + n : NULL, room,
						  vaf->fmt, &inner);
				va_end(inner);
				fmt += 2;
			} else if (*fmt == 'p' && fmt[1] == 'g') {
				/* A block device: its disk's name (kshim's
				 * disks have no partitions). */
				struct block_device *bdev =
					va_arg(*ap, struct block_device *);

				r = host_snprintf(room ? buf + n : NULL, room, "%s",
					     bdev && bdev->bd_disk ?
					     bdev->bd_disk->disk_name : "(null)");
				fmt += 2;
			} else if (*fmt == 'p' && fmt[1] &&
				   strchr("SsBF", fmt[1])) {
				r = format_symbol(room ? buf + n : NULL, room,
						  va_arg(*ap, void *),
						  fmt[1] != 's');
				fmt += 2;
				if (*fmt == 'R')	/* %pSR: no difference here */
					fmt++;
			} else if (*fmt == 'p' && fmt[1] == 'U') {
				r = format_uuid(room ? buf + n : NULL, room,
						va_arg(*ap, const u8 *), fmt[2]);
				fmt += 2;
				if (*fmt && strchr("bBlL", *fmt))
					fmt++;
			} else {
				if (*fmt)
					fmt++;
				r = format_one(room ? buf + n : NULL, room, start,
					       fmt - start, ap);
			}
		}
		if (r < 0)
			return r;
		n += r;
		if (n < size)
			buf[n] = 0;
	}
	if (size)
		buf[min(n, size - 1)] = 0;
	return n;
}

/* One conversion SPEC (LEN bytes, "%" to the conversion letter). */
static int format_one(char *buf, size_t size, const char *spec, size_t len,
		      va_list *ap)
{
	char f[64], conv = spec[len - 1];
	size_t i, o = 0;
	bool l = false, ll = false, z = false;

	/* Copy the spec, replacing each '*' with the int argument it takes. */
	for (i = 0; i < len && o < sizeof(f) - 16; i++) {
		if (spec[i] == '*')
			o += host_snprintf(f + o, sizeof(f) - o, "%d",
					   va_arg(*ap, int));
		else
			f[o++] = spec[i];
	}
	f[o] = 0;
	/* Length modifiers; h and hh arguments are promoted to int. */
	for (i = 1; i < len - 1; i++) {
		if (spec[i] == 'l') {
			ll = l;
			l = true;
		} else if (spec[i] == 'z' || spec[i] == 't' || spec[i] == 'j') {
			z = true;
		}
	}
	switch (conv) {
	case '%':
		return host_snprintf(buf, size, "%%");
	case 'd': case 'i':
		if (ll)
			return host_snprintf(buf, size, f, va_arg(*ap, long long));
		if (l || z)
			return host_snprintf(buf, size, f, va_arg(*ap, long));
		return host_snprintf(buf, size, f, va_arg(*ap, int));
	case 'u': case 'x': case 'X': case 'o': case 'c':
		if (ll)
			return host_snprintf(buf, size, f,
					va_arg(*ap, unsigned long long));
		if (l || z)
			return host_snprintf(buf, size, f, va_arg(*ap, unsigned long));
		return host_snprintf(buf, size, f, va_arg(*ap, unsigned int));
	case 's':
		return host_snprintf(buf, size, f, va_arg(*ap, const char *));
	case 'p':
		return host_snprintf(buf, size, f, va_arg(*ap, void *));
	default:
		/* Not a conversion kshim knows: print it as written. */
		return host_snprintf(buf, size, "%.*s", (int)len, spec);
	}
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	va_list ap;
	int n;

	va_copy(ap, args);
	n = kshim_vformat(buf, size, fmt, &ap);
	va_end(ap);
	if (n < 0 || !size)
		return 0;
	return n < (int)size ? n : (int)size - 1;
}

/*
 * The kernel's snprintf family: kernel files are compiled with
 * -Dsnprintf=kshim_snprintf and so on (meson.build), so that their %pg,
 * %pU and %pV are kshim's, not the C library's; these definitions are
 * renamed the same way.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	va_list ap;
	int n;

	va_copy(ap, args);
	n = kshim_vformat(buf, size, fmt, &ap);
	va_end(ap);
	return n;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* As the kernel's: no bound (INT_MAX), the caller sized the buffer. */
int vsprintf(char *buf, const char *fmt, va_list args)
{
	return vsnprintf(buf, INT_MAX, fmt, args);
}

int sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, INT_MAX, fmt, ap);
	va_end(ap);
	return n;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static int vprint(bool to_stderr, const char *fmt, va_list ap)
{
	va_list copy;
	char buf[1024];
	int level = LOGLEVEL_DEFAULT;
	int n;

	/* KERN_<LEVEL> is "\001" followed by the level digit; KERN_CONT
	 * ("\001c") continues the previous line at its level. */
	while (fmt[0] == KERN_SOH_ASCII && fmt[1]) {
		if (fmt[1] >= '0' && fmt[1] <= '7')
			level = fmt[1] - '0';
		else if (fmt[1] == 'c')
			level = READ_ONCE(last_level);
		fmt += 2;
	}
	WRITE_ONCE(last_level, level);	/* any task may printk */
	va_copy(copy, ap);
	n = kshim_vformat(buf, sizeof(buf), fmt, &copy);
	va_end(copy);
	if (n < 0)
		return n;
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	/* A level passed as an argument ("%sXFS: ...", KERN_ALERT): the
	 * kernel finds it in the formatted text, so does kshim. */
	while (n >= 2 && buf[0] == KERN_SOH_ASCII && buf[1] >= '0' &&
	       buf[1] <= '7') {
		level = buf[1] - '0';
		WRITE_ONCE(last_level, level);
		memmove(buf, buf + 2, n - 1);
		n -= 2;
	}
	capture_append(buf, n);
	if (to_stderr || verbose || (level >= 0 && level <= LOGLEVEL_WARNING))
		kshim_host_write_err(buf, n);
	return n;
}

static int print(bool to_stderr, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprint(to_stderr, fmt, ap);
	va_end(ap);
	return n;
}

asmlinkage __visible int _printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprint(false, fmt, ap);
	va_end(ap);
	return n;
}

int vprintk(const char *fmt, va_list args)
{
	return vprint(false, fmt, args);
}

/* Deferred printing exists for contexts that hold the console lock;
 * kshim's printk takes no lock, so it prints at once. */
int _printk_deferred(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprint(false, fmt, ap);
	va_end(ap);
	return n;
}

static void print_where(void)
{
	struct task_struct *t = kshim_host_tls_get();

	/* A parallel run's schedule is the host's: its seed replays no
	 * failure, and saying "replay with" would promise that it does. */
	if (kshim_sched == &kshim_sched_parallel)
		print(true, "kshim: task %s (pid %d, cpu %d), seed %llu (parallel backend: the seed does not replay this run)\n",
		      t ? t->comm : "?", t ? t->pid : 0,
		      t ? (int)t->thread_info.cpu : -1,
		      (unsigned long long)kshim_seed());
	else
		print(true, "kshim: task %s (pid %d, cpu %d), seed %llu (replay with %sKSHIM_SEED=%llu)\n",
		      t ? t->comm : "?", t ? t->pid : 0,
		      t ? (int)t->thread_info.cpu : -1,
		      (unsigned long long)kshim_seed(),
		      kshim_host_replay_env(),
		      (unsigned long long)kshim_seed());
}

/* The call chain, as the kernel prints it with a WARN or BUG. */
static void print_backtrace(void)
{
	void *where[16];
	int n = kshim_host_backtrace(where, ARRAY_SIZE(where));

	print(true, "Call Trace:\n");
	kshim_host_print_backtrace(where, n);
}

void dump_stack_lvl(const char *log_lvl)
{
	print_where();
	print_backtrace();
}

void dump_stack(void)
{
	dump_stack_lvl(KERN_DEFAULT);
}

/* The taint mask, as kernel/panic.c keeps it (a WARN taints too). */
static unsigned long tainted_mask;

void add_taint(unsigned flag, enum lockdep_ok lockdep_ok)
{
	set_bit(flag, &tainted_mask);
}

void kshim_fatal(const char *fmt, ...)
{
	va_list ap;

	print(true, "kshim: FATAL: ");
	va_start(ap, fmt);
	vprint(true, fmt, ap);
	va_end(ap);
	print(true, "\n");
	print_where();
	kshim_host_abort();
}

void kshim_report(const char *fmt, ...)
{
	va_list ap;

	atomic_long_inc(&report_count);
	print(true, "kshim: ");
	va_start(ap, fmt);
	vprint(true, fmt, ap);
	va_end(ap);
	print(true, "\n");
	print_where();
}

unsigned long kshim_report_count(void)
{
	return atomic_long_read(&report_count);
}

unsigned long kshim_warn_count(void)
{
	return atomic_long_read(&warn_count);
}

void kshim_unimplemented(const char *func)
{
	kshim_fatal("kernel function %s() is not provided by kshim (called from kernel code under test)",
		    func);
}

void kshim_bug(const char *file, int line, const char *func)
{
	print(true, "kernel BUG at %s:%d in %s()\n", file, line, func);
	print_where();
	print_backtrace();
	kshim_host_abort();
}

void panic(const char *fmt, ...)
{
	va_list ap;

	print(true, "Kernel panic - not syncing: ");
	va_start(ap, fmt);
	vprint(true, fmt, ap);
	va_end(ap);
	print(true, "\n");
	print_where();
	kshim_host_abort();
}

/*
 * Known findings (kshim_test_known_warn()): a WARN whose last kernel
 * message contains one of these is the kernel bug a finding test keeps,
 * counted apart so that a wider test can still run that path.
 */
#define MAX_KNOWN_WARNS	32
static struct {
	const char *text;	/* in the last line before the WARN */
	const char *prev;	/* in the line before that; NULL: any */
} known_warns[MAX_KNOWN_WARNS];
static atomic_long_t known_warn_count;

void kshim_test_known_warn_after(const char *prev, const char *text)
{
	int i;

	for (i = 0; i < MAX_KNOWN_WARNS; i++) {
		if (known_warns[i].text && !strcmp(known_warns[i].text, text) &&
		    (known_warns[i].prev == prev ||
		     (prev && known_warns[i].prev &&
		      !strcmp(known_warns[i].prev, prev))))
			return;		/* known already */
		if (!known_warns[i].text) {
			known_warns[i].text = text;
			known_warns[i].prev = prev;
			return;
		}
	}
	kshim_fatal("more than %d known WARNs", MAX_KNOWN_WARNS);
}

void kshim_test_known_warn(const char *text)
{
	kshim_test_known_warn_after(NULL, text);
}

unsigned long kshim_known_warn_count(void)
{
	return atomic_long_read(&known_warn_count);
}

/* Does the line [line, end) contain needle? */
static bool line_has(const char *line, const char *end, const char *needle)
{
	size_t n = strlen(needle);

	for (; line + n <= end; line++)
		if (!memcmp(line, needle, n))
			return true;
	return false;
}

/* The last line the kernel printed (before the WARN), and the one
 * before it, name a known one. */
static const char *known_warn(void)
{
	const char *line, *end, *prev, *known = NULL;
	int i;

	capture_lock_acquire();
	end = capture + capture_len;
	if (end > capture && end[-1] == '\n')
		end--;
	line = end;
	while (line > capture && line[-1] != '\n')
		line--;
	prev = line > capture ? line - 1 : line;
	while (prev > capture && prev[-1] != '\n')
		prev--;
	for (i = 0; i < MAX_KNOWN_WARNS && known_warns[i].text && !known; i++)
		if (line_has(line, end, known_warns[i].text) &&
		    (!known_warns[i].prev ||
		     line_has(prev, line, known_warns[i].prev)))
			known = known_warns[i].text;
	capture_lock_release();
	return known;
}

/* WARN*(): printed with where it fired, counted; the test decides. */
void warn_slowpath_fmt(const char *file, const int line, unsigned taint,
		       const char *fmt, ...)
{
	const char *known = known_warn();
	va_list ap;

	if (known) {
		atomic_long_inc(&known_warn_count);
		print(true, "kshim: known finding, not counted: \"%s\" at %s:%d\n",
		      known, file, line);
		return;
	}
	atomic_long_inc(&warn_count);
	print(true, "------------[ cut here ]------------\n");
	print(true, "WARNING: at %s:%d\n", file, line);
	if (fmt) {
		va_start(ap, fmt);
		vprint(true, fmt, ap);
		va_end(ap);
	}
	print_where();
	print_backtrace();
}

void __warn_printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(true, fmt, ap);
	va_end(ap);
}

/* kshim's own information lines: always on stderr, and captured. */
void kshim_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(true, fmt, ap);
	va_end(ap);
}

void kshim_printk_init(void)
{
	verbose = kshim_host_getenv("KSHIM_VERBOSE") != NULL;
}
