/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's test API for test files, which are compiled like kernel code
 * (kernel headers, no C library). Suites are a table; the runner
 * (host/kshim_test_main.c) registers them with CUnit, runs them, fails a
 * test whose WARN or kshim report count rose unexpectedly, and runs the
 * leak check at the end.
 *
 *	static const struct kshim_test xa_tests[] = {
 *		KSHIM_TEST(test_store_load),
 *		{ }
 *	};
 *	KSHIM_SUITES({ "xarray", NULL, NULL, xa_tests });
 */
#ifndef _KSHIM_KTEST_H
#define _KSHIM_KTEST_H

#include <linux/types.h>
#include <kshim/runtime.h>

struct kshim_test {
	const char *name;
	void (*fn)(void);
};

struct kshim_suite {
	const char *name;
	int (*init)(void);
	int (*cleanup)(void);
	const struct kshim_test *tests;
};

#define KSHIM_TEST(fn)	{ #fn, fn }
#define KSHIM_SUITES(...)						\
	const struct kshim_suite kshim_test_suites[] = { __VA_ARGS__, { } }

void kshim_test_assert(bool ok, const char *expr, const char *file, int line,
		       const char *func, bool fatal);
void kshim_test_assert_eq(long long a, long long b, const char *ea,
			  const char *eb, const char *file, int line,
			  const char *func, bool fatal);
/* The current test expects n WARNs / kshim reports: not a failure. */
void kshim_test_expect_warns(unsigned long n);
void kshim_test_expect_reports(unsigned long n);
/*
 * A WARN right after a kernel message containing TEXT (an XFS assertion)
 * is a known kernel bug that a test of the finding suite reproduces:
 * printed in one line and counted by kshim_known_warn_count(), not a
 * failure. For a wide test (the operation generator) that must still run
 * the path; name the finding test where it is called. At most 32.
 * kshim_test_known_warn_after(): the same, only when the line before
 * that one contains PREV (the alert an XFS ASSERT(0) follows).
 */
void kshim_test_known_warn(const char *text);
void kshim_test_known_warn_after(const char *prev, const char *text);
unsigned long kshim_known_warn_count(void);
/* Skip the rest of the test binary with a reason (exit 77). */
void __noreturn kshim_test_skip(const char *why);
/* Iterations for loops that stress: KSHIM_STRESS scales them. */
unsigned long kshim_test_scale(unsigned long n);

/*
 * Poll until cond holds (true) or timeout jiffies passed (false), sleeping
 * a jiffy between tries: a wait that never depends on machine speed when
 * it succeeds and fails instead of hanging. The caller includes
 * linux/jiffies.h and linux/sched.h.
 */
#define POLL_UNTIL_TIMEOUT(cond, timeout)				\
({									\
	unsigned long __end = READ_ONCE(jiffies) + (timeout);		\
	bool __ok;							\
	while (!(__ok = (cond)) &&					\
	       time_before(READ_ONCE(jiffies), __end))			\
		schedule_timeout_uninterruptible(1);			\
	__ok;								\
})

#define KSHIM_ASSERT(c)							\
	kshim_test_assert(!!(c), #c, __FILE__, __LINE__, __func__, false)
#define KSHIM_ASSERT_FATAL(c)						\
	kshim_test_assert(!!(c), #c, __FILE__, __LINE__, __func__, true)
#define KSHIM_ASSERT_EQ(a, b)						\
	kshim_test_assert_eq((long long)(a), (long long)(b), #a, #b,	\
			     __FILE__, __LINE__, __func__, false)
#define KSHIM_ASSERT_EQ_FATAL(a, b)					\
	kshim_test_assert_eq((long long)(a), (long long)(b), #a, #b,	\
			     __FILE__, __LINE__, __func__, true)
#define KSHIM_ASSERT_PTR_EQ(a, b)					\
	kshim_test_assert((const void *)(a) == (const void *)(b),	\
			  #a " == " #b, __FILE__, __LINE__, __func__, false)
#define KSHIM_ASSERT_NULL(a)	KSHIM_ASSERT_PTR_EQ(a, NULL)
#define KSHIM_ASSERT_NOT_NULL(a)					\
	kshim_test_assert((a) != NULL, #a " != NULL", __FILE__,	\
			  __LINE__, __func__, false)

#endif
