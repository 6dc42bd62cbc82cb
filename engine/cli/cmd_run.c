// SPDX-License-Identifier: MIT
/* rdmascn run: build the scenario on a device, run its steps, take it
 * down, and say how it went. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "alloc.h"
#include "cli.h"
#include "cmd_scenario.h"
#include "gate.h"
#include "live.h"
#include "report.h"
#include "run.h"

struct run_opts {
	struct scn_opts scn;
	bool dry_run;
	bool check_leaks;
	const char *device;
	const char *json;
	const char *samples;
};

static const struct option run_long[] = {
	{ "set", required_argument, NULL, 's' },
	{ "device", required_argument, NULL, 'd' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "check-leaks", no_argument, NULL, 'L' },
	{ "json", required_argument, NULL, 'j' },
	{ "samples", required_argument, NULL, 'U' },
	{ "softroce", no_argument, NULL, 'S' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

static int parse(const struct rs_cmd *cmd, int argc, char **argv,
		 struct run_opts *o)
{
	int c;

	o->scn.sets = rs_calloc(argc + 1, sizeof(*o->scn.sets));
	if (!o->scn.sets)
		return rs_cmd_no_memory(cmd);
	while ((c = getopt_long(argc, argv, ":s:d:nvh", run_long, NULL)) != -1) {
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
		case 'U':
			o->samples = optarg;
			break;
		case 'S':
			break; /* handled by rs_softroce_maybe_reexec() */
		case 'v':
			rs_verbose = true;
			break;
		case 'h':
			rs_cmd_usage(cmd, stdout);
			return RS_EXIT_PASSED;
		default:
			return rs_cmd_bad_option(cmd, argv, c);
		}
	}
	if (optind + 1 != argc)
		return rs_cmd_usage_error(cmd, optind >= argc ?
			"No scenario file given." : "run takes one scenario file.");
	rs_cli_registry_init();
	return -1;
}

static void put_loc(struct rs_val *e, const struct rs_obj *o)
{
	const struct rs_loc *loc = rs_obj_loc(o, NULL);

	if (!loc)
		return;
	rs_val_put_str(e, "file", loc->file);
	rs_val_put_u64(e, "line", loc->line);
	rs_val_put_u64(e, "col", loc->col);
}

/* An error of the run, into its record; the text reporter prints it. */
static void record_error(void *ctx, const struct rs_loc *loc, const char *msg)
{
	struct rs_record *rec = ctx;
	struct rs_val *e = rs_val_obj();

	if (loc) {
		rs_val_put_str(e, "file", loc->file);
		rs_val_put_u64(e, "line", loc->line);
		rs_val_put_u64(e, "col", loc->col);
	}
	rs_val_put_str(e, "message", msg);
	rs_record_add(rec, RS_REC_ERROR, rec->errors, e);
}

/* The record's head: what runs, where from, and its plan: an entry per
 * object in creation order, which create and teardown fill in. */
static int record_init(struct rs_run *run, const char *file,
		       const struct run_opts *o)
{
	struct rs_scenario *s = run->s;
	struct rs_record *rec = rs_calloc(1, sizeof(*rec));
	struct rs_val *scn, *plan, *params;
	struct utsname u;
	char host[256] = "";

	run->rec = rec;
	if (!rec || rs_record_init(rec, run->dry_run, run->verbose))
		return -ENOMEM;
	if (rs_record_add_reporter(rec, rs_report_text(
			o->json && !strcmp(o->json, "-") ? stderr : stdout)) ||
	    (o->json && rs_record_add_reporter(rec, rs_report_json(o->json))))
		return -ENOMEM;
	rs_val_put_str(rec->root, "tool", "rdmascn " RDMASCN_VERSION);
	gethostname(host, sizeof(host) - 1);
	rs_val_put_str(rec->root, "host", host);
	if (!uname(&u))
		rs_val_put_str(rec->root, "kernel", u.release);
	rs_val_put_i64(rec->root, "start", time(NULL));
	rs_val_put_bool(rec->root, "dry_run", run->dry_run);
	scn = rs_val_put_obj(rec->root, "scenario");
	if (s->top->scenario)
		rs_val_put_str(scn, "name", s->top->scenario);
	rs_val_put_str(scn, "file", file);
	params = rs_val_put_obj(scn, "params");
	for (unsigned i = 0; i < s->n_params; i++)
		rs_val_put_str(params, s->params[i].name, s->params[i].value);
	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rs_obj *obj = s->create[i];
		struct rs_val *e = rs_val_push_obj(rec->objects);

		run->live[obj->index].entry = e;
		rs_val_put_str(e, "id", obj->id);
		rs_val_put_str(e, "kind", obj->kind->name);
		rs_val_put_str(e, "name", obj->name);
		put_loc(e, obj);
		rs_val_put_str(e, "outcome", "pending");
	}
	plan = rs_val_put_arr(rec->root, "plan_steps");
	for (unsigned i = 0; i < s->n_steps; i++) {
		struct rs_val *e = rs_val_push_obj(plan);

		struct rs_val *gates = rs_gate_entries(s->steps[i]);

		rs_val_put_str(e, "type", s->steps[i]->kind->name);
		if (s->steps[i]->id)
			rs_val_put_str(e, "id", s->steps[i]->id);
		if (gates)
			rs_val_put(e, "gates", gates);
	}
	return rs_val_check(rec->root);
}

