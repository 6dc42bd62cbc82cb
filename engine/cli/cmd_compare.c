// SPDX-License-Identifier: MIT
/*
 * rdmascn compare OLD.json NEW.json: two run records' figures side by
 * side, step by step (matched by id, else by number), each with NEW/OLD
 * and which way is better; exit 1 when a judged figure got worse by more
 * than its tolerance.  Judged are a step's headline figures (gate.h), or
 * those --figure names; --figure also leaves the others out.  The rows
 * are built first, then printed as text or JSON.  The ports' counters
 * (figures.counters, and the run's at the root) come after, in a table
 * of their own: informational, each that moved on either side with
 * both values and the difference, judged only when --figure names it
 * (counters.NAME, or counters.DEV/PORT.NAME): more is worse.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cli.h"
#include "gate.h"
#include "record_file.h"
#include "value.h"

#define DEFAULT_TOLERANCE 5.0

/* A tolerance for the figures a glob names: -t latency.*=3. */
struct tol {
	const char *glob;
	double pct;
};

/* Which figures count, and how much each may get worse. */
struct focus {
	double tol;              /* -t PCT: every figure without its own */
	struct tol *tols;        /* -t GLOB=PCT, in the order given */
	unsigned n_tols;
	const char **globs;      /* --figure GLOB; none: the headline */
	unsigned n_globs;
};

static bool named(const char *glob, const struct rs_figure_def *f)
{
	return !fnmatch(glob, f->name, 0);
}

/* Counter @name at @key: "counters.rxe_a/1.sent_pkts", or the same
 * name on every port, "counters.sent_pkts" (as a gate names it). */
static bool counter_named(const char *glob, const char *key,
			  const char *name)
{
	char full[256], any[160];

	snprintf(full, sizeof(full), "counters.%s.%s", key, name);
	snprintf(any, sizeof(any), "counters.%s", name);
	return !fnmatch(glob, full, 0) || !fnmatch(glob, any, 0);
}

/* Shown and judged: --figure names it, or (none given) any figure is
 * shown and a headline one judged. */
static bool shown(const struct focus *fo, const struct rs_figure_def *f)
{
	for (unsigned i = 0; i < fo->n_globs; i++)
		if (named(fo->globs[i], f))
			return true;
	return !fo->n_globs;
}

static bool judged(const struct focus *fo, const struct rs_figure_def *f)
{
	return fo->n_globs ? shown(fo, f) : f->headline;
}

/* The last -t GLOB=PCT that names @f, else -t PCT: a general glob then
 * a narrower one reads as the narrower winning. */
static double tolerance(const struct focus *fo, const struct rs_figure_def *f)
{
	for (unsigned i = fo->n_tols; i-- > 0;)
		if (named(fo->tols[i].glob, f))
			return fo->tols[i].pct;
	return fo->tol;
}

/* A run record, or NULL with the reason said on stderr. */
static struct json_object *load_record(const char *path)
{
	struct json_object *rec = rs_cli_read_json("compare", path), *steps;

	if (!rec)
		return NULL;
	if (!json_object_is_type(rec, json_type_object) ||
	    !json_object_object_get_ex(rec, "steps", &steps) ||
	    !json_object_is_type(steps, json_type_array)) {
		fprintf(stderr, "rdmascn: compare: %s: not a run record (no "
			"\"steps\" list; see rdmascn run --json)\n", path);
		json_object_put(rec);
		return NULL;
	}
	return rec;
}

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* The step of @rec that @s of the other record is: same id, or (neither
 * has one) same number. */
static struct json_object *match(struct json_object *rec, struct json_object *s)
{
	struct json_object *steps;
	const char *id = str_of(s, "id"), *no = str_of(s, "no");

	json_object_object_get_ex(rec, "steps", &steps);
	for (size_t i = 0; i < json_object_array_length(steps); i++) {
		struct json_object *t = json_object_array_get_idx(steps, i);
		const char *tid = str_of(t, "id"), *tno = str_of(t, "no");

		if (id ? tid && !strcmp(id, tid) :
		    !tid && no && tno && !strcmp(no, tno))
			return t;
	}
	return NULL;
}

