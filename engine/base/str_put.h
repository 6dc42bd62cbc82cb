/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_STR_PUT_H
#define RDMASCN_STR_PUT_H

#include <string.h>

/*
 * @s after @used bytes of @buf (@len bytes in all, @used < @len), cut
 * where it would not fit as snprintf() cuts, NUL-terminated; returns
 * the new @used.  Copied, not formatted: for text a real run makes per
 * object (facts, peer descriptions), where a snprintf("%s") each cost
 * more than the rest.  Reads at most what fits of @s, so a fixed-size
 * field without a NUL (a device's fw_ver) is safe.
 */
static inline size_t rs_str_put(char *buf, size_t len, size_t used,
				const char *s)
{
	size_t n = strnlen(s, len - used - 1);

	memcpy(buf + used, s, n);
	buf[used + n] = '\0';
	return used + n;
}

#endif
