// SPDX-License-Identifier: GPL-2.0
/*
 * mm/list_lru.c, compiled real (no memcg, one node). What the dcache,
 * inode cache, xfs buffer cache and workingset shadow nodes rely on:
 *
 * - list_lru_add()/list_lru_del() are idempotent and say whether they
 *   changed the list; the per-node count follows every change and items
 *   go on at the tail.
 * - __list_lru_walk_one() obeys every lru_status its isolate callback
 *   returns: REMOVED counts the item out, REMOVED_RETRY and RETRY (the
 *   callback dropped and retook the lock) restart the walk from the
 *   head, ROTATE moves the item to the tail, SKIP leaves it, STOP ends
 *   the walk. nr_to_walk is charged before every callback, so a list of
 *   items that always say RETRY cannot livelock the walker.
 * - list_lru_isolate()/list_lru_isolate_move() keep the per-list count
 *   right from inside a callback.
 * - list_lru_walk_one_irq() walks the same way and gives the lock back;
 *   list_lru_init() fails with -ENOMEM and nothing allocated.
 *
 * The walk order is checked against the real list after each walk, so a
 * walker that forgot to restart, rotated to the head or double counted
 * a removal is caught.
 */
#include <linux/list_lru.h>
#include <linux/spinlock.h>
#include <linux/slab.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>

#define NR_ITEMS	8
#define MAX_VISITS	64

struct item {
	struct list_head lru;
	int id;
	enum lru_status action;		/* what the callback returns */
	enum lru_status then;		/* ...from the second visit on */
	int visits;
};

struct walk_ctx {
	int visit[MAX_VISITS];		/* ids in the order visited */
	int nvisit;
	struct list_head dispose;	/* list_lru_isolate_move() target */
	struct list_lru *lru;
	struct item *late;		/* added while the lock is dropped */
	bool lock_held_always;
};

static struct item *items;
static struct list_lru lru;

static int lru_init(void)
{
	items = kcalloc(NR_ITEMS + 1, sizeof(*items), GFP_KERNEL);
	return items ? 0 : -ENOMEM;
}

static int lru_cleanup(void)
{
	kfree(items);
	return 0;
}

/* A fresh lru holding items 0..n-1 in order, all answering @action. */
static void setup(int n, enum lru_status action)
{
	int i;

	KSHIM_ASSERT_EQ_FATAL(list_lru_init(&lru), 0);
	for (i = 0; i <= NR_ITEMS; i++) {
		INIT_LIST_HEAD(&items[i].lru);
		items[i].id = i;
		items[i].action = action;
		items[i].then = action;
		items[i].visits = 0;
	}
	for (i = 0; i < n; i++)
		KSHIM_ASSERT(list_lru_add_obj(&lru, &items[i].lru));
	KSHIM_ASSERT_EQ(list_lru_count(&lru), n);
}

static void ctx_init(struct walk_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	INIT_LIST_HEAD(&ctx->dispose);
	ctx->lru = &lru;
	ctx->lock_held_always = true;
}

/* The ids on the lru, head to tail, must be exactly @ids. */
static void check_order(const int *ids, int n)
{
	struct list_head *head = &lru.node[0].lru.list;
	struct item *it;
	int i = 0;

	list_for_each_entry(it, head, lru) {
		KSHIM_ASSERT_FATAL(i < n);
		KSHIM_ASSERT_EQ(it->id, ids[i]);
		i++;
	}
	KSHIM_ASSERT_EQ(i, n);
	KSHIM_ASSERT_EQ(list_lru_count(&lru), n);
	KSHIM_ASSERT_EQ(list_lru_count_node(&lru, 0), n);
	KSHIM_ASSERT_EQ(list_lru_count_one(&lru, 0, NULL), n);
	KSHIM_ASSERT_EQ(lru.node[0].lru.nr_items, n);
}

static void check_visits(const struct walk_ctx *ctx, const int *ids, int n)
{
	int i;

	KSHIM_ASSERT_EQ(ctx->nvisit, n);
	for (i = 0; i < n && i < ctx->nvisit; i++)
		KSHIM_ASSERT_EQ(ctx->visit[i], ids[i]);
}

