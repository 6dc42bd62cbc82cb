// SPDX-License-Identifier: MIT
/*
 * The engine of the posting steps (send, ud_send, write, read, atomic,
 * bind_mw, invalidate): at most `depth` WRs in flight, `post_list` WRs
 * per post call from a chain built once, a completion requested every
 * `signal_every`th WR (and on the last), and the step done when every WR
 * is accounted for and, for traffic that consumes receives, the peer has
 * reaped as many receives as sends succeeded.
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"

#include "buf.h"
#include "post.h"
#include "registry.h"

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

void rs_post_progress(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;
	struct rs_owner *o = sr->owner;
	uint64_t done, target, ok;

	if (p->receiver) {
		sr->done2 = atomic_load_explicit(&p->peer->recv_done,
						 memory_order_acquire) -
			    p->peer_base;
		sr->done = sr->done2;
		if (sr->done2 >= sr->total2)
			rs_step_pass(sr);
		return;
	}
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

void rs_post_release(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;

	rs_wr_window_free(&p->w);
}

/*
 * A message longer than the port's max_msg_sz (or the step's, which may
 * only be lower) goes as pieces chained in the window: their number is
 * a figure of the step.
 */
static int split(struct rs_step_run *sr, struct post_rt *p)
{
	struct rs_dev *dev = rs_live_dev(sr->run, p->w.qp->l);
	uint64_t port = dev && dev->port_attr.max_msg_sz ?
			dev->port_attr.max_msg_sz : UINT32_MAX;
	uint64_t max = port;
	struct rs_val *f;

	if (!p->vary)
		return 0;
	if (rs_obj_has(sr->obj, "max_msg_sz")) {
		if (p->vary->max_msg_sz > port)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "max_msg_sz",
					    "%u exceeds the port's max_msg_sz "
					    "(%llu)", p->vary->max_msg_sz,
					    (unsigned long long)port);
		max = p->vary->max_msg_sz;
	}
	if (rs_wr_vary_split(&p->w.v, max))
		return rs_step_fail(sr, RS_STEP_CANTRUN, "sge",
				    "the list's %llu bytes exceed max_msg_sz "
				    "(%llu), and an sge list is not split",
				    (unsigned long long)p->w.v.len,
				    (unsigned long long)max);
	if (p->w.v.pieces == 1)
		return 0;
	f = rs_val_put_obj(rs_step_figures(sr), "split");
	rs_val_put_u64(f, "wrs_per_message", p->w.v.pieces);
	rs_val_put_u64(f, "piece_bytes", p->w.v.piece);
	rs_val_put_u64(f, "max_msg_sz", max);
	return 0;
}

int rs_post_begin(struct rs_step_run *sr, struct post_rt *p,
		  const struct rs_step_traffic *t, bool has_data)
{
	struct rs_wr_vary *v = &p->w.v;
	struct rs_owner *o;
	uint64_t iters = t->iterations ? t->iterations : 1;
	int r;

	if (!v->sge && rs_wr_vary_set(v, &p->tsge, &p->host, 1))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	r = has_data ? split(sr, p) : 0;
	if (r)
		return r;
	p->w.n = iters * v->pieces;
	/* Unless told: a split message is one chain, signalled on its last
	 * piece (every `depth` WRs when it has more than the queue). */
	r = rs_wr_window_size(sr, &p->w, p->w.qp, t->depth,
			      t->post_list ? t->post_list : v->pieces,
			      t->signal_every ? t->signal_every : v->pieces);
	if (!r && t->inline_data)
		r = rs_wr_inline(sr, p->w.qp, v->len, v->host[0], &v->sge[0],
				 &p->w.flags);
	if (r)
		return r;
	/* One SGE is what every QP takes: its cap is checked for lists. */
	if (has_data && v->nsge > 1 &&
	    v->nsge > p->w.qp->rt->cap.max_send_sge)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "sge",
				    "%u entries exceed qp '%s' max_send_sge "
				    "(%u)", v->nsge, p->w.qp->l->obj->id,
				    p->w.qp->rt->cap.max_send_sge);
	o = rs_step_owner(sr, 1, t->expect);
	if (!o)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	if (rs_step_want(sr, o, &t->wc))
		return -EIO;
	p->lane = &o->lanes[0];
	p->lane->op = p->op ? p->op : rs_wr_op_name(p->tmpl.opcode);
	p->tmpl.num_sge = has_data;
	if (rs_wr_window_build(&p->w, &p->tmpl))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	r = rs_wr_user_ids(sr, v, p->w.qp, NULL, false, 0, p->w.n);
	if (r)
		return r;
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

int rs_post_begin_receiver(struct rs_step_run *sr, struct post_rt *p,
			   struct rs_qpi *to, const struct rs_step_traffic *t)
{
	int r;

	p->receiver = true;
	p->peer = to;
	/* An error the sender expects: nothing arrives to wait for. */
	sr->total2 = t->expect != IBV_WC_SUCCESS ? 0 :
		     t->iterations ? t->iterations : 1;
	r = rs_step_watch(sr, to->recv_cq, t->completion);
	if (r)
		return r;
	rs_step_count_recv(sr, to);
	p->peer_base = atomic_load(&to->recv_done);
	sr->unit = "receives";
	sr->total = sr->total2;
	snprintf(sr->unit2, sizeof(sr->unit2), "receives at qp '%s'",
		 to->l->obj->id);
	return 0;
}

bool rs_post_has_data(struct rs_step_run *sr, uint32_t length)
{
	return !rs_obj_has(sr->obj, "length") || length;
}

int rs_post_compare(struct rs_step_run *sr, const uint8_t *got,
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

/* The peer's last receive, where the step that posted it put it, holds
 * the bytes of our last WR. */
int rs_post_check_received(struct rs_step_run *sr)
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

int rs_post_dest(struct rs_step_run *sr, const char *dct, const char *ah,
		 enum ibv_wr_opcode op)
{
	struct post_rt *p = sr->rt;
	struct rs_qpi *q = p->w.qp;
	const struct rdmascn_wr_dest *d =
		rs_wr_dest_find(q->l->obj->kind->name);

	if (!dct)
		return 0;
	if (!d || !d->needs_dest(q->l->obj->data))
		return rs_step_fail(sr, RS_STEP_CANTRUN, "dct", "qp '%s' does "
				    "not name a destination in each WR",
				    q->l->obj->id);
	if (!rs_qp_use_ex(q, op))
		return rs_step_fail(sr, RS_STEP_CANTRUN, "dct", "qp '%s' "
				    "names the DCT through ibv_wr_*: its "
				    "send_ops need %s", q->l->obj->id,
				    rs_wr_send_op_word(op));
	p->w.dest_ops = d;
	p->w.dest = rs_live_find(sr->run, dct);
	p->w.dest_ah = rs_as_ah(rs_live_find(sr->run, ah));
	p->w.ah_id = ah;
	if (!p->w.dest || !p->w.dest_ah)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "ah", "no address "
				    "handle '%s' to address '%s' by", ah, dct);
	return 0;
}