static bool figure(struct json_object *step, const struct rs_figure_def *f,
		   double *ret)
{
	struct json_object *figs, *g, *v;

	if (!json_object_object_get_ex(step, "figures", &figs) ||
	    !json_object_object_get_ex(figs, f->group, &g) ||
	    !json_object_object_get_ex(g, f->key, &v) ||
	    !(json_object_is_type(v, json_type_double) ||
	      json_object_is_type(v, json_type_int)))
		return false;
	*ret = json_object_get_double(v);
	return true;
}

/* Step @s's figures.counters (or a record's root counters), or NULL. */
static struct json_object *counters_of(struct json_object *s, bool root)
{
	struct json_object *figs = s, *c;

	if (!root && !json_object_object_get_ex(s, "figures", &figs))
		return NULL;
	if (!json_object_object_get_ex(figs, "counters", &c) ||
	    !json_object_is_type(c, json_type_object))
		return NULL;
	return c;
}

static bool counter(struct json_object *ctrs, const char *key,
		    const char *name, uint64_t *ret)
{
	struct json_object *k, *v;

	if (!ctrs || !json_object_object_get_ex(ctrs, key, &k) ||
	    !json_object_object_get_ex(k, name, &v) ||
	    !json_object_is_type(v, json_type_int))
		return false;
	*ret = json_object_get_uint64(v);
	return true;
}

/* Counter @name at @key of step @step: a row when it moved on either
 * side (or --figure names it); returns 1 when it regressed. */
static unsigned counter_row(const char *step, const char *key,
			    const char *name, struct json_object *oc,
			    struct json_object *nc, const struct focus *fo,
			    struct rs_val *rows)
{
	uint64_t o = 0, n = 0;
	bool ho = counter(oc, key, name, &o), hn = counter(nc, key, name, &n);
	bool judge = false, reg;
	double tol = fo->tol, worse;
	struct rs_val *r;

	for (unsigned i = 0; i < fo->n_globs; i++)
		judge |= counter_named(fo->globs[i], key, name);
	for (unsigned i = fo->n_tols; i-- > 0;)
		if (counter_named(fo->tols[i].glob, key, name)) {
			tol = fo->tols[i].pct;
			break;
		}
	/* --figure leaves out what it does not name, as for figures. */
	if (fo->n_globs ? !judge : !o && !n)
		return 0;
	r = rs_val_push_obj(rows);
	rs_val_put_str(r, "step", step);
	rs_val_put_str(r, "at", key);
	rs_val_put_str(r, "counter", name);
	if (ho)
		rs_val_put_u64(r, "old", o);
	if (hn)
		rs_val_put_u64(r, "new", n);
	if (ho && hn)
		rs_val_put_i64(r, "difference", (int64_t)(n - o));
	rs_val_put_bool(r, "judged", judge);
	if (!judge)
		return 0;
	rs_val_put_double(r, "tolerance_pct", tol);
	/* Not in both: not measured, nothing to judge. */
	if (!ho || !hn) {
		rs_val_put_bool(r, "regressed", false);
		return 0;
	}
	/* From 0, any count is worse than any tolerance. */
	worse = o ? ((double)n - (double)o) / (double)o * 100 :
		n ? INFINITY : 0;
	reg = worse > tol;
	if (o)
		rs_val_put_double(r, "worse_pct", worse);
	rs_val_put_bool(r, "regressed", reg);
	return reg;
}

/* Every counter either side has, side by side. */
static unsigned compare_counters(const char *step, struct json_object *oc,
				 struct json_object *nc, const struct focus *fo,
				 struct rs_val *rows)
{
	unsigned regressed = 0;
	struct json_object *k;

	if (oc) {
		json_object_object_foreach(oc, key, per) {
			json_object_object_foreach(per, name, v) {
				(void)v;
				regressed += counter_row(step, key, name, oc,
							 nc, fo, rows);
			}
		}
	}
	if (!nc)
		return regressed;
	json_object_object_foreach(nc, key, per) {
		json_object_object_foreach(per, name, v) {
			struct json_object *ov;

			(void)v;
			/* Those old has too are done. */
			if (oc && json_object_object_get_ex(oc, key, &k) &&
			    json_object_object_get_ex(k, name, &ov))
				continue;
			regressed += counter_row(step, key, name, oc, nc, fo,
						 rows);
		}
	}
	return regressed;
}

/* "step 'lat'" or "step 2 (write)". */
static void step_name(struct json_object *s, char *buf, size_t len)
{
	const char *id = str_of(s, "id"), *no = str_of(s, "no");

	if (id)
		snprintf(buf, len, "step '%s'", id);
	else
		snprintf(buf, len, "step %s (%s)", no ? no : "?",
			 str_of(s, "type") ? str_of(s, "type") : "?");
}

