// SPDX-License-Identifier: GPL-2.0
/*
 * DELIBERATELY BROKEN: a function takes a mutex that its caller already
 * holds. Both backends must stop at once with lockdep's two sites: where
 * the lock was taken first and where it is taken again
 * (tests/meson.build: detect_recursive_lock_*).
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <kshim/ktest.h>

static DEFINE_MUTEX(config_lock);
static int config;

static noinline void update_config_locked(int v)
{
	mutex_lock(&config_lock);	/* BUG: the caller holds it */
	config = v;
	mutex_unlock(&config_lock);
}

static void test_nested_take_of_a_held_mutex(void)
{
	mutex_lock(&config_lock);
	update_config_locked(1);
	mutex_unlock(&config_lock);
}

static const struct kshim_test recursive_tests[] = {
	KSHIM_TEST(test_nested_take_of_a_held_mutex),
	{ }
};

KSHIM_SUITES({ "detect_recursive_lock", NULL, NULL, recursive_tests });
