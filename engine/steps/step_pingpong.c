// SPDX-License-Identifier: MIT
/*
 * pingpong: round trips between two QPs, reported as latency (round trip
 * / 2, like ib_send_lat and ib_write_lat).  Like their two processes:
 * `qp` (a) runs on the step's loop and measures; `peer` (b) answers from
 * a loop of its own in a second thread, so neither side's verbs work
 * waits for the other's.  The WRs are built once; each post sets only
 * wr_id.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "step.h"
#include "steps.h"
#include "value.h"
#include "wr.h"

/* Latency samples are taken on uv_hrtime(): CLOCK_MONOTONIC. */

struct pp_side {
	struct rs_qpi *qp;
	struct rs_mr_rt *mr;
	struct ibv_send_wr wr;
	struct ibv_sge sge;
	struct rs_recv_window rw;    /* op: send */
	bool ex;
	unsigned lane;               /* its send lane; receives lane + 1 */
	struct rs_lane *sl;
	uint64_t sent;
	uint32_t sq;                 /* sends in flight at most */
	volatile uint8_t *last;      /* write: the last byte of its buffer */
};

/* Each side's state on cache lines of its own: the two threads write
 * them at once, every round trip. */
struct pp_rt {
	uint64_t total;              /* warmup + iterations */
	uint64_t warmup;
	uint32_t rx;                 /* receives kept posted per side */
	bool write;
	int completion;
	struct rs_step_run *peer;    /* b's side */
	pthread_t thread;
	bool started, joined;
	_Atomic bool b_ready;        /* b's loop watches its CQs */
	/* Across nodes (`nodes:`) each node runs its own side: a here
	 * measures, b here answers; both: two threads as always. */
	bool a_here, b_here;

	_Alignas(RS_CACHELINE) struct pp_side a;
	uint64_t iter;               /* round trips done */
	uint64_t t_post;             /* ns: a's post of this round trip */
	uint64_t *samples;           /* ns per measured round trip */

	_Alignas(RS_CACHELINE) struct pp_side b;
};

/* write: the byte a puts last for round trip @i, and b's answer. */
static inline uint8_t pp_ping(uint64_t i)
{
	return (uint8_t)(2 * (i % 127) + 1);
}

static inline uint8_t pp_pong(uint64_t i)
{
	return (uint8_t)(pp_ping(i) + 1);
}

/* write: has the peer's byte @want arrived at @last?  With no send of
 * its own in flight (@idle) a side has nothing else to wait for, so it
 * looks in a tight loop for a while, as ib_write_lat does (no pause
 * instruction there either), before its loop's next turn: a turn reaps
 * CQs and checks for stops, and a byte that lands during one is seen that
 * much later.  Bounded, so stops and deadlines are still seen. */
#define PP_BYTE_SPINS 4096

static inline bool pp_byte(volatile uint8_t *last, uint8_t want, bool idle)
{
	for (unsigned i = idle ? PP_BYTE_SPINS : 1; i; i--)
		if (*last == want)
			return true;
	return false;
}

static int pp_post(struct rs_step_run *sr, struct pp_side *s, uint64_t seq)
{
	struct ibv_send_wr *bad;
	int r;

	s->wr.wr_id = rs_wr_id(rs_step_slot(sr), s->lane, (uint32_t)seq);
	r = rs_post_send_list(s->qp, s->ex, &s->wr, &bad);
	if (r)
		return rs_step_fail(sr, RS_STEP_FAILED, NULL,
				    "posting on qp '%s' (round trip %llu): %s",
				    s->qp->l->obj->id,
				    (unsigned long long)seq + 1, strerror(-r));
	s->sent++;
	return 0;
}

static inline uint64_t sends_done(struct pp_side *s)
{
	return atomic_load_explicit(&s->sl->done, memory_order_acquire);
}

static int pp_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* usec of one way: a round trip's ns / 2 / 1000 */
static double one_way_us(uint64_t ns)
{
	return ns / 2000.0;
}

