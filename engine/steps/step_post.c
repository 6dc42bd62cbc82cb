// SPDX-License-Identifier: MIT
/*
 * The posting steps: send, recv, write, read, atomic, ud_send, bind_mw and
 * invalidate.  One engine posts them all: at most `depth` WRs in flight,
 * `post_list` WRs per post call from a chain built once, a completion
 * requested every `signal_every`th WR (and on the last), and the step done
 * when every WR is accounted for and, for traffic that consumes receives,
 * the peer has reaped as many receives as sends succeeded.
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "step.h"
#include "steps.h"
#include "value.h"

struct post_rt {
	struct rs_qpi *qp;
	struct rs_lane *lane;
	uint64_t n;                  /* WRs to post */
	uint64_t posted;
	uint32_t depth, list, sig;
	unsigned flags;              /* IBV_SEND_INLINE */
	bool stopped;                /* an error came: post no more */
	bool ex;                     /* through ibv_wr_* */
	struct ibv_send_wr tmpl;
	struct ibv_sge tsge;
	struct ibv_send_wr *wr;      /* list WRs, chained */
	struct ibv_sge *sge;
	/* The receives this traffic consumes, at the peer. */
	struct rs_qpi *peer;
	uint64_t peer_base;
	/* Checks once every WR completed. */
	uint8_t *src, *dst;          /* verify: true (write, read) */
	uint64_t len;
	uint8_t *fetch;              /* atomic: where the value is fetched */
	/* bind_mw */
	struct rs_mwi *mw;
	struct rs_live *bind_mr;
	uint64_t bind_offset;
	uint32_t new_rkey;
	struct ibv_mw_bind bind1;
	int (*post)(struct rs_step_run *sr, struct ibv_send_wr *wr,
		    struct ibv_send_wr **bad);
	int (*check)(struct rs_step_run *sr);
};

/* --- helpers the pattern steps share -------------------------------------- */

struct rs_mr_rt *rs_step_mr(struct rs_step_run *sr, const char *id)
{
	return rs_as_mem(rs_live_find(sr->run, id));
}

void rs_step_remote(struct rs_step_run *sr, const char *id, uint64_t offset,
		    uint64_t *ret_addr, uint32_t *ret_rkey, uint8_t **ret_host,
		    uint64_t *ret_avail)
{
	struct rs_live *l = rs_live_find(sr->run, id);
	struct rs_mw_rt *mw = rs_as_mw(l);
	struct rs_mr_rt *mr;
	uint64_t len;

	if (mw) {
		struct rs_mwi *m = sr->st->by_obj[l->obj->index];

		*ret_rkey = mw->rkey;
		if (!m->mr) {
			/* Never bound by a step: a negative test. */
			*ret_addr = offset;
			*ret_host = NULL;
			*ret_avail = UINT64_MAX;
			return;
		}
		mr = rs_as_mem(m->mr);
		*ret_addr = (m->zero_based ? 0 : m->addr) + offset;
		*ret_host = mr->buf && offset <= m->length ?
			    (uint8_t *)mr->buf + m->offset + offset : NULL;
		len = m->length;
	} else {
		mr = rs_as_mem(l);
		*ret_addr = mr->addr + offset;
		*ret_rkey = mr->mr->rkey;
		*ret_host = mr->buf && offset <= mr->length ?
			    (uint8_t *)mr->buf + offset : NULL;
		len = mr->length;
	}
	*ret_avail = offset <= len ? len - offset : 0;
}

int rs_step_local(struct rs_step_run *sr, const char *id, uint64_t offset,
		  const char *len_field, uint64_t len, uint64_t cap,
		  struct ibv_sge *ret_sge, uint8_t **ret_host)
{
	struct rs_mr_rt *mr = rs_step_mr(sr, id);

