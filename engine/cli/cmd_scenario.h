/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_CMD_SCENARIO_H
#define RDMASCN_CMD_SCENARIO_H

#include "cli.h"
#include "model.h"

struct option;

/*
 * A command's options besides --set and --help (graph's), for
 * rs_scn_parse(): @longopts and @shortopts list them all, --set and
 * --help too; @take gets each of the others and returns -1 to go on, or
 * an exit code.
 */
struct scn_more {
	const struct option *longopts;
	const char *shortopts;
	int (*take)(const struct rs_cmd *cmd, int c, char *arg, void *ctx);
	void *ctx;
};

/* What the commands that read a scenario share: --set, --help. */
struct scn_opts {
	struct rs_set *sets;
	unsigned n_sets;
	/* validate, plan: loaded to be looked at (rs_scenario_look()). */
	bool look;
};

/*
 * Parse the common options; returns -1 to go on (the files are at
 * argv[optind..]), or an exit code.  --set values point into argv; free
 * o->sets with rs_free() in both cases.
 */
int rs_scn_parse(const struct rs_cmd *cmd, int argc, char **argv,
		 struct scn_opts *o, const struct scn_more *more);
/* One --set NAME=VALUE into @o (room for argc of them); false after a
 * usage error. */
bool rs_scn_add_set(const struct rs_cmd *cmd, struct scn_opts *o, char *arg);
/* Load @file with the --set values, errors on stderr; returns an exit
 * code (RS_EXIT_PASSED: *s is the scenario). */
int rs_scn_load(const char *file, struct scn_opts *o, struct rs_scenario **s);
/*
 * Load @s's file again as one cell of its matrix, with @sets (the
 * --set ones, then the cell's); its errors to stderr, each as
 * "FILE:LINE:COL: matrix cell NAME: message", and appended to @errors
 * ({file, line, col, message}) unless it is NULL.  An exit code
 * (RS_EXIT_PASSED: *@ret is the cell's scenario).
 */
int rs_scn_load_cell(const struct rs_scenario *s, const struct rs_set *sets,
		     unsigned n_sets, const char *name, struct rs_val *errors,
		     struct rs_scenario **ret);
/* Cell @i of @s's matrix: its values into @sets (n_dims of them) and
 * its name (NAME=VALUE,...) into @name; false when it is excluded. */
bool rs_scn_cell(const struct rs_scenario *s, unsigned long i,
		 struct rs_set *sets, char *name, size_t size);
/* rs_scn_parse(), exactly one file, rs_scn_load(): for plan and graph.
 * Returns -1 when *s is loaded, or an exit code (--help, errors). */
int rs_scn_load_one(const struct rs_cmd *cmd, int argc, char **argv,
		    struct scn_opts *o, const struct scn_more *more,
		    struct rs_scenario **s);

#endif