static void pp_report(struct rs_step_run *sr, struct pp_rt *p)
{
	uint64_t n = p->total - p->warmup, *v = p->samples;
	double sum = 0, sq = 0, avg;
	struct rs_val *lat;

	if (!n)
		return;
	rs_step_samples(sr, v, n, 2000.0); /* in measured order */
	qsort(v, n, sizeof(*v), pp_cmp);
	for (uint64_t i = 0; i < n; i++)
		sum += one_way_us(v[i]);
	avg = sum / n;
	for (uint64_t i = 0; i < n; i++)
		sq += (one_way_us(v[i]) - avg) * (one_way_us(v[i]) - avg);
	/* perftest's columns: t_typical is the median; percentiles are
	 * the sample at that rank. */
	lat = rs_val_put_obj(rs_step_figures(sr), "latency");
	rs_val_put_str(lat, "unit", "usec");
	rs_val_put_double(lat, "min", one_way_us(v[0]));
	rs_val_put_double(lat, "typical", one_way_us(v[n / 2]));
	rs_val_put_double(lat, "avg", avg);
	rs_val_put_double(lat, "stdev", sqrt(sq / n));
	rs_val_put_double(lat, "p99",
			  one_way_us(v[(uint64_t)ceil(n * 0.99) - 1]));
	rs_val_put_double(lat, "p99.9",
			  one_way_us(v[(uint64_t)ceil(n * 0.999) - 1]));
	rs_val_put_double(lat, "max", one_way_us(v[n - 1]));
	rs_val_put_u64(lat, "samples", n);
}

/* b: answer every ping that came, keep its receives posted. */
static void pp_answer(struct rs_step_run *sr)
{
	struct pp_rt *p = sr->rt;
	struct pp_side *b = &p->b;

	/* First call: its waits are armed; a may start. */
	if (!atomic_load_explicit(&p->b_ready, memory_order_relaxed)) {
		atomic_store_explicit(&p->b_ready, true, memory_order_release);
		if (sr->parent)
			uv_async_send(&sr->parent->wake);
	}
	if (p->write) {
		uint64_t done = sends_done(b);

		if (b->sent < p->total && b->sent - done < b->sq &&
		    pp_byte(b->last, pp_ping(b->sent), done == b->sent)) {
			*b->last = pp_pong(b->sent);
			if (pp_post(sr, b, b->sent))
				return;
		}
	} else {
		uint64_t got = atomic_load_explicit(&b->rw.lane->done,
						    memory_order_acquire);

		if (b->sent < got && b->sent - sends_done(b) < b->sq &&
		    pp_post(sr, b, b->sent))
			return;
		if (rs_recv_refill(sr, &b->rw, p->total, p->rx))
			return;
	}
	if (!p->a_here) {
		sr->done = b->sent;
		sr->wrs = b->sent;
	}
	if (b->sent == p->total && sends_done(b) == b->sent)
		rs_step_pass(sr);
}

static int pp_answer_start(struct rs_step_run *sr)
{
	struct pp_rt *p = sr->rt;
	int r;

	sr->spin = p->write;
	r = rs_step_watch(sr, p->b.qp->send_cq, p->completion);
	if (!r && !p->write)
		r = rs_step_watch(sr, p->b.qp->recv_cq, p->completion);
	return r;
}

static const struct rdmascn_step_ops pp_answer_ops = {
	.start = pp_answer_start,
	.progress = pp_answer,
};

static void pp_join(struct rs_step_run *sr)
{
	struct pp_rt *p = sr->rt;

	if (!p->started || p->joined)
		return;
	pthread_join(p->thread, NULL);
	p->joined = true;
	atomic_fetch_sub(&sr->st->threads, 1);
}

static void pp_stop(struct rs_step_run *sr)
{
	struct pp_rt *p = sr->rt;

	if (p && p->peer && p->started && !p->joined) {
		rs_step_request_stop(p->peer, "stopped with its pingpong");
		pp_join(sr);
	}
}

