// SPDX-License-Identifier: GPL-2.0
/*
 * lib/radix-tree.c, compiled real: the radix tree API kept on top of the
 * XArray's nodes. Items inserted at any index (0 to ULONG_MAX) are found
 * by lookup until deleted, a second insert is refused with -EEXIST, tags
 * are per index and radix_tree_tagged() follows them, gang lookups and
 * radix_tree_for_each_slot return items in index order from where they
 * are asked to start, and radix_tree_preload() really does reserve the
 * nodes an atomic insert needs. Many users (the IDR, drivers, the old
 * page-cache callers) still depend on these exact semantics; they share
 * node code with the XArray, so a regression in one shows up here too.
 *
 * Built twice like test_xarray: test_radix_tree_deep uses 4-way nodes.
 */
#include <linux/radix-tree.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <kshim/ktest.h>

/* The node cache; lib/radix-tree.h declares it for lib/ only. */
extern struct kmem_cache *radix_tree_node_cachep;

static long objs[64];
#define ITEM(i)	((void *)&objs[(i) % ARRAY_SIZE(objs)])

static const unsigned long idx[] = {
	0, 1, 2, 63, 64, 65, 1000, 4096, 65536, 1UL << 20, (1UL << 20) + 1,
	1UL << 33, LONG_MAX, ULONG_MAX - 1, ULONG_MAX,
};

static long settled_allocs(void)
{
	rcu_barrier();
	return kshim_alloc_outstanding();
}

/*
 * Give back every preloaded node, as the CPU-dead callback would: the
 * pools are per CPU and otherwise live until exit (and count as leaks).
 */
static void drain_preload_pools(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct radix_tree_preload *rtp;

		rtp = per_cpu_ptr(&radix_tree_preloads, cpu);
		while (rtp->nr) {
			struct radix_tree_node *node = rtp->nodes;

			rtp->nodes = node->parent;
			kmem_cache_free(radix_tree_node_cachep, node);
			rtp->nr--;
		}
	}
}

static void delete_all(struct radix_tree_root *root)
{
	struct radix_tree_iter iter;
	void __rcu **slot;

	radix_tree_for_each_slot(slot, root, &iter, 0)
		radix_tree_iter_delete(root, &iter, slot);
}

static void test_insert_lookup_delete(void)
{
	long before = settled_allocs();
	RADIX_TREE(root, GFP_KERNEL);
	unsigned int i;

	KSHIM_ASSERT(radix_tree_empty(&root));
	for (i = 0; i < ARRAY_SIZE(idx); i++)
		KSHIM_ASSERT_EQ(radix_tree_insert(&root, idx[i], ITEM(i)), 0);
	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		KSHIM_ASSERT_PTR_EQ(radix_tree_lookup(&root, idx[i]), ITEM(i));
		/* A second insert is refused and changes nothing. */
		KSHIM_ASSERT_EQ(radix_tree_insert(&root, idx[i], ITEM(40)),
				-EEXIST);
		KSHIM_ASSERT_PTR_EQ(radix_tree_lookup(&root, idx[i]), ITEM(i));
	}
	KSHIM_ASSERT_NULL(radix_tree_lookup(&root, 3));
	KSHIM_ASSERT_NULL(radix_tree_lookup(&root, 4095));
	KSHIM_ASSERT_NULL(radix_tree_lookup(&root, (1UL << 20) - 1));
	KSHIM_ASSERT_NULL(radix_tree_lookup(&root, ULONG_MAX - 2));

	/* delete returns the item; deleting a hole returns NULL. */
	KSHIM_ASSERT_NULL(radix_tree_delete(&root, 3));
	/* delete_item only deletes if the item matches. */
	KSHIM_ASSERT_NULL(radix_tree_delete_item(&root, 64, ITEM(40)));
	KSHIM_ASSERT_PTR_EQ(radix_tree_lookup(&root, 64), ITEM(4));
	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		KSHIM_ASSERT_PTR_EQ(radix_tree_delete(&root, idx[i]), ITEM(i));
		KSHIM_ASSERT_NULL(radix_tree_lookup(&root, idx[i]));
		KSHIM_ASSERT_NULL(radix_tree_delete(&root, idx[i]));
	}
	KSHIM_ASSERT(radix_tree_empty(&root));
	KSHIM_ASSERT_EQ(settled_allocs(), before);
}

