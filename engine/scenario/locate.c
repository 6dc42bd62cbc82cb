// SPDX-License-Identifier: MIT
/* Where an object, or a field of it, is in the file: for messages. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* The longest path segment looked up whole (a longer one is cut). */
#define SEG_MAX 128

static struct rs_node *descend(struct rs_node *n, const char *path,
			       bool *complete)
{
	char seg[SEG_MAX];

	*complete = true;
	while (n && path && *path) {
		size_t len = strcspn(path, ".[");
		struct rs_node *next;

		if (*path == '[') {
			unsigned idx = strtoul(path + 1, NULL, 10);

			next = n->type == RS_NODE_SEQ && idx < n->n ?
			       &n->items[idx] : NULL;
			path = strchr(path, ']');
			path = path ? path + 1 : NULL;
		} else {
			/* (Cut as snprintf() would; a copy, not a format:
			 * a run looks up paths for every object.) */
			size_t cut = len < sizeof(seg) ? len : sizeof(seg) - 1;

			memcpy(seg, path, cut);
			seg[cut] = '\0';
			next = rs_node_get(n, seg);
			path += len;
		}
		if (path && *path == '.')
			path++;
		if (!next) {
			*complete = false;
			return n;
		}
		n = next;
	}
	return n;
}

const struct rs_loc *rs_obj_loc_to(const struct rs_obj *obj,
				   const char *path, struct rs_loc *ret)
{
	bool complete;
	struct rs_node *n = descend(obj->node, path, &complete);

	if (!n)
		return NULL;
	/* A step is best pointed at by its type key ("write:"). */
	if ((n == obj->node && obj->kind->step) ||
	    /* So is an empty value, a point between tokens, by its key. */
	    rs_node_empty(n)) {
		struct rs_node *key = rs_node_key(n);

		if (key)
			return rs_node_loc_to(key, ret);
	}
	return rs_node_loc_to(n, ret);
}

bool rs_obj_has(const struct rs_obj *obj, const char *path)
{
	size_t len;
	bool complete;

	/* Nearly every answer is no: a kind's checks ask for each field
	 * they may refuse (15,000 times in a load of the set-up bench at
	 * N=1000).  A mapping none of whose keys begins as @path does
	 * has neither that key nor a path through one (nor an element:
	 * a mapping has none), told without strcspn() and strcmp().  (A
	 * path from '.' begins with the key "".) */
	if (path && *path && *path != '.' && obj->node &&
	    obj->node->type == RS_NODE_MAP &&
	    !rs_node_key_starts(obj->node, *path))
		return false;
	len = path ? strcspn(path, ".[") : 0;
	/* A key of the object's own mapping, as nearly every caller asks
	 * (a kind's checks and creates, 17,000 times at N=1000 in the set-up
	 * bench): asked of the mapping, without descend()'s copy of it. */
	if (len && !path[len] && len < SEG_MAX)
		return !obj->node || rs_node_get(obj->node, path);
	descend(obj->node, path, &complete);
	return complete;
}

bool rs_obj_uint(const struct rs_obj *obj, const char *path, uint64_t *ret)
{
	bool complete;
	struct rs_node *n = descend(obj->node, path, &complete);
	char *end;
	unsigned long long v;

	if (!complete || !n || n->type != RS_NODE_SCALAR || !n->value ||
	    !n->value[0] || n->value[0] == '-')
		return false;
	errno = 0;
	v = strtoull(n->value, &end, 0);
	if (errno || *end)
		return false;
	*ret = v;
	return true;
}

void rs_obj_error(struct rs_diag *d, const struct rs_obj *obj,
		  const char *path, const char *fmt, ...)
{
	va_list ap;

	/* validate reports at most this many (docs/scenario.md). */
	if (d->errors >= RS_MAX_ERRORS)
		return;
	va_start(ap, fmt);
	rs_diag_vnamed(d, false, rs_obj_loc(obj, path), obj->name, path, NULL,
		       0, fmt, ap);
	va_end(ap);
}
