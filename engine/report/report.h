/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_REPORT_H
#define RDMASCN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "record.h"

/* How the text reporter prints beyond plain lines. */
struct rs_text_opts {
	bool quiet;     /* on @out the verdict line only (-q) */
	bool color;     /* outcomes in colour (ANSI) */
	bool progress;  /* a line redrawn in place while objects are
			 * created and while a step runs (a terminal) */
	bool counters_all; /* every counter that moved, not only the error
			    * ones, per-QP counters, why none were bound
			    * (--counters=all, -v) */
};

/* @o for output on @out: @color is "auto", "always" or "never" (NULL:
 * auto).  Auto is colour when @out is a terminal, TERM is not "dumb"
 * and NO_COLOR is unset or empty (https://no-color.org); the progress
 * line wants a terminal that is not dumb, and no -q.  -EINVAL for
 * another @color word. */
int rs_text_opts_init(struct rs_text_opts *o, FILE *out, const char *color,
		      bool quiet);

/* A stream onto @f that starts each line with @prefix ("[b] ", a node
 * under a launcher) and passes each line on as it ends; fclose() it
 * before @f, which it leaves open.  NULL when out of memory. */
FILE *rs_text_prefixed(FILE *f, const char *prefix);

/* What users read as the run goes, on @out; errors, and the calls of a
 * run with -v, on @err.  @o NULL: plain lines, every one.  NULL when out
 * of memory. */
struct rs_reporter *rs_report_text(FILE *out, FILE *err,
				   const struct rs_text_opts *o);
/* @outcome ("passed", "failed", ...) on @f, in its colour if @o wants. */
void rs_text_outcome(FILE *f, const struct rs_text_opts *o,
		     const char *outcome);

/*
 * Feed the run record @rec (as --json wrote it) to @r as the run fed it:
 * its head, then its entries list by list in the order of the phases
 * (objects; events, steps; teardown; leaks, warnings, errors), then its
 * end, whose result it returns.  The verbs calls are not told again: the
 * record keeps them in one list, apart from the phase each was made in.
 * @r stays the caller's.
 */
int rs_record_replay(const struct rs_val *rec, struct rs_reporter *r);

/* A leaked resource of the record's leaks entry (rs_leak_put()) as a
 * line: "rxe0 qp qpn 17 type RC pdn 3 (pid 123)" into @buf; returns the
 * length it needs, as snprintf() does. */
int rs_leak_text(const struct rs_val *leak, char *buf, size_t size);

/* rdmascn devices as text: what rs_devices_describe() returned (or a
 * recorded `devices -j`), a summary of each device, and with @all every
 * attribute below it, grouped as the verbs' structs are. */
void rs_devices_text(FILE *f, const struct rs_val *devices, bool all);

struct rs_scenario;

/* --graph-out @path: when the record ends, @s's graph with each object
 * and step in its outcome's colour, in the format @path's extension
 * names (rs_graph_format_of()); a matrix cell's into @path with ".CELL"
 * before the extension.  Its end returns -errno, said on stderr, when
 * the graph could not be written.  NULL when out of memory or @path has
 * no graph extension. */
struct rs_reporter *rs_report_graph(const struct rs_scenario *s,
				    const char *path);

/*
 * The files one invocation writes, over every cell it runs (a scenario
 * without a matrix is one cell): the JSON document (--json) and the
 * JUnit XML (--junit).  Each cell's record gets a reporter from
 * rs_results_cell(), which keeps the record and the cell's human report
 * when the record ends; rs_results_write() writes the files.
 */
struct rs_results;

/* @json, @junit: paths, "-" for stdout, NULL for none. */
struct rs_results *rs_results_new(const char *json, const char *junit);
/* A reporter for the next cell's record.  NULL when out of memory. */
struct rs_reporter *rs_results_cell(struct rs_results *res);
/* A cell run elsewhere (a process of its own): its record (owned from
 * here on) and human report (malloc()ed, owned too).  0 or -ENOMEM. */
int rs_results_add(struct rs_results *res, struct rs_val *record,
		   char *human);
/* The matrix the cells came from (rs_val_put_* into it), or NULL: the
 * document is then the one cell's record. */
struct rs_val *rs_results_matrix(struct rs_results *res);
/* Write the files: 0, or -errno of the first that could not be written
 * (named on stderr). */
int rs_results_write(struct rs_results *res, int exit_code);
void rs_results_free(struct rs_results *res);

/* The cells' records and human reports, for the writers. */
struct rs_cell_result {
	struct rs_val *record;   /* freed with the results */
	char *human;           /* what the text reporter printed */
};

/* JUnit XML of @n cells to @f, with libxml2's xmlTextWriter: 0, or
 * -EIO when the writer failed (the stream's own errors are its
 * owner's to find: outfile.c). */
int rs_junit_write(FILE *f, const struct rs_cell_result *cells, size_t n);

#endif
