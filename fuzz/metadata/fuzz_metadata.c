// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: XFS's metadata readers. An input is
 *
 *	byte 0   the structure (enum md_type, modulo MD_NTYPES)
 *	byte 1   bit 0: keep the CRC as given (by default the harness
 *	         recomputes it, so that mutations get past the CRC check);
 *	         bits 1-7: which instance (AG, directory block, inode...)
 *	rest     the structure's bytes, cut or zero-padded to its size
 *
 * The bytes go into a buffer at the place on the disk where such a
 * structure lives in a small filesystem kshim made and mounted read-only
 * once per process (kshim_fuzz_init()); the real read verifier of the
 * structure (->verify_read of its xfs_buf_ops) runs; if it passes, a real
 * reader of the structure runs through the buffer cache: btree lookups
 * and record walks, directory lookups, xattr gets, readlink, an inode
 * read by xfs_iget() (xfs_inode_from_disk(), the fork parsers, the
 * shortform directory verifier). Between inputs every cached buffer is
 * dropped and every released inode reclaimed, so that each input starts
 * from the same state, and the kernel's allocations must come back to
 * the same count: one that does not is a leak, reported as a crash. So
 * is a WARN, an ASSERT, a kshim report or a sanitizer report.
 */
#include "xfs.h"
#include "xfs_fs.h"
#include "xfs_shared.h"
#include "xfs_bit.h"
#include "xfs_format.h"
#include "xfs_log_format.h"
#include "xfs_trans_resv.h"
#include "xfs_mount.h"
#include "xfs_inode.h"
#include "xfs_ag.h"
#include "xfs_btree.h"
#include "xfs_alloc.h"
#include "xfs_alloc_btree.h"
#include "xfs_ialloc.h"
#include "xfs_ialloc_btree.h"
#include "xfs_rmap.h"
#include "xfs_rmap_btree.h"
#include "xfs_refcount.h"
#include "xfs_refcount_btree.h"
#include "xfs_da_format.h"
#include "xfs_da_btree.h"
#include "xfs_dir2.h"
#include "xfs_attr.h"
#include "xfs_bmap.h"
#include "xfs_inode_buf.h"
#include "xfs_icache.h"
#include "xfs_symlink.h"
#include "xfs_symlink_remote.h"
#include "xfs_attr_remote.h"
#include "xfs_attr_leaf.h"
#include "xfs_sysctl.h"
#include "xfs_error.h"
#include "xfs_sb.h"
#include <linux/fcntl.h>
#include <linux/namei.h>
#include <kshim/host.h>
#include <kshim/ktest.h>
#include <kshim/runtime.h>
#include <kshim/vfs.h>
#include <kshim/xfs.h>
#include "kshim_fuzz.h"

enum md_type {
	MD_SB, MD_AGF, MD_AGI, MD_AGFL,
	MD_BNOBT, MD_CNTBT, MD_INOBT, MD_FINOBT, MD_RMAPBT, MD_REFCOUNTBT,
	MD_DINODE, MD_DIR_BLOCK, MD_ATTR_BLOCK, MD_SYMLINK_BLOCK,
	MD_NTYPES
};

static const char *const md_names[MD_NTYPES] = {
	"sb", "agf", "agi", "agfl", "bnobt", "cntbt", "inobt", "finobt",
	"rmapbt", "refcountbt", "dinode", "dir", "attr", "symlink",
};

#define MD_FLAG_KEEP_CRC	0x01
#define MD_HDR			2
#define MD_MAX_BLOCKS		32

/* The population the seed corpus and the readers share (md_populate()). */
#define BIG_DIR_ENTRIES		1000
#define ATTRS			60
#define DATA_EXTENTS		30

/* A block of a file's fork, where it is and which verifier reads it. */
struct md_block {
	xfs_daddr_t daddr;
	int len;			/* basic blocks */
	const struct xfs_buf_ops *ops;
};

static struct {
	struct kshim_xfs_config cfg;
	char img[256];
	struct kshim_xfs *x;
	struct xfs_mount *mp;
	/* Held for the readers: big (a node-form directory), attrs (a
	 * leaf-form attr fork with a remote value), link (a remote
	 * symlink). */
	struct dentry *big, *attrs, *link;
	/* The inodes whose dinodes the seed corpus has. */
	xfs_ino_t seed_inos[8];
	int nseed_inos;
	/* A free inode slot the dinode inputs are read into. */
	xfs_ino_t free_ino;
	struct md_block dir[MD_MAX_BLOCKS], attr[MD_MAX_BLOCKS], sym;
	int ndir, nattr;
	long baseline;		/* kshim_alloc_outstanding() between inputs */
	u8 *scratch;		/* one structure, zero-padded */
} md;

/* ---- the population ----------------------------------------------------- */

static void must(int error, const char *what)
{
	if (error)
		kshim_fatal("fuzz_metadata: %s: %d", what, error);
}

/*
 * What the readers read: a node-form directory, a leaf-form attr fork
 * with a remote value, a remote symlink, a short-form directory, an
 * inline symlink and a file whose data fork is a btree. Through the VFS
 * on a read-write mount, once; all single-task, so the blocks land where
 * they land on every run of this seed.
 */
