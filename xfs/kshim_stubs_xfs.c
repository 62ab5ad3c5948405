// SPDX-License-Identifier: GPL-2.0
/*
 * Loud stubs: XFS functions that the compiled XFS files (the log, the
 * transaction and buffer layers, xfs_mount.c, libxfs) reference on paths
 * the log tests never take. Each aborts with its name if called (DESIGN.md
 * rule 3): a test that reaches one has found a path kshim must then
 * compile real, or fake and list in docs/FAKES.md.
 *
 * Defined by name only, with no kernel header, so that no prototype is
 * copied (a stub never returns, so its type does not matter).
 */
#include <kshim/runtime.h>

#define LOUD(name)							\
	void name(void);						\
	void name(void)							\
	{								\
		kshim_unimplemented(#name);				\
	}

/* Online discard (xfs_discard.c): the fixtures mount without -o discard. */
LOUD(xfs_discard_extents)

/* The file, ioctl, xattr and exchange-range entry points (xfs_file.c,
 * xfs_aops.c, xfs_ioctl.c, xfs_xattr.c, xfs_exchrange.c, xfs_iomap.c):
 * no data I/O, no ioctls. Their operation tables are in
 * kshim_xfs_fakes.c. */
LOUD(xfs_file_ioctl)
LOUD(xfs_fileattr_get)
LOUD(xfs_fileattr_set)
LOUD(xfs_exchrange_ilock)
LOUD(xfs_exchrange_iunlock)

/* block/bdev.c: no filesystem freeze. */
LOUD(bdev_freeze)
