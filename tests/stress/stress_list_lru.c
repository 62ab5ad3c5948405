// SPDX-License-Identifier: GPL-2.0
/*
 * mm/list_lru.c and mm/shrinker.c under contention, the way the dcache
 * uses them: many tasks add objects to one list_lru, mark them
 * referenced and take them off again, while reclaim tasks run
 * shrink_slab() with a shrinker whose scan_objects walks the lru with
 * list_lru_shrink_walk(), rotates referenced objects and isolates the
 * rest onto a dispose list to free them outside the lru lock.
 *
 * Each object holds one reference for being on the lru and one for its
 * owner task; whoever drops the last frees it. Whether the owner
 * (list_lru_del_obj() returned true) or the shrinker (isolated it under
 * the lock) took it off the lru is decided by the lru lock alone, so an
 * object freed twice or never means list_lru lost or duplicated an
 * item. Every free is counted per object id; at the end each object must
 * have been freed exactly once and list_lru_count() must equal
 * added - deleted - isolated.
 */
#include <linux/list_lru.h>
#include <linux/shrinker.h>
#include <linux/refcount.h>
#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <kshim/ktest.h>
#include <kshim/sched.h>

unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg,
			  int priority);

#define NR_WORKERS	64
#define NR_RECLAIM	3
#define HANDLES		16

struct obj {
	struct list_head lru;
	struct list_head dispose;	/* reclaim's private list */
	refcount_t ref;
	int referenced;
	unsigned int id;
};

static struct list_lru lru;
static atomic_t *freed;		/* per id: times freed */
static unsigned int max_ids;
static atomic_t next_id;
static atomic_long_t nr_added, nr_deleted, nr_isolated, nr_rotated;
static atomic_t double_free, bad_id;
static atomic_t workers_left;
static unsigned long per_worker;

static void obj_put(struct obj *o)
{
	if (!refcount_dec_and_test(&o->ref))
		return;
	if (o->id >= max_ids)
		atomic_inc(&bad_id);
	else if (atomic_inc_return(&freed[o->id]) != 1)
		atomic_inc(&double_free);
	kfree(o);
}

static enum lru_status isolate(struct list_head *item,
			       struct list_lru_one *list, spinlock_t *lock,
			       void *arg)
{
	struct obj *o = container_of(item, struct obj, lru);

	if (READ_ONCE(o->referenced)) {
		WRITE_ONCE(o->referenced, 0);
		atomic_long_inc(&nr_rotated);
		return LRU_ROTATE;
	}
	/*
	 * Not list_lru_isolate_move(): the owner may list_lru_del_obj()
	 * the object at any time, which would unlink it from our dispose
	 * list under the lru lock while we walk that list without it (the
	 * dcache marks such objects DCACHE_SHRINK_LIST instead). Taking it
	 * off the lru leaves o->lru empty, so list_lru_del_obj() says no.
	 */
	list_lru_isolate(list, item);
	list_add(&o->dispose, arg);
	return LRU_REMOVED;
}

static unsigned long lru_count(struct shrinker *s, struct shrink_control *sc)
{
	return list_lru_shrink_count(&lru, sc) ?: SHRINK_EMPTY;
}

static unsigned long lru_scan(struct shrinker *s, struct shrink_control *sc)
{
	LIST_HEAD(dispose);
	unsigned long n;
	struct obj *o, *tmp;

	n = list_lru_shrink_walk(&lru, sc, isolate, &dispose);
	atomic_long_add(n, &nr_isolated);
	list_for_each_entry_safe(o, tmp, &dispose, dispose) {
		list_del(&o->dispose);
		obj_put(o);		/* the lru's reference */
	}
	return n;
}

static void worker(void *arg)
{
	u64 rnd = kshim_seed() ^ ((unsigned long)arg * 0x9e3779b97f4a7c15ULL);
	struct obj *h[HANDLES] = { };
	unsigned long i;
	int j;

	for (i = 0; i < per_worker; i++) {
		unsigned int id = atomic_inc_return(&next_id) - 1;
		struct obj *o;

		j = kshim_random(&rnd) % HANDLES;
		if (h[j]) {
			switch (kshim_random(&rnd) % 3) {
			case 0:
				WRITE_ONCE(h[j]->referenced, 1);
				break;
			default:
				if (list_lru_del_obj(&lru, &h[j]->lru)) {
					atomic_long_inc(&nr_deleted);
					obj_put(h[j]);	/* lru's ref */
				}
				break;
			}
			obj_put(h[j]);			/* ours */
			h[j] = NULL;
		}
		if (id >= max_ids)
			continue;
		o = kmalloc(sizeof(*o), GFP_KERNEL);
		if (!o) {
			atomic_inc(&bad_id);
			continue;
		}
		INIT_LIST_HEAD(&o->lru);
		refcount_set(&o->ref, 2);
		o->referenced = 0;
		o->id = id;
		if (list_lru_add_obj(&lru, &o->lru))
			atomic_long_inc(&nr_added);
		else
			atomic_inc(&bad_id);	/* a fresh item must go on */
		h[j] = o;
		cond_resched();
	}
	for (j = 0; j < HANDLES; j++)
		if (h[j])
			obj_put(h[j]);
	atomic_dec(&workers_left);
}

