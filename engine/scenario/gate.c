// SPDX-License-Identifier: MIT
/* A step's `gate:`: its schema, the figures it may name, its checks. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "gate.h"
#include "model.h"
#include "value.h"

static const cyaml_schema_field_t bound_fields[] = {
	CYAML_FIELD_FLOAT_PTR("min", CYAML_FLAG_OPTIONAL, struct rs_bound, min),
	CYAML_FIELD_FLOAT_PTR("max", CYAML_FLAG_OPTIONAL, struct rs_bound, max),
	CYAML_FIELD_END
};

#define RS_GATE_FIELD_NO(id, g, k)
#define RS_GATE_FIELD_YES(id, g, k)                                       \
	CYAML_FIELD_MAPPING_PTR(g "." k, CYAML_FLAG_POINTER |             \
				CYAML_FLAG_OPTIONAL, struct rs_gate,      \
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
				CYAML_FLAG_OPTIONAL, struct rs_gate, each,
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

/* The gate's mapping (its each: with @each), its figure's value node. */
static struct rs_node *figure_node(const struct rs_obj *obj, enum rs_figure f,
				   bool each)
{
	struct rs_node *gate = rs_node_get(obj->node, "gate");

	if (gate && each)
		gate = rs_node_get(gate, "each");
	return gate ? rs_node_get(gate, rs_figures[f].name) : NULL;
}

const struct rs_loc *rs_gate_loc(const struct rs_obj *obj, enum rs_figure f,
				 bool each, const char *which)
{
	struct rs_node *v = figure_node(obj, f, each);
	struct rs_node *b = v && which ? rs_node_get(v, which) : NULL;

	if (b)
		return &b->loc;
	if (v)
		return &v->key->loc;
	return rs_obj_loc(obj, "gate");
}

/* libcyaml 1.3.1 takes "1 ms" as 1: the whole scalar must be the
 * number.  Which bound is not, or NULL. */
