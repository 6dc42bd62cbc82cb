// SPDX-License-Identifier: MIT
#include <string.h>

#include "model.h"
#include "schema.h"

const cyaml_schema_value_t rs_id_schema = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, RS_ID_MAX),
};


void rs_schema_int_range(const cyaml_schema_value_t *v, int64_t *ret_min,
			 uint64_t *ret_max)
{
	unsigned bits = v->data_size >= 1 && v->data_size <= 8 ?
			v->data_size * 8 : 64;

	if (v->type == CYAML_UINT) {
		*ret_min = 0;
		*ret_max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	} else {
		*ret_max = (UINT64_C(1) << (bits - 1)) - 1;
		*ret_min = -(int64_t)*ret_max - 1;
	}
}

/* Down the first reference of each object that is not an ordering edge
 * to the first object @is says yes to. */
static const struct rs_obj *obj_down(const struct rs_obj *o,
				     bool (*is)(const struct rdmascn_ops *))
{
	for (unsigned depth = 0; o && depth < 16; depth++) {
		const struct rs_obj *next = NULL;

		if (o->kind->ops && is(o->kind->ops))
			return o;
		for (unsigned e = 0; e < o->n_edges && !next; e++)
			if (!o->edges[e].order_only)
				next = o->edges[e].to;
		o = next;
	}
	return NULL;
}

static bool is_context(const struct rdmascn_ops *ops)
{
	return ops->as_context;
}

static bool is_device(const struct rdmascn_ops *ops)
{
	return ops->as_dev;
}

const struct rs_obj *rs_obj_made_on(const struct rs_obj *o)
{
	return obj_down(o, is_context);
}

const struct rs_obj *rs_obj_on_device(const struct rs_obj *o)
{
	return obj_down(o, is_device);
}

const struct rs_obj *rs_obj_ref(const struct rs_obj *obj, const char *field)
{
	for (unsigned e = 0; e < obj->n_edges; e++)
		if (!strcmp(rs_edge_field(obj, &obj->edges[e]), field))
			return obj->edges[e].to;
	return NULL;
}
