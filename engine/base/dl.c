// SPDX-License-Identifier: MIT
/* A library's functions into a table, on first use (dl.h). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "dl.h"

int rs_dl_load(const char *soname, const struct rs_dl_sym *syms, size_t n,
	       void *table, char *why, size_t whylen)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(why, whylen, "%s", dlerror());
		return -ELIBACC;
	}
	for (size_t i = 0; i < n; i++) {
		void *f = dlsym(h, syms[i].name);

		if (!f) {
			snprintf(why, whylen, "%s: no %s", soname,
				 syms[i].name);
			return -ELIBACC;
		}
		*(void **)((char *)table + syms[i].off) = f;
	}
	return 0;
}
