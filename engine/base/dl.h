/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_DL_H
#define RDMASCN_DL_H

#include <stddef.h>

/*
 * A library loaded when a command first needs it (libxml2 for --junit,
 * libpmix for a PMIx meeting), not at every start: its functions filled
 * into a table of pointers.  The library is never closed: both keep
 * global state that a later use in the process relies on.
 */
struct rs_dl_sym {
	const char *name;
	size_t off;             /* of the pointer in the table */
};

/* dlopen(@soname) and every one of @syms into @table; 0, or -ELIBACC
 * with why in @why. */
int rs_dl_load(const char *soname, const struct rs_dl_sym *syms, size_t n,
	       void *table, char *why, size_t whylen);

#endif
