// SPDX-License-Identifier: MIT
/*
 * Work requests, once for every posting step: the send window (depth,
 * post_list chains, signal_every), the checks of a QP's limits, receives
 * kept posted, and posting through ibv_post_send() or ibv_wr_*.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "macros.h"
#include "vary.h"
#include "wr.h"

struct rs_qpi *rs_wr_qp(struct rs_step_run *sr, const char *id,
			const char *field, bool named)
{
	struct rs_qpi *q = rs_step_qp(sr, id);

	if (q && q->rt->qp)
		return q;
	if (named)
		rs_step_fail(sr, RS_STEP_CANTRUN, field,
			     "qp '%s' does not exist", id);
	else
		rs_step_fail(sr, RS_STEP_CANTRUN, field,
			     "the qp does not exist");
	return NULL;
}

/* --- the send window ------------------------------------------------------ */

int rs_wr_window_size(struct rs_step_run *sr, struct rs_wr_window *w,
		      struct rs_qpi *qp, uint32_t depth, uint32_t post_list,
		      uint32_t signal_every)
{
	uint32_t max = qp->rt->cap.max_send_wr ? qp->rt->cap.max_send_wr : 1;

	w->qp = qp;
	if (depth > max)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "depth",
				    "%u exceeds qp '%s' max_send_wr (%u)",
				    depth, qp->l->obj->id, max);
	w->depth = depth ? depth : max;
	w->list = post_list ? post_list : 1;
	if (w->list > w->depth)
		w->list = w->depth;
	/* A window of `depth` WRs must hold a signalled one. */
	w->sig = signal_every ? signal_every : 1;
	if (w->sig > w->depth)
		w->sig = w->depth;
	return 0;
}

int rs_wr_inline(struct rs_step_run *sr, struct rs_qpi *qp, uint32_t len,
		 uint8_t *host, struct ibv_sge *sge, unsigned *flags)
{
	uint32_t max = qp->rt->cap.max_inline_data;

	if (len > max)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "inline",
				    "%u bytes exceed qp '%s' max_inline_data "
				    "(%u)", len, qp->l->obj->id, max);
	*flags |= IBV_SEND_INLINE;
	if (host)
		sge->addr = (uintptr_t)host;
	return 0;
}

/* --- what varies from WR to WR ------------------------------------------- */

int rs_wr_vary_set(struct rs_wr_vary *v, const struct ibv_sge *sge,
		   uint8_t *const *host, unsigned nsge)
{
	v->sge = rs_calloc(nsge ? nsge : 1, sizeof(*v->sge));
	v->host = rs_calloc(nsge ? nsge : 1, sizeof(*v->host));
	if (!v->sge || !v->host)
		return -ENOMEM;
	v->nsge = nsge;
	v->len = 0;
	for (unsigned j = 0; j < nsge; j++) {
		v->sge[j] = sge[j];
		v->host[j] = host ? host[j] : NULL;
		v->len += sge[j].length;
	}
	if (!v->pieces)
		v->pieces = 1;
	return 0;
}

void rs_wr_vary_free(struct rs_wr_vary *v)
{
	rs_free(v->sge);
	rs_free(v->host);
	v->sge = NULL;
	v->host = NULL;
}

int rs_wr_vary_split(struct rs_wr_vary *v, uint64_t max)
{
	uint64_t pieces = rs_vary_pieces(v->len, max);

	v->pieces = 1;
	v->piece = 0;
	if (pieces == 1)
		return 0;
	if (v->nsge != 1)
		return -EINVAL;
	v->pieces = pieces;
	v->piece = max;
	return 0;
}

void rs_wr_vary_at(const struct rs_wr_vary *v, uint64_t s,
		   struct ibv_sge *sg, uint64_t *ret_remote)
{
	uint64_t pieces = v->pieces ? v->pieces : 1;
	uint64_t msg = s / pieces, at = 0;

	for (unsigned j = 0; j < v->nsge; j++) {
		sg[j] = v->sge[j];
		sg[j].addr += msg * v->stride;
	}
	if (v->piece && v->nsge == 1) {
		rs_vary_piece(v->len, v->piece, s % pieces, &at,
			      &sg[0].length);
		sg[0].addr += at;
	}
	*ret_remote = v->remote + msg * v->remote_stride + at;
}

