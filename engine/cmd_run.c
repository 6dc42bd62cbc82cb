// SPDX-License-Identifier: MIT
/* rdmascn run: build the scenario on a device, run its steps, take it
 * down, and say how it went. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "cli.h"
#include "cmd_scenario.h"
#include "live.h"
#include "run.h"

struct run_opts {
	struct scn_opts scn;
	bool dry_run;
	bool check_leaks;
	const char *device;
};

static const struct option run_long[] = {
	{ "set", required_argument, NULL, 's' },
	{ "device", required_argument, NULL, 'd' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "check-leaks", no_argument, NULL, 'L' },
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
	rs_scenario_registry_init();
	return -1;
}

static int run_init(struct rs_run *run, struct rs_scenario *s,
		    const char *file, const struct run_opts *o)
{
	const char *faults = getenv("RDMASCN_FAULT");

	memset(run, 0, sizeof(*run));
	run->s = s;
	run->file = file;
	run->out = stdout;
	run->dry_run = o->dry_run;
	run->verbose = rs_verbose;
	run->device = o->device;
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

static int run_scenario(struct rs_run *run, bool check_leaks)
{
	int ret = RS_EXIT_PASSED, r;

	fprintf(run->out, "%s %s (%s)\n", run->dry_run ? "dry run" : "run",
		run->s->top->scenario ? run->s->top->scenario : "-",
		run->file);
	if (run->dry_run)
		fputs("create:\n", run->out);
	r = rs_run_probe(run);
	if (r) {
		ret = RS_EXIT_CANTRUN;
		goto out;
	}
	r = rs_run_check_caps(run);
	if (r) {
		fprintf(run->out, "skipped: the device lacks what the "
			"scenario needs; nothing was created\n");
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
		else if (!n_devs)
			/* Removed mid-run: the kernel freed what it held. */
			fprintf(run->out, "leaks: not checked (no RDMA device "
				"left to ask)\n");
		else
			fprintf(run->out, "leaks: none (kernel resources of "
				"pid %d on %u device%s after teardown)\n",
				(int)getpid(), n_devs, n_devs == 1 ? "" : "s");
	}
	if (rs_interrupted)
		return interrupted_exit();
	if (run->teardown_failed && ret == RS_EXIT_PASSED)
		ret = RS_EXIT_CANTRUN;
	if (ret == RS_EXIT_PASSED)
		fprintf(run->out, "%s: %u object%s, %u step%s\n",
			run->dry_run ? "dry run done" : "passed",
			run->s->n_objects, run->s->n_objects == 1 ? "" : "s",
			run->s->n_steps, run->s->n_steps == 1 ? "" : "s");
	else if (ret == RS_EXIT_CANTRUN)
		fprintf(run->out, "could not run: %s\n", run->diag.errors ?
			run->diag.first : "see above");
	else if (ret == RS_EXIT_FAILED)
		fprintf(run->out, "failed: %s\n", run->diag.errors ?
			run->diag.first : "see above");
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