static void md_populate(struct super_block *sb)
{
	struct dentry *root = kshim_vfs_root(sb), *d, *f;
	struct file *file;
	char name[32], value[64], *big;
	int i;

	must(kshim_vfs_create(root, "target", S_IFREG | 0644, &f), "create");
	must(kshim_vfs_mkdir(root, "big", 0755, &d), "mkdir big");
	for (i = 0; i < BIG_DIR_ENTRIES; i++) {
		snprintf(name, sizeof(name), "entry-%04d", i);
		must(kshim_vfs_link(f, d, name), "link");
	}
	kshim_vfs_put(d);
	kshim_vfs_put(f);
	must(kshim_vfs_mkdir(root, "small", 0755, &d), "mkdir small");
	must(kshim_vfs_mknod(d, "fifo", S_IFIFO | 0644, NULL), "mknod");
	kshim_vfs_put(d);

	big = kmalloc(5000, GFP_KERNEL | __GFP_NOFAIL);
	for (i = 0; i < 5000; i++)
		big[i] = 'a' + i % 26;
	big[1000] = '\0';
	must(kshim_vfs_symlink(root, "link", big, NULL), "symlink long");
	must(kshim_vfs_symlink(root, "short", "target", NULL), "symlink");

	must(kshim_vfs_create(root, "attrs", S_IFREG | 0644, &f), "create");
	for (i = 0; i < ATTRS; i++) {
		snprintf(name, sizeof(name), "user.attr-%03d", i);
		snprintf(value, sizeof(value), "value of attribute %03d", i);
		must(kshim_vfs_setxattr(f, name, value, strlen(value), 0),
		     "setxattr");
	}
	must(kshim_vfs_setxattr(f, "user.remote", big, 5000, 0), "setxattr");
	kshim_vfs_put(f);
	kfree(big);

	must(kshim_vfs_open(root, "data", O_CREAT | O_RDWR, 0644, &file),
	     "open data");
	for (i = 0; i < DATA_EXTENTS; i++)
		if (kshim_vfs_pwrite(file, "x", 1, (loff_t)i * 2 * 4096, 0) != 1)
			kshim_fatal("fuzz_metadata: pwrite");
	must(kshim_vfs_fsync(file, 0), "fsync");
	must(kshim_vfs_close(file), "close");
	must(kshim_vfs_syncfs(sb), "syncfs");
	kshim_vfs_put(root);
}

static struct xfs_inode *held(struct dentry *root, const char *name,
			      struct dentry **out)
{
	struct dentry *d = kshim_vfs_lookup(root, name);

	if (IS_ERR(d))
		kshim_fatal("fuzz_metadata: lookup %s: %ld", name, PTR_ERR(d));
	*out = d;
	return XFS_I(d_inode(d));
}

static xfs_ino_t ino_of(struct dentry *root, const char *name)
{
	struct dentry *d;
	xfs_ino_t ino = held(root, name, &d)->i_ino;

	kshim_vfs_put(d);
	return ino;
}

/* Every mapped block of a fork, in file offset order, with its verifier. */
static int fork_blocks(struct xfs_inode *ip, int whichfork,
		       struct md_block *out, int max)
{
	struct xfs_mount *mp = ip->i_mount;
	struct xfs_bmbt_irec map[16];
	xfs_fileoff_t off = 0;
	int n = 0, nmap, i, lock;

	lock = whichfork == XFS_DATA_FORK ? xfs_ilock_data_map_shared(ip) :
		xfs_ilock_attr_map_shared(ip);
	for (;;) {
		nmap = ARRAY_SIZE(map);
		must(xfs_bmapi_read(ip, off, XFS_MAX_FILEOFF - off, map, &nmap,
				    whichfork == XFS_ATTR_FORK ?
				    XFS_BMAPI_ATTRFORK : 0), "bmapi_read");
		if (!nmap)
			break;
		for (i = 0; i < nmap; i++) {
			xfs_filblks_t b;

			if (map[i].br_startblock == HOLESTARTBLOCK)
				continue;
			for (b = 0; b < map[i].br_blockcount && n < max; b++) {
				out[n].daddr = XFS_FSB_TO_DADDR(mp,
						map[i].br_startblock + b);
				out[n].len = XFS_FSB_TO_BB(mp, 1);
				n++;
			}
		}
		off = map[nmap - 1].br_startoff + map[nmap - 1].br_blockcount;
		if (off >= XFS_MAX_FILEOFF || n >= max)
			break;
	}
	xfs_iunlock(ip, lock);
	return n;
}

/* The verifier of a directory or attr block, from what is there now. */
static const struct xfs_buf_ops *block_ops(struct md_block *b)
{
	struct xfs_buf *bp;
	const struct xfs_buf_ops *ops = NULL;
	__be32 magic32;
	__be16 magic16;

	must(xfs_buf_read_uncached(md.mp->m_ddev_targp, b->daddr, b->len, 0,
				   &bp, NULL), "read block");
	magic32 = *(__be32 *)bp->b_addr;
	magic16 = ((struct xfs_da_blkinfo *)bp->b_addr)->magic;
	if (magic32 == cpu_to_be32(XFS_DIR3_DATA_MAGIC) ||
	    magic32 == cpu_to_be32(XFS_DIR3_BLOCK_MAGIC))
		ops = &xfs_dir3_data_buf_ops;
	else if (magic32 == cpu_to_be32(XFS_DIR3_FREE_MAGIC))
		ops = &xfs_dir3_free_buf_ops;
	else if (magic32 == cpu_to_be32(XFS_ATTR3_RMT_MAGIC))
		ops = &xfs_attr3_rmt_buf_ops;
	else if (magic32 == cpu_to_be32(XFS_SYMLINK_MAGIC))
		ops = &xfs_symlink_buf_ops;
	else if (magic16 == cpu_to_be16(XFS_DA3_NODE_MAGIC) ||
		 magic16 == cpu_to_be16(XFS_DIR3_LEAF1_MAGIC) ||
		 magic16 == cpu_to_be16(XFS_DIR3_LEAFN_MAGIC) ||
		 magic16 == cpu_to_be16(XFS_ATTR3_LEAF_MAGIC))
		ops = &xfs_da3_node_buf_ops;
	xfs_buf_relse(bp);
	if (!ops)
		kshim_fatal("fuzz_metadata: block at daddr %lld: unknown magic",
			    (long long)b->daddr);
	return ops;
}

/*
 * A remote attr value is read as one buffer over all its blocks
 * (xfs_attr_rmtval_get()); a buffer of one of them at the same place
 * would be another buffer at a cached block number, which the buffer
 * cache refuses (an ASSERT in _xfs_buf_obj_cmp()). So the blocks of a
 * value are one structure: a remote block that continues the one before
 * it on the disk, at a non-zero offset of the value, joins it.
 */