static enum lru_status isolate(struct list_head *entry,
			       struct list_lru_one *list, spinlock_t *lock,
			       void *arg)
{
	struct item *it = container_of(entry, struct item, lru);
	struct walk_ctx *ctx = arg;
	enum lru_status ret = it->visits++ ? it->then : it->action;

	if (!spin_is_locked(lock))
		ctx->lock_held_always = false;
	if (ctx->nvisit < MAX_VISITS)
		ctx->visit[ctx->nvisit] = it->id;
	ctx->nvisit++;

	switch (ret) {
	case LRU_REMOVED:
		list_lru_isolate_move(list, entry, &ctx->dispose);
		break;
	case LRU_REMOVED_RETRY:
		list_lru_isolate(list, entry);
		fallthrough;
	case LRU_RETRY:
		/*
		 * The contract: the callback may drop the lru lock but must
		 * return with it held. While it is dropped the list may
		 * change under the walker: add an item to show it.
		 */
		spin_unlock(lock);
		if (ctx->late) {
			KSHIM_ASSERT(list_lru_add_obj(ctx->lru,
						      &ctx->late->lru));
			ctx->late = NULL;
		}
		spin_lock(lock);
		break;
	default:
		break;
	}
	return ret;
}

static void test_add_del_count(void)
{
	static const int all[] = { 0, 1, 2 };
	static const int no1[] = { 0, 2 };
	static const int back1[] = { 0, 2, 1 };
	int i;

	KSHIM_ASSERT_EQ_FATAL(list_lru_init(&lru), 0);
	KSHIM_ASSERT_EQ(list_lru_count(&lru), 0);
	for (i = 0; i < 3; i++) {
		INIT_LIST_HEAD(&items[i].lru);
		items[i].id = i;
		KSHIM_ASSERT(list_lru_add_obj(&lru, &items[i].lru));
		KSHIM_ASSERT_EQ(list_lru_count(&lru), i + 1);
		KSHIM_ASSERT_EQ(list_lru_count_node(&lru, 0), i + 1);
	}
	check_order(all, 3);

	/* Adding an item already on a list changes nothing. */
	KSHIM_ASSERT(!list_lru_add_obj(&lru, &items[1].lru));
	KSHIM_ASSERT(!list_lru_add(&lru, &items[2].lru, 0, NULL));
	check_order(all, 3);

	KSHIM_ASSERT(list_lru_del_obj(&lru, &items[1].lru));
	KSHIM_ASSERT(list_empty(&items[1].lru));	/* del_init */
	check_order(no1, 2);
	/* Deleting an item that is on no list changes nothing. */
	KSHIM_ASSERT(!list_lru_del_obj(&lru, &items[1].lru));
	KSHIM_ASSERT(!list_lru_del(&lru, &items[1].lru, 0, NULL));
	check_order(no1, 2);

	/* Re-adding goes to the tail. */
	KSHIM_ASSERT(list_lru_add(&lru, &items[1].lru, 0, NULL));
	check_order(back1, 3);

	for (i = 0; i < 3; i++)
		KSHIM_ASSERT(list_lru_del_obj(&lru, &items[i].lru));
	KSHIM_ASSERT_EQ(list_lru_count(&lru), 0);
	check_order(NULL, 0);
	list_lru_destroy(&lru);
	/* Destroying twice is allowed (node is NULL after the first). */
	list_lru_destroy(&lru);
}

static void test_walk_removed(void)
{
	static const int all[] = { 0, 1, 2, 3, 4 };
	static const int last2[] = { 3, 4 };
	struct walk_ctx ctx;
	unsigned long nr = 3;
	struct item *it;
	int i = 0;

	setup(5, LRU_REMOVED);
	ctx_init(&ctx);
	/* nr_to_walk limits the walk: three scanned, three removed. */
	KSHIM_ASSERT_EQ(list_lru_walk_one(&lru, 0, NULL, isolate, &ctx, &nr),
			3);
	KSHIM_ASSERT_EQ(nr, 0);
	check_visits(&ctx, all, 3);
	check_order(last2, 2);
	/*
	 * isolate_move list_move()s to the head of our dispose list: read
	 * from the tail, it is in walk order.
	 */
	list_for_each_entry_reverse(it, &ctx.dispose, lru)
		KSHIM_ASSERT_EQ(it->id, i++);
	KSHIM_ASSERT_EQ(i, 3);

	/* list_lru_walk() takes the rest. */
	KSHIM_ASSERT_EQ(list_lru_walk(&lru, isolate, &ctx, 100), 2);
	check_visits(&ctx, all, 5);
	check_order(NULL, 0);
	i = 0;
	list_for_each_entry_reverse(it, &ctx.dispose, lru)
		KSHIM_ASSERT_EQ(it->id, i++);
	KSHIM_ASSERT_EQ(i, 5);
	KSHIM_ASSERT(ctx.lock_held_always);
	list_lru_destroy(&lru);
}

