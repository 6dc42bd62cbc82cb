// SPDX-License-Identifier: MIT
/* send (with an immediate, with invalidate; on UD with an ah) and
 * ud_send: a message that consumes a receive at the peer. */
#include <endian.h>
#include <errno.h>
#include <string.h>

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
		p->check = check_received;
	else if (s->traffic.verify)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				    "the receiving qp is not in this scenario");
	return rs_post_begin(sr, p, &s->traffic,
			     rs_post_has_data(sr, s->length));
}

/* reply_to: the last receive of that recv step, its sender answered
 * through the ah (`from_wc`), created now from the completion and the
 * GRH at the start of the receive buffer. */
static int reply_start(struct rs_step_run *sr, struct ibv_send_wr *w)
{
	const struct rs_step_ud_send *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	const struct rs_owner *ro = NULL;
	struct rs_live *al = rs_live_find(sr->run, s->ah);
	struct rs_mr_rt *mr;
	const char *into;
	struct ibv_wc wc;
	uint64_t off = 0;
	int r;

	for (unsigned e = 0; e < sr->obj->n_edges; e++)
		if (!strcmp(sr->obj->edges[e].field, "reply_to"))
			ro = sr->st->owners[sr->obj->edges[e].to->index];
	if (!ro || !ro->seen.n)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "reply_to",
				    "step '%s' has received nothing yet",
				    s->reply_to);
	wc = ro->seen.last;
	into = rs_step_receives_into(ro->obj, &off);
	mr = into ? rs_step_mr(sr, into) : NULL;
	if (!mr || !mr->buf || off + 40 > mr->length)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "reply_to",
				    "step '%s''s receive buffer is not in this "
				    "process", s->reply_to);
	al->from_wc = &wc;
	al->from_grh = (const uint8_t *)mr->buf + off;
	pthread_mutex_lock(&sr->st->lock);
	r = rs_run_create_late(sr->run, al);
	pthread_mutex_unlock(&sr->st->lock);
	al->from_wc = NULL;
	al->from_grh = NULL;
	if (r == -EALREADY)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "ah",
				    "ah '%s' exists already: a reply needs an "
				    "ah with from_wc: true, named by one "
				    "reply only", s->ah);
	if (r)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "ah",
				    "ah '%s' could not be made from the "
				    "receive: %s", s->ah, strerror(-r));
	/* Whoever sent: a QP of this scenario is waited for (and its
	 * qkey used); another host's is only sent to. */
	p->peer = rs_qp_by_num(sr->st, wc.src_qp);
	w->wr.ud.ah = rs_as_ah(al);
	w->wr.ud.remote_qpn = wc.src_qp;
	w->wr.ud.remote_qkey = rs_obj_has(sr->obj, "remote_qkey") ||
			       !p->peer ? s->remote_qkey : p->peer->rt->qkey;
	return 0;
}

static int ud_send_start(struct rs_step_run *sr)
{
	const struct rs_step_ud_send *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	int r;

	struct rs_qpi *to = s->to ? rs_step_qp(sr, s->to) : NULL;

	/* The sender on another node: this node's half receives. */
	if (to && to->rt->qp &&
	    !rs_run_here(sr->run, rs_live_find(sr->run, s->qp)->obj))
		return rs_post_begin_receiver(sr, p, to, &s->traffic);
	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	if (!p->w.qp)
		return -EIO;
	p->w.ah_id = s->ah;
	if (s->reply_to) {
		if (reply_start(sr, w))
			return -EIO;
	} else if (to && !to->rt->qp && to->l->far.qp_known) {
		/* On another node: its QPN and Q_Key came from there
		 * (rs_nodes_publish()); it counts its receives itself. */
		if (to->info.type != RS_QPT_UD)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "to",
					    "qp '%s' is not a ud qp", s->to);
		w->wr.ud.ah = rs_as_ah(rs_live_find(sr->run, s->ah));
		w->wr.ud.remote_qpn = to->l->far.qpn;
		w->wr.ud.remote_qkey = to->l->far.qkey;
	} else {
		p->peer = rs_wr_qp(sr, s->to, "to", false);
		if (!p->peer)
			return -EIO;
		if (p->peer->info.type != RS_QPT_UD)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "to",
					    "qp '%s' is not a ud qp", s->to);
		w->wr.ud.ah = rs_as_ah(rs_live_find(sr->run, s->ah));
		w->wr.ud.remote_qpn = p->peer->qpn;
		w->wr.ud.remote_qkey = p->peer->rt->qkey;
	}
	r = rs_step_bufs(sr, &s->vary, s->local, s->offset, s->length,
			 rs_qp_mtu_bytes(sr, p->w.qp), s->traffic.iterations,
			 &p->w.v);
	if (r)
		return r;
	w->opcode = IBV_WR_SEND;
	if (s->traffic.verify && p->peer)
		p->check = check_received;
	else if (s->traffic.verify && s->reply_to)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				    "the sender replied to is not a qp of "
				    "this scenario");
	else if (s->traffic.verify)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				    "qp '%s' is on another node: check what "
				    "it received with a verify step there",
				    s->to);
	p->op = "ud_send";
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

static void ud_send_dry(struct rs_run *run, struct rs_obj *obj)
{
	const struct rs_step_ud_send *s = obj->data;
	struct ibv_sge sge = { .addr = s->offset, .length = s->length };
	char qpn[RDMASCN_ID_MAX + 16], qkey[RDMASCN_ID_MAX + 24];
	struct rs_wr_sym sym = { .local = s->local, .ah = s->ah,
				 .remote_qpn = qpn,
				 .whole = !rs_obj_has(obj, "length") &&
					  !s->vary.sge_count,
				 .vary = &s->vary,
				 .user_wr_id = rs_obj_has(obj, "wr_id") };
	struct ibv_send_wr w = { .opcode = IBV_WR_SEND };
	struct rdmascn_qp to;
	struct rs_live *l;

	/* A reply goes to whoever sent that receive, with its Q_Key when
	 * it is a QP of this scenario (ud_send_start()): known once it
	 * sent. */
	if (s->reply_to)
		snprintf(qpn, sizeof(qpn), "src_qp(%s)", s->reply_to);
	else
		snprintf(qpn, sizeof(qpn), "qpn(%s)", s->to);
	if (s->reply_to && !rs_obj_has(obj, "remote_qkey")) {
		snprintf(qkey, sizeof(qkey), "qkey(src_qp(%s))", s->reply_to);
		sym.remote_qkey = qkey;
	} else if (s->reply_to) {
		w.wr.ud.remote_qkey = s->remote_qkey;
	} else if ((l = rs_live_find(run, s->to)) && rs_run_here(run, l->obj) &&
		   !rs_as_qp(run, l, &to) && to.rt) {
		/* The QP's own, as its create set it; another node's comes
		 * from there. */
		w.wr.ud.remote_qkey = to.rt->qkey;
	} else {
		snprintf(qkey, sizeof(qkey), "qkey(%s)", s->to);
		sym.remote_qkey = qkey;
	}
	w.num_sge = !rs_obj_has(obj, "length") || s->length;
	rs_wr_dry_post(run, obj, s->qp, &s->traffic, &w, &sge, &sym);
}

RS_POST_OPS(send);
RS_POST_OPS(ud_send);
