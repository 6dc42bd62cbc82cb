// SPDX-License-Identifier: MIT
/* What a check may read beyond its own object: the object a reference
 * names, and a field of it, through its kind's libcyaml table. */
#include <errno.h>
#include <string.h>

#include "model.h"

const char *rs_edge_field(const struct rs_obj *obj, const struct rs_edge *e)
{
	if (e->field == RS_EDGE_STEPS)
		return "steps";
	if (e->field == RS_EDGE_SEQUENCE)
		return "sequence";
	return obj->kind->refs[e->field].field;
}

const struct rs_obj *rs_obj_target(const struct rs_obj *obj,
				   const char *field)
{
	for (unsigned i = 0; i < obj->n_edges; i++)
		if (!obj->edges[i].order_only &&
		    !strcmp(rs_edge_field(obj, &obj->edges[i]), field))
			return obj->edges[i].to;
	return NULL;
}

/* The top-level field @key of @obj's kind's table, or NULL. */
static const cyaml_schema_field_t *field_of(const struct rs_obj *obj,
					    const char *key)
{
	const cyaml_schema_field_t *f = obj->kind->fields;

	while (f && f->key && strcmp(f->key, key))
		f++;
	return f && f->key ? f : NULL;
}

bool rs_obj_field_int(const struct rs_obj *obj, const char *key,
		      int64_t *ret)
{
	const cyaml_schema_field_t *f = field_of(obj, key);
	const char *p;

	if (!f || !rs_obj_has(obj, key))
		return false;
	p = (const char *)obj->data + f->data_offset;
	switch (f->value.type) {
	case CYAML_INT:
	case CYAML_UINT:
	case CYAML_ENUM:
	case CYAML_BOOL:
		break;
	default:
		return false;
	}
	switch (f->value.data_size) {
	case 1:
		*ret = f->value.type == CYAML_INT ? *(const int8_t *)p :
						     *(const uint8_t *)p;
		return true;
	case 2:
		*ret = f->value.type == CYAML_INT ? *(const int16_t *)p :
						     *(const uint16_t *)p;
		return true;
	case 4:
		if (f->value.type == CYAML_UINT)
			*ret = *(const uint32_t *)p;
		else
			*ret = *(const int32_t *)p;
		return true;
	case 8:
		*ret = *(const int64_t *)p;
		return true;
	}
	return false;
}

int rs_obj_field_str(const struct rs_obj *obj, const char *key,
		     const char **ret)
{
	const cyaml_schema_field_t *f = field_of(obj, key);

	if (!f || f->value.type != CYAML_STRING ||
	    !(f->value.flags & CYAML_FLAG_POINTER))
		return -ENOENT;
	*ret = rs_obj_has(obj, key) ?
	       *(char *const *)((const char *)obj->data + f->data_offset) :
	       NULL;
	return 0;
}
