/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_DIAG_H
#define RDMASCN_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
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
	/* Warnings: what the device accepts but the file should not ask
	 * (a length above max_msg_sz); they change no exit code. */
	unsigned warnings;
	void (*warn_sink)(void *ctx, const struct rs_loc *loc, const char *msg);
};

void rs_diag_init(struct rs_diag *d, FILE *f);
void rs_diag_error(struct rs_diag *d, const struct rs_loc *loc,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* strerror(@err), but EMFILE names the limit: "too many open files
 * (RLIMIT_NOFILE soft 1024, hard 4096)".  Into @buf; returns it. */
const char *rs_errno_text(int err, char *buf, size_t len);
/* "FILE:LINE:COL: warning: text" to @f, and to @warn_sink (with
 * @sink_ctx) when one is set. */
void rs_diag_warning(struct rs_diag *d, const struct rs_loc *loc,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * An error (with @warning, a warning) about a named thing (an object, a
 * step) and one of its fields, at @loc: "NAME: FIELD: text", NAME and
 * FIELD left out when NULL or empty, the text from @fmt and @ap.  The
 * text alone goes to @ret_msg (@len bytes) too when it is not NULL, for
 * a caller that keeps it.  The one formatting of the engine's located
 * messages (rs_obj_error(), rs_live_error(), rs_step_fail(), ...).
 */
void rs_diag_vnamed(struct rs_diag *d, bool warning, const struct rs_loc *loc,
		    const char *name, const char *field, char *ret_msg,
		    size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 8, 0)));

#endif