	if (offset > mr->length)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "offset",
				    "%llu is past the end of mr '%s' (%zu "
				    "bytes)", (unsigned long long)offset, id,
				    mr->length);
	if (!len_field || !rs_obj_has(sr->obj, len_field)) {
		len = mr->length - offset;
		if (len > cap)
			len = cap;
	} else if (len > mr->length - offset) {
		return rs_step_fail(sr, RS_STEP_CANTRUN, len_field,
				    "%llu bytes at offset %llu do not fit in "
				    "mr '%s' (%zu bytes)",
				    (unsigned long long)len,
				    (unsigned long long)offset, id, mr->length);
	}
	if (len > UINT32_MAX)
		return rs_step_fail(sr, RS_STEP_CANTRUN, len_field,
				    "%llu bytes: one WR moves at most %u",
				    (unsigned long long)len, UINT32_MAX);
	ret_sge->addr = mr->addr + offset;
	ret_sge->length = len;
	ret_sge->lkey = mr->mr ? mr->mr->lkey : 0;
	*ret_host = mr->buf ? (uint8_t *)mr->buf + offset : NULL;
	return 0;
}

uint32_t rs_qp_mtu_bytes(struct rs_step_run *sr, struct rs_qpi *qp)
{
	struct rs_dev *dev = rs_live_dev(sr->run, qp->l);
	int mtu = dev ? dev->port_attr.active_mtu : IBV_MTU_1024;

	if (qp->conn && qp->conn->mtu)
		mtu = qp->conn->mtu;
	return 128u << (mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? mtu : 3);
}

static uint64_t ex_bit(enum ibv_wr_opcode op)
{
	switch (op) {
	case IBV_WR_SEND: return IBV_QP_EX_WITH_SEND;
	case IBV_WR_SEND_WITH_IMM: return IBV_QP_EX_WITH_SEND_WITH_IMM;
	case IBV_WR_SEND_WITH_INV: return IBV_QP_EX_WITH_SEND_WITH_INV;
	case IBV_WR_RDMA_WRITE: return IBV_QP_EX_WITH_RDMA_WRITE;
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		return IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
	case IBV_WR_RDMA_READ: return IBV_QP_EX_WITH_RDMA_READ;
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		return IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
		return IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP;
	case IBV_WR_LOCAL_INV: return IBV_QP_EX_WITH_LOCAL_INV;
	case IBV_WR_BIND_MW: return IBV_QP_EX_WITH_BIND_MW;
	default: return 0;
	}
}

bool rs_qp_use_ex(const struct rs_qpi *qp, enum ibv_wr_opcode opcode)
{
	return qp->rt->qpx && qp->info.ex &&
	       (qp->info.send_ops & ex_bit(opcode));
}

/* The ibv_wr_* form of a chain of ibv_send_wr: one start, one complete. */
static int post_ex(struct rs_qpi *qp, struct ibv_send_wr *wr)
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
			return EOPNOTSUPP;
		}
		if (qp->info.type == RS_QPT_UD)
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
	return ibv_wr_complete(x);
}

int rs_post_send_list(struct rs_qpi *qp, bool ex, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad)
{
	int r;

	if (!ex)
		return ibv_post_send(qp->rt->qp, wr, bad);
	/* ibv_wr_complete() posts all or nothing. */
	r = post_ex(qp, wr);
	if (r)
		*bad = wr;
	return r;
}

/* --- the engine ----------------------------------------------------------- */

static int post_default(struct rs_step_run *sr, struct ibv_send_wr *wr,
			struct ibv_send_wr **bad)
{
	struct post_rt *p = sr->rt;

	return rs_post_send_list(p->qp, p->ex, wr, bad);
}

/* Post what the window allows. */
static void post_more(struct rs_step_run *sr, struct post_rt *p)
{
	uint32_t slot = rs_step_slot(sr);
	uint64_t done = atomic_load_explicit(&p->lane->done,
					     memory_order_acquire);

	if (!p->stopped &&
	    atomic_load_explicit(&p->lane->errored, memory_order_relaxed))
		p->stopped = true;
	while (!p->stopped && p->posted < p->n && !sr->finished) {
		uint64_t room = p->depth - (p->posted - done);
		uint64_t k = p->n - p->posted;
		struct ibv_send_wr *bad = NULL;
		int r;

		if (!room)
			break;
		/* A short chain when the window is short: waiting for a
		 * full one could wait for a completion never requested. */
		if (k > p->list)
			k = p->list;
		if (k > room)
			k = room;
		for (uint64_t i = 0; i < k; i++) {
			uint64_t s = p->posted + i;
			struct ibv_send_wr *w = &p->wr[i];

			w->wr_id = rs_wr_id(slot, 0, (uint32_t)s);
			w->send_flags = p->flags;
			if ((s + 1) % p->sig == 0 || s + 1 == p->n)
				w->send_flags |= IBV_SEND_SIGNALED;
		}
		p->wr[k - 1].next = NULL;
		r = p->post(sr, p->wr, &bad);
		p->wr[k - 1].next = k < p->list ? &p->wr[k] : NULL;
		if (r) {
			uint64_t ok = 0;

			for (struct ibv_send_wr *w = p->wr; w && w != bad;
			     w = w->next)
				ok++;
			p->posted += ok < k ? ok : 0;
			sr->wrs = p->posted;
			rs_step_fail(sr, RS_STEP_FAILED, NULL,
				     "posting %s WR %llu of %llu on qp '%s': "
				     "%s (max_send_wr %u, %llu in flight)",
				     p->lane->op,
				     (unsigned long long)p->posted + 1,
				     (unsigned long long)p->n,
				     p->qp->l->obj->id, strerror(r),
				     p->qp->rt->cap.max_send_wr,
				     (unsigned long long)(p->posted - done));
			return;
		}
		p->posted += k;
	}
	sr->wrs = p->posted;
}

