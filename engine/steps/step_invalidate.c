// SPDX-License-Identifier: MIT
/* invalidate: a local invalidate of an mw or mr rkey. */
#include <errno.h>

#include "buf.h"
#include "post.h"
#include "steps.h"

static int invalidate_start(struct rs_step_run *sr)
{
	const struct rs_step_invalidate *s = sr->obj->data;
	struct post_rt *p = sr->rt;

	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	if (!p->w.qp)
		return -EIO;
	p->tmpl.opcode = IBV_WR_LOCAL_INV;
	if (s->mw)
		p->tmpl.invalidate_rkey =
			rs_as_mw(rs_live_find(sr->run, s->mw))->rkey;
	else
		p->tmpl.invalidate_rkey = rs_step_mr(sr, s->mr)->mr->rkey;
	return rs_post_begin(sr, p, &s->traffic, false);
}

/* --- dry run ------------------------------------------------------------- */

static void invalidate_dry(struct rs_run *run, struct rs_obj *obj)
{
	const struct rs_step_invalidate *s = obj->data;
	struct ibv_sge sge = { 0 };
	struct rs_wr_sym sym = { .inv = s->mw ? s->mw : s->mr };
	struct ibv_send_wr w = { .opcode = IBV_WR_LOCAL_INV };

	rs_wr_dry_post(run, obj, s->qp, &s->traffic, &w, &sge, &sym);
}

RS_POST_OPS(invalidate);
