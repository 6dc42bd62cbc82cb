// SPDX-License-Identifier: MIT
/*
 * The explore: section and --vary's ranges (explore.h): axes as lists of
 * values, so that a search indexes them and the number behind each is
 * there to bisect on; the objective, budget and strategy as read from
 * the file, each error at its node.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dom.h"
#include "explore.h"
#include "figures.h"
#include "macros.h"
#include "model.h"
#include "params.h"

#define RS_EXPLORE_GOAL_NAME(id, name) name,
static const char *const goal_names[] = {
	RS_EXPLORE_GOALS(RS_EXPLORE_GOAL_NAME)
};
#undef RS_EXPLORE_GOAL_NAME

#define RS_EXPLORE_STRATEGY_NAME(id, name) name,
static const char *const strategy_names[] = {
	RS_EXPLORE_STRATEGIES(RS_EXPLORE_STRATEGY_NAME)
};
#undef RS_EXPLORE_STRATEGY_NAME

const char *rs_explore_goal_name(enum rs_explore_goal g)
{
	return (unsigned)g < RS_N(goal_names) ? goal_names[g] : "?";
}

const char *rs_explore_strategy_name(enum rs_explore_strategy s)
{
	return (unsigned)s < RS_N(strategy_names) ? strategy_names[s] : "?";
}

int rs_explore_strategy_parse(const char *word, enum rs_explore_strategy *ret)
{
	for (unsigned i = 0; i < RS_N(strategy_names); i++)
		if (!strcmp(word, strategy_names[i])) {
			*ret = i;
			return 0;
		}
	return -EINVAL;
}

int rs_explore_number(const char *text, uint64_t *ret)
{
	unsigned long long v;
	uint64_t mul = 1;
	char *end;

	if (!text[0] || text[0] < '0' || text[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		mul = 1ull << 10;
	else if (*end == 'M')
		mul = 1ull << 20;
	else if (*end == 'G')
		mul = 1ull << 30;
	if (mul > 1)
		end++;
	if (*end || (v && mul > UINT64_MAX / v))
		return -EINVAL;
	*ret = v * mul;
	return 0;
}

void rs_explore_axis_free(struct rs_explore_axis *a)
{
	if (!a)
		return;
	for (unsigned i = 0; a->values && i < a->n; i++)
		rs_free(a->values[i]);
	rs_free(a->values);
	rs_free(a->nums);
	rs_free((char *)a->name);
	memset(a, 0, sizeof(*a));
}

/* Room for @n values, and the param's name; 0 or -ENOMEM. */
static int axis_alloc(struct rs_explore_axis *a, const char *name, size_t n)
{
	*a = (struct rs_explore_axis){
		.name = rs_strdup(name),
		.values = rs_calloc(n + 1, sizeof(*a->values)),
		.nums = rs_calloc(n + 1, sizeof(*a->nums)),
	};
	if (!a->name || !a->values || !a->nums) {
		rs_explore_axis_free(a);
		return -ENOMEM;
	}
	return 0;
}

static int push_num(struct rs_explore_axis *a, uint64_t v)
{
	char buf[24];

	if (a->n && a->nums[a->n - 1] == v)
		return 0;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	a->values[a->n] = rs_strdup(buf);
	if (!a->values[a->n])
		return -ENOMEM;
	a->nums[a->n++] = v;
	return 0;
}

/* How many values LO..HI by @rule has (at most past the cap). */
static uint64_t range_count(uint64_t lo, uint64_t hi, int rule, uint64_t step)
{
	uint64_t n = 1;

	if (rule == 0) {         /* pow2 */
		for (uint64_t p = 1; p && p < hi; p <<= 1)
			n += p > lo;
		return n + (hi > lo);
	}
	return (hi - lo) / step + 1 + ((hi - lo) % step != 0);
}

static int parse_range(const char *name, const char *spec, const char *dots,
		       struct rs_explore_axis *ret, char *why, size_t len)
{
	char lo_s[32], hi_s[32], *colon;
	const char *rule_s = "pow2";
	uint64_t lo, hi, step = 1, n;
	int rule = 0, r;