static void post_progress(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;
	struct rs_owner *o = sr->owner;
	uint64_t done, target, ok;

	post_more(sr, p);
	if (sr->finished)
		return;
	done = atomic_load_explicit(&p->lane->done, memory_order_acquire);
	sr->done = done;
	if (p->peer)
		sr->done2 = atomic_load_explicit(&p->peer->recv_done,
						 memory_order_acquire) -
			    p->peer_base;
	target = p->stopped ? p->posted : p->n;
	if (p->posted < target || done < p->posted)
		return;
	if (o->expect != IBV_WC_SUCCESS) {
		/* Expected errors do not wait for the peer. */
		if (!atomic_load(&o->saw_expect))
			rs_step_fail(sr, RS_STEP_FAILED, "expect",
				     "expected %s, but all %llu WRs completed "
				     "with success",
				     rs_wc_status_name(o->expect),
				     (unsigned long long)p->posted);
		else
			rs_step_pass(sr);
		return;
	}
	ok = atomic_load(&p->lane->ok);
	if (p->peer && sr->done2 < ok)
		return;
	if (p->check && p->check(sr))
		return;
	rs_step_pass(sr);
}

static void post_release(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;

	rs_free(p->wr);
	rs_free(p->sge);
}

/*
 * Everything set in p->tmpl/tsge (sg_list/num_sge by the engine), p->qp,
 * p->peer: check the knobs against the QP, build the chain, watch the
 * CQs and post the first window.
 */
static int post_begin(struct rs_step_run *sr, struct post_rt *p,
		      const struct rs_step_traffic *t, const char *op,
		      bool has_data)
{
	const struct ibv_qp_cap *cap = &p->qp->rt->cap;
	struct rs_owner *o;
	uint32_t max = cap->max_send_wr ? cap->max_send_wr : 1;
	int r;

	p->n = t->iterations ? t->iterations : 1;
	if (rs_obj_has(sr->obj, "depth") && t->depth) {
		if (t->depth > max)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "depth",
					    "%u exceeds qp '%s' max_send_wr "
					    "(%u)", t->depth,
					    p->qp->l->obj->id, max);
		p->depth = t->depth;
	} else {
		p->depth = max;
	}
	p->list = t->post_list ? t->post_list : 1;
	if (p->list > p->depth)
		p->list = p->depth;
	/* A window of `depth` WRs must hold a signalled one. */
	p->sig = t->signal_every ? t->signal_every : 1;
	if (p->sig > p->depth)
		p->sig = p->depth;
	if (t->inline_data) {
		if (p->tsge.length > cap->max_inline_data)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "inline",
					    "%u bytes exceed qp '%s' "
					    "max_inline_data (%u)",
					    p->tsge.length, p->qp->l->obj->id,
					    cap->max_inline_data);
		p->flags |= IBV_SEND_INLINE;
	}
	o = rs_step_owner(sr, 1, t->expect);
	if (!o)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	p->lane = &o->lanes[0];
	p->lane->op = op;
	p->wr = rs_calloc(p->list, sizeof(*p->wr));
	p->sge = rs_calloc(p->list, sizeof(*p->sge));
	if (!p->wr || !p->sge)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	for (uint32_t i = 0; i < p->list; i++) {
		p->wr[i] = p->tmpl;
		p->sge[i] = p->tsge;
		p->wr[i].sg_list = &p->sge[i];
		p->wr[i].num_sge = has_data;
		p->wr[i].next = i + 1 < p->list ? &p->wr[i + 1] : NULL;
	}
	p->ex = rs_qp_use_ex(p->qp, p->tmpl.opcode);
	if (!p->post)
		p->post = post_default;
	r = rs_step_watch(sr, p->qp->send_cq, t->completion);
	if (!r && p->peer)
		r = rs_step_watch(sr, p->peer->recv_cq, t->completion);
	if (r)
		return r;
	sr->unit = "completions";
	sr->total = p->n;
	if (p->peer) {
		rs_step_count_recv(sr, p->peer);
		p->peer_base = atomic_load(&p->peer->recv_done);
		snprintf(sr->unit2, sizeof(sr->unit2), "receives at qp '%s'",
			 p->peer->l->obj->id);
		sr->total2 = p->n;
	}
	post_more(sr, p);
	return 0;
}

