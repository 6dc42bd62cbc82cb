// SPDX-License-Identifier: MIT
/*
 * The scenario language as a JSON Schema, from the libcyaml tables.
 *
 * libcyaml reads the YAML text; a JSON Schema validator (an editor, a
 * linter) sees the document after YAML typing.  So an enum name that YAML
 * reads as a number or a boolean ("1024", "yes") is accepted in that form
 * too, and every number or name also accepts a string with `${param}` in
 * it: params are substituted before libcyaml reads the file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "explore.h"
#include "gate.h"
#include "jsonschema.h"
#include "registry.h"
#include "schema.h"
#include "macros.h"

#define DRAFT "https://json-schema.org/draft/2020-12/schema"
#define PARAM_REF "#/$defs/param"
#define STEP_REF "#/$defs/step"
#define GATE_REF "#/$defs/gate"
/* A param reference anywhere in a scalar; params.c's valid_name(). */
#define PARAM_PATTERN "\\$\\{[^}]+\\}"
#define NAME_PATTERN "^[A-Za-z_][A-Za-z0-9_]*$"

static struct rs_val *field_schema(const cyaml_schema_field_t *f,
				   bool top);

static struct rs_val *new_obj(void)
{
	return rs_val_obj();
}

static struct rs_val *ref_to(const char *where)
{
	struct rs_val *o = new_obj();

	rs_val_put_str(o, "$ref", where);
	return o;
}

static struct rs_val *typed(const char *type)
{
	struct rs_val *o = new_obj();

	rs_val_put_str(o, "type", type);
	return o;
}

/* {"anyOf": [s, {"$ref": "#/$defs/param"}]} */
static struct rs_val *or_param(struct rs_val *s)
{
	struct rs_val *o = new_obj(), *any = rs_val_put_arr(o, "anyOf");

	if (!any) {
		rs_val_free(s);
		rs_val_free(o);
		return NULL;
	}
	rs_val_push(any, s);
	rs_val_push(any, ref_to(PARAM_REF));
	return o;
}

/* Append @v to @arr unless an equal value is there; NULL @v: no memory. */
static void add_unique(struct rs_val *arr, struct rs_val *v)
{
	if (!arr)
		goto drop;
	if (!v) {
		rs_val_push(arr, NULL); /* marks it: out of memory */
		return;
	}
	for (size_t i = 0; i < rs_val_len(arr); i++)
		if (rs_val_equal(rs_val_at(arr, i), v))
			goto drop;
	rs_val_push(arr, v);
	return;
drop:
	rs_val_free(v);
}

/* What YAML 1.1 (PyYAML, libyaml's users) makes of a plain scalar that
 * is an enum name, when not a string: "yes" -> true, "1024" -> 1024.
 * Returns false for a name that stays a string; else *v is the value
 * (NULL when out of memory). */
static bool yaml_typed(const char *s, struct rs_val **v)
{
	static const char *const yes[] = { "true", "yes", "on" };
	static const char *const no[] = { "false", "no", "off" };
	const char *p = s;
	bool neg = false;
	int64_t n = 0;

	for (size_t i = 0; i < 3; i++) {
		if (!strcmp(s, yes[i]) || !strcmp(s, no[i])) {
			*v = rs_val_bool(!strcmp(s, yes[i]));
			return true;
		}
	}
	if (*p == '-') {
		neg = true;
		p++;
	}
	/* Decimal only: YAML 1.1 reads a leading 0 as octal. */
	if (!*p || (*p == '0' && p[1]) || strlen(p) > 18)
		return false;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		n = n * 10 + (*p - '0');
	}
	*v = rs_val_i64(neg ? -n : n);
	return true;
}

static struct rs_val *enum_schema(const cyaml_schema_value_t *v)
{
	struct rs_val *o = new_obj(), *e = rs_val_put_arr(o, "enum");
	const cyaml_strval_t *names = v->enumeration.strings;

	for (uint32_t i = 0; i < v->enumeration.count; i++)
		add_unique(e, rs_val_str(names[i].str));
	for (uint32_t i = 0; i < v->enumeration.count; i++) {
		struct rs_val *t;

		if (yaml_typed(names[i].str, &t))
			add_unique(e, t);
	}
	if (!(v->flags & CYAML_FLAG_STRICT)) {
		/* libcyaml then takes the number itself as well */
		struct rs_val *any = new_obj(), *a = rs_val_put_arr(any, "anyOf");

		rs_val_push(a, o);
		rs_val_push(a, typed("integer"));
		o = any;
	}
	return o;
}

