// SPDX-License-Identifier: GPL-2.0
/*
 * lib/xarray.c, compiled real: entries stored at any index (0 to
 * ULONG_MAX) come back from xa_load until erased; marks are per index and
 * propagate up the tree so xa_marked() and the marked iterators are exact;
 * iteration visits exactly the stored entries in index order; multi-index
 * entries cover their whole range; xa_alloc hands out the lowest free id
 * inside its limit; xa_insert/xa_cmpxchg only replace what they are told
 * to; and a failed node allocation leaves the array as it was. Page cache,
 * shmem, the IDR and most of mm keep their state in an XArray: a slip in
 * any of this loses or resurrects pages.
 *
 * The same file is built twice: test_xarray with the kernel's default
 * XA_CHUNK_SHIFT (64-way nodes) and test_xarray_deep with XA_CHUNK_SHIFT=2
 * (4-way nodes, so a large index sits more than ten levels down and every
 * path through xas_expand/xas_create/xas_shrink is exercised at depth).
 * test_node_shift_matches_chunk_shift checks which one is running.
 */
#include <linux/xarray.h>
#include <linux/radix-tree.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/bitops.h>
#include <linux/limits.h>
#include <kshim/ktest.h>

/* xarray nodes come from this cache; lib/radix-tree.h declares it. */
extern struct kmem_cache *radix_tree_node_cachep;

/* Pointer entries: 8-byte aligned, so never mistaken for internal ones. */
static long objs[64];
#define PTR(i)	((void *)&objs[(i) % ARRAY_SIZE(objs)])

/* Objects still allocated once every RCU-deferred node free has run. */
static long settled_allocs(void)
{
	rcu_barrier();
	return kshim_alloc_outstanding();
}

/* Store an entry covering 2^order indices (index aligned to it). */
static void *store_order(struct xarray *xa, unsigned long index,
			 unsigned int order, void *entry, gfp_t gfp)
{
	XA_STATE_ORDER(xas, xa, index, order);
	void *curr;

	do {
		xas_lock(&xas);
		curr = xas_store(&xas, entry);
		xas_unlock(&xas);
	} while (xas_nomem(&xas, gfp));
	return curr;
}

/* Entries xa_for_each sees, checking that indices strictly increase. */
static unsigned long count_entries(struct xarray *xa, bool *ordered)
{
	unsigned long index, n = 0, prev = 0;
	void *entry;

	*ordered = true;
	xa_for_each(xa, index, entry) {
		if (n && index <= prev)
			*ordered = false;
		prev = index;
		n++;
	}
	return n;
}

/*
 * Walk from the head to the slot holding @index. Returns the number of
 * node levels crossed (0: the entry is the head itself) or -1 if a node's
 * shift, parent or offset is inconsistent with its place in the tree.
 * *top_shift gets the head node's shift, *marked_levels the number of
 * levels whose mark bit for this path is set for @mark.
 */
static int walk_path(struct xarray *xa, unsigned long index,
		     unsigned int *top_shift, xa_mark_t mark,
		     int *marked_levels)
{
	struct xa_node *node, *parent = NULL;
	void *entry;
	int levels = 0;

	*marked_levels = 0;
	rcu_read_lock();
	entry = xa_head(xa);
	if (xa_is_node(entry))
		*top_shift = xa_to_node(entry)->shift;
	while (xa_is_node(entry)) {
		unsigned int offset;

		node = xa_to_node(entry);
		if (node->parent != parent || node->shift % XA_CHUNK_SHIFT ||
		    (parent && node->shift + XA_CHUNK_SHIFT != parent->shift))
			goto bad;
		if (node->shift < BITS_PER_LONG)
			offset = (index >> node->shift) & XA_CHUNK_MASK;
		else
			offset = 0;
		if (parent && node->offset !=
		    ((index >> parent->shift) & XA_CHUNK_MASK))
			goto bad;
		if (test_bit(offset, node->marks[(__force unsigned)mark]))
			(*marked_levels)++;
		entry = xa_entry(xa, node, offset);
		parent = node;
		levels++;
	}
	if (parent && parent->shift != 0)
		levels = -1;	/* a leaf entry above the bottom level */
	rcu_read_unlock();
	return levels;
bad:
	rcu_read_unlock();
	return -1;
}

