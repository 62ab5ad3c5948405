/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/uaccess.h: kshim has no user address space, so every user
 * access is loud: get_user()/put_user() and the raw copies abort with
 * their name (kshim_mm_stubs.c). The real linux/uaccess.h builds
 * copy_{from,to}_user() and friends on these. access_ok() is the
 * asm-generic one over TASK_SIZE.
 */
#ifndef _KSHIM_ASM_UACCESS_H
#define _KSHIM_ASM_UACCESS_H

#include <linux/compiler.h>
#include <asm/processor.h>
#include <asm-generic/access_ok.h>

void __noreturn kshim_user_access(const char *what);

#define __get_user(x, ptr)						\
({									\
	(void)(ptr);							\
	(x) = (__typeof__(*(ptr)))0;					\
	kshim_user_access("get_user");					\
	0;								\
})
#define __put_user(x, ptr)						\
({									\
	(void)(x);							\
	(void)(ptr);							\
	kshim_user_access("put_user");					\
	0;								\
})
#define get_user(x, ptr)	__get_user(x, ptr)
#define put_user(x, ptr)	__put_user(x, ptr)

unsigned long raw_copy_from_user(void *to, const void __user *from,
				 unsigned long n);
unsigned long raw_copy_to_user(void __user *to, const void *from,
			       unsigned long n);
#define INLINE_COPY_FROM_USER
#define INLINE_COPY_TO_USER

unsigned long clear_user(void __user *to, unsigned long n);
#define __clear_user clear_user
long strncpy_from_user(char *dst, const char __user *src, long count);
long strnlen_user(const char __user *src, long n);

#endif