static void reclaimer(void *arg)
{
	u64 rnd = kshim_seed() ^ (unsigned long)arg;

	while (atomic_read(&workers_left))
		shrink_slab(GFP_KERNEL, 0, NULL, kshim_random(&rnd) % 13);
}

static enum lru_status drain(struct list_head *item,
			     struct list_lru_one *list, spinlock_t *lock,
			     void *arg)
{
	list_lru_isolate_move(list, item, arg);
	return LRU_REMOVED;
}

static void stress_add_del_shrink(void)
{
	struct task_struct *w[NR_WORKERS], *r[NR_RECLAIM];
	unsigned long nw = kshim_test_scale(NR_WORKERS), expect, left;
	struct shrinker *s;
	struct obj *o, *tmp;
	LIST_HEAD(dispose);
	unsigned int id;
	int i;

	if (nw > NR_WORKERS)
		nw = NR_WORKERS;
	per_worker = kshim_test_scale(1000);
	max_ids = nw * per_worker;
	freed = kcalloc(max_ids, sizeof(*freed), GFP_KERNEL);
	KSHIM_ASSERT_FATAL(freed != NULL);
	atomic_set(&next_id, 0);
	atomic_set(&workers_left, nw);
	KSHIM_ASSERT_EQ_FATAL(list_lru_init(&lru), 0);

	s = shrinker_alloc(0, "stress-lru");
	KSHIM_ASSERT_FATAL(s != NULL);
	s->count_objects = lru_count;
	s->scan_objects = lru_scan;
	s->batch = 32;
	shrinker_register(s);

	for (i = 0; i < NR_RECLAIM; i++)
		r[i] = kshim_task_run(reclaimer, (void *)(long)(i + 1),
				      "reclaim", -1);
	for (i = 0; i < nw; i++)
		w[i] = kshim_task_run(worker, (void *)(long)i, "lru-worker",
				      -1);
	for (i = 0; i < nw; i++)
		kshim_task_join(w[i]);
	for (i = 0; i < NR_RECLAIM; i++)
		kshim_task_join(r[i]);
	shrinker_free(s);

	expect = atomic_long_read(&nr_added) - atomic_long_read(&nr_deleted) -
		 atomic_long_read(&nr_isolated);
	KSHIM_ASSERT_EQ(list_lru_count(&lru), expect);
	KSHIM_ASSERT_EQ(atomic_long_read(&nr_added), max_ids);
	KSHIM_ASSERT(atomic_long_read(&nr_isolated) > 0);
	KSHIM_ASSERT(atomic_long_read(&nr_deleted) > 0);

	/* Take the rest off and free it: the lru holds the last refs. */
	left = list_lru_walk(&lru, drain, &dispose, ULONG_MAX);
	KSHIM_ASSERT_EQ(left, expect);
	KSHIM_ASSERT_EQ(list_lru_count(&lru), 0);
	list_for_each_entry_safe(o, tmp, &dispose, lru) {
		list_del_init(&o->lru);
		obj_put(o);
	}
	list_lru_destroy(&lru);

	KSHIM_ASSERT_EQ(atomic_read(&double_free), 0);
	KSHIM_ASSERT_EQ(atomic_read(&bad_id), 0);
	for (id = 0; id < max_ids; id++)
		if (atomic_read(&freed[id]) != 1) {
			KSHIM_ASSERT_EQ(atomic_read(&freed[id]), 1);
			break;
		}
	pr_info("stress_list_lru: %lu workers, %lu objects, %ld deleted, %ld isolated, %ld rotated, %lu left\n",
		nw, (unsigned long)max_ids, atomic_long_read(&nr_deleted),
		atomic_long_read(&nr_isolated), atomic_long_read(&nr_rotated),
		left);
	kfree(freed);
}

static const struct kshim_test stress_tests[] = {
	KSHIM_TEST(stress_add_del_shrink),
	{ }
};

KSHIM_SUITES({ "list_lru_stress", NULL, NULL, stress_tests });
