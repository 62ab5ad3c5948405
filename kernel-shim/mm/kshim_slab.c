// SPDX-License-Identifier: GPL-2.0
/*
 * kshim's memory allocator behind the real linux/slab.h and
 * linux/vmalloc.h. Pages come from kshim_page_alloc.c.
 *
 * Every object is its own host allocation, so valgrind and ASan see each
 * kmalloc()/kmem_cache_alloc() precisely (overflow, use after free).
 * Every object is counted and kept on a live list, so a leak is reported
 * at exit with its cache and size, and any allocation can be made to fail
 * (every Nth, or with a probability drawn from the run's seed). What is
 * lost against SLUB is listed in docs/FAKES.md: no slab pages, a cache's
 * constructor runs on every allocation, no per-CPU caches or merging.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/rcupdate.h>
#include <linux/poison.h>	/* POISON_INUSE */
#include <kshim/host.h>
#include <kshim/runtime.h>

#include "kshim_internal.h"

/* struct kmem_cache is in the overlay's mm/slab.h, where mm/ files see it. */
#include "../overlay/mm/slab.h"

enum obj_kind { OBJ_KMALLOC, OBJ_CACHE };
static const char *const kind_name[] = {
	"kmalloc", "kmem_cache",
};

#define OBJ_MAGIC	0x6b73686du	/* "kshm" */
#define OBJ_FREED	0x66726565u	/* "free" */

/*
 * Header in front of every object. hdr_size is at least the object's
 * alignment so the object itself stays aligned.
 */
struct obj_hdr {
	u32 magic;
	u16 kind;
	u16 hdr_size;
	size_t size;
	struct kmem_cache *cache;
	unsigned long caller;
	struct obj_hdr *prev, *next;	/* live list */
	struct rcu_head rcu;		/* SLAB_TYPESAFE_BY_RCU frees */
};

static struct obj_hdr live_head = { .prev = &live_head, .next = &live_head };
/* Objects allocated by initcalls: they live as long as the "kernel", as
 * boot-time allocations do, and are not leaks. */
static struct obj_hdr boot_head = { .prev = &boot_head, .next = &boot_head };
static u32 live_lock;
static atomic_long_t outstanding;
static atomic_long_t outstanding_bytes;	/* object sizes, until released */
static atomic_long_t total_allocs;
static atomic_long_t injected_failures;
static unsigned long fail_every;
static unsigned long fail_ppm;
static unsigned long fail_at;	/* kshim_alloc_fail_nth(); 0: none */
static u64 fail_state;

kmem_buckets kmalloc_caches[NR_KMALLOC_TYPES];

/* The live list is guarded by a host-level lock: allocation may happen in
 * any context, and must not itself be a kernel lock (it would recurse). */
static void live_lock_acquire(void)
{
	kshim_raw_lock(&live_lock);
}

static void live_lock_release(void)
{
	kshim_raw_unlock(&live_lock);
}

/* Set while other tasks allocate: their should_fail() reads these. */
void kshim_alloc_fail_every(unsigned long nth)
{
	WRITE_ONCE(fail_every, nth);
}

/*
 * One failure: the first allocation that may fail from the nth counted
 * after this call on (a fuzz target's fault point: relative, so that an
 * input fails the same allocation whatever ran before it).
 */
void kshim_alloc_fail_nth(unsigned long nth)
{
	WRITE_ONCE(fail_at, nth ? atomic_long_read(&total_allocs) + nth : 0);
}

void kshim_alloc_fail_ppm(unsigned long ppm)
{
	live_lock_acquire();
	fail_state = kshim_seed() ^ 0xa11ca7e5ULL;
	live_lock_release();
	WRITE_ONCE(fail_ppm, ppm);
}

unsigned long kshim_alloc_failures(void)
{
	return atomic_long_read(&injected_failures);
}

/*
 * Memory in use for the memory-pressure model: object bytes (until
 * really released: after the grace period for SLAB_TYPESAFE_BY_RCU
 * caches) and pages.
 */
unsigned long kshim_mem_used_bytes(void)
{
	return atomic_long_read(&outstanding_bytes) +
	       kshim_page_outstanding() * PAGE_SIZE;
}

