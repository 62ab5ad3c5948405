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
LOUD(mmput)
LOUD(arch_align_stack)

/* No remounts, descriptor tables or fs_context parsing (fs/namespace.c,
 * fs/file.c, fs/fs_context.c, fs/read_write.c, fs/libfs.c, mm/fadvise.c):
 * kshim's filesystems are mounted by the harness and driven through
 * kshim/vfs.h, which holds its files itself. */
LOUD(sb_prepare_remount_readonly)
LOUD(dissolve_on_fput)
LOUD(fdget)
LOUD(fdget_raw)
LOUD(get_unused_fd_flags)
LOUD(put_unused_fd)
LOUD(fd_install)
LOUD(file_close_fd)
LOUD(__close_range)
LOUD(fdget_pos)
LOUD(__f_unlock_pos)
LOUD(vmemdup_user)
LOUD(fs_context_for_reconfigure)
LOUD(put_fs_context)
LOUD(parse_monolithic_mount_data)
LOUD(vfs_fadvise)
LOUD(generic_fadvise)

/* No capabilities or security modules (kernel/capability.c,
 * security/commoncap.c). */
LOUD(cap_convert_nscap)		/* only for security.capability */

/* No block-device or character-device inodes (block/bdev.c,
 * fs/char_dev.c): kshim's block devices are opened by the harness
 * (kshim/bdev.h), never through a device node. */
LOUD(I_BDEV)
LOUD(bdev_thaw)
LOUD(cd_forget)
LOUD(cdev_put)
LOUD(bdev_statx)

/* No pipes or splice (fs/pipe.c, fs/splice.c): copy_file_range() and
 * sendfile() are never called. */
LOUD(do_splice_direct)
LOUD(splice_file_to_pipe)
LOUD(get_pipe_info)
LOUD(iter_file_splice_write)

/* No FIEMAP ioctl (fs/ioctl.c): kshim/vfs.h maps no extents through it. */
LOUD(fiemap_prep)
LOUD(fiemap_fill_next_extent)

/* No polled I/O (block/blk-core.c): kshim's disks complete by interrupt. */
LOUD(iocb_bio_iopoll)

/* No credential changes (kernel/cred.c): every task keeps kshim's root
 * credentials; faccessat() and friends are never called. */
LOUD(prepare_creds)
LOUD(override_creds)
LOUD(revert_creds)
LOUD(commit_creds)
LOUD(__put_cred)

/* No pid table (kernel/pid.c): capget()/capset() are never called. */
LOUD(find_task_by_vpid)

/* No user memory (lib/usercopy.c). */
LOUD(check_zeroed_user)

/* No boot command line (lib/vsprintf.c's parser for __setup()). */
LOUD(simple_strtoul)

/* The rest of fs/namespace.c (kshim_mount.c has what a mount-less file
 * needs): no path crosses a mount or holds one. */
LOUD(mnt_want_write)
LOUD(vfs_kern_mount)
LOUD(mnt_drop_write)
LOUD(__is_local_mountpoint)
LOUD(__detach_mounts)
LOUD(lookup_mnt)
LOUD(__lookup_mnt)
LOUD(__legitimize_mnt)
LOUD(path_is_under)
LOUD(finish_automount)
LOUD(path_noexec)

/* fs/libfs.c, security/commoncap.c, lib/vsprintf.c, lib/string_helpers.c,
 * not compiled. */
LOUD(num_to_str)
LOUD(string_escape_mem)

/* block/: no block device opened by path, no zeroing offload. */
LOUD(blkdev_issue_zeroout)

/* No signals (kshim/include/linux/sched/signal.h). */
LOUD(send_sig)
