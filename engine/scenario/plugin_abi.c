// SPDX-License-Identifier: MIT
/*
 * The ABI a plugin file was built for, read from its dynamic symbols
 * before it is loaded: the registration function it calls is named with
 * that ABI (rdmascn/plugin.h), so a plugin of another ABI is refused
 * with both numbers named and without running its constructor, instead
 * of dlopen()'s "undefined symbol" for whichever of its symbols the
 * loader happened to try first.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin.h"

#define REGISTER_PREFIX "rdmascn_register_plugin_v"

/* "rdmascn_register_plugin_v7" and nothing after: 7. */
static bool abi_of(const char *name, size_t room, unsigned *ret_abi)
{
	size_t plen = strlen(REGISTER_PREFIX);
	unsigned long v;
	char *end;

	if (room <= plen || strncmp(name, REGISTER_PREFIX, plen) ||
	    !memchr(name, '\0', room) || name[plen] < '0' || name[plen] > '9')
		return false;
	v = strtoul(name + plen, &end, 10);
	if (*end || v > UINT_MAX)
		return false;
	*ret_abi = (unsigned)v;
	return true;
}

/* The mapped file @f of @size bytes: its .dynsym, searched. */
static int scan(const unsigned char *f, size_t size, unsigned *ret_abi)
{
	const ElfW(Ehdr) *eh = (const void *)f;
	const ElfW(Shdr) *sh;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 :
							    ELFCLASS32) ||
	    eh->e_shentsize != sizeof(*sh) || eh->e_shoff > size ||
	    (size - eh->e_shoff) / sizeof(*sh) < eh->e_shnum)
		return -ENOEXEC;
	sh = (const void *)(f + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const ElfW(Shdr) *str;
		const ElfW(Sym) *sym;
		size_t n;

		if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum)
			continue;
		str = &sh[sh[i].sh_link];
		if (sh[i].sh_offset > size ||
		    sh[i].sh_size > size - sh[i].sh_offset ||
		    str->sh_offset > size ||
		    str->sh_size > size - str->sh_offset)
			return -ENOEXEC;
		sym = (const void *)(f + sh[i].sh_offset);
		n = sh[i].sh_size / sizeof(*sym);
		for (size_t k = 0; k < n; k++) {
			/* Called, not defined: rdmascn defines its own. */
			if (sym[k].st_shndx != SHN_UNDEF ||
			    sym[k].st_name >= str->sh_size)
				continue;
			if (abi_of((const char *)f + str->sh_offset +
				   sym[k].st_name,
				   str->sh_size - sym[k].st_name, ret_abi))
				return 0;
		}
	}
	return -ENOENT;
}

int rs_plugin_file_abi(const char *path, unsigned *ret_abi)
{
	struct stat st;
	void *map;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (st.st_size <= 0) {
		close(fd);
		return -ENOEXEC;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	r = scan(map, (size_t)st.st_size, ret_abi);
	munmap(map, (size_t)st.st_size);
	return r;
}