static int merge_remote_values(struct md_block *b, int n)
{
	int i, out = 0;

	for (i = 0; i < n; i++) {
		struct xfs_buf *bp;
		bool cont = false;

		if (out && b[i].ops == &xfs_attr3_rmt_buf_ops &&
		    b[out - 1].ops == &xfs_attr3_rmt_buf_ops &&
		    b[out - 1].daddr + b[out - 1].len == b[i].daddr) {
			must(xfs_buf_read_uncached(md.mp->m_ddev_targp,
						   b[i].daddr, b[i].len, 0,
						   &bp, NULL), "read block");
			cont = ((struct xfs_attr3_rmt_hdr *)bp->b_addr)->
				rm_offset != 0;
			xfs_buf_relse(bp);
		}
		if (cont)
			b[out - 1].len += b[i].len;
		else
			b[out++] = b[i];
	}
	return out;
}

/* ---- where each structure lives, and its size ---------------------------- */

struct md_place {
	xfs_daddr_t daddr;
	int len;			/* basic blocks */
	const struct xfs_buf_ops *ops;
	unsigned int crc_off;		/* of the CRC within the structure */
	struct xfs_perag *pag;		/* the AG's, for AG structures */
};

static void ag_root(struct md_place *p, xfs_agnumber_t agno, bool agi,
		    size_t root_off)
{
	struct xfs_buf *bp;
	int error;

	error = agi ? xfs_read_agi(p->pag, NULL, 0, &bp) :
		xfs_read_agf(p->pag, NULL, 0, &bp);
	must(error, "read AG header");
	p->daddr = XFS_AGB_TO_DADDR(md.mp, agno,
			be32_to_cpu(*(__be32 *)((char *)bp->b_addr + root_off)));
	xfs_buf_relse(bp);
	p->len = XFS_FSB_TO_BB(md.mp, 1);
	p->crc_off = XFS_BTREE_SBLOCK_CRC_OFF;
}

/* The place of TYPE's instance INDEX; false if the filesystem has none. */
static bool md_place(enum md_type type, unsigned int index, struct md_place *p)
{
	struct xfs_mount *mp = md.mp;
	xfs_agnumber_t agno = index % mp->m_sb.sb_agcount;
	struct md_block *b;

	memset(p, 0, sizeof(*p));
	if (type >= MD_AGF && type <= MD_REFCOUNTBT)
		p->pag = xfs_perag_get(mp, agno);
	switch (type) {
	case MD_SB:
		p->daddr = XFS_SB_DADDR;
		p->len = XFS_FSS_TO_BB(mp, 1);
		p->ops = &xfs_sb_buf_ops;
		p->crc_off = XFS_SB_CRC_OFF;
		return true;
	case MD_AGF:
	case MD_AGI:
	case MD_AGFL:
		p->daddr = XFS_AG_DADDR(mp, agno, type == MD_AGF ?
			XFS_AGF_DADDR(mp) : type == MD_AGI ?
			XFS_AGI_DADDR(mp) : XFS_AGFL_DADDR(mp));
		p->len = XFS_FSS_TO_BB(mp, 1);
		p->ops = type == MD_AGF ? &xfs_agf_buf_ops :
			type == MD_AGI ? &xfs_agi_buf_ops : &xfs_agfl_buf_ops;
		p->crc_off = type == MD_AGF ? XFS_AGF_CRC_OFF :
			type == MD_AGI ? XFS_AGI_CRC_OFF : XFS_AGFL_CRC_OFF;
		return true;
	case MD_BNOBT:
		ag_root(p, agno, false, offsetof(struct xfs_agf, agf_bno_root));
		p->ops = &xfs_bnobt_buf_ops;
		return true;
	case MD_CNTBT:
		ag_root(p, agno, false, offsetof(struct xfs_agf, agf_cnt_root));
		p->ops = &xfs_cntbt_buf_ops;
		return true;
	case MD_INOBT:
		ag_root(p, agno, true, offsetof(struct xfs_agi, agi_root));
		p->ops = &xfs_inobt_buf_ops;
		return true;
	case MD_FINOBT:
		ag_root(p, agno, true, offsetof(struct xfs_agi, agi_free_root));
		p->ops = &xfs_finobt_buf_ops;
		return true;
	case MD_RMAPBT:
		ag_root(p, agno, false, offsetof(struct xfs_agf, agf_rmap_root));
		p->ops = &xfs_rmapbt_buf_ops;
		return true;
	case MD_REFCOUNTBT:
		ag_root(p, agno, false,
			offsetof(struct xfs_agf, agf_refcount_root));
		p->ops = &xfs_refcountbt_buf_ops;
		return true;
	case MD_DIR_BLOCK:
	case MD_ATTR_BLOCK:
	case MD_SYMLINK_BLOCK:
		b = type == MD_DIR_BLOCK ? &md.dir[index % md.ndir] :
			type == MD_ATTR_BLOCK ? &md.attr[index % md.nattr] :
			&md.sym;
		p->daddr = b->daddr;
		p->len = b->len;
		p->ops = b->ops;
		/* Every v5 directory, attr and symlink block header has its
		 * CRC in the same place; remote attr blocks too. */
		p->crc_off = b->ops == &xfs_dir3_data_buf_ops ?
			XFS_DIR3_DATA_CRC_OFF :
			b->ops == &xfs_dir3_free_buf_ops ?
			XFS_DIR3_FREE_CRC_OFF :
			b->ops == &xfs_attr3_rmt_buf_ops ?
			XFS_ATTR3_RMT_CRC_OFF :
			b->ops == &xfs_symlink_buf_ops ?
			XFS_SYMLINK_CRC_OFF : XFS_DA3_NODE_CRC_OFF;
		return true;
	default:
		return false;
	}
}

/* ---- known findings -------------------------------------------------------- */

/*
 * A known finding is fenced off, so that fuzzing goes on to new ones:
 * its input is kept in findings/ and replayed with the fence down
 * (KSHIM_FUZZ_UNFENCE=NAME) as an expected failure (fuzz/meson.build).
 */