static void pp_progress(struct rs_step_run *sr)
{
	struct pp_rt *p = sr->rt;
	struct pp_side *a = &p->a;
	uint64_t now = 0;

	if (!p->a_here) {
		pp_answer(sr);
		return;
	}
	if (p->peer &&
	    atomic_load_explicit(&p->peer->over, memory_order_acquire) &&
	    p->peer->result != RS_STEP_PASSED) {
		/* It said why on stderr. */
		pp_join(sr);
		snprintf(sr->why, sizeof(sr->why), "qp '%s''s side: %.600s",
			 p->b.qp->l->obj->id, p->peer->why);
		rs_step_finish(sr, p->peer->result);
		return;
	}
	if (a->sent > p->iter &&
	    (p->write ? pp_byte(a->last, pp_pong(p->iter),
				sends_done(a) == a->sent) :
	     atomic_load_explicit(&a->rw.lane->done, memory_order_acquire) >
	     p->iter)) {
		/* One clock read serves this sample and the next post. */
		now = uv_hrtime();
		if (p->iter >= p->warmup)
			p->samples[p->iter - p->warmup] = now - p->t_post;
		p->iter++;
	}
	sr->done = p->iter;
	/* The next ping first, the receive it consumed posted again after:
	 * that is not part of a round trip.  Not before b answers: its
	 * thread's start is not a round trip either. */
	if (a->sent == p->iter && a->sent < p->total &&
	    a->sent - sends_done(a) < a->sq &&
	    (a->sent ||
	     atomic_load_explicit(&p->b_ready, memory_order_acquire))) {
		if (p->write)
			*a->last = pp_ping(a->sent);
		p->t_post = now ? now : uv_hrtime();
		if (pp_post(sr, a, a->sent))
			return;
	}
	if (!p->write && rs_recv_refill(sr, &a->rw, p->total, p->rx))
		return;
	if (p->iter == p->total && sends_done(a) == a->sent &&
	    (!p->peer ||
	     atomic_load_explicit(&p->peer->over, memory_order_acquire))) {
		pp_join(sr);
		sr->wrs = a->sent + (p->b_here ? p->b.sent : 0);
		pp_report(sr, p);
		rs_step_pass(sr);
	}
}

static int pp_side_init(struct rs_step_run *sr, struct pp_rt *p,
			struct pp_side *s, const char *qp, const char *local,
			const char *peer_local, uint32_t size, bool inl,
			unsigned lane)
{
	struct ibv_sge rsge;
	uint8_t *host, *rhost;
	uint64_t raddr, ravail;
	uint32_t rkey;
	int r;

	s->qp = rs_wr_qp(sr, qp, NULL, true);
	if (!s->qp)
		return -EIO;
	s->mr = rs_step_mr(sr, local);
	s->lane = lane;
	s->sl = &sr->owner->lanes[lane];
	r = rs_step_local(sr, local, 0, NULL, size, size, &s->sge, &host);
	if (r)
		return r;
	if (s->sge.length < size)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "size",
				    "%u bytes do not fit in mr '%s' (%zu "
				    "bytes)",
				    size, local, s->mr->length);
	s->sq = s->qp->rt->cap.max_send_wr ? s->qp->rt->cap.max_send_wr : 1;
	s->wr.sg_list = &s->sge;
	s->wr.num_sge = size ? 1 : 0;
	/* Side b warns too only where it is on another device. */
	if (s == &p->a || !p->a.qp || rs_live_dev(sr->run, s->qp->l) !=
			  rs_live_dev(sr->run, p->a.qp->l))
		rs_wr_check_msg_sz(sr, s->qp, size, "size");
	s->wr.send_flags = IBV_SEND_SIGNALED;
	rsge = s->sge;
	rsge.addr = s->mr->addr;
	rs_recv_window_init(sr, &s->rw, s->qp, lane + 1, &rsge, size ? 1 : 0);
	if (inl && rs_wr_inline(sr, s->qp, size, host, &s->sge,
				&s->wr.send_flags))
		return -EIO;
	if (p->write) {
		if (!host || !size)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "size",
					    "op: write polls the last byte of "
					    "host memory: needs size >= 1 and "
					    "mr '%s' in host memory", local);
		rs_step_remote(sr, peer_local, 0, &raddr, &rkey, &rhost,
			       &ravail);
		if (ravail < size)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "size",
					    "%u bytes do not fit in mr '%s'",
					    size, peer_local);
		s->wr.opcode = IBV_WR_RDMA_WRITE;
		s->wr.wr.rdma.remote_addr = raddr;
		s->wr.wr.rdma.rkey = rkey;
		s->last = host + size - 1;
		/* Not a value either side waits for. */
		*s->last = 0;
	} else {
		s->wr.opcode = IBV_WR_SEND;
	}
	s->sl->op = rs_wr_op_name(s->wr.opcode);
	s->ex = rs_qp_use_ex(s->qp, s->wr.opcode);
	return 0;
}

