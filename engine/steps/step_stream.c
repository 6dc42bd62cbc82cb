// SPDX-License-Identifier: MIT
/*
 * stream: a window of WRs kept in flight on one or more QPs, reported as
 * bandwidth (like ib_write_bw, ib_send_bw, ib_read_bw).  The WRs are
 * built once; each post sets only wr_id and flags.
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "step.h"
#include "steps.h"
#include "value.h"
#include "wr.h"

/* Rates are taken on uv_hrtime(): CLOCK_MONOTONIC. */

struct st_q {
	struct rs_wr_window w;       /* w.n: to post; the posted ones when
				      * stopped */
	struct rs_qpi *peer;         /* send: the receiver */
	struct rs_recv_window rw;    /* ... its receives */
	struct rs_lane *sl;
	bool over;
};

struct stream_rt {
	struct st_q *q;
	unsigned nq;
	bool send;
	uint32_t depth;              /* every QP's window */
	uint32_t size, rx;
	uint64_t until;              /* duration_ms: ns when posting stops */
	bool stopped;                /* duration passed */
	uint64_t t_first, t_last;
	unsigned n_over;
};

static int st_post(struct rs_step_run *sr, struct st_q *q, unsigned lane,
		   uint64_t k)
{
	uint64_t posted = q->w.posted;
	int r = rs_wr_post(sr, &q->w, lane, k, NULL);

	if (r)
		return rs_step_fail(sr, RS_STEP_FAILED, NULL,
				    "posting on qp '%s' (WR %llu): %s",
				    q->w.qp->l->obj->id,
				    (unsigned long long)posted + 1,
				    strerror(-r));
	return 0;
}

static void st_report(struct rs_step_run *sr, struct stream_rt *s)
{
	double sec = (s->t_last - s->t_first) / 1e9;
	uint64_t msgs = 0;
	struct rs_val *bw;

	for (unsigned i = 0; i < s->nq; i++)
		msgs += s->q[i].w.n;
	if (sec <= 0)
		sec = 1e-9;
	/* MB/s as perftest prints it (2^20 bytes); Gb/s in 10^9 bits. */
	bw = rs_val_put_obj(rs_step_figures(sr), "throughput");
	rs_val_put_u64(bw, "messages", msgs);
	rs_val_put_u64(bw, "size_bytes", s->size);
	rs_val_put_double(bw, "elapsed_ms", sec * 1e3);
	rs_val_put_double(bw, "MB/s", msgs * (double)s->size / sec / 1048576.0);
	rs_val_put_double(bw, "Gb/s", msgs * (double)s->size * 8 / sec / 1e9);
	rs_val_put_double(bw, "Mpps", msgs / sec / 1e6);
}

static void stream_progress(struct rs_step_run *sr)
{
	struct stream_rt *s = sr->rt;
	uint64_t now = 0;

	if (s->until && !s->stopped && uv_hrtime() >= s->until) {
		/* Time is up: what was signalled is what is counted. */
		s->stopped = true;
		for (unsigned i = 0; i < s->nq; i++)
			s->q[i].w.n = s->q[i].w.sig_upto;
	}
	sr->done = 0;
	for (unsigned i = 0; i < s->nq; i++) {
		struct st_q *q = &s->q[i];
		uint64_t done;

		if (q->over)
			continue;
		done = atomic_load_explicit(&q->sl->done,
					    memory_order_acquire);
		if (s->send && rs_recv_refill(sr, &q->rw, q->w.n, s->rx))
			return;
		while (!s->stopped && q->w.posted < q->w.n) {
			/* A send needs a receive posted for it. */
			uint64_t k = rs_wr_next(&q->w, done, s->send ?
						q->rw.posted - q->w.posted :
						UINT64_MAX);

			if (!k)
				break;
			if (st_post(sr, q, 2 * i, k))
				return;
		}
		sr->done += done;
		if (done < q->w.n || (s->send &&
		    atomic_load_explicit(&q->rw.lane->done,
					 memory_order_acquire) < q->w.n))
			continue;
		q->over = true;
		s->n_over++;
		if (!now)
			now = uv_hrtime();
		s->t_last = now;
	}
	sr->wrs = 0;
	for (unsigned i = 0; i < s->nq; i++)
		sr->wrs += s->q[i].w.posted;
	if (s->n_over == s->nq) {
		st_report(sr, s);
		rs_step_pass(sr);
	}
}

