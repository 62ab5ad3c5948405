// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>
#include <kshim/host.h>
#include <kshim/runtime.h>

/*
 * A futex mutex for runtime bookkeeping (Drepper, "Futexes Are Tricky"):
 * 0 free, 1 held, 2 held and maybe waited for. Only an unlock that saw 2
 * makes a system call, so the uncontended path (allocation, call_rcu)
 * costs two atomics. The sections are short: spin briefly first.
 */
void kshim_raw_lock(u32 *word)
{
	u32 c = 0;
	int spin;

	if (__atomic_compare_exchange_n(word, &c, 1, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	for (spin = 0; spin < 100; spin++) {
		__builtin_ia32_pause();
		c = 0;
		if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0 &&
		    __atomic_compare_exchange_n(word, &c, 1, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return;
	}
	while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE))
		kshim_host_futex_wait(word, 2);
}

void kshim_raw_unlock(u32 *word)
{
	if (__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2)
		kshim_host_futex_wake(word, 1);
}