static void test_value_entries(void)
{
	RADIX_TREE(root, GFP_KERNEL);
	unsigned long i;

	/* Value entries (shadow entries in the page cache) are items too. */
	for (i = 0; i < 300; i++)
		KSHIM_ASSERT_EQ(radix_tree_insert(&root, i * 3,
						  xa_mk_value(i)), 0);
	for (i = 0; i < 900; i++) {
		void *item = radix_tree_lookup(&root, i);

		if (i % 3) {
			KSHIM_ASSERT_NULL(item);
		} else {
			KSHIM_ASSERT(xa_is_value(item));
			KSHIM_ASSERT_EQ(xa_to_value(item), i / 3);
		}
	}
	delete_all(&root);
	KSHIM_ASSERT(radix_tree_empty(&root));
}

static void test_tags(void)
{
	RADIX_TREE(root, GFP_KERNEL);
	unsigned int i, tag;

	for (i = 0; i < ARRAY_SIZE(idx); i++)
		radix_tree_insert(&root, idx[i], ITEM(i));
	for (tag = 0; tag < RADIX_TREE_MAX_TAGS; tag++)
		KSHIM_ASSERT(!radix_tree_tagged(&root, tag));

	/* tag_set returns the item it tagged. */
	KSHIM_ASSERT_PTR_EQ(radix_tree_tag_set(&root, 1UL << 33, 1), ITEM(11));
	KSHIM_ASSERT(radix_tree_tag_get(&root, 1UL << 33, 1));
	KSHIM_ASSERT(!radix_tree_tag_get(&root, 1UL << 33, 0));
	KSHIM_ASSERT(!radix_tree_tag_get(&root, 1UL << 33, 2));
	KSHIM_ASSERT(!radix_tree_tag_get(&root, ULONG_MAX, 1));
	KSHIM_ASSERT(!radix_tree_tag_get(&root, (1UL << 33) + 1, 1));
	KSHIM_ASSERT(radix_tree_tagged(&root, 1));
	KSHIM_ASSERT(!radix_tree_tagged(&root, 0));

	radix_tree_tag_set(&root, ULONG_MAX, 0);
	radix_tree_tag_set(&root, 0, 0);
	/* Clearing one of two tagged items leaves the tree tagged. */
	KSHIM_ASSERT_PTR_EQ(radix_tree_tag_clear(&root, ULONG_MAX, 0),
			    ITEM(14));
	KSHIM_ASSERT(radix_tree_tagged(&root, 0));
	KSHIM_ASSERT(!radix_tree_tag_get(&root, ULONG_MAX, 0));
	/* Clearing a clear tag is harmless; an absent index gives NULL. */
	KSHIM_ASSERT_PTR_EQ(radix_tree_tag_clear(&root, ULONG_MAX, 0),
			    ITEM(14));
	KSHIM_ASSERT(!radix_tree_tag_get(&root, ULONG_MAX, 0));
	KSHIM_ASSERT_NULL(radix_tree_tag_clear(&root, ULONG_MAX - 2, 0));
	KSHIM_ASSERT(radix_tree_tag_get(&root, 0, 0));
	radix_tree_tag_clear(&root, 0, 0);
	KSHIM_ASSERT(!radix_tree_tagged(&root, 0));
	KSHIM_ASSERT(radix_tree_tagged(&root, 1));

	/* Deleting a tagged item drops its tags with it. */
	radix_tree_tag_set(&root, 65, 2);
	KSHIM_ASSERT(radix_tree_tagged(&root, 2));
	radix_tree_delete(&root, 65);
	KSHIM_ASSERT(!radix_tree_tagged(&root, 2));
	radix_tree_insert(&root, 65, ITEM(5));
	KSHIM_ASSERT(!radix_tree_tag_get(&root, 65, 2));
	radix_tree_delete(&root, 1UL << 33);
	KSHIM_ASSERT(!radix_tree_tagged(&root, 1));
	delete_all(&root);
	KSHIM_ASSERT(radix_tree_empty(&root));
}

