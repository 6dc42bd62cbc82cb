/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_VALUE_H
#define RDMASCN_VALUE_H

#include <json-c/json.h>

/* The builder's calls are public (plugins use them); inside the engine a
 * tree is also a json-c tree, for what the builder does not say. */
#include "rdmascn/value.h"

static inline struct json_object *rs_val_json(const struct rs_val *v)
{
	return (struct json_object *)v;
}

static inline struct rs_val *rs_val_of(struct json_object *j)
{
	return (struct rs_val *)j;
}

#endif