uint8_t *rs_wr_vary_host(const struct rs_wr_vary *v, unsigned j,
			 const struct ibv_sge *sg)
{
	return v->host[j] ? v->host[j] + (sg->addr - v->sge[j].addr) : NULL;
}

uint64_t rs_wr_id_of(struct rs_step_run *sr, const struct rs_wr_vary *v,
		     unsigned lane, uint64_t s)
{
	if (v->user_id)
		return v->wr_id + s;
	return rs_wr_id(rs_step_slot(sr), lane, (uint32_t)s);
}

int rs_wr_user_ids(struct rs_step_run *sr, const struct rs_wr_vary *v,
		   struct rs_qpi *qp, struct rs_live *srq, bool recv,
		   unsigned lane, uint64_t n)
{
	const void *queue = srq ? (const void *)srq : (const void *)qp;
	const char *other = NULL;
	int r;

	if (!v->user_id)
		return 0;
	if (n > RS_USER_WR_ID_END - v->wr_id)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "wr_id",
				    "%llu WRs from %llu reach 2^40, where the "
				    "engine's own wr_ids begin",
				    (unsigned long long)n,
				    (unsigned long long)v->wr_id);
	r = rs_step_wr_range(sr, queue, recv, v->wr_id, n, lane, &other);
	if (r == -EBUSY)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "wr_id",
				    "%llu .. %llu on %s '%s' overlap the "
				    "wr_ids of %s, whose WRs may still "
				    "complete there", (unsigned long long)v->wr_id,
				    (unsigned long long)(v->wr_id + n - 1),
				    srq ? "srq" : "qp",
				    srq ? srq->obj->id : qp->l->obj->id, other);
	if (r)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "wr_id",
				    "more than %d steps choose their wr_ids",
				    RS_MAX_WR_RANGES);
	return 0;
}

/* --- the send window, built ----------------------------------------------- */

int rs_wr_window_build(struct rs_wr_window *w, const struct ibv_send_wr *tmpl)
{
	unsigned nsge = w->v.nsge ? w->v.nsge : 1;

	w->wr = rs_calloc(w->list, sizeof(*w->wr));
	w->sge = rs_calloc((size_t)w->list * nsge, sizeof(*w->sge));
	if (!w->wr || !w->sge)
		return -ENOMEM;
	for (uint32_t i = 0; i < w->list; i++) {
		w->wr[i] = *tmpl;
		w->wr[i].sg_list = &w->sge[(size_t)i * nsge];
		w->wr[i].num_sge = tmpl->num_sge ? (int)w->v.nsge : 0;
		w->wr[i].next = i + 1 < w->list ? &w->wr[i + 1] : NULL;
	}
	w->ex = rs_qp_use_ex(w->qp, tmpl->opcode);
	return 0;
}

void rs_wr_window_free(struct rs_wr_window *w)
{
	rs_free(w->wr);
	rs_free(w->sge);
	w->wr = NULL;
	w->sge = NULL;
	rs_wr_vary_free(&w->v);
}

uint64_t rs_wr_next(const struct rs_wr_window *w, uint64_t done,
		    uint64_t limit)
{
	uint64_t room = w->depth - (w->posted - done);
	uint64_t k = w->n - w->posted;

	if (room > limit)
		room = limit;
	if (!room)
		return 0;
	/* A short chain when the window is short: waiting for a full one
	 * could wait for a completion never requested. */
	if (k > w->list)
		k = w->list;
	return k < room ? k : room;
}

