// SPDX-License-Identifier: MIT
/* The commands that read a scenario without touching a device. */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "alloc.h"
#include "cli.h"
#include "cmd_scenario.h"
#include "gate.h"
#include "model.h"
#include "value.h"

static const struct option scn_long[] = {
	{ "set", required_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

bool rs_scn_add_set(const struct rs_cmd *cmd, struct scn_opts *o, char *arg)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg) {
		rs_cmd_usage_error(cmd, "--set needs NAME=VALUE, got '%s'.",
				   arg);
		return false;
	}
	*eq = '\0';
	o->sets[o->n_sets++] = (struct rs_set){ arg, eq + 1 };
	return true;
}

/* Common options of the scenario commands; returns -1 to go on, or an
 * exit code.  --set values point into argv. */
int rs_scn_parse(const struct rs_cmd *cmd, int argc, char **argv,
		 struct scn_opts *o, const struct scn_more *more)
{
	const char *shortopts = more ? more->shortopts : ":s:h";
	const struct option *longopts = more ? more->longopts : scn_long;
	int c, r;

	o->sets = rs_calloc(argc + 1, sizeof(*o->sets));
	if (!o->sets)
		return rs_cmd_no_memory(cmd);
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!rs_scn_add_set(cmd, o, optarg))
				return RS_EXIT_INVALID;
			break;
		case 'h':
			rs_cmd_usage(cmd, stdout);
			return RS_EXIT_PASSED;
		case '?':
		case ':':
			return rs_cmd_bad_option(cmd, argv, c);
		default:
			r = more ? more->take(cmd, c, optarg, more->ctx) :
			    rs_cmd_bad_option(cmd, argv, c);
			if (r >= 0)
				return r;
		}
	}
	if (optind >= argc)
		return rs_cmd_usage_error(cmd, "No scenario file given.");
	rs_cli_registry_init();
	return -1;
}

int rs_scn_load(const char *file, struct scn_opts *o, struct rs_scenario **s)
{
	struct rs_diag d;
	int r;

	rs_diag_init(&d, stderr);
	r = rs_scenario_load(file, o->sets, o->n_sets, &d, s);
	if (r == -ENOMEM) {
		fprintf(stderr, "%s: out of memory\n", file);
		return RS_EXIT_CANTRUN;
	}
	return r < 0 ? RS_EXIT_INVALID : RS_EXIT_PASSED;
}

int rs_cmd_validate(const struct rs_cmd *cmd, int argc, char **argv)
{
	struct scn_opts o = { 0 };
	int ret = rs_scn_parse(cmd, argc, argv, &o, NULL);
	int worst = RS_EXIT_PASSED;

	if (ret >= 0)
		goto out;
	for (int i = optind; i < argc; i++) {
		struct rs_scenario *s = NULL;

		ret = rs_scn_load(argv[i], &o, &s);
		if (ret == RS_EXIT_PASSED)
			printf("%s: valid (%u objects, %u steps)\n", argv[i],
			       s->n_objects, s->n_steps);
		if (ret > worst)
			worst = ret;
		rs_scenario_free(s);
	}
	ret = worst;
out:
	rs_free(o.sets);
	return ret;
}

static void print_needs(const struct rs_obj *o)
{
	bool any = false;

	for (unsigned e = 0; e < o->n_edges; e++) {
		const struct rs_edge *ed = &o->edges[e];

		if (!strcmp(ed->field, "sequence") || !strcmp(ed->field, "steps"))
			continue;
		printf("%s%s=%s", any ? ", " : "  <- ", ed->field,
		       ed->to->id ? ed->to->id : ed->to->name);
		any = true;
	}
	putchar('\n');
}

int rs_scn_load_one(const struct rs_cmd *cmd, int argc, char **argv,
		    struct scn_opts *o, const struct scn_more *more,
		    struct rs_scenario **s)
{
	int ret = rs_scn_parse(cmd, argc, argv, o, more);

	if (ret >= 0)
		return ret;
	if (optind + 1 != argc)
		return rs_cmd_usage_error(cmd, "%s takes one scenario file.",
					  cmd->name);
	ret = rs_scn_load(argv[optind], o, s);
	return ret == RS_EXIT_PASSED ? -1 : ret;
}

/* A step's gate, a line a figure. */
static void print_gates(const struct rs_obj *o)
{
	struct rs_val *gates = rs_gate_entries(o);
	char text[256];

	for (size_t i = 0; i < rs_val_len(gates); i++) {
		rs_gate_text(rs_val_at(gates, i), text, sizeof(text));
		printf("       gate %s\n", text);
	}
	rs_val_free(gates);
}

static void print_order(const char *title, struct rs_obj *const *list,
			unsigned n)
{
	printf("%s:\n", title);
	for (unsigned i = 0; i < n; i++) {
		const struct rs_loc *l = rs_obj_loc(list[i], NULL);

		printf("  %3u  %-28s line %u", i + 1, list[i]->name, l->line);
		print_needs(list[i]);
		if (list[i]->kind->step)
			print_gates(list[i]);
	}
}

int rs_cmd_plan(const struct rs_cmd *cmd, int argc, char **argv)
{
	struct scn_opts o = { 0 };
	struct rs_scenario *s = NULL;
	int ret = rs_scn_load_one(cmd, argc, argv, &o, NULL, &s);

	if (ret >= 0)
		goto out;
	ret = RS_EXIT_PASSED;
	printf("scenario %s (%s)\n", s->top->scenario ? s->top->scenario : "-",
	       argv[optind]);
	print_order("create", s->create, s->n_objects);
	print_order("steps", s->steps, s->n_steps);
	printf("teardown:\n");
	for (unsigned i = s->n_objects; i-- > 0;)
		printf("  %3u  %s\n", s->n_objects - i, s->create[i]->name);
	if (s->n_fact_uses)
		printf("device facts (assumed; a run reads its device's):\n");
	for (unsigned i = 0; i < s->n_fact_uses; i++) {
		const struct rs_fact_use *u = &s->fact_uses[i];
		char path[64], num[24];

		rs_fact_path(u->fact, path, sizeof(path));
		snprintf(num, sizeof(num), "%llu",
			 (unsigned long long)u->val.num);
		printf("  assumed %s.%s = %s  line %u\n", u->ctx, path,
		       u->val.text ? u->val.str : num, u->loc.line);
	}
out:
	rs_scenario_free(s);
	rs_free(o.sets);
	return ret;
}