static int run_init(struct rs_run *run, struct rs_scenario *s,
		    const char *file, const struct run_opts *o)
{
	const char *faults = getenv("RDMASCN_FAULT");

	memset(run, 0, sizeof(*run));
	run->s = s;
	run->file = file;
	run->dry_run = o->dry_run;
	run->verbose = rs_verbose;
	run->device = o->device;
	run->samples_path = o->samples;
	run->default_deadline_ms = 10000;
	rs_diag_init(&run->diag, stderr);
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
	if (record_init(run, file, o))
		return -ENOMEM;
	run->diag.f = NULL;
	run->diag.sink = record_error;
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
	rs_idmap_free(&run->ids);
	if (run->devices)
		ibv_free_device_list(run->devices);
}

static int interrupted_exit(void)
{
	fprintf(stderr, "rdmascn: interrupted by %s; torn down\n",
		rs_interrupted == SIGINT ? "SIGINT" : "SIGTERM");
	return 128 + rs_interrupted;
}

static const char *const verdicts[] = {
	[RS_EXIT_PASSED] = "passed",
	[RS_EXIT_FAILED] = "failed",
	[RS_EXIT_INVALID] = "invalid",
	[RS_EXIT_CANTRUN] = "could not run",
};

static void record_leaks(struct rs_run *run, int n, unsigned n_devs)
{
	struct rs_val *e = rs_val_put_obj(run->rec->root, "leaks");

	rs_val_put_bool(e, "checked", n >= 0 && n_devs);
	rs_val_put_i64(e, "count", n);
	rs_val_put_i64(e, "pid", getpid());
	rs_val_put_u64(e, "devices", n_devs);
	rs_record_tell(run->rec, RS_REC_LEAKS, e);
}

static int record_verdict(struct rs_run *run, int ret)
{
	const char *v = ret == RS_EXIT_SKIPPED ? "skipped" :
			rs_interrupted ? "interrupted" :
			ret < (int)RS_N(verdicts) && verdicts[ret] ?
			verdicts[ret] : "could not run";

	rs_val_put_str(run->rec->root, "verdict", v);
	rs_val_put_i64(run->rec->root, "exit_code", ret);
	if (run->diag.errors)
		rs_val_put_str(run->rec->root, "message", run->diag.first);
	if (run->teardown_failed)
		rs_val_put_bool(run->rec->root, "teardown_failed", true);
	return rs_record_end(run->rec);
}

static int run_scenario(struct rs_run *run, bool check_leaks)
{
	int ret = RS_EXIT_PASSED, r;

	rs_record_begin(run->rec);
	r = rs_run_probe(run);
	if (r) {
		ret = RS_EXIT_CANTRUN;
		goto out;
	}
	r = rs_run_check_caps(run);
	if (r) {
		ret = RS_EXIT_SKIPPED;
		goto out;
	}
	r = rs_run_create(run);
	if (!r && !rs_interrupted && !run->dry_run)
		ret = rs_steps_run(run);
	else if (r)
		ret = RS_EXIT_CANTRUN;
	rs_run_teardown(run);
out:
	if (check_leaks && !run->dry_run && ret != RS_EXIT_SKIPPED) {
		unsigned n_devs = 0;
		int n = rs_leaks_check(stderr, run, &n_devs);

		if (n)
			ret = RS_EXIT_CANTRUN;
		record_leaks(run, n, n_devs);
	}
	if (run->teardown_failed && ret == RS_EXIT_PASSED && !rs_interrupted)
		ret = RS_EXIT_CANTRUN;
	if (rs_interrupted)
		ret = 128 + rs_interrupted;
	if (record_verdict(run, ret) && ret == RS_EXIT_PASSED)
		ret = RS_EXIT_CANTRUN;
	if (rs_interrupted)
		return interrupted_exit();
	return ret;
}

int rs_cmd_run(const struct rs_cmd *cmd, int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct rs_scenario *s = NULL;
	struct rs_run run;
	int ret;

	ret = rs_softroce_maybe_reexec(argc, argv);
	if (ret)
		return ret;
	ret = parse(cmd, argc, argv, &o);
	if (ret >= 0)
		goto out;
	ret = rs_scn_load(argv[optind], &o.scn, &s);
	if (ret != RS_EXIT_PASSED)
		goto out;
	rs_signals_install();
	ret = run_init(&run, s, argv[optind], &o);
	if (ret < 0) {
		/* RDMASCN_FAULT said what was wrong with it. */
		ret = ret == -EINVAL ? RS_EXIT_INVALID :
		      rs_cmd_no_memory(cmd);
		run_free(&run);
		goto out;
	}
	ret = run_scenario(&run, o.check_leaks);
	run_free(&run);
out:
	rs_scenario_free(s);
	rs_free(o.scn.sets);
	return ret;
}
