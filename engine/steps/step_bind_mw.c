// SPDX-License-Identifier: MIT
/* bind_mw: type 1 through ibv_bind_mw(), type 2 as a WR. */
#include <errno.h>

#include "buf.h"
#include "post.h"
#include "steps.h"
#include "value.h"

static int post_bind1(struct rs_step_run *sr, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad)
{
	struct post_rt *p = sr->rt;
	struct rs_mw_rt *mw = rs_as_mw(p->mw->l);
	int r;

	p->bind1.wr_id = wr->wr_id;
	p->bind1.send_flags = wr->send_flags;
	p->bind1.bind_info = wr->bind_mw.bind_info;
	p->w.qp->rt->posted = true;
	r = rs_wr_err(ibv_bind_mw(p->w.qp->rt->qp, mw->mw, &p->bind1));
	if (r)
		*bad = wr;
	/* Type 1: the library gives the window its new rkey. */
	p->new_rkey = mw->mw->rkey;
	return r;
}

static int check_bound(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;
	struct rs_mw_rt *mw = rs_as_mw(p->mw->l);
	const struct ibv_mw_bind_info *b = &p->tmpl.bind_mw.bind_info;

	mw->rkey = p->new_rkey;
	p->mw->mr = p->bind_mr;
	p->mw->addr = b->addr;
	p->mw->length = b->length;
	p->mw->offset = p->bind_offset;
	p->mw->zero_based = b->mw_access_flags & IBV_ACCESS_ZERO_BASED;
	rs_val_put_u64(rs_step_figures(sr), "rkey", mw->rkey);
	return 0;
}

static int bind_mw_start(struct rs_step_run *sr)
{
	const struct rs_step_bind_mw *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	struct rs_mw_rt *mw;
	struct rs_mr_rt *mr;
	struct ibv_sge sge;
	uint8_t *host;
	int r;

	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	p->mw = rs_step_mw(sr, s->mw);
	if (!p->w.qp)
		return -EIO;
	mw = rs_as_mw(p->mw->l);
	mr = rs_step_mr(sr, s->mr);
	/* The range, checked like a local buffer. */
	r = rs_step_local(sr, s->mr, s->offset, "length", s->length,
			  UINT64_MAX, &sge, &host);
	if (r)
		return r;
	p->bind_mr = rs_live_find(sr->run, s->mr);
	p->bind_offset = s->offset;
	w->bind_mw.bind_info.mr = mr->mr;
	w->bind_mw.bind_info.addr = sge.addr;
	w->bind_mw.bind_info.length = sge.length;
	w->bind_mw.bind_info.mw_access_flags = s->access;
	w->opcode = IBV_WR_BIND_MW;
	if (mw->mw->type == IBV_MW_TYPE_1) {
		p->post = post_bind1;
	} else {
		p->new_rkey = ibv_inc_rkey(mw->rkey);
		w->bind_mw.mw = mw->mw;
		w->bind_mw.rkey = p->new_rkey;
	}
	p->check = check_bound;
	return rs_post_begin(sr, p, &s->traffic, false);
}

/* --- dry run ------------------------------------------------------------- */

static void bind_mw_dry(struct rs_run *run, struct rs_obj *obj)
{
	const struct rs_step_bind_mw *s = obj->data;
	struct ibv_sge sge = { 0 };
	struct rs_wr_sym sym = { .mw = s->mw, .bind_mr = s->mr };
	struct ibv_send_wr w = { .opcode = IBV_WR_BIND_MW };

	/* A type 1 window is bound by ibv_bind_mw(), which takes the same
	 * fields; which type it is, the device's object says. */
	w.bind_mw.bind_info.addr = s->offset;
	w.bind_mw.bind_info.length = s->length;
	w.bind_mw.bind_info.mw_access_flags = s->access;
	rs_wr_dry_post(run, obj, s->qp, &s->traffic, &w, &sge, &sym);
}

RS_POST_OPS(bind_mw);