static int stream_q_init(struct rs_step_run *sr, struct stream_rt *s,
			 struct st_q *q, const char *qp, unsigned i,
			 const struct ibv_send_wr *tmpl, struct ibv_sge sge,
			 uint8_t *host, const struct ibv_sge *rsge, uint64_t n)
{
	const struct rs_step_stream *st = sr->obj->data;
	int r;

	q->w.qp = rs_wr_qp(sr, qp, "qp", true);
	if (!q->w.qp)
		return -EIO;
	r = rs_wr_window_size(sr, &q->w, q->w.qp, s->depth, st->post_list,
			      st->signal_every);
	if (!r && st->inline_data)
		r = rs_wr_inline(sr, q->w.qp, s->size, host, &sge,
				 &q->w.flags);
	if (r)
		return r;
	q->w.n = n;
	q->sl = &sr->owner->lanes[2 * i];
	q->sl->op = rs_wr_op_name(tmpl->opcode);
	rs_recv_lane(&sr->owner->lanes[2 * i + 1]);
	if (rs_wr_vary_set(&q->w.v, &sge, NULL, 1) ||
	    rs_wr_window_build(&q->w, tmpl))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	r = rs_step_watch(sr, q->w.qp->send_cq, st->completion);
	if (r || !s->send)
		return r;
	/* send: the receiver is `peer` for one QP, else each QP's
	 * connection peer. */
	q->peer = st->peer && st->qp ? rs_step_qp(sr, st->peer) :
		  q->w.qp->peer;
	if (!q->peer || !q->peer->rt->qp)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "peer",
				    "qp '%s' has no receiving peer (a "
				    "connection)", qp);
	if (!s->rx || s->rx > rs_recv_room(q->peer))
		s->rx = rs_recv_room(q->peer);
	if (!s->rx)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "peer",
				    "qp '%s' has no receive queue",
				    q->peer->l->obj->id);
	rs_recv_window_init(sr, &q->rw, q->peer, 2 * i + 1, rsge, 1);
	return rs_step_watch(sr, q->peer->recv_cq, st->completion);
}

static int stream_start(struct rs_step_run *sr)
{
	const struct rs_step_stream *st = sr->obj->data;
	struct stream_rt *s = sr->rt;
	unsigned nq = st->qp ? 1 : st->qps_count;
	struct ibv_send_wr tmpl = { 0 };
	struct ibv_sge sge, rsge = { 0 };
	struct rs_qpi *first;
	uint64_t n, raddr = 0, ravail = UINT64_MAX;
	uint32_t rkey = 0, max;
	uint8_t *host, *rhost = NULL;
	int r;

	if (2 * nq > RS_MAX_LANES)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "qps",
				    "at most %d qps", RS_MAX_LANES / 2);
	first = rs_wr_qp(sr, st->qp ? st->qp : st->qps[0], NULL, false);
	if (!first)
		return -EIO;
	s->send = st->op == RS_STREAM_SEND;
	if (st->remote)
		rs_step_remote(sr, st->remote, 0, &raddr, &rkey, &rhost,
			       &ravail);
	r = rs_step_local(sr, st->local, 0, "size", st->size,
			  s->send ? UINT64_MAX : ravail, &sge, &host);
	if (r)
		return r;
	s->size = sge.length;
	if (!s->send && s->size > ravail)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "size",
				    "%u bytes do not fit in '%s' (%llu bytes)",
				    s->size, st->remote,
				    (unsigned long long)ravail);
	/* Every QP's window is the first's unless given. */
	max = first->rt->cap.max_send_wr ? first->rt->cap.max_send_wr : 1;
	s->depth = st->depth ? st->depth : max;
	tmpl.num_sge = s->size ? 1 : 0;
	rs_wr_check_msg_sz(sr, first, s->size, "size");
	tmpl.opcode = s->send ? IBV_WR_SEND : st->op == RS_STREAM_READ ?
		      IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE;
	tmpl.wr.rdma.remote_addr = raddr;
	tmpl.wr.rdma.rkey = rkey;
	/* Receives land in `remote` when given, else in `local` (both QPs
	 * on one PD). */
	if (s->send) {
		struct rs_mr_rt *rm = rs_step_mr(sr, st->remote ? st->remote :
						 st->local);

		rsge = (struct ibv_sge){ .addr = rm->addr,
					 .length = s->size,
					 .lkey = rm->mr->lkey };
		if (s->size > rm->length)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "size",
					    "%u bytes do not fit in the "
					    "receive buffer (%zu bytes)",
					    s->size, rm->length);
	}
	n = st->iterations ? st->iterations : 1;
	if (st->duration_ms) {
		n = UINT64_MAX;
		/* The deadline still applies: give it room. */
		if (!st->common.deadline_ms)
			sr->deadline_ms = st->duration_ms +
					  sr->run->default_deadline_ms;
	}
	s->q = rs_calloc(nq, sizeof(*s->q));
	if (!s->q || !rs_step_owner(sr, 2 * nq, IBV_WC_SUCCESS))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	s->nq = nq;
	for (unsigned i = 0; i < nq; i++) {
		r = stream_q_init(sr, s, &s->q[i], st->qp ? st->qp :
				  st->qps[i], i, &tmpl, sge, host, &rsge, n);
		if (!r && st->op == RS_STREAM_READ)
			r = rs_step_check_rd_atomic(sr, s->q[i].w.qp,
						    IBV_WC_SUCCESS);
		if (r)
			return r;
	}
	sr->unit = "completions";
	sr->total = n == UINT64_MAX ? 0 : n * nq;
	s->t_first = uv_hrtime();
	if (st->duration_ms)
		s->until = s->t_first + st->duration_ms * 1000000ull;
	stream_progress(sr);
	return 0;
}

static void stream_release(struct rs_step_run *sr)
{
	struct stream_rt *s = sr->rt;

	for (unsigned i = 0; s->q && i < s->nq; i++)
		rs_wr_window_free(&s->q[i].w);
	rs_free(s->q);
}

const struct rdmascn_step_ops rs_step_ops_stream = {
	.rt_size = sizeof(struct stream_rt),
	.start = stream_start,
	.progress = stream_progress,
	.release = stream_release,
};
