// SPDX-License-Identifier: MIT
/*
 * The kinds that can cross nodes (run.h, struct rs_cross_ops): the core's
 * connection, and room for a few more.  Each adds itself from a
 * constructor, before main(), so nothing here needs a lock.
 */
#include "run.h"

#define RS_CROSS_KINDS 4

static const struct rs_cross_ops *kinds[RS_CROSS_KINDS];
static unsigned n_kinds;

void rs_cross_add(const struct rs_cross_ops *x)
{
	/* A fifth is a programming error the first run shows: its
	 * objects "cannot cross nodes". */
	if (n_kinds < RS_CROSS_KINDS)
		kinds[n_kinds++] = x;
}

const struct rs_cross_ops *rs_cross_of(const struct rs_live *l)
{
	for (unsigned i = 0; l && i < n_kinds; i++)
		if (kinds[i]->ops == l->obj->kind->ops)
			return kinds[i];
	return NULL;
}
