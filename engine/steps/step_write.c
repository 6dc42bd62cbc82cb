// SPDX-License-Identifier: MIT
/* write (with an immediate when imm is given): one-sided, rdma.c. */
#include <endian.h>
#include <errno.h>

#include "post.h"
#include "steps.h"

static int write_start(struct rs_step_run *sr)
{
	const struct rs_step_write *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	int r;

	r = rs_rdma_start(sr, s->qp, &s->vary, s->local, s->offset, s->length,
			  s->remote, s->remote_offset, s->rkey, &s->traffic,
			  false);
	if (!r)
		r = rs_post_dest(sr, s->dct, s->ah, IBV_WR_RDMA_WRITE);
	if (r)
		return r;
	if (rs_obj_has(sr->obj, "imm")) {
		/* The immediate consumes a receive at the peer. */
		p->tmpl.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		p->tmpl.imm_data = htobe32(s->imm);
		p->peer = p->w.qp->peer;
	}
	return rs_post_begin(sr, p, &s->traffic,
			     rs_post_has_data(sr, s->length));
}

/* --- dry run ------------------------------------------------------------- */

static void write_dry(struct rs_run *run, struct rs_obj *obj)
{
	const struct rs_step_write *s = obj->data;
	struct ibv_send_wr w = { .opcode = IBV_WR_RDMA_WRITE };

	if (rs_obj_has(obj, "imm")) {
		w.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		w.imm_data = htobe32(s->imm);
	}
	rs_rdma_dry(run, obj, s->qp, s->local, s->offset, s->length,
		    s->remote, s->remote_offset, &s->traffic, &s->vary, &w,
		    s->dct, s->ah);
}

RS_POST_OPS(write);
