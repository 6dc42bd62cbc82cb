/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_ALLOC_H
#define RDMASCN_ALLOC_H

#include <stddef.h>

/*
 * Every allocation of the engine goes through here, so a test can make
 * the Nth one fail (RDMASCN_FAIL_ALLOC=N) and check that nothing crashes
 * or leaks.
 */
void *rs_malloc(size_t size);
void *rs_calloc(size_t n, size_t size);
void *rs_reallocarray(void *p, size_t n, size_t size);
char *rs_strdup(const char *s);
char *rs_strndup(const char *s, size_t n);
/* Zeroed, on an @align boundary (a power of two; at least a pointer),
 * for data two threads write side by side; freed with rs_free(). */
void *rs_calloc_aligned(size_t align, size_t size);
void rs_free(void *p);

#endif