int rs_wr_post(struct rs_step_run *sr, struct rs_wr_window *w,
	       unsigned lane, uint64_t k, rs_wr_post_fn *post)
{
	struct ibv_send_wr *bad = NULL;
	int r;

	for (uint64_t i = 0; i < k; i++) {
		uint64_t s = w->posted + i;
		struct ibv_send_wr *wr = &w->wr[i];
		uint64_t remote;

		wr->wr_id = rs_wr_id_of(sr, &w->v, lane, s);
		rs_wr_vary_at(&w->v, s, wr->sg_list, &remote);
		if (w->v.has_remote)
			wr->wr.rdma.remote_addr = remote;
		wr->send_flags = w->flags;
		if ((s + 1) % w->sig == 0 || s + 1 == w->n) {
			wr->send_flags |= IBV_SEND_SIGNALED;
			w->sig_upto = s + 1;
		}
	}
	w->wr[k - 1].next = NULL;
	rs_wr_show_post(sr, w, w->wr);
	r = post ? post(sr, w->wr, &bad) :
		   rs_post_send_dest(w->qp, w->ex, w->wr, &bad, w->dest_ops,
				     w->dest, w->dest_ah);
	w->wr[k - 1].next = k < w->list ? &w->wr[k] : NULL;
	if (r) {
		uint64_t ok = 0;

		for (struct ibv_send_wr *wr = w->wr; wr && wr != bad;
		     wr = wr->next)
			ok++;
		w->posted += ok < k ? ok : 0;
		return r;
	}
	w->posted += k;
	return 0;
}

/* --- receives ------------------------------------------------------------- */

void rs_recv_lane(struct rs_lane *lane)
{
	lane->per_wr = true;
	lane->op = "recv";
}

void rs_recv_window_init(struct rs_step_run *sr, struct rs_recv_window *w,
			 struct rs_qpi *qp, unsigned lane_no,
			 const struct ibv_sge *sge, int num_sge)
{
	w->qp = qp;
	w->lane_no = lane_no;
	w->lane = &sr->owner->lanes[lane_no];
	rs_recv_lane(w->lane);
	w->sge = *sge;
	w->wr.sg_list = &w->sge;
	w->wr.num_sge = num_sge;
}

int rs_post_recv_list(struct ibv_srq *srq, struct rs_qpi *q,
		      struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	if (!srq)
		q->rt->posted = true;
	return rs_wr_err(srq ? ibv_post_srq_recv(srq, wr, bad) :
			       ibv_post_recv(q->rt->qp, wr, bad));
}

int rs_recv_refill(struct rs_step_run *sr, struct rs_recv_window *w,
		   uint64_t n, uint32_t rx)
{
	uint64_t done = atomic_load_explicit(&w->lane->done,
					     memory_order_acquire);
	struct rdmascn_srq sf;
	struct ibv_srq *srq = w->qp->srq && w->qp->info.srq_posts &&
			      !rs_as_srq(w->qp->srq, &sf) ? sf.srq : NULL;

	while (w->posted < n && w->posted - done < rx) {
		struct ibv_recv_wr *bad;
		int r;

		w->wr.wr_id = rs_wr_id(rs_step_slot(sr), w->lane_no,
				       (uint32_t)w->posted);
		r = rs_post_recv_list(srq, w->qp, &w->wr, &bad);
		if (r)
			return rs_step_fail(sr, RS_STEP_FAILED, NULL,
					    "posting a receive on qp '%s': %s",
					    w->qp->l->obj->id, strerror(-r));
		w->posted++;
	}
	return 0;
}

uint32_t rs_recv_room(struct rs_qpi *q)
{
	struct rdmascn_srq srq;

	if (q->srq && !rs_as_srq(q->srq, &srq))
		return srq.max_wr;
	return q->rt->cap.max_recv_wr;
}

/* --- posting -------------------------------------------------------------- */

#define AS_ROW(word, bit, wr, msg) { (wr), (bit), msg, word },
static const struct send_op {
	int wr;                      /* IBV_WR_*, -1: none */
	uint64_t bit;                /* IBV_QP_EX_WITH_* */
	const char *msg;
	const char *word;            /* of send_ops: */
} send_ops[] = { RS_SEND_OP_MAP(AS_ROW) };

static const struct send_op *send_op(enum ibv_wr_opcode opcode)
{
	for (size_t i = 0; i < RS_N(send_ops); i++)
		if (send_ops[i].wr == (int)opcode)
			return &send_ops[i];
	return NULL;
}

const char *rs_wr_op_name(enum ibv_wr_opcode opcode)
{
	const struct send_op *o = send_op(opcode);

	return o ? o->msg : "send";
}

const char *rs_wr_send_op_word(enum ibv_wr_opcode opcode)
{
	const struct send_op *o = send_op(opcode);

	return o ? o->word : "?";
}

