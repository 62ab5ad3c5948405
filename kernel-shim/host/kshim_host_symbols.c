// SPDX-License-Identifier: GPL-2.0
/*
 * Code addresses as the kernel's kallsyms names them, for printk's %pS
 * and %ps ("xfs_dinode_verify+0x1a3/0x5c0"): XFS prints the failing check
 * of a verifier, the caller of a shutdown, a timer's function that way.
 *
 * The executable's own symbol table (.symtab, which every kshim build
 * keeps: it is not stripped), read once from /proc/self/exe and sorted;
 * then each lookup is a binary search, no process started (backtraces use
 * addr2line for file and line; a printk may come in any number). Addresses
 * in a shared library are named by dladdr(), as far as it can.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <kshim/host.h>

struct sym {
	unsigned long addr, size;	/* addr: offset from the load base */
	const char *name;		/* in the mapped file */
};

static struct sym *syms;
static size_t nr_syms;
static unsigned long load_base;
static pthread_once_t syms_once = PTHREAD_ONCE_INIT;

static int by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The executable's function symbols; none if it cannot be read. */
static void load_symbols(void)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	struct stat st;
	Dl_info self;
	void *map;
	int fd, i;

	if (!dladdr((void *)load_symbols, &self))
		return;
	load_base = (unsigned long)self.dli_fbase;
	fd = open(kshim_host_exe_path(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	map = fstat(fd, &st) ? MAP_FAILED :
	      mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	/* Mapped for the rest of the run: the names point into it. */
	eh = map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return;
	sh = (const Elf64_Shdr *)((const char *)map + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *s = (const void *)((const char *)map +
						    sh[i].sh_offset);
		const char *strtab = (const char *)map +
				     sh[sh[i].sh_link].sh_offset;
		size_t n = sh[i].sh_size / sizeof(*s), j;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		syms = calloc(n, sizeof(*syms));
		if (!syms)
			return;
		for (j = 0; j < n; j++) {
			if (ELF64_ST_TYPE(s[j].st_info) != STT_FUNC ||
			    s[j].st_shndx == SHN_UNDEF || !s[j].st_value)
				continue;
			syms[nr_syms++] = (struct sym){
				s[j].st_value, s[j].st_size,
				strtab + s[j].st_name };
		}
		qsort(syms, nr_syms, sizeof(*syms), by_addr);
		return;
	}
}

/* The function that holds the executable offset OFF, or NULL. */
static const struct sym *find(unsigned long off)
{
	size_t lo = 0, hi = nr_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* A zero-size symbol (an assembly label) covers up to the next. */
	if (syms[lo - 1].size && off >= syms[lo - 1].addr + syms[lo - 1].size)
		return NULL;
	return &syms[lo - 1];
}

int kshim_host_symbol_name(const void *addr, int with_offset,
			   char *out, unsigned long size)
{
	unsigned long a = (unsigned long)addr;
	const struct sym *s;
	Dl_info info;

	pthread_once(&syms_once, load_symbols);
	s = a >= load_base ? find(a - load_base) : NULL;
	if (s && with_offset)
		return snprintf(out, size, "%s+0x%lx/0x%lx", s->name,
				a - load_base - s->addr, s->size);
	if (s)
		return snprintf(out, size, "%s", s->name);
	if (dladdr(addr, &info) && info.dli_sname) {
		if (with_offset)
			return snprintf(out, size, "%s+0x%lx", info.dli_sname,
					a - (unsigned long)info.dli_saddr);
		return snprintf(out, size, "%s", info.dli_sname);
	}
	return -1;
}