static void test_gang_lookup(void)
{
	RADIX_TREE(root, GFP_KERNEL);
	void *results[4];
	unsigned long first = 0;
	unsigned int i, n, got = 0;

	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		radix_tree_insert(&root, idx[i], ITEM(i));
		if (i % 2)
			radix_tree_tag_set(&root, idx[i], 0);
	}
	/* Batches of four, in index order, resuming after the last one. */
	do {
		n = radix_tree_gang_lookup(&root, results, first,
					   ARRAY_SIZE(results));
		KSHIM_ASSERT(n <= ARRAY_SIZE(results));
		for (i = 0; i < n; i++) {
			KSHIM_ASSERT_FATAL(got < ARRAY_SIZE(idx));
			KSHIM_ASSERT_PTR_EQ(results[i], ITEM(got));
			got++;
		}
		if (!n || got == ARRAY_SIZE(idx))
			break;
		first = idx[got - 1] + 1;
	} while (1);
	KSHIM_ASSERT_EQ(got, ARRAY_SIZE(idx));

	/* Starting in a hole finds the next item. */
	KSHIM_ASSERT_EQ(radix_tree_gang_lookup(&root, results, 3, 1), 1);
	KSHIM_ASSERT_PTR_EQ(results[0], ITEM(3));	/* index 63 */
	KSHIM_ASSERT_EQ(radix_tree_gang_lookup(&root, results, ULONG_MAX, 4),
			1);
	KSHIM_ASSERT_PTR_EQ(results[0], ITEM(14));

	/* The tagged variant returns only the tagged (odd) items. */
	got = 1;
	first = 0;
	do {
		n = radix_tree_gang_lookup_tag(&root, results, first,
					       ARRAY_SIZE(results), 0);
		for (i = 0; i < n; i++) {
			KSHIM_ASSERT_FATAL(got < ARRAY_SIZE(idx));
			KSHIM_ASSERT_PTR_EQ(results[i], ITEM(got));
			got += 2;
		}
		if (!n || got >= ARRAY_SIZE(idx))
			break;
		first = idx[got - 2] + 1;
	} while (1);
	KSHIM_ASSERT_EQ(got, ARRAY_SIZE(idx));	/* 1, 3, ..., 13, then 15 */
	KSHIM_ASSERT_EQ(radix_tree_gang_lookup_tag(&root, results, 0, 4, 1),
			0);
	delete_all(&root);
}

static void test_for_each_slot(void)
{
	RADIX_TREE(root, GFP_KERNEL);
	struct radix_tree_iter iter;
	void __rcu **slot;
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		radix_tree_insert(&root, idx[i], ITEM(i));
		if (i % 3 == 0)
			radix_tree_tag_set(&root, idx[i], 2);
	}
	n = 0;
	rcu_read_lock();
	radix_tree_for_each_slot(slot, &root, &iter, 0) {
		KSHIM_ASSERT_FATAL(n < ARRAY_SIZE(idx));
		KSHIM_ASSERT_EQ(iter.index, idx[n]);
		KSHIM_ASSERT_PTR_EQ(radix_tree_deref_slot(slot), ITEM(n));
		n++;
	}
	rcu_read_unlock();
	KSHIM_ASSERT_EQ(n, ARRAY_SIZE(idx));

	/* From a start index, only what lies at or after it. */
	n = 0;
	radix_tree_for_each_slot(slot, &root, &iter, 1001)
		n++;
	KSHIM_ASSERT_EQ(n, ARRAY_SIZE(idx) - 7);	/* 4096 onward */

	n = 0;
	radix_tree_for_each_tagged(slot, &root, &iter, 0, 2) {
		KSHIM_ASSERT_FATAL(n < ARRAY_SIZE(idx));
		KSHIM_ASSERT_EQ(iter.index, idx[n]);
		n += 3;
	}
	KSHIM_ASSERT_EQ(n, ARRAY_SIZE(idx));	/* 15 is a multiple of 3 */

	/* Replacing through the slot is seen by lookup. */
	radix_tree_for_each_slot(slot, &root, &iter, 0) {
		if (iter.index == 65)
			radix_tree_replace_slot(&root, slot, ITEM(50));
	}
	KSHIM_ASSERT_PTR_EQ(radix_tree_lookup(&root, 65), ITEM(50));
	delete_all(&root);
	KSHIM_ASSERT(radix_tree_empty(&root));
}

