// SPDX-License-Identifier: MIT
/* rdmascn run: its options, the reporters they choose, and the run (or
 * the matrix of runs) the engine makes of them (run/run_scenario.h). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "cli.h"
#include "cmd_run.h"
#include "cmd_scenario.h"
#include "graph_file.h"
#include "macros.h"
#include "nodes.h"
#include "outfile.h"
#include "report.h"
#include "run.h"
#include "run_key.h"
#include "signals.h"

static const struct option run_long[] = {
	{ "set", required_argument, NULL, 's' },
	{ "device", required_argument, NULL, 'd' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "check-leaks", no_argument, NULL, 'L' },
	{ "json", required_argument, NULL, 'j' },
	{ "junit", required_argument, NULL, 'J' },
	{ "matrix", required_argument, NULL, 'm' },
	{ "deviations", required_argument, NULL, 'D' },
	{ "strict", no_argument, NULL, 'T' },
	{ "samples", required_argument, NULL, 'U' },
	{ "jobs", required_argument, NULL, 'P' },
	{ "graph-out", required_argument, NULL, 'G' },
	{ "softroce", no_argument, NULL, 'S' },
	{ "node", required_argument, NULL, 'N' },
	{ "rendezvous", required_argument, NULL, 'R' },
	{ "key-file", required_argument, NULL, 'K' },
	{ "insecure", no_argument, NULL, 'I' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "color", required_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

/* A character device (/dev/null) can take two outputs. */
static bool shareable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISCHR(st.st_mode);
}

/* Two outputs onto one file, or one onto an input: refused before
 * anything runs, or the second would replace the first. */
static int check_paths(const struct rs_cmd *cmd, const struct run_opts *o,
		       const char *scenario)
{
	const struct { const char *opt, *path; } out[] = {
		{ "--json", o->json }, { "--junit", o->junit },
		{ "--samples", o->samples }, { "--graph-out", o->graph_out },
	}, in[] = {
		{ "the scenario file", scenario },
		{ "--deviations", o->deviations_file },
	};

	for (size_t i = 0; i < RS_N(out); i++) {
		if (!out[i].path)
			continue;
		for (size_t j = i + 1; j < RS_N(out); j++) {
			if (!out[j].path)
				continue;
			if (!strcmp(out[i].path, "-") &&
			    !strcmp(out[j].path, "-"))
				return rs_cmd_usage_error(cmd, "%s and %s "
					"cannot both go to stdout.",
					out[i].opt, out[j].opt);
			if (rs_out_same(out[i].path, out[j].path) &&
			    !shareable(out[i].path))
				return rs_cmd_usage_error(cmd, "%s %s and %s "
					"%s are the same file.", out[i].opt,
					out[i].path, out[j].opt, out[j].path);
		}
		for (size_t j = 0; j < RS_N(in); j++)
			if (in[j].path && rs_out_same(out[i].path, in[j].path))
				return rs_cmd_usage_error(cmd, "%s %s would "
					"overwrite %s (%s).", out[i].opt,
					out[i].path, in[j].opt, in[j].path);
	}
	return -1;
}

static int parse(const struct rs_cmd *cmd, int argc, char **argv,
		 struct run_opts *o)
{
	int c;

