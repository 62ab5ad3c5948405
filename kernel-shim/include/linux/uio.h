/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/uio.h: the kernel's own (#include_next), with the two
 * calls a buffered write makes on its caller's buffer routed through
 * kshim's user-copy faults (kshim_usercopy.c, kshim/runtime.h):
 * copy_folio_from_iter_atomic(), the copy into the page cache with page
 * faults disabled, and fault_in_iov_iter_readable(), which faults the
 * buffer in first. kshim's buffers are kernel memory (an ITER_KVEC
 * iov_iter), whose copies never come up short; a user's buffer can have
 * a page that is not resident, or not mapped. Without a fault set, both
 * are the kernel's. The build defines KSHIM_USERCOPY_FAULTS for every
 * kernel file (meson.build says why); lib/iov_iter.c, which defines
 * fault_in_iov_iter_readable(), is compiled with KSHIM_UIO_DEFINITIONS
 * (kernel-shim/meson.build's klib): there the names are its own.
 */
#ifndef _KSHIM_LINUX_UIO_H
#define _KSHIM_LINUX_UIO_H

#include_next <linux/uio.h>

size_t kshim_copy_folio_from_iter_atomic(struct folio *folio, size_t offset,
					 size_t bytes, struct iov_iter *i);
size_t kshim_fault_in_iov_iter_readable(const struct iov_iter *i,
					size_t bytes);

#if defined(KSHIM_USERCOPY_FAULTS) && !defined(KSHIM_UIO_DEFINITIONS)
#define copy_folio_from_iter_atomic	kshim_copy_folio_from_iter_atomic
#define fault_in_iov_iter_readable	kshim_fault_in_iov_iter_readable
#endif

#endif
