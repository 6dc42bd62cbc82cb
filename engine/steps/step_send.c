// SPDX-License-Identifier: MIT
/* send (with an immediate, with invalidate; on UD with an ah) and
 * ud_send: a message that consumes a receive at the peer. */
#include <endian.h>
#include <errno.h>

#include "alloc.h"

#include "buf.h"
#include "post.h"
#include "steps.h"

/* The peer's last receive, where the step that posted it put it, holds
 * the bytes of our last WR. */
static int check_received(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;
	const struct rs_wr_vary *v = &p->w.v;
	struct rs_qpi *q = p->peer;
	uint32_t slot = atomic_load(&q->last_recv_slot);
	uint32_t got = atomic_load(&q->last_recv_len);
	uint32_t grh = q->info.type == RS_QPT_UD ? 40 : 0;
	struct rs_owner *o = slot < sr->st->n_objs ? sr->st->owners[slot] :
			     NULL;
	/* In: which of that step's receives; out: where it is. */
	uint64_t offset = atomic_load(&q->last_recv_seq), len = 0, at;
	const char *local = o ? rs_step_receives_into(o->obj, &offset) : NULL;
	struct ibv_sge *sg = rs_calloc(v->nsge, sizeof(*sg));
	struct rs_mr_rt *mr;
	uint64_t remote;
	int r = 0;

	if (!sg)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "out of memory");
	rs_wr_vary_at(v, p->w.n - 1, sg, &remote);
	for (unsigned j = 0; p->tmpl.num_sge && j < v->nsge; j++)
		len += sg[j].length;
	if (!local) {
		r = rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				 "qp '%s''s receives were not posted by a recv "
				 "step into one buffer", q->l->obj->id);
		goto out;
	}
	mr = rs_step_mr(sr, local);
	if (got != grh + len) {
		r = rs_step_fail(sr, RS_STEP_FAILED, "verify",
				 "qp '%s''s last receive got %u bytes, %llu "
				 "were sent", q->l->obj->id, got - grh,
				 (unsigned long long)len);
		goto out;
	}
	if (!mr->buf || offset + got > mr->length) {
		r = rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				 "the received bytes are not in mr '%s'",
				 local);
		goto out;
	}
	at = offset + grh;
	for (unsigned j = 0; !r && len && j < v->nsge; j++) {
		const uint8_t *want = rs_wr_vary_host(v, j, &sg[j]);

		if (!want) {
			r = rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
					 "the bytes sent are not in this "
					 "process's memory");
			break;
		}
		r = rs_post_compare(sr, (uint8_t *)mr->buf + at, want,
				    sg[j].length, "the bytes received");
		at += sg[j].length;
	}
out:
	rs_free(sg);
	return r;
}

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
	if (s->ah) {
		p->peer = rs_qp_by_num(sr->st, s->remote_qpn);
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
	if (s->traffic.verify && p->peer)
		p->check = check_received;
	else if (s->traffic.verify)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				    "the receiving qp is not in this scenario");
	return rs_post_begin(sr, p, &s->traffic,
			     rs_post_has_data(sr, s->length));
}

static int ud_send_start(struct rs_step_run *sr)
{
	const struct rs_step_ud_send *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	int r;

	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	p->peer = p->w.qp ? rs_wr_qp(sr, s->to, "to", false) : NULL;
	if (!p->peer)
		return -EIO;
	if (p->peer->info.type != RS_QPT_UD)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "to",
				    "qp '%s' is not a ud qp", s->to);
	r = rs_step_bufs(sr, &s->vary, s->local, s->offset, s->length,
			 rs_qp_mtu_bytes(sr, p->w.qp), s->traffic.iterations,
			 &p->w.v);
	if (r)
		return r;
	w->opcode = IBV_WR_SEND;
	w->wr.ud.ah = rs_as_ah(rs_live_find(sr->run, s->ah));
	w->wr.ud.remote_qpn = p->peer->qpn;
	w->wr.ud.remote_qkey = p->peer->rt->qkey;
	if (s->traffic.verify)
		p->check = check_received;
	p->op = "ud_send";
	return rs_post_begin(sr, p, &s->traffic,
			     rs_post_has_data(sr, s->length));
}

RS_POST_OPS(send);
RS_POST_OPS(ud_send);
