/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_CMD_RUN_H
#define RDMASCN_CMD_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "cmd_scenario.h"
#include "deviations.h"
#include "nodes.h"
#include "report.h"
#include "run_scenario.h"

/* rdmascn run's options. */
struct run_opts {
	struct scn_opts scn;
	bool dry_run;
	bool check_leaks;
	const char *device;
	const char *json;
	const char *junit;
	const char *samples;
	const char *graph_out;   /* --graph-out FILE */
	bool counters_off;       /* --counters=off */
	bool counters_all;       /* --counters=all */
	FILE *samples_f;         /* --samples, open for the whole run, its
				  * header written: every cell adds to it */
	unsigned jobs;           /* --jobs: cells at once, in processes */
	char **matrix;           /* --matrix NAME=V1,V2: into argv */
	unsigned n_matrix;
	const char *deviations_file;
	struct rs_deviations deviations; /* --deviations FILE's */
	bool strict;             /* apply no deviation */
	const char *color;       /* --color: auto, always, never */
	struct rs_text_opts text; /* -q, --color, a terminal */
	FILE *out;               /* what users read: stdout, unless --json
				  * or --junit write there */
	FILE *err;               /* the text report's errors: stderr */
	const char *node;        /* --node NAME */
	const char *rendezvous;  /* --rendezvous HOST:PORT */
	struct rs_role role;     /* the node this process plays */
	const char *key_file;    /* --key-file FILE */
	/* Where the nodes meet, with which key, --insecure. */
	struct rs_nodes_conf meet;
};

/* Whether an output option names stdout ("-"). */
bool rs_run_to_stdout(const char *path);
/* Whether anything will read the objects' facts in a run of @s as @o
 * asks (@results: --json or --junit): a real run describes its objects
 * only then. */
bool rs_run_facts_read(const struct run_opts *o,
		       const struct rs_scenario *s, bool results);
/* One run of @s (one cell of a matrix, or none; run_one.c): build,
 * steps, teardown, its record to the reporters @o chooses and @res; the
 * exit code. */
int rs_run_one(const struct rs_cmd *cmd, struct rs_scenario *s,
	       const char *file, const struct run_opts *o,
	       const struct rs_cell *cell, struct rs_results *res);
/* A cell of @s's matrix that did not load, in @res: a record of @s's
 * head with the cell's values, no objects or steps, @errors ({file,
 * line, col, message}, as rs_scn_load_cell() lists them), verdict
 * invalid; RS_EXIT_INVALID (3 when out of memory). */
int rs_run_invalid(const struct rs_cmd *cmd, const struct rs_scenario *s,
		   const char *file, const struct run_opts *o,
		   const struct rs_cell *cell, const struct rs_val *errors,
		   struct rs_results *res);
/* Cell @cell of @s, loaded again with @sets (rs_scn_load_cell(), its
 * errors appended to @errors) and run with rs_run_one(), or, when it
 * does not load, recorded by rs_run_invalid(); the exit code. */
int rs_run_cell(const struct rs_cmd *cmd, const struct rs_scenario *s,
		const char *file, const struct rs_set *sets, unsigned n_sets,
		const struct run_opts *o, const struct rs_cell *cell,
		struct rs_val *errors, struct rs_results *res);
/* Every cell of @s's matrix, each a full build-up, steps and teardown,
 * --jobs of them at once; a table of the cells on @out at the end; the
 * worst exit code. */
int rs_run_matrix(const struct rs_cmd *cmd, struct rs_scenario *s,
		  const char *file, const struct run_opts *o,
		  struct rs_results *res, FILE *out);

#endif
