// SPDX-License-Identifier: MIT
/* send (with an immediate, with invalidate; on UD with an ah): a
 * message that consumes a receive at the peer. */
#include <endian.h>
#include <errno.h>

#include "buf.h"
#include "post.h"
#include "steps.h"

static int send_start(struct rs_step_run *sr)
{
	const struct rs_step_send *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	uint64_t cap = UINT64_MAX;
	int r;

	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	if (!p->w.qp)
		return -EIO;
	if (s->dct) {
		/* A DCI's: the DCT receives, from its SRQ. */
		p->peer = rs_wr_qp(sr, s->dct, "dct", false);
		if (!p->peer)
			return -EIO;
	} else if (s->ah) {
		p->peer = rs_qp_by_num(sr->st, s->remote_qpn);
		p->w.ah_id = s->ah;
		w->wr.ud.ah = rs_as_ah(rs_live_find(sr->run, s->ah));
		w->wr.ud.remote_qpn = s->remote_qpn;
		w->wr.ud.remote_qkey = rs_obj_has(sr->obj, "remote_qkey") ||
				       !p->peer ? s->remote_qkey :
				       p->peer->rt->qkey;
		cap = rs_qp_mtu_bytes(sr, p->w.qp);
	} else {
		p->peer = p->w.qp->peer;
		struct rdmascn_srq srq;

		if (p->w.qp->info.type == RS_QPT_XRC_SEND && p->peer &&
		    p->peer->srq && !rs_as_srq(p->peer->srq, &srq))
			w->qp_type.xrc.remote_srqn = srq.srq_num;
	}
	p->vary = &s->vary;
	r = rs_step_bufs(sr, &s->vary, s->local, s->offset, s->length, cap,
			 s->traffic.iterations, &p->w.v);
	if (r)
		return r;
	w->opcode = IBV_WR_SEND;
	if (rs_obj_has(sr->obj, "imm")) {
		w->opcode = IBV_WR_SEND_WITH_IMM;
		w->imm_data = htobe32(s->imm);
	} else if (s->invalidate_rkey_of) {
		struct rs_live *l = rs_live_find(sr->run,
						 s->invalidate_rkey_of);
		struct rs_mw_rt *mw = rs_as_mw(l);

		w->opcode = IBV_WR_SEND_WITH_INV;
		w->invalidate_rkey = mw ? mw->rkey : rs_as_mem(l)->mr->rkey;
	}
	if (rs_post_dest(sr, s->dct, s->ah, w->opcode))
		return -EIO;
	if (s->traffic.verify && p->peer)
		p->check = rs_post_check_received;
	else if (s->traffic.verify)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				    "the receiving qp is not in this scenario");
	return rs_post_begin(sr, p, &s->traffic,
			     rs_post_has_data(sr, s->length));
}

/* --- dry run ------------------------------------------------------------- */

static void send_dry(struct rs_run *run, struct rs_obj *obj)
{
	const struct rs_step_send *s = obj->data;
	struct ibv_sge sge = { .addr = s->offset, .length = s->length };
	struct rs_wr_sym sym = { .local = s->local,
				 .ah = s->dct ? NULL : s->ah,
				 .dct = s->dct, .dc_ah = s->ah,
				 .inv = s->invalidate_rkey_of,
				 .whole = !rs_obj_has(obj, "length") &&
					  !s->vary.sge_count,
				 .vary = &s->vary,
				 .user_wr_id = rs_obj_has(obj, "wr_id") };
	struct ibv_send_wr w = { .opcode = IBV_WR_SEND };

	w.num_sge = !rs_obj_has(obj, "length") || s->length;
	w.wr.ud.remote_qpn = s->remote_qpn;
	w.wr.ud.remote_qkey = s->remote_qkey;
	if (rs_obj_has(obj, "imm")) {
		w.opcode = IBV_WR_SEND_WITH_IMM;
		w.imm_data = htobe32(s->imm);
	} else if (s->invalidate_rkey_of) {
		w.opcode = IBV_WR_SEND_WITH_INV;
	}
	rs_wr_dry_post(run, obj, s->qp, &s->traffic, &w, &sge, &sym);
}

RS_POST_OPS(send);
