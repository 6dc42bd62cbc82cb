// SPDX-License-Identifier: MIT
/*
 * register_layout on a device: the WR its kind builds (struct
 * rdmascn_wr_reg), in one ibv_wr_start()..ibv_wr_complete() on the
 * step's QP, its completion waited for as the other posting steps wait
 * for theirs.
 */
#include <errno.h>

#include "post.h"
#include "registry.h"
#include "steps.h"

#define S struct rs_step_register_layout

/* One WR, the kind's: in its own ibv_wr_start()..ibv_wr_complete(). */
static int post_reg(struct rs_step_run *sr, struct ibv_send_wr *wr,
		    struct ibv_send_wr **bad)
{
	struct post_rt *p = sr->rt;
	struct ibv_qp_ex *x = p->w.qp->rt->qpx;
	int r;

	for (; wr; wr = wr->next) {
		p->w.qp->rt->posted = true;
		ibv_wr_start(x);
		x->wr_id = wr->wr_id;
		x->wr_flags = wr->send_flags | p->reg->wr_flags;
		r = p->reg->build(p->w.qp->l, p->reg_obj);
		if (r) {
			ibv_wr_abort(x);
			*bad = wr;
			return r;
		}
		r = rs_wr_err(ibv_wr_complete(x));
		if (r) {
			*bad = wr;
			return r;
		}
	}
	return 0;
}

/* Its completion carries the opcode its kind names (MLX5DV_WC_UMR). */
static int check_opcode(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;
	const struct ibv_wc *wc = &sr->owner->seen.last;

	if (!sr->owner->seen.n || (int)wc->opcode == p->reg->wc_opcode)
		return 0;
	return rs_step_fail(sr, RS_STEP_FAILED, NULL, "the %s WR completed "
			    "with opcode %d, not %s (%d)", p->reg->op,
			    (int)wc->opcode, p->reg->wc_opcode_name ?
			    p->reg->wc_opcode_name : "?", p->reg->wc_opcode);
}

static int register_layout_start(struct rs_step_run *sr)
{
	const S *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct rs_live *k = rs_live_find(sr->run, s->mkey);

	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	if (!p->w.qp)
		return -EIO;
	p->reg = k ? rs_wr_reg_find(k->obj->kind->name) : NULL;
	if (!p->reg)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "mkey", "'%s' is not "
				    "registered by a WR", s->mkey);
	if (!p->w.qp->rt->qpx)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "qp", "qp '%s' posts "
				    "through ibv_wr_* only: it has no "
				    "ibv_qp_ex", s->qp);
	p->reg_obj = k;
	p->post = post_reg;
	p->op = p->reg->op;
	p->check = check_opcode;
	return rs_post_begin(sr, p, &s->traffic, false);
}

static void register_layout_dry(struct rs_run *run, struct rs_obj *obj)
{
	const S *s = obj->data;
	const struct rs_obj *k = rs_obj_ref(obj, "mkey");
	const struct rdmascn_wr_reg *g = k ? rs_wr_reg_find(k->kind->name) :
				     NULL;
	struct rdmascn_call c;

	if (!g)
		return;
	rs_call_init(&c.c, RS_CALL_QUERY, "ibv_wr_start..ibv_wr_complete");
	rs_call_arg(&c.c, "qp", "%s", s->qp);
	rs_call_arg(&c.c, "wr_id", "0x%llx",
		    (unsigned long long)rs_wr_id(obj->index, 0, 0));
	rs_call_arg(&c.c, "wr_flags", "signaled%s",
		    g->wr_flags & IBV_SEND_INLINE ? "|inline" : "");
	g->dry(k->data, &c);
	rs_call_arg(&c.c, "wc.opcode", "%s", g->wc_opcode_name ?
		    g->wc_opcode_name : "?");
	rs_step_call(run, obj, &c.c);
}

RS_POST_OPS(register_layout);