/*
 * An atomic tree (GFP_ATOMIC root) inserts without sleeping; preloading
 * with GFP_KERNEL beforehand is what makes that insert safe. With every
 * allocation failing, the insert must still succeed from the preloaded
 * pool, and fail with -ENOMEM (tree unchanged) when nothing is preloaded.
 */
static void test_preload_makes_atomic_insert_succeed(void)
{
	const unsigned long far = (1UL << 40) + 7;
	RADIX_TREE(root, GFP_ATOMIC);
	long before;

	drain_preload_pools();
	before = settled_allocs();
	KSHIM_ASSERT_EQ(radix_tree_insert(&root, 5, ITEM(1)), 0);

	/* No preload, no memory: the insert fails cleanly. */
	kshim_alloc_fail_every(1);
	KSHIM_ASSERT_EQ(radix_tree_insert(&root, far, ITEM(2)), -ENOMEM);
	kshim_alloc_fail_every(0);
	KSHIM_ASSERT_NULL(radix_tree_lookup(&root, far));
	KSHIM_ASSERT_PTR_EQ(radix_tree_lookup(&root, 5), ITEM(1));

	/* Preload with GFP_KERNEL, then let every allocation fail. */
	KSHIM_ASSERT_EQ(radix_tree_preload(GFP_KERNEL), 0);
	kshim_alloc_fail_every(1);
	KSHIM_ASSERT_EQ(radix_tree_insert(&root, far, ITEM(2)), 0);
	kshim_alloc_fail_every(0);
	radix_tree_preload_end();
	KSHIM_ASSERT_PTR_EQ(radix_tree_lookup(&root, far), ITEM(2));
	KSHIM_ASSERT_PTR_EQ(radix_tree_lookup(&root, 5), ITEM(1));

	/* Preloading itself reports -ENOMEM when it cannot fill the pool. */
	drain_preload_pools();
	kshim_alloc_fail_every(1);
	KSHIM_ASSERT_EQ(radix_tree_preload(GFP_KERNEL), -ENOMEM);
	kshim_alloc_fail_every(0);

	delete_all(&root);
	KSHIM_ASSERT(radix_tree_empty(&root));
	drain_preload_pools();
	KSHIM_ASSERT_EQ(settled_allocs(), before);
}

/* ---- randomised against a reference --------------------------------------- */

#define NCAND	256

static unsigned long cand[NCAND];
static void *ref_item[NCAND];
static unsigned int ref_tags[NCAND];

static int cand_find(unsigned long index)
{
	int i;

	for (i = 0; i < NCAND; i++)
		if (cand[i] == index)
			return i;
	return -1;
}

static void ref_verify(struct radix_tree_root *root)
{
	struct radix_tree_iter iter;
	void __rcu **slot;
	unsigned int i, tag, present = 0, ntagged[RADIX_TREE_MAX_TAGS] = { };
	unsigned long n = 0, prev = 0;

	for (i = 0; i < NCAND; i++) {
		KSHIM_ASSERT_PTR_EQ(radix_tree_lookup(root, cand[i]),
				    ref_item[i]);
		if (!ref_item[i])
			continue;
		present++;
		for (tag = 0; tag < RADIX_TREE_MAX_TAGS; tag++) {
			bool want = ref_tags[i] & (1U << tag);

			KSHIM_ASSERT_EQ(!!radix_tree_tag_get(root, cand[i], tag),
					want);
			ntagged[tag] += want;
		}
	}
	radix_tree_for_each_slot(slot, root, &iter, 0) {
		int c = cand_find(iter.index);

		KSHIM_ASSERT(n == 0 || iter.index > prev);
		KSHIM_ASSERT_FATAL(c >= 0);
		KSHIM_ASSERT_PTR_EQ(radix_tree_deref_slot(slot), ref_item[c]);
		prev = iter.index;
		n++;
	}
	KSHIM_ASSERT_EQ(n, present);
	for (tag = 0; tag < RADIX_TREE_MAX_TAGS; tag++) {
		n = 0;
		radix_tree_for_each_tagged(slot, root, &iter, 0, tag)
			n++;
		KSHIM_ASSERT_EQ(n, ntagged[tag]);
		KSHIM_ASSERT_EQ(!!radix_tree_tagged(root, tag),
				ntagged[tag] != 0);
	}
}