/* One row a figure both records have; returns how many regressed. */
static unsigned compare_step(struct json_object *os, struct json_object *ns,
			     const struct focus *fo, struct rs_val *rows)
{
	unsigned regressed = 0;
	char name[128];

	step_name(os, name, sizeof(name));
	for (unsigned i = 0; i < RS_FIG_COUNT; i++) {
		const struct rs_figure_def *f = &rs_figures[i];
		double o, n, worse, tol = tolerance(fo, f);
		bool judge = judged(fo, f);
		struct rs_val *r;

		if (!shown(fo, f) || !figure(os, f, &o) || !figure(ns, f, &n))
			continue;
		r = rs_val_push_obj(rows);
		rs_val_put_str(r, "step", name);
		rs_val_put_str(r, "figure", f->name);
		rs_val_put_str(r, "unit", f->unit);
		rs_val_put_double(r, "old", o);
		rs_val_put_double(r, "new", n);
		rs_val_put_str(r, "better", f->lower_better ? "lower" :
			       "higher");
		rs_val_put_bool(r, "judged", judge);
		if (judge)
			rs_val_put_double(r, "tolerance_pct", tol);
		if (o == 0) {
			rs_val_put_bool(r, "regressed", false);
			continue;
		}
		rs_val_put_double(r, "ratio", n / o);
		/* How much worse, in percent of the old value. */
		worse = (f->lower_better ? n - o : o - n) / fabs(o) * 100;
		rs_val_put_double(r, "worse_pct", worse);
		rs_val_put_bool(r, "regressed", judge && worse > tol);
		regressed += judge && worse > tol;
	}
	return regressed;
}

/* A figure in 12 columns with four significant digits at least: Mpps
 * of a slow link is 0.00123, not 0.000; large values keep three
 * decimals as before. */
static void put_num(FILE *f, double v)
{
	int decimals = 3;

	if (v != 0 && fabs(v) < 1) {
		decimals = 3 - (int)floor(log10(fabs(v)));
		if (decimals > 12) {
			fprintf(f, " %12.4g", v);
			return;
		}
	}
	fprintf(f, " %12.*f", decimals, v);
}

static void print_rows(FILE *f, const struct rs_val *res)
{
	const struct rs_val *rows = rs_val_get(res, "figures");
	const char *last = "";

	if (rs_val_len(rows))
		fprintf(f, "  %-22s %12s %12s %-8s %-8s\n", "figure", "old",
			"new", "unit", "new/old");
	for (size_t i = 0; i < rs_val_len(rows); i++) {
		const struct rs_val *r = rs_val_at(rows, i);
		const char *step = rs_val_get_str(r, "step");
		bool reg = rs_val_get_bool(r, "regressed");

		if (strcmp(step, last))
			fprintf(f, "%s\n", step);
		last = step;
		bool judge = rs_val_get_bool(r, "judged");

		fprintf(f, "  %-22s", rs_val_get_str(r, "figure"));
		put_num(f, rs_val_get_double(r, "old"));
		put_num(f, rs_val_get_double(r, "new"));
		fprintf(f, " %-8s", rs_val_get_str(r, "unit"));
		if (rs_val_get(r, "ratio"))
			fprintf(f, " x%-7.3f", rs_val_get_double(r, "ratio"));
		else
			fprintf(f, " %-8s", "-");
		fprintf(f, " %s is better", rs_val_get_str(r, "better"));
		if (judge)
			fprintf(f, ", tolerance %g%%%s\n",
				rs_val_get_double(r, "tolerance_pct"),
				reg ? "  REGRESSED" : "");
		else
			fputs(", not judged\n", f);
	}
	for (size_t i = 0; i < rs_val_len(rs_val_get(res, "unmatched")); i++)
		fprintf(f, "%s: not in both records\n", rs_val_str_of(
			rs_val_at(rs_val_get(res, "unmatched"), i)));
}

static void put_count(FILE *f, const struct rs_val *r, const char *key)
{
	if (rs_val_get(r, key))
		fprintf(f, " %12llu",
			(unsigned long long)rs_val_get_u64(r, key));
	else
		fprintf(f, " %12s", "-");
}

/* The counters table: per step, each that moved, old, new and by how
 * much. */