/* Write to each page of @buf, so that it faults in now and not later. */
static void touch_pages(void *buf, size_t len)
{
	volatile uint8_t *b = buf;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t i = 0; i < len; i += page)
		b[i] = 0;
}

/* Across nodes: this node's side alone, on the step's loop; the
 * barrier before the step started both nodes together, and a send
 * that finds no receive yet is retried (rnr_retry). */
static int pp_start_one(struct rs_step_run *sr, struct pp_rt *p,
			const struct rs_step_pingpong *s, uint32_t size)
{
	struct pp_side *me = p->a_here ? &p->a : &p->b;
	int r;

	p->warmup = s->warmup;
	p->total = (s->iterations ? s->iterations : 1) + s->warmup;
	if (p->a_here) {
		size_t n_samples = p->total - p->warmup + 1;

		p->samples = rs_calloc(n_samples, sizeof(*p->samples));
		if (p->samples)
			touch_pages(p->samples,
				    n_samples * sizeof(*p->samples));
	}
	if ((p->a_here && !p->samples) ||
	    !rs_step_owner(sr, 4, IBV_WC_SUCCESS))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	r = p->a_here ?
	    pp_side_init(sr, p, me, s->qp, s->local, s->peer_local, size,
			 s->inline_data, 0) :
	    pp_side_init(sr, p, me, s->peer, s->peer_local, s->local, size,
			 s->inline_data, 2);
	if (!r)
		r = rs_step_watch(sr, me->qp->send_cq, s->completion);
	if (!r && !p->write)
		r = rs_step_watch(sr, me->qp->recv_cq, s->completion);
	if (r)
		return r;
	sr->spin = p->write;
	sr->unit = "round trips";
	sr->total = p->total;
	/* a posts its first ping at once: b is at the step too. */
	atomic_store(&p->b_ready, true);
	if (!p->write) {
		p->rx = rs_recv_room(me->qp);
		if (!p->rx)
			return rs_step_fail(sr, RS_STEP_CANTRUN, p->a_here ?
					    "qp" : "peer", "op: send needs a "
					    "receive queue (max_recv_wr > 0)");
		if (rs_recv_refill(sr, &me->rw, p->total, p->rx))
			return -EIO;
	}
	return 0;
}