static void test_walk_removed_retry(void)
{
	/* 2 is removed with the lock dropped: the walk restarts at 0. */
	static const int visits[] = { 0, 1, 2, 0, 1, 3, 4, 5 };
	static const int after[] = { 0, 1, 3, 4, 5 };
	struct walk_ctx ctx;
	unsigned long nr = 100;

	setup(5, LRU_SKIP);
	ctx_init(&ctx);
	items[2].action = LRU_REMOVED_RETRY;
	ctx.late = &items[5];		/* added to the tail while unlocked */
	KSHIM_ASSERT_EQ(list_lru_walk_one(&lru, 0, NULL, isolate, &ctx, &nr),
			1);
	check_visits(&ctx, visits, ARRAY_SIZE(visits));
	KSHIM_ASSERT_EQ(nr, 100 - ARRAY_SIZE(visits));
	check_order(after, ARRAY_SIZE(after));
	KSHIM_ASSERT(list_empty(&items[2].lru));
	KSHIM_ASSERT(ctx.lock_held_always);
	list_lru_destroy(&lru);
}

static void test_walk_rotate(void)
{
	/*
	 * 1 rotates to the tail; list_for_each_safe() already holds 2 as
	 * the next entry, so the walk goes on 2, 3, 4 and then meets 1
	 * again at the tail (which now skips).
	 */
	static const int visits[] = { 0, 1, 2, 3, 4, 1 };
	static const int after[] = { 0, 2, 3, 4, 1 };
	struct walk_ctx ctx;
	unsigned long nr = 100;

	setup(5, LRU_SKIP);
	ctx_init(&ctx);
	items[1].action = LRU_ROTATE;
	KSHIM_ASSERT_EQ(list_lru_walk_one(&lru, 0, NULL, isolate, &ctx, &nr),
			0);
	check_visits(&ctx, visits, ARRAY_SIZE(visits));
	KSHIM_ASSERT_EQ(nr, 100 - ARRAY_SIZE(visits));
	check_order(after, ARRAY_SIZE(after));

	/* Everything rotates: a walk of n items is one full turn. */
	ctx_init(&ctx);
	items[0].visits = items[1].visits = 0;
	items[0].action = items[0].then = LRU_ROTATE;
	items[2].action = items[2].then = LRU_ROTATE;
	items[3].action = items[3].then = LRU_ROTATE;
	items[4].action = items[4].then = LRU_ROTATE;
	items[1].action = items[1].then = LRU_ROTATE;
	nr = 5;
	KSHIM_ASSERT_EQ(list_lru_walk_one(&lru, 0, NULL, isolate, &ctx, &nr),
			0);
	KSHIM_ASSERT_EQ(nr, 0);
	check_visits(&ctx, after, 5);
	check_order(after, 5);
	list_lru_destroy(&lru);
}

static void test_walk_skip(void)
{
	static const int all[] = { 0, 1, 2, 3, 4 };
	struct walk_ctx ctx;
	unsigned long nr = 3;

	setup(5, LRU_SKIP);
	ctx_init(&ctx);
	KSHIM_ASSERT_EQ(list_lru_walk_one(&lru, 0, NULL, isolate, &ctx, &nr),
			0);
	KSHIM_ASSERT_EQ(nr, 0);
	check_visits(&ctx, all, 3);
	check_order(all, 5);

	/* A skipped item is left in place and the walk goes on past it. */
	ctx_init(&ctx);
	items[3].action = LRU_REMOVED;
	KSHIM_ASSERT_EQ(list_lru_walk(&lru, isolate, &ctx, 100), 1);
	check_visits(&ctx, all, 5);
	{
		static const int no3[] = { 0, 1, 2, 4 };

		check_order(no3, 4);
	}
	/* nr_to_walk == 0 walks nothing. */
	ctx_init(&ctx);
	nr = 0;
	KSHIM_ASSERT_EQ(list_lru_walk_one(&lru, 0, NULL, isolate, &ctx, &nr),
			0);
	KSHIM_ASSERT_EQ(ctx.nvisit, 0);
	list_lru_destroy(&lru);
}