static bool fenced(const char *finding)
{
	const char *s = kshim_host_getenv("KSHIM_FUZZ_UNFENCE");

	return !s || strcmp(s, finding);
}

/*
 * Finding attr-leaf-firstused-zero (fuzz/metadata/README.md): an attr
 * leaf block (v5) whose firstused is 0, the on-disk encoding of a 64 KiB
 * block's "empty", reaches two ASSERTs of
 * xfs_attr3_leaf_firstused_from_disk() from inside the read verifier
 * (xfs_attr3_leaf_verify() -> xfs_attr3_leaf_hdr_from_disk()) before the
 * verifier can refuse it, on any block size below 64 KiB.
 */
static bool attr_leaf_firstused_zero(const struct xfs_buf *bp)
{
	const struct xfs_attr3_leaf_hdr *hdr = bp->b_addr;
	const struct xfs_attr_leaf_hdr *hdr2 = bp->b_addr;
	/*
	 * The v4 magic too: a directory node block's verifier
	 * (xfs_da3_node_read_verify()) hands either attr leaf magic to
	 * xfs_attr3_leaf_read_verify(), which reads a v4 leaf's firstused
	 * from the v4 header, on a v5 filesystem as well.
	 */
	bool v3 = hdr->info.hdr.magic == cpu_to_be16(XFS_ATTR3_LEAF_MAGIC);
	bool v2 = hdr2->info.magic == cpu_to_be16(XFS_ATTR_LEAF_MAGIC);

	return BBTOB(bp->b_length) >= sizeof(*hdr) &&
	       ((v3 && hdr->firstused == 0) || (v2 && hdr2->firstused == 0)) &&
	       md.mp->m_attr_geo->blksize <= USHRT_MAX &&
	       fenced("attr-leaf-firstused-zero");
}

/*
 * Finding da-node-v4-magic (fuzz/metadata/README.md): a directory or
 * attr node block on a v5 filesystem with the v4 node magic
 * (XFS_DA_NODE_MAGIC). xfs_da3_node_read_verify() sends it, CRC
 * unchecked, to xfs_da3_node_verify(), whose first call,
 * xfs_da3_node_hdr_from_disk(), ASSERTs the v5 magic before
 * xfs_da3_blkinfo_verify() can refuse the block.
 */
static bool da_node_v4_magic(const struct xfs_buf *bp,
			     const struct xfs_buf_ops *ops)
{
	const struct xfs_da_blkinfo *info = bp->b_addr;

	return ops == &xfs_da3_node_buf_ops && xfs_has_crc(md.mp) &&
	       info->magic == cpu_to_be16(XFS_DA_NODE_MAGIC) &&
	       fenced("da-node-v4-magic");
}

/*
 * Finding attr-remote-hole (fuzz/metadata/README.md): an attr leaf entry
 * whose remote value's blocks (valueblk, and as many as valuelen needs)
 * are a hole of the attr fork. xfs_attr_rmtval_get() ASSERTs that every
 * mapping is a real block instead of checking. Asked of a leaf block
 * that has passed its verifier, for the held attrs inode.
 */
static bool attr_remote_hole(struct xfs_buf *bp, struct xfs_inode *ip)
{
	struct xfs_attr_leafblock *leaf = bp->b_addr;
	struct xfs_attr3_icleaf_hdr ichdr;
	struct xfs_attr_leaf_entry *ents;
	struct xfs_bmbt_irec map[8];
	bool hole = false;
	int i, j, nmap, lock;

	if (leaf->hdr.info.magic != cpu_to_be16(XFS_ATTR3_LEAF_MAGIC))
		return false;
	xfs_attr3_leaf_hdr_from_disk(md.mp->m_attr_geo, &ichdr, leaf);
	ents = xfs_attr3_leaf_entryp(leaf);
	lock = xfs_ilock_attr_map_shared(ip);
	for (i = 0; i < ichdr.count && !hole; i++) {
		struct xfs_attr_leaf_name_remote *rmt;

		if (ents[i].flags & XFS_ATTR_LOCAL)
			continue;
		rmt = xfs_attr3_leaf_name_remote(leaf, i);
		nmap = ARRAY_SIZE(map);
		if (xfs_bmapi_read(ip, be32_to_cpu(rmt->valueblk),
				   xfs_attr3_rmt_blocks(md.mp,
					be32_to_cpu(rmt->valuelen)),
				   map, &nmap, XFS_BMAPI_ATTRFORK))
			continue;
		for (j = 0; j < nmap; j++)
			hole |= map[j].br_startblock == HOLESTARTBLOCK ||
				map[j].br_startblock == DELAYSTARTBLOCK;
	}
	xfs_iunlock(ip, lock);
	return hole && fenced("attr-remote-hole");
}

/*
 * Finding sb-blocklog-shift (fuzz/metadata/README.md): a v5 superblock
 * with sparse inodes whose sb_blocklog is 64 or more makes
 * xfs_validate_sb_common() shift by it (the sparse inode alignment
 * check) before it checks the block size: undefined behaviour, which
 * UBSan reports. Asked of the superblock input before its verifier.
 */
static bool sb_blocklog_shift(struct xfs_buf *bp)
{
	struct xfs_dsb *dsb = bp->b_addr;

	return dsb->sb_blocklog >= BITS_PER_LONG &&
	       (be32_to_cpu(dsb->sb_features_incompat) &
		XFS_SB_FEAT_INCOMPAT_SPINODES) &&
	       fenced("sb-blocklog-shift");
}

/*
 * Finding sb-logsectlog-shift (fuzz/metadata/README.md): a superblock
 * with XFS_SB_VERSION_SECTORBIT whose sb_logsectlog is 32 or more makes
 * xfs_validate_sb_common() compute 1U << sb_logsectlog (to compare
 * with sb_logsectsize) before anything bounds sb_logsectlog: undefined
 * behaviour, which UBSan reports.
 */
static bool sb_logsectlog_shift(struct xfs_buf *bp)
{
	struct xfs_dsb *dsb = bp->b_addr;

	return dsb->sb_logsectlog >= 32 &&
	       (be16_to_cpu(dsb->sb_versionnum) & XFS_SB_VERSION_SECTORBIT) &&
	       fenced("sb-logsectlog-shift");
}