bool rs_wr_send_ops_has(uint64_t ops, enum ibv_wr_opcode opcode)
{
	const struct send_op *o = send_op(opcode);

	return o && (ops & o->bit);
}

bool rs_qp_use_ex(const struct rs_qpi *qp, enum ibv_wr_opcode opcode)
{
	return qp->rt->qpx && qp->info.ex &&
	       rs_wr_send_ops_has(qp->info.send_ops, opcode);
}

/* The ibv_wr_* form of a chain of ibv_send_wr: one start, one complete. */
static int post_ex(struct rs_qpi *qp, struct ibv_send_wr *wr,
		   const struct rdmascn_wr_dest *d, struct rs_live *dest,
		   struct ibv_ah *ah)
{
	struct ibv_qp_ex *x = qp->rt->qpx;

	ibv_wr_start(x);
	for (; wr; wr = wr->next) {
		uint64_t ra = wr->wr.rdma.remote_addr;
		uint32_t rk = wr->wr.rdma.rkey;
		bool data = true;

		x->wr_id = wr->wr_id;
		x->wr_flags = wr->send_flags;
		switch (wr->opcode) {
		case IBV_WR_SEND:
			ibv_wr_send(x);
			break;
		case IBV_WR_SEND_WITH_IMM:
			ibv_wr_send_imm(x, wr->imm_data);
			break;
		case IBV_WR_SEND_WITH_INV:
			ibv_wr_send_inv(x, wr->invalidate_rkey);
			break;
		case IBV_WR_RDMA_WRITE:
			ibv_wr_rdma_write(x, rk, ra);
			break;
		case IBV_WR_RDMA_WRITE_WITH_IMM:
			ibv_wr_rdma_write_imm(x, rk, ra, wr->imm_data);
			break;
		case IBV_WR_RDMA_READ:
			ibv_wr_rdma_read(x, rk, ra);
			break;
		case IBV_WR_ATOMIC_FETCH_AND_ADD:
			ibv_wr_atomic_fetch_add(x, wr->wr.atomic.rkey,
						wr->wr.atomic.remote_addr,
						wr->wr.atomic.compare_add);
			break;
		case IBV_WR_ATOMIC_CMP_AND_SWP:
			ibv_wr_atomic_cmp_swp(x, wr->wr.atomic.rkey,
					      wr->wr.atomic.remote_addr,
					      wr->wr.atomic.compare_add,
					      wr->wr.atomic.swap);
			break;
		case IBV_WR_LOCAL_INV:
			ibv_wr_local_inv(x, wr->invalidate_rkey);
			data = false;
			break;
		case IBV_WR_BIND_MW:
			ibv_wr_bind_mw(x, wr->bind_mw.mw, wr->bind_mw.rkey,
				       &wr->bind_mw.bind_info);
			data = false;
			break;
		default:
			ibv_wr_abort(x);
			return -EOPNOTSUPP;
		}
		if (d)
			d->set_wr_dest(qp->l, dest, ah);
		else if (qp->info.type == RS_QPT_UD)
			ibv_wr_set_ud_addr(x, wr->wr.ud.ah,
					   wr->wr.ud.remote_qpn,
					   wr->wr.ud.remote_qkey);
		else if (qp->info.type == RS_QPT_XRC_SEND)
			ibv_wr_set_xrc_srqn(x, wr->qp_type.xrc.remote_srqn);
		if (!data || !wr->num_sge)
			continue;
		if (wr->send_flags & IBV_SEND_INLINE)
			ibv_wr_set_inline_data(x,
				(void *)(uintptr_t)wr->sg_list->addr,
				wr->sg_list->length);
		else
			ibv_wr_set_sge(x, wr->sg_list->lkey,
				       wr->sg_list->addr, wr->sg_list->length);
	}
	return rs_wr_err(ibv_wr_complete(x));
}

int rs_post_send_list(struct rs_qpi *qp, bool ex, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad)
{
	return rs_post_send_dest(qp, ex, wr, bad, NULL, NULL, NULL);
}

int rs_post_send_dest(struct rs_qpi *qp, bool ex, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad,
		      const struct rdmascn_wr_dest *d, struct rs_live *dest,
		      struct ibv_ah *ah)
{
	int r;