static void test_walk_retry(void)
{
	/* 2 drops the lock and says RETRY, then is removed on the rescan. */
	static const int visits[] = { 0, 1, 2, 0, 1, 2, 3, 4, 5 };
	static const int after[] = { 0, 1, 3, 4, 5 };
	struct walk_ctx ctx;
	unsigned long nr = 100;
	int i;

	setup(5, LRU_SKIP);
	ctx_init(&ctx);
	items[2].action = LRU_RETRY;
	items[2].then = LRU_REMOVED;
	ctx.late = &items[5];
	KSHIM_ASSERT_EQ(list_lru_walk_one(&lru, 0, NULL, isolate, &ctx, &nr),
			1);
	check_visits(&ctx, visits, ARRAY_SIZE(visits));
	check_order(after, ARRAY_SIZE(after));
	KSHIM_ASSERT(ctx.lock_held_always);

	/*
	 * An item that always says RETRY: nr_to_walk is charged before
	 * each callback, so the walk ends after exactly nr_to_walk calls.
	 */
	ctx_init(&ctx);
	for (i = 0; i <= NR_ITEMS; i++)
		items[i].visits = 0;
	items[0].action = items[0].then = LRU_RETRY;
	nr = 10;
	KSHIM_ASSERT_EQ(list_lru_walk_one(&lru, 0, NULL, isolate, &ctx, &nr),
			0);
	KSHIM_ASSERT_EQ(nr, 0);
	KSHIM_ASSERT_EQ(ctx.nvisit, 10);
	KSHIM_ASSERT_EQ(items[0].visits, 10);
	check_order(after, ARRAY_SIZE(after));
	list_lru_destroy(&lru);
}

static void test_walk_stop(void)
{
	static const int visits[] = { 0, 1, 2 };
	static const int after[] = { 1, 2, 3, 4 };
	struct walk_ctx ctx;
	unsigned long nr = 100;

	setup(5, LRU_SKIP);
	ctx_init(&ctx);
	items[0].action = LRU_REMOVED;
	items[2].action = LRU_STOP;
	KSHIM_ASSERT_EQ(list_lru_walk_one(&lru, 0, NULL, isolate, &ctx, &nr),
			1);
	check_visits(&ctx, visits, 3);
	KSHIM_ASSERT_EQ(nr, 97);
	check_order(after, 4);
	list_lru_destroy(&lru);
}

/*
 * Random actions on a bigger list, checked against a model of the walk
 * (an array, rotated and compacted by hand): order, count and returned
 * number of removals must agree after every walk.
 */
static enum lru_status isolate_random(struct list_head *entry,
				      struct list_lru_one *list,
				      spinlock_t *lock, void *arg)
{
	struct item *it = container_of(entry, struct item, lru);
	struct walk_ctx *ctx = arg;

	if (ctx->nvisit < MAX_VISITS)
		ctx->visit[ctx->nvisit] = it->id;
	ctx->nvisit++;
	if (it->action == LRU_REMOVED)
		list_lru_isolate(list, entry);
	return it->action;
}

