// SPDX-License-Identifier: GPL-2.0
/*
 * crc32c() without the crypto API: lib/libcrc32c.c hands the work to a
 * "crc32c" shash driver; kshim calls the real lib/crc32.c software
 * implementation directly. Same polynomial, same results (XFS's on-disk
 * checksums are verified against mkfs.xfs's). Listed in docs/FAKES.md.
 */
#include <linux/crc32.h>
#include <linux/crc32c.h>

u32 crc32c(u32 crc, const void *address, unsigned int length)
{
	return __crc32c_le(crc, address, length);
}
