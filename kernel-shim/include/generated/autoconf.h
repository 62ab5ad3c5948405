/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness's kernel configuration (DESIGN.md rule 6), standing for the
 * Kconfig-generated include/generated/autoconf.h. One place: every kernel
 * translation unit sees the same configuration.
 *
 * On: SMP (the number of simulated CPUs is chosen at run time, up to
 * CONFIG_NR_CPUS), 64-bit, MMU (the real mm/fs headers' MMU paths; no
 * user mappings ever exist), FLATMEM, BLOCK, multi-index xarray entries,
 * XFS with XFS_DEBUG (every ASSERT fails the test).
 * Off: memcg, cgroup writeback, LRU_GEN, NUMA, HIGHMEM, transparent
 * hugepages, swap, blk-cgroup, blk integrity, XFS realtime and quota,
 * lockdep (kshim checks lock ownership itself), preemption (the
 * deterministic scheduler decides where tasks switch).
 * mm/vmscan.c therefore runs the classic active/inactive LRU (LRU_GEN
 * off: shrink_lruvec() -> shrink_inactive_list() -> shrink_folio_list(),
 * the code the reclaim seeds 001 and 003 are about, and DESIGN.md's
 * default; Debian's 6.12 config has LRU_GEN_ENABLED=y, but the classic
 * LRU is what /sys/kernel/mm/lru_gen/enabled=0 runs there, and MGLRU's
 * page-table walks need the user mappings kshim does not have),
 * without swap or anonymous memory (SWAP off: only file folios are
 * reclaimed), compaction (COMPACTION off: high-order requests fall back to
 * order 0 in kswapd), migration, THP, memcg and NUMA (one node, one zone).
 */
#ifndef KSHIM_GENERATED_AUTOCONF_H
#define KSHIM_GENERATED_AUTOCONF_H

#define CONFIG_64BIT 1
#define CONFIG_SMP 1
#define CONFIG_NR_CPUS 64
#define CONFIG_MMU 1
#define CONFIG_BASE_SMALL 0
#define CONFIG_HZ 250
#define CONFIG_PAGE_SHIFT 12
#define CONFIG_XARRAY_MULTI 1
#define CONFIG_PRINTK 1
#define CONFIG_BUG 1
#define CONFIG_PREEMPT_COUNT 1
#define CONFIG_LIST_HARDENED 1
#define CONFIG_DEBUG_LIST 1		/* list corruption is reported, not silent */
#define CONFIG_DEBUG_ATOMIC_SLEEP 1	/* might_sleep() checks atomic context */
#define CONFIG_THREAD_INFO_IN_TASK 1
#define CONFIG_TREE_RCU 1
#define CONFIG_PREEMPT_RCU 1	/* rcu_read_lock() is a call into kshim_rcu.c */
#define CONFIG_SRCU 1		/* linux/notifier.h (via mm.h) embeds srcu_struct */
#define CONFIG_TREE_SRCU 1	/* the header that goes with TREE_RCU */
#define CONFIG_BLOCK 1
/* User and group IDs are kept (without it every kuid reads as 0, and an
 * inode's owner could not be tested); capabilities are checked against
 * the task's credentials (kshim's tasks have root's). */
#define CONFIG_MULTIUSER 1
/* Tunables are sysctl tables driven through their real handlers
 * (kshim/sysctl.h); there is no /proc. */
#define CONFIG_SYSCTL 1
#define CONFIG_XFS_FS 1
#define CONFIG_XFS_DEBUG 1
#define CONFIG_FS_IOMAP 1
#define CONFIG_FLATMEM 1		/* mem_map[] over one region (kshim_page_alloc.c) */
#define CONFIG_VM_EVENT_COUNTERS 1	/* count_vm_event(): tests read SLABS_SCANNED */
#define CONFIG_PGTABLE_LEVELS 2	/* pgd -> pte, the rest folded (asm/pgtable.h); never walked */

#endif
