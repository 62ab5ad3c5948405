// SPDX-License-Identifier: GPL-2.0
/*
 * lib/list_sort.c and lib/rbtree.c, compiled real: list_sort() is a stable
 * merge sort that never calls cmp() with the same element twice in a row
 * and makes O(n log n) comparisons; the rbtree keeps its colour and
 * black-height invariants through random inserts and erases.
 */
#include <linux/list.h>
#include <linux/list_sort.h>
#include <linux/rbtree_augmented.h>	/* rb_is_black() */
#include <linux/slab.h>
#include <linux/log2.h>
#include <kshim/ktest.h>

struct item {
	struct list_head list;
	struct rb_node rb;
	int key;
	int seq;
};

static unsigned long ncmp;

static int cmp_key(void *priv, const struct list_head *a,
		   const struct list_head *b)
{
	const struct item *ia = list_entry(a, struct item, list);
	const struct item *ib = list_entry(b, struct item, list);

	ncmp++;
	return ia->key - ib->key;
}

static void test_list_sort_stable_and_nlogn(void)
{
	u64 rnd = kshim_seed() | 1;
	const int n = 10000;
	struct item *items = kcalloc(n, sizeof(*items), GFP_KERNEL);
	struct item *it, *prev = NULL;
	LIST_HEAD(head);
	int i, count = 0;

	KSHIM_ASSERT_FATAL(items != NULL);
	for (i = 0; i < n; i++) {
		items[i].key = kshim_random(&rnd) % 100;	/* many equal keys */
		items[i].seq = i;
		list_add_tail(&items[i].list, &head);
	}
	ncmp = 0;
	list_sort(NULL, &head, cmp_key);
	list_for_each_entry(it, &head, list) {
		if (prev) {
			KSHIM_ASSERT(prev->key <= it->key);
			if (prev->key == it->key)
				KSHIM_ASSERT(prev->seq < it->seq); /* stable */
		}
		prev = it;
		count++;
	}
	KSHIM_ASSERT_EQ(count, n);
	/* list_sort's documented bound: n*log2(n) - 0.5*n comparisons. */
	KSHIM_ASSERT(ncmp <= (unsigned long)n * ilog2(n) + n);
	kfree(items);
}

static void test_list_sort_empty_and_single(void)
{
	struct item one = { .key = 1 };
	LIST_HEAD(head);

	list_sort(NULL, &head, cmp_key);
	KSHIM_ASSERT(list_empty(&head));
	list_add(&one.list, &head);
	ncmp = 0;
	list_sort(NULL, &head, cmp_key);
	KSHIM_ASSERT(list_is_singular(&head));
	KSHIM_ASSERT_EQ(ncmp, 0);
}

static void rb_insert(struct rb_root *root, struct item *new)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		struct item *it = rb_entry(*link, struct item, rb);

		parent = *link;
		link = new->key < it->key ? &(*link)->rb_left
					  : &(*link)->rb_right;
	}
	rb_link_node(&new->rb, parent, link);
	rb_insert_color(&new->rb, root);
}

/* Returns the black height, or -1 if a red-black rule is broken. */
static int rb_check(struct rb_node *node, bool parent_red)
{
	int l, r;

	if (!node)
		return 1;
	if (parent_red && !rb_is_black(node))
		return -1;	/* red child of a red node */
	l = rb_check(node->rb_left, !rb_is_black(node));
	r = rb_check(node->rb_right, !rb_is_black(node));
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + rb_is_black(node);
}

static void test_rbtree_invariants_random(void)
{
	u64 rnd = kshim_seed() ^ 0x5eed;
	const int n = 4096;
	struct item *items = kcalloc(n, sizeof(*items), GFP_KERNEL);
	struct rb_root root = RB_ROOT;
	struct rb_node *node;
	int i, prev = -1, count = 0;

	KSHIM_ASSERT_FATAL(items != NULL);
	for (i = 0; i < n; i++) {
		items[i].key = kshim_random(&rnd) % 100000;
		rb_insert(&root, &items[i]);
	}
	KSHIM_ASSERT(rb_is_black(root.rb_node));
	KSHIM_ASSERT(rb_check(root.rb_node, false) > 0);
	/* Erase every other node, then check again. */
	for (i = 0; i < n; i += 2)
		rb_erase(&items[i].rb, &root);
	KSHIM_ASSERT(rb_check(root.rb_node, false) > 0);
	for (node = rb_first(&root); node; node = rb_next(node)) {
		struct item *it = rb_entry(node, struct item, rb);

		KSHIM_ASSERT(it->key >= prev);
		prev = it->key;
		count++;
	}
	KSHIM_ASSERT_EQ(count, n / 2);
	kfree(items);
}

static const struct kshim_test sort_tests[] = {
	KSHIM_TEST(test_list_sort_stable_and_nlogn),
	KSHIM_TEST(test_list_sort_empty_and_single),
	{ }
};

static const struct kshim_test rbtree_tests[] = {
	KSHIM_TEST(test_rbtree_invariants_random),
	{ }
};

KSHIM_SUITES(
	{ "list_sort", NULL, NULL, sort_tests },
	{ "rbtree", NULL, NULL, rbtree_tests });
