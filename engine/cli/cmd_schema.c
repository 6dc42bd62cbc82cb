// SPDX-License-Identifier: MIT
/* The commands that describe the language or a scenario: schema, graph. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "alloc.h"
#include "cli.h"
#include "cmd_scenario.h"
#include "graph_file.h"
#include "jsonschema.h"
#include "outfile.h"
#include "model.h"
#include "value.h"

int rs_cmd_schema(const struct rs_cmd *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "figures", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	bool figures = false;
	struct rs_val *v;
	int c, r;

	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			figures = true;
			break;
		case 'h':
			rs_cmd_usage(cmd, stdout);
			return RS_EXIT_PASSED;
		default:
			return rs_cmd_bad_option(cmd, argv, c);
		}
	}
	if (optind < argc)
		return rs_cmd_usage_error(cmd, "Unexpected argument '%s'.",
					  argv[optind]);
	rs_cli_registry_init();
	v = figures ? rs_figures_jsonschema() : rs_jsonschema();
	if (!v) {
		fputs("rdmascn: out of memory\n", stderr);
		return RS_EXIT_CANTRUN;
	}
	r = rs_val_write_json(stdout, v, true);
	rs_val_free(v);
	if (r < 0) {
		fprintf(stderr, "rdmascn: writing the schema: %s\n",
			r == -ENOMEM ? "out of memory" : "write error");
		return RS_EXIT_CANTRUN;
	}
	return RS_EXIT_PASSED;
}

/* Where and how graph draws. */
struct graph_opts {
	const char *out;       /* -o FILE; NULL: stdout */
	int fmt;               /* --format's; -1: none given */
};

static int graph_take(const struct rs_cmd *cmd, int c, char *arg, void *ctx)
{
	struct graph_opts *g = ctx;

	if (c == 'o') {
		g->out = arg;
		return -1;
	}
	g->fmt = rs_graph_format_by_name(arg);
	if (g->fmt < 0)
		return rs_cmd_usage_error(cmd, "Unknown format '%s' (dot, svg "
					  "or png).", arg);
	return -1;
}

int rs_cmd_graph(const struct rs_cmd *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct graph_opts g = { .fmt = -1 };
	const struct scn_more more = { longopts, ":s:f:o:h", graph_take, &g };
	struct scn_opts o = { 0 };
	struct rs_scenario *s = NULL;
	char what[4200];
	int ret = rs_scn_load_one(cmd, argc, argv, &o, &more, &s);

	if (ret >= 0)
		goto out;
	/* --format, else -o FILE's extension when it names one, else DOT. */
	if (g.fmt < 0 && g.out)
		g.fmt = rs_graph_format_of(g.out);
	if (g.fmt < 0)
		g.fmt = RS_GRAPH_DOT;
	if (g.out && rs_out_same(g.out, argv[optind])) {
		ret = rs_cmd_usage_error(cmd, "-o %s is the scenario file "
					 "itself.", g.out);
		goto out;
	}
	if (g.out)
		snprintf(what, sizeof(what), "graph -o %s", g.out);
	else
		snprintf(what, sizeof(what), "%s", argv[optind]);
	ret = rs_graph_write(g.out, g.fmt, what, s, NULL) ?
	      RS_EXIT_CANTRUN : RS_EXIT_PASSED;
out:
	rs_scenario_free(s);
	rs_free(o.sets);
	return ret;
}