static int pingpong_start(struct rs_step_run *sr)
{
	const struct rs_step_pingpong *s = sr->obj->data;
	struct pp_rt *p = sr->rt;
	struct rs_mr_rt *la = rs_step_mr(sr, s->local);
	struct rs_mr_rt *lb = rs_step_mr(sr, s->peer_local);
	uint32_t size = s->size;
	struct rs_step_run *k;
	size_t n_samples;
	int r;

	p->write = s->op == RS_PINGPONG_WRITE;
	p->completion = s->completion;
	if (p->write && rs_obj_has(sr->obj, "completion") &&
	    s->completion == RS_COMP_EVENTS)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "completion",
				    "op: write sees the peer's data by polling "
				    "memory; events are for op: send");
	p->a_here = rs_run_here(sr->run, rs_live_find(sr->run, s->qp)->obj);
	p->b_here = rs_run_here(sr->run, rs_live_find(sr->run, s->peer)->obj);
	/* Absent: the whole of the smaller buffer (of the one here, when
	 * the other is on another node). */
	if (!rs_obj_has(sr->obj, "size"))
		size = !p->b_here ? la->length : !p->a_here ? lb->length :
		       la->length < lb->length ? la->length : lb->length;
	if (!p->a_here || !p->b_here)
		return pp_start_one(sr, p, s, size);
	p->warmup = s->warmup;
	p->total = (s->iterations ? s->iterations : 1) + s->warmup;
	n_samples = p->total - p->warmup + 1;
	p->samples = rs_calloc(n_samples, sizeof(*p->samples));
	p->peer = k = rs_calloc(1, sizeof(*k));
	if (!p->samples || !k || !rs_step_owner(sr, 4, IBV_WC_SUCCESS))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	/* calloc's pages are mapped at first write: that would be a page
	 * fault in every 512th round trip measured, each a sample in the
	 * tail.  perftest memsets its timestamps before it starts too. */
	touch_pages(p->samples, n_samples * sizeof(*p->samples));
	r = pp_side_init(sr, p, &p->a, s->qp, s->local, s->peer_local, size,
			 s->inline_data, 0);
	if (!r)
		r = pp_side_init(sr, p, &p->b, s->peer, s->peer_local,
				 s->local, size, s->inline_data, 2);
	if (!r)
		r = rs_step_watch(sr, p->a.qp->send_cq, s->completion);
	if (!r && !p->write)
		r = rs_step_watch(sr, p->a.qp->recv_cq, s->completion);
	if (r)
		return r;
	sr->spin = p->write;
	sr->unit = "round trips";
	sr->total = p->total;
	if (!p->write) {
		uint32_t ra = rs_recv_room(p->a.qp), rb = rs_recv_room(p->b.qp);

		/* Like ibv_rc_pingpong's rx_depth: keep them posted. */
		p->rx = ra < rb ? ra : rb;
		if (!p->rx)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "peer",
					    "op: send needs receive queues "
					    "(max_recv_wr > 0)");
		if (rs_recv_refill(sr, &p->a.rw, p->total, p->rx) ||
		    rs_recv_refill(sr, &p->b.rw, p->total, p->rx))
			return -EIO;
	}
	/* b's side: this step's name and WRs, its own loop and thread. */
	rs_step_init(k, sr->st, sr->obj, sr);
	k->ops = &pp_answer_ops;
	k->rt = p;
	/* b's lanes wake b's loop. */
	k->serves = sr->owner;
	atomic_store(&sr->owner->lanes[2].sr, k);
	atomic_store(&sr->owner->lanes[3].sr, k);
	k->deadline_ms = sr->deadline_ms + 1000;
	if (rs_step_threads_begin(sr))
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	r = pthread_create(&p->thread, NULL, rs_step_thread, k);
	if (r) {
		atomic_fetch_sub(&sr->st->threads, 1);
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "pthread_create: %s", strerror(r));
	}
	p->started = true;
	return 0;
}

static void pingpong_release(struct rs_step_run *sr)
{
	struct pp_rt *p = sr->rt;

	pp_stop(sr);
	if (p->peer) {
		p->peer->rt = NULL;    /* ours, not its */
		rs_step_release(p->peer);
	}
	rs_free(p->peer);
	rs_free(p->samples);
}

const struct rdmascn_step_ops rs_step_ops_pingpong = {
	.rt_size = sizeof(struct pp_rt),
	.start = pingpong_start,
	.progress = pp_progress,
	.stop = pp_stop,
	.release = pingpong_release,
};