void (*kshim_alloc_pressure_hook)(gfp_t gfp, unsigned long bytes);

unsigned long kshim_slab_bytes(void)
{
	return atomic_long_read(&outstanding_bytes);
}

/*
 * Object bytes changed: the page allocator counts them as whole pages in
 * the zone while reclaim runs (kshim_zone_set_limit()). The page counts
 * are taken from the one atomic result, so concurrent changes sum to
 * the right total.
 */
static void charge_bytes(long delta)
{
	long now = atomic_long_add_return(delta, &outstanding_bytes);
	long pages = DIV_ROUND_UP(now, PAGE_SIZE) -
		     DIV_ROUND_UP(now - delta, PAGE_SIZE);

	if (pages)
		kshim_slab_pages_changed(pages);
}

long kshim_alloc_outstanding(void)
{
	return atomic_long_read(&outstanding);
}

unsigned long kshim_alloc_count(void)
{
	return atomic_long_read(&total_allocs);
}

static bool should_fail(gfp_t gfp)
{
	unsigned long n, at, every = READ_ONCE(fail_every);
	unsigned long ppm = READ_ONCE(fail_ppm);

	if (gfp & __GFP_NOFAIL)
		return false;
	n = atomic_long_read(&total_allocs);
	if (every && n % every == 0)	/* read once: never n % 0 */
		goto fail;
	at = READ_ONCE(fail_at);
	if (at && n >= at && cmpxchg(&fail_at, at, 0) == at)
		goto fail;
	if (ppm) {
		u64 r;

		live_lock_acquire();
		r = kshim_random(&fail_state);
		live_lock_release();
		if (r % 1000000 < ppm)
			goto fail;
	}
	return false;
fail:
	atomic_long_inc(&injected_failures);
	return true;
}

/* The page allocator (kshim_page_alloc.c) counts and fails the same way. */
bool kshim_alloc_should_fail(gfp_t gfp)
{
	atomic_long_inc(&total_allocs);
	return should_fail(gfp);
}

static void *obj_alloc(enum obj_kind kind, size_t size, size_t align,
		       gfp_t gfp, struct kmem_cache *cache,
		       unsigned long caller)
{
	struct obj_hdr *h;
	size_t hdr_size = sizeof(*h);
	void *block, *obj;

	if (gfpflags_allow_blocking(gfp))
		might_sleep();
	kshim_alloc_pressure(gfp, size);
	atomic_long_inc(&total_allocs);
	if (should_fail(gfp))
		return NULL;
	if (align > hdr_size)
		hdr_size = align;
	hdr_size = ALIGN(hdr_size, sizeof(long) * 2);
	block = kshim_host_alloc(hdr_size + size, align > 16 ? align : 16);
	if (!block) {
		if (gfp & __GFP_NOFAIL)
			kshim_fatal("host out of memory for a __GFP_NOFAIL allocation");
		return NULL;
	}
	/* The header sits right before the object. */
	obj = (char *)block + hdr_size;
	h = (struct obj_hdr *)((char *)obj - sizeof(*h));
	h->magic = OBJ_MAGIC;
	h->kind = kind;
	h->hdr_size = hdr_size;
	h->size = size;
	h->cache = cache;
	h->caller = caller;
	live_lock_acquire();
	h->next = live_head.next;
	h->prev = &live_head;
	live_head.next->prev = h;
	live_head.next = h;
	live_lock_release();
	atomic_long_inc(&outstanding);
	charge_bytes(size);
	if (cache) {
		atomic_long_inc(&cache->live);
		atomic_long_inc(&cache->refs);
	}
	if (gfp & __GFP_ZERO) {
		memset(obj, 0, size);
	} else {
		/*
		 * What SLUB's poisoning writes (POISON_INUSE), so that kernel
		 * code reading memory it never wrote reads the same bytes on
		 * every run (the C library's malloc leaves whatever was there,
		 * or MALLOC_PERTURB_'s random byte), and valgrind still calls
		 * them uninitialised.
		 */
		memset(obj, POISON_INUSE, size);
		kshim_host_mem_undefined(obj, size);
	}
	return obj;
}