	if ((size_t)(dots - spec) >= sizeof(lo_s))
		goto bad;
	memcpy(lo_s, spec, dots - spec);
	lo_s[dots - spec] = '\0';
	snprintf(hi_s, sizeof(hi_s), "%s", dots + 2);
	colon = strchr(hi_s, ':');
	if (colon) {
		*colon = '\0';
		rule_s = dots + 2 + (colon - hi_s) + 1;
	}
	if (rs_explore_number(lo_s, &lo) || rs_explore_number(hi_s, &hi))
		goto bad;
	if (lo > hi) {
		snprintf(why, len, "--vary %s=%s: %s is above %s: LO..HI goes "
			 "up", name, spec, lo_s, hi_s);
		return -EINVAL;
	}
	if (!strcmp(rule_s, "pow2")) {
		rule = 0;
	} else if (!strcmp(rule_s, "lin")) {
		rule = 1;
	} else if (!strncmp(rule_s, "step=", 5) &&
		   !rs_explore_number(rule_s + 5, &step) && step) {
		rule = 1;
	} else {
		snprintf(why, len, "--vary %s=%s: unknown step rule '%s': "
			 "pow2 (the default), lin or step=N", name, spec,
			 rule_s);
		return -EINVAL;
	}
	n = range_count(lo, hi, rule, step);
	if (n > RS_EXPLORE_AXIS_MAX) {
		snprintf(why, len, "--vary %s=%s: %llu values, at most %u: "
			 "a coarser step (:pow2, :step=N)", name, spec,
			 (unsigned long long)n, RS_EXPLORE_AXIS_MAX);
		return -EINVAL;
	}
	r = axis_alloc(ret, name, n);
	if (r)
		return r;
	ret->numeric = true;
	ret->pow2 = rule == 0;
	r = push_num(ret, lo);
	if (rule == 0) {
		for (uint64_t p = 1; !r && p && p < hi; p <<= 1)
			if (p > lo)
				r = push_num(ret, p);
	} else {
		for (uint64_t v = lo; !r && hi - v >= step; v += step)
			r = push_num(ret, v + step);
	}
	if (!r)
		r = push_num(ret, hi);
	if (r)
		rs_explore_axis_free(ret);
	return r;
bad:
	snprintf(why, len, "--vary %s=%s: expected LO..HI[:pow2|:lin|:step=N] "
		 "with whole numbers (K, M, G suffixes), or V1,V2,...",
		 name, spec);
	return -EINVAL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int rs_explore_axis_list(const char *name, const char *const *values,
			 unsigned n, struct rs_explore_axis *ret, char *why,
			 size_t len)
{
	bool numeric = n > 0;
	uint64_t *nums;
	int r;

	if (!n || n > RS_EXPLORE_AXIS_MAX) {
		snprintf(why, len, "--vary %s: %s", name,
			 n ? "too many values" :
			 "no values: V1,V2,... or LO..HI");
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		if (!values[i][0]) {
			snprintf(why, len, "--vary %s: an empty value", name);
			return -EINVAL;
		}
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(values[i], values[j])) {
				snprintf(why, len, "--vary %s: '%s' is there "
					 "twice", name, values[i]);
				return -EINVAL;
			}
	}
	nums = rs_calloc(n, sizeof(*nums));
	if (!nums)
		return -ENOMEM;
	for (unsigned i = 0; i < n && numeric; i++)
		numeric = !rs_explore_number(values[i], &nums[i]);
	if (numeric) {
		/* A set of numbers is bisected like a range: in order. */
		qsort(nums, n, sizeof(*nums), cmp_u64);
		r = axis_alloc(ret, name, n);
		for (unsigned i = 0; !r && i < n; i++)
			r = push_num(ret, nums[i]);
		if (!r)
			ret->numeric = true;
		if (!r && ret->n != n) {
			snprintf(why, len, "--vary %s: a number is there twice "
				 "(%s)", name, "8K and 8192 are one value");
			rs_explore_axis_free(ret);
			r = -EINVAL;
		}
	} else {
		r = axis_alloc(ret, name, n);
		for (unsigned i = 0; !r && i < n; i++) {
			ret->values[i] = rs_strdup(values[i]);
			r = ret->values[i] ? 0 : -ENOMEM;
			ret->n = i + 1;
		}
	}
	if (r == -ENOMEM)
		rs_explore_axis_free(ret);
	rs_free(nums);
	return r;
}

