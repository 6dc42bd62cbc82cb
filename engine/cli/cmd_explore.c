// SPDX-License-Identifier: MIT
/*
 * rdmascn explore: search a scenario's params for the knee of a figure
 * or the boundary of a failure (docs/explore.md).  The search is
 * scenario/explore_search.c's; here its points become cells, each a full
 * run in a process of its own as a matrix cell is (fork, the record to a
 * file the parent reads), --jobs at once, within a budget of cells and
 * of time; then a failing cell is shrunk and written as a reproducer.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "alloc.h"
#include "cells.h"
#include "cli.h"
#include "explore_cli.h"
#include "macros.h"
#include "params.h"
#include "signals.h"

/* Cells a search may run when neither the file nor --budget-cells says. */
#define BUDGET_CELLS_DEFAULT 64

static const struct option explore_long[] = {
	{ "set", required_argument, NULL, 's' },
	{ "vary", required_argument, NULL, 'V' },
	{ "maximize", required_argument, NULL, 'X' },
	{ "minimize", required_argument, NULL, 'N' },
	{ "find", required_argument, NULL, 'F' },
	{ "budget-cells", required_argument, NULL, 'B' },
	{ "budget-time", required_argument, NULL, 'T' },
	{ "strategy", required_argument, NULL, 'S' },
	{ "seed", required_argument, NULL, 'r' },
	{ "knee", required_argument, NULL, 'k' },
	{ "repeat", required_argument, NULL, 'E' },
	{ "jobs", required_argument, NULL, 'P' },
	{ "json", required_argument, NULL, 'j' },
	{ "out-dir", required_argument, NULL, 'O' },
	{ "graph-out", required_argument, NULL, 'G' },
	{ "shrink-out", required_argument, NULL, 'W' },
	{ "device", required_argument, NULL, 'd' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "deviations", required_argument, NULL, 'D' },
	{ "strict", no_argument, NULL, 'R' },
	{ "softroce", no_argument, NULL, 'Z' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "color", required_argument, NULL, 'C' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* What the command line says, before the file is read. */
struct ex_opts {
	char **vary;
	unsigned n_vary;
	enum rs_explore_goal goal;
	const char *figure;
	unsigned long budget_cells;
	double budget_s;
	bool has_strategy, has_seed;
	enum rs_explore_strategy strategy;
	uint64_t seed;
	double knee;
	unsigned repeat;
	const char *out_dir;
};

static int number_opt(const struct rs_cmd *cmd, const char *opt,
		      const char *arg, uint64_t min, uint64_t max,
		      uint64_t *ret)
{
	if (rs_explore_number(arg, ret) || *ret < min || *ret > max)
		return rs_cmd_usage_error(cmd, "%s takes a whole number from "
			"%llu to %llu, not '%s'.", opt,
			(unsigned long long)min, (unsigned long long)max, arg);
	return -1;
}

static int goal_opt(const struct rs_cmd *cmd, struct ex_opts *eo,
		    enum rs_explore_goal g, const char *arg)
{
	if (eo->goal != RS_EXPLORE_NONE)
		return rs_cmd_usage_error(cmd, "one objective: --maximize, "
			"--minimize or --find, not two.");
	if (g == RS_EXPLORE_FIND_FAIL) {
		if (!strcmp(arg, "gate"))
			g = RS_EXPLORE_FIND_GATE;
		else if (strcmp(arg, "fail"))
			return rs_cmd_usage_error(cmd, "Unknown --find '%s': "
				"fail (a cell that does not pass) or gate (a "
				"cell whose gate missed).", arg);
	} else if (!rs_explore_figure_ok(arg)) {
		return rs_cmd_usage_error(cmd, "%s '%s' is not a figure: "
			"[STEP:]GROUP.KEY, e.g. throughput.MB/s, "
			"latency.typical, counters.NAME.",
			g == RS_EXPLORE_MAXIMIZE ? "--maximize" : "--minimize",
			arg);
	}
	eo->goal = g;
	eo->figure = arg;
	return -1;
}

static int parse(struct ex *x, int argc, char **argv, struct ex_opts *eo)
{
	const struct rs_cmd *cmd = x->cmd;
	struct run_opts *o = &x->ro;
	uint64_t v;
	int c, r;

	o->scn.sets = rs_calloc(argc + 1, sizeof(*o->scn.sets));
	eo->vary = rs_calloc(argc + 1, sizeof(*eo->vary));
	if (!o->scn.sets || !eo->vary)
		return rs_cmd_no_memory(cmd);
	while ((c = getopt_long(argc, argv, ":s:d:nqh", explore_long,
				NULL)) != -1) {
		r = -1;
		switch (c) {
		case 's':
			if (!rs_scn_add_set(cmd, &o->scn, optarg))
				return RS_EXIT_INVALID;
			break;
		case 'V':
			eo->vary[eo->n_vary++] = optarg;
			break;
		case 'X':
			r = goal_opt(cmd, eo, RS_EXPLORE_MAXIMIZE, optarg);
			break;
		case 'N':
			r = goal_opt(cmd, eo, RS_EXPLORE_MINIMIZE, optarg);
			break;
		case 'F':
			r = goal_opt(cmd, eo, RS_EXPLORE_FIND_FAIL, optarg);
			break;
		case 'B':
			r = number_opt(cmd, "--budget-cells", optarg, 1, 100000,
				       &v);
			eo->budget_cells = v;
			break;
		case 'T':
			r = number_opt(cmd, "--budget-time", optarg, 1, 1000000,
				       &v);
			eo->budget_s = v;
			break;
		case 'S':
			if (rs_explore_strategy_parse(optarg, &eo->strategy))
				return rs_cmd_usage_error(cmd, "Unknown "
					"--strategy '%s': grid, bisect or "
					"anneal.", optarg);
			eo->has_strategy = true;
			break;
		case 'r':
			r = number_opt(cmd, "--seed", optarg, 0, UINT64_MAX,
				       &eo->seed);
			eo->has_seed = true;
			break;
		case 'k':
			r = number_opt(cmd, "--knee", optarg, 1, 99, &v);
			eo->knee = v;
			break;
		case 'E':
			r = number_opt(cmd, "--repeat", optarg, 1,
				       RS_EXPLORE_REPEAT_MAX, &v);
			eo->repeat = v;
			break;
		case 'P':
			r = number_opt(cmd, "--jobs", optarg, 1, 256, &v);
			x->jobs = v;
			break;
		case 'j':
			x->json = optarg;
			break;
		case 'O':
			eo->out_dir = optarg;
			break;
		case 'G':
			x->graph_out = optarg;
			break;
		case 'W':
			x->shrink_out = optarg;
			break;
		case 'd':
			o->device = optarg;
			break;
		case 'n':
			o->dry_run = true;
			break;
		case 'D':
			o->deviations_file = optarg;
			break;
		case 'R':
			o->strict = true;
			break;
		case 'Z':
			break; /* handled by rs_softroce_maybe_reexec() */
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
		if (r >= 0)
			return r;
	}
	x->out = x->json && !strcmp(x->json, "-") ? stderr : stdout;
	if (rs_text_opts_init(&o->text, x->out, o->color, o->text.quiet))
		return rs_cmd_usage_error(cmd, "Unknown --color '%s': auto, "
					  "always or never.", o->color);
	if (x->graph_out && strcmp(x->graph_out + strlen(x->graph_out) -
				   (strlen(x->graph_out) < 4 ? 0 : 4), ".svg"))
		return rs_cmd_usage_error(cmd, "--graph-out %s: name a .svg "
					  "file.", x->graph_out);
	if (optind + 1 != argc)
		return rs_cmd_usage_error(cmd, optind >= argc ?
			"No scenario file given." :
			"explore takes one scenario file.");
	rs_cli_registry_init();
	return -1;
}

/* The file's explore: with the command line over it; usage errors. */
static int merge(struct ex *x, const struct ex_opts *eo)
{
	struct rs_explore *e = &x->e;
	char why[512];

	/* The file's section is the scenario's; a copy is changed here. */
	*e = x->s->explore;
	memset(&x->s->explore, 0, sizeof(x->s->explore));
	for (unsigned i = 0; i < eo->n_vary; i++) {
		char *eq = strchr(eo->vary[i], '=');
		struct rs_explore_axis a;
		char near[160];
		int r;

		if (!eq || eq == eo->vary[i])
			return rs_cmd_usage_error(x->cmd, "--vary takes "
				"NAME=RANGE (LO..HI[:pow2|:lin|:step=N], or "
				"V1,V2,...), not '%s'.", eo->vary[i]);
		*eq = '\0';
		if (!rs_explore_is_param(x->s, eo->vary[i])) {
			rs_param_near(x->s, eo->vary[i], true, near,
				      sizeof(near));
			return rs_cmd_usage_error(x->cmd, "--vary %s: not a "
				"param of %s%s", eo->vary[i], x->file, near);
		}
		r = rs_explore_axis_parse(eo->vary[i], eq + 1, &a, why,
					  sizeof(why));
		if (r == -EINVAL)
			return rs_cmd_usage_error(x->cmd, "%s", why);
		if (!r)
			r = rs_explore_add_axis(e, &a);
		if (r == -E2BIG) {
			rs_explore_axis_free(&a);
			return rs_cmd_usage_error(x->cmd, "--vary: at most %u "
				"params.", RS_EXPLORE_AXES_MAX);
		}
		if (r)
			return rs_cmd_no_memory(x->cmd);
	}
	if (eo->goal != RS_EXPLORE_NONE) {
		e->goal = eo->goal;
		rs_free(e->figure);
		e->figure = NULL;
		if (eo->goal == RS_EXPLORE_MAXIMIZE ||
		    eo->goal == RS_EXPLORE_MINIMIZE) {
			e->figure = rs_strdup(eo->figure);
			if (!e->figure)
				return rs_cmd_no_memory(x->cmd);
		}
	}
	if (eo->budget_cells)
		e->budget_cells = eo->budget_cells;
	if (eo->budget_s)
		e->budget_s = eo->budget_s;
	if (eo->has_strategy) {
		e->strategy = eo->strategy;
		e->has_strategy = true;
	}
	if (eo->has_seed) {
		e->seed = eo->seed;
		e->has_seed = true;
	}
	if (eo->knee)
		e->knee_pct = eo->knee;
	if (eo->repeat)
		e->repeat = eo->repeat;
	if (!e->n_axes)
		return rs_cmd_usage_error(x->cmd, "nothing to vary: --vary "
			"NAME=RANGE, or explore: vary: in %s.", x->file);
	if (e->goal == RS_EXPLORE_NONE)
		return rs_cmd_usage_error(x->cmd, "no objective: --maximize "
			"FIG, --minimize FIG or --find fail|gate (or explore: "
			"in %s).", x->file);
	for (unsigned a = 0; a < e->n_axes; a++)
		for (unsigned i = 0; i < x->ro.scn.n_sets; i++)
			if (!strcmp(x->ro.scn.sets[i].name, e->axes[a].name))
				return rs_cmd_usage_error(x->cmd, "%s is both "
					"varied and --set: one or the other.",
					e->axes[a].name);
	/* A search is repeatable by its seed: one is always said. */
	if (!e->has_seed)
		e->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	if (!e->budget_cells)
		e->budget_cells = BUDGET_CELLS_DEFAULT;
	if (e->figure) {
		const char *f = e->figure, *colon = strchr(f, ':'), *dot;

		if (colon) {
			snprintf(x->fig_step, sizeof(x->fig_step), "%.*s",
				 (int)(colon - f), f);
			f = colon + 1;
		}
		dot = strchr(f, '.');
		snprintf(x->fig_group, sizeof(x->fig_group), "%.*s",
			 (int)(dot - f), f);
		snprintf(x->fig_key, sizeof(x->fig_key), "%s", dot + 1);
	}
	return -1;
}

static const struct rs_param *param_of(const struct ex *x, const char *name)
{
	for (unsigned i = 0; i < x->s->n_params; i++)
		if (!strcmp(x->s->params[i].name, name))
			return &x->s->params[i];
	return NULL;
}

const char *rs_ex_value(const struct ex *x, const struct rs_xpoint *p,
			unsigned a, char *buf, size_t len)
{
	const struct rs_explore_axis *ax = &x->e.axes[a];

	if (p->v[a] == RS_XDEFAULT) {
		const struct rs_param *pm = param_of(x, ax->name);

		return pm && pm->value ? pm->value : "";
	}
	if (!ax->numeric)
		return ax->values[p->v[a]];
	snprintf(buf, len, "%lld", (long long)p->v[a]);
	return buf;
}

static void point_name(const struct ex *x, const struct rs_xpoint *p,
		       char *name, size_t size)
{
	size_t len = 0;
	char buf[32];

	name[0] = '\0';
	for (unsigned a = 0; a < x->e.n_axes && len < size; a++)
		len += snprintf(name + len, size - len, "%s%s=%s", a ? "," : "",
				x->e.axes[a].name,
				rs_ex_value(x, p, a, buf, sizeof(buf)));
}

static void cell_path(const struct ex *x, unsigned i, const char *what,
		      char *buf, size_t size)
{
	snprintf(buf, size, "%s/%03u.%s", x->dir, i + 1, what);
}

static void repro_error(void *ctx, const struct rs_loc *loc, const char *msg)
{
	struct rs_val *e = rs_val_push_obj(ctx);

	rs_val_put_loc(e, loc);
	rs_val_put_str(e, "message", msg);
}

/* In the child: run cell @i (or, with @repro, that file alone). */
static int child_run(struct ex *x, unsigned i, const char *repro,
		     struct run_opts *co, struct rs_results *cr)
{
	struct xcell *c = &x->cells[i];
	unsigned n_sets = x->ro.scn.n_sets;
	struct rs_set *sets = rs_calloc(n_sets + x->e.n_axes + 1,
					sizeof(*sets));
	struct rs_val *errors = rs_val_arr();
	struct rs_scenario *cs = NULL;
	char (*bufs)[32] = rs_calloc(x->e.n_axes + 1, sizeof(*bufs));
	struct rs_cell cell = { 0 };
	int ret;

	if (!sets || !errors || !bufs)
		return RS_EXIT_CANTRUN;
	if (repro) {
		struct rs_diag d;
		int r;

		/* Its errors in its record too, to compare with the cell's. */
		rs_diag_init(&d, stderr);
		d.sink = repro_error;
		d.sink_ctx = errors;
		r = rs_scenario_load(repro, NULL, 0, &d, &cs);
		if (!r)
			ret = rs_run_one(x->cmd, cs, repro, co, NULL, cr);
		else if (r == -EINVAL)
			ret = rs_run_invalid(x->cmd, x->s, repro, co, NULL,
					     errors, cr);
		else
			ret = RS_EXIT_CANTRUN;
		rs_scenario_free(cs);
		return ret;
	}
	memcpy(sets, x->ro.scn.sets, n_sets * sizeof(*sets));
	/* A default too, so that the record's params name every axis. */
	for (unsigned a = 0; a < x->e.n_axes; a++) {
		sets[n_sets].name = x->e.axes[a].name;
		sets[n_sets++].value = rs_ex_value(x, &c->p, a, bufs[a],
						   sizeof(bufs[a]));
	}
	snprintf(cell.name, sizeof(cell.name), "%s", c->name);
	/* A repeat's record is its point's, as a matrix cell's name is its
	 * params: the #N is the search's table and order only. */
	if (!strcmp(c->phase, "repeat") && strrchr(cell.name, '#'))
		*strrchr(cell.name, '#') = '\0';
	cell.sets = sets + x->ro.scn.n_sets;
	cell.n_sets = n_sets - x->ro.scn.n_sets;
	return rs_run_cell(x->cmd, x->s, x->file, sets, n_sets, co, &cell,
			   errors, cr);
}

/* In cell @i's process (cells.c made its stdout DIR/N.out and its
 * stderr DIR/N.err): its record to DIR/N.json. */
struct child {
	struct ex *x;
	unsigned i;
	const char *repro;
};

static int child_main(void *ctx)
{
	struct child *ch = ctx;
	struct ex *x = ch->x;
	char json[PATH_MAX + 16];
	struct run_opts co = x->ro;
	struct rs_results *cr;
	int ret;

	cell_path(x, ch->i, "json", json, sizeof(json));
	co.json = json;
	co.out = stdout;
	co.err = stderr;
	co.text.progress = false;
	co.text.color = false;
	co.text.quiet = false;
	cr = rs_results_new(json, NULL);
	ret = cr ? child_run(x, ch->i, ch->repro, &co, cr) : RS_EXIT_CANTRUN;
	if (cr && rs_results_write(cr, ret) && ret == RS_EXIT_PASSED)
		ret = RS_EXIT_CANTRUN;
	return ret;
}

/* Start cell @i in a process of its own.  The pid, or -errno. */
static pid_t spawn(struct ex *x, unsigned i, const char *repro)
{
	struct child ch = { .x = x, .i = i, .repro = repro };
	char out[PATH_MAX + 16], err[PATH_MAX + 16];

	cell_path(x, i, "out", out, sizeof(out));
	cell_path(x, i, "err", err, sizeof(err));
	return rs_cells_spawn(out, err, child_main, &ch);
}

/* @text with every run of digits as '#' and the scenario's path as
 * FILE: what stays of a message from one cell to the next. */
static void mask(const char *text, const char *file, char *out, size_t size)
{
	size_t n = 0, flen = file ? strlen(file) : 0;

	for (const char *p = text; *p && n + 1 < size;) {
		if (flen && !strncmp(p, file, flen)) {
			n += snprintf(out + n, size - n, "FILE");
			p += flen;
			continue;
		}
		if (*p >= '0' && *p <= '9') {
			out[n++] = '#';
			while (*p >= '0' && *p <= '9')
				p++;
			continue;
		}
		out[n++] = *p++;
	}
	out[n < size ? n : size - 1] = '\0';
}

static const char *str_of(const struct rs_val *o, const char *key)
{
	const struct rs_val *v = rs_val_get(o, key);

	return rs_val_type_of(v) == RS_VAL_STR ? rs_val_str_of(v) : NULL;
}

static const struct rs_val *arr_of(const struct rs_val *o, const char *key)
{
	const struct rs_val *v = rs_val_get(o, key);

	return rs_val_type_of(v) == RS_VAL_ARR ? v : NULL;
}

/* A gate in @gates that was judged and missed: its figure. */
static const char *missed_gate(const struct rs_val *gates)
{
	for (size_t i = 0; i < rs_val_len(gates); i++) {
		const struct rs_val *g = rs_val_at(gates, i);
		const struct rs_val *p = rs_val_get(g, "passed");

		if (p && !rs_val_bool_of(p))
			return str_of(g, "figure");
	}
	return NULL;
}

/* How cell @c failed, in words that do not change with its values:
 * the verdict, where (the first object or step that failed, or the
 * first error's place), the message with its numbers masked. */
static void signature(struct ex *x, struct xcell *c)
{
	const struct rs_val *rec = c->rec, *steps, *objs, *errs;
	const char *verdict = rec ? str_of(rec, "verdict") : NULL;
	const char *where = NULL, *msg = NULL, *gate = NULL;
	char what[160] = "", masked[256] = "", sig[320];
	const char *file = x->file;

	if (rec && str_of(rs_val_get(rec, "scenario"), "file"))
		file = str_of(rs_val_get(rec, "scenario"), "file");
	if (!verdict)
		verdict = c->code >= 128 ? "killed" : rs_exit_verdict(c->code);
	objs = rec ? arr_of(rec, "objects") : NULL;
	for (size_t i = 0; i < rs_val_len(objs); i++) {
		const struct rs_val *o = rs_val_at(objs, i);
		const char *out = str_of(o, "outcome");

		if (out && !strcmp(out, "failed")) {
			snprintf(what, sizeof(what), "object '%s'",
				 str_of(o, "id") ? str_of(o, "id") : "?");
			where = what;
			break;
		}
	}
	steps = rec ? arr_of(rec, "steps") : NULL;
	for (size_t i = 0; !where && i < rs_val_len(steps); i++) {
		const struct rs_val *st = rs_val_at(steps, i);
		const char *out = str_of(st, "outcome");

		gate = missed_gate(arr_of(st, "gates"));
		if ((out && (!strcmp(out, "failed") ||
			     !strcmp(out, "could not run"))) || gate) {
			snprintf(what, sizeof(what), "step '%s'",
				 str_of(st, "id") ? str_of(st, "id") :
				 str_of(st, "no") ? str_of(st, "no") : "?");
			where = what;
			msg = str_of(st, "message");
			break;
		}
	}
	if (!gate && rec)
		gate = missed_gate(arr_of(rec, "gates"));
	if (!msg && rec)
		msg = str_of(rec, "message");
	errs = rec ? arr_of(rec, "errors") : NULL;
	if (!msg && rs_val_len(errs))
		msg = str_of(rs_val_at(errs, 0), "message");
	if (msg)
		mask(msg, file, masked, sizeof(masked));
	if (c->code >= 128)
		snprintf(masked, sizeof(masked), "signal %d", c->code - 128);
	/* A gate's name is the record's, of any length: a longer
	 * signature is cut, which groups cells more coarsely, nothing
	 * worse.  (The length is read so that a Debug build's
	 * -Wformat-truncation sees the cut is meant.) */
	if (snprintf(sig, sizeof(sig), "%s%s%s%s%s%s%s", verdict,
		     where ? ": " : "", where ? where : "",
		     gate ? ": gate " : "", gate ? gate : "",
		     masked[0] ? ": " : "", masked) < 0)
		sig[0] = '\0';
	c->sig = rs_strdup(sig);
	c->r.fails = x->e.goal == RS_EXPLORE_FIND_GATE ? gate != NULL :
		     c->code != RS_EXIT_PASSED && c->code != RS_EXIT_SKIPPED;
}

static bool number_of(const struct rs_val *v, double *ret)
{
	enum rs_val_type t = rs_val_type_of(v);

	if (!v || (t != RS_VAL_DOUBLE && t != RS_VAL_INT && t != RS_VAL_UINT))
		return false;
	*ret = rs_val_double_of(v);
	return true;
}

/* counters.[WHERE.]NAME in @ctrs ({WHERE: {NAME: n}}): summed over the
 * places that have it, without WHERE. */
static bool counter_of(const struct ex *x, const struct rs_val *ctrs,
		       double *ret)
{
	const char *dot = strrchr(x->fig_key, '.');
	const char *name = dot ? dot + 1 : x->fig_key;
	bool any = false;
	double sum = 0;

	if (rs_val_type_of(ctrs) != RS_VAL_OBJ)
		return false;
	rs_val_foreach(ctrs, per) {
		const char *where = rs_val_key(per);
		double d;

		if (dot && (strlen(where) != (size_t)(dot - x->fig_key) ||
			    strncmp(where, x->fig_key, dot - x->fig_key)))
			continue;
		if (number_of(rs_val_get(per, name), &d)) {
			sum += d;
			any = true;
		}
	}
	*ret = sum;
	return any;
}

/* The objective's figure in @rec: the named step's, or the best of the
 * steps that have it (a measurement repeated in a few steps is judged
 * by its best, as perftest reports its peak: what a busy host took
 * from one of them is not the device's); a counter: the run's totals
 * when no step has it. */
static bool figure_of(const struct ex *x, const struct rs_val *rec,
		      double *ret)
{
	const struct rs_val *steps = arr_of(rec, "steps");
	bool counters = !strcmp(x->fig_group, "counters"), any = false;
	double d;

	for (size_t i = 0; i < rs_val_len(steps); i++) {
		const struct rs_val *st = rs_val_at(steps, i);
		const struct rs_val *g;
		const char *id = str_of(st, "id");

		if (x->fig_step[0] && (!id || strcmp(id, x->fig_step)))
			continue;
		g = rs_val_get(rs_val_get(st, "figures"), x->fig_group);
		if (!g)
			continue;
		if (!(counters ? counter_of(x, g, &d) :
		      number_of(rs_val_get(g, x->fig_key), &d)))
			continue;
		if (!any || (x->e.goal == RS_EXPLORE_MINIMIZE ? d < *ret :
			     d > *ret))
			*ret = d;
		any = true;
	}
	if (any)
		return true;
	return counters && !x->fig_step[0] &&
	       counter_of(x, rs_val_get(rec, "counters"), ret);
}

/* The record at @path as a tree (json-c reads it); NULL: none. */
static struct rs_val *read_record(const char *path)
{
	struct json_object *j = json_object_from_file(path);
	struct rs_val *v = j ? rs_val_from_json(j) : NULL;

	json_object_put(j);
	return v;
}

/* A finished cell: its record read, what it gave. */
static void finish(struct ex *x, unsigned i, int code, double t0)
{
	struct xcell *c = &x->cells[i];
	char path[PATH_MAX + 16];

	c->code = code;
	c->ms = now_ms() - t0;
	cell_path(x, i, "json", path, sizeof(path));
	c->rec = read_record(path);
	/* A cell a signal of ours ended did not run to a verdict. */
	c->r.ran = !(code >= 128 && rs_interrupted);
	c->r.cell = i + 1;
	signature(x, c);
	c->r.sig = c->sig ? c->sig : "";
	if (code == RS_EXIT_PASSED && c->rec && !x->ro.dry_run)
		c->r.has_value = figure_of(x, c->rec, &c->r.value);
}

static void progress(struct ex *x, unsigned running)
{
	char text[256];
	size_t len;

	if (!x->progress)
		return;
	len = snprintf(text, sizeof(text), "explore: %u cells, %u running, "
		       "%.0f s", x->n, running, (now_ms() - x->t0_ms) / 1e3);
	if (x->x.has_best && len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, ", best %g (cell %u)",
			 x->x.best_r.value, x->x.best_r.cell);
	else if (x->x.found && len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, ", failing: cell %u",
			 x->x.failing_r.cell);
	rs_term_line_draw(&x->line, text, false);
}

/* Why no more cells may start: NULL while they may. */
static const char *spent(const struct ex *x)
{
	if (rs_interrupted)
		return "interrupted";
	if (x->used >= x->limit)
		return "budget of cells spent";
	if (x->budget_s && now_ms() - x->t0_ms >= x->budget_s * 1e3)
		return "budget of time spent";
	return NULL;
}

static int grow(struct ex *x, unsigned more)
{
	struct xcell *c;

	if (x->n + more <= x->cap)
		return 0;
	c = rs_reallocarray(x->cells, x->n + more + 16, sizeof(*c));
	if (!c)
		return -ENOMEM;
	x->cells = c;
	x->cap = x->n + more + 16;
	return 0;
}

/* Run cells @first.. @first+@n-1, --jobs at once; the ones past the
 * budget are dropped (x->n shrinks back).  0, -ENOSPC, -EINTR. */
static int run_cells(struct ex *x, unsigned first, unsigned n,
		     const char *repro)
{
	unsigned next = first, running = 0, end = first + n;
	pid_t *pids = rs_calloc(n + 1, sizeof(*pids));
	double *t0 = rs_calloc(n + 1, sizeof(*t0));
	bool forwarded = false;
	int r = 0;

	if (!pids || !t0) {
		rs_free(pids);
		rs_free(t0);
		return -ENOMEM;
	}
	for (;;) {
		int code;
		pid_t pid;

		while (running < x->jobs && next < end && !r) {
			const char *why = repro ? NULL : spent(x);

			if (why) {
				x->stopped = why;
				r = rs_interrupted ? -EINTR : -ENOSPC;
				break;
			}
			t0[next - first] = now_ms();
			pid = spawn(x, next, repro);
			if (pid < 0) {
				r = pid;
				break;
			}
			pids[next - first] = pid;
			x->used += !repro;
			running++;
			next++;
		}
		if (!running)
			break;
		progress(x, running);
		if (rs_interrupted && !forwarded) {
			rs_cells_kill(pids, next - first, rs_interrupted);
			forwarded = true;
		}
		/* The progress line's seconds move while a cell runs. */
		pid = rs_cells_wait(x->progress ? 1000 : -1, &code);
		if (!pid)
			continue;
		if (pid < 0)
			break;
		for (unsigned i = 0; i < next - first; i++)
			if (pids[i] == pid) {
				pids[i] = 0;
				finish(x, first + i, code, t0[i]);
				running--;
			}
	}
	/* Those never started are no cells. */
	x->n = next;
	rs_free(pids);
	rs_free(t0);
	if (!r && rs_interrupted) {
		x->stopped = "interrupted";
		r = -EINTR;
	}
	return r;
}

/* The search's evaluator (explore_search.h): points run before are
 * answered from their cell; the others become cells. */
static int eval(void *ctx, const char *phase, const struct rs_xpoint *pts,
		unsigned n, struct rs_xresult *ret)
{
	struct ex *x = ctx;
	unsigned first = x->n, *which;
	int r;

	which = rs_calloc(n + 1, sizeof(*which));
	if (!which || grow(x, n)) {
		rs_free(which);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		char name[sizeof(x->cells[0].name)];
		unsigned j;

		point_name(x, &pts[i], name, sizeof(name));
		for (j = 0; j < x->n && strcmp(x->cells[j].name, name); j++)
			;
		/* Run again (repeat: the knee's deciding cells): a cell
		 * of its own, its name numbered. */
		if (!strcmp(phase, "repeat")) {
			unsigned k = 1;

			for (j = 0; j < x->n; j++)
				k += !memcmp(&x->cells[j].p, &pts[i],
					     sizeof(pts[i]));
			snprintf(name + strlen(name), sizeof(name) -
				 strlen(name), "#%u", k);
			j = x->n;
		}
		if (j == x->n) {
			x->cells[j] = (struct xcell){ .p = pts[i],
						      .phase = phase };
			memcpy(x->cells[j].name, name, sizeof(name));
			x->n++;
		}
		which[i] = j;
	}
	r = run_cells(x, first, x->n - first, NULL);
	for (unsigned i = 0; i < n; i++)
		if (which[i] < x->n)
			ret[i] = x->cells[which[i]].r;
	rs_free(which);
	return r;
}

/* The params' own values as a point: what shrinking moves towards. */
static void defaults(const struct ex *x, struct rs_xpoint *ret)
{
	for (unsigned a = 0; a < RS_EXPLORE_AXES_MAX; a++) {
		const struct rs_explore_axis *ax;
		const struct rs_param *pm;
		uint64_t v;

		ret->v[a] = RS_XDEFAULT;
		if (a >= x->e.n_axes)
			continue;
		ax = &x->e.axes[a];
		pm = param_of(x, ax->name);
		if (!pm || !pm->value)
			continue;
		if (ax->numeric && !rs_explore_number(pm->value, &v) &&
		    v <= INT64_MAX)
			ret->v[a] = v;
		for (unsigned i = 0; !ax->numeric && i < ax->n; i++)
			if (!strcmp(ax->values[i], pm->value))
				ret->v[a] = i;
	}
}

/* The command line, quoted where it needs to be, for the reproducer. */
static void command_line(const struct ex *x, char *buf, size_t size)
{
	size_t len = snprintf(buf, size, "rdmascn");

	for (int i = 0; i < x->argc && len < size; i++) {
		bool plain = x->argv[i][0] && !strpbrk(x->argv[i], " \t'\"$\\");

		len += snprintf(buf + len, size - len, plain ? " %s" : " '%s'",
				x->argv[i]);
	}
}

/* Shrink the failing cell, write the reproducer and run it alone. */
static int shrink(struct ex *x)
{
	struct rs_xpoint dflt;
	struct rs_xresult rr;
	const char *names[RS_EXPLORE_AXES_MAX + 64];
	const char *values[RS_EXPLORE_AXES_MAX + 64];
	char bufs[RS_EXPLORE_AXES_MAX][32], why[512], cmdline[2048];
	struct rs_xpoint from = x->x.failing;
	const char *sig = x->cells[x->x.failing_r.cell - 1].r.sig;
	char *comment = NULL;
	unsigned n = 0, before = x->n;
	int r;

	defaults(x, &dflt);
	x->shrink_from = x->x.failing_r.cell;
	/* From the boundary's failing side, when that cell failed the same
	 * way: the bisection towards the default starts nearer. */
	for (unsigned a = 0; a < x->e.n_axes; a++) {
		struct rs_xpoint p = from;
		char name[sizeof(x->cells[0].name)];

		if (!x->x.has_boundary[a])
			continue;
		p.v[a] = x->x.fail[a];
		point_name(x, &p, name, sizeof(name));
		for (unsigned j = 0; j < x->n; j++)
			if (!strcmp(x->cells[j].name, name) &&
			    x->cells[j].r.fails &&
			    !strcmp(x->cells[j].r.sig, sig)) {
				from = p;
				x->shrink_from = j + 1;
			}
	}
	/* Shrinking has a budget of its own: as large, and room for a
	 * bisection down a 64-bit range besides. */
	x->limit = x->used + (x->e.budget_cells > 64 ? x->e.budget_cells :
			      64);
	r = rs_xshrink(&x->e, eval, x, &from, sig, &dflt, &x->small, &rr);
	x->shrink_cells = x->n - before;
	if (!rr.ran)
		return r;
	x->shrunk = true;
	x->small_cell = rr.cell;
	if (!x->shrink_out || r == -EINTR)
		return r;
	/* --set's values and the shrunk ones: the file's defaults now. */
	for (unsigned i = 0; i < x->ro.scn.n_sets && n < RS_N(names); i++) {
		names[n] = x->ro.scn.sets[i].name;
		values[n++] = x->ro.scn.sets[i].value;
	}
	for (unsigned a = 0; a < x->e.n_axes && n < RS_N(names); a++) {
		if (x->small.v[a] == RS_XDEFAULT)
			continue;
		names[n] = x->e.axes[a].name;
		values[n++] = rs_ex_value(x, &x->small, a, bufs[a],
					  sizeof(bufs[a]));
	}
	command_line(x, cmdline, sizeof(cmdline));
	if (asprintf(&comment,
		     "Shrunk by rdmascn explore from %s: the smallest failing "
		     "case it found.\n"
		     "  %s\n"
		     "  objective: find %s; strategy %s, seed %llu; %u cells "
		     "searched, failing cell %u,\n"
		     "  then %u cells shrinking it (ddmin over the params, "
		     "bisection towards the defaults).\n"
		     "  Fails as: %s\n"
		     "  Run it alone: rdmascn run THIS_FILE\n",
		     x->file, cmdline, rs_explore_goal_name(x->e.goal),
		     rs_explore_strategy_name(x->e.strategy),
		     (unsigned long long)x->e.seed, before,
		     x->shrink_from, x->shrink_cells, x->small_cell ?
		     x->cells[x->small_cell - 1].r.sig : "") < 0)
		return -ENOMEM;
	r = rs_ex_repro_write(x->s, x->file, names, values, n, comment,
			      x->shrink_out, why, sizeof(why));
	free(comment);
	if (r) {
		fprintf(stderr, "rdmascn explore: --shrink-out %s: %s\n",
			x->shrink_out, why);
		return r;
	}
	x->repro_written = true;
	/* The reproducer alone, with nothing set: does it fail the same
	 * way?  A cell of its own, outside the budget. */
	if (grow(x, 1))
		return -ENOMEM;
	x->cells[x->n] = (struct xcell){ .phase = "check" };
	snprintf(x->cells[x->n].name, sizeof(x->cells[x->n].name), "%s",
		 x->shrink_out);
	for (unsigned a = 0; a < RS_EXPLORE_AXES_MAX; a++)
		x->cells[x->n].p.v[a] = RS_XDEFAULT;
	x->n++;
	r = run_cells(x, x->n - 1, 1, x->shrink_out);
	if (x->n && !strcmp(x->cells[x->n - 1].phase, "check"))
		x->repro_cell = x->n;
	if (x->repro_cell && x->cells[x->n - 1].r.ran)
		x->repro_same = x->cells[x->n - 1].r.fails &&
			!strcmp(x->cells[x->n - 1].r.sig,
				x->cells[x->small_cell - 1].r.sig);
	return r;
}

static int run_search(struct ex *x)
{
	int r;

	x->x = (struct rs_xsearch){
		.e = &x->e, .eval = eval, .ctx = x, .batch = x->jobs,
		.budget = x->e.budget_cells,
	};
	x->limit = x->e.budget_cells;
	r = rs_xsearch_run(&x->x);
	if (!x->stopped)
		x->stopped = r ? "stopped" : "done";
	if (r && r != -ENOSPC)
		return r;
	if ((x->e.goal == RS_EXPLORE_FIND_FAIL ||
	     x->e.goal == RS_EXPLORE_FIND_GATE) && x->x.found &&
	    !rs_interrupted && !(x->e.budget_s &&
	    now_ms() - x->t0_ms >= x->e.budget_s * 1e3))
		r = shrink(x);
	return r == -ENOSPC ? 0 : r;
}

static int make_dir(struct ex *x, const char *out_dir)
{
	if (out_dir) {
		if (mkdir(out_dir, 0755) && errno != EEXIST) {
			fprintf(stderr, "rdmascn explore: --out-dir %s: %s\n",
				out_dir, strerror(errno));
			return RS_EXIT_CANTRUN;
		}
		snprintf(x->dir, sizeof(x->dir), "%s", out_dir);
		x->keep = true;
		return -1;
	}
	snprintf(x->dir, sizeof(x->dir), "%s/rdmascn-explore.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(x->dir)) {
		fprintf(stderr, "rdmascn explore: %s: %s\n", x->dir,
			strerror(errno));
		return RS_EXIT_CANTRUN;
	}
	return -1;
}

static void cleanup_dir(struct ex *x)
{
	static const char *const what[] = { "out", "err", "json" };
	char path[PATH_MAX + 16];

	if (x->keep || !x->dir[0])
		return;
	for (unsigned i = 0; i < x->n; i++)
		for (size_t w = 0; w < RS_N(what); w++) {
			cell_path(x, i, what[w], path, sizeof(path));
			unlink(path);
		}
	rmdir(x->dir);
}

int rs_cmd_explore(const struct rs_cmd *cmd, int argc, char **argv)
{
	struct ex x = { .cmd = cmd, .jobs = 1, .argc = argc, .argv = argv };
	struct ex_opts eo = { 0 };
	struct rs_diag d;
	int ret, r;

	ret = rs_softroce_maybe_reexec(argc, argv);
	if (ret)
		return ret;
	ret = parse(&x, argc, argv, &eo);
	if (ret >= 0)
		goto out;
	x.file = argv[optind];
	ret = rs_scn_load(x.file, &x.ro.scn, &x.s);
	if (ret != RS_EXIT_PASSED)
		goto out;
	ret = merge(&x, &eo);
	if (ret >= 0)
		goto out;
	rs_diag_init(&d, stderr);
	if (x.ro.deviations_file) {
		r = rs_deviations_load(&x.ro.deviations, x.ro.deviations_file,
				       &d);
		if (r) {
			ret = r == -ENOMEM ? rs_cmd_no_memory(cmd) :
			      RS_EXIT_INVALID;
			goto out;
		}
	}
	ret = make_dir(&x, eo.out_dir);
	if (ret >= 0)
		goto out;
	x.ro.err = stderr;
	x.ro.out = stdout;
	x.progress = x.ro.text.progress;
	x.line.f = x.out;
	fprintf(x.out, "explore: %s: %s%s%s, strategy %s, seed %llu, budget "
		"%lu cells", x.file, rs_explore_goal_name(x.e.goal),
		x.e.figure ? " " : "", x.e.figure ? x.e.figure : "",
		rs_explore_strategy_name(x.e.strategy),
		(unsigned long long)x.e.seed, x.e.budget_cells);
	if (x.e.budget_s)
		fprintf(x.out, ", %.0f s", x.e.budget_s);
	if (x.e.repeat > 1)
		fprintf(x.out, ", repeat %u", x.e.repeat);
	fputs("\n", x.out);
	fflush(x.out);
	rs_signals_install();
	/* Without the self-pipe the wait polls: slower, not wrong. */
	(void)rs_cells_open();
	x.t0_ms = now_ms();
	x.budget_s = x.e.budget_s;
	r = run_search(&x);
	rs_cells_close();
	rs_term_line_clear(&x.line);
	x.elapsed_s = (now_ms() - x.t0_ms) / 1e3;
	ret = r == -ENOMEM ? rs_cmd_no_memory(cmd) :
	      r && r != -EINTR ? RS_EXIT_CANTRUN : RS_EXIT_PASSED;
	/* maximize, minimize: no cell gave the figure, nothing was found
	 * out: the search could not run. */
	if (!ret && !rs_interrupted && x.e.figure && !x.x.has_best &&
	    !x.ro.dry_run)
		ret = RS_EXIT_CANTRUN;
	if (rs_interrupted)
		ret = 128 + rs_interrupted;
	rs_ex_table(&x);
	if (x.graph_out && rs_ex_graph(&x) && ret == RS_EXIT_PASSED)
		ret = RS_EXIT_CANTRUN;
	if (x.json && rs_ex_json(&x, ret) && ret == RS_EXIT_PASSED)
		ret = RS_EXIT_CANTRUN;
	if (x.shrink_out && x.e.goal >= RS_EXPLORE_FIND_FAIL && x.x.found &&
	    !x.repro_written && ret == RS_EXIT_PASSED)
		ret = RS_EXIT_CANTRUN;
	fprintf(x.out, "explore: %s (exit %d)\n", ret == RS_EXIT_PASSED ?
		"done" : ret >= 128 ? "interrupted" : rs_exit_verdict(ret),
		ret);
out:
	cleanup_dir(&x);
	for (unsigned i = 0; i < x.n; i++) {
		rs_val_free(x.cells[i].rec);
		rs_free(x.cells[i].sig);
	}
	rs_free(x.cells);
	rs_explore_free(&x.e);
	rs_scenario_free(x.s);
	rs_free(x.ro.scn.sets);
	rs_free(eo.vary);
	rs_deviations_free(&x.ro.deviations);
	return ret;
}
