// SPDX-License-Identifier: MIT
/*
 * rdmascn compare OLD.json NEW.json: two run records' figures side by
 * side, step by step (matched by id, else by number), each with NEW/OLD
 * and which way is better; exit 1 when one got worse by more than the
 * tolerance.  The rows are built first, then printed as text or JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cli.h"
#include "gate.h"
#include "value.h"

#define DEFAULT_TOLERANCE 5.0

/* The JSON in @path, or NULL with the reason said on stderr. */
static struct json_object *read_json(const char *path)
{
	struct json_tokener *tok = NULL;
	struct json_object *v = NULL;
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;
	int err;

	if (!f) {
		fprintf(stderr, "rdmascn: compare: %s: %s\n", path,
			strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == 0 && ftell(f) >= 0) {
		len = ftell(f);
		rewind(f);
		text = rs_calloc(1, len + 1);
	}
	if (!text || fread(text, 1, len, f) != len) {
		fprintf(stderr, "rdmascn: compare: %s: cannot read it\n", path);
		goto out;
	}
	tok = json_tokener_new();
	if (!tok) {
		fprintf(stderr, "rdmascn: compare: out of memory\n");
		goto out;
	}
	v = json_tokener_parse_ex(tok, text, len);
	err = json_tokener_get_error(tok);
	if (v && err == json_tokener_success) {
		size_t end = json_tokener_get_parse_end(tok);

		end += strspn(text + end, " \t\r\n");
		if (end == len)
			goto out;
		fprintf(stderr, "rdmascn: compare: %s: not a run record: "
			"more after the JSON, at byte %zu\n", path, end);
		json_object_put(v);
		v = NULL;
		goto out;
	}
	json_object_put(v);
	v = NULL;
	if (err == json_tokener_continue || err == json_tokener_success)
		fprintf(stderr, "rdmascn: compare: %s: not a run record: the "
			"JSON ends early\n", path);
	else
		fprintf(stderr, "rdmascn: compare: %s: not a run record: "
			"invalid JSON at byte %zu: %s\n", path,
			json_tokener_get_parse_end(tok),
			json_tokener_error_desc(err));
out:
	if (tok)
		json_tokener_free(tok);
	rs_free(text);
	fclose(f);
	return v;
}

/* A run record, or NULL with the reason said on stderr. */
static struct json_object *load_record(const char *path)
{
	struct json_object *rec = read_json(path), *steps;

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
			     double tol, struct rs_val *rows)
{
	unsigned regressed = 0;
	char name[128];

	step_name(os, name, sizeof(name));
	for (unsigned i = 0; i < RS_FIG_COUNT; i++) {
		const struct rs_figure_def *f = &rs_figures[i];
		double o, n, worse;
		struct rs_val *r;

		if (!figure(os, f, &o) || !figure(ns, f, &n))
			continue;
		r = rs_val_push_obj(rows);
		rs_val_put_str(r, "step", name);
		rs_val_put_str(r, "figure", f->name);
		rs_val_put_str(r, "unit", f->unit);
		rs_val_put_double(r, "old", o);
		rs_val_put_double(r, "new", n);
		rs_val_put_str(r, "better", f->lower_better ? "lower" :
			       "higher");
		if (o == 0) {
			rs_val_put_bool(r, "regressed", false);
			continue;
		}
		rs_val_put_double(r, "ratio", n / o);
		/* How much worse, in percent of the old value. */
		worse = (f->lower_better ? n - o : o - n) / fabs(o) * 100;
		rs_val_put_double(r, "worse_pct", worse);
		rs_val_put_bool(r, "regressed", worse > tol);
		regressed += worse > tol;
	}
	return regressed;
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
		bool reg = json_object_get_boolean(
			rs_val_json(rs_val_get(r, "regressed")));

		if (strcmp(step, last))
			fprintf(f, "%s\n", step);
		last = step;
		fprintf(f, "  %-22s %12.3f %12.3f %-8s", rs_val_get_str(r, "figure"),
			rs_val_get_double(r, "old"), rs_val_get_double(r, "new"),
			rs_val_get_str(r, "unit"));
		if (rs_val_get(r, "ratio"))
			fprintf(f, " x%-7.3f", rs_val_get_double(r, "ratio"));
		else
			fprintf(f, " %-8s", "-");
		fprintf(f, " %s is better%s\n", rs_val_get_str(r, "better"),
			reg ? "  REGRESSED" : "");
	}
	for (size_t i = 0; i < rs_val_len(rs_val_get(res, "unmatched")); i++)
		fprintf(f, "%s: not in both records\n", json_object_get_string(
			rs_val_json(rs_val_at(rs_val_get(res, "unmatched"), i))));
}

