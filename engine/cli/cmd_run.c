// SPDX-License-Identifier: MIT
/* rdmascn run: build the scenario on a device, run its steps, take it
 * down, and say how it went. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <sha2.h>

#include "alloc.h"
#include "cli.h"
#include "cmd_scenario.h"
#include "gate.h"
#include "graph_file.h"
#include "live.h"
#include "outfile.h"
#include "report.h"
#include "cmd_run.h"
#include "run.h"
#include "run_key.h"
#include "run_nodes.h"

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
			o->rendezvous = optarg;
			break;
		case 'K':
			o->key_file = optarg;
			break;
		case 'I':
			o->insecure = true;
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
	if (o->graph_out && rs_graph_format_of(o->graph_out) < 0)
		return rs_cmd_usage_error(cmd, "--graph-out %s: name a .dot, "
			".gv, .svg or .png file.", o->graph_out);
	o->out = rs_run_to_stdout(o->json) || rs_run_to_stdout(o->junit) ?
		 stderr : stdout;
	o->err = stderr;
	if (rs_text_opts_init(&o->text, o->out, o->color, o->text.quiet))
		return rs_cmd_usage_error(cmd, "Unknown --color '%s': auto, "
					  "always or never.", o->color);
	if (optind + 1 != argc)
		return rs_cmd_usage_error(cmd, optind >= argc ?
			"No scenario file given." : "run takes one scenario file.");
	c = check_paths(cmd, o, argv[optind]);
	if (c >= 0)
		return c;
	rs_cli_registry_init();
	return -1;
}

/* An error of the run, into its record; the text reporter prints it. */
static void record_error(void *ctx, const struct rs_loc *loc, const char *msg)
{
	struct rs_record *rec = ctx;
	struct rs_val *e = rs_val_obj();

	rs_val_put_loc(e, loc);
	rs_val_put_str(e, "message", msg);
	rs_record_add(rec, RS_REC_ERROR, rec->errors, e);
}

/* A warning of the run, the same way. */
static void record_warning(void *ctx, const struct rs_loc *loc,
			   const char *msg)
{
	struct rs_record *rec = ctx;
	struct rs_val *e = rs_val_obj();

	rs_val_put_loc(e, loc);
	rs_val_put_str(e, "message", msg);
	rs_record_add(rec, RS_REC_WARNING, rec->warnings, e);
}

/* The record's head: what runs, where from, and its plan: an entry per
 * object in creation order, which create and teardown fill in. */
bool rs_run_to_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

/* With `nodes:`, where an object is made or a step runs: "node", and
 * "peer_node" for what joins two. */
static void put_node(struct rs_val *e, const struct rs_scenario *s,
		     const struct rs_obj *o)
{
	if (!rs_nodes_count(s) || o->on == RS_NODE_ANY)
		return;
	rs_val_put_str(e, "node", rs_node_name(s, o->on));
	if (o->on_peer != RS_NODE_ANY)
		rs_val_put_str(e, "peer_node", rs_node_name(s, o->on_peer));
}

/* The nodes of the file, and the one this process plays. */
static void record_nodes(struct rs_val *root, const struct rs_scenario *s,
			 const struct run_opts *o)
{
	struct rs_val *all = rs_val_put_arr(root, "nodes");

	for (unsigned i = 0; i < rs_nodes_count(s); i++) {
		const struct rs_node_decl *d = &s->top->nodes[i];
		struct rs_val *e = rs_val_push_obj(all);

		rs_val_put_str(e, "name", d->id);
		if (d->address)
			rs_val_put_str(e, "address", d->address);
		if (d->device)
			rs_val_put_str(e, "device", d->device);
	}
	if (o->role.node != RS_NODE_ANY) {
		struct rs_val *me = rs_val_put_obj(root, "node");

		rs_val_put_str(me, "name", rs_node_name(s, o->role.node));
		rs_val_put_str(me, "from", o->role.from);
		if (o->role.rank >= 0)
			rs_val_put_i64(me, "rank", o->role.rank);
		rs_val_put_str(me, "rendezvous", o->rdv_addr);
	}
}

/* The record's head: the tool, the host, the scenario with its params as
 * resolved, the cell. */
