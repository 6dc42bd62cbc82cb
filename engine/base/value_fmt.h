/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_VALUE_FMT_H
#define RDMASCN_VALUE_FMT_H

#include <stdarg.h>
#include <stddef.h>

/*
 * vsnprintf(@buf, @len, @fmt, @ap), the same bytes and the same return,
 * with %s, %c, %d, %i, %u, %x, %X and %% (no flags, width or precision;
 * hh, h, l, ll, z, j or t before an integer) done here and anything else
 * handed to vsnprintf() whole.  A dry run formats every argument of
 * every call (exec/call.c's rs_call_arg(), 53k at n=1000): glibc's
 * vsnprintf() was ~840 instructions each, most of it setting up a FILE
 * for a few bytes.
 */
int rs_vfmt(char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