/*
 * Finding btree-root-sibling (fuzz/metadata/README.md): an AG btree's
 * root block with a sibling pointer. The verifier accepts any sibling
 * that is a valid AG block; a record walk off the root's end follows it,
 * climbs past the root, and xfs_btree_increment() ASSERT(0)s ("we went
 * off the root") before it returns -EFSCORRUPTED. Asked of the block
 * under test, placed at the root.
 */
static bool btree_root_sibling(struct xfs_buf *bp)
{
	struct xfs_btree_block *block = bp->b_addr;

	return (block->bb_u.s.bb_leftsib != cpu_to_be32(NULLAGBLOCK) ||
		block->bb_u.s.bb_rightsib != cpu_to_be32(NULLAGBLOCK)) &&
	       fenced("btree-root-sibling");
}

/* ---- the readers ---------------------------------------------------------- */

static int count_agfl(struct xfs_mount *mp, xfs_agblock_t bno, void *priv)
{
	(*(unsigned int *)priv)++;
	return 0;
}

/* Walk every record of CUR's btree from the smallest key. */
static void walk_btree(struct xfs_btree_cur *cur, enum md_type type)
{
	union {
		struct xfs_inobt_rec_incore ino;
		struct xfs_refcount_irec refc;
	} r;
	xfs_agblock_t bno;
	xfs_extlen_t len;
	int stat = 0, error, n = 0;

	switch (type) {
	case MD_BNOBT:
	case MD_CNTBT:
		error = xfs_alloc_lookup_ge(cur, 0, 0, &stat);
		break;
	case MD_INOBT:
	case MD_FINOBT:
		error = xfs_inobt_lookup(cur, 0, XFS_LOOKUP_GE, &stat);
		break;
	default:
		error = xfs_refcount_lookup_ge(cur, XFS_REFC_DOMAIN_SHARED, 0,
					       &stat);
		break;
	}
	while (!error && stat && n++ < 10000) {
		if (type == MD_BNOBT || type == MD_CNTBT)
			error = xfs_alloc_get_rec(cur, &bno, &len, &stat);
		else if (type == MD_INOBT || type == MD_FINOBT)
			error = xfs_inobt_get_rec(cur, &r.ino, &stat);
		else
			error = xfs_refcount_get_rec(cur, &r.refc, &stat);
		if (error || !stat)
			break;
		error = xfs_btree_increment(cur, 0, &stat);
	}
	xfs_btree_del_cursor(cur, error);
}

static int count_rmap(struct xfs_btree_cur *cur,
		      const struct xfs_rmap_irec *rec, void *priv)
{
	(*(unsigned int *)priv)++;
	return 0;
}

/* A btree rooted at the block under test, from the AG's real header. */
static void read_btree(enum md_type type, struct xfs_perag *pag)
{
	struct xfs_mount *mp = md.mp;
	struct xfs_btree_cur *cur;
	struct xfs_buf *agbp;
	unsigned int n = 0;
	int error;

	if (type == MD_INOBT || type == MD_FINOBT) {
		if (xfs_read_agi(pag, NULL, 0, &agbp))
			return;
		cur = type == MD_INOBT ? xfs_inobt_init_cursor(pag, NULL, agbp) :
			xfs_finobt_init_cursor(pag, NULL, agbp);
		walk_btree(cur, type);
		xfs_buf_relse(agbp);
		return;
	}
	if (xfs_read_agf(pag, NULL, 0, &agbp))
		return;
	switch (type) {
	case MD_BNOBT:
		walk_btree(xfs_bnobt_init_cursor(mp, NULL, agbp, pag), type);
		break;
	case MD_CNTBT:
		walk_btree(xfs_cntbt_init_cursor(mp, NULL, agbp, pag), type);
		break;
	case MD_RMAPBT:
		cur = xfs_rmapbt_init_cursor(mp, NULL, agbp, pag);
		error = xfs_rmap_query_all(cur, count_rmap, &n);
		xfs_btree_del_cursor(cur, error);
		break;
	default:
		walk_btree(xfs_refcountbt_init_cursor(mp, NULL, agbp, pag),
			   type);
		break;
	}
	xfs_buf_relse(agbp);
}

static void lookup_names(struct xfs_inode *dp)
{
	static const char *const names[] = {
		"entry-0000", "entry-0499", "entry-0999", "fifo", "nothere",
	};
	struct xfs_name xname;
	xfs_ino_t ino;
	unsigned int i;

	/*
	 * No ILOCK here: xfs_dir_lookup() takes it (shared, or exclusive
	 * while a btree-format directory's extents are still to be read),
	 * and taking it around the call too made the target lock a btree
	 * directory twice (kshim's recursive-locking report, 1 December).
	 */
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		xname.name = (const unsigned char *)names[i];
		xname.len = strlen(names[i]);
		xname.type = XFS_DIR3_FT_UNKNOWN;
		xfs_dir_lookup(NULL, dp, &xname, &ino, NULL);
	}
}

static void get_attrs(struct xfs_inode *ip)
{
	static const char *const names[] = {
		"attr-000", "attr-030", "attr-059", "remote", "nothere",
	};
	static char value[XATTR_SIZE_MAX];
	unsigned int i;

	if (!xfs_inode_has_attr_fork(ip))
		return;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct xfs_da_args args = {
			.dp = ip,
			.attr_filter = 0,	/* the user namespace */
			.name = (const u8 *)names[i],
			.namelen = strlen(names[i]),
			.value = value,
			.valuelen = sizeof(value),
		};

		xfs_attr_get(&args);
	}
}

/*
 * Finding symlink-remote-hole (fuzz/metadata/README.md): a remote
 * symlink whose data fork leaves a hole in the blocks its size needs.
 * xfs_symlink_remote_read() takes each mapping xfs_bmapi_read() gives as
 * a block, a hole's HOLESTARTBLOCK included, and reads it:
 * xfs_buf_map_verify() refuses the daddr with its WARN_ON(1).
 */
