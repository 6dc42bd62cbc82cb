// SPDX-License-Identifier: MIT
/*
 * The JSON Schema of a step's `figures` in the run record, from the
 * figure table (figures.h), and its `counters` (the run schema's
 * definition): schemas/rdmascn-run.schema.json carries it, and
 * tests/schema/figures.py fails when the two drift.
 */
#include <string.h>

#include "figures.h"
#include "jsonschema.h"

/* A row's value: {"$ref": count}, {"type": "number"}, ... */
static struct rs_val *row_schema(const struct rs_figure_row *row)
{
	struct rs_val *o = rs_val_obj(), *h, *p, *a;

	if (!o)
		return NULL;
	switch (row->type) {
	case RS_FIGT_UNIT:
		rs_val_put_str(o, "const", row->unit);
		break;
	case RS_FIGT_NUMBER:
		rs_val_put_str(o, "type", "number");
		break;
	case RS_FIGT_COUNT:
	case RS_FIGT_HEX:
		rs_val_put_str(o, "$ref", "#/definitions/count");
		break;
	case RS_FIGT_ID:
		rs_val_put_str(o, "$ref", "#/definitions/id");
		break;
	case RS_FIGT_TEXT:
		rs_val_put_str(o, "type", "string");
		break;
	case RS_FIGT_COUNTERS:
		rs_val_put_str(o, "type", "object");
		h = rs_val_put_obj(o, "additionalProperties");
		rs_val_put_str(h, "type", "object");
		rs_val_put_str(rs_val_put_obj(h, "additionalProperties"),
			       "$ref", "#/definitions/count");
		break;
	case RS_FIGT_HISTOGRAM:
		if (row->description)
			rs_val_put_str(o, "description", row->description);
		rs_val_put_str(o, "type", "object");
		h = rs_val_put_arr(o, "required");
		rs_val_push_str(h, "unit");
		rs_val_push_str(h, "edges");
		rs_val_push_str(h, "counts");
		rs_val_put_bool(o, "additionalProperties", false);
		p = rs_val_put_obj(o, "properties");
		rs_val_put_str(rs_val_put_obj(p, "unit"), "const", row->unit);
		a = rs_val_put_obj(p, "edges");
		rs_val_put_str(a, "type", "array");
		h = rs_val_put_obj(a, "items");
		rs_val_put_str(h, "type", "number");
		rs_val_put_u64(h, "minimum", 0);
		rs_val_put_u64(a, "minItems", 2);
		a = rs_val_put_obj(p, "counts");
		rs_val_put_str(a, "type", "array");
		rs_val_put_str(rs_val_put_obj(a, "items"), "$ref",
			       "#/definitions/count");
		rs_val_put_u64(a, "minItems", 1);
		return o;
	}
	if (row->description)
		rs_val_put_str(o, "description", row->description);
	return o;
}

/* The group @g's schema: its one row's, or an object of its rows. */
static struct rs_val *group_schema(const char *g)
{
	const char *desc = rs_figure_group_description(g);
	struct rs_val *o = rs_val_obj(), *req, *props;

	if (!o)
		return NULL;
	for (unsigned i = 0; i < RS_FIGROW_COUNT; i++)
		if (!strcmp(rs_figure_rows[i].group, g) &&
		    !rs_figure_rows[i].key) {
			rs_val_free(o);
			return row_schema(&rs_figure_rows[i]);
		}
	if (desc)
		rs_val_put_str(o, "description", desc);
	rs_val_put_str(o, "type", "object");
	req = rs_val_put_arr(o, "required");
	rs_val_put_bool(o, "additionalProperties", false);
	props = rs_val_put_obj(o, "properties");
	for (unsigned i = 0; i < RS_FIGROW_COUNT; i++) {
		const struct rs_figure_row *row = &rs_figure_rows[i];

		if (strcmp(row->group, g))
			continue;
		/* A histogram is kept only when asked for. */
		if (row->type != RS_FIGT_HISTOGRAM)
			rs_val_push_str(req, row->key);
		rs_val_put(props, row->key, row_schema(row));
	}
	return o;
}

struct rs_val *rs_figures_jsonschema(void)
{
	struct rs_val *o = rs_val_obj(), *props;

	if (!o)
		return NULL;
	rs_val_put_str(o, "type", "object");
	rs_val_put_bool(o, "additionalProperties", false);
	props = rs_val_put_obj(o, "properties");
	for (unsigned i = 0; i < RS_FIGROW_COUNT; i++) {
		const char *g = rs_figure_rows[i].group;

		if (!rs_val_get(props, g))
			rs_val_put(props, g, group_schema(g));
	}
	/* Not rows: the ports' counters, by the kernel's names, which no
	 * table can list (exec/counters.h); the root's totals share it. */
	rs_val_put_str(rs_val_put_obj(props, "counters"), "$ref",
		       "#/definitions/counters");
	if (rs_val_check(o) < 0) {
		rs_val_free(o);
		return NULL;
	}
	return o;
}
