// SPDX-License-Identifier: MIT
/*
 * A step's `gate:` and the run's `gates:`: read from the located DOM (the
 * counters' names are the kernel's, keys libcyaml cannot type), checked,
 * and judged against what a step or the run recorded.
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dom.h"
#include "gate.h"
#include "macros.h"
#include "model.h"
#include "schema.h"
#include "suggest.h"
#include "value.h"

/* --- the JSON Schema's view ----------------------------------------------- */

/* Never loaded with: jsonschema.c walks it for the figures' names. */
struct schema_bound {
	double *min, *max, *equals, *tolerance, *min_ratio, *max_ratio;
	char *of;
};

static const cyaml_schema_field_t bound_fields[] = {
	CYAML_FIELD_FLOAT_PTR("min", CYAML_FLAG_OPTIONAL, struct schema_bound,
			      min),
	CYAML_FIELD_FLOAT_PTR("max", CYAML_FLAG_OPTIONAL, struct schema_bound,
			      max),
	CYAML_FIELD_FLOAT_PTR("equals", CYAML_FLAG_OPTIONAL,
			      struct schema_bound, equals),
	CYAML_FIELD_FLOAT_PTR("tolerance", CYAML_FLAG_OPTIONAL,
			      struct schema_bound, tolerance),
	CYAML_FIELD_FLOAT_PTR("min_ratio", CYAML_FLAG_OPTIONAL,
			      struct schema_bound, min_ratio),
	CYAML_FIELD_FLOAT_PTR("max_ratio", CYAML_FLAG_OPTIONAL,
			      struct schema_bound, max_ratio),
	CYAML_FIELD_STRING_PTR("of", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			       struct schema_bound, of, 1, RS_ID_MAX),
	CYAML_FIELD_END
};

struct schema_gate {
	struct schema_bound *f[RS_FIG_COUNT];
	struct schema_gate *each;
};

