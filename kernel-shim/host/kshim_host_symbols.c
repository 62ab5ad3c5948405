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
#include <unistd.h>
#include <kshim/host.h>

struct sym {
	unsigned long addr, size;	/* addr: offset from the load base */
	unsigned long name;		/* offset in names */
};

/*
 * The string table, kept for the rest of the run. Symbols hold offsets
 * into it, not pointers: with only pointers inside it, valgrind calls it
 * "possibly lost".
 */
static char *names;
static struct sym *syms;
static size_t nr_syms;
static unsigned long load_base;
static pthread_once_t syms_once = PTHREAD_ONCE_INIT;

static int by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* LEN bytes at OFF of FD into new memory, or NULL. */
static void *read_at(int fd, unsigned long off, unsigned long len)
{
	char *p = malloc(len ? len : 1);

	if (p && pread(fd, p, len, off) != (ssize_t)len) {
		free(p);
		return NULL;
	}
	return p;
}

/*
 * The executable's function symbols; none if it cannot be read. Read, not
 * mapped: a mapping can land where a det fiber's stack was, whose ASan
 * shadow still marks it as stack.
 */
static void load_symbols(void)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;
	Elf64_Sym *s = NULL;
	char *strtab = NULL;
	Dl_info self;
	size_t n = 0, j;
	int fd, i;

	if (!dladdr((void *)load_symbols, &self))
		return;
	load_base = (unsigned long)self.dli_fbase;
	fd = open(kshim_host_exe_path(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	sh = read_at(fd, eh.e_shoff, (unsigned long)eh.e_shnum * sizeof(*sh));
	for (i = 0; sh && i < eh.e_shnum; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh.e_shnum)
			continue;
		n = sh[i].sh_size / sizeof(*s);
		s = read_at(fd, sh[i].sh_offset, n * sizeof(*s));
		strtab = read_at(fd, sh[sh[i].sh_link].sh_offset,
				 sh[sh[i].sh_link].sh_size);
		break;
	}
	if (!s || !strtab || !(syms = calloc(n ? n : 1, sizeof(*syms))))
		goto out;
	for (j = 0; j < n; j++) {
		if (ELF64_ST_TYPE(s[j].st_info) != STT_FUNC ||
		    s[j].st_shndx == SHN_UNDEF || !s[j].st_value ||
		    s[j].st_name >= sh[sh[i].sh_link].sh_size)
			continue;
		syms[nr_syms++] = (struct sym){
			s[j].st_value, s[j].st_size, s[j].st_name };
	}
	qsort(syms, nr_syms, sizeof(*syms), by_addr);
	names = strtab;
	strtab = NULL;
out:
	free(strtab);
	free(s);
	free(sh);
	close(fd);
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
		return snprintf(out, size, "%s+0x%lx/0x%lx", names + s->name,
				a - load_base - s->addr, s->size);
	if (s)
		return snprintf(out, size, "%s", names + s->name);
	if (dladdr(addr, &info) && info.dli_sname) {
		if (with_offset)
			return snprintf(out, size, "%s+0x%lx", info.dli_sname,
					a - (unsigned long)info.dli_saddr);
		return snprintf(out, size, "%s", info.dli_sname);
	}
	return -1;
}
