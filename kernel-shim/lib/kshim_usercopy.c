// SPDX-License-Identifier: GPL-2.0
/*
 * User-copy faults (kshim/runtime.h's kshim_usercopy_fault()): a
 * writer's buffer with a page that is not resident, or not mapped.
 * kshim's buffers are kernel memory (ITER_KVEC), whose copies never come
 * up short; linux/uio.h routes the page-cache write's two calls on the
 * buffer here. copy_folio_from_iter_atomic() stops at such a page, as
 * the kernel's does with page faults disabled; fault_in_iov_iter_readable()
 * reports an unmapped one unreadable, as fault_in_readable() does, and
 * brings a not-resident one in (the fault is then used up by the copies
 * it is set for: the page reclaimed again before each of them).
 */
#define KSHIM_UIO_DEFINITIONS	/* the kernel's names here, not the wrappers */
#include <linux/uio.h>
#include <linux/mm_types.h>
#include <kshim/runtime.h>

static const char *fault_addr;	/* NULL: no fault */
static long fault_times;	/* short copies left; < 0: unmapped */
static atomic_long_t short_copies;

void kshim_usercopy_fault(const void *addr, long times)
{
	WRITE_ONCE(fault_times, times);
	WRITE_ONCE(fault_addr, times ? addr : NULL);
}

unsigned long kshim_usercopy_short_copies(void)
{
	return atomic_long_read(&short_copies);
}

/* Of the next MAX bytes of I, those before the faulting page at ADDR:
 * MAX when they do not reach it (an unmapped page: every byte from ADDR
 * on is in it). */
static size_t bytes_before(const struct iov_iter *i, const char *addr,
			   size_t max, bool unmapped)
{
	const struct kvec *kv = i->kvec;
	size_t skip = i->iov_offset, n = 0;
	unsigned long segs = i->nr_segs;

	for (; segs && n < max; segs--, kv++, skip = 0) {
		const char *base = (const char *)kv->iov_base + skip;
		size_t len = kv->iov_len - skip;

		if (unmapped && addr <= base)
			return n;
		if (addr >= base && addr < base + len)
			return min(max, n + (size_t)(addr - base));
		n += len;
	}
	return max;
}

size_t kshim_copy_folio_from_iter_atomic(struct folio *folio, size_t offset,
					 size_t bytes, struct iov_iter *i)
{
	const char *addr = READ_ONCE(fault_addr);
	size_t n = bytes;

	if (addr && iov_iter_is_kvec(i)) {
		long times = READ_ONCE(fault_times);

		n = bytes_before(i, addr, bytes, times < 0);
		if (n < bytes) {
			atomic_long_inc(&short_copies);
			if (times > 0)
				kshim_usercopy_fault(addr, times - 1);
		}
	}
	return copy_page_from_iter_atomic(&folio->page, offset, n, i);
}

size_t kshim_fault_in_iov_iter_readable(const struct iov_iter *i,
					size_t bytes)
{
	const char *addr = READ_ONCE(fault_addr);

	if (addr && READ_ONCE(fault_times) < 0 && iov_iter_is_kvec(i))
		return bytes - bytes_before(i, addr, bytes, true);
	return fault_in_iov_iter_readable(i, bytes);
}
