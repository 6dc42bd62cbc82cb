// SPDX-License-Identifier: MIT
/* read: one-sided, rdma.c. */
#include <errno.h>

#include "post.h"
#include "steps.h"

static int read_start(struct rs_step_run *sr)
{
	const struct rs_step_read *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	int r;

	r = rs_rdma_start(sr, s->qp, &s->vary, s->local, s->offset, s->length,
			  s->remote, s->remote_offset, s->rkey, &s->traffic,
			  true);
	if (!r)
		r = rs_post_dest(sr, s->dct, s->ah, IBV_WR_RDMA_READ);
	if (!r)
		r = rs_step_check_rd_atomic(sr, p->w.qp, s->traffic.expect);
	if (r)
		return r;
	return rs_post_begin(sr, p, &s->traffic,
			     rs_post_has_data(sr, s->length));
}

/* --- dry run ------------------------------------------------------------- */

static void read_dry(struct rs_run *run, struct rs_obj *obj)
{
	const struct rs_step_read *s = obj->data;
	struct ibv_send_wr w = { .opcode = IBV_WR_RDMA_READ };

	rs_rdma_dry(run, obj, s->qp, s->local, s->offset, s->length,
		    s->remote, s->remote_offset, &s->traffic, &s->vary, &w,
		    s->dct, s->ah);
}

RS_POST_OPS(read);