/* `length: 0` is a message without an SGE; absent is the whole buffer. */
static bool has_data(struct rs_step_run *sr, uint32_t length)
{
	return !rs_obj_has(sr->obj, "length") || length;
}

/* Inline data is copied by the CPU: from our bytes, not the MR's iova. */
static void inline_from_host(struct post_rt *p, const struct rs_step_traffic *t,
			     uint8_t *host)
{
	if (t->inline_data && host)
		p->tsge.addr = (uintptr_t)host;
}

static bool check_qp(struct rs_step_run *sr, struct rs_qpi *q, const char *f)
{
	if (q && q->rt->qp)
		return true;
	rs_step_fail(sr, RS_STEP_CANTRUN, f, "the qp does not exist");
	return false;
}

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

/* --- verify: true --------------------------------------------------------- */

static int compare(struct rs_step_run *sr, const uint8_t *got,
		   const uint8_t *want, uint64_t len, const char *what)
{
	size_t d = rs_first_diff(got, want, len);

	if (d == len)
		return 0;
	return rs_step_fail(sr, RS_STEP_FAILED, "verify",
			    "%s differ at byte %zu of %llu: 0x%02x, expected "
			    "0x%02x", what, d, (unsigned long long)len, got[d],
			    want[d]);
}

static int check_moved(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;

	if (!p->src || !p->dst)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				    "the bytes on one side are not in this "
				    "process's memory");
	return compare(sr, p->dst, p->src, p->len, "the bytes moved");
}

/* The peer's last receive: the buffer its recv step posted. */
static int check_received(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;
	struct rs_qpi *q = p->peer;
	uint32_t slot = atomic_load(&q->last_recv_slot);
	uint32_t got = atomic_load(&q->last_recv_len);
	uint32_t grh = q->info.type == RS_QPT_UD ? 40 : 0;
	struct rs_owner *o = slot < sr->st->n_objs ? sr->st->owners[slot] :
			     NULL;
	const struct rs_step_recv *r;
	struct rs_mr_rt *mr;

	if (!o || o->obj->kind != &rs_step_recv)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				    "qp '%s''s receives were not posted by a "
				    "recv step", q->l->obj->id);
	r = o->obj->data;
	mr = rs_step_mr(sr, r->local);
	if (got != grh + p->len)
		return rs_step_fail(sr, RS_STEP_FAILED, "verify",
				    "qp '%s''s last receive got %u bytes, %llu "
				    "were sent", q->l->obj->id, got - grh,
				    (unsigned long long)p->len);
	if (!mr->buf || !p->src || r->offset + got > mr->length)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				    "the received bytes are not in mr '%s'",
				    r->local);
	return compare(sr, (uint8_t *)mr->buf + r->offset + grh, p->src,
		       p->len, "the bytes received");
}

/* --- send, ud_send -------------------------------------------------------- */