	o->scn.sets = rs_calloc(argc + 1, sizeof(*o->scn.sets));
	o->matrix = rs_calloc(argc + 1, sizeof(*o->matrix));
	if (!o->scn.sets || !o->matrix)
		return rs_cmd_no_memory(cmd);
	while ((c = getopt_long(argc, argv, ":s:d:nvqh", run_long, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!rs_scn_add_set(cmd, &o->scn, optarg))
				return RS_EXIT_INVALID;
			break;
		case 'd':
			o->device = optarg;
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 'L':
			o->check_leaks = true;
			break;
		case 'j':
			o->json = optarg;
			break;
		case 'J':
			o->junit = optarg;
			break;
		case 'm':
			o->matrix[o->n_matrix++] = optarg;
			break;
		case 'D':
			o->deviations_file = optarg;
			break;
		case 'T':
			o->strict = true;
			break;
		case 'U':
			o->samples = optarg;
			break;
		case 'P': {
			char *end;
			unsigned long j = strtoul(optarg, &end, 10);

			if (*end || !j || j > 256 || optarg[0] == '-')
				return rs_cmd_usage_error(cmd, "--jobs takes a "
					"number from 1 to 256, not '%s'.", optarg);
			o->jobs = j;
			break;
		}
		case 'G':
			o->graph_out = optarg;
			break;
		case 'S':
			break; /* handled by rs_softroce_maybe_reexec() */
		case 'N':
			o->node = optarg;
			break;
		case 'R':
			/* A word picks the transport; anything else is
			 * where the TCP star meets. */
			if (!strcmp(optarg, "auto")) {
				o->meet.via = RS_RDV_AUTO;
			} else if (!strcmp(optarg, "tcp")) {
				o->meet.via = RS_RDV_TCP;
			} else if (!strcmp(optarg, "pmix")) {
				o->meet.via = RS_RDV_PMIX;
			} else {
				o->meet.via = RS_RDV_TCP;
				o->rendezvous = optarg;
			}
			break;
		case 'K':
			o->key_file = optarg;
			break;
		case 'I':
			o->meet.insecure = true;
			break;
		case 'v':
			rs_verbose = true;
			break;
		case 'q':
			o->text.quiet = true;
			break;
		case 'C':
			o->color = optarg;
			break;
		case 'h':
			rs_cmd_usage(cmd, stdout);
			return RS_EXIT_PASSED;
		default:
			return rs_cmd_bad_option(cmd, argv, c);
		}
	}
	/* A forked child of a PMIx client hangs in PMIx_Fence: the cells
	 * of --jobs cannot each be a PMIx client (docs/nodes.md). */
	if (o->jobs > 1 && o->meet.via == RS_RDV_PMIX)
		return rs_cmd_usage_error(cmd, "--jobs %u with --rendezvous "
			"pmix: the cells would be forked children of a PMIx "
			"client, which hang in PMIx_Fence; run the cells one "
			"at a time (--jobs 1) or use --rendezvous tcp.",
			o->jobs);
	if (o->jobs > 1 && o->meet.via == RS_RDV_AUTO)
		o->meet.via = RS_RDV_TCP;
	if (o->graph_out && rs_graph_format_of(o->graph_out) < 0)
		return rs_cmd_usage_error(cmd, "--graph-out %s: name a .dot, "
			".gv, .svg or .png file.", o->graph_out);
	o->out = rs_run_to_stdout(o->json) || rs_run_to_stdout(o->junit) ?
		 stderr : stdout;
	o->err = stderr;
	if (rs_text_opts_init(&o->text, o->out, o->color, o->text.quiet))
		return rs_cmd_usage_error(cmd, "Unknown --color '%s': auto, "
					  "always or never.", o->color);
	o->text.counters_all = rs_verbose;
	if (optind + 1 != argc)
		return rs_cmd_usage_error(cmd, optind >= argc ?
			"No scenario file given." : "run takes one scenario file.");
	c = check_paths(cmd, o, argv[optind]);
	if (c >= 0)
		return c;
	rs_cli_registry_init();
	return -1;
}

/* An output option that names stdout. */
bool rs_run_to_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

/*
 * Under a launcher the output is not the user's terminal even when it is
 * a pty: Open MPI gives each rank one and copies it to wherever mpirun's
 * output goes, a file as often as not.  No colour unless --color always,
 * no progress line; and each line of a node's report starts with "[NODE] "
 * (the nodes' reports arrive merged, line by line).  0 or -ENOMEM.
 */
static int launched_output(struct run_opts *o, const struct rs_scenario *s)
{
	char prefix[RS_REC_ID_MAX + 4];

	if (!rs_role_launcher())
		return 0;
	o->text.progress = false;
	if (!o->color || !strcmp(o->color, "auto"))
		o->text.color = false;
	if (!rs_nodes_count(s) || o->role.node == RS_NODE_ANY)
		return 0;
	snprintf(prefix, sizeof(prefix), "[%s] ",
		 rs_node_name(s, o->role.node));
	o->out = rs_text_prefixed(o->out, prefix);
	o->err = o->out ? rs_text_prefixed(stderr, prefix) : NULL;
	return o->out && o->err ? 0 : -ENOMEM;
}

/* The prefixed streams (launched_output()) go before what they write to. */
static int close_output(struct run_opts *o)
{
	int r = 0;

	if (o->err && o->err != stderr && fclose(o->err))
		r = -errno;
	if (o->out && o->out != stdout && o->out != stderr && fclose(o->out))
		r = -errno;
	return r;
}

