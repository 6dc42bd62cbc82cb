/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_TEST_CHECK_H
#define RDMASCN_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fail loudly, with the place and the values, and stop the test. */
#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, \
				__LINE__, #cond);                          \
			exit(1);                                           \
		}                                                          \
	} while (0)

#define CHECK_STR(a, b)                                                    \
	do {                                                               \
		const char *a_ = (a), *b_ = (b);                           \
		if (!a_ || !b_ || strcmp(a_, b_)) {                        \
			fprintf(stderr, "%s:%d: %s == %s failed:\n  got  "  \
				"'%s'\n  want '%s'\n", __FILE__, __LINE__,  \
				#a, #b, a_ ? a_ : "(null)",                \
				b_ ? b_ : "(null)");                       \
			exit(1);                                           \
		}                                                          \
	} while (0)

#endif