static void test_node_shift_matches_chunk_shift(void)
{
	/*
	 * Top node shift for index 2^20: the largest multiple of
	 * XA_CHUNK_SHIFT not above 20. 18 in test_xarray, 20 in
	 * test_xarray_deep; one level per chunk below it.
	 */
	const unsigned int want_top = 20 - 20 % XA_CHUNK_SHIFT;
	const unsigned int want_top_max = (BITS_PER_LONG - 1) -
					  (BITS_PER_LONG - 1) % XA_CHUNK_SHIFT;
	DEFINE_XARRAY(xa);
	unsigned int top = ~0U;
	int levels, marked;

	KSHIM_ASSERT_EQ(XA_CHUNK_SIZE, 1UL << XA_CHUNK_SHIFT);
	KSHIM_ASSERT(XA_CHUNK_SHIFT == 2 || XA_CHUNK_SHIFT == 6);
	KSHIM_ASSERT_NULL(xa_store(&xa, 1UL << 20, PTR(1), GFP_KERNEL));
	levels = walk_path(&xa, 1UL << 20, &top, XA_MARK_0, &marked);
	KSHIM_ASSERT_EQ(top, want_top);
	KSHIM_ASSERT_EQ(levels, want_top / XA_CHUNK_SHIFT + 1);
	if (XA_CHUNK_SHIFT == 2)
		KSHIM_ASSERT(levels > 10);	/* the deep build is deep */

	/* ULONG_MAX grows the tree to its full height. */
	KSHIM_ASSERT_NULL(xa_store(&xa, ULONG_MAX, PTR(2), GFP_KERNEL));
	levels = walk_path(&xa, ULONG_MAX, &top, XA_MARK_0, &marked);
	KSHIM_ASSERT_EQ(top, want_top_max);
	KSHIM_ASSERT_EQ(levels, want_top_max / XA_CHUNK_SHIFT + 1);
	/* The first entry is still there, now under a taller root. */
	KSHIM_ASSERT_EQ(walk_path(&xa, 1UL << 20, &top, XA_MARK_0, &marked),
			levels);
	KSHIM_ASSERT_PTR_EQ(xa_load(&xa, 1UL << 20), PTR(1));

	/* Erasing the top entry shrinks the tree back down. */
	KSHIM_ASSERT_PTR_EQ(xa_erase(&xa, ULONG_MAX), PTR(2));
	levels = walk_path(&xa, 1UL << 20, &top, XA_MARK_0, &marked);
	KSHIM_ASSERT_EQ(top, want_top);
	KSHIM_ASSERT_EQ(levels, want_top / XA_CHUNK_SHIFT + 1);
	xa_destroy(&xa);
	KSHIM_ASSERT(xa_empty(&xa));
}

static const unsigned long sparse_idx[] = {
	0, 1, 2, 3, 4, 5, 63, 64, 65, 255, 256, 4095, 4096, 65537,
	1UL << 20, (1UL << 32) - 1, 1UL << 32, 1UL << 40,
	LONG_MAX, ULONG_MAX - 64, ULONG_MAX - 1, ULONG_MAX,
};

static void test_store_load_erase_sparse(void)
{
	long before = settled_allocs();
	DEFINE_XARRAY(xa);
	unsigned int i;

	KSHIM_ASSERT(xa_empty(&xa));
	for (i = 0; i < ARRAY_SIZE(sparse_idx); i++) {
		/* Alternate value entries and pointers. */
		void *entry = i & 1 ? PTR(i) : xa_mk_value(sparse_idx[i] >> 1);

		KSHIM_ASSERT_NULL(xa_store(&xa, sparse_idx[i], entry,
					   GFP_KERNEL));
	}
	for (i = 0; i < ARRAY_SIZE(sparse_idx); i++) {
		unsigned long idx = sparse_idx[i];
		void *entry = xa_load(&xa, idx);

		if (i & 1) {
			KSHIM_ASSERT_PTR_EQ(entry, PTR(i));
		} else {
			KSHIM_ASSERT(xa_is_value(entry));
			KSHIM_ASSERT_EQ(xa_to_value(entry), idx >> 1);
		}
	}
	/* Neighbours that were never stored read as empty. */
	KSHIM_ASSERT_NULL(xa_load(&xa, 6));
	KSHIM_ASSERT_NULL(xa_load(&xa, 62));
	KSHIM_ASSERT_NULL(xa_load(&xa, 4097));
	KSHIM_ASSERT_NULL(xa_load(&xa, (1UL << 20) + 1));
	KSHIM_ASSERT_NULL(xa_load(&xa, (1UL << 20) - 1));
	KSHIM_ASSERT_NULL(xa_load(&xa, ULONG_MAX - 2));

	/* Overwrite returns the old entry. */
	KSHIM_ASSERT_PTR_EQ(xa_store(&xa, 64, PTR(40), GFP_KERNEL), PTR(7));
	KSHIM_ASSERT_PTR_EQ(xa_load(&xa, 64), PTR(40));
	/* Storing NULL is erasing. */
	KSHIM_ASSERT_PTR_EQ(xa_store(&xa, 64, NULL, GFP_KERNEL), PTR(40));
	KSHIM_ASSERT_NULL(xa_load(&xa, 64));
	KSHIM_ASSERT_NULL(xa_erase(&xa, 64));	/* already gone */

	for (i = 0; i < ARRAY_SIZE(sparse_idx); i++) {
		unsigned long idx = sparse_idx[i];

		if (idx == 64)
			continue;
		KSHIM_ASSERT(xa_erase(&xa, idx) != NULL);
		KSHIM_ASSERT_NULL(xa_load(&xa, idx));
	}
	/* Every node went away with the last erase. */
	KSHIM_ASSERT(xa_empty(&xa));
	KSHIM_ASSERT_EQ(settled_allocs(), before);
}

