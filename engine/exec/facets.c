// SPDX-License-Identifier: MIT
/*
 * The QP facet as the engine reads it.  A kind says what it knows of its
 * own QP; where the receives of an xrc_recv QP come from is the run's to
 * find (the domain's XRC SRQ, whichever kind made it), not the kind's.
 */
#include <string.h>

#include "live.h"

/* The XRC SRQ of the domain @xrcd, for an xrc_recv QP's receives. */
static struct rs_live *xrc_srq_of(struct rs_run *run, const char *xrcd,
				  struct rdmascn_srq *ret)
{
	for (unsigned i = 0; xrcd && i < run->s->n_objects; i++) {
		struct rs_live *l = &run->live[i];

		if (!rs_as_srq(l, ret) && ret->xrcd && !strcmp(ret->xrcd, xrcd))
			return l;
	}
	return NULL;
}

int rs_as_qp(struct rs_run *run, struct rs_live *l, struct rdmascn_qp *ret)
{
	const struct rdmascn_ops *ops = rs_live_ops(l);
	struct rdmascn_srq srq;
	struct rs_live *xrc;
	int r;

	if (!ops->as_qp)
		return -EOPNOTSUPP;
	r = ops->as_qp(l, ret);
	if (r || !ret->recv_xrcd)
		return r;
	/* Its receives come from its domain's XRC SRQ, and complete on
	 * that SRQ's CQ. */
	xrc = xrc_srq_of(run, ret->recv_xrcd, &srq);
	ret->srq = xrc ? xrc->obj->id : NULL;
	ret->srq_posts = false;
	if (xrc)
		ret->recv_cq = srq.cq;
	return 0;
}
