// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sanitizer/asan_interface.h>

#include "alloc.h"

/* -1: RDMASCN_FAIL_ALLOC not read yet.  Atomic: the steps of a parallel
 * step allocate from threads of their own. */
static atomic_long fail_at = -1;
static atomic_long count;

static long fail_point(void)
{
	long n = atomic_load_explicit(&fail_at, memory_order_acquire);

	if (n < 0) {
		const char *e = getenv("RDMASCN_FAIL_ALLOC");
		long want = e ? strtol(e, NULL, 10) : 0;

		/* Whoever comes first sets it; all read the same value. */
		atomic_compare_exchange_strong(&fail_at, &n,
					       want > 0 ? want : 0);
		n = atomic_load_explicit(&fail_at, memory_order_acquire);
	}
	return n;
}

static bool should_fail(void)
{
	long n = fail_point();
	long c = atomic_fetch_add_explicit(&count, 1, memory_order_relaxed) + 1;

	return n > 0 && c == n;
}

void rs_alloc_fail_at(long n)
{
	atomic_store_explicit(&count, 0, memory_order_relaxed);
	atomic_store_explicit(&fail_at, n > 0 ? n : 0, memory_order_release);
}

long rs_alloc_count(void)
{
	return atomic_load_explicit(&count, memory_order_relaxed);
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

void *rs_grow(void *arr, unsigned n, unsigned *cap, size_t size)
{
	void *p;

	if (n < *cap)
		return arr;
	p = rs_reallocarray(arr, *cap ? 2 * *cap : 16, size);
	if (p)
		*cap = *cap ? 2 * *cap : 16;
	return p;
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

/*
 * One block of a huge page, freed, is kept for the next one asked for:
 * a matrix or explore parses a document a cell.  Under AddressSanitizer
 * each aligned 2 MiB block is a fresh mapping of 4 MiB whose shadow is
 * poisoned a page fault at a time, and freed so: about 5 ms a document
 * (the sanitized allocation-failure tests parse 30,000).  Kept poisoned,
 * so that a use after free is still seen, and with what was written in
 * it cleared, so that no stale pointer in it hides a leak from
 * LeakSanitizer.
 */
static _Atomic(void *) spare_huge;

void *rs_malloc_huge(size_t size)
{
	void *p;

	if (should_fail()) {
		errno = ENOMEM;
		return NULL;
	}
	size = size ? (size + RS_HUGE_PAGE - 1) & ~(RS_HUGE_PAGE - 1) :
	       RS_HUGE_PAGE;
	if (size == RS_HUGE_PAGE) {
		p = atomic_exchange(&spare_huge, NULL);
		if (p) {
			ASAN_UNPOISON_MEMORY_REGION(p, size);
			return p;
		}
	}
	p = aligned_alloc(RS_HUGE_PAGE, size);
	if (p)
		(void)madvise(p, size, MADV_HUGEPAGE); /* EINVAL without THP */
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

void rs_free_huge(void *p, size_t used)
{
	void *none = NULL;

	if (!p)
		return;
	memset(p, 0, used);
	ASAN_POISON_MEMORY_REGION(p, RS_HUGE_PAGE);
	if (!atomic_compare_exchange_strong(&spare_huge, &none, p)) {
		ASAN_UNPOISON_MEMORY_REGION(p, RS_HUGE_PAGE);
		free(p);
	}
}