static bool symlink_remote_hole(struct xfs_inode *ip)
{
	struct xfs_mount *mp = ip->i_mount;
	struct xfs_bmbt_irec map[XFS_SYMLINK_MAPS];
	int nmap = XFS_SYMLINK_MAPS, i, lock;
	bool hole = false;

	if (ip->i_df.if_format == XFS_DINODE_FMT_LOCAL ||
	    ip->i_disk_size <= 0 || ip->i_disk_size > XFS_SYMLINK_MAXLEN)
		return false;
	lock = xfs_ilock_data_map_shared(ip);
	if (!xfs_bmapi_read(ip, 0, xfs_symlink_blocks(mp, ip->i_disk_size),
			    map, &nmap, 0))
		for (i = 0; i < nmap; i++)
			hole |= map[i].br_startblock == HOLESTARTBLOCK;
	xfs_iunlock(ip, lock);
	return hole;
}

static void read_link(struct xfs_inode *ip)
{
	static char link[XFS_SYMLINK_MAXLEN + 1];

	/*
	 * Finding readlink-bad-length (fuzz/metadata/README.md): an
	 * extents-format symlink inode whose di_size exceeds
	 * XFS_SYMLINK_MAXLEN passes xfs_dinode_verify() (only a zero size is
	 * refused), and xfs_readlink() then reaches ASSERT(0) after its
	 * "bad symlink length" alert: a crash of an XFS_DEBUG kernel with
	 * bug_on_assert set, -EFSCORRUPTED without XFS_DEBUG.
	 */
	if (ip->i_disk_size > XFS_SYMLINK_MAXLEN &&
	    fenced("readlink-bad-length"))
		return;
	if (symlink_remote_hole(ip) && fenced("symlink-remote-hole"))
		return;
	xfs_readlink(ip, link);
}

/* What a reader of an inode of this kind reads. */
static void read_inode(struct xfs_inode *ip)
{
	struct xfs_bmbt_irec map[8];
	int nmap = ARRAY_SIZE(map);
	unsigned int lock;

	switch (VFS_I(ip)->i_mode & S_IFMT) {
	case S_IFDIR:
		lookup_names(ip);
		break;
	case S_IFLNK:
		read_link(ip);
		break;
	case S_IFREG:
		lock = xfs_ilock_data_map_shared(ip);
		xfs_bmapi_read(ip, 0, 64, map, &nmap, 0);
		xfs_iunlock(ip, lock);
		break;
	}
	get_attrs(ip);
}

/* ---- one input ------------------------------------------------------------ */

/* Each filesystem block of a remote attr value has a CRC of its own. */
static void fix_crc(const struct md_place *p, void *buf, size_t len, u8 flags)
{
	size_t off, step = p->ops == &xfs_attr3_rmt_buf_ops ?
		md.mp->m_sb.sb_blocksize : len;

	if (flags & MD_FLAG_KEEP_CRC)
		return;
	for (off = 0; off + step <= len; off += step)
		xfs_update_cksum((char *)buf + off, step, p->crc_off);
}

/*
 * A dinode: into the free slot, its inode number made the slot's (as the
 * CRC, a fix-up: the seeds come from other slots), then xfs_iget() reads
 * it as an inode of its own, and the reader of its kind runs.
 */
static void md_dinode(const u8 *data, size_t size, u8 flags)
{
	struct xfs_mount *mp = md.mp;
	struct xfs_perag *pag = xfs_perag_get(mp,
					XFS_INO_TO_AGNO(mp, md.free_ino));
	struct xfs_imap imap;
	struct xfs_dinode *dip;
	struct xfs_inode *ip;
	struct xfs_buf *bp;
	int error;

	error = xfs_imap(pag, NULL, md.free_ino, &imap, 0);
	xfs_perag_put(pag);
	must(error, "imap");
	must(xfs_imap_to_bp(mp, NULL, &imap, &bp), "imap_to_bp");
	dip = xfs_buf_offset(bp, imap.im_boffset);
	memset(dip, 0, mp->m_sb.sb_inodesize);
	memcpy(dip, data, min_t(size_t, size, mp->m_sb.sb_inodesize));
	dip->di_ino = cpu_to_be64(md.free_ino);
	if (!(flags & MD_FLAG_KEEP_CRC))
		xfs_dinode_calc_crc(mp, dip);
	bp->b_error = 0;
	bp->b_ops->verify_read(bp);
	error = bp->b_error;
	if (error)
		xfs_buf_stale(bp);
	xfs_buf_relse(bp);
	if (error)
		return;
	if (xfs_iget(mp, NULL, md.free_ino, XFS_IGET_DONTCACHE, 0, &ip))
		return;
	read_inode(ip);
	/*
	 * A reader that found it corrupt marked it sick, and
	 * xfs_inode_mark_sick() keeps a sick inode cached (it clears
	 * I_DONTCACHE) for health reporting. The next input needs the slot
	 * read afresh: drop it on release all the same.
	 */
	d_mark_dontcache(VFS_I(ip));
	xfs_irele(ip);
}

