/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/elf.h: kshim loads no executables. linux/elf.h (reached
 * from mm/util.c's randomisation helpers) needs the word size of the ELF
 * class and the uapi ELF types; x86-64's values.
 */
#ifndef _KSHIM_ASM_ELF_H
#define _KSHIM_ASM_ELF_H

#include <uapi/linux/elf.h>

#define ELF_CLASS	ELFCLASS64
#define ELF_DATA	ELFDATA2LSB
#define ELF_ARCH	EM_X86_64
#define ELF_EXEC_PAGESIZE	4096
#define ELF_HWCAP	0
#define ELF_PLATFORM	NULL
#define ELF_ET_DYN_BASE	0x555555554000UL

typedef unsigned long elf_greg_t;
#define ELF_NGREG	27
typedef elf_greg_t elf_gregset_t[ELF_NGREG];
typedef struct { unsigned char regs[512]; } elf_fpregset_t;
#endif