static int send_start(struct rs_step_run *sr)
{
	const struct rs_step_send *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	uint64_t cap = UINT64_MAX;
	uint8_t *host;
	int r;

	p->qp = rs_step_qp(sr, s->qp);
	if (!check_qp(sr, p->qp, "qp"))
		return -EIO;
	if (s->ah) {
		struct rs_ah_rt *ah = rs_rt(sr->run, s->ah);

		p->peer = rs_qp_by_num(sr->st, s->remote_qpn);
		w->wr.ud.ah = ah->ah;
		w->wr.ud.remote_qpn = s->remote_qpn;
		w->wr.ud.remote_qkey = rs_obj_has(sr->obj, "remote_qkey") ||
				       !p->peer ? s->remote_qkey :
				       p->peer->rt->qkey;
		cap = rs_qp_mtu_bytes(sr, p->qp);
	} else {
		p->peer = p->qp->peer;
		struct rdmascn_srq srq;

		if (p->qp->info.type == RS_QPT_XRC_SEND && p->peer &&
		    p->peer->srq && !rs_as_srq(p->peer->srq, &srq))
			w->qp_type.xrc.remote_srqn = srq.srq_num;
	}
	r = rs_step_local(sr, s->local, s->offset, "length", s->length, cap,
			  &p->tsge, &host);
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
	p->src = host;
	p->len = p->tsge.length;
	if (s->traffic.verify && p->peer)
		p->check = check_received;
	else if (s->traffic.verify)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				    "the receiving qp is not in this scenario");
	inline_from_host(p, &s->traffic, host);
	return post_begin(sr, p, &s->traffic, "send",
			  has_data(sr, s->length));
}

static int ud_send_start(struct rs_step_run *sr)
{
	const struct rs_step_ud_send *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	struct rs_ah_rt *ah = rs_rt(sr->run, s->ah);
	uint8_t *host;
	int r;

	p->qp = rs_step_qp(sr, s->qp);
	p->peer = rs_step_qp(sr, s->to);
	if (!check_qp(sr, p->qp, "qp") || !check_qp(sr, p->peer, "to"))
		return -EIO;
	if (p->peer->info.type != RS_QPT_UD)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "to",
				    "qp '%s' is not a ud qp", s->to);
	r = rs_step_local(sr, s->local, 0, "length", s->length,
			  rs_qp_mtu_bytes(sr, p->qp), &p->tsge, &host);
	if (r)
		return r;
	w->opcode = IBV_WR_SEND;
	w->wr.ud.ah = ah->ah;
	w->wr.ud.remote_qpn = p->peer->qpn;
	w->wr.ud.remote_qkey = p->peer->rt->qkey;
	p->src = host;
	p->len = p->tsge.length;
	if (s->traffic.verify)
		p->check = check_received;
	inline_from_host(p, &s->traffic, host);
	return post_begin(sr, p, &s->traffic, "ud_send",
			  has_data(sr, s->length));
}

/* --- write, read ---------------------------------------------------------- */

static int rdma_start(struct rs_step_run *sr, const char *qp,
		      const char *local, uint64_t offset, uint32_t length,
		      const char *remote, uint64_t remote_offset,
		      uint32_t rkey_field, const struct rs_step_traffic *t,
		      bool read)
{
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	uint64_t raddr, ravail;
	uint32_t rkey;
	uint8_t *host, *rhost;
	int r;

	p->qp = rs_step_qp(sr, qp);
	if (!check_qp(sr, p->qp, "qp"))
		return -EIO;
	rs_step_remote(sr, remote, remote_offset, &raddr, &rkey, &rhost,
		       &ravail);
	r = rs_step_local(sr, local, offset, "length", length, ravail,
			  &p->tsge, &host);
	if (r)
		return r;
	/* Past the end of the remote is a negative test, or a mistake. */
	if (p->tsge.length > ravail && t->expect == IBV_WC_SUCCESS)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "length",
				    "%u bytes at remote_offset %llu do not "
				    "fit in '%s' (%llu bytes there)",
				    p->tsge.length,
				    (unsigned long long)remote_offset, remote,
				    (unsigned long long)ravail);
	if (rs_obj_has(sr->obj, "rkey"))
		rkey = rkey_field;
	w->opcode = read ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE;
	w->wr.rdma.remote_addr = raddr;
	w->wr.rdma.rkey = rkey;
	p->len = p->tsge.length;
	p->src = read ? rhost : host;
	p->dst = read ? host : rhost;
	if (t->verify)
		p->check = check_moved;
	inline_from_host(p, t, host);
	return 0;
}