static struct obj_hdr *obj_hdr(const void *obj, const char *op)
{
	struct obj_hdr *h = (struct obj_hdr *)((char *)obj - sizeof(*h));

	if (h->magic == OBJ_FREED)
		kshim_fatal("%s(%p): double free", op, obj);
	if (h->magic != OBJ_MAGIC)
		kshim_fatal("%s(%p): not an object kshim allocated", op, obj);
	return h;
}

/* A cache lives while it is not destroyed or has objects not released. */
static void cache_put(struct kmem_cache *s)
{
	if (atomic_long_dec_and_test(&s->refs))
		kshim_host_free(s);
}

static void obj_release(struct obj_hdr *h)
{
	void *block = (char *)h + sizeof(*h) - h->hdr_size;
	struct kmem_cache *cache = h->cache;

	charge_bytes(-(long)h->size);
	kshim_host_free(block);
	if (cache)
		cache_put(cache);
}

static void obj_rcu_release(struct rcu_head *rcu)
{
	obj_release(container_of(rcu, struct obj_hdr, rcu));
}

static void obj_free(const void *obj, enum obj_kind kind, const char *op)
{
	struct obj_hdr *h = obj_hdr(obj, op);

	if (h->kind != kind)
		kshim_fatal("%s(%p): object came from %s", op, obj,
			    kind_name[h->kind]);
	kshim_timer_check_free(obj, h->size);
	live_lock_acquire();
	h->prev->next = h->next;
	h->next->prev = h->prev;
	live_lock_release();
	h->magic = OBJ_FREED;
	atomic_long_dec(&outstanding);
	if (h->cache) {
		atomic_long_dec(&h->cache->live);
		/* Memory stays valid for RCU readers until a grace period. */
		if (h->cache->flags & SLAB_TYPESAFE_BY_RCU) {
			call_rcu(&h->rcu, obj_rcu_release);
			return;
		}
	}
	obj_release(h);
}

void kshim_alloc_mark_boot_done(void)
{
	live_lock_acquire();
	if (live_head.next != &live_head) {
		live_head.next->prev = boot_head.prev;
		boot_head.prev->next = live_head.next;
		live_head.prev->next = &boot_head;
		boot_head.prev = live_head.prev;
		live_head.next = live_head.prev = &live_head;
	}
	live_lock_release();
}

long kshim_alloc_report_leaks(void)
{
	struct obj_hdr *h;
	long n = 0;

	live_lock_acquire();
	for (h = live_head.next; h != &live_head; h = h->next) {
		if (n < 20)
			pr_err("kshim: leak: %s%s%s: %zu bytes at %p, allocated from %p\n",
			       kind_name[h->kind], h->cache ? " " : "",
			       h->cache ? h->cache->name : "", h->size,
			       (char *)h + sizeof(*h), (void *)h->caller);
		n++;
	}
	live_lock_release();
	if (n > 20)
		pr_err("kshim: leak: ... and %ld more\n", n - 20);
	return n;
}

/* ---- slab ---------------------------------------------------------------- */

