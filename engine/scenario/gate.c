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
const cyaml_schema_field_t rs_gate_fields[] = {
	RS_FIGURE_MAP(RS_GATE_FIELD)
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

/* The gate's mapping, its figure's key and value nodes. */
static struct rs_node *figure_node(const struct rs_obj *obj, enum rs_figure f,
				   bool key)
{
	struct rs_node *gate = rs_node_get(obj->node, "gate");
	struct rs_node *v = gate ? rs_node_get(gate, rs_figures[f].name) : NULL;

	return key && v ? v->key : v;
}

const struct rs_loc *rs_gate_loc(const struct rs_obj *obj, enum rs_figure f,
				 const char *which)
{
	struct rs_node *v = figure_node(obj, f, false);
	struct rs_node *b = v && which ? rs_node_get(v, which) : NULL;

	if (b)
		return &b->loc;
	if (v)
		return &v->key->loc;
	return rs_obj_loc(obj, "gate");
}

/* libcyaml 1.3.1 takes "1 ms" as 1: the whole scalar must be the
 * number.  Which bound is not, or NULL. */
static const char *not_a_number(const struct rs_obj *obj, enum rs_figure f)
{
	static const char *const which[] = { "min", "max" };
	struct rs_node *v = figure_node(obj, f, false);

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

int rs_gate_check(const struct rs_obj *obj, struct rs_diag *d)
{
	const struct rs_step_common *c = obj->data;
	const struct rdmascn_kind *k = obj->kind;
	char groups[128];
	int r = 0;

	if (!c->gate)
		return 0;
	for (unsigned i = 0; i < RS_FIG_COUNT; i++) {
		const struct rs_bound *b = c->gate->f[i];
		const struct rs_figure_def *f = &rs_figures[i];
		const char *bad;

		if (!b)
			continue;
		if (!records(k, f->group)) {
			groups_of(k, groups, sizeof(groups));
			rs_diag_error(d, rs_gate_loc(obj, i, NULL),
				      "%s: gate: a %s step records no %s "
				      "figures (it records: %s)", obj->name,
				      k->name, f->group, groups);
			r = -EINVAL;
			continue;
		}
		bad = not_a_number(obj, i);
		if (bad) {
			rs_diag_error(d, rs_gate_loc(obj, i, bad),
				      "%s: gate.%s.%s: expected a number, got "
				      "'%s'", obj->name, f->name, bad,
				      rs_node_get(figure_node(obj, i, false),
						  bad)->value);
			r = -EINVAL;
			continue;
		}
		if (!b->min && !b->max) {
			rs_diag_error(d, rs_gate_loc(obj, i, NULL),
				      "%s: gate: %s: give min, max or both",
				      obj->name, f->name);
			r = -EINVAL;
			continue;
		}
		if ((b->min && !isfinite(*b->min)) ||
		    (b->max && !isfinite(*b->max))) {
			rs_diag_error(d, rs_gate_loc(obj, i, b->min &&
					!isfinite(*b->min) ? "min" : "max"),
				      "%s: gate: %s: a bound must be a finite "
				      "number", obj->name, f->name);
			r = -EINVAL;
			continue;
		}
		if (b->min && b->max && *b->min > *b->max) {
			rs_diag_error(d, rs_gate_loc(obj, i, "min"),
				      "%s: gate: %s: min %g is above max %g",
				      obj->name, f->name, *b->min, *b->max);
			r = -EINVAL;
		}
	}
	return r;
}

struct rs_val *rs_gate_entries(const struct rs_obj *obj)
{
	const struct rs_step_common *c = obj->data;
	struct rs_val *arr;

	if (!c->gate)
		return NULL;
	arr = rs_val_arr();
	for (unsigned i = 0; arr && i < RS_FIG_COUNT; i++) {
		const struct rs_bound *b = c->gate->f[i];
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
		rs_val_put_loc(e, rs_gate_loc(obj, i, b->max ? "max" : "min"));
	}
	return arr;
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
		snprintf(buf + n, len - n, " %s", unit ? unit : "");
}

void rs_gate_result_text(const struct rs_val *e, char *buf, size_t len)
{
	const char *unit = rs_val_get_str(e, "unit");
	const char *fig = rs_val_get_str(e, "figure");
	bool min = rs_val_get(e, "min"), max = rs_val_get(e, "max");
	bool held = json_object_get_boolean(rs_val_json(rs_val_get(e,
								    "passed")));
	int n;

	if (!unit)
		unit = "";
	if (min && max)
		n = snprintf(buf, len, "%g <= %s <= %g %s",
			     rs_val_get_double(e, "min"), fig,
			     rs_val_get_double(e, "max"), unit);
	else if (min)
		n = snprintf(buf, len, "%s >= %g %s", fig,
			     rs_val_get_double(e, "min"), unit);
	else
		n = snprintf(buf, len, "%s <= %g %s", fig,
			     rs_val_get_double(e, "max"), unit);
	if (n < 0 || (size_t)n >= len)
		return;
	if (rs_val_get(e, "value"))
		snprintf(buf + n, len - n, ": %g %s %s",
			 rs_val_get_double(e, "value"), unit,
			 held ? "held" : "missed");
	else
		snprintf(buf + n, len - n, ": not recorded, missed");
}
