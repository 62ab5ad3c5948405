/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/percpu.h: real per-CPU storage, one copy per simulated CPU.
 * DEFINE_PER_CPU variables land in .data..percpu as in the kernel; the
 * linker script kernel-shim/kernel/kshim_percpu.ld brackets that section, and
 * kshim_percpu.c gives every simulated CPU its own copy of it and sets
 * __per_cpu_offset[] so per_cpu_ptr() finds it. The rest is the generic
 * code, unchanged.
 */
#ifndef _KSHIM_ASM_PERCPU_H
#define _KSHIM_ASM_PERCPU_H
#include <asm-generic/percpu.h>
#endif
