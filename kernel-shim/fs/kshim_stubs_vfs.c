// SPDX-License-Identifier: GPL-2.0
/*
 * Loud stubs: kernel functions the real VFS, page-cache and iov_iter
 * files reference on paths kshim never takes. Each aborts with its name
 * if it is ever called (DESIGN.md rule 3); a test that reaches one has
 * found a path kshim must then provide, real or faked.
 *
 * The stubs are defined by name only: this file includes no kernel
 * header, so no prototype has to be copied (a stub never returns, so its
 * type does not matter to the caller).
 */
#include <kshim/runtime.h>

#define LOUD(name)							\
	void name(void);						\
	void name(void)							\
	{								\
		kshim_unimplemented(#name);				\
	}

/* No user address space, no page tables (mm/memory.c, mm/gup.c,
 * mm/maccess.c, mm/vmalloc.c): no task has an mm. */
LOUD(__pte_offset_map_lock)
LOUD(pte_offset_map_nolock)
LOUD(pmd_install)
LOUD(set_pte_range)
LOUD(mm_trace_rss_stat)
LOUD(get_user_pages_fast)
LOUD(pin_user_pages_fast)
LOUD(fault_in_readable)
LOUD(fault_in_safe_writeable)
LOUD(__might_fault)
LOUD(copy_to_user_nofault)
LOUD(copy_from_kernel_nofault)
LOUD(strncpy_from_kernel_nofault)
LOUD(vmalloc_to_page)
LOUD(is_vmalloc_or_module_addr)
LOUD(mmput)
LOUD(arch_align_stack)

/* No page reclaim (mm/vmscan.c): kshim frees page-cache folios only by
 * truncation. */
LOUD(__acct_reclaim_writeback)
LOUD(reclaim_throttle)
LOUD(remove_mapping)

/* No mounts, open files or paths (fs/namespace.c, fs/file_table.c,
 * fs/fs_context.c, fs/read_write.c, fs/attr.c, fs/libfs.c, mm/fadvise.c):
 * kshim's filesystems are driven through their super_block and inodes. */
LOUD(mnt_get_write_access)
LOUD(mnt_get_write_access_file)
LOUD(mnt_put_write_access)
LOUD(mnt_put_write_access_file)
LOUD(sb_prepare_remount_readonly)
LOUD(fdget)
LOUD(fput)
LOUD(file_path)
LOUD(fs_context_for_reconfigure)
LOUD(put_fs_context)
LOUD(parse_monolithic_mount_data)
LOUD(vfs_fadvise)
LOUD(generic_write_checks)
LOUD(direct_write_fallback)
LOUD(simple_inode_init_ts)

/* No capabilities or security modules (kernel/capability.c,
 * security/commoncap.c). */
LOUD(capable_wrt_inode_uidgid)
LOUD(cap_inode_need_killpriv)

/* No block-device or character-device inodes (block/bdev.c,
 * fs/char_dev.c): kshim's block devices are opened by the harness
 * (kshim/bdev.h), never through a device node. */
LOUD(I_BDEV)
LOUD(bdev_thaw)
LOUD(cd_forget)

/* No boot command line (lib/vsprintf.c's parser for __setup()). */
LOUD(simple_strtoul)

/* No dentry cache or path walk (fs/dcache.c, fs/namei.c, fs/d_path.c):
 * XFS's inodes are reached through xfs_iget(), never by name. */
LOUD(__d_path)
LOUD(d_path)
LOUD(dentry_path)
LOUD(dget_parent)
LOUD(d_find_alias)
LOUD(d_add_ci)
LOUD(d_instantiate)
LOUD(d_invalidate)
LOUD(d_mark_dontcache)
LOUD(d_splice_alias)
LOUD(d_tmpfile)
LOUD(filename_lookup)
LOUD(getname_kernel)
LOUD(putname)
LOUD(path_put)
LOUD(inode_permission)
LOUD(current_umask)
LOUD(finish_open)

/* fs/libfs.c, security/commoncap.c, lib/vsprintf.c, lib/string_helpers.c,
 * not compiled. */
LOUD(simple_setattr)
LOUD(kfree_link)
LOUD(inode_query_iversion)
LOUD(cap_inode_killpriv)
LOUD(num_to_str)
LOUD(string_escape_mem)

/* block/: no block device opened by path, no zeroing offload. */
LOUD(blkdev_issue_zeroout)

/* No signals (kshim/include/linux/sched/signal.h). */
LOUD(send_sig)
