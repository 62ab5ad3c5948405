// SPDX-License-Identifier: GPL-2.0
/*
 * Finding (a debug assertion, CONFIG_XFS_DEBUG only): after a log write
 * error, inode inactivation can assert that the filesystem is shut down
 * while only its log is.
 *
 * Found by the generator's crash test (test_xfs_fsstress_crash,
 * test_write_error_in_the_middle: one injected write error) with clones
 * and dedupes in the namespace mix. The report:
 *	XFS: Assertion failed: xfs_is_shutdown(mp),
 *	     file: fs/xfs/xfs_inode.c (xfs_inactive_ifree())
 *	xfs_inactive_ifree < xfs_inactive < xfs_inodegc_inactivate
 *	< xfs_inodegc_worker
 * with the transaction allocation's error -EIO, the mount's opstate
 * without XFS_OPSTATE_SHUTDOWN and the log's with XLOG_IO_ERROR (gdb at
 * the assertion).
 *
 * The mechanism: a failed log write calls xlog_force_shutdown() directly
 * (xfs_log.c, SHUTDOWN_LOG_IO_ERROR). It sets XLOG_IO_ERROR under
 * l_icloglock and only after dropping it sets the mount's shutdown bit
 * (xfs_set_shutdown()). In between, a reservation fails with -EIO
 * (xlog_is_shutdown() in the grant path), and the callers that take any
 * error other than -ENOSPC to mean a shut down mount assert it:
 * xfs_inactive_ifree(), and with the same line xfs_inactive_truncate(),
 * xfs_free_eofblocks(), xfs_inactive_symlink_rmt() and xfs_qm.c. A
 * shutdown through xfs_do_force_shutdown() sets the mount's bit first
 * and has no such window. Without XFS_DEBUG the error is returned and
 * the inode left for the unmount, so nothing is lost: the assertion is
 * what is wrong (or the order in xlog_force_shutdown()).
 *
 * This binary is test_xfs_fsstress_crash.c itself, built with that
 * assertion not known (FSSTRESS_CRASH_FINDING_IFREE), with the mix it
 * was found with; the crash test counts it and goes on. Which seed shows
 * it depends on every scheduling decision before it; when it is no
 * longer caught, sweep wider (--seeds 1..300) and move the range in
 * tests/meson.build.
 */
#define FSSTRESS_CRASH_FINDING_IFREE 1
#include "../unit/test_xfs_fsstress_crash.c"
