/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/string.h: the C library's string routines stand in as the
 * "arch" versions, so lib/string.c (compiled real) builds only what libc
 * lacks (strscpy, memchr_inv, strlcat, memscan...), and memcpy() & co stay
 * the ones valgrind and the sanitizers intercept.
 */
#ifndef _KSHIM_ASM_STRING_H
#define _KSHIM_ASM_STRING_H
#define __HAVE_ARCH_BCMP
#define __HAVE_ARCH_MEMCHR
#define __HAVE_ARCH_MEMCMP
#define __HAVE_ARCH_MEMCPY
#define __HAVE_ARCH_MEMMOVE
#define __HAVE_ARCH_MEMSET
#define __HAVE_ARCH_STRCASECMP
#define __HAVE_ARCH_STRCAT
#define __HAVE_ARCH_STRCHR
#define __HAVE_ARCH_STRCHRNUL
#define __HAVE_ARCH_STRCMP
#define __HAVE_ARCH_STRCPY
#define __HAVE_ARCH_STRCSPN
#define __HAVE_ARCH_STRLEN
#define __HAVE_ARCH_STRNCASECMP
#define __HAVE_ARCH_STRNCAT
#define __HAVE_ARCH_STRNCMP
#define __HAVE_ARCH_STRNCPY
#define __HAVE_ARCH_STRNLEN
#define __HAVE_ARCH_STRPBRK
#define __HAVE_ARCH_STRRCHR
#define __HAVE_ARCH_STRSEP
#define __HAVE_ARCH_STRSPN
#define __HAVE_ARCH_STRSTR

void *memcpy(void *, const void *, __kernel_size_t);
void *memmove(void *, const void *, __kernel_size_t);
void *memset(void *, int, __kernel_size_t);
int memcmp(const void *, const void *, __kernel_size_t);
int bcmp(const void *, const void *, __kernel_size_t);
void *memchr(const void *, int, __kernel_size_t);
char *strcpy(char *, const char *);
char *strncpy(char *, const char *, __kernel_size_t);
char *strcat(char *, const char *);
char *strncat(char *, const char *, __kernel_size_t);
int strcmp(const char *, const char *);
int strncmp(const char *, const char *, __kernel_size_t);
int strcasecmp(const char *, const char *);
int strncasecmp(const char *, const char *, __kernel_size_t);
char *strchr(const char *, int);
char *strchrnul(const char *, int);
char *strrchr(const char *, int);
char *strstr(const char *, const char *);
__kernel_size_t strlen(const char *);
__kernel_size_t strnlen(const char *, __kernel_size_t);
char *strpbrk(const char *, const char *);
char *strsep(char **, const char *);
__kernel_size_t strspn(const char *, const char *);
__kernel_size_t strcspn(const char *, const char *);
#endif