static void record_head(struct rs_record *rec, const struct rs_scenario *s,
			const char *file, const struct cell *cell)
{
	struct rs_val *scn, *params;
	char digest[SHA256_DIGEST_STRING_LENGTH];
	struct utsname u;
	char host[256] = "";

	rs_val_put_str(rec->root, "tool", "rdmascn " RDMASCN_VERSION);
	gethostname(host, sizeof(host) - 1);
	rs_val_put_str(rec->root, "host", host);
	if (!uname(&u))
		rs_val_put_str(rec->root, "kernel", u.release);
	rs_val_put_i64(rec->root, "start", time(NULL));
	rs_val_put_bool(rec->root, "dry_run", rec->dry_run);
	scn = rs_val_put_obj(rec->root, "scenario");
	if (s->top->scenario)
		rs_val_put_str(scn, "name", s->top->scenario);
	rs_val_put_str(scn, "file", file);
	rs_val_put_str(scn, "sha256", SHA256Data((const uint8_t *)s->doc.text,
						 s->doc.len, digest));
	params = rs_val_put_obj(scn, "params");
	for (unsigned i = 0; i < s->n_params; i++)
		rs_val_put_str(params, s->params[i].name, s->params[i].value);
	if (cell) {
		struct rs_val *c = rs_val_put_obj(rec->root, "cell");
		struct rs_val *values = rs_val_put_obj(c, "params");

		rs_val_put_str(c, "name", cell->name);
		for (unsigned i = 0; i < cell->n_sets; i++)
			rs_val_put_str(values, cell->sets[i].name,
				       cell->sets[i].value);
	}
}

static int record_init(struct rs_run *run, const char *file,
		       const struct run_opts *o, const struct cell *cell,
		       struct rs_results *res)
{
	struct rs_scenario *s = run->s;
	struct rs_record *rec = rs_calloc(1, sizeof(*rec));
	struct rs_val *plan;

	run->rec = rec;
	if (!rec || rs_record_init(rec, run->dry_run, run->verbose))
		return -ENOMEM;
	if (rs_record_add_reporter(rec, rs_report_text(o->out, o->err,
						       &o->text)) ||
	    (res && rs_record_add_reporter(rec, rs_results_cell(res))) ||
	    (o->graph_out &&
	     rs_record_add_reporter(rec, rs_report_graph(s, o->graph_out))))
		return -ENOMEM;
	record_head(rec, s, file, cell);
	if (rs_nodes_count(s))
		record_nodes(rec->root, s, o);
	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rs_obj *obj = s->create[i];
		struct rs_val *e;

		if (!rs_obj_on(obj, run->node))
			continue;
		e = rs_val_push_obj(rec->objects);
		run->live[obj->index].entry = e;
		rs_val_put_str(e, "id", obj->id);
		rs_val_put_str(e, "kind", obj->kind->name);
		rs_val_put_str(e, "name", obj->name);
		put_node(e, s, obj);
		rs_val_put_loc(e, rs_obj_loc(obj, NULL));
		rs_val_put_str(e, "outcome", "pending");
	}
	plan = rs_val_put_arr(rec->root, "plan_steps");
	for (unsigned i = 0; i < s->n_steps; i++) {
		struct rs_val *e, *gates;

		/* Another node's: in its record. */
		if (!rs_run_here(run, s->steps[i]))
			continue;
		e = rs_val_push_obj(plan);
		gates = rs_gate_entries(s->steps[i]);

		rs_val_put_str(e, "no", s->steps[i]->no);
		rs_val_put_str(e, "type", s->steps[i]->kind->name);
		put_node(e, s, s->steps[i]);
		if (s->steps[i]->id)
			rs_val_put_str(e, "id", s->steps[i]->id);
		if (gates)
			rs_val_put(e, "gates", gates);
	}
	return rs_val_check(rec->root);
}

/* The scenario's own deviations and those of --deviations FILE that
 * name it; rs_run_probe() keeps those of its devices. */
static int take_deviations(struct rs_run *run, const struct run_opts *o)
{
	const struct rs_deviations *mine = &run->s->deviations;
	const struct rs_deviations *file = &o->deviations;

	run->deviations = rs_calloc(mine->n + file->n + 1,
				    sizeof(*run->deviations));
	if (!run->deviations)
		return -ENOMEM;
	for (unsigned i = 0; i < mine->n; i++)
		run->deviations[run->n_deviations++] = &mine->v[i];
	for (unsigned i = 0; i < file->n; i++)
		if (rs_deviation_for_scenario(&file->v[i], run->s->top->scenario,
					      run->file))
			run->deviations[run->n_deviations++] = &file->v[i];
	return 0;
}

