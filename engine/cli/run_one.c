// SPDX-License-Identifier: MIT
/*
 * One cell of rdmascn run (the scenario, or a cell of its matrix): its
 * options said to the engine's run (run/run_scenario.h) with the
 * reporters they choose.  Both the verb and the matrix call these.
 */
#include <errno.h>

#include "cli.h"
#include "cmd_run.h"
#include "exit.h"
#include "macros.h"

bool rs_run_facts_read(const struct run_opts *o,
		       const struct rs_scenario *s, bool results)
{
	/* The text report prints an object's facts when it is made (not
	 * with -q), -v adds the calls, the --json and --junit files
	 * (results) and the graph write them, and the other nodes' and
	 * --jobs' processes send their records on. */
	return !o->text.quiet || rs_verbose || results || o->graph_out ||
	       o->jobs > 1 || rs_nodes_count(s) > 1;
}

static void conf_of(const struct run_opts *o, const char *file,
		    const struct rs_cell *cell, struct rs_run_conf *c)
{
	*c = (struct rs_run_conf){
		.file = file,
		.cell = cell,
		.dry_run = o->dry_run,
		.verbose = rs_verbose,
		.check_leaks = o->check_leaks,
		.strict = o->strict,
		.deviations = &o->deviations,
		.device = o->device,
		.samples = o->samples_f,
		.err = o->err,
		.progress = o->text.progress,
		.counters_off = o->counters_off,
		.role = o->role,
		.meet = o->meet,
	};
}

int rs_run_one(const struct rs_cmd *cmd, struct rs_scenario *s,
	       const char *file, const struct run_opts *o,
	       const struct rs_cell *cell, struct rs_results *res)
{
	/* What users read, the --json and --junit files' share, the
	 * graph: in this order, as they see the record. */
	struct rs_reporter *r[3];
	struct rs_run_conf c;
	unsigned n = 0;
	int ret;

	r[n++] = rs_report_text(o->out, o->err, &o->text);
	if (res)
		r[n++] = rs_results_cell(res);
	if (o->graph_out)
		r[n++] = rs_report_graph(s, o->graph_out);
	conf_of(o, file, cell, &c);
	c.facts_unread = !rs_run_facts_read(o, s, res);
	ret = rs_run_scenario(s, &c, r, n);
	return ret == -ENOMEM ? rs_cmd_no_memory(cmd) : ret;
}

int rs_run_invalid(const struct rs_cmd *cmd, const struct rs_scenario *s,
		   const char *file, const struct run_opts *o,
		   const struct rs_cell *cell, const struct rs_val *errors,
		   struct rs_results *res)
{
	struct rs_reporter *r[1];
	struct rs_run_conf c;
	int ret;

	if (!res)
		return RS_EXIT_INVALID;
	r[0] = rs_results_cell(res);
	conf_of(o, file, cell, &c);
	ret = rs_run_invalid_cell(s, &c, errors, r, RS_N(r));
	return ret == -ENOMEM ? rs_cmd_no_memory(cmd) : ret;
}

int rs_run_cell(const struct rs_cmd *cmd, const struct rs_scenario *s,
		const char *file, const struct rs_set *sets, unsigned n_sets,
		const struct run_opts *o, const struct rs_cell *cell,
		struct rs_val *errors, struct rs_results *res)
{
	struct rs_scenario *cs = NULL;
	int ret;

	ret = rs_scn_load_cell(s, sets, n_sets, cell->name, errors, &cs);
	if (ret == RS_EXIT_PASSED)
		ret = rs_run_one(cmd, cs, file, o, cell, res);
	else if (ret == RS_EXIT_INVALID)
		ret = rs_run_invalid(cmd, s, file, o, cell, errors, res);
	rs_scenario_free(cs);
	return ret;
}