static void test_dense_store_erase(void)
{
	const unsigned long n = 5000;
	long before = settled_allocs();
	DEFINE_XARRAY(xa);
	unsigned long i, index, seen = 0;
	bool ordered;
	void *entry;

	for (i = 0; i < n; i++)
		KSHIM_ASSERT_NULL(xa_store(&xa, i, xa_mk_value(i),
					   GFP_KERNEL));
	KSHIM_ASSERT_EQ(count_entries(&xa, &ordered), n);
	KSHIM_ASSERT(ordered);
	/* Erase the odd ones: the even ones and only they remain. */
	for (i = 1; i < n; i += 2)
		KSHIM_ASSERT_PTR_EQ(xa_erase(&xa, i), xa_mk_value(i));
	xa_for_each(&xa, index, entry) {
		KSHIM_ASSERT_EQ(index, 2 * seen);
		KSHIM_ASSERT_PTR_EQ(entry, xa_mk_value(index));
		seen++;
	}
	KSHIM_ASSERT_EQ(seen, n / 2);
	for (i = 0; i < n; i += 2)
		KSHIM_ASSERT_PTR_EQ(xa_erase(&xa, i), xa_mk_value(i));
	KSHIM_ASSERT(xa_empty(&xa));
	KSHIM_ASSERT_EQ(settled_allocs(), before);

	/* xa_destroy frees a full tree without erasing entry by entry. */
	for (i = 0; i < n; i++)
		xa_store(&xa, i * 7, PTR(i), GFP_KERNEL);
	xa_destroy(&xa);
	KSHIM_ASSERT(xa_empty(&xa));
	KSHIM_ASSERT_EQ(settled_allocs(), before);
}

static void test_store_internal_entry_rejected(void)
{
	DEFINE_XARRAY(xa);
	void *ret;

	/* The retry entry is internal: storing it is a caller bug. */
	kshim_test_expect_warns(1);
	ret = xa_store(&xa, 1, XA_RETRY_ENTRY, GFP_KERNEL);
	KSHIM_ASSERT(xa_is_err(ret));
	KSHIM_ASSERT_EQ(xa_err(ret), -EINVAL);
	KSHIM_ASSERT(xa_empty(&xa));
}

static void test_marks_set_get_clear(void)
{
	DEFINE_XARRAY(xa);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sparse_idx); i++)
		xa_store(&xa, sparse_idx[i], PTR(i), GFP_KERNEL);
	KSHIM_ASSERT(!xa_marked(&xa, XA_MARK_0));
	KSHIM_ASSERT(!xa_marked(&xa, XA_MARK_1));
	KSHIM_ASSERT(!xa_marked(&xa, XA_MARK_2));

	/* A mark on an absent index is not recorded. */
	xa_set_mark(&xa, 6, XA_MARK_0);
	KSHIM_ASSERT(!xa_get_mark(&xa, 6, XA_MARK_0));
	KSHIM_ASSERT(!xa_marked(&xa, XA_MARK_0));

	xa_set_mark(&xa, 4096, XA_MARK_0);
	xa_set_mark(&xa, ULONG_MAX, XA_MARK_2);
	KSHIM_ASSERT(xa_get_mark(&xa, 4096, XA_MARK_0));
	KSHIM_ASSERT(!xa_get_mark(&xa, 4096, XA_MARK_1));
	KSHIM_ASSERT(!xa_get_mark(&xa, 4096, XA_MARK_2));
	KSHIM_ASSERT(!xa_get_mark(&xa, 4095, XA_MARK_0));
	KSHIM_ASSERT(!xa_get_mark(&xa, 4097, XA_MARK_0));
	KSHIM_ASSERT(xa_get_mark(&xa, ULONG_MAX, XA_MARK_2));
	KSHIM_ASSERT(xa_marked(&xa, XA_MARK_0));
	KSHIM_ASSERT(!xa_marked(&xa, XA_MARK_1));
	KSHIM_ASSERT(xa_marked(&xa, XA_MARK_2));

	/* Setting twice, clearing once: marks are bits, not counts. */
	xa_set_mark(&xa, 4096, XA_MARK_0);
	xa_clear_mark(&xa, 4096, XA_MARK_0);
	KSHIM_ASSERT(!xa_get_mark(&xa, 4096, XA_MARK_0));
	KSHIM_ASSERT(!xa_marked(&xa, XA_MARK_0));
	KSHIM_ASSERT(xa_marked(&xa, XA_MARK_2));

	/* Overwriting keeps the marks, erasing drops them. */
	xa_set_mark(&xa, 65, XA_MARK_1);
	xa_store(&xa, 65, PTR(50), GFP_KERNEL);
	KSHIM_ASSERT(xa_get_mark(&xa, 65, XA_MARK_1));
	xa_erase(&xa, 65);
	KSHIM_ASSERT(!xa_marked(&xa, XA_MARK_1));
	xa_store(&xa, 65, PTR(51), GFP_KERNEL);
	KSHIM_ASSERT(!xa_get_mark(&xa, 65, XA_MARK_1));

	xa_erase(&xa, ULONG_MAX);
	KSHIM_ASSERT(!xa_marked(&xa, XA_MARK_2));
	xa_destroy(&xa);
}

/*
 * A mark on a deep entry sets the bit in every node on its path, and
 * clearing it (or erasing the entry) clears them all while a sibling's
 * mark keeps the shared upper levels set.
 */