static void print_counters(FILE *f, const struct rs_val *res)
{
	const struct rs_val *rows = rs_val_get(res, "counters");
	const char *last = "";

	if (rs_val_len(rows))
		fprintf(f, "  %-34s %12s %12s %12s\n", "counter", "old", "new",
			"difference");
	for (size_t i = 0; i < rs_val_len(rows); i++) {
		const struct rs_val *r = rs_val_at(rows, i);
		const char *step = rs_val_get_str(r, "step");
		const struct rs_val *d = rs_val_get(r, "difference");
		char name[160];

		if (strcmp(step, last))
			fprintf(f, "%s\n", step);
		last = step;
		snprintf(name, sizeof(name), "%s %s", rs_val_get_str(r, "at"),
			 rs_val_get_str(r, "counter"));
		fprintf(f, "  %-34s", name);
		put_count(f, r, "old");
		put_count(f, r, "new");
		if (d)
			fprintf(f, " %+12lld", (long long)rs_val_i64_of(d));
		else
			fprintf(f, " %12s", "-");
		if (!rs_val_get_bool(r, "judged"))
			fputs("  not judged\n", f);
		else
			fprintf(f, "  tolerance %g%%%s\n",
				rs_val_get_double(r, "tolerance_pct"),
				rs_val_get_bool(r, "regressed") ? "  REGRESSED" : "");
	}
}

/* Each regression on stderr, naming the figure. */
static void say_regressions(const struct rs_val *res)
{
	const struct rs_val *rows = rs_val_get(res, "figures");
	const struct rs_val *ctrs = rs_val_get(res, "counters");

	for (size_t i = 0; i < rs_val_len(ctrs); i++) {
		const struct rs_val *r = rs_val_at(ctrs, i);

		if (!rs_val_get_bool(r, "regressed"))
			continue;
		fprintf(stderr, "rdmascn: compare: %s: counter %s %s "
			"regressed: %llu -> %llu", rs_val_get_str(r, "step"),
			rs_val_get_str(r, "at"), rs_val_get_str(r, "counter"),
			(unsigned long long)rs_val_get_u64(r, "old"),
			(unsigned long long)rs_val_get_u64(r, "new"));
		if (rs_val_get(r, "worse_pct"))
			fprintf(stderr, " (%.1f%% more, tolerance %g%%)\n",
				rs_val_get_double(r, "worse_pct"),
				rs_val_get_double(r, "tolerance_pct"));
		else
			fputs(" (from none)\n", stderr);
	}
	for (size_t i = 0; i < rs_val_len(rows); i++) {
		const struct rs_val *r = rs_val_at(rows, i);

		if (!rs_val_get_bool(r, "regressed"))
			continue;
		fprintf(stderr, "rdmascn: compare: %s: %s regressed: %g -> %g "
			"%s (%.1f%% worse, tolerance %g%%)\n",
			rs_val_get_str(r, "step"), rs_val_get_str(r, "figure"),
			rs_val_get_double(r, "old"), rs_val_get_double(r, "new"),
			rs_val_get_str(r, "unit"),
			rs_val_get_double(r, "worse_pct"),
			rs_val_get_double(r, "tolerance_pct"));
	}
}

/* A glob that names no figure is a typo: refused, with the names. */
static int check_glob(const struct rs_cmd *cmd, const char *opt,
		      const char *glob)
{
	char names[512];

	/* Counters are the kernel's names: any may be in a record. */
	if (!strncmp(glob, "counters.", 9) && glob[9])
		return 0;
	for (unsigned i = 0; i < RS_FIG_COUNT; i++)
		if (named(glob, &rs_figures[i]))
			return 0;
	rs_figure_names(names, sizeof(names));
	return rs_cmd_usage_error(cmd, "%s '%s' names no figure (figures: "
				  "%s).", opt, glob, names);
}

static int parse_pct(const struct rs_cmd *cmd, const char *arg,
		     double *ret)
{
	char *end;

	errno = 0;
	*ret = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (errno || end == arg || *end || !isfinite(*ret) || *ret < 0)
		return rs_cmd_usage_error(cmd, "--tolerance takes a percentage "
					  "(0 or more), or FIGURE=PCT, not "
					  "'%s'.", arg);
	return 0;
}

/* -t PCT,GLOB=PCT,...: a bare number is every figure's, GLOB=PCT the
 * figures GLOB names (fnmatch).  @arg is argv's, cut in place. */