static void md_one(enum md_type type, unsigned int index, u8 flags,
		   const u8 *data, size_t size)
{
	struct md_place p;
	struct xfs_buf *bp;
	struct xfs_buf *agflbp;
	unsigned int n = 0;
	size_t bytes;
	int error;

	if (type == MD_DINODE) {
		md_dinode(data, size, flags);
		return;
	}
	if (!md_place(type, index, &p))
		return;
	bytes = BBTOB(p.len);
	/* The real block first, so that the cache holds it at its place;
	 * then the input's bytes over it. */
	if (xfs_buf_read(md.mp->m_ddev_targp, p.daddr, p.len, 0, &bp, p.ops))
		goto out;
	memset(bp->b_addr, 0, bytes);
	memcpy(bp->b_addr, data, min(size, bytes));
	fix_crc(&p, bp->b_addr, bytes, flags);
	if (attr_leaf_firstused_zero(bp) || da_node_v4_magic(bp, p.ops) ||
	    (type == MD_SB && (sb_blocklog_shift(bp) ||
			       sb_logsectlog_shift(bp)))) {
		xfs_buf_stale(bp);
		xfs_buf_relse(bp);
		goto out;
	}
	bp->b_error = 0;
	p.ops->verify_read(bp);
	error = bp->b_error;
	if (error) {
		xfs_buf_stale(bp);
		xfs_buf_relse(bp);
		goto out;
	}
	switch (type) {
	case MD_SB: {
		struct xfs_sb sb;

		xfs_sb_from_disk(&sb, bp->b_addr);
		xfs_buf_relse(bp);
		break;
	}
	case MD_AGF:
		/* The free list this AGF names, in the real AGFL. */
		if (!xfs_alloc_read_agfl(p.pag, NULL, &agflbp)) {
			xfs_agfl_walk(md.mp, bp->b_addr, agflbp, count_agfl, &n);
			xfs_buf_relse(agflbp);
		}
		xfs_buf_relse(bp);
		break;
	case MD_AGFL:
		xfs_buf_relse(bp);
		if (!xfs_alloc_read_agfl(p.pag, NULL, &agflbp)) {
			struct xfs_buf *agfbp;

			if (!xfs_read_agf(p.pag, NULL, 0, &agfbp)) {
				xfs_agfl_walk(md.mp, agfbp->b_addr, agflbp,
					      count_agfl, &n);
				xfs_buf_relse(agfbp);
			}
			xfs_buf_relse(agflbp);
		}
		break;
	case MD_AGI: {
		/* The inode btree this AGI roots. */
		struct xfs_btree_cur *cur = xfs_inobt_init_cursor(p.pag, NULL,
								  bp);

		walk_btree(cur, MD_INOBT);
		xfs_buf_relse(bp);
		break;
	}
	case MD_DIR_BLOCK:
		xfs_buf_relse(bp);
		lookup_names(XFS_I(d_inode(md.big)));
		break;
	case MD_ATTR_BLOCK:
		error = attr_remote_hole(bp, XFS_I(d_inode(md.attrs)));
		xfs_buf_relse(bp);
		if (!error)
			get_attrs(XFS_I(d_inode(md.attrs)));
		break;
	case MD_SYMLINK_BLOCK:
		xfs_buf_relse(bp);
		read_link(XFS_I(d_inode(md.link)));
		break;
	default:
		error = btree_root_sibling(bp);
		xfs_buf_relse(bp);
		if (!error)
			read_btree(type, p.pag);
		break;
	}
out:
	if (p.pag)
		xfs_perag_put(p.pag);
}

/*
 * Back to the state every input starts from: no cached buffer (the next
 * input's reads come from the disk, which a read-only mount never
 * changes), no released inode left in the cache.
 */
static void md_reset(void)
{
	xfs_reclaim_inodes(md.mp);
	xfs_buftarg_drain(md.mp->m_ddev_targp);
	/* Buffers and inodes are freed by RCU callbacks: let them run, so
	 * that the count of live allocations means something. */
	rcu_barrier();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	unsigned long warns = kshim_warn_count();
	unsigned long reports = kshim_report_count();
	long live;

	if (size < MD_HDR)
		return 0;
	kshim_printk_clear();
	md_one(data[0] % MD_NTYPES, data[1] >> 1, data[1], data + MD_HDR,
	       size - MD_HDR);
	md_reset();
	if (kshim_warn_count() != warns || kshim_report_count() != reports)
		kshim_fatal("fuzz_metadata: a WARN or kshim report on a %s "
			    "input (above)", md_names[data[0] % MD_NTYPES]);
	live = kshim_alloc_outstanding();
	if (live != md.baseline) {
		if (kshim_host_getenv("KSHIM_FUZZ_LEAKS"))
			kshim_alloc_report_leaks();
		kshim_fatal("fuzz_metadata: %ld allocation(s) more than before "
			    "a %s input: a leak", live - md.baseline,
			    md_names[data[0] % MD_NTYPES]);
	}
	return 0;
}

/* ---- set-up and seeds ------------------------------------------------------ */

int kshim_fuzz_write_seed(const char *name, const void *buf,
			  unsigned long len);

/* The real structure at TYPE's instance INDEX as an input: the seeds. */
static void dump_seed(enum md_type type, unsigned int index)
{
	struct md_place p;
	struct xfs_buf *bp;
	char name[64];
	u8 *buf;
	size_t bytes;

	if (!md_place(type, index, &p))
		return;
	bytes = BBTOB(p.len);
	must(xfs_buf_read(md.mp->m_ddev_targp, p.daddr, p.len, 0, &bp, p.ops),
	     "read seed block");
	buf = kmalloc(MD_HDR + bytes, GFP_KERNEL | __GFP_NOFAIL);
	buf[0] = type;
	buf[1] = index << 1;
	memcpy(buf + MD_HDR, bp->b_addr, bytes);
	xfs_buf_relse(bp);
	if (p.pag)
		xfs_perag_put(p.pag);
	snprintf(name, sizeof(name), "%s-%u", md_names[type], index);
	must(kshim_fuzz_write_seed(name, buf, MD_HDR + bytes), "write seed");
	kfree(buf);
}

static void dump_dinode(xfs_ino_t ino, unsigned int i)
{
	struct xfs_mount *mp = md.mp;
	struct xfs_perag *pag = xfs_perag_get(mp, XFS_INO_TO_AGNO(mp, ino));
	struct xfs_imap imap;
	struct xfs_buf *bp;
	char name[64];
	u8 *buf;

	must(xfs_imap(pag, NULL, ino, &imap, 0), "imap");
	xfs_perag_put(pag);
	must(xfs_imap_to_bp(mp, NULL, &imap, &bp), "imap_to_bp");
	buf = kmalloc(MD_HDR + mp->m_sb.sb_inodesize,
		      GFP_KERNEL | __GFP_NOFAIL);
	buf[0] = MD_DINODE;
	buf[1] = 0;
	memcpy(buf + MD_HDR, xfs_buf_offset(bp, imap.im_boffset),
	       mp->m_sb.sb_inodesize);
	xfs_buf_relse(bp);
	snprintf(name, sizeof(name), "dinode-%u", i);
	must(kshim_fuzz_write_seed(name, buf, MD_HDR + mp->m_sb.sb_inodesize),
	     "write seed");
	kfree(buf);
}