static int write_start(struct rs_step_run *sr)
{
	const struct rs_step_write *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	int r;

	r = rdma_start(sr, s->qp, s->local, s->offset, s->length, s->remote,
		       s->remote_offset, s->rkey, &s->traffic, false);
	if (r)
		return r;
	if (rs_obj_has(sr->obj, "imm")) {
		/* The immediate consumes a receive at the peer. */
		p->tmpl.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		p->tmpl.imm_data = htobe32(s->imm);
		p->peer = p->qp->peer;
	}
	return post_begin(sr, p, &s->traffic, p->peer ? "rdma_write_imm" :
			  "rdma_write",
			  has_data(sr, s->length));
}

static int read_start(struct rs_step_run *sr)
{
	const struct rs_step_read *s = sr->obj->data;
	int r;

	r = rdma_start(sr, s->qp, s->local, s->offset, s->length, s->remote,
		       s->remote_offset, s->rkey, &s->traffic, true);
	if (!r)
		r = rs_step_check_rd_atomic(sr, ((struct post_rt *)sr->rt)->qp,
					    s->traffic.expect);
	if (r)
		return r;
	return post_begin(sr, sr->rt, &s->traffic, "rdma_read",
			  has_data(sr, s->length));
}

/* --- atomic --------------------------------------------------------------- */

static int check_fetched(struct rs_step_run *sr)
{
	const struct rs_step_atomic *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	uint64_t v;

	if (!rs_obj_has(sr->obj, "expect_fetched"))
		return 0;
	if (!p->fetch)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "expect_fetched",
				    "mr '%s' is not in host memory", s->local);
	/* The responder returns the value in host byte order. */
	memcpy(&v, p->fetch, sizeof(v));
	if (v == s->expect_fetched)
		return 0;
	return rs_step_fail(sr, RS_STEP_FAILED, "expect_fetched",
			    "fetched %llu (0x%llx), expected %llu (0x%llx)",
			    (unsigned long long)v, (unsigned long long)v,
			    (unsigned long long)s->expect_fetched,
			    (unsigned long long)s->expect_fetched);
}

static int atomic_start(struct rs_step_run *sr)
{
	const struct rs_step_atomic *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	uint64_t raddr, ravail;
	uint32_t rkey;
	uint8_t *rhost;
	int r;

	p->qp = rs_step_qp(sr, s->qp);
	if (!check_qp(sr, p->qp, "qp") ||
	    rs_step_check_rd_atomic(sr, p->qp, s->traffic.expect))
		return -EIO;
	r = rs_step_local(sr, s->local, 0, NULL, 8, 8, &p->tsge, &p->fetch);
	if (r)
		return r;
	if (p->tsge.length < 8)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "local",
				    "mr '%s' has %u bytes; an atomic fetches 8",
				    s->local, p->tsge.length);
	rs_step_remote(sr, s->remote, s->remote_offset, &raddr, &rkey, &rhost,
		       &ravail);
	if (ravail < 8 && s->traffic.expect == IBV_WC_SUCCESS)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "remote_offset",
				    "%llu leaves %llu of the 8 bytes in '%s'",
				    (unsigned long long)s->remote_offset,
				    (unsigned long long)ravail, s->remote);
	w->wr.atomic.remote_addr = raddr;
	w->wr.atomic.rkey = rkey;
	if (s->op == RS_ATOMIC_CMP_SWAP) {
		w->opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
		w->wr.atomic.compare_add = s->compare;
		w->wr.atomic.swap = s->swap;
	} else {
		w->opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
		w->wr.atomic.compare_add = s->add;
	}
	p->check = check_fetched;
	return post_begin(sr, p, &s->traffic,
			  s->op == RS_ATOMIC_CMP_SWAP ? "cmp_swap" :
			  "fetch_add", true);
}

/* --- bind_mw, invalidate -------------------------------------------------- */

static int post_bind1(struct rs_step_run *sr, struct ibv_send_wr *wr,
		      struct ibv_send_wr **bad)
{
	struct post_rt *p = sr->rt;
	struct rs_mw_rt *mw = rs_as_mw(p->mw->l);
	int r;

	p->bind1.wr_id = wr->wr_id;
	p->bind1.send_flags = wr->send_flags;
	p->bind1.bind_info = wr->bind_mw.bind_info;
	r = ibv_bind_mw(p->qp->rt->qp, mw->mw, &p->bind1);
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

