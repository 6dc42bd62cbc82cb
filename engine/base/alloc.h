/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_ALLOC_H
#define RDMASCN_ALLOC_H

#include <stddef.h>

/*
 * Every allocation of the engine goes through here, so a test can make
 * the Nth one fail (RDMASCN_FAIL_ALLOC=N, counted from the start of the
 * process, or rs_alloc_fail_at()) and check that nothing crashes or
 * leaks.  tests/unit/test_alloc.c fails each in turn.
 */
void *rs_malloc(size_t size);
void *rs_calloc(size_t n, size_t size);
void *rs_reallocarray(void *p, size_t n, size_t size);
/* @arr, room for @n + 1 elements of @size: as it is while @n is below
 * *@cap, else grown to twice (or 16) and *@cap with it; NULL when out of
 * memory (@arr as it was). */
void *rs_grow(void *arr, unsigned n, unsigned *cap, size_t size);
char *rs_strdup(const char *s);
char *rs_strndup(const char *s, size_t n);
/* Zeroed, on an @align boundary (a power of two; at least a pointer),
 * for data two threads write side by side; freed with rs_free(). */
void *rs_calloc_aligned(size_t align, size_t size);
/* For an arena that its owner fills: @size rounded up to 2 MiB, on a
 * 2 MiB boundary, the kernel asked for transparent huge pages (a hint),
 * so that filling it takes one page fault, not 512 (validating 100k
 * objects: 1.00 s, 0.78 s with them); not zeroed; freed with rs_free(). */
#define RS_HUGE_PAGE ((size_t)2 << 20)
void *rs_malloc_huge(size_t size);
void rs_free(void *p);
/* A block of rs_malloc_huge(RS_HUGE_PAGE) whose first @used bytes were
 * written: kept for the next such (one), else freed. */
void rs_free_huge(void *p, size_t used);

/* Restart the count and fail allocation @n from now on (1: the next
 * one); 0 fails none.  Overrides RDMASCN_FAIL_ALLOC. */
void rs_alloc_fail_at(long n);
/* Allocations asked for since the start or the last rs_alloc_fail_at(),
 * the failed one included: at least @n means allocation @n was made. */
long rs_alloc_count(void);

#endif