static void test_walk_random_model(void)
{
	const int n = 48;
	struct item *big = kcalloc(n, sizeof(*big), GFP_KERNEL);
	int model[48], nmodel = n, round;
	u64 rnd = kshim_seed() ^ 0x1e5;
	struct walk_ctx ctx;
	int i;

	KSHIM_ASSERT_FATAL(big != NULL);
	KSHIM_ASSERT_EQ_FATAL(list_lru_init(&lru), 0);
	for (i = 0; i < n; i++) {
		INIT_LIST_HEAD(&big[i].lru);
		big[i].id = i;
		KSHIM_ASSERT(list_lru_add_obj(&lru, &big[i].lru));
		model[i] = i;
	}
	for (round = 0; round < 40 && nmodel; round++) {
		static const enum lru_status acts[] = {
			LRU_REMOVED, LRU_ROTATE, LRU_SKIP, LRU_SKIP
		};
		int kept[48], nkept = 0, rot[48], nrot = 0, removed = 0;
		unsigned long nr = kshim_random(&rnd) % (nmodel + 1);
		int walked = nr;

		for (i = 0; i < n; i++)
			big[i].action = acts[kshim_random(&rnd) % 4];
		/*
		 * Model: the first nr items are walked (a rotated item goes
		 * to the tail and is not met again within nr <= count).
		 */
		for (i = 0; i < nmodel; i++) {
			enum lru_status a = big[model[i]].action;

			if (i >= walked || a == LRU_SKIP)
				kept[nkept++] = model[i];
			else if (a == LRU_ROTATE)
				rot[nrot++] = model[i];
			else
				removed++;
		}
		for (i = 0; i < nrot; i++)
			kept[nkept++] = rot[i];

		ctx_init(&ctx);
		KSHIM_ASSERT_EQ(list_lru_walk_one(&lru, 0, NULL,
				isolate_random, &ctx, &nr), removed);
		KSHIM_ASSERT_EQ(nr, 0);
		KSHIM_ASSERT_EQ(ctx.nvisit, walked);
		for (i = 0; i < walked && i < MAX_VISITS; i++)
			KSHIM_ASSERT_EQ(ctx.visit[i], model[i]);
		memcpy(model, kept, nkept * sizeof(int));
		nmodel = nkept;
		check_order(model, nmodel);
	}
	for (i = 0; i < n; i++)
		list_lru_del_obj(&lru, &big[i].lru);
	KSHIM_ASSERT_EQ(list_lru_count(&lru), 0);
	list_lru_destroy(&lru);
	kfree(big);
}

/*
 * The irq-safe walker (what the workingset shadow-node shrinker uses):
 * the same walk, and the lock is free again when it returns, so the
 * next add does not deadlock.
 */
static void test_walk_one_irq(void)
{
	static const int all[] = { 0, 1, 2, 3 };
	static const int last1[] = { 3 };
	struct walk_ctx ctx;
	unsigned long nr = 3;

	setup(4, LRU_REMOVED);
	ctx_init(&ctx);
	KSHIM_ASSERT_EQ(list_lru_walk_one_irq(&lru, 0, NULL, isolate, &ctx,
					      &nr), 3);
	KSHIM_ASSERT_EQ(nr, 0);
	check_visits(&ctx, all, 3);
	check_order(last1, 1);
	KSHIM_ASSERT(ctx.lock_held_always);
	KSHIM_ASSERT(!spin_is_locked(&lru.node[0].lock));
	/* Items 0-2 are on ctx.dispose now; 4 is on no list. */
	KSHIM_ASSERT(list_lru_add_obj(&lru, &items[4].lru));
	KSHIM_ASSERT_EQ(list_lru_count(&lru), 2);
	list_lru_destroy(&lru);
}

/*
 * Every user checks list_lru_init()'s result at mount or cache setup: a
 * failed allocation is -ENOMEM with nothing half set up, and destroying
 * the never-initialised lru afterwards (the callers' error paths do) is
 * harmless.
 */
static void test_init_fails_cleanly_without_memory(void)
{
	struct list_lru failed;
	long live = kshim_alloc_outstanding();

	memset(&failed, 0, sizeof(failed));
	kshim_alloc_fail_every(1);
	KSHIM_ASSERT_EQ(list_lru_init(&failed), -ENOMEM);
	kshim_alloc_fail_every(0);
	KSHIM_ASSERT(failed.node == NULL);
	KSHIM_ASSERT_EQ(kshim_alloc_outstanding(), live);
	list_lru_destroy(&failed);
	KSHIM_ASSERT_EQ(kshim_alloc_outstanding(), live);
}

static const struct kshim_test list_lru_tests[] = {
	KSHIM_TEST(test_add_del_count),
	KSHIM_TEST(test_walk_removed),
	KSHIM_TEST(test_walk_removed_retry),
	KSHIM_TEST(test_walk_rotate),
	KSHIM_TEST(test_walk_skip),
	KSHIM_TEST(test_walk_retry),
	KSHIM_TEST(test_walk_stop),
	KSHIM_TEST(test_walk_random_model),
	KSHIM_TEST(test_walk_one_irq),
	KSHIM_TEST(test_init_fails_cleanly_without_memory),
	{ }
};

KSHIM_SUITES({ "list_lru", lru_init, lru_cleanup, list_lru_tests });
