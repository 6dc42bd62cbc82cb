/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_EXPLORE_CLI_H
#define RDMASCN_EXPLORE_CLI_H

#include <limits.h>
#include <stdio.h>

#include "cmd_run.h"
#include "explore_search.h"
#include "term.h"
#include "value.h"

/* One cell the search ran, in the order it ran (cmd_explore.c). */
struct xcell {
	struct rs_xpoint p;
	char name[512];          /* NAME=VALUE,... of the axes */
	const char *phase;       /* grid, bisect, anneal, shrink, check */
	int code;                /* its exit code */
	struct rs_xresult r;     /* r.sig is sig */
	/* How it failed; on the heap, as r.sig is kept by the search
	 * while this array grows. */
	char *sig;
	struct rs_val *rec;      /* its record; NULL: none was written */
	double ms;
};

/* An explore: the scenario, what it searches, the cells run. */
struct ex {
	const struct rs_cmd *cmd;
	struct rs_scenario *s;
	const char *file;
	struct run_opts ro;      /* how each cell runs */
	struct rs_explore e;     /* the file's explore:, the options over it */
	int argc;                /* the command line, for the reproducer */
	char **argv;
	struct xcell *cells;
	unsigned n, cap;
	unsigned long limit;     /* cells this allowance may run */
	unsigned long used;      /* ... and has run */
	double budget_s, t0_ms, elapsed_s;
	const char *stopped;     /* why the search ended */
	unsigned jobs;
	char dir[PATH_MAX];      /* the cells' files */
	bool keep;               /* --out-dir: kept */
	const char *json, *graph_out, *shrink_out;
	/* The objective's figure: [STEP:]GROUP.KEY. */
	char fig_step[128], fig_group[64], fig_key[128];
	struct rs_xsearch x;
	/* Shrinking: from which cell, to what. */
	bool shrunk;
	struct rs_xpoint small;
	unsigned small_cell, shrink_from, shrink_cells;
	bool repro_written, repro_same;
	unsigned repro_cell;
	struct rs_term_line line;
	bool progress;
	FILE *out;
};

/* The value text of axis @a at point @p (a default: the param's). */
const char *rs_ex_value(const struct ex *x, const struct rs_xpoint *p,
			unsigned a, char *buf, size_t len);

/* explore_out.c: the table, the JSON document, the plot. */
void rs_ex_table(struct ex *x);
int rs_ex_json(struct ex *x, int code);
int rs_ex_graph(struct ex *x);

/* explore_repro.c: @file with each param of @names set to @values as its
 * default, under @comment (lines without '#'), to @out_path.  0, or
 * -errno with why in @why. */
int rs_ex_repro_write(const struct rs_scenario *s, const char *file,
		      const char *const *names, const char *const *values,
		      unsigned n, const char *comment, const char *out_path,
		      char *why, size_t len);

#endif