static struct rs_val *int_schema(const cyaml_schema_value_t *v)
{
	struct rs_val *o = typed("integer");
	int64_t min;
	uint64_t max;

	rs_schema_int_range(v, &min, &max);
	rs_val_put_i64(o, "minimum", min);
	rs_val_put_u64(o, "maximum", max);
	return o;
}

static struct rs_val *string_schema(const cyaml_schema_value_t *v)
{
	struct rs_val *o = typed("string");

	if (v->string.min)
		rs_val_put_u64(o, "minLength", v->string.min);
	if (v->string.max != CYAML_UNLIMITED)
		rs_val_put_u64(o, "maxLength", v->string.max);
	return o;
}

static struct rs_val *flags_schema(const cyaml_schema_value_t *v)
{
	struct rs_val *o = typed("array");
	cyaml_schema_value_t item = *v;

	item.type = CYAML_ENUM;
	rs_val_put(o, "items", or_param(enum_schema(&item)));
	rs_val_put_bool(o, "uniqueItems", true);
	return o;
}

static struct rs_val *bitfield_schema(const cyaml_schema_value_t *v)
{
	struct rs_val *o = typed("object");
	struct rs_val *props = rs_val_put_obj(o, "properties");

	for (uint32_t i = 0; i < v->bitfield.count; i++) {
		const cyaml_bitdef_t *b = &v->bitfield.bitdefs[i];
		struct rs_val *p = typed("integer");

		rs_val_put_u64(p, "minimum", 0);
		rs_val_put_u64(p, "maximum", b->bits >= 64 ? UINT64_MAX :
				(UINT64_C(1) << b->bits) - 1);
		rs_val_put(props, b->name, or_param(p));
	}
	rs_val_put_bool(o, "additionalProperties", false);
	return o;
}

/* type, properties, required, additionalProperties: into @o. */
static struct rs_val *fill_mapping(struct rs_val *o,
				   const cyaml_schema_field_t *fields, bool top)
{
	struct rs_val *props, *req = rs_val_arr();

	rs_val_put_str(o, "type", "object");
	props = rs_val_put_obj(o, "properties");

	for (const cyaml_schema_field_t *f = fields; f && f->key; f++) {
		rs_val_put(props, f->key, field_schema(f, top));
		if (!(f->value.flags & CYAML_FLAG_OPTIONAL))
			rs_val_push_str(req, f->key);
	}
	/* a failure shows in the result */
	if (!req || rs_val_check(req) || rs_val_len(req))
		rs_val_put(o, "required", req);
	else
		rs_val_free(req);
	rs_val_put_bool(o, "additionalProperties", false);
	return o;
}

static struct rs_val *value_schema(const cyaml_schema_value_t *v)
{
	struct rs_val *o;

	if (v == &rs_step_entry_schema)
		return ref_to(STEP_REF);
	/* Every step type has it: once, in $defs. */
	if (v->type == CYAML_MAPPING && v->mapping.fields == rs_gate_fields)
		return ref_to(GATE_REF);
	switch (v->type) {
	case CYAML_INT:
	case CYAML_UINT:
		o = or_param(int_schema(v));
		break;
	case CYAML_BOOL:
		o = or_param(typed("boolean"));
		break;
	case CYAML_ENUM:
		o = or_param(enum_schema(v));
		break;
	case CYAML_FLAGS:
		o = flags_schema(v);
		break;
	case CYAML_FLOAT:
		o = or_param(typed("number"));
		break;
	case CYAML_STRING:
		o = string_schema(v);
		break;
	case CYAML_MAPPING:
		o = fill_mapping(new_obj(), v->mapping.fields, false);
		break;
	case CYAML_BITFIELD:
		o = bitfield_schema(v);
		break;
	case CYAML_SEQUENCE:
	case CYAML_SEQUENCE_FIXED:
		o = typed("array");
		rs_val_put(o, "items", value_schema(v->sequence.entry));
		if (v->type == CYAML_SEQUENCE_FIXED) {
			rs_val_put_u64(o, "minItems", v->sequence.max);
			rs_val_put_u64(o, "maxItems", v->sequence.max);
			break;
		}
		if (v->sequence.min)
			rs_val_put_u64(o, "minItems", v->sequence.min);
		if (v->sequence.max != CYAML_UNLIMITED)
			rs_val_put_u64(o, "maxItems", v->sequence.max);
		break;
	default: /* CYAML_IGNORE: anything */
		return new_obj();
	}
	if ((v->flags & CYAML_FLAG_POINTER_NULL) == CYAML_FLAG_POINTER_NULL) {
		struct rs_val *any = new_obj(), *a = rs_val_put_arr(any, "anyOf");

		rs_val_push(a, o);
		rs_val_push(a, typed("null"));
		o = any;
	}
	return o;
}

