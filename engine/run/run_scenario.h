/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RUN_SCENARIO_H
#define RDMASCN_RUN_SCENARIO_H

#include <stdbool.h>
#include <stdio.h>

#include "deviations.h"
#include "nodes.h"
#include "record.h"

struct rs_scenario;
struct rs_set;
struct rs_val;

/* The cell a run is, of a matrix: its name and its params' values. */
struct rs_cell {
	char name[1024];
	const struct rs_set *sets;
	unsigned n_sets;
};

/* What one run is asked to do: rdmascn run's options, parsed. */
struct rs_run_conf {
	const char *file;        /* the scenario's, as named */
	const struct rs_cell *cell; /* a matrix's cell, or NULL */
	bool dry_run;
	bool verbose;            /* -v: every call into the record */
	bool check_leaks;        /* --check-leaks */
	bool strict;             /* apply no deviation */
	const struct rs_deviations *deviations; /* --deviations FILE's, or
						 * NULL */
	const char *device;      /* --device: every context opens this one */
	FILE *samples;           /* --samples, open, its header written */
	FILE *err;               /* advice beyond the record: stderr, or a
				  * node's prefixed stream */
	bool progress;           /* a running step says where it is */
	bool counters_off;       /* --counters=off: none read */
	/* No reporter will read the objects' facts (rs_run_facts_read()):
	 * a real run does not describe them, nor read back what they
	 * describe (a connection's two ibv_query_qp()). */
	bool facts_unread;
	struct rs_role role;     /* the node this process plays */
	struct rs_nodes_conf meet; /* how it meets the others */
};

/*
 * One run of @s as @c asks, its record told to @reporters (@n of them,
 * each owned from here on, NULL ones too: out of memory): the scenario
 * built on its devices, its steps run, all taken down, and the verdict.
 * The exit code; -ENOMEM when the run could not be set up, for the
 * caller to say; RS_EXIT_INVALID when RDMASCN_FAULT is wrong (said).
 */
int rs_run_scenario(struct rs_scenario *s, const struct rs_run_conf *c,
		    struct rs_reporter **reporters, unsigned n);

/*
 * A cell of @s's matrix that did not load (@c->cell): a record of @s's
 * head with the cell's values, no objects or steps, @errors ({file,
 * line, col, message}, as rs_scn_load_cell() lists them), verdict
 * invalid, to @reporters (owned from here on).  RS_EXIT_INVALID, or
 * -ENOMEM.
 */
int rs_run_invalid_cell(const struct rs_scenario *s,
			const struct rs_run_conf *c,
			const struct rs_val *errors,
			struct rs_reporter **reporters, unsigned n);

/* After SIGINT or SIGTERM: which one ("SIGINT"), for the line that says
 * so (the text reporter's for a run, the caller's between runs). */
const char *rs_run_signal_name(void);

#endif