struct kmem_cache *__kmem_cache_create_args(const char *name,
					    unsigned int object_size,
					    struct kmem_cache_args *args,
					    slab_flags_t flags)
{
	struct kmem_cache *s = kshim_host_alloc(sizeof(*s), 0);

	if (!s) {
		if (flags & SLAB_PANIC)
			panic("kmem_cache_create: cannot create %s", name);
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->object_size = object_size;
	s->flags = flags;
	s->align = args && args->align ? args->align : sizeof(long long);
	if (flags & SLAB_HWCACHE_ALIGN && s->align < L1_CACHE_BYTES)
		s->align = L1_CACHE_BYTES;
	s->ctor = args ? args->ctor : NULL;
	atomic_long_set(&s->refs, 1);	/* until kmem_cache_destroy() */
	return s;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	long live;

	if (!s)
		return;
	live = atomic_long_read(&s->live);
	/*
	 * As SLUB does when __kmem_cache_shutdown() fails: report, and keep
	 * the cache while its objects point at it (the leak report at exit
	 * names it); it goes with the last of them.
	 */
	if (live)
		kshim_report("kmem_cache_destroy %s: Slab cache still has %ld objects",
			     s->name, live);
	cache_put(s);
}

long kshim_kmem_cache_live(struct kmem_cache *s)
{
	return atomic_long_read(&s->live);
}

int kmem_cache_shrink(struct kmem_cache *s)
{
	return 0;	/* no slab pages to give back */
}

unsigned int kmem_cache_size(struct kmem_cache *s)
{
	return s->object_size;
}

static void *cache_alloc(struct kmem_cache *s, gfp_t gfp, unsigned long caller)
{
	void *obj = obj_alloc(OBJ_CACHE, s->object_size, s->align, gfp, s,
			      caller);

	if (obj && s->ctor)
		s->ctor(obj);
	return obj;
}

void *kmem_cache_alloc_noprof(struct kmem_cache *s, gfp_t gfp)
{
	return cache_alloc(s, gfp, _RET_IP_);
}

void *kmem_cache_alloc_lru_noprof(struct kmem_cache *s, struct list_lru *lru,
				  gfp_t gfp)
{
	return cache_alloc(s, gfp, _RET_IP_);
}

void *kmem_cache_alloc_node_noprof(struct kmem_cache *s, gfp_t gfp, int node)
{
	return cache_alloc(s, gfp, _RET_IP_);
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	if (!obj)
		return;
	if (obj_hdr(obj, "kmem_cache_free")->cache != s)
		kshim_fatal("kmem_cache_free(%s, %p): object belongs to another cache",
			    s->name, obj);
	obj_free(obj, OBJ_CACHE, "kmem_cache_free");
}

void kmem_cache_free_bulk(struct kmem_cache *s, size_t size, void **p)
{
	size_t i;

	for (i = 0; i < size; i++)
		kfree(p[i]);
}

int kmem_cache_alloc_bulk_noprof(struct kmem_cache *s, gfp_t flags,
				 size_t size, void **p)
{
	size_t i;

	for (i = 0; i < size; i++) {
		p[i] = cache_alloc(s, flags, _RET_IP_);
		if (!p[i]) {
			kmem_cache_free_bulk(s, i, p);
			return 0;
		}
	}
	return size;
}

/* ---- kmalloc ------------------------------------------------------------- */

static void *pages_alloc(size_t size, gfp_t gfp, unsigned long caller);
static bool is_pages_alloc(const void *addr);
static void pages_free(const void *addr, const char *op);

/*
 * With kshim_kmalloc_from_pages(512), kmalloc() of a sector or more
 * comes from pages, like vmalloc() (see pages_alloc()): the kernel does
 * I/O on kmalloc()ed buffers (the XFS log reads a sector into one), which
 * needs memory in the linear map. Off by default: the writeback and page
 * allocator tests do not pass with it yet (see the XFS issue's notes).
 */
static size_t kmalloc_pages_min;

void kshim_kmalloc_from_pages(size_t min_size)
{
	kmalloc_pages_min = min_size;
}

static void *kmalloc_any(size_t size, gfp_t gfp, unsigned long caller)
{
	if (!size)
		return ZERO_SIZE_PTR;
	if (kmalloc_pages_min && size >= kmalloc_pages_min)
		return pages_alloc(size, gfp, caller);
	return obj_alloc(OBJ_KMALLOC, size, ARCH_KMALLOC_MINALIGN, gfp, NULL,
			 caller);
}

void *__kmalloc_noprof(size_t size, gfp_t flags)
{
	return kmalloc_any(size, flags, _RET_IP_);
}

void *__kmalloc_node_noprof(size_t size, gfp_t flags, int node)
{
	return kmalloc_any(size, flags, _RET_IP_);
}

/* The kmalloc-N caches only route constant sizes here; the object is
 * still a plain kmalloc object of exactly the requested size. */
void *__kmalloc_cache_noprof(struct kmem_cache *s, gfp_t flags, size_t size)
{
	return kmalloc_any(size, flags, _RET_IP_);
}

void *__kmalloc_cache_node_noprof(struct kmem_cache *s, gfp_t flags,
				  int node, size_t size)
{
	return kmalloc_any(size, flags, _RET_IP_);
}

void *__kmalloc_large_noprof(size_t size, gfp_t flags)
{
	return kmalloc_any(size, flags, _RET_IP_);
}

void *__kmalloc_large_node_noprof(size_t size, gfp_t flags, int node)
{
	return kmalloc_any(size, flags, _RET_IP_);
}

void *__kmalloc_node_track_caller_noprof(size_t size, gfp_t flags, int node,
					 unsigned long caller)
{
	return kmalloc_any(size, flags, caller);
}

void kfree(const void *obj)
{
	if (ZERO_OR_NULL_PTR(obj))
		return;
	if (is_pages_alloc(obj)) {
		pages_free(obj, "kfree");
		return;
	}
	if (obj_hdr(obj, "kfree")->kind == OBJ_CACHE) {
		/* kfree() of a kmem_cache object is legal in 6.12. */
		obj_free(obj, OBJ_CACHE, "kfree");
		return;
	}
	obj_free(obj, OBJ_KMALLOC, "kfree");
}

void kfree_sensitive(const void *obj)
{
	if (!ZERO_OR_NULL_PTR(obj))
		memset((void *)obj, 0, ksize(obj));
	kfree(obj);
}

size_t ksize(const void *obj)
{
	if (ZERO_OR_NULL_PTR(obj))
		return 0;
	if (is_pages_alloc(obj))
		return page_size(virt_to_page(obj));
	return obj_hdr(obj, "ksize")->size;
}

size_t __ksize(const void *obj)
{
	return ksize(obj);
}

size_t kmalloc_size_roundup(size_t size)
{
	return size;
}

void *krealloc_noprof(const void *p, size_t new_size, gfp_t flags)
{
	size_t old = ksize(p);
	void *n;

	if (!new_size) {
		kfree(p);
		return ZERO_SIZE_PTR;
	}
	if (p && !ZERO_OR_NULL_PTR(p) && new_size <= old)
		return (void *)p;
	n = kmalloc_any(new_size, flags & ~__GFP_ZERO, _RET_IP_);
	if (!n)
		return NULL;
	if (!ZERO_OR_NULL_PTR(p))
		memcpy(n, p, old);
	if (flags & __GFP_ZERO)
		memset((char *)n + old, 0, new_size - old);
	kfree(p);
	return n;
}

bool slab_is_available(void)
{
	return true;
}

/* ---- vmalloc and kvmalloc ------------------------------------------------ */

/*
 * vmalloc() memory, and kvmalloc() memory of a page or more, is a run of
 * pages from kshim's "physical memory" (kshim_page_alloc.c), a compound
 * page of the order that holds the size. Unlike slab objects (host
 * allocations), it is in the linear map: virt_to_page() and
 * page_address() are right for it, so it can be the data of a bio (the
 * XFS log writes iclogs from kvmalloc()ed buffers and reads the log into
 * them). is_vmalloc_addr() is false for it, as for kmalloc()ed
 * high-order pages in the kernel. The unused tail of the last page is
 * not poisoned: an overrun into it is not caught (docs/FAKES.md).
 */
#define PAGES_ALLOC_MAGIC	0x6b736d70UL	/* "kshm" "p": in page->private */

static void *pages_alloc(size_t size, gfp_t gfp, unsigned long caller)
{
	unsigned int order = get_order(size ? size : 1);
	struct page *page;

	if (gfpflags_allow_blocking(gfp))
		might_sleep();
	page = kshim_alloc_pages_caller((gfp & ~__GFP_HIGHMEM) | __GFP_COMP,
					order, caller);
	if (!page)
		return NULL;
	/* Marked, so kfree()/vfree() of any other page is still caught. */
	set_page_private(page, PAGES_ALLOC_MAGIC);
	return page_address(page);
}

static bool is_pages_alloc(const void *addr)
{
	return addr && !ZERO_OR_NULL_PTR(addr) && kshim_in_linear_map(addr);
}

static void pages_free(const void *addr, const char *op)
{
	struct page *page = virt_to_page(addr);

	if (offset_in_page(addr) || PageTail(page) ||
	    page_private(page) != PAGES_ALLOC_MAGIC)
		kshim_fatal("%s(%p): not an allocation of this allocator "
			    "(double free, or a page from alloc_pages())",
			    op, addr);
	kshim_timer_check_free(addr, page_size(page));
	set_page_private(page, 0);
	__free_pages(page, compound_order(page));
}

void *vmalloc_noprof(unsigned long size)
{
	return pages_alloc(size, GFP_KERNEL, _RET_IP_);
}

void *vzalloc_noprof(unsigned long size)
{
	return pages_alloc(size, GFP_KERNEL | __GFP_ZERO, _RET_IP_);
}

void *__vmalloc_noprof(unsigned long size, gfp_t gfp)
{
	return pages_alloc(size, gfp, _RET_IP_);
}

void vfree(const void *addr)
{
	if (!addr)
		return;
	if (!is_pages_alloc(addr))
		kshim_fatal("vfree(%p): not vmalloc() memory", addr);
	pages_free(addr, "vfree");
}

void *__kvmalloc_node_noprof(size_t size, gfp_t flags, int node)
{
	if (size >= PAGE_SIZE)
		return pages_alloc(size, flags, _RET_IP_);
	return kmalloc_any(size, flags, _RET_IP_);
}

void kvfree(const void *addr)
{
	if (is_pages_alloc(addr))
		pages_free(addr, "kvfree");
	else
		kfree(addr);
}

void *kvrealloc_noprof(const void *p, size_t size, gfp_t flags)
{
	size_t old;
	void *n;

	if (!is_pages_alloc(p) && size < PAGE_SIZE)
		return krealloc_noprof(p, size, flags);
	old = is_pages_alloc(p) ? page_size(virt_to_page(p)) : ksize(p);
	if (p && !ZERO_OR_NULL_PTR(p) && size <= old)
		return (void *)p;
	n = __kvmalloc_node_noprof(size, flags & ~__GFP_ZERO, NUMA_NO_NODE);
	if (!n)
		return NULL;
	if (!ZERO_OR_NULL_PTR(p))
		memcpy(n, p, old);
	if (flags & __GFP_ZERO)
		memset((char *)n + old, 0, size - old);
	kvfree(p);
	return n;
}

void kvfree_sensitive(const void *addr, size_t len)
{
	if (addr)
		memset((void *)addr, 0, len);
	kvfree(addr);
}

/*
 * mm/util.c's duplication helpers (mm/util.c is not compiled, see
 * kshim_mm_fakes.c): allocations of this slab like any other.
 * kstrdup_const() always copies and kfree_const() always frees: kshim
 * cannot tell .rodata from the heap portably, and a copy is what
 * kstrdup_const() does for any string not in .rodata anyway.
 */
const char *kstrdup_const(const char *s, gfp_t gfp)
{
	return s ? kmemdup_noprof(s, strlen(s) + 1, gfp) : NULL;
}

void kfree_const(const void *x)
{
	kfree(x);
}

char *kstrdup(const char *s, gfp_t gfp)
{
	return s ? kmemdup_noprof(s, strlen(s) + 1, gfp) : NULL;
}

void *kmemdup_noprof(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc_any(len, gfp, _RET_IP_);

	if (p)
		memcpy(p, src, len);
	return p;
}

void *kmemdup_array(const void *src, size_t count, size_t element_size,
		    gfp_t gfp)
{
	size_t bytes;

	if (check_mul_overflow(count, element_size, &bytes))
		return NULL;
	return kmemdup_noprof(src, bytes, gfp);
}

/* Nothing kshim allocates is in a vmalloc area (see pages_alloc()). */
bool is_vmalloc_addr(const void *x)
{
	return false;
}

/* mm/vmalloc.c's: no modules either (iov_iter_extract_pages() asks it of
 * a kernel buffer given to O_DIRECT, then uses virt_to_page()). */
int is_vmalloc_or_module_addr(const void *x)
{
	return is_vmalloc_addr(x);
}

void kshim_slab_init(void)
{
	int type, i;

	for (i = 0; i <= KMALLOC_SHIFT_HIGH; i++) {
		struct kmem_cache *s;
		unsigned int size = i == 1 ? 96 : i == 2 ? 192 : 1U << i;

		s = __kmem_cache_create_args("kmalloc", size, NULL, 0);
		for (type = 0; type < NR_KMALLOC_TYPES; type++)
			kmalloc_caches[type][i] = s;
	}
}