int rs_explore_axis_parse(const char *name, const char *spec,
			  struct rs_explore_axis *ret, char *why, size_t len)
{
	const char *dots = strstr(spec, "..");
	const char **vals;
	char *copy, *save = NULL;
	unsigned n = 0;
	int r;

	if (dots && !strchr(spec, ','))
		return parse_range(name, spec, dots, ret, why, len);
	copy = rs_strdup(spec);
	vals = rs_calloc(strlen(spec) / 2 + 2, sizeof(*vals));
	if (!copy || !vals) {
		rs_free(copy);
		rs_free(vals);
		return -ENOMEM;
	}
	/* strtok_r would skip an empty value: a,,b is a mistake. */
	for (char *p = copy;; p = save + 1) {
		save = strchr(p, ',');
		if (save)
			*save = '\0';
		vals[n++] = p;
		if (!save)
			break;
	}
	r = rs_explore_axis_list(name, vals, n, ret, why, len);
	rs_free(copy);
	rs_free(vals);
	return r;
}

bool rs_explore_is_param(const struct rs_scenario *s, const char *name)
{
	for (unsigned i = 0; i < s->n_params; i++)
		if (!strcmp(s->params[i].name, name))
			return true;
	return false;
}

int rs_explore_add_axis(struct rs_explore *e, struct rs_explore_axis *a)
{
	struct rs_explore_axis *axes;

	for (unsigned i = 0; i < e->n_axes; i++)
		if (!strcmp(e->axes[i].name, a->name)) {
			rs_explore_axis_free(&e->axes[i]);
			e->axes[i] = *a;
			memset(a, 0, sizeof(*a));
			return 0;
		}
	if (e->n_axes >= RS_EXPLORE_AXES_MAX)
		return -E2BIG;
	axes = rs_reallocarray(e->axes, e->n_axes + 1, sizeof(*axes));
	if (!axes)
		return -ENOMEM;
	e->axes = axes;
	e->axes[e->n_axes++] = *a;
	memset(a, 0, sizeof(*a));
	return 0;
}

void rs_explore_free(struct rs_explore *e)
{
	for (unsigned i = 0; i < e->n_axes; i++)
		rs_explore_axis_free(&e->axes[i]);
	rs_free(e->axes);
	rs_free(e->figure);
	memset(e, 0, sizeof(*e));
}

/* A figure an objective may name: [STEP:]GROUP.KEY of the figures table
 * that is a number, or counters.[WHERE.]NAME. */
static bool figure_ok(const char *fig)
{
	const char *colon = strchr(fig, ':'), *g = colon ? colon + 1 : fig;
	const char *dot = strchr(g, '.');
	char group[32];

	if (!dot || (size_t)(dot - g) >= sizeof(group) || !dot[1])
		return false;
	memcpy(group, g, dot - g);
	group[dot - g] = '\0';
	if (!strcmp(group, "counters"))
		return true;
	for (unsigned i = 0; i < RS_FIGROW_COUNT; i++) {
		const struct rs_figure_row *f = &rs_figure_rows[i];

		if (f->key && !strcmp(f->group, group) &&
		    !strcmp(f->key, dot + 1))
			return f->type == RS_FIGT_NUMBER ||
			       f->type == RS_FIGT_COUNT;
	}
	return false;
}