static void test_mark_propagation_along_path(void)
{
	const unsigned long a = (1UL << 40) + 5, b = (1UL << 40) + 6;
	DEFINE_XARRAY(xa);
	unsigned int top;
	int levels, marked;

	xa_store(&xa, 3, PTR(0), GFP_KERNEL);
	xa_store(&xa, a, PTR(1), GFP_KERNEL);
	xa_store(&xa, b, PTR(2), GFP_KERNEL);
	levels = walk_path(&xa, a, &top, XA_MARK_1, &marked);
	KSHIM_ASSERT_FATAL(levels > 0);
	KSHIM_ASSERT_EQ(marked, 0);

	xa_set_mark(&xa, a, XA_MARK_1);
	KSHIM_ASSERT_EQ(walk_path(&xa, a, &top, XA_MARK_1, &marked), levels);
	KSHIM_ASSERT_EQ(marked, levels);
	KSHIM_ASSERT_EQ(walk_path(&xa, 3, &top, XA_MARK_1, &marked), levels);
	KSHIM_ASSERT_EQ(marked, 0);	/* a different subtree from the top */

	xa_set_mark(&xa, b, XA_MARK_1);
	xa_clear_mark(&xa, a, XA_MARK_1);
	/* b still marked: the whole path but a's own slot stays marked. */
	walk_path(&xa, a, &top, XA_MARK_1, &marked);
	KSHIM_ASSERT_EQ(marked, levels - 1);
	walk_path(&xa, b, &top, XA_MARK_1, &marked);
	KSHIM_ASSERT_EQ(marked, levels);
	KSHIM_ASSERT(xa_marked(&xa, XA_MARK_1));

	xa_erase(&xa, b);
	walk_path(&xa, a, &top, XA_MARK_1, &marked);
	KSHIM_ASSERT_EQ(marked, 0);
	KSHIM_ASSERT(!xa_marked(&xa, XA_MARK_1));
	xa_destroy(&xa);
}

static void test_iteration_order_and_find(void)
{
	DEFINE_XARRAY(xa);
	unsigned long index, max;
	unsigned int i, n;
	void *entry;

	for (i = 0; i < ARRAY_SIZE(sparse_idx); i++) {
		xa_store(&xa, sparse_idx[i], PTR(i), GFP_KERNEL);
		if (i % 3 == 0)
			xa_set_mark(&xa, sparse_idx[i], XA_MARK_0);
	}

	n = 0;
	xa_for_each(&xa, index, entry) {
		KSHIM_ASSERT_FATAL(n < ARRAY_SIZE(sparse_idx));
		KSHIM_ASSERT_EQ(index, sparse_idx[n]);
		KSHIM_ASSERT_PTR_EQ(entry, PTR(n));
		n++;
	}
	KSHIM_ASSERT_EQ(n, ARRAY_SIZE(sparse_idx));

	n = 0;
	xa_for_each_marked(&xa, index, entry, XA_MARK_0) {
		KSHIM_ASSERT_FATAL(n < ARRAY_SIZE(sparse_idx));
		KSHIM_ASSERT_EQ(index, sparse_idx[n]);
		n += 3;
	}
	KSHIM_ASSERT_EQ(n, round_up(ARRAY_SIZE(sparse_idx), 3));
	n = 0;
	xa_for_each_marked(&xa, index, entry, XA_MARK_1)
		n++;
	KSHIM_ASSERT_EQ(n, 0);

	/* A bounded range sees only what lies inside it. */
	n = 0;
	xa_for_each_range(&xa, index, entry, 64, 4096)
		n++;
	KSHIM_ASSERT_EQ(n, 6);	/* 64 65 255 256 4095 4096 */

	/* xa_find lands on the first entry at or after index. */
	index = 6;
	KSHIM_ASSERT_PTR_EQ(xa_find(&xa, &index, ULONG_MAX, XA_PRESENT),
			    PTR(6));
	KSHIM_ASSERT_EQ(index, 63);
	/* ... and xa_find_after strictly after it. */
	KSHIM_ASSERT_PTR_EQ(xa_find_after(&xa, &index, ULONG_MAX, XA_PRESENT),
			    PTR(7));
	KSHIM_ASSERT_EQ(index, 64);
	/* Nothing between 65537 and 2^20 - 1. */
	index = 65538;
	KSHIM_ASSERT_NULL(xa_find(&xa, &index, (1UL << 20) - 1, XA_PRESENT));
	/* The marked search skips unmarked entries: 63 is i=6, marked. */
	index = 4;
	KSHIM_ASSERT_PTR_EQ(xa_find(&xa, &index, ULONG_MAX, XA_MARK_0),
			    PTR(6));
	KSHIM_ASSERT_EQ(index, 63);
	/* The last entry: find_after from it finds nothing, no wrap. */
	index = ULONG_MAX - 1;
	max = ULONG_MAX;
	KSHIM_ASSERT_PTR_EQ(xa_find_after(&xa, &index, max, XA_PRESENT),
			    PTR(ARRAY_SIZE(sparse_idx) - 1));
	KSHIM_ASSERT_EQ(index, ULONG_MAX);
	KSHIM_ASSERT_NULL(xa_find_after(&xa, &index, max, XA_PRESENT));
	xa_destroy(&xa);
}

