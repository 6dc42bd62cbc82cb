/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_LOAD_ERROR_H
#define RDMASCN_LOAD_ERROR_H

#include <stdarg.h>

#include <cyaml/cyaml.h>

#include "model.h"

/*
 * libcyaml 1.3.1 reports an error as log lines: the message, then a
 * backtrace of "in mapping field 'k' (line: L, column: C)" frames,
 * innermost first.  We keep them and turn them into one located line,
 * using the DOM for what the backtrace does not say precisely (where an
 * unknown key is, which object it is, the field's path).
 */
#define RS_LOAD_FRAMES 32

struct rs_load_frame {
	char key[64];          /* mapping field, or "" */
	bool entry;            /* a sequence entry */
	unsigned line, col;
};

struct rs_load_log {
	char msg[512];
	struct rs_load_frame frames[RS_LOAD_FRAMES];
	unsigned n;
};

/* What is at byte @off of the file: the object (a section entry or a
 * step, named as the loader names it) and the field path below it. */
#define RS_WHERE_DEPTH 128

struct rs_where {
	struct rs_node *ch[RS_WHERE_DEPTH]; /* root .. innermost node */
	unsigned n;
	struct rs_node *obj;                /* its mapping, or NULL */
	unsigned obj_at;                    /* index of obj's body in ch */
	const struct rdmascn_kind *kind;
	char who[160];                      /* "qp 'a': ", or "" */
	char path[256];                     /* "cap.max_send_wr", or "" */
	char unknown_step[1024];            /* set when -EINVAL */
	struct rs_loc unknown_step_loc;
};

int rs_where_at(struct rs_node *root, size_t off, struct rs_where *w);

/* Every integer field's scalar is decimal or 0x hex (int_scalars.c):
 * before libcyaml, which reads `2abc` as 2. */
int rs_int_scalars_check(const struct rs_scenario *s, struct rs_diag *d);

void rs_load_log_fn(cyaml_log_t level, void *ctx, const char *fmt,
		    va_list args);
void rs_load_error_report(const struct rs_scenario *s,
			  const struct rs_load_log *log, const char *fallback,
			  struct rs_diag *d);

#endif
