// SPDX-License-Identifier: MIT
/* ud_send: a datagram to a QP through an address handle, or a reply
 * to the sender of a receive. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "buf.h"
#include "post.h"
#include "steps.h"

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
		if (!strcmp(rs_edge_field(sr->obj, &sr->obj->edges[e]),
			    "reply_to"))
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
	pthread_mutex_lock(&sr->st->lock);
	r = rs_run_create_late(sr->run, al, &wc,
			       (const uint8_t *)mr->buf + off);
	pthread_mutex_unlock(&sr->st->lock);
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

/*
 * An ah of the file's own (not `to:` a QP) and the QP @to the step
 * sends to: the ah must point where that QP is, its port's GID (@gid,
 * all zero: unknown) or, without a GRH, its LID (@lid), else the
 * datagrams go to another port and are lost without an error.  0, or
 * the step failed naming both.
 */
static int ah_agrees(struct rs_step_run *sr, const struct rs_obj *ah,
		     const char *to, const uint8_t *gid, uint16_t lid)
{
	struct rs_live *al = rs_live_find(sr->run, ah->id);
	const struct rs_ah_rt *rt = al->rt;
	static const uint8_t none[16];
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];

	if (rs_obj_target(ah, "to") || !rt || !rt->ah)
		return 0;
	if (rt->attr.is_global && memcmp(gid, none, sizeof(none)) &&
	    memcmp(rt->attr.grh.dgid.raw, gid, sizeof(none))) {
		inet_ntop(AF_INET6, rt->attr.grh.dgid.raw, a, sizeof(a));
		inet_ntop(AF_INET6, gid, b, sizeof(b));
		return rs_step_fail(sr, RS_STEP_CANTRUN, "ah", "ah '%s' "
				    "addresses GID %s, but qp '%s' (to:) is "
				    "at GID %s; give the ah 'to: %s'", ah->id,
				    a, to, b, to);
	}
	if (!rt->attr.is_global && lid && rt->attr.dlid != lid)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "ah", "ah '%s' "
				    "addresses LID %u, but qp '%s' (to:) is "
				    "at LID %u; give the ah 'to: %s'", ah->id,
				    rt->attr.dlid, to, lid, to);
	return 0;
}

static int ud_send_start(struct rs_step_run *sr)
{
	const struct rs_step_ud_send *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	const struct rs_dev *dev;
	int r;

	struct rs_qpi *to = s->to ? rs_step_qp(sr, s->to) : NULL;
	/* What its node published of it, when it is on another. */
	const struct rs_far *far = to ? rs_live_far(sr->run, to->l) : NULL;

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
	} else if (to && !to->rt->qp && far->qp_known) {
		/* On another node: its QPN and Q_Key came from there
		 * (rs_nodes_publish()); it counts its receives itself. */
		if (to->info.type != RS_QPT_UD)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "to",
					    "qp '%s' is not a ud qp", s->to);
		if (ah_agrees(sr, rs_live_find(sr->run, s->ah)->obj, s->to,
			      far->gid, far->lid))
			return -EIO;
		w->wr.ud.ah = rs_as_ah(rs_live_find(sr->run, s->ah));
		w->wr.ud.remote_qpn = far->qpn;
		w->wr.ud.remote_qkey = far->qkey;
	} else {
		p->peer = rs_wr_qp(sr, s->to, "to", false);
		if (!p->peer)
			return -EIO;
		if (p->peer->info.type != RS_QPT_UD)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "to",
					    "qp '%s' is not a ud qp", s->to);
		dev = rs_live_dev(sr->run, p->peer->l);
		if (dev && ah_agrees(sr, rs_live_find(sr->run, s->ah)->obj,
				     s->to, dev->gid_index >= 0 ?
				     dev->gid.raw : (const uint8_t[16]){ 0 },
				     dev->port_attr.lid))
			return -EIO;
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
		p->check = rs_post_check_received;
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

RS_POST_OPS(ud_send);