static int parse_tolerance(const struct rs_cmd *cmd, char *arg,
			   struct focus *fo)
{
	size_t n = 1;
	struct tol *t;
	char *item;

	for (const char *c = arg; *c; c++)
		n += *c == ',';
	t = rs_reallocarray(fo->tols, fo->n_tols + n, sizeof(*t));
	if (!t)
		return rs_cmd_no_memory(cmd);
	fo->tols = t;
	while ((item = strsep(&arg, ","))) {
		char *eq = strrchr(item, '=');
		double pct;

		if (!eq) {
			if (parse_pct(cmd, item, &fo->tol))
				return RS_EXIT_INVALID;
			continue;
		}
		*eq = '\0';
		if (parse_pct(cmd, eq + 1, &pct) ||
		    check_glob(cmd, "--tolerance", item))
			return RS_EXIT_INVALID;
		fo->tols[fo->n_tols++] = (struct tol){ item, pct };
	}
	return 0;
}

int rs_cmd_compare(const struct rs_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tolerance", required_argument, NULL, 't' },
		{ "figure", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct json_object *old = NULL, *new = NULL, *steps;
	struct focus fo = { .tol = DEFAULT_TOLERANCE };
	struct rs_val *res = NULL, *rows, *unmatched, *ctr_rows;
	unsigned regressed = 0;
	bool json = false;
	int c, ret = RS_EXIT_INVALID;

	fo.globs = rs_calloc(argc + 1, sizeof(*fo.globs));
	if (!fo.globs)
		return rs_cmd_no_memory(cmd);
	while ((c = getopt_long(argc, argv, ":t:f:jh", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			ret = parse_tolerance(cmd, optarg, &fo);
			if (ret)
				goto out;
			ret = RS_EXIT_INVALID;
			break;
		case 'f':
			if (check_glob(cmd, "--figure", optarg))
				goto out;
			fo.globs[fo.n_globs++] = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			rs_cmd_usage(cmd, stdout);
			ret = RS_EXIT_PASSED;
			goto out;
		default:
			ret = rs_cmd_bad_option(cmd, argv, c);
			goto out;
		}
	}
	if (optind + 2 != argc) {
		ret = rs_cmd_usage_error(cmd, "compare takes two run records "
					 "(rdmascn run --json FILE).");
		goto out;
	}
	old = load_record(argv[optind]);
	new = old ? load_record(argv[optind + 1]) : NULL;
	if (!new)
		goto out;

	res = rs_val_obj();
	rs_val_put_str(res, "old", argv[optind]);
	rs_val_put_str(res, "new", argv[optind + 1]);
	rs_val_put_double(res, "tolerance_pct", fo.tol);
	rows = rs_val_put_arr(res, "figures");
	ctr_rows = rs_val_put_arr(res, "counters");
	unmatched = rs_val_put_arr(res, "unmatched");
	json_object_object_get_ex(old, "steps", &steps);
	for (size_t i = 0; i < json_object_array_length(steps); i++) {
		struct json_object *os = json_object_array_get_idx(steps, i);
		struct json_object *ns = match(new, os), *figs;
		char name[128];

		if (!json_object_object_get_ex(os, "figures", &figs))
			continue;
		if (!ns) {
			step_name(os, name, sizeof(name));
			rs_val_push_str(unmatched, name);
			continue;
		}
		regressed += compare_step(os, ns, &fo, rows);
		step_name(os, name, sizeof(name));
		regressed += compare_counters(name, counters_of(os, false),
					      counters_of(ns, false), &fo,
					      ctr_rows);
	}
	regressed += compare_counters("run", counters_of(old, true),
				      counters_of(new, true), &fo, ctr_rows);
	rs_val_put_u64(res, "regressed", regressed);
	if (rs_val_check(res) < 0) {
		ret = rs_cmd_no_memory(cmd);
		goto out;
	}
	if (json)
		rs_val_write_json(stdout, res, true);
	else {
		print_rows(stdout, res);
		print_counters(stdout, res);
	}
	say_regressions(res);
	ret = regressed ? RS_EXIT_FAILED : RS_EXIT_PASSED;
out:
	rs_val_free(res);
	json_object_put(old);
	json_object_put(new);
	rs_free(fo.tols);
	rs_free(fo.globs);
	return ret;
}
