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
#include "buf.h"
#include "step.h"
#include "steps.h"
#include "value.h"
#include "wr.h"

struct post_rt {
	struct rs_wr_window w;
	struct rs_lane *lane;
	bool stopped;                /* an error came: post no more */
	struct ibv_send_wr tmpl;
	struct ibv_sge tsge;
	uint8_t *host;               /* our bytes of tsge: inline data */
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
	rs_wr_post_fn *post;         /* NULL: rs_post_send_list() */
	int (*check)(struct rs_step_run *sr);
};

/* --- the engine ----------------------------------------------------------- */

/* Post what the window allows. */
static void post_more(struct rs_step_run *sr, struct post_rt *p)
{
	struct rs_wr_window *w = &p->w;
	uint64_t done = atomic_load_explicit(&p->lane->done,
					     memory_order_acquire);
	uint64_t k;

	if (!p->stopped &&
	    atomic_load_explicit(&p->lane->errored, memory_order_relaxed))
		p->stopped = true;
	while (!p->stopped && w->posted < w->n && !sr->finished &&
	       (k = rs_wr_next(w, done, UINT64_MAX))) {
		int r = rs_wr_post(sr, w, 0, k, p->post);

		if (r) {
			sr->wrs = w->posted;
			rs_step_fail(sr, RS_STEP_FAILED, NULL,
				     "posting %s WR %llu of %llu on qp '%s': "
				     "%s (max_send_wr %u, %llu in flight)",
				     p->lane->op,
				     (unsigned long long)w->posted + 1,
				     (unsigned long long)w->n,
				     w->qp->l->obj->id, strerror(-r),
				     w->qp->rt->cap.max_send_wr,
				     (unsigned long long)(w->posted - done));
			return;
		}
	}
	sr->wrs = w->posted;
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
	target = p->stopped ? p->w.posted : p->w.n;
	if (p->w.posted < target || done < p->w.posted)
		return;
	if (o->expect != IBV_WC_SUCCESS) {
		/* Expected errors do not wait for the peer. */
		if (!atomic_load(&o->saw_expect))
			rs_step_fail(sr, RS_STEP_FAILED, "expect",
				     "expected %s, but all %llu WRs completed "
				     "with success",
				     rs_wc_status_name(o->expect),
				     (unsigned long long)p->w.posted);
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

	rs_wr_window_free(&p->w);
}

/*
 * Everything set in p->tmpl/tsge (sg_list/num_sge by the engine), p->w.qp,
 * p->peer: check the knobs against the QP, build the chain, watch the
 * CQs and post the first window.
 */
static int post_begin(struct rs_step_run *sr, struct post_rt *p,
		      const struct rs_step_traffic *t, const char *op,
		      bool has_data)
{
	struct rs_owner *o;
	int r;

	p->w.n = t->iterations ? t->iterations : 1;
	r = rs_wr_window_size(sr, &p->w, p->w.qp, t->depth, t->post_list,
			      t->signal_every);
	if (!r && t->inline_data)
		r = rs_wr_inline(sr, p->w.qp, p->tsge.length, p->host,
				 &p->tsge, &p->w.flags);
	if (r)
		return r;
	o = rs_step_owner(sr, 1, t->expect);
	if (!o)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	p->lane = &o->lanes[0];
	p->lane->op = op;
	p->tmpl.num_sge = has_data;
	if (rs_wr_window_build(&p->w, &p->tmpl, &p->tsge))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	r = rs_step_watch(sr, p->w.qp->send_cq, t->completion);
	if (!r && p->peer)
		r = rs_step_watch(sr, p->peer->recv_cq, t->completion);
	if (r)
		return r;
	sr->unit = "completions";
	sr->total = p->w.n;
	if (p->peer) {
		rs_step_count_recv(sr, p->peer);
		p->peer_base = atomic_load(&p->peer->recv_done);
		snprintf(sr->unit2, sizeof(sr->unit2), "receives at qp '%s'",
			 p->peer->l->obj->id);
		sr->total2 = p->w.n;
	}
	post_more(sr, p);
	return 0;
}

/* `length: 0` is a message without an SGE; absent is the whole buffer. */
static bool has_data(struct rs_step_run *sr, uint32_t length)
{
	return !rs_obj_has(sr->obj, "length") || length;
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

	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	if (!p->w.qp)
		return -EIO;
	if (s->ah) {
		struct rs_ah_rt *ah = rs_rt(sr->run, s->ah);

		p->peer = rs_qp_by_num(sr->st, s->remote_qpn);
		w->wr.ud.ah = ah->ah;
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
	p->host = host;
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

	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	p->peer = p->w.qp ? rs_wr_qp(sr, s->to, "to", false) : NULL;
	if (!p->peer)
		return -EIO;
	if (p->peer->info.type != RS_QPT_UD)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "to",
				    "qp '%s' is not a ud qp", s->to);
	r = rs_step_local(sr, s->local, 0, "length", s->length,
			  rs_qp_mtu_bytes(sr, p->w.qp), &p->tsge, &host);
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
	p->host = host;
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

	p->w.qp = rs_wr_qp(sr, qp, "qp", false);
	if (!p->w.qp)
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
	p->host = host;
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
		p->peer = p->w.qp->peer;
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
		r = rs_step_check_rd_atomic(sr, ((struct post_rt *)sr->rt)->w.qp,
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

	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	if (!p->w.qp ||
	    rs_step_check_rd_atomic(sr, p->w.qp, s->traffic.expect))
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
	return post_begin(sr, p, &s->traffic, "bind_mw", false);
}

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
	struct rs_qpi *qp = NULL;
	struct rdmascn_srq sf = { 0 };
	struct ibv_srq *srq = s->srq &&
		!rs_as_srq(rs_live_find(sr->run, s->srq), &sf) ? sf.srq : NULL;
	uint64_t n = s->count ? s->count : 1, posted = 0;
	uint32_t slot = rs_step_slot(sr);
	uint8_t *host;
	int r;

	if (s->qp && !(qp = rs_wr_qp(sr, s->qp, "qp", false)))
		return -EIO;
	r = rs_step_local(sr, s->local, s->offset, "length", s->length,
			  UINT64_MAX, &sge, &host);
	if (r)
		return r;
	o = rs_step_owner(sr, 1, s->traffic.expect);
	if (!o)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	rs_recv_lane(&o->lanes[0]);
	for (unsigned i = 0; i < RECV_CHAIN; i++)
		wr[i] = (struct ibv_recv_wr){ .sg_list = &sge, .num_sge = 1 };
	while (posted < n) {
		unsigned k = n - posted < RECV_CHAIN ? n - posted : RECV_CHAIN;

		for (unsigned i = 0; i < k; i++) {
			wr[i].wr_id = rs_wr_id(slot, 0, (uint32_t)(posted + i));
			wr[i].next = i + 1 < k ? &wr[i + 1] : NULL;
		}
		bad = NULL;
		r = rs_post_recv_list(srq, qp, wr, &bad);
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
					    srq ? s->srq : s->qp, strerror(-r),
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
