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

#endif
