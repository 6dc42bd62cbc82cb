// SPDX-License-Identifier: MIT
/* The commands that describe the language or a scenario: schema, graph. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include "alloc.h"
#include "cli.h"
#include "cmd_scenario.h"
#include "dot.h"
#include "jsonschema.h"
#include "model.h"
#include "value.h"

int rs_cmd_schema(const struct rs_cmd *cmd, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct rs_val *v;
	int c, r;

	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
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
	v = rs_jsonschema();
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

int rs_cmd_graph(const struct rs_cmd *cmd, int argc, char **argv)
{
	struct scn_opts o = { 0 };
	struct rs_scenario *s = NULL;
	int ret = rs_scn_load_one(cmd, argc, argv, &o, &s), r;

	if (ret >= 0)
		goto out;
	ret = RS_EXIT_PASSED;
	r = rs_dot_write(stdout, s);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", argv[optind],
			r == -ENOMEM ? "out of memory" : "write error");
		ret = RS_EXIT_CANTRUN;
	}
out:
	rs_scenario_free(s);
	rs_free(o.sets);
	return ret;
}
