/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/bug.h: BUG() aborts the test with file:line, the task and
 * the seed (kshim_bug() in kshim_panic.c). WARN*() take asm-generic/bug.h's
 * !CONFIG_GENERIC_BUG path into warn_slowpath_fmt(), which prints and
 * counts; a test fails if the count rose unexpectedly.
 */
#ifndef _KSHIM_ASM_BUG_H
#define _KSHIM_ASM_BUG_H

#include <linux/compiler.h>

void __noreturn kshim_bug(const char *file, int line, const char *func);

#define HAVE_ARCH_BUG
#define BUG() kshim_bug(__FILE__, __LINE__, __func__)

#include <asm-generic/bug.h>

#endif