static int read_vary(struct rs_explore *e, const struct rs_scenario *s,
		     const struct rs_node *v, struct rs_diag *d)
{
	char why[512], near[160];
	int r = 0;

	if (v->type != RS_NODE_MAP || !v->n) {
		rs_diag_error(d, rs_node_loc(v),
			      "explore: vary: expected a mapping "
			      "of params to ranges "
			      "(LO..HI[:pow2|:lin|:step=N]) or lists of values");
		return -EINVAL;
	}
	for (size_t i = 0; i + 1 < v->n && !r; i += 2) {
		const struct rs_node *k = &v->items[i], *val = &v->items[i + 1];
		struct rs_explore_axis a = { 0 };

		if (!rs_explore_is_param(s, k->value)) {
			rs_param_near(s, k->value, true, near, sizeof(near));
			rs_diag_error(d, rs_node_loc(k),
				      "explore: vary: '%s' is not "
				      "a param%s", k->value, near);
			return -EINVAL;
		}
		if (val->type == RS_NODE_SCALAR) {
			r = rs_explore_axis_parse(k->value, val->value, &a, why,
						  sizeof(why));
		} else if (val->type == RS_NODE_SEQ) {
			const char **vals = rs_calloc(val->n + 1,
						      sizeof(*vals));

			if (!vals)
				return -ENOMEM;
			for (size_t j = 0; j < val->n; j++) {
				if (val->items[j].type != RS_NODE_SCALAR) {
					rs_free(vals);
					rs_diag_error(d,
						rs_node_loc(&val->items[j]),
						"explore: vary: '%s': each "
						"value must be a scalar",
						k->value);
					return -EINVAL;
				}
				vals[j] = val->items[j].value;
			}
			r = rs_explore_axis_list(k->value, vals, val->n, &a,
						 why, sizeof(why));
			rs_free(vals);
		} else {
			rs_diag_error(d, rs_node_loc(val),
				      "explore: vary: '%s': a "
				      "range (LO..HI[:pow2|:lin|:step=N]) or a "
				      "list of values", k->value);
			return -EINVAL;
		}
		if (r == -EINVAL) {
			/* The message is --vary's; here it is vary:'s. */
			const char *msg = !strncmp(why, "--vary ", 7) ?
					  why + 7 : why;

			rs_diag_error(d, rs_node_loc(val),
				      "explore: vary: %s", msg);
			return r;
		}
		if (!r)
			r = rs_explore_add_axis(e, &a);
		if (r)	/* -ENOMEM or -E2BIG: the axis is still ours */
			rs_explore_axis_free(&a);
		if (r == -E2BIG) {
			rs_diag_error(d, rs_node_loc(k),
				      "explore: vary: at most %u "
				      "params", RS_EXPLORE_AXES_MAX);
			return -EINVAL;
		}
	}
	return r;
}

/* A whole number of @n's text in [@min, @max]; false said on @d. */
static bool read_uint(const struct rs_node *n, const char *what,
		      uint64_t min, uint64_t max, uint64_t *ret,
		      struct rs_diag *d)
{
	uint64_t v;

	if (n->type != RS_NODE_SCALAR || rs_explore_number(n->value, &v) ||
	    v < min || v > max) {
		rs_diag_error(d, rs_node_loc(n),
			      "explore: %s: expected a whole "
			      "number from %llu to %llu", what,
			      (unsigned long long)min, (unsigned long long)max);
		return false;
	}
	*ret = v;
	return true;
}

static int read_budget(struct rs_explore *e, const struct rs_node *b,
		       struct rs_diag *d)
{
	uint64_t v;

	if (b->type != RS_NODE_MAP) {
		rs_diag_error(d, rs_node_loc(b), "explore: budget: expected "
			      "{cells: N, seconds: S}");
		return -EINVAL;
	}
	for (size_t i = 0; i + 1 < b->n; i += 2) {
		const struct rs_node *k = &b->items[i], *val = &b->items[i + 1];

		if (!strcmp(k->value, "cells")) {
			if (!read_uint(val, "budget: cells", 1, 100000, &v, d))
				return -EINVAL;
			e->budget_cells = v;
		} else if (!strcmp(k->value, "seconds")) {
			if (!read_uint(val, "budget: seconds", 1, 1000000, &v,
				       d))
				return -EINVAL;
			e->budget_s = v;
		} else {
			rs_diag_error(d, rs_node_loc(k),
				      "explore: budget: unknown "
				      "key '%s' (cells, seconds)", k->value);
			return -EINVAL;
		}
	}
	return 0;
}