static void test_multi_index_entries(void)
{
	/* Orders below, at and above a node's span (sibling entries). */
	const unsigned int orders[] = {
		1, 2, XA_CHUNK_SHIFT, XA_CHUNK_SHIFT + 1, 2 * XA_CHUNK_SHIFT + 1,
	};
	long before = settled_allocs();
	DEFINE_XARRAY(xa);
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(orders); k++) {
		unsigned int order = orders[k];
		unsigned long size = 1UL << order;
		unsigned long base = 3 * size;	/* aligned, not at 0 */
		unsigned long index, i, n;
		void *entry;

		xa_store(&xa, base - 1, PTR(1), GFP_KERNEL);
		xa_store(&xa, base + size, PTR(2), GFP_KERNEL);
		KSHIM_ASSERT_NULL(store_order(&xa, base, order, PTR(3),
					      GFP_KERNEL));
		for (i = base; i < base + size; i++)
			KSHIM_ASSERT_PTR_EQ(xa_load(&xa, i), PTR(3));
		KSHIM_ASSERT_EQ(xa_get_order(&xa, base + size / 2), order);
		/* The neighbours are untouched. */
		KSHIM_ASSERT_PTR_EQ(xa_load(&xa, base - 1), PTR(1));
		KSHIM_ASSERT_PTR_EQ(xa_load(&xa, base + size), PTR(2));
		KSHIM_ASSERT_EQ(xa_get_order(&xa, base - 1), 0);

		/* Iteration reports the multi-index entry once. */
		n = 0;
		xa_for_each(&xa, index, entry) {
			if (entry == PTR(3))
				KSHIM_ASSERT_EQ(index, base);
			n++;
		}
		KSHIM_ASSERT_EQ(n, 3);

		/* A mark set through any index covers the whole entry. */
		xa_set_mark(&xa, base + size - 1, XA_MARK_0);
		KSHIM_ASSERT(xa_get_mark(&xa, base, XA_MARK_0));

		/* Erasing any index in the range erases the whole range. */
		KSHIM_ASSERT_PTR_EQ(xa_erase(&xa, base + size - 1), PTR(3));
		for (i = base; i < base + size; i++)
			KSHIM_ASSERT_NULL(xa_load(&xa, i));
		KSHIM_ASSERT(!xa_marked(&xa, XA_MARK_0));
		KSHIM_ASSERT_PTR_EQ(xa_load(&xa, base - 1), PTR(1));
		KSHIM_ASSERT_PTR_EQ(xa_load(&xa, base + size), PTR(2));

		/* A larger entry replaces the smaller ones it covers. */
		xa_store(&xa, base + 1, PTR(4), GFP_KERNEL);
		store_order(&xa, base, order, PTR(5), GFP_KERNEL);
		KSHIM_ASSERT_EQ(xa_get_order(&xa, base + 1), order);
		KSHIM_ASSERT_PTR_EQ(xa_load(&xa, base), PTR(5));
		KSHIM_ASSERT_PTR_EQ(xa_load(&xa, base + size - 1), PTR(5));
		/* Storing NULL over the range empties it. */
		store_order(&xa, base, order, NULL, GFP_KERNEL);
		KSHIM_ASSERT_NULL(xa_load(&xa, base + 1));
		xa_erase(&xa, base - 1);
		xa_erase(&xa, base + size);
		KSHIM_ASSERT(xa_empty(&xa));
	}
	KSHIM_ASSERT_EQ(settled_allocs(), before);
}

static void test_store_range(void)
{
	DEFINE_XARRAY(xa);
	unsigned long i;

	/* xa_store_range covers an unaligned range with several entries. */
	KSHIM_ASSERT_NULL(xa_store_range(&xa, 5, 300, xa_mk_value(9),
					 GFP_KERNEL));
	KSHIM_ASSERT_NULL(xa_load(&xa, 4));
	for (i = 5; i <= 300; i++)
		KSHIM_ASSERT_PTR_EQ(xa_load(&xa, i), xa_mk_value(9));
	KSHIM_ASSERT_NULL(xa_load(&xa, 301));
	xa_store_range(&xa, 5, 300, NULL, GFP_KERNEL);
	KSHIM_ASSERT(xa_empty(&xa));
}

