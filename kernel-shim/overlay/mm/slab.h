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

#endif
