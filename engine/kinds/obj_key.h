/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_OBJ_KEY_H
#define RDMASCN_OBJ_KEY_H

#include <stdbool.h>

#include "model.h"

/*
 * rs_obj_has(@obj, @key) for a key of @obj's own mapping, not a path:
 * asked of the mapping.  rs_obj_has() copies and splits its path first,
 * 290 instructions a call against 170; the checks and creates of the
 * bench's kinds ask 17,000 times at N=1000 (docs/setup-speed.md, set-up
 * 7).  Without a node, true, as rs_obj_has() says.
 */
static inline bool rs_obj_has_key(const struct rs_obj *obj, const char *key)
{
	return !obj->node || rs_node_get(obj->node, key);
}

#endif