static int run_init(struct rs_run *run, struct rs_scenario *s,
		    const char *file, const struct run_opts *o,
		    const struct cell *cell, struct rs_results *res)
{
	const char *faults = getenv("RDMASCN_FAULT");

	memset(run, 0, sizeof(*run));
	run->s = s;
	run->file = file;
	run->dry_run = o->dry_run;
	run->verbose = rs_verbose;
	run->device = o->device;
	run->node = o->role.node;
	run->samples = o->samples_f;
	run->cell = cell ? cell->name : NULL;
	run->default_deadline_ms = 10000;
	run->progress_ms = o->text.progress ? 250 : 0;
	run->err = o->err;
	rs_diag_init(&run->diag, o->err);
	run->live = rs_calloc(s->n_objects + 1, sizeof(*run->live));
	run->created = rs_calloc(s->n_objects + 1, sizeof(*run->created));
	if (!run->live || !run->created)
		return -ENOMEM;
	for (unsigned i = 0; i < s->n_objects; i++) {
		const struct rdmascn_ops *ops = s->objs[i].kind->ops;

		run->live[i].obj = &s->objs[i];
		run->live[i].rt = rs_calloc(1, ops && ops->rt_size ?
						  ops->rt_size : 1);
		if (!run->live[i].rt)
			return -ENOMEM;
	}
	if (record_init(run, file, o, cell, res))
		return -ENOMEM;
	if (!o->strict && take_deviations(run, o))
		return -ENOMEM;
	run->diag.f = NULL;
	run->diag.sink = record_error;
	run->diag.warn_sink = record_warning;
	run->diag.sink_ctx = run->rec;
	if (s->n_objects &&
	    rs_idmap_build_stride(&run->ids, &s->objs[0].id,
				  sizeof(s->objs[0]), s->n_objects))
		return -ENOMEM;
	if (faults && *faults)
		return rs_faults_parse(run, faults);
	return 0;
}

static void run_free(struct rs_run *run)
{
	if (run->rec) {
		rs_record_free(run->rec);
		rs_free(run->rec);
	}
	if (run->live)
		for (unsigned i = 0; i < run->s->n_objects; i++)
			rs_free(run->live[i].rt);
	rs_free(run->live);
	rs_free(run->created);
	rs_free(run->faults);
	rs_free(run->deviations);
	rs_idmap_free(&run->ids);
	if (run->devices)
		ibv_free_device_list(run->devices);
	rs_scenario_free(run->s_facts);
}

int rs_run_interrupted_exit(FILE *err)
{
	fprintf(err, "rdmascn: interrupted by %s; torn down\n",
		rs_interrupted == SIGINT ? "SIGINT" : "SIGTERM");
	return 128 + rs_interrupted;
}

static void record_leaks(struct rs_run *run, int n, unsigned n_devs)
{
	struct rs_val *e = rs_val_put_obj(run->rec->root, "leaks");

	rs_val_put_bool(e, "checked", n >= 0 && n_devs);
	rs_val_put_i64(e, "count", n);
	rs_val_put_i64(e, "pid", getpid());
	rs_val_put_u64(e, "devices", n_devs);
	rs_record_tell(run->rec, RS_REC_LEAKS, e);
}

/* When each phase began (rs_now_ms()); a phase not reached begins when
 * the one before it ended, so it lasted 0. */
struct phases {
	double setup, steps, teardown;
};

static int record_verdict(struct rs_run *run, int ret, struct phases *t)
{
	const char *v = rs_exit_verdict(ret);
	struct rs_val *d = rs_val_put_obj(run->rec->root, "durations_ms");
	double now = rs_now_ms();

	if (!t->steps)
		t->steps = now;
	if (!t->teardown)
		t->teardown = now;
	rs_val_put_double(d, "setup", t->steps - t->setup);
	rs_val_put_double(d, "steps", t->teardown - t->steps);
	rs_val_put_double(d, "teardown", now - t->teardown);
	rs_val_put_double(d, "total", now - t->setup);
	rs_val_put_str(run->rec->root, "verdict", v);
	rs_val_put_i64(run->rec->root, "exit_code", ret);
	if (run->diag.errors)
		rs_val_put_str(run->rec->root, "message", run->diag.first);
	if (run->teardown_failed)
		rs_val_put_bool(run->rec->root, "teardown_failed", true);
	return rs_record_end(run->rec);
}

/* A deviation for the whole scenario applied: the run is skipped, with
 * the reason, at the deviation's place; @was: what it would have been. */
static void whole_deviation(struct rs_run *run, const struct rs_deviation *dv,
			    const char *was)
{
	rs_deviation_put(run->rec->root, dv);
	if (was)
		rs_diag_error(&run->diag, &dv->loc, "known deviation: %s (the "
			      "run %s)", dv->reason, was);
	else
		rs_diag_error(&run->diag, &dv->loc, "known deviation: %s",
			      dv->reason);
}