int rs_cmd_run(const struct rs_cmd *cmd, int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct rs_scenario *s = NULL;
	struct rs_results *res = NULL;
	struct rs_out samples = { 0 };
	/* Most of what a --node says names the file: room for a path. */
	char why[PATH_MAX + 1024];
	uint8_t *key = NULL;
	const char *file, *faults;
	struct rs_diag d;
	int ret;

	ret = rs_softroce_maybe_reexec(argc, argv);
	if (ret)
		return ret;
	ret = parse(cmd, argc, argv, &o);
	if (ret >= 0)
		goto out;
	file = argv[optind];
	ret = rs_scn_load(file, &o.scn, &s);
	if (ret != RS_EXIT_PASSED)
		goto out;
	rs_diag_init(&d, stderr);
	if (o.deviations_file) {
		int r = rs_deviations_load(&o.deviations, o.deviations_file, &d);

		ret = r == -ENOMEM ? rs_cmd_no_memory(cmd) :
		      r ? RS_EXIT_INVALID : 0;
	}
	for (unsigned i = 0; i < o.n_matrix && !ret; i++) {
		int r = rs_matrix_set(&s->matrix, s, o.matrix[i], &d);

		ret = r == -ENOMEM ? rs_cmd_no_memory(cmd) :
		      r ? RS_EXIT_INVALID : 0;
	}
	if (ret)
		goto out;
	if (rs_role_pick(s, file, o.node, o.dry_run, &o.role, why,
			 sizeof(why))) {
		ret = rs_cmd_refuse(cmd, "%s", why);
		goto out;
	}
	if (launched_output(&o, s)) {
		ret = rs_cmd_no_memory(cmd);
		goto out;
	}
	o.meet.leader_addr = rs_role_rendezvous(s, o.rendezvous);
	if (rs_nodes_count(s) > 1 && o.role.node != RS_NODE_ANY &&
	    !o.dry_run) {
		ret = rs_run_key_load(cmd, o.key_file, &key, &o.meet.key_len);
		if (ret)
			goto out;
		o.meet.key = key;
		if (!o.meet.key_len && o.meet.insecure)
			fprintf(stderr, "rdmascn run: warning: --insecure: the "
				"nodes meet at %s without a key; anyone who "
				"reaches it can join this run and see or "
				"forge what the nodes exchange\n",
				o.meet.leader_addr);
	}
	if ((o.json || o.junit) && !(res = rs_results_new(o.json, o.junit))) {
		ret = rs_cmd_no_memory(cmd);
		goto out;
	}
	/* RDMASCN_FAULT (tests): a bad one is said once, before any run. */
	faults = getenv("RDMASCN_FAULT");
	if (faults && *faults) {
		ret = rs_faults_parse(NULL, faults, why, sizeof(why));
		if (ret == -EINVAL) {
			fprintf(stderr, "%s\n", why);
			ret = RS_EXIT_INVALID;
			goto out;
		}
		if (ret) {
			ret = rs_cmd_no_memory(cmd);
			goto out;
		}
	}
	rs_signals_install();
	/* Open for the whole run: every cell adds its rows. */
	if (o.samples) {
		if (rs_out_open(&samples, "--samples", o.samples)) {
			ret = RS_EXIT_CANTRUN;
			goto out;
		}
		o.samples_f = samples.f;
		fputs("cell,step,iteration,usec\n", samples.f);
	}
	if (s->matrix.n_dims)
		ret = rs_run_matrix(cmd, s, file, &o, res, o.out);
	else
		ret = rs_run_one(cmd, s, file, &o, NULL, res);
	if (o.samples && rs_out_commit(&samples) && (ret == RS_EXIT_PASSED ||
	    ret == RS_EXIT_FAILED || ret == RS_EXIT_SKIPPED))
		ret = RS_EXIT_CANTRUN;
	if (res && rs_results_write(res, ret) && (ret == RS_EXIT_PASSED ||
	    ret == RS_EXIT_FAILED || ret == RS_EXIT_SKIPPED))
		ret = RS_EXIT_CANTRUN;  /* a verdict nobody can read */
	/* Also a signal that ended a blocked write of the results. */
	if (rs_interrupted)
		ret = 128 + rs_interrupted;
out:
	/* The report could not be written to the end: a verdict nobody
	 * can read. */
	if (close_output(&o) && (ret == RS_EXIT_PASSED ||
	    ret == RS_EXIT_FAILED || ret == RS_EXIT_SKIPPED))
		ret = RS_EXIT_CANTRUN;
	rs_out_abort(&samples);
	rs_results_free(res);
	rs_scenario_free(s);
	rs_free(o.scn.sets);
	rs_free(o.matrix);
	rs_deviations_free(&o.deviations);
	rs_run_key_free(key, o.meet.key_len);
	return ret;
}