static void test_random_ops_match_reference(void)
{
	u64 rnd = kshim_seed() ^ 0x4ad1;
	unsigned long ops = kshim_test_scale(20000), op;
	long before = settled_allocs();
	RADIX_TREE(root, GFP_KERNEL);
	unsigned int n = 0;

	cand[n++] = 0;
	cand[n++] = ULONG_MAX;
	while (n < NCAND) {
		u64 r = kshim_random(&rnd);
		unsigned long index = r & 1 ? (r >> 8) % 4096 : r >> 1;

		if (cand_find(index) >= 0)
			continue;
		cand[n++] = index;
	}
	memset(ref_item, 0, sizeof(ref_item));
	memset(ref_tags, 0, sizeof(ref_tags));

	for (op = 0; op < ops; op++) {
		u64 r = kshim_random(&rnd);
		unsigned int c = (r >> 8) % NCAND;
		unsigned int tag = (r >> 20) % RADIX_TREE_MAX_TAGS;
		void *item = ITEM(r >> 24);
		int ret;

		switch (r % 6) {
		case 0:
		case 1:
			ret = radix_tree_insert(&root, cand[c], item);
			KSHIM_ASSERT_EQ(ret, ref_item[c] ? -EEXIST : 0);
			if (!ret)
				ref_item[c] = item;
			break;
		case 2:
			KSHIM_ASSERT_PTR_EQ(radix_tree_delete(&root, cand[c]),
					    ref_item[c]);
			ref_item[c] = NULL;
			ref_tags[c] = 0;
			break;
		case 3:
			/* Tagging an absent index is not allowed: skip it. */
			if (ref_item[c]) {
				radix_tree_tag_set(&root, cand[c], tag);
				ref_tags[c] |= 1U << tag;
			}
			break;
		case 4:
			radix_tree_tag_clear(&root, cand[c], tag);
			ref_tags[c] &= ~(1U << tag);
			break;
		default:
			KSHIM_ASSERT_PTR_EQ(radix_tree_lookup(&root, cand[c]),
					    ref_item[c]);
			break;
		}
		if (op % 1024 == 1023)
			ref_verify(&root);
	}
	ref_verify(&root);
	delete_all(&root);
	KSHIM_ASSERT(radix_tree_empty(&root));
	KSHIM_ASSERT_EQ(settled_allocs(), before);
}

static int radix_tree_suite_init(void)
{
	if (!radix_tree_node_cachep)
		radix_tree_init();
	return radix_tree_node_cachep ? 0 : -1;
}

static int radix_tree_suite_cleanup(void)
{
	drain_preload_pools();
	return 0;
}

static const struct kshim_test radix_tree_tests[] = {
	KSHIM_TEST(test_insert_lookup_delete),
	KSHIM_TEST(test_value_entries),
	KSHIM_TEST(test_tags),
	KSHIM_TEST(test_gang_lookup),
	KSHIM_TEST(test_for_each_slot),
	KSHIM_TEST(test_preload_makes_atomic_insert_succeed),
	KSHIM_TEST(test_random_ops_match_reference),
	{ }
};

KSHIM_SUITES({ "radix_tree", radix_tree_suite_init, radix_tree_suite_cleanup,
	       radix_tree_tests });