/* Probe, device facts, capabilities: 0 to go on, or the exit code. */
static int prepare(struct rs_run *run, const struct rs_deviation **dv)
{
	int r = rs_run_probe(run);

	if (r)
		return RS_EXIT_CANTRUN;
	*dv = rs_run_deviation(run, NULL);
	if (*dv && rs_deviation_for_step(*dv, NULL) && (*dv)->skip) {
		whole_deviation(run, *dv, NULL);
		return RS_EXIT_SKIPPED;
	}
	r = rs_run_facts(run);
	if (r)
		return r == -EINVAL ? RS_EXIT_INVALID : RS_EXIT_CANTRUN;
	r = rs_run_check_caps(run);
	return !r ? 0 : r == -E2BIG ? RS_EXIT_CANTRUN : RS_EXIT_SKIPPED;
}

/* Interrupted: every node ends now, with this node's 128+signal, rather
 * than wait out a step's deadline and blame itself. */
static void interrupted_abort(struct rs_run *run)
{
	rs_nodes_fail(run, 128 + rs_interrupted,
		      rs_interrupted == SIGINT ? "interrupted by SIGINT" :
		      "interrupted by SIGTERM");
}

static int run_scenario(struct rs_run *run, const struct run_opts *o)
{
	struct phases t = { .setup = rs_now_ms() };
	const struct rs_deviation *dv = NULL;
	int ret = RS_EXIT_PASSED, r;

	rs_record_begin(run->rec);
	/* One node of several: the others first, before anything. */
	if (rs_nodes_count(run->s) && run->node != RS_NODE_ANY &&
	    !run->dry_run && (r = rs_run_nodes_meet(run, o))) {
		/* The nodes disagree, or there is no key where one is due:
		 * what was asked is wrong, not the machine. */
		ret = r == -EINVAL || r == -EPERM ? RS_EXIT_INVALID :
		      RS_EXIT_CANTRUN;
		/* Another node aborted the meeting (run->rdv is the failed
		 * side): the verdict below takes its exit code. */
		goto out;
	}
	ret = prepare(run, &dv);
	/* Every node goes on, or none: a skip or a missing device on one
	 * is every node's. */
	if (run->rdv && rs_nodes_agree(run, "ready", ret, &ret))
		ret = RS_EXIT_CANTRUN;
	if (ret)
		goto out;
	r = rs_run_create(run);
	if (!r && run->rdv)
		r = rs_nodes_publish(run);
	if (r)
		rs_nodes_fail(run, RS_EXIT_CANTRUN, NULL);
	t.steps = rs_now_ms();
	if (!r && !rs_interrupted && !run->dry_run)
		ret = rs_steps_run(run);
	else if (!r && !rs_interrupted)
		rs_steps_dry_run(run);
	else if (r)
		ret = run->expect_unmet ? RS_EXIT_FAILED : RS_EXIT_CANTRUN;
	if (rs_interrupted)
		interrupted_abort(run);
	/* No node tears down while another still uses its objects (the
	 * last step's remote MR, its QP's peer); a failure there is the
	 * verdict's to tell. */
	if (!r && !rs_interrupted)
		rs_run_nodes_done(run);
	t.teardown = rs_now_ms();
	rs_run_teardown(run);
	if (dv && rs_deviation_for_step(dv, NULL) && !rs_interrupted &&
	    (ret == RS_EXIT_FAILED || ret == RS_EXIT_CANTRUN)) {
		whole_deviation(run, dv, rs_exit_verdict(ret));
		ret = RS_EXIT_SKIPPED;
	}
out:
	if (o->check_leaks && !run->dry_run && ret != RS_EXIT_SKIPPED) {
		unsigned n_devs = 0;
		int n = rs_leaks_check(o->err, run, &n_devs);

		if (n)
			ret = RS_EXIT_CANTRUN;
		record_leaks(run, n, n_devs);
	}
	if (run->teardown_failed && ret == RS_EXIT_PASSED && !rs_interrupted)
		ret = RS_EXIT_CANTRUN;
	if (rs_interrupted) {
		ret = 128 + rs_interrupted;
		/* Interrupted before the steps (at the meeting's "ready"):
		 * the others hear it all the same. */
		interrupted_abort(run);
	}
	ret = rs_run_nodes_verdict(run, ret);
	if (record_verdict(run, ret, &t) && ret == RS_EXIT_PASSED)
		ret = RS_EXIT_CANTRUN;
	rs_run_nodes_gather(run);
	rs_run_nodes_close(run);
	if (rs_interrupted)
		return rs_run_interrupted_exit(o->err);
	return ret;
}