static void test_alloc_ids_and_limits(void)
{
	struct xarray xa;
	u32 id, next = 0;
	unsigned int i;

	xa_init_flags(&xa, XA_FLAGS_ALLOC);
	for (i = 0; i < 100; i++) {
		KSHIM_ASSERT_EQ(xa_alloc(&xa, &id, PTR(i), xa_limit_32b,
					 GFP_KERNEL), 0);
		KSHIM_ASSERT_EQ(id, i);		/* lowest free id */
	}
	/* A freed id is the next one handed out. */
	xa_erase(&xa, 42);
	KSHIM_ASSERT_EQ(xa_alloc(&xa, &id, PTR(1), xa_limit_32b, GFP_KERNEL),
			0);
	KSHIM_ASSERT_EQ(id, 42);
	KSHIM_ASSERT_EQ(xa_alloc(&xa, &id, PTR(1), xa_limit_32b, GFP_KERNEL),
			0);
	KSHIM_ASSERT_EQ(id, 100);
	xa_destroy(&xa);

	/* Limits: ids stay inside [min, max]; -EBUSY once it is full. */
	xa_init_flags(&xa, XA_FLAGS_ALLOC);
	for (i = 0; i < 4; i++) {
		KSHIM_ASSERT_EQ(xa_alloc(&xa, &id, PTR(i), XA_LIMIT(1000, 1003),
					 GFP_KERNEL), 0);
		KSHIM_ASSERT_EQ(id, 1000 + i);
	}
	id = 7;
	KSHIM_ASSERT_EQ(xa_alloc(&xa, &id, PTR(9), XA_LIMIT(1000, 1003),
				 GFP_KERNEL), -EBUSY);
	KSHIM_ASSERT_PTR_EQ(xa_load(&xa, 1003), PTR(3));
	KSHIM_ASSERT_NULL(xa_load(&xa, 1004));
	/* A reservation (NULL entry) takes the id but loads as NULL. */
	xa_erase(&xa, 1001);
	KSHIM_ASSERT_EQ(xa_alloc(&xa, &id, NULL, XA_LIMIT(1000, 1003),
				 GFP_KERNEL), 0);
	KSHIM_ASSERT_EQ(id, 1001);
	KSHIM_ASSERT_NULL(xa_load(&xa, 1001));
	KSHIM_ASSERT_EQ(xa_alloc(&xa, &id, PTR(9), XA_LIMIT(1000, 1003),
				 GFP_KERNEL), -EBUSY);
	/* Even the very top of the index space can be allocated. */
	KSHIM_ASSERT_EQ(xa_alloc(&xa, &id, PTR(5), XA_LIMIT(UINT_MAX, UINT_MAX),
				 GFP_KERNEL), 0);
	KSHIM_ASSERT_EQ(id, UINT_MAX);
	xa_destroy(&xa);

	/* ALLOC1 never hands out 0; cyclic wraps and says so. */
	xa_init_flags(&xa, XA_FLAGS_ALLOC1);
	KSHIM_ASSERT_EQ(xa_alloc(&xa, &id, PTR(0), xa_limit_32b, GFP_KERNEL),
			0);
	KSHIM_ASSERT_EQ(id, 1);
	xa_destroy(&xa);
	xa_init_flags(&xa, XA_FLAGS_ALLOC);
	for (i = 0; i < 3; i++) {
		KSHIM_ASSERT_EQ(xa_alloc_cyclic(&xa, &id, PTR(i),
						XA_LIMIT(0, 2), &next,
						GFP_KERNEL), 0);
		KSHIM_ASSERT_EQ(id, i);
	}
	xa_erase(&xa, 0);
	xa_erase(&xa, 1);
	/* next is 3, past max: it wraps to 0 and returns 1. */
	KSHIM_ASSERT_EQ(xa_alloc_cyclic(&xa, &id, PTR(3), XA_LIMIT(0, 2),
					&next, GFP_KERNEL), 1);
	KSHIM_ASSERT_EQ(id, 0);
	KSHIM_ASSERT_EQ(xa_alloc_cyclic(&xa, &id, PTR(4), XA_LIMIT(0, 2),
					&next, GFP_KERNEL), 0);
	KSHIM_ASSERT_EQ(id, 1);
	KSHIM_ASSERT_EQ(xa_alloc_cyclic(&xa, &id, PTR(4), XA_LIMIT(0, 2),
					&next, GFP_KERNEL), -EBUSY);
	xa_destroy(&xa);
}

static void test_insert_and_cmpxchg(void)
{
	DEFINE_XARRAY(xa);

	KSHIM_ASSERT_EQ(xa_insert(&xa, 1UL << 30, PTR(1), GFP_KERNEL), 0);
	KSHIM_ASSERT_EQ(xa_insert(&xa, 1UL << 30, PTR(2), GFP_KERNEL),
			-EBUSY);
	KSHIM_ASSERT_PTR_EQ(xa_load(&xa, 1UL << 30), PTR(1));

	/* cmpxchg with the wrong old value returns the current one. */
	KSHIM_ASSERT_PTR_EQ(xa_cmpxchg(&xa, 1UL << 30, PTR(5), PTR(2),
				       GFP_KERNEL), PTR(1));
	KSHIM_ASSERT_PTR_EQ(xa_load(&xa, 1UL << 30), PTR(1));
	KSHIM_ASSERT_PTR_EQ(xa_cmpxchg(&xa, 1UL << 30, PTR(1), PTR(2),
				       GFP_KERNEL), PTR(1));
	KSHIM_ASSERT_PTR_EQ(xa_load(&xa, 1UL << 30), PTR(2));
	/* cmpxchg from NULL inserts; to NULL erases. */
	KSHIM_ASSERT_NULL(xa_cmpxchg(&xa, 7, NULL, xa_mk_value(7),
				     GFP_KERNEL));
	KSHIM_ASSERT_PTR_EQ(xa_load(&xa, 7), xa_mk_value(7));
	KSHIM_ASSERT_PTR_EQ(xa_cmpxchg(&xa, 7, xa_mk_value(7), NULL,
				       GFP_KERNEL), xa_mk_value(7));
	KSHIM_ASSERT_NULL(xa_load(&xa, 7));

	/* A reserved index loads as NULL but is busy for xa_insert. */
	KSHIM_ASSERT_EQ(xa_reserve(&xa, 12, GFP_KERNEL), 0);
	KSHIM_ASSERT_NULL(xa_load(&xa, 12));
	KSHIM_ASSERT_EQ(xa_insert(&xa, 12, PTR(3), GFP_KERNEL), -EBUSY);
	xa_release(&xa, 12);
	KSHIM_ASSERT_EQ(xa_insert(&xa, 12, PTR(3), GFP_KERNEL), 0);
	KSHIM_ASSERT_PTR_EQ(xa_load(&xa, 12), PTR(3));
	xa_destroy(&xa);
}

