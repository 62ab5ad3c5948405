/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/sigcontext.h: asm-generic/signal.h includes it for the
 * signal frame layout. kshim delivers no signals to kernel tasks, so the
 * frame is never built; the type only has to exist.
 */
#ifndef _ASM_KSHIM_SIGCONTEXT_H
#define _ASM_KSHIM_SIGCONTEXT_H
struct sigcontext {
	unsigned long oldmask;
};
#endif