int rs_run_one(const struct rs_cmd *cmd, struct rs_scenario *s,
		   const char *file, const struct run_opts *o,
		   const struct cell *cell, struct rs_results *res)
{
	struct rs_run run;
	int ret = run_init(&run, s, file, o, cell, res);

	if (ret < 0) {
		/* RDMASCN_FAULT said what was wrong with it. */
		ret = ret == -EINVAL ? RS_EXIT_INVALID :
		      rs_cmd_no_memory(cmd);
		run_free(&run);
		return ret;
	}
	ret = run_scenario(&run, o);
	run_free(&run);
	return ret;
}

int rs_run_invalid(const struct rs_cmd *cmd, const struct rs_scenario *s,
		   const char *file, const struct run_opts *o,
		   const struct cell *cell, const struct rs_val *errors,
		   struct rs_results *res)
{
	const struct rs_val *first = rs_val_at(errors, 0);
	struct rs_record rec;
	struct rs_val *d, *params;
	int ret;

	if (!res)
		return RS_EXIT_INVALID;
	if (rs_record_init(&rec, o->dry_run, rs_verbose) ||
	    rs_record_add_reporter(&rec, rs_results_cell(res))) {
		rs_record_free(&rec);
		return rs_cmd_no_memory(cmd);
	}
	record_head(&rec, s, file, cell);
	/* @s is the file with the defaults: the cell's values over them. */
	params = rs_val_of(rs_val_json(rs_val_get(rs_val_get(rec.root,
		"scenario"), "params")));
	for (unsigned i = 0; cell && i < cell->n_sets; i++)
		rs_val_put_str(params, cell->sets[i].name, cell->sets[i].value);
	rs_val_put_arr(rec.root, "plan_steps");
	rs_record_begin(&rec);
	for (size_t i = 0; i < rs_val_len(errors); i++)
		rs_record_add(&rec, RS_REC_ERROR, rec.errors, rs_val_of(
			json_object_get(rs_val_json(rs_val_at(errors, i)))));
	d = rs_val_put_obj(rec.root, "durations_ms");
	rs_val_put_double(d, "setup", 0);
	rs_val_put_double(d, "steps", 0);
	rs_val_put_double(d, "teardown", 0);
	rs_val_put_double(d, "total", 0);
	rs_val_put_str(rec.root, "verdict", rs_exit_verdict(RS_EXIT_INVALID));
	rs_val_put_i64(rec.root, "exit_code", RS_EXIT_INVALID);
	if (rs_val_get(first, "line"))
		rs_val_put_strf(rec.root, "message", "%s:%llu:%llu: %s",
			rs_val_text(first, "file"),
			(unsigned long long)rs_val_get_u64(first, "line"),
			(unsigned long long)rs_val_get_u64(first, "col"),
			rs_val_text(first, "message"));
	else if (first)
		rs_val_put_str(rec.root, "message",
			       rs_val_text(first, "message"));
	ret = rs_val_check(rec.root) || rs_record_end(&rec) ?
	      rs_cmd_no_memory(cmd) : RS_EXIT_INVALID;
	rs_record_free(&rec);
	return ret;
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
	const char *file;
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
	ret = rs_role_pick(cmd, s, file, o.node, o.dry_run, &o.role);
	if (ret >= 0)
		goto out;
	ret = 0;
	if (launched_output(&o, s)) {
		ret = rs_cmd_no_memory(cmd);
		goto out;
	}
	o.rdv_addr = rs_role_rendezvous(s, o.rendezvous);
	if (rs_nodes_count(s) > 1 && o.role.node != RS_NODE_ANY &&
	    !o.dry_run) {
		ret = rs_run_key_load(cmd, o.key_file, &o.key, &o.key_len);
		if (ret)
			goto out;
		if (!o.key_len && o.insecure)
			fprintf(stderr, "rdmascn run: warning: --insecure: the "
				"nodes meet at %s without a key; anyone who "
				"reaches it can join this run and see or "
				"forge what the nodes exchange\n", o.rdv_addr);
	}
	if ((o.json || o.junit) && !(res = rs_results_new(o.json, o.junit))) {
		ret = rs_cmd_no_memory(cmd);
		goto out;
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
	rs_run_key_free(o.key, o.key_len);
	return ret;
}
