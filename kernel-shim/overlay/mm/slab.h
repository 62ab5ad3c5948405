/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's stand-in for the kernel's mm/slab.h (SLUB's internals), found
 * first by the quoted #include "slab.h" of the mm/ files compiled through the
 * overlay directory. kshim's allocator is not SLUB; what compiled mm/
 * files need from this header is the public slab API.
 */
#ifndef MM_SLAB_H
#define MM_SLAB_H

#include <linux/slab.h>
#include <linux/atomic.h>

/*
 * kshim's cache descriptor (kernel-shim/mm/kshim_slab.c). mm/ files read a
 * field or two of SLUB's (mempool.c: VM_BUG_ON(mem->ctor)); the fields
 * they name exist here with the same meaning.
 */
struct kmem_cache {
	const char *name;
	unsigned int object_size;
	unsigned int align;
	slab_flags_t flags;
	void (*ctor)(void *);
	atomic_long_t live;
	atomic_long_t refs;	/* 1 until destroyed, + objects not released */
};

#endif