/* Any YAML scalar; params.c takes a null (`x:`) as the empty string. */
static struct rs_val *scalar(void)
{
	struct rs_val *o = new_obj(), *t = rs_val_put_arr(o, "type");

	rs_val_push_str(t, "string");
	rs_val_push_str(t, "number");
	rs_val_push_str(t, "boolean");
	rs_val_push_str(t, "null");
	return o;
}

/* An object keyed by param names. */
static struct rs_val *by_name(struct rs_val *values)
{
	struct rs_val *o = typed("object"), *n = rs_val_put_obj(o, "propertyNames");

	rs_val_put_str(n, "pattern", NAME_PATTERN);
	rs_val_put(o, "additionalProperties", values);
	return o;
}

/* params: NAME: DEFAULT, or NAME: {default, env, description}
 * (params.c: declare()). */
static struct rs_val *params_schema(void)
{
	struct rs_val *full = typed("object"), *props, *v, *any;

	props = rs_val_put_obj(full, "properties");
	rs_val_put(props, "default", scalar());
	rs_val_put(props, "env", typed("string"));
	rs_val_put(props, "description", scalar());
	rs_val_put_bool(full, "additionalProperties", false);

	v = new_obj();
	any = rs_val_put_arr(v, "anyOf");
	rs_val_push(any, scalar());
	rs_val_push(any, full);
	return by_name(v);
}

/* matrix: NAME: [VALUE, ...] (or one VALUE), and exclude: a list of
 * {NAME: VALUE, ...} (scenario/matrix.c). */
static struct rs_val *matrix_schema(void)
{
	struct rs_val *o, *v = new_obj(), *any, *list, *ex;

	any = rs_val_put_arr(v, "anyOf");
	rs_val_push(any, scalar());
	list = rs_val_push(any, typed("array"));
	rs_val_put(list, "items", scalar());
	rs_val_put_u64(list, "minItems", 1);
	o = by_name(v);
	ex = typed("array");
	rs_val_put(ex, "items", by_name(scalar()));
	rs_val_put(rs_val_put_obj(o, "properties"), "exclude", ex);
	return o;
}

/* explore: vary (NAME: RANGE or [VALUE, ...]), one objective, budget,
 * strategy, seed, knee (scenario/explore.c). */
static struct rs_val *explore_schema(void)
{
	struct rs_val *o = typed("object"), *p, *v, *any, *list, *b, *bp, *e;
	struct rs_val *one;

	p = rs_val_put_obj(o, "properties");
	v = new_obj();
	any = rs_val_put_arr(v, "anyOf");
	rs_val_push(any, scalar());
	list = rs_val_push(any, typed("array"));
	rs_val_put(list, "items", scalar());
	rs_val_put_u64(list, "minItems", 1);
	rs_val_put(p, "vary", by_name(v));
	rs_val_put(p, "maximize", typed("string"));
	rs_val_put(p, "minimize", typed("string"));
	e = rs_val_put_arr(rs_val_put_obj(p, "find"), "enum");
	rs_val_push_str(e, "fail");
	rs_val_push_str(e, "gate");
	b = rs_val_put(p, "budget", typed("object"));
	bp = rs_val_put_obj(b, "properties");
	rs_val_put_u64(rs_val_put(bp, "cells", typed("integer")), "minimum", 1);
	rs_val_put_u64(rs_val_put(bp, "seconds", typed("integer")), "minimum",
		       1);
	rs_val_put_bool(b, "additionalProperties", false);
	e = rs_val_put_arr(rs_val_put_obj(p, "strategy"), "enum");
	for (unsigned s = 0; s < RS_EXPLORE_S_COUNT; s++)
		rs_val_push_str(e, rs_explore_strategy_name(s));
	rs_val_put_u64(rs_val_put(p, "seed", typed("integer")), "minimum", 0);
	one = rs_val_put(p, "knee", typed("integer"));
	rs_val_put_u64(one, "minimum", 1);
	rs_val_put_u64(one, "maximum", 99);
	one = rs_val_put(p, "repeat", typed("integer"));
	rs_val_put_u64(one, "minimum", 1);
	rs_val_put_u64(one, "maximum", RS_EXPLORE_REPEAT_MAX);
	rs_val_push_str(rs_val_put_arr(o, "required"), "vary");
	rs_val_put_bool(o, "additionalProperties", false);
	return o;
}

