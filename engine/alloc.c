// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

static long fail_at = -1;
static long count;

static bool should_fail(void)
{
	if (fail_at < 0) {
		const char *e = getenv("RDMASCN_FAIL_ALLOC");

		fail_at = e ? strtol(e, NULL, 10) : 0;
	}
	return fail_at > 0 && ++count == fail_at;
}

void *rs_malloc(size_t size)
{
	if (should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	return malloc(size);
}

void *rs_calloc(size_t n, size_t size)
{
	if (should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	return calloc(n, size);
}

void *rs_reallocarray(void *p, size_t n, size_t size)
{
	if (should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	return reallocarray(p, n, size);
}

void *rs_calloc_aligned(size_t align, size_t size)
{
	void *p;

	if (should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	/* aligned_alloc() wants a non-zero multiple of the alignment. */
	size = size ? (size + align - 1) & ~(align - 1) : align;
	p = aligned_alloc(align, size);
	if (p)
		memset(p, 0, size);
	return p;
}

char *rs_strndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *d = rs_malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

char *rs_strdup(const char *s)
{
	return rs_strndup(s, (size_t)-1);
}

void rs_free(void *p)
{
	free(p);
}