#define RS_GATE_FIELD_NO(id, g, k)
#define RS_GATE_FIELD_YES(id, g, k)                                       \
	CYAML_FIELD_MAPPING_PTR(g "." k, CYAML_FLAG_POINTER |             \
				CYAML_FLAG_OPTIONAL, struct schema_gate,  \
				f[RS_FIG_##id], bound_fields),
#define RS_GATE_FIELD_LOW RS_GATE_FIELD_YES
#define RS_GATE_FIELD_HIGH RS_GATE_FIELD_YES
#define RS_GATE_FIELD(id, g, k, t, u, d, b, a, gate, h, desc)             \
	RS_GATE_FIELD_##gate(id, g, k)
const cyaml_schema_field_t rs_gate_each_fields[] = {
	RS_FIGURE_MAP(RS_GATE_FIELD)
	CYAML_FIELD_END
};

const cyaml_schema_field_t rs_gate_fields[] = {
	RS_FIGURE_MAP(RS_GATE_FIELD)
	CYAML_FIELD_MAPPING_PTR("each", CYAML_FLAG_POINTER |
				CYAML_FLAG_OPTIONAL, struct schema_gate, each,
				rs_gate_each_fields),
	CYAML_FIELD_END
};
#undef RS_GATE_FIELD

void rs_figure_names(char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < RS_FIG_COUNT && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", i ? ", " : "",
			      rs_figures[i].name);
}

/* --- reading -------------------------------------------------------------- */

#define COUNTERS "counters."

/* What a gate is read for: a step's (who: its name) or the run's. */
struct reader {
	struct rs_scenario *s;
	const struct rs_obj *obj; /* NULL: the run's gates: */
	struct rs_diag *d;
	bool each;
};

/* The step as the file writes it: a counted entry's id, not its
 * element's, for what is wrong in the text whatever the element. */
static const char *entry_name(const struct reader *rd, char *buf, size_t len)
{
	if (rs_obj_group(rd->obj) && rd->obj->id) {
		snprintf(buf, len, "step '%s'", rs_obj_group(rd->obj));
		return buf;
	}
	return rd->obj->name;
}

/* "step 'lat': gate: ", "step 'lat': gate: each: ", "gates: " */
static void prefix(const struct reader *rd, char *buf, size_t len)
{
	if (!rd->obj)
		snprintf(buf, len, "gates: ");
	else
		snprintf(buf, len, "%s: gate: %s", rd->obj->name,
			 rd->each ? "each: " : "");
}

/* "step 'lat': gate.", "step 'lat': gate.each.", "gates." */
static void path(const struct reader *rd, char *buf, size_t len)
{
	if (!rd->obj)
		snprintf(buf, len, "gates.");
	else
		snprintf(buf, len, "%s: gate.%s", rd->obj->name,
			 rd->each ? "each." : "");
}

const struct rs_loc *rs_bound_loc_to(const struct rs_bound *b,
				     const char *which, struct rs_loc *ret)
{
	const struct rs_node *v = which ? rs_node_get(b->node, which) : NULL;
	const struct rs_node *key = rs_node_key(b->node);

	if (v)
		return rs_node_loc_to(v, ret);
	return rs_node_loc_to(key ? key : b->node, ret);
}

/* @v as a whole number (libcyaml 1.3.1 took "1 ms" as 1); false: not. */
static bool number(const struct rs_node *v, double *ret)
{
	char *end;
	double x;

	if (!v || v->type != RS_NODE_SCALAR || !v->value || !v->value[0])
		return false;
	x = strtod(v->value, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == v->value || *end)
		return false;
	*ret = x;
	return true;
}

/* The words a bound may have: a figure's, a counter's, the run's. */
static const char *const fig_words[] = {
	"min", "max", "equals", "tolerance", "min_ratio", "max_ratio", "of",
	NULL
};
static const char *const counter_words[] = {
	"min", "max", "equals", "equals_counter", "tolerance", "missing",
	"min_ratio", "max_ratio", "of", NULL
};
static const char *const run_words[] = {
	"min", "max", "equals", "equals_counter", "tolerance", "missing", NULL
};

static const struct {
	const char *word;
	unsigned bit;
	size_t off;
} numbers[] = {
	{ "min", RS_BOUND_MIN, offsetof(struct rs_bound, min) },
	{ "max", RS_BOUND_MAX, offsetof(struct rs_bound, max) },
	{ "equals", RS_BOUND_EQUALS, offsetof(struct rs_bound, equals) },
	{ "tolerance", RS_BOUND_TOLERANCE,
	  offsetof(struct rs_bound, tolerance) },
	{ "min_ratio", RS_BOUND_MIN_RATIO,
	  offsetof(struct rs_bound, min_ratio) },
	{ "max_ratio", RS_BOUND_MAX_RATIO,
	  offsetof(struct rs_bound, max_ratio) },
};

/* A counter's kernel name: letters, digits, '_' (a glob: and * ? [ ]). */
static bool counter_name(const char *n, bool glob)
{
	if (!*n)
		return false;
	for (; *n; n++)
		if (!(*n == '_' || (*n >= 'a' && *n <= 'z') ||
		      (*n >= 'A' && *n <= 'Z') || (*n >= '0' && *n <= '9') ||
		      (glob && strchr("*?[]!-", *n))))
			return false;
	return true;
}

/* counters.NAME, counters.DEV/PORT.NAME, counters.DEV.NAME */
static int read_counter_key(const struct reader *rd, struct rs_bound *b,
			    const struct rs_node *key)
{
	const char *rest = key->value + strlen(COUNTERS);
	const char *dot = strrchr(rest, '.');
	char pre[160];

	prefix(rd, pre, sizeof(pre));
	if (dot) {
		b->scope = rs_doc_strndup(&rd->s->doc, rest, dot - rest);
		b->counter = dot + 1;
		if (!b->scope)
			return -ENOMEM;
	} else {
		b->counter = rest;
	}
	b->glob = strpbrk(b->counter, "*?[") != NULL;
	if ((b->scope && (!b->scope[0] || strpbrk(b->scope, "*?[."))) ||
	    !counter_name(b->counter, true)) {
		rs_diag_error(rd->d, rs_node_loc(key),
			      "%s'%s': name a counter as "
			      "counters.NAME (summed over the ports and "
			      "devices that have it), counters.DEV/PORT.NAME "
			      "or counters.DEV.NAME; NAME is the kernel's "
			      "(/sys/class/infiniband/DEV/ports/PORT/counters, "
			      "hw_counters) or an fnmatch glob", pre,
			      key->value);
		return -EINVAL;
	}
	return 0;
}

/* An unknown figure: the near ones and the list. */
static void unknown_figure(const struct reader *rd, const struct rs_node *key)
{
	struct rs_suggest sg;
	char buf[1024], who[200];
	size_t o;

	rs_suggest_init(&sg, key->value);
	for (unsigned i = 0; i < RS_FIG_COUNT; i++)
		rs_suggest_add(&sg, rs_figures[i].name);
	if (!rd->each)
		rs_suggest_add(&sg, "each");
	o = rs_suggest_fmt(&sg, false, buf, sizeof(buf));
	o += snprintf(buf + o, sizeof(buf) - o, " (expected one of: ");
	rs_figure_names(buf + o, sizeof(buf) - o - 40);
	strcat(buf, rd->each ? "; or counters.NAME)" :
	       "; or counters.NAME, each)");
	char ent[RDMASCN_ID_MAX + 32];

	snprintf(who, sizeof(who), "%s: gate%s ",
		 entry_name(rd, ent, sizeof(ent)), rd->each ? ".each:" : ":");
	rs_diag_error(rd->d, rs_node_loc(key), "%sunknown figure '%s'%s", who,
		      key->value, buf);
}

static bool has_word(const char *const *words, const char *w)
{
	for (; *words; words++)
		if (!strcmp(*words, w))
			return true;
	return false;
}

/* The words of @v, each known and of its type; b->has filled. */
static int read_words(const struct reader *rd, struct rs_bound *b,
		      const struct rs_node *v, const char *const *words)
{
	char pth[200];
	int r = 0;

	path(rd, pth, sizeof(pth));
	for (size_t j = 0; j + 1 < v->n; j += 2) {
		const struct rs_node *k = &v->items[j], *x = &v->items[j + 1];
		const char *w = k->value ? k->value : "";
		bool found = false;

		if (!rd->obj && strstr(w, "ratio")) {
			rs_diag_error(rd->d, rs_node_loc(k),
				      "%s%s: %s: the run has "
				      "no other run to compare with; a ratio "
				      "belongs in a step's gate: (of: an "
				      "earlier step)", pth, b->name, w);
			r = -EINVAL;
			continue;
		}
		if (!has_word(words, w)) {
			struct rs_suggest sg;
			char buf[256];

			rs_suggest_init(&sg, w);
			for (const char *const *p = words; *p; p++)
				rs_suggest_add(&sg, *p);
			rs_suggest_fmt(&sg, true, buf, sizeof(buf));
			if (rd->obj) {
				char ent[RDMASCN_ID_MAX + 32];

				snprintf(pth, sizeof(pth), "%s: gate.%s",
					 entry_name(rd, ent, sizeof(ent)),
					 rd->each ? "each." : "");
			}
			rs_diag_error(rd->d, rs_node_loc(k),
				      "%s%s: unknown field "
				      "'%s'%s", pth, b->name, w, buf);
			path(rd, pth, sizeof(pth));
			r = -EINVAL;
			continue;
		}
		for (size_t i = 0; i < RS_N(numbers); i++) {
			if (strcmp(numbers[i].word, w))
				continue;
			found = true;
			if (!number(x, (double *)((char *)b +
						  numbers[i].off))) {
				rs_diag_error(rd->d, rs_node_loc(x), "%s%s.%s: "
					      "expected a number, got '%s'",
					      pth, b->name, w,
					      rs_node_text(x) ?
					      rs_node_text(x) : "");
				r = -EINVAL;
			} else {
				b->has |= numbers[i].bit;
			}
		}
		if (found)
			continue;
		if (x->type != RS_NODE_SCALAR || !x->value || !x->value[0]) {
			rs_diag_error(rd->d, rs_node_loc(x),
				      "%s%s.%s: expected a "
				      "name", pth, b->name, w);
			r = -EINVAL;
		} else if (!strcmp(w, "of")) {
			b->of = x->value;
		} else if (!strcmp(w, "equals_counter")) {
			if (!counter_name(x->value, false)) {
				rs_diag_error(rd->d, rs_node_loc(x),
					      "%s%s.%s: '%s' "
					      "is not a counter's name (the "
					      "kernel's, in the same place as "
					      "%s)", pth, b->name, w, x->value,
					      b->name);
				r = -EINVAL;
			}
			b->equals_counter = x->value;
			b->has |= RS_BOUND_EQUALS_COUNTER;
		} else if (!strcmp(w, "missing")) {
			if (strcmp(x->value, "fail") &&
			    strcmp(x->value, "skip")) {
				rs_diag_error(rd->d, rs_node_loc(x),
					      "%s%s.missing: "
					      "unknown value '%s' (expected "
					      "one of: fail, skip)", pth,
					      b->name, x->value);
				r = -EINVAL;
			}
			b->missing_skip = !strcmp(x->value, "skip");
		}
	}
	return r;
}

/* The bounds of @b together: one given, finite, in order. */
static int check_together(const struct reader *rd, const struct rs_bound *b)
{
	char pre[160];
	const unsigned ratio = RS_BOUND_MIN_RATIO | RS_BOUND_MAX_RATIO;

	prefix(rd, pre, sizeof(pre));
	if (!(b->has & ~RS_BOUND_TOLERANCE)) {
		rs_diag_error(rd->d, rs_bound_loc(b, NULL), "%s%s: give min, "
			      "max or both%s", pre, b->name, b->fig ?
			      " (or equals, or min_ratio/max_ratio with of)" :
			      " (or equals, equals_counter)");
		return -EINVAL;
	}
	for (size_t i = 0; i < RS_N(numbers); i++) {
		double x = *(const double *)((const char *)b + numbers[i].off);

		if ((b->has & numbers[i].bit) && !isfinite(x)) {
			rs_diag_error(rd->d, rs_bound_loc(b, numbers[i].word),
				      "%s%s: a bound must be a finite number",
				      pre, b->name);
			return -EINVAL;
		}
	}
	if ((b->has & RS_BOUND_MIN) && (b->has & RS_BOUND_MAX) &&
	    b->min > b->max) {
		rs_diag_error(rd->d, rs_bound_loc(b, "min"), "%s%s: min %g is "
			      "above max %g", pre, b->name, b->min, b->max);
		return -EINVAL;
	}
	if ((b->has & RS_BOUND_EQUALS) &&
	    (b->has & (RS_BOUND_MIN | RS_BOUND_MAX))) {
		rs_diag_error(rd->d, rs_bound_loc(b, "equals"), "%s%s: equals "
			      "with min or max: give one or the other", pre,
			      b->name);
		return -EINVAL;
	}
	if ((b->has & RS_BOUND_TOLERANCE) &&
	    (!(b->has & (RS_BOUND_EQUALS | RS_BOUND_EQUALS_COUNTER)) ||
	     b->tolerance < 0)) {
		rs_diag_error(rd->d, rs_bound_loc(b, "tolerance"), "%s%s: "
			      "tolerance is how far from equals or "
			      "equals_counter a value may be: a number, 0 or "
			      "more, beside one of them", pre, b->name);
		return -EINVAL;
	}
	if (!!(b->has & ratio) != !!b->of) {
		rs_diag_error(rd->d, rs_bound_loc(b, b->of ? "of" : (b->has &
				RS_BOUND_MIN_RATIO) ? "min_ratio" :
				"max_ratio"),
			      "%s%s: min_ratio and max_ratio compare with the "
			      "same figure of another step: give of: STEP_ID "
			      "with one of them", pre, b->name);
		return -EINVAL;
	}
	if (((b->has & RS_BOUND_MIN_RATIO) && b->min_ratio <= 0) ||
	    ((b->has & RS_BOUND_MAX_RATIO) && b->max_ratio <= 0)) {
		rs_diag_error(rd->d, rs_bound_loc(b, (b->has &
				RS_BOUND_MIN_RATIO) && b->min_ratio <= 0 ?
				"min_ratio" : "max_ratio"),
			      "%s%s: a ratio is above 0", pre, b->name);
		return -EINVAL;
	}
	if ((b->has & RS_BOUND_MIN_RATIO) && (b->has & RS_BOUND_MAX_RATIO) &&
	    b->min_ratio > b->max_ratio) {
		rs_diag_error(rd->d, rs_bound_loc(b, "min_ratio"), "%s%s: "
			      "min_ratio %g is above max_ratio %g", pre,
			      b->name, b->min_ratio, b->max_ratio);
		return -EINVAL;
	}
	return 0;
}

static bool records(const struct rdmascn_kind *k, const char *group)
{
	if (!k->figures)
		return true;
	for (const char *const *g = k->figures; *g; g++)
		if (!strcmp(*g, group))
			return true;
	return false;
}

static void groups_of(const struct rdmascn_kind *k, char *buf, size_t len)
{
	size_t o = 0;

	snprintf(buf, len, "none");
	for (const char *const *g = k->figures; *g && o < len; g++)
		o += snprintf(buf + o, len - o, "%s%s", o ? ", " : "", *g);
}

/* One key of the gate and its bounds into @b. */
static int read_bound(const struct reader *rd, struct rs_bound *b,
		      const struct rs_node *key, const struct rs_node *v)
{
	const char *const *words;
	char pre[160], groups[128];
	int r;

	prefix(rd, pre, sizeof(pre));
	b->name = key->value;
	b->node = v;
	if (!strncmp(key->value, COUNTERS, strlen(COUNTERS))) {
		r = read_counter_key(rd, b, key);
		if (r < 0)
			return r;
		words = rd->obj ? counter_words : run_words;
	} else if (!rd->obj) {
		rs_diag_error(rd->d, rs_node_loc(key),
			      "%s'%s': the run's gates bound "
			      "its counters (counters.NAME: {max: 0}); a "
			      "step's figures are bounded by that step's "
			      "gate:", pre, key->value);
		return -EINVAL;
	} else {
		b->fig = NULL;
		for (unsigned i = 0; i < RS_FIG_COUNT; i++)
			if (!strcmp(rs_figures[i].name, key->value))
				b->fig = &rs_figures[i];
		if (!b->fig) {
			unknown_figure(rd, key);
			return -EINVAL;
		}
		words = fig_words;
	}
	if (v->type != RS_NODE_MAP) {
		rs_diag_error(rd->d, rs_node_loc(v),
			      "%s%s: expected a mapping of "
			      "bounds ({min: N, max: N})", pre, b->name);
		return -EINVAL;
	}
	if (b->fig && !records(rd->obj->kind, b->fig->group)) {
		groups_of(rd->obj->kind, groups, sizeof(groups));
		rs_diag_error(rd->d, rs_node_loc(key),
			      "%sa %s step records no %s "
			      "figures (it records: %s)", pre,
			      rd->obj->kind->name, b->fig->group, groups);
		return -EINVAL;
	}
	r = read_words(rd, b, v, words);
	if (!r)
		r = check_together(rd, b);
	if (!r && !b->fig && rd->obj && rd->obj->parent) {
		rs_diag_error(rd->d, rs_node_loc(key),
			      "%s%s: counters are read "
			      "around each top-level step, and this one runs "
			      "inside %s: gate them there", pre, b->name,
			      rd->obj->parent->name);
		r = -EINVAL;
	}
	return r;
}

static unsigned rank(const struct rs_bound *b)
{
	return b->fig ? (unsigned)(b->fig - rs_figures) : RS_FIG_COUNT;
}

static int read_gate(struct reader *rd, const struct rs_node *map,
		     struct rs_gate **ret)
{
	struct rs_gate *g;
	char pre[160];
	int r = 0, r1;

	prefix(rd, pre, sizeof(pre));
	if (map->type != RS_NODE_MAP) {
		rs_diag_error(rd->d, rs_node_loc(map),
			      "%sexpected a mapping of "
			      "figures to bounds (latency.typical: {max: 5})",
			      pre);
		return -EINVAL;
	}
	g = rs_doc_alloc(&rd->s->doc, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->b = rs_doc_alloc(&rd->s->doc, (map->n / 2 + 1) * sizeof(*g->b));
	if (!g->b)
		return -ENOMEM;
	for (size_t j = 0; j + 1 < map->n; j += 2) {
		const struct rs_node *k = &map->items[j];
		const struct rs_node *v = &map->items[j + 1];

		if (rd->obj && !rd->each && k->value &&
		    !strcmp(k->value, "each")) {
			rd->each = true;
			r1 = read_gate(rd, v, &g->each);
			rd->each = false;
		} else {
			r1 = read_bound(rd, &g->b[g->n], k, v);
			if (!r1)
				g->n++;
		}
		if (r1 == -ENOMEM)
			return r1;
		if (r1 < 0)
			r = r1;
	}
	/* The record lists figures in the table's order, as compare and
	 * the reports read them; counters after, as written. */
	for (unsigned i = 1; i < g->n; i++) {
		struct rs_bound x = g->b[i];
		unsigned k = i;

		while (k > 0 && rank(&g->b[k - 1]) > rank(&x)) {
			g->b[k] = g->b[k - 1];
			k--;
		}
		g->b[k] = x;
	}
	*ret = g;
	return r;
}

int rs_gate_check(struct rs_scenario *s, struct rs_obj *obj,
		  struct rs_diag *d)
{
	struct rs_step_common *c = obj->data;
	struct rs_node *node = rs_node_get(obj->node, "gate");
	struct reader rd = { .s = s, .obj = obj, .d = d };
	int r;

	/* An element whose data is its entry's: read once. */
	if (!node || c->gate)
		return 0;
	r = read_gate(&rd, node, &c->gate);
	if (r < 0) {
		c->gate = NULL;
		return r;
	}
	if (!c->gate->each)
		return 0;
	/* One run has one element: each: would say what gate: says, but
	 * not stop at the first miss; a file that means a counted step
	 * and is not one is told so. */
	if (!rs_obj_count(obj)) {
		struct rs_node *each = rs_node_get(node, "each");

		rs_diag_error(d, rs_node_loc(rs_node_key(each)),
			      "%s: gate: each: bounds every element of a "
			      "counted step (count:, or a bare reference to a "
			      "counted entry); this step runs once: use the "
			      "bounds beside each:", obj->name);
		return -EINVAL;
	}
	return 0;
}

int rs_run_gates_read(struct rs_scenario *s, struct rs_diag *d,
		      struct rs_gate **ret_gate)
{
	struct rs_node *node = rs_node_get(s->doc.root, "gates");
	struct reader rd = { .s = s, .d = d };
	struct rs_gate *g = NULL;
	int r;

	if (!node) {
		*ret_gate = NULL;
		return 0;
	}
	r = read_gate(&rd, node, &g);
	if (r < 0)
		return r;
	*ret_gate = g;
	return 0;
}

/* The top-level step @o is, or is inside. */
static const struct rs_obj *top_of(const struct rs_obj *o)
{
	while (o->parent)
		o = o->parent;
	return o;
}

static int check_of(struct rs_scenario *s, const struct rs_obj *o,
		    const struct rs_gate *g, struct rs_diag *d)
{
	int r = 0;

	for (unsigned i = 0; g && i < g->n; i++) {
		const struct rs_bound *b = &g->b[i];
		const struct rs_obj *of = NULL;
		unsigned at_of = 0, at_o = 0;

		if (!b->of)
			continue;
		for (unsigned j = 0; j < s->n_steps; j++) {
			if (s->steps[j]->id && !strcmp(s->steps[j]->id, b->of))
				of = s->steps[j];
			if (s->steps[j] == top_of(o))
				at_o = j;
		}
		for (unsigned j = 0; of && j < s->n_steps; j++)
			if (s->steps[j] == top_of(of))
				at_of = j;
		if (!of) {
			rs_diag_error(d, rs_bound_loc(b, "of"), "%s: gate: %s: "
				      "of: no step has id '%s'", o->name,
				      b->name, b->of);
			r = -EINVAL;
		} else if (of == o || at_of >= at_o) {
			rs_diag_error(d, rs_bound_loc(b, "of"), "%s: gate: %s: "
				      "of: %s %s: a ratio compares with a "
				      "step that has ended before this one "
				      "starts (an earlier top-level step)",
				      o->name, b->name, of->name, of == o ?
				      "is this step" : top_of(of) == top_of(o) ?
				      "runs beside it, in the same step" :
				      "runs after it");
			r = -EINVAL;
		} else if (b->fig && !records(of->kind, b->fig->group)) {
			char groups[128];

			groups_of(of->kind, groups, sizeof(groups));
			rs_diag_error(d, rs_bound_loc(b, "of"), "%s: gate: %s: "
				      "of: %s is a %s step, which records no "
				      "%s figures (it records: %s)", o->name,
				      b->name, of->name, of->kind->name,
				      b->fig->group, groups);
			r = -EINVAL;
		} else if (!b->fig && of->parent) {
			rs_diag_error(d, rs_bound_loc(b, "of"), "%s: gate: %s: "
				      "of: %s runs inside %s, and counters are "
				      "read around top-level steps only",
				      o->name, b->name, of->name,
				      of->parent->name);
			r = -EINVAL;
		}
	}
	return r;
}

int rs_gate_check_of(struct rs_scenario *s, struct rs_diag *d)
{
	int r = 0;

	for (unsigned i = 0; i < s->n_steps; i++) {
		const struct rs_step_common *c = s->steps[i]->data;

		if (!c->gate)
			continue;
		if (check_of(s, s->steps[i], c->gate, d) < 0 ||
		    check_of(s, s->steps[i], c->gate->each, d) < 0)
			r = -EINVAL;
	}
	return r;
}

/* --- entries -------------------------------------------------------------- */

static struct rs_val *put_entry(struct rs_val *arr, const struct rs_bound *b,
				bool each)
{
	struct rs_val *e = rs_val_push_obj(arr);

	rs_val_put_str(e, "figure", b->name);
	if (b->fig && b->fig->unit)
		rs_val_put_str(e, "unit", b->fig->unit);
	if (b->has & RS_BOUND_MIN)
		rs_val_put_double(e, "min", b->min);
	if (b->has & RS_BOUND_MAX)
		rs_val_put_double(e, "max", b->max);
	if (b->has & RS_BOUND_EQUALS)
		rs_val_put_double(e, "equals", b->equals);
	if (b->has & RS_BOUND_EQUALS_COUNTER)
		rs_val_put_str(e, "equals_counter", b->equals_counter);
	if (b->has & RS_BOUND_TOLERANCE)
		rs_val_put_double(e, "tolerance", b->tolerance);
	if (b->has & RS_BOUND_MIN_RATIO)
		rs_val_put_double(e, "min_ratio", b->min_ratio);
	if (b->has & RS_BOUND_MAX_RATIO)
		rs_val_put_double(e, "max_ratio", b->max_ratio);
	if (b->of)
		rs_val_put_str(e, "of", b->of);
	if (b->missing_skip)
		rs_val_put_str(e, "missing", "skip");
	if (each)
		rs_val_put_bool(e, "each", true);
	rs_val_put_loc(e, rs_bound_loc(b, (b->has & RS_BOUND_MAX) ? "max" :
				       (b->has & RS_BOUND_MIN) ? "min" :
				       (b->has & RS_BOUND_EQUALS) ? "equals" :
				       (b->has & RS_BOUND_EQUALS_COUNTER) ?
				       "equals_counter" : b->of ? "of" : NULL));
	return e;
}

struct rs_val *rs_gate_entries(const struct rs_gate *g)
{
	struct rs_val *arr;

	if (!g)
		return NULL;
	arr = rs_val_arr();
	for (unsigned i = 0; arr && i < g->n; i++)
		put_entry(arr, &g->b[i], false);
	for (unsigned i = 0; arr && g->each && i < g->each->n; i++)
		put_entry(arr, &g->each->b[i], true);
	return arr;
}

/* --- judging -------------------------------------------------------------- */

/* Counter @name in @counters, summed over the places (or in @scope's):
 * false when no place has it.  Each place that has it goes into
 * @where ({"rxe_a/1": 2000}) when not NULL. */
static bool counter_value(const struct rs_val *counters, const char *scope,
			  const char *name, double *ret, struct rs_val *where)
{
	bool found = false;
	double sum = 0;

	rs_val_foreach(counters, at) {
		const char *place = rs_val_key(at);
		const struct rs_val *v = rs_val_get(at, name);

		if ((scope && strcmp(place, scope)) || !v)
			continue;
		found = true;
		sum += rs_val_double_of(v);
		if (where)
			rs_val_put_double(where, place, rs_val_double_of(v));
	}
	if (found)
		*ret = sum;
	return found;
}

/* "rxe_a/1 and rxe_a", "rxe_a/1, rxe_b/1 and rxe_a": the places looked
 * in; "no counters were read (...)" when none. */
static void places_text(const struct rs_val *counters, const char *scope,
			char *buf, size_t len)
{
	size_t n = 0, i = 0, o = 0;

	buf[0] = '\0';
	rs_val_foreach(counters, v0)
		n += !scope || !strcmp(rs_val_key(v0), scope);
	if (!n) {
		if (scope)
			snprintf(buf, len, "%s has no counters recorded",
				 scope);
		else
			snprintf(buf, len, "no counters were read (none "
				 "are with --counters=off)");
		return;
	}
	rs_val_foreach(counters, v) {
		const char *p = rs_val_key(v);

		if (scope && strcmp(p, scope))
			continue;
		i++;
		if (o < len)
			o += snprintf(buf + o, len - o, "%s%s",
				      i == 1 ? "" : i == n ? " and " : ", ", p);
	}
	if (o < len)
		snprintf(buf + o, len - o, " %s no such counter",
			 n == 1 ? "has" : "have");
}

/* " (rxe_a/1 2000, rxe_b/1 0)" */
static void where_text(const struct rs_val *where, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	if (!rs_val_len(where))
		return;
	rs_val_foreach(where, v) {
		if (o < len)
			o += snprintf(buf + o, len - o, "%s%s %g",
				      o ? ", " : " (", rs_val_key(v),
				      rs_val_double_of(v));
	}
	if (o < len)
		snprintf(buf + o, len - o, ")");
}

struct judging {
	const struct rs_bound *b;
	const char *name;        /* the figure or counter's full name */
	const char *counter;     /* the counter (a glob's match) */
	const char *elem;
	const struct rs_val *figures, *of_figures;
	struct rs_val *e;
	rs_gate_miss_fn *miss;
	void *ctx;
	unsigned missed;
};

static void missed(struct judging *j, const char *which, bool unmeasured,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void missed(struct judging *j, const char *which, bool unmeasured,
		   const char *fmt, ...)
{
	char what[768], bounds[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	j->missed++;
	if (j->elem) {
		char full[sizeof(what) + sizeof(bounds) + 200];

		rs_gate_bounds_text(j->e, bounds, sizeof(bounds));
		snprintf(full, sizeof(full), "%s: %.160s %s", bounds, j->elem,
			 what);
		j->miss(j->ctx, j->b, which, unmeasured, full);
		return;
	}
	j->miss(j->ctx, j->b, which, unmeasured, what);
}

/* The value of what j judges in @figures; false: none. */
static bool value_in(const struct judging *j, const struct rs_val *figures,
		     double *ret, struct rs_val *where)
{
	const struct rs_bound *b = j->b;
	const struct rs_val *g;

	if (!figures)
		return false;
	if (!b->fig)
		return counter_value(rs_val_get(figures, "counters"), b->scope,
				     j->counter, ret, where);
	g = rs_val_get(figures, b->fig->group);
	if (!g || !rs_val_get(g, b->fig->key))
		return false;
	*ret = rs_val_get_double(g, b->fig->key);
	return true;
}

static void judge_one(struct judging *j)
{
	const struct rs_bound *b = j->b;
	const char *unit = b->fig && b->fig->unit ? b->fig->unit : "";
	const char *sp = unit[0] ? " " : "";
	struct rs_val *where = b->fig ? NULL : rs_val_obj();
	char wt[256] = "", places[256];
	bool held = true;
	double v, x;

	if (!value_in(j, j->figures, &v, where)) {
		rs_val_free(where);
		rs_val_put_bool(j->e, "passed", false);
		if (b->fig) {
			if (j->elem)
				missed(j, NULL, true, "has no %s", j->name);
			else
				missed(j, NULL, true, "%s was not recorded",
				       j->name);
			return;
		}
		rs_val_put_bool(j->e, "measured", false);
		if (b->missing_skip)
			rs_val_put_bool(j->e, "skipped", true);
		places_text(rs_val_get(j->figures, "counters"), b->scope,
			    places, sizeof(places));
		missed(j, NULL, true, "%s: not measured: %s", j->name, places);
		return;
	}
	rs_val_put_double(j->e, "value", v);
	if (where) {
		where_text(where, wt, sizeof(wt));
		rs_val_put(j->e, "where", where);
	}
	if (j->elem) {
		/* "latency.typical <= 20 usec each: lat[7] (a -> b) has
		 * 31.2 usec" */
		if (((b->has & RS_BOUND_MIN) && v < b->min) ||
		    ((b->has & RS_BOUND_MAX) && v > b->max) ||
		    ((b->has & RS_BOUND_EQUALS) &&
		     fabs(v - b->equals) > b->tolerance)) {
			rs_val_put_bool(j->e, "passed", false);
			missed(j, (b->has & RS_BOUND_MIN) && v < b->min ?
			       "min" : (b->has & RS_BOUND_MAX) ? "max" :
			       "equals", false, "has %g%s%s%s", v, sp, unit,
			       wt);
			return;
		}
	}
	if (!j->elem && (b->has & RS_BOUND_MIN) && v < b->min) {
		held = false;
		missed(j, "min", false, "%s is %g%s%s%s, below min %g",
		       j->name, v, sp, unit, wt, b->min);
	}
	if (!j->elem && (b->has & RS_BOUND_MAX) && v > b->max) {
		held = false;
		missed(j, "max", false, "%s is %g%s%s%s, above max %g",
		       j->name, v, sp, unit, wt, b->max);
	}
	if (!j->elem && (b->has & RS_BOUND_EQUALS) &&
	    fabs(v - b->equals) > b->tolerance) {
		held = false;
		if (b->tolerance > 0)
			missed(j, "equals", false, "%s is %g%s%s%s, more than "
			       "%g from %g", j->name, v, sp, unit, wt,
			       b->tolerance, b->equals);
		else
			missed(j, "equals", false, "%s is %g%s%s%s, not %g",
			       j->name, v, sp, unit, wt, b->equals);
	}
	if (b->has & RS_BOUND_EQUALS_COUNTER) {
		struct judging o = *j;

		o.counter = b->equals_counter;
		if (!value_in(&o, j->figures, &x, NULL)) {
			held = false;
			rs_val_put_bool(j->e, "measured", false);
			places_text(rs_val_get(j->figures, "counters"),
				    b->scope, places, sizeof(places));
			missed(j, "equals_counter", true, "%s: %s not "
			       "measured: %s", j->name, b->equals_counter,
			       places);
		} else {
			rs_val_put_double(j->e, "other", x);
			if (fabs(v - x) > b->tolerance && b->tolerance > 0) {
				held = false;
				missed(j, "equals_counter", false, "%s is "
				       "%g%s, %s is %g: more than %g apart",
				       j->name, v, wt, b->equals_counter, x,
				       b->tolerance);
			} else if (fabs(v - x) > 0 && b->tolerance == 0) {
				held = false;
				missed(j, "equals_counter", false, "%s is "
				       "%g%s, %s is %g: not equal", j->name, v,
				       wt, b->equals_counter, x);
			}
		}
	}
	if (b->of) {
		if (!value_in(j, j->of_figures, &x, NULL) || x == 0) {
			held = false;
			missed(j, "of", false, "%s: step '%s' %s, so there is "
			       "no ratio", j->name, b->of, value_in(j,
			       j->of_figures, &x, NULL) ? "recorded 0" :
			       "recorded none");
		} else {
			double ratio = v / x;

			rs_val_put_double(j->e, "of_value", x);
			rs_val_put_double(j->e, "ratio", ratio);
			if ((b->has & RS_BOUND_MIN_RATIO) &&
			    ratio < b->min_ratio) {
				held = false;
				missed(j, "min_ratio", false, "%s is %g%s%s, "
				       "%.3g of step '%s''s %g%s%s, below "
				       "min_ratio %g", j->name, v, sp, unit,
				       ratio, b->of, x, sp, unit,
				       b->min_ratio);
			}
			if ((b->has & RS_BOUND_MAX_RATIO) &&
			    ratio > b->max_ratio) {
				held = false;
				missed(j, "max_ratio", false, "%s is %g%s%s, "
				       "%.3g of step '%s''s %g%s%s, above "
				       "max_ratio %g", j->name, v, sp, unit,
				       ratio, b->of, x, sp, unit,
				       b->max_ratio);
			}
		}
	}
	rs_val_put_bool(j->e, "passed", held);
}

/* The counters a glob matches in @counters (in @scope), each once. */
static struct rs_val *matches(const struct rs_val *counters, const char *scope,
			      const char *glob)
{
	struct rs_val *names = rs_val_obj();

	rs_val_foreach(counters, at) {
		if (scope && strcmp(rs_val_key(at), scope))
			continue;
		rs_val_foreach(at, v) {
			const char *name = rs_val_key(v);

			if (!fnmatch(glob, name, 0))
				rs_val_put_bool(names, name, true);
		}
	}
	return names;
}

unsigned rs_gate_judge(const struct rs_bound *b, const char *elem,
		       const struct rs_val *figures,
		       const struct rs_val *of_figures, struct rs_val *arr,
		       rs_gate_miss_fn *miss, void *ctx)
{
	struct judging j = {
		.b = b, .name = b->name, .counter = b->counter, .elem = elem,
		.figures = figures, .of_figures = of_figures, .miss = miss,
		.ctx = ctx,
	};
	struct rs_val *names;
	char full[256];

	if (!b->glob) {
		j.e = put_entry(arr, b, elem != NULL);
		judge_one(&j);
		return j.missed;
	}
	names = matches(rs_val_get(figures, "counters"), b->scope, b->counter);
	if (!rs_val_len(names)) {
		/* A glob that matches nothing: as a name the device lacks,
		 * so that a misspelt one is not silently held. */
		j.e = put_entry(arr, b, elem != NULL);
		judge_one(&j);
	}
	rs_val_foreach(names, v) {
		const char *name = rs_val_key(v);

		if (b->scope)
			snprintf(full, sizeof(full), COUNTERS "%s.%s",
				 b->scope, name);
		else
			snprintf(full, sizeof(full), COUNTERS "%s", name);
		j.name = full;
		j.counter = name;
		j.e = put_entry(arr, b, elem != NULL);
		rs_val_put_str(j.e, "figure", full);
		rs_val_put_str(j.e, "pattern", b->name);
		judge_one(&j);
	}
	rs_val_free(names);
	return j.missed;
}

/* --- text ----------------------------------------------------------------- */

static bool flag(const struct rs_val *e, const char *key)
{
	return rs_val_get_bool(e, key);
}

static void append(char *buf, size_t len, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	if (n > 0)
		*o += n;
}

void rs_gate_text(const struct rs_val *e, char *buf, size_t len)
{
	const char *unit = rs_val_get_str(e, "unit");
	size_t o = 0;

	buf[0] = '\0';
	append(buf, len, &o, "%s", rs_val_get_str(e, "figure"));
	if (rs_val_get(e, "min"))
		append(buf, len, &o, " min %g", rs_val_get_double(e, "min"));
	if (rs_val_get(e, "max"))
		append(buf, len, &o, " max %g", rs_val_get_double(e, "max"));
	if (rs_val_get(e, "equals"))
		append(buf, len, &o, " equals %g",
		       rs_val_get_double(e, "equals"));
	if (rs_val_get(e, "equals_counter"))
		append(buf, len, &o, " equals_counter %s",
		       rs_val_get_str(e, "equals_counter"));
	if (rs_val_get(e, "tolerance"))
		append(buf, len, &o, " tolerance %g",
		       rs_val_get_double(e, "tolerance"));
	if (rs_val_get(e, "min_ratio"))
		append(buf, len, &o, " min_ratio %g",
		       rs_val_get_double(e, "min_ratio"));
	if (rs_val_get(e, "max_ratio"))
		append(buf, len, &o, " max_ratio %g",
		       rs_val_get_double(e, "max_ratio"));
	if (rs_val_get(e, "of"))
		append(buf, len, &o, " of %s", rs_val_get_str(e, "of"));
	if (unit)
		append(buf, len, &o, " %s", unit);
	if (flag(e, "each"))
		append(buf, len, &o, " each");
}

void rs_gate_bounds_text(const struct rs_val *e, char *buf, size_t len)
{
	const char *unit = rs_val_get_str(e, "unit");
	const char *fig = rs_val_get_str(e, "figure");
	const char *sp = unit ? " " : "";
	bool min = rs_val_get(e, "min"), max = rs_val_get(e, "max");
	const char *each = flag(e, "each") ? " each" : "";
	size_t o = 0;

	if (!unit)
		unit = "";
	buf[0] = '\0';
	if (min && max)
		append(buf, len, &o, "%g <= %s <= %g%s%s",
		       rs_val_get_double(e, "min"), fig,
		       rs_val_get_double(e, "max"), sp, unit);
	else if (min)
		append(buf, len, &o, "%s >= %g%s%s", fig,
		       rs_val_get_double(e, "min"), sp, unit);
	else if (max)
		append(buf, len, &o, "%s <= %g%s%s", fig,
		       rs_val_get_double(e, "max"), sp, unit);
	if (rs_val_get(e, "equals"))
		append(buf, len, &o, "%s%s == %g%s%s", o ? ", " : "", fig,
		       rs_val_get_double(e, "equals"), sp, unit);
	if (rs_val_get(e, "equals_counter"))
		append(buf, len, &o, "%s%s == %s", o ? ", " : "", fig,
		       rs_val_get_str(e, "equals_counter"));
	if (rs_val_get(e, "tolerance"))
		append(buf, len, &o, " +- %g",
		       rs_val_get_double(e, "tolerance"));
	if (rs_val_get(e, "min_ratio"))
		append(buf, len, &o, "%s%s >= %g x %s", o ? ", " : "", fig,
		       rs_val_get_double(e, "min_ratio"),
		       rs_val_get_str(e, "of"));
	if (rs_val_get(e, "max_ratio"))
		append(buf, len, &o, "%s%s <= %g x %s", o ? ", " : "", fig,
		       rs_val_get_double(e, "max_ratio"),
		       rs_val_get_str(e, "of"));
	append(buf, len, &o, "%s", each);
}

void rs_gate_result_text(const struct rs_val *e, char *buf, size_t len)
{
	const char *unit = rs_val_get_str(e, "unit");
	const char *sp = unit ? " " : "";
	bool held = flag(e, "passed");
	size_t o;

	rs_gate_bounds_text(e, buf, len);
	o = strlen(buf);
	if (o + 1 >= len)
		return;
	if (!unit)
		unit = "";
	if (!rs_val_get(e, "value")) {
		if (rs_val_get(e, "measured"))
			append(buf, len, &o, ": not measured, %s",
			       flag(e, "skipped") ? "skipped" : "missed");
		else
			append(buf, len, &o, ": not recorded, missed");
		return;
	}
	append(buf, len, &o, ": %g%s%s", rs_val_get_double(e, "value"), sp,
	       unit);
	if (rs_val_get(e, "other"))
		append(buf, len, &o, " vs %g", rs_val_get_double(e, "other"));
	if (rs_val_get(e, "ratio"))
		append(buf, len, &o, " = %.3g x %g%s%s",
		       rs_val_get_double(e, "ratio"),
		       rs_val_get_double(e, "of_value"), sp, unit);
	append(buf, len, &o, " %s", held ? "held" : "missed");
}