static const char *not_a_number(const struct rs_obj *obj, enum rs_figure f,
				bool each)
{
	static const char *const which[] = { "min", "max" };
	struct rs_node *v = figure_node(obj, f, each);

	for (unsigned i = 0; v && i < 2; i++) {
		struct rs_node *b = rs_node_get(v, which[i]);
		char *end;

		if (!b || !b->value)
			continue;
		strtod(b->value, &end);
		while (*end == ' ' || *end == '\t')
			end++;
		if (end == b->value || *end)
			return which[i];
	}
	return NULL;
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

/* The bounds of @g (each: when @each), checked. */
static int check_bounds(const struct rs_obj *obj, const struct rs_gate *g,
			bool each, struct rs_diag *d)
{
	const struct rdmascn_kind *k = obj->kind;
	const char *in = each ? "each: " : "";
	char groups[128];
	int r = 0;

	for (unsigned i = 0; i < RS_FIG_COUNT; i++) {
		const struct rs_bound *b = g->f[i];
		const struct rs_figure_def *f = &rs_figures[i];
		const char *bad;

		if (!b)
			continue;
		if (!records(k, f->group)) {
			groups_of(k, groups, sizeof(groups));
			rs_diag_error(d, rs_gate_loc(obj, i, each, NULL),
				      "%s: gate: %sa %s step records no %s "
				      "figures (it records: %s)", obj->name,
				      in, k->name, f->group, groups);
			r = -EINVAL;
			continue;
		}
		bad = not_a_number(obj, i, each);
		if (bad) {
			rs_diag_error(d, rs_gate_loc(obj, i, each, bad),
				      "%s: gate.%s%s.%s: expected a number, "
				      "got '%s'", obj->name,
				      each ? "each." : "", f->name, bad,
				      rs_node_get(figure_node(obj, i, each),
						  bad)->value);
			r = -EINVAL;
			continue;
		}
		if (!b->min && !b->max) {
			rs_diag_error(d, rs_gate_loc(obj, i, each, NULL),
				      "%s: gate: %s%s: give min, max or both",
				      obj->name, in, f->name);
			r = -EINVAL;
			continue;
		}
		if ((b->min && !isfinite(*b->min)) ||
		    (b->max && !isfinite(*b->max))) {
			rs_diag_error(d, rs_gate_loc(obj, i, each, b->min &&
					!isfinite(*b->min) ? "min" : "max"),
				      "%s: gate: %s%s: a bound must be a "
				      "finite number", obj->name, in, f->name);
			r = -EINVAL;
			continue;
		}
		if (b->min && b->max && *b->min > *b->max) {
			rs_diag_error(d, rs_gate_loc(obj, i, each, "min"),
				      "%s: gate: %s%s: min %g is above max %g",
				      obj->name, in, f->name, *b->min, *b->max);
			r = -EINVAL;
		}
	}
	return r;
}

int rs_gate_check(const struct rs_obj *obj, struct rs_diag *d)
{
	const struct rs_step_common *c = obj->data;
	int r;

	if (!c->gate)
		return 0;
	r = check_bounds(obj, c->gate, false, d);
	if (!c->gate->each)
		return r;
	/* One run has one element: each: would say what gate: says, but
	 * not stop at the first miss; a file that means a counted step
	 * and is not one is told so. */
	if (!obj->count) {
		struct rs_node *gate = rs_node_get(obj->node, "gate");
		struct rs_node *each = gate ? rs_node_get(gate, "each") : NULL;

		rs_diag_error(d, each ? &each->key->loc :
			      rs_obj_loc(obj, "gate"),
			      "%s: gate: each: bounds every element of a "
			      "counted step (count:, or a bare reference to a "
			      "counted entry); this step runs once: use the "
			      "bounds beside each:", obj->name);
		return -EINVAL;
	}
	return check_bounds(obj, c->gate->each, true, d) ? -EINVAL : r;
}

static void put_entries(struct rs_val *arr, const struct rs_obj *obj,
			const struct rs_gate *g, bool each)
{
	for (unsigned i = 0; arr && i < RS_FIG_COUNT; i++) {
		const struct rs_bound *b = g->f[i];
		struct rs_val *e;

		if (!b)
			continue;
		e = rs_val_push_obj(arr);
		rs_val_put_str(e, "figure", rs_figures[i].name);
		rs_val_put_str(e, "unit", rs_figures[i].unit);
		if (b->min)
			rs_val_put_double(e, "min", *b->min);
		if (b->max)
			rs_val_put_double(e, "max", *b->max);
		if (each)
			rs_val_put_bool(e, "each", true);
		rs_val_put_loc(e, rs_gate_loc(obj, i, each,
					      b->max ? "max" : "min"));
	}
}

struct rs_val *rs_gate_entries(const struct rs_obj *obj)
{
	const struct rs_step_common *c = obj->data;
	struct rs_val *arr;

	if (!c->gate)
		return NULL;
	arr = rs_val_arr();
	put_entries(arr, obj, c->gate, false);
	if (c->gate->each)
		put_entries(arr, obj, c->gate->each, true);
	return arr;
}

static bool is_each(const struct rs_val *e)
{
	return json_object_get_boolean(rs_val_json(rs_val_get(e, "each")));
}

void rs_gate_text(const struct rs_val *e, char *buf, size_t len)
{
	const char *unit = rs_val_get_str(e, "unit");
	bool min = rs_val_get(e, "min"), max = rs_val_get(e, "max");
	int n;

	n = snprintf(buf, len, "%s", rs_val_get_str(e, "figure"));
	if (min && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, " min %g", rs_val_get_double(e, "min"));
	if (max && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, " max %g", rs_val_get_double(e, "max"));
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " %s%s", unit ? unit : "",
			 is_each(e) ? " each" : "");
}

void rs_gate_bounds_text(const struct rs_val *e, char *buf, size_t len)
{
	const char *unit = rs_val_get_str(e, "unit");
	const char *fig = rs_val_get_str(e, "figure");
	bool min = rs_val_get(e, "min"), max = rs_val_get(e, "max");
	const char *each = is_each(e) ? " each" : "";

	if (!unit)
		unit = "";
	if (min && max)
		snprintf(buf, len, "%g <= %s <= %g %s%s",
			 rs_val_get_double(e, "min"), fig,
			 rs_val_get_double(e, "max"), unit, each);
	else if (min)
		snprintf(buf, len, "%s >= %g %s%s", fig,
			 rs_val_get_double(e, "min"), unit, each);
	else
		snprintf(buf, len, "%s <= %g %s%s", fig,
			 rs_val_get_double(e, "max"), unit, each);
}

void rs_gate_result_text(const struct rs_val *e, char *buf, size_t len)
{
	const char *unit = rs_val_get_str(e, "unit");
	bool held = json_object_get_boolean(rs_val_json(rs_val_get(e,
								    "passed")));
	size_t n;

	rs_gate_bounds_text(e, buf, len);
	n = strlen(buf);
	if (n + 1 >= len)
		return;
	if (rs_val_get(e, "value"))
		snprintf(buf + n, len - n, ": %g %s %s",
			 rs_val_get_double(e, "value"), unit ? unit : "",
			 held ? "held" : "missed");
	else
		snprintf(buf + n, len - n, ": not recorded, missed");
}