static void dump_seeds(void)
{
	int t, i;

	for (t = 0; t < MD_NTYPES; t++) {
		int n = t == MD_DIR_BLOCK ? md.ndir :
			t == MD_ATTR_BLOCK ? md.nattr :
			t == MD_SB || t == MD_SYMLINK_BLOCK ? 1 :
			t == MD_DINODE ? 0 : 2;

		for (i = 0; i < n; i++)
			dump_seed(t, i);
	}
	for (i = 0; i < md.nseed_inos; i++)
		dump_dinode(md.seed_inos[i], i);
}

int kshim_fuzz_init(const char *workdir)
{
	static const char *const seeds[] = {
		"big", "small", "link", "short", "attrs", "data", "target",
	};
	struct dentry *root;
	struct xfs_inode *ip;
	struct xfs_imap imap;
	struct xfs_perag *pag;
	struct xfs_buf *bp;
	int i, error;

	snprintf(md.img, sizeof(md.img), "%s/metadata.img", workdir);
	/* rmapbt on: its btree is a target too (mkfs.xfs 6.1 leaves it
	 * off by default). 64 MiB: four AGs of 4 KiB blocks. */
	if (kshim_xfs_mkfs_id(md.img, 64 << 20, "-m rmapbt=1", 1))
		return -EIO;
	md.cfg.image = md.img;
	error = kshim_xfs_mount(&md.cfg, &md.x);
	if (error)
		return error;
	md_populate(kshim_xfs_sb(md.x));
	kshim_xfs_unmount(md.x);

	md.cfg.read_only = true;
	error = kshim_xfs_mount(&md.cfg, &md.x);
	if (error)
		return error;
	md.mp = kshim_xfs_mp(md.x);
	/*
	 * An inode a reader found corrupt is sick, and reclaim leaves sick
	 * inodes alone unless the mount is going away or does no recovery
	 * (xfs_want_reclaim_sick()). This mount is read-only and its log
	 * clean, so norecovery (as mount -o ro,norecovery would set it)
	 * changes nothing else, and lets md_reset() reclaim them.
	 */
	md.mp->m_features |= XFS_FEAT_NORECOVERY;
	/*
	 * Verifier failures and corruption reports are what most inputs
	 * make: the alert line each, without the hex dump and the stack
	 * trace that xfs_error_level 3 (the default) and even 1 add (a stack
	 * trace is symbolised by addr2line: 90% of a run's time). A crash
	 * still has its trace.
	 */
	xfs_params.error_level.val = XFS_ERRLEVEL_OFF;
	/*
	 * Finding buf-length-mismatch (fuzz/metadata/README.md): a corrupt
	 * block map reads a block the cache holds with another length;
	 * _xfs_buf_obj_cmp()'s ASSERT, then (without XFS_DEBUG) a second
	 * buffer over the same blocks. Counted apart, not a crash, unless
	 * unfenced; the kernel's code runs as it is either way.
	 */
	if (fenced("buf-length-mismatch"))
		kshim_test_known_warn("Assertion failed: bp->b_flags & XBF_STALE");

	root = kshim_vfs_root(kshim_xfs_sb(md.x));
	for (i = 0; i < ARRAY_SIZE(seeds); i++)
		md.seed_inos[md.nseed_inos++] = ino_of(root, seeds[i]);
	md.seed_inos[md.nseed_inos++] = md.mp->m_sb.sb_rootino;

	ip = held(root, "big", &md.big);
	md.ndir = fork_blocks(ip, XFS_DATA_FORK, md.dir, MD_MAX_BLOCKS);
	for (i = 0; i < md.ndir; i++)
		md.dir[i].ops = block_ops(&md.dir[i]);
	ip = held(root, "attrs", &md.attrs);
	md.nattr = fork_blocks(ip, XFS_ATTR_FORK, md.attr, MD_MAX_BLOCKS);
	for (i = 0; i < md.nattr; i++)
		md.attr[i].ops = block_ops(&md.attr[i]);
	md.nattr = merge_remote_values(md.attr, md.nattr);
	ip = held(root, "link", &md.link);
	if (fork_blocks(ip, XFS_DATA_FORK, &md.sym, 1) != 1)
		kshim_fatal("fuzz_metadata: the long symlink has no block");
	md.sym.ops = block_ops(&md.sym);
	kshim_vfs_put(root);
	if (md.ndir < 4 || md.nattr < 2)
		kshim_fatal("fuzz_metadata: %d directory and %d attr blocks: "
			    "the population changed", md.ndir, md.nattr);

	/* The last inode of the root's chunk: free in this population. */
	md.free_ino = md.mp->m_sb.sb_rootino + XFS_INODES_PER_CHUNK - 1;
	pag = xfs_perag_get(md.mp, XFS_INO_TO_AGNO(md.mp, md.free_ino));
	error = xfs_imap(pag, NULL, md.free_ino, &imap, 0);
	xfs_perag_put(pag);
	must(error, "imap");
	must(xfs_imap_to_bp(md.mp, NULL, &imap, &bp), "imap_to_bp");
	if (((struct xfs_dinode *)xfs_buf_offset(bp, imap.im_boffset))->di_mode)
		kshim_fatal("fuzz_metadata: inode %llu is in use",
			    (unsigned long long)md.free_ino);
	xfs_buf_relse(bp);

	dump_seeds();
	md_reset();
	md.baseline = kshim_alloc_outstanding();
	return 0;
}

int kshim_fuzz_exit(void)
{
	kshim_vfs_put(md.big);
	kshim_vfs_put(md.attrs);
	kshim_vfs_put(md.link);
	kshim_xfs_unmount(md.x);
	return kshim_runtime_exit_checks();
}