/* Each regression on stderr, naming the figure. */
static void say_regressions(const struct rs_val *res, double tol)
{
	const struct rs_val *rows = rs_val_get(res, "figures");

	for (size_t i = 0; i < rs_val_len(rows); i++) {
		const struct rs_val *r = rs_val_at(rows, i);

		if (!json_object_get_boolean(rs_val_json(rs_val_get(r,
							 "regressed"))))
			continue;
		fprintf(stderr, "rdmascn: compare: %s: %s regressed: %g -> %g "
			"%s (%.1f%% worse, tolerance %g%%)\n",
			rs_val_get_str(r, "step"), rs_val_get_str(r, "figure"),
			rs_val_get_double(r, "old"), rs_val_get_double(r, "new"),
			rs_val_get_str(r, "unit"),
			rs_val_get_double(r, "worse_pct"), tol);
	}
}

static int parse_tolerance(const struct rs_cmd *cmd, const char *arg,
			   double *ret)
{
	char *end;

	errno = 0;
	*ret = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (errno || end == arg || *end || !isfinite(*ret) || *ret < 0)
		return rs_cmd_usage_error(cmd, "--tolerance takes a percentage "
					  "(0 or more), not '%s'.", arg);
	return 0;
}

int rs_cmd_compare(const struct rs_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tolerance", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct json_object *old = NULL, *new = NULL, *steps;
	double tol = DEFAULT_TOLERANCE;
	struct rs_val *res = NULL, *rows, *unmatched;
	unsigned regressed = 0;
	bool json = false;
	int c, ret = RS_EXIT_INVALID;

	while ((c = getopt_long(argc, argv, ":t:jh", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_tolerance(cmd, optarg, &tol))
				return RS_EXIT_INVALID;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			rs_cmd_usage(cmd, stdout);
			return RS_EXIT_PASSED;
		default:
			return rs_cmd_bad_option(cmd, argv, c);
		}
	}
	if (optind + 2 != argc)
		return rs_cmd_usage_error(cmd, "compare takes two run records "
					  "(rdmascn run --json FILE).");
	old = load_record(argv[optind]);
	new = old ? load_record(argv[optind + 1]) : NULL;
	if (!new)
		goto out;

	res = rs_val_obj();
	rs_val_put_str(res, "old", argv[optind]);
	rs_val_put_str(res, "new", argv[optind + 1]);
	rs_val_put_double(res, "tolerance_pct", tol);
	rows = rs_val_put_arr(res, "figures");
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
		regressed += compare_step(os, ns, tol, rows);
	}
	rs_val_put_u64(res, "regressed", regressed);
	if (rs_val_check(res) < 0) {
		ret = rs_cmd_no_memory(cmd);
		goto out;
	}
	if (json)
		rs_val_write_json(stdout, res, true);
	else
		print_rows(stdout, res);
	say_regressions(res, tol);
	ret = regressed ? RS_EXIT_FAILED : RS_EXIT_PASSED;
out:
	rs_val_free(res);
	json_object_put(old);
	json_object_put(new);
	return ret;
}