/* deviations: a list of {device, provider, scenario, steps, known,
 * reason} (scenario/deviations.c). */
static struct rs_val *deviations_schema(void)
{
	struct rs_val *o = typed("array"), *e = typed("object"), *p, *k, *st;

	p = rs_val_put_obj(e, "properties");
	rs_val_put(p, "device", typed("string"));
	rs_val_put(p, "provider", typed("string"));
	rs_val_put(p, "scenario", typed("string"));
	st = rs_val_put(p, "steps", typed("array"));
	rs_val_put(st, "items", typed("string"));
	k = rs_val_put_obj(p, "known");
	k = rs_val_put_arr(k, "enum");
	rs_val_push_str(k, "fail");
	rs_val_push_str(k, "skip");
	rs_val_put(p, "reason", typed("string"));
	rs_val_push_str(rs_val_put_arr(e, "required"), "reason");
	rs_val_put_bool(e, "additionalProperties", false);
	rs_val_put(o, "items", e);
	return o;
}

static void describe(struct rs_val *o, const char *text);

/* A counter's bounds in a gate: (@ratio: a step's, which may compare
 * with another step) or in the run's gates:. */
static struct rs_val *counter_bound_schema(bool ratio)
{
	static const char *const numbers[] = {
		"min", "max", "equals", "tolerance", "min_ratio", "max_ratio"
	};
	struct rs_val *o = typed("object"), *p, *m;

	p = rs_val_put_obj(o, "properties");
	for (size_t i = 0; i < RS_N(numbers); i++)
		if (ratio || !strstr(numbers[i], "ratio"))
			rs_val_put(p, numbers[i],
				   or_param(typed("number")));
	describe(rs_val_put(p, "equals_counter", typed("string")),
		 "another counter's kernel name, in the same place: the "
		 "two deltas must be equal (within tolerance)");
	m = rs_val_put_obj(p, "missing");
	describe(m, "a counter the device lacks: fail (the default) or "
		 "skip the step");
	m = rs_val_put_arr(m, "enum");
	rs_val_push_str(m, "fail");
	rs_val_push_str(m, "skip");
	if (ratio)
		describe(rs_val_put(p, "of", typed("string")),
			 "the step min_ratio and max_ratio compare with");
	rs_val_put_bool(o, "additionalProperties", false);
	return o;
}

/* counters.NAME, counters.DEV/PORT.NAME, counters.DEV.NAME keys. */
static void counter_keys(struct rs_val *o, bool ratio)
{
	struct rs_val *pp = rs_val_put_obj(o, "patternProperties");
	struct rs_val *b = rs_val_put(pp, "^counters\\.",
				      counter_bound_schema(ratio));

	describe(b, "bounds on a counter's delta, by its kernel name (an "
		 "fnmatch glob bounds each it matches): summed over the "
		 "ports and devices that have it, or counters.DEV/PORT.NAME, "
		 "counters.DEV.NAME for one");
}

static struct rs_val *run_gates_schema(void)
{
	struct rs_val *o = typed("object");

	counter_keys(o, false);
	rs_val_put_bool(o, "additionalProperties", false);
	return o;
}

/* Descriptions of the fixed top-level fields; sections have their kind's
 * summary. */
static const struct {
	const char *key, *text;
} top_text[] = {
	{ "scenario", "the scenario's name" },
	{ "description", "what the scenario does and shows" },
	{ "params", "names substituted as ${name} in any scalar: NAME: "
		    "DEFAULT or NAME: {default, env, description}; "
		    "--set NAME=VALUE overrides, and so does the variable "
		    "named by env" },
	{ "matrix", "run once per combination of these params' values (the "
		    "cartesian product, first param outermost), less the "
		    "combinations exclude: names; --matrix NAME=V1,V2 and "
		    "--set change it" },
	{ "explore", "what rdmascn explore searches: params to vary (a "
		     "range LO..HI[:pow2|:lin|:step=N] or a list), one "
		     "objective (maximize or minimize a figure, or find: "
		     "fail|gate), a budget of cells and seconds, a strategy "
		     "(bisect, grid, anneal), a seed; its options override" },
	{ "deviations", "steps (or the whole scenario) known to fail, or "
			"to be skipped, on a device or provider (globs), "
			"with a reason: reported as skipped; --strict "
			"makes them count" },
	{ "requires", "what the device must support for the scenario to run" },
	{ "gates", "bounds on the run's counter totals (from before the "
		   "first step to after the last), judged after the steps: "
		   "a miss fails the run" },
	{ "nodes", "the processes of a run across hosts: each a name (id), "
		   "the address the others reach it at (the first one's "
		   "is the rendezvous) and its device; an object's node: "
		   "places it, its references place the rest" },
	{ "steps", "what runs once every object is created: in order, one "
		   "step type per entry" },
};