	qp->rt->posted = true;
	if (!ex)
		return rs_wr_err(ibv_post_send(qp->rt->qp, wr, bad));
	/* ibv_wr_complete() posts all or nothing. */
	r = post_ex(qp, wr, d, dest, ah);
	if (r)
		*bad = wr;
	return r;
}

/* --- what a QP allows ----------------------------------------------------- */

/*
 * Reads and atomics need initiator depth on the QP's connection and
 * responder resources on the peer's: with 0 (the default) they are never
 * answered and the step would only end at its deadline.
 */
int rs_step_check_rd_atomic(struct rs_step_run *sr, struct rs_qpi *q,
			    int expect)
{
	const struct rdmascn_link *c = q->conn;

	if (!c || expect != IBV_WC_SUCCESS ||
	    (c->max_rd_atomic && c->max_dest_rd_atomic))
		return 0;
	return rs_step_fail(sr, RS_STEP_CANTRUN, "qp",
			    "reads and atomics on qp '%s' need max_rd_atomic "
			    "and max_dest_rd_atomic >= 1 on its connection "
			    "(connection '%s' has %u and %u)",
			    q->l->obj->id, c->id ? c->id : "-",
			    c->max_rd_atomic, c->max_dest_rd_atomic);
}

void rs_wr_check_msg_sz(struct rs_step_run *sr, struct rs_qpi *qp,
			uint64_t len, const char *field)
{
	struct rs_dev *dev = rs_live_dev(sr->run, qp->l);

	if (!dev || !dev->port_attr.max_msg_sz ||
	    len <= dev->port_attr.max_msg_sz)
		return;
	rs_step_warn(sr, field, "%llu bytes exceed %s port %u max_msg_sz (%u)",
		     (unsigned long long)len, dev->name, dev->port,
		     dev->port_attr.max_msg_sz);
}

uint32_t rs_qp_mtu_bytes(struct rs_step_run *sr, struct rs_qpi *qp)
{
	struct rs_dev *dev = rs_live_dev(sr->run, qp->l);
	int mtu = dev ? dev->port_attr.active_mtu : IBV_MTU_1024;

	if (qp->conn && qp->conn->mtu)
		mtu = qp->conn->mtu;
	return 128u << (mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? mtu : 3);
}

int rs_step_want(struct rs_step_run *sr, struct rs_owner *o,
		 const struct rs_step_wc *wc)
{
	static const struct {
		const char *field;
		uint32_t bit;
	} has[] = {
		{ "wc.byte_len", RS_WCW_BYTE_LEN },
		{ "wc.imm", RS_WCW_IMM },
		{ "wc.slid", RS_WCW_SLID },
		{ "wc.sl", RS_WCW_SL },
		{ "wc.dlid_path_bits", RS_WCW_DLID_PATH_BITS },
		{ "wc.cvlan", RS_WCW_CVLAN },
		{ "wc.flow_tag", RS_WCW_FLOW_TAG },
	};
	struct rs_wc_want *w = &o->want;
	struct rs_qpi *q;

	for (size_t i = 0; i < RS_N(has); i++)
		if (rs_obj_has(sr->obj, has[i].field))
			w->mask |= has[i].bit;
	w->byte_len = wc->byte_len;
	w->imm = wc->imm;
	w->slid = wc->slid;
	w->sl = wc->sl;
	w->dlid_path_bits = wc->dlid_path_bits;
	w->cvlan = wc->cvlan;
	w->flow_tag = wc->flow_tag;
	if (wc->timestamps_increase)
		w->mask |= RS_WCW_TS_UP;
	if (wc->qp_num) {
		if (!(q = rs_wr_qp(sr, wc->qp_num, "wc.qp_num", true)))
			return -EIO;
		w->qp_num = q->qpn;
		w->mask |= RS_WCW_QP_NUM;
	}
	if (wc->src_qp) {
		if (!(q = rs_wr_qp(sr, wc->src_qp, "wc.src_qp", true)))
			return -EIO;
		w->src_qp = q->qpn;
		w->mask |= RS_WCW_SRC_QP;
	}
	return 0;
}
