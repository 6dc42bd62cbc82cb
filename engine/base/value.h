/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_VALUE_H
#define RDMASCN_VALUE_H

#include <json-c/json.h>

/* The builder's calls are public (plugins use them); inside the engine a
 * tree is also a json-c tree, for what the builder does not say. */
#include "diag.h"
#include "rdmascn/value.h"

/* @loc (NULL: nothing) as @e's "file", "line" and "col".  Inline: not a
 * plugin's call (struct rs_loc is not public), so not exported. */
static inline void rs_val_put_loc(struct rs_val *e, const struct rs_loc *loc)
{
	if (!loc)
		return;
	rs_val_put_str(e, "file", loc->file);
	rs_val_put_u64(e, "line", loc->line);
	rs_val_put_u64(e, "col", loc->col);
}

/* A string member of @obj, "" when it has none: for printing. */
static inline const char *rs_val_text(const struct rs_val *obj,
				      const char *key)
{
	const char *s = rs_val_get_str(obj, key);

	return s ? s : "";
}

static inline struct json_object *rs_val_json(const struct rs_val *v)
{
	return (struct json_object *)v;
}

static inline struct rs_val *rs_val_of(struct json_object *j)
{
	return (struct rs_val *)j;
}

#endif