/* A put in front of the members of @o. */
static void describe(struct rs_val *o, const char *text)
{
	if (!o || !text)
		return;
	rs_val_put_str(o, "description", text);
	if (rs_val_check(o))
		return;
	rs_val_move_first(o, "description");
}

static struct rs_val *field_schema(const cyaml_schema_field_t *f, bool top)
{
	const struct rdmascn_kind *k;
	struct rs_val *o;

	if (f->value.type == CYAML_IGNORE && !strcmp(f->key, "params"))
		o = params_schema();
	else if (f->value.type == CYAML_IGNORE && !strcmp(f->key, "matrix"))
		o = matrix_schema();
	else if (f->value.type == CYAML_IGNORE && !strcmp(f->key, "explore"))
		o = explore_schema();
	else if (f->value.type == CYAML_IGNORE &&
		 !strcmp(f->key, "deviations"))
		o = deviations_schema();
	else if (f->value.type == CYAML_IGNORE && !strcmp(f->key, "gates"))
		o = run_gates_schema();
	else if (f->value.type == CYAML_IGNORE && !strcmp(f->key, "gate"))
		o = ref_to(GATE_REF);
	else
		o = value_schema(&f->value);
	if (!top)
		return o;
	k = rs_registry_find(f->key, false);
	if (k && !strcmp(k->section, f->key)) {
		describe(o, k->summary);
		return o;
	}
	for (size_t i = 0; i < RS_N(top_text); i++)
		if (!strcmp(top_text[i].key, f->key))
			describe(o, top_text[i].text);
	return o;
}

/* One `steps:` entry: exactly one step type. */
static struct rs_val *step_schema(void)
{
	const cyaml_schema_field_t *f = rs_step_entry_schema.mapping.fields;
	struct rs_val *o = typed("object");
	struct rs_val *props = rs_val_put_obj(o, "properties");

	describe(o, "a step: exactly one step type");
	for (; f && f->key; f++) {
		struct rs_val *p = value_schema(&f->value);
		const struct rdmascn_kind *k = rs_registry_find(f->key, true);

		if (k)
			describe(p, k->summary);
		rs_val_put(props, f->key, p);
	}
	rs_val_put_bool(o, "additionalProperties", false);
	rs_val_put_u64(o, "minProperties", 1);
	rs_val_put_u64(o, "maxProperties", 1);
	return o;
}

struct rs_val *rs_jsonschema(void)
{
	const cyaml_schema_value_t *top = rs_registry_schema();
	struct rs_val *o, *defs, *p;

	if (!top)
		return NULL;
	o = new_obj();

	rs_val_put_str(o, "$schema", DRAFT);
	rs_val_put_str(o, "title", "rdmascn scenario");
	rs_val_put_str(o, "description", "A declarative RDMA scenario: the objects "
		   "to create, by section, and the steps to run on them.");
	fill_mapping(o, top->mapping.fields, true);
	defs = rs_val_put_obj(o, "$defs");
	p = rs_val_put(defs, "param", typed("string"));
	rs_val_put_str(p, "pattern", PARAM_PATTERN);
	describe(p, "a string with ${...} in it: a param, or an integer "
		 "expression over params and device facts (${min(size, "
		 "ctx.port.max_msg_sz)}), substituted before the scenario is "
		 "read, so any scalar may be one");
	rs_val_put(defs, "step", step_schema());
	p = rs_val_put(defs, "gate", fill_mapping(new_obj(), rs_gate_fields,
						  false));
	counter_keys(p, true);
	describe(p, "bounds on the step's figures (usec, MB/s, Gb/s, Mpps, "
		 "as in the run record) and counters' deltas: a figure out "
		 "of them fails the step");
	if (rs_val_check(o) < 0) {
		rs_val_free(o);
		return NULL;
	}
	return o;
}
