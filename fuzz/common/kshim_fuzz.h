/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a kshim fuzz target provides besides the libFuzzer interface
 * (LLVMFuzzerTestOneInput()), for kshim_fuzz_host.c. Plain C types: the
 * header is read by kernel-world targets and the host-world runner alike.
 *
 * kshim_fuzz_init(): once per process, after the host side has fixed the
 * run's seed (the seed corpus depends on it: the image's UUID comes from
 * it); WORKDIR is a private directory for images. 0 or a negative errno.
 * kshim_fuzz_exit(): undo it (unmount), then kshim's exit checks; the
 * number of problems (leaks), 0 when clean. The replay runner calls it;
 * libFuzzer never returns to run it.
 */
#ifndef _KSHIM_FUZZ_H
#define _KSHIM_FUZZ_H

int kshim_fuzz_init(const char *workdir);
int kshim_fuzz_exit(void);

/*
 * kshim_fuzz_host.c: a seed input NAME from the target's set-up, written
 * into the directory KSHIM_FUZZ_SEEDS_OUT names (a make_seeds.py sets
 * it), nothing otherwise. 0 or -1.
 */
int kshim_fuzz_write_seed(const char *name, const void *buf,
			  unsigned long len);

/*
 * kshim_fuzz_image.c: an image file mapped shared (MAP), and a private
 * copy of its bytes as they were when mapped (GOLDEN), SIZE bytes each.
 * 0 or -1 (printed).
 */
struct kshim_fuzz_image {
	unsigned char *map;
	unsigned char *golden;
	unsigned long long size;
};
int kshim_fuzz_image_map(const char *path, struct kshim_fuzz_image *im);
void kshim_fuzz_image_unmap(struct kshim_fuzz_image *im);
/* Back to the golden bytes: COUNT 512-byte sectors from SECTOR (cut at
 * the image's end), or the whole image. */
void kshim_fuzz_image_restore(struct kshim_fuzz_image *im,
			      unsigned long long sector,
			      unsigned long long count);
void kshim_fuzz_image_restore_all(struct kshim_fuzz_image *im);

#endif