	p->qp = rs_step_qp(sr, s->qp);
	p->mw = rs_step_mw(sr, s->mw);
	if (!check_qp(sr, p->qp, "qp"))
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
	return post_begin(sr, p, &s->traffic, "bind_mw", false);
}

static int invalidate_start(struct rs_step_run *sr)
{
	const struct rs_step_invalidate *s = sr->obj->data;
	struct post_rt *p = sr->rt;

	p->qp = rs_step_qp(sr, s->qp);
	if (!check_qp(sr, p->qp, "qp"))
		return -EIO;
	p->tmpl.opcode = IBV_WR_LOCAL_INV;
	if (s->mw)
		p->tmpl.invalidate_rkey =
			rs_as_mw(rs_live_find(sr->run, s->mw))->rkey;
	else
		p->tmpl.invalidate_rkey = rs_step_mr(sr, s->mr)->mr->rkey;
	return post_begin(sr, p, &s->traffic, "local_inv", false);
}

/* --- recv ----------------------------------------------------------------- */

#define RECV_CHAIN 64

/* Post the receives and finish: whoever polls their CQ later routes
 * their completions here (expect:, the byte count, the buffer). */
static int recv_start(struct rs_step_run *sr)
{
	const struct rs_step_recv *s = sr->obj->data;
	struct ibv_recv_wr wr[RECV_CHAIN], *bad;
	struct ibv_sge sge;
	struct rs_owner *o;
	struct rs_qpi *qp = s->qp ? rs_step_qp(sr, s->qp) : NULL;
	struct rdmascn_srq sf = { 0 };
	struct ibv_srq *srq = s->srq &&
		!rs_as_srq(rs_live_find(sr->run, s->srq), &sf) ? sf.srq : NULL;
	uint64_t n = s->count ? s->count : 1, posted = 0;
	uint32_t slot = rs_step_slot(sr);
	uint8_t *host;
	int r;

	if (qp && !check_qp(sr, qp, "qp"))
		return -EIO;
	r = rs_step_local(sr, s->local, s->offset, "length", s->length,
			  UINT64_MAX, &sge, &host);
	if (r)
		return r;
	o = rs_step_owner(sr, 1, s->traffic.expect);
	if (!o)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	o->lanes[0].per_wr = true;
	o->lanes[0].op = "recv";
	for (unsigned i = 0; i < RECV_CHAIN; i++)
		wr[i] = (struct ibv_recv_wr){ .sg_list = &sge, .num_sge = 1 };
	while (posted < n) {
		unsigned k = n - posted < RECV_CHAIN ? n - posted : RECV_CHAIN;

		for (unsigned i = 0; i < k; i++) {
			wr[i].wr_id = rs_wr_id(slot, 0, (uint32_t)(posted + i));
			wr[i].next = i + 1 < k ? &wr[i + 1] : NULL;
		}
		bad = NULL;
		r = srq ? ibv_post_srq_recv(srq, wr, &bad) :
			  ibv_post_recv(qp->rt->qp, wr, &bad);
		if (r) {
			for (unsigned i = 0; i < k && &wr[i] != bad; i++)
				posted++;
			sr->wrs = posted;
			return rs_step_fail(sr, RS_STEP_FAILED, "count",
					    "posting receive %llu of %llu on "
					    "%s '%s': %s (room for %u)",
					    (unsigned long long)posted + 1,
					    (unsigned long long)n,
					    srq ? "srq" : "qp",
					    srq ? s->srq : s->qp, strerror(r),
					    srq ? sf.max_wr :
						  qp->rt->cap.max_recv_wr);
		}
		posted += k;
	}
	sr->wrs = posted;
	rs_step_pass(sr);
	return 0;
}

#define POST_OPS(name)                                                    \
	const struct rdmascn_step_ops rs_step_ops_##name = {              \
		.rt_size = sizeof(struct post_rt),                        \
		.start = name##_start,                                    \
		.progress = post_progress,                                \
		.release = post_release,                                  \
	}

POST_OPS(send);
POST_OPS(ud_send);
POST_OPS(write);
POST_OPS(read);
POST_OPS(atomic);
POST_OPS(bind_mw);
POST_OPS(invalidate);

const struct rdmascn_step_ops rs_step_ops_recv = {
	.start = recv_start,
};
