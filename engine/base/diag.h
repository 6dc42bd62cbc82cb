/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_DIAG_H
#define RDMASCN_DIAG_H

#include <stdio.h>

/* A place in a scenario file, for messages. */
struct rs_loc {
	const char *file;
	unsigned line, col;
};

/*
 * Diagnostics about a scenario: one line each, "FILE:LINE:COL: kind 'id':
 * text".  The first error decides the exit code; all of them are printed
 * as they come to @f (or collected only, when @f is NULL, for tests), and
 * handed to @sink when one is set.
 */
/* Past this many errors a file is not worth reading on. */
#define RS_MAX_ERRORS 20

struct rs_diag {
	FILE *f;
	unsigned errors;
	char first[2048];
	/* Where a run keeps its errors (its record), besides @f. */
	void (*sink)(void *ctx, const struct rs_loc *loc, const char *msg);
	void *sink_ctx;
};

void rs_diag_init(struct rs_diag *d, FILE *f);
void rs_diag_error(struct rs_diag *d, const struct rs_loc *loc,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
