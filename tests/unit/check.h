/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_TEST_CHECK_H
#define RDMASCN_TEST_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Checks that stop the test at the first failure, with the place, the
 * expression and, for comparisons, both values:
 *
 *	test_idmap.c:37: rs_idmap_get(&m, "pd") == 2 failed
 *	  got  3
 *	  want 2
 *
 * The first argument is what the code gave, the second what it should.
 * A test runs in a process of its own (runner.c), so stopping it stops
 * nothing else.
 */
#define CHECK(cond)                                                       \
	do {                                                              \
		if (!(cond))                                              \
			rs_check_fail(__FILE__, __LINE__, #cond);         \
	} while (0)

/* Signed integers; a small negative one is also named as an errno. */
#define CHECK_INT(got, want)                                              \
	do {                                                              \
		if (!rs_check_int(__FILE__, __LINE__, #got, #want, (got), \
				  (want)))                                \
			rs_check_stop();                                  \
	} while (0)

/* Unsigned integers, in decimal and hex. */
#define CHECK_UINT(got, want)                                             \
	do {                                                              \
		if (!rs_check_uint(__FILE__, __LINE__, #got, #want,       \
				   (got), (want)))                        \
			rs_check_stop();                                  \
	} while (0)

/* Strings; NULL is a value that equals nothing. */
#define CHECK_STR(got, want)                                              \
	do {                                                              \
		if (!rs_check_str(__FILE__, __LINE__, #got, #want, (got), \
				  (want)))                                \
			rs_check_stop();                                  \
	} while (0)

/* @len bytes; the first difference and both sides in hex. */
#define CHECK_MEM(got, want, len)                                         \
	do {                                                              \
		if (!rs_check_mem(__FILE__, __LINE__, #got, #want, (got), \
				  (want), (len)))                         \
			rs_check_stop();                                  \
	} while (0)

#define CHECK_PTR(got, want)                                              \
	do {                                                              \
		if (!rs_check_ptr(__FILE__, __LINE__, #got, #want, (got), \
				  (want)))                                \
			rs_check_stop();                                  \
	} while (0)

/* The test cannot run here (exit 77: CTest's skip code). */
#define SKIP(why) rs_check_skip(why)

/* The checks' bodies (check.c).  Each prints its failure and returns
 * false; the macros then stop the test. */
void rs_check_fail(const char *file, int line, const char *cond)
	__attribute__((noreturn));
void rs_check_stop(void) __attribute__((noreturn));
void rs_check_skip(const char *why) __attribute__((noreturn));
bool rs_check_int(const char *file, int line, const char *got_text,
		  const char *want_text, long long got, long long want);
bool rs_check_uint(const char *file, int line, const char *got_text,
		   const char *want_text, unsigned long long got,
		   unsigned long long want);
bool rs_check_str(const char *file, int line, const char *got_text,
		  const char *want_text, const char *got, const char *want);
bool rs_check_mem(const char *file, int line, const char *got_text,
		  const char *want_text, const void *got, const void *want,
		  size_t len);
bool rs_check_ptr(const char *file, int line, const char *got_text,
		  const char *want_text, const void *got, const void *want);
/* @n bytes in hex, 16 a line, after @what; for checks of their own. */
void rs_check_dump(const char *what, const void *p, size_t n);

#endif