/* Every node allocation fails: the store reports -ENOMEM, changes nothing. */
static void test_nomem_leaves_array_unchanged(void)
{
	const unsigned long far = (1UL << 40) + 3;
	unsigned long fails = kshim_alloc_failures();
	DEFINE_XARRAY(xa);
	struct xarray axa;
	unsigned long i;
	long live;
	bool ordered;
	void *ret;
	u32 id;

	for (i = 0; i < 10; i++)
		xa_store(&xa, i, xa_mk_value(i), GFP_KERNEL);
	xa_set_mark(&xa, 3, XA_MARK_0);
	live = settled_allocs();

	kshim_alloc_fail_every(1);
	ret = xa_store(&xa, far, PTR(1), GFP_NOWAIT);
	KSHIM_ASSERT(xa_is_err(ret));
	KSHIM_ASSERT_EQ(xa_err(ret), -ENOMEM);
	/* GFP_KERNEL retries with the lock dropped, but still fails. */
	ret = xa_store(&xa, far, PTR(1), GFP_KERNEL);
	KSHIM_ASSERT_EQ(xa_err(ret), -ENOMEM);
	KSHIM_ASSERT_EQ(xa_insert(&xa, far, PTR(1), GFP_NOWAIT), -ENOMEM);
	KSHIM_ASSERT_EQ(xa_reserve(&xa, far, GFP_NOWAIT), -ENOMEM);
	kshim_alloc_fail_every(0);
	KSHIM_ASSERT(kshim_alloc_failures() > fails);

	KSHIM_ASSERT_NULL(xa_load(&xa, far));
	for (i = 0; i < 10; i++)
		KSHIM_ASSERT_PTR_EQ(xa_load(&xa, i), xa_mk_value(i));
	KSHIM_ASSERT_EQ(count_entries(&xa, &ordered), 10);
	KSHIM_ASSERT(xa_get_mark(&xa, 3, XA_MARK_0));
	KSHIM_ASSERT_EQ(settled_allocs(), live);	/* no half-built path */

	/* With allocation back, the same store works. */
	KSHIM_ASSERT_NULL(xa_store(&xa, far, PTR(1), GFP_NOWAIT));
	KSHIM_ASSERT_PTR_EQ(xa_load(&xa, far), PTR(1));
	xa_destroy(&xa);

	/* xa_alloc fails cleanly too and the id space is not consumed. */
	xa_init_flags(&axa, XA_FLAGS_ALLOC);
	KSHIM_ASSERT_EQ(xa_alloc(&axa, &id, PTR(0), xa_limit_32b, GFP_KERNEL),
			0);
	kshim_alloc_fail_every(1);
	KSHIM_ASSERT_EQ(xa_alloc(&axa, &id, PTR(1), xa_limit_32b,
				 GFP_NOWAIT), -ENOMEM);
	kshim_alloc_fail_every(0);
	KSHIM_ASSERT_EQ(xa_alloc(&axa, &id, PTR(1), xa_limit_32b, GFP_KERNEL),
			0);
	KSHIM_ASSERT_EQ(id, 1);
	xa_destroy(&axa);
}

/*
 * Some allocations fail, some succeed (every 2nd, 3rd, ...): a store to a
 * far index either lands or reports -ENOMEM; either way no other entry
 * changes and nothing leaks.
 */
static void test_partial_nomem(void)
{
	const unsigned long far = ULONG_MAX - 17;
	long before = settled_allocs();
	unsigned long nth, i;
	bool ordered;

	for (nth = 2; nth <= 6; nth++) {
		DEFINE_XARRAY(xa);
		void *ret;

		for (i = 0; i < 40; i += 3)
			xa_store(&xa, i, xa_mk_value(i), GFP_KERNEL);
		kshim_alloc_fail_every(nth);
		ret = xa_store(&xa, far, PTR(2), GFP_NOWAIT);
		kshim_alloc_fail_every(0);
		if (xa_is_err(ret)) {
			KSHIM_ASSERT_EQ(xa_err(ret), -ENOMEM);
			KSHIM_ASSERT_NULL(xa_load(&xa, far));
			KSHIM_ASSERT_EQ(count_entries(&xa, &ordered), 14);
		} else {
			KSHIM_ASSERT_NULL(ret);
			KSHIM_ASSERT_PTR_EQ(xa_load(&xa, far), PTR(2));
			KSHIM_ASSERT_EQ(count_entries(&xa, &ordered), 15);
		}
		for (i = 0; i < 40; i++)
			KSHIM_ASSERT_PTR_EQ(xa_load(&xa, i),
					    i % 3 ? NULL : xa_mk_value(i));
		/* The tree is still usable at the failed index. */
		xa_store(&xa, far, PTR(3), GFP_KERNEL);
		KSHIM_ASSERT_PTR_EQ(xa_load(&xa, far), PTR(3));
		xa_destroy(&xa);
		KSHIM_ASSERT_EQ(settled_allocs(), before);
	}
}

/* ---- randomised against a reference --------------------------------------- */

#define NCAND	256

struct ref_slot {
	unsigned long index;
	void *entry;
	unsigned int marks;	/* bit m: XA_MARK_m */
};

static struct ref_slot ref[NCAND];

static struct ref_slot *ref_find(unsigned long index)
{
	unsigned int i;

	for (i = 0; i < NCAND; i++)
		if (ref[i].index == index)
			return &ref[i];
	return NULL;
}

static void ref_pick_indices(u64 *rnd)
{
	unsigned int n = 0;

	ref[n++].index = 0;
	ref[n++].index = ULONG_MAX;
	ref[n++].index = ULONG_MAX - 1;
	while (n < NCAND) {
		u64 r = kshim_random(rnd);
		unsigned long idx;

		switch (r % 4) {
		case 0:
			idx = (r >> 8) % 256;		/* dense, one node */
			break;
		case 1:
			idx = (r >> 8) % (1UL << 20);	/* a few levels */
			break;
		case 2:
			idx = ULONG_MAX - (r >> 8) % 4096; /* the top end */
			break;
		default:
			idx = kshim_random(rnd);	/* anywhere */
			break;
		}
		if (ref_find(idx))
			continue;
		ref[n].index = idx;
		ref[n].entry = NULL;
		ref[n].marks = 0;
		n++;
	}
}

