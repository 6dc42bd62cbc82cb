// SPDX-License-Identifier: MIT
/* The commands that describe the language or a scenario: schema, graph. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>

#include "alloc.h"
#include "cli.h"
#include "cmd_scenario.h"
#include "graph_file.h"
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

/* graph's options: --set, and where and how to draw; returns -1 to go
 * on, or an exit code. */
static int graph_parse(const struct rs_cmd *cmd, int argc, char **argv,
		       struct scn_opts *o, const char **out, int *fmt)
{
	static const struct option longopts[] = {
		{ "set", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *format = NULL;
	int c;

	o->sets = rs_calloc(argc + 1, sizeof(*o->sets));
	if (!o->sets)
		return rs_cmd_no_memory(cmd);
	while ((c = getopt_long(argc, argv, ":s:f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!rs_scn_add_set(cmd, o, optarg))
				return RS_EXIT_INVALID;
			break;
		case 'f':
			format = optarg;
			break;
		case 'o':
			*out = optarg;
			break;
		case 'h':
			rs_cmd_usage(cmd, stdout);
			return RS_EXIT_PASSED;
		default:
			return rs_cmd_bad_option(cmd, argv, c);
		}
	}
	/* --format, else -o FILE's extension when it names one, else DOT. */
	*fmt = format ? rs_graph_format_by_name(format) :
	       *out ? rs_graph_format_of(*out) : RS_GRAPH_DOT;
	if (*fmt < 0 && format)
		return rs_cmd_usage_error(cmd, "Unknown format '%s' (dot, svg "
					  "or png).", format);
	if (*fmt < 0)
		*fmt = RS_GRAPH_DOT;
	if (optind >= argc)
		return rs_cmd_usage_error(cmd, "No scenario file given.");
	if (optind + 1 != argc)
		return rs_cmd_usage_error(cmd, "graph takes one scenario file.");
	rs_cli_registry_init();
	return -1;
}

int rs_cmd_graph(const struct rs_cmd *cmd, int argc, char **argv)
{
	struct scn_opts o = { 0 };
	struct rs_scenario *s = NULL;
	const char *out = NULL;
	char what[4200];
	int fmt = RS_GRAPH_DOT;
	int ret = graph_parse(cmd, argc, argv, &o, &out, &fmt);

	if (ret >= 0)
		goto out;
	ret = rs_scn_load(argv[optind], &o, &s);
	if (ret != RS_EXIT_PASSED)
		goto out;
	if (out)
		snprintf(what, sizeof(what), "graph -o %s", out);
	else
		snprintf(what, sizeof(what), "%s", argv[optind]);
	if (rs_graph_write(out, fmt, what, s, NULL))
		ret = RS_EXIT_CANTRUN;
out:
	rs_scenario_free(s);
	rs_free(o.sets);
	return ret;
}