/* One key of explore: other than vary: and budget:. */
static int read_key(struct rs_explore *e, const struct rs_node *k,
		    const struct rs_node *v, struct rs_diag *d)
{
	const char *key = k->value;
	uint64_t n;

	if (strcmp(key, "maximize") && strcmp(key, "minimize") &&
	    strcmp(key, "find") && strcmp(key, "strategy") &&
	    strcmp(key, "seed") && strcmp(key, "knee") &&
	    strcmp(key, "repeat")) {
		rs_diag_error(d, rs_node_loc(k),
			      "explore: unknown key '%s' (vary, "
			      "maximize, minimize, find, budget, strategy, "
			      "seed, knee, repeat)", key);
		return -EINVAL;
	}
	if (v->type != RS_NODE_SCALAR) {
		rs_diag_error(d, rs_node_loc(v),
			      "explore: %s: expected a scalar",
			      key);
		return -EINVAL;
	}
	if (!strcmp(key, "seed")) {
		if (!read_uint(v, "seed", 0, UINT64_MAX, &n, d))
			return -EINVAL;
		e->seed = n;
		e->has_seed = true;
		return 0;
	}
	if (!strcmp(key, "knee")) {
		if (!read_uint(v, "knee (percent)", 1, 99, &n, d))
			return -EINVAL;
		e->knee_pct = n;
		return 0;
	}
	if (!strcmp(key, "repeat")) {
		if (!read_uint(v, "repeat (runs of a cell)", 1,
			       RS_EXPLORE_REPEAT_MAX, &n, d))
			return -EINVAL;
		e->repeat = n;
		return 0;
	}
	if (!strcmp(key, "strategy")) {
		if (rs_explore_strategy_parse(v->value, &e->strategy)) {
			rs_diag_error(d, rs_node_loc(v),
				      "explore: strategy: unknown "
				      "'%s' (grid, bisect, anneal)", v->value);
			return -EINVAL;
		}
		e->has_strategy = true;
		return 0;
	}
	if (e->goal != RS_EXPLORE_NONE) {
		rs_diag_error(d, rs_node_loc(k),
			      "explore: one objective: maximize, "
			      "minimize or find, not two");
		return -EINVAL;
	}
	if (!strcmp(key, "find")) {
		if (strcmp(v->value, "fail") && strcmp(v->value, "gate")) {
			rs_diag_error(d, rs_node_loc(v),
				      "explore: find: '%s': fail "
				      "(a cell that does not pass) or gate (a "
				      "cell whose gate missed)", v->value);
			return -EINVAL;
		}
		e->goal = !strcmp(v->value, "fail") ? RS_EXPLORE_FIND_FAIL :
			  RS_EXPLORE_FIND_GATE;
		return 0;
	}
	if (!figure_ok(v->value)) {
		rs_diag_error(d, rs_node_loc(v),
			      "explore: %s: '%s' is not a figure: "
			      "[STEP:]GROUP.KEY, e.g. throughput.MB/s, "
			      "latency.typical, counters.NAME", key, v->value);
		return -EINVAL;
	}
	e->goal = !strcmp(key, "maximize") ? RS_EXPLORE_MAXIMIZE :
		  RS_EXPLORE_MINIMIZE;
	e->figure = rs_strdup(v->value);
	return e->figure ? 0 : -ENOMEM;
}

int rs_explore_read(struct rs_explore *e, const struct rs_scenario *s,
		    struct rs_diag *d)
{
	const struct rs_node *x = rs_node_get(s->doc.root, "explore");
	int r = 0;

	memset(e, 0, sizeof(*e));
	if (!x)
		return 0;
	if (x->type != RS_NODE_MAP) {
		rs_diag_error(d, rs_node_loc(x),
			      "explore: expected a mapping (vary, "
			      "maximize/minimize/find, budget, strategy, "
			      "seed, knee, repeat)");
		return -EINVAL;
	}
	for (size_t i = 0; i + 1 < x->n && !r; i += 2) {
		const struct rs_node *k = &x->items[i], *v = &x->items[i + 1];

		if (!strcmp(k->value, "vary"))
			r = read_vary(e, s, v, d);
		else if (!strcmp(k->value, "budget"))
			r = read_budget(e, v, d);
		else
			r = read_key(e, k, v, d);
	}
	return r;
}

/* Also what the command line's objective checks. */
bool rs_explore_figure_ok(const char *fig)
{
	return figure_ok(fig);
}