static void ref_verify(struct xarray *xa)
{
	unsigned int i, m, present = 0, nmarked[3] = { };
	unsigned long index, prev = 0, n = 0;
	void *entry;

	for (i = 0; i < NCAND; i++) {
		KSHIM_ASSERT_PTR_EQ(xa_load(xa, ref[i].index), ref[i].entry);
		if (!ref[i].entry)
			continue;
		present++;
		for (m = 0; m < 3; m++) {
			bool want = ref[i].marks & (1U << m);

			KSHIM_ASSERT_EQ(xa_get_mark(xa, ref[i].index,
						    (__force xa_mark_t)m), want);
			nmarked[m] += want;
		}
	}
	xa_for_each(xa, index, entry) {
		struct ref_slot *r = ref_find(index);

		KSHIM_ASSERT(n == 0 || index > prev);
		KSHIM_ASSERT_FATAL(r != NULL);
		KSHIM_ASSERT_PTR_EQ(entry, r->entry);
		prev = index;
		n++;
	}
	KSHIM_ASSERT_EQ(n, present);
	for (m = 0; m < 3; m++) {
		n = 0;
		xa_for_each_marked(xa, index, entry, (__force xa_mark_t)m) {
			struct ref_slot *r = ref_find(index);

			KSHIM_ASSERT_FATAL(r != NULL);
			KSHIM_ASSERT(r->marks & (1U << m));
			n++;
		}
		KSHIM_ASSERT_EQ(n, nmarked[m]);
		KSHIM_ASSERT_EQ(xa_marked(xa, (__force xa_mark_t)m),
				nmarked[m] != 0);
	}
	KSHIM_ASSERT_EQ(xa_empty(xa), present == 0);
}

static void test_random_ops_match_reference(void)
{
	u64 rnd = kshim_seed() ^ 0xa77a;
	unsigned long ops = kshim_test_scale(20000), op;
	long before = settled_allocs();
	DEFINE_XARRAY(xa);

	ref_pick_indices(&rnd);
	for (op = 0; op < ops; op++) {
		u64 r = kshim_random(&rnd);
		struct ref_slot *s = &ref[(r >> 8) % NCAND];
		xa_mark_t mark = (__force xa_mark_t)((r >> 20) % 3);
		void *entry = (r >> 24) & 1 ? PTR(r >> 25) :
					      xa_mk_value((r >> 25) & 0xffff);
		void *old;

		switch (r % 8) {
		case 0:
		case 1:
		case 2:
			old = xa_store(&xa, s->index, entry, GFP_KERNEL);
			KSHIM_ASSERT_PTR_EQ(old, s->entry);
			s->entry = entry;	/* marks survive overwrite */
			break;
		case 3:
			old = xa_erase(&xa, s->index);
			KSHIM_ASSERT_PTR_EQ(old, s->entry);
			s->entry = NULL;
			s->marks = 0;
			break;
		case 4: {
			/* Half the time the right old value, else a wrong one. */
			void *expect = (r >> 40) & 1 ? s->entry : PTR(63);

			old = xa_cmpxchg(&xa, s->index, expect, entry,
					 GFP_KERNEL);
			KSHIM_ASSERT_PTR_EQ(old, s->entry);
			if (old == expect)
				s->entry = entry;
			break;
		}
		case 5:
			xa_set_mark(&xa, s->index, mark);
			if (s->entry)
				s->marks |= 1U << (__force unsigned)mark;
			break;
		case 6:
			xa_clear_mark(&xa, s->index, mark);
			s->marks &= ~(1U << (__force unsigned)mark);
			break;
		default:
			KSHIM_ASSERT_PTR_EQ(xa_load(&xa, s->index), s->entry);
			break;
		}
		if (!s->entry)
			s->marks = 0;
		if (op % 1024 == 1023)
			ref_verify(&xa);
	}
	ref_verify(&xa);
	xa_destroy(&xa);
	KSHIM_ASSERT(xa_empty(&xa));
	KSHIM_ASSERT_EQ(settled_allocs(), before);
}

static int xarray_suite_init(void)
{
	/* Creates radix_tree_node_cachep, which xarray nodes come from. */
	if (!radix_tree_node_cachep)
		radix_tree_init();
	return radix_tree_node_cachep ? 0 : -1;
}

static const struct kshim_test xarray_tests[] = {
	KSHIM_TEST(test_node_shift_matches_chunk_shift),
	KSHIM_TEST(test_store_load_erase_sparse),
	KSHIM_TEST(test_dense_store_erase),
	KSHIM_TEST(test_store_internal_entry_rejected),
	KSHIM_TEST(test_marks_set_get_clear),
	KSHIM_TEST(test_mark_propagation_along_path),
	KSHIM_TEST(test_iteration_order_and_find),
	KSHIM_TEST(test_multi_index_entries),
	KSHIM_TEST(test_store_range),
	KSHIM_TEST(test_alloc_ids_and_limits),
	KSHIM_TEST(test_insert_and_cmpxchg),
	KSHIM_TEST(test_nomem_leaves_array_unchanged),
	KSHIM_TEST(test_partial_nomem),
	KSHIM_TEST(test_random_ops_match_reference),
	{ }
};

KSHIM_SUITES({ "xarray", xarray_suite_init, NULL, xarray_tests });
