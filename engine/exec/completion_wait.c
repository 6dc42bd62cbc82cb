// SPDX-License-Identifier: MIT
/*
 * Waiting for completions: which CQs a step waits on and how (a uv_idle
 * spin, or the CQ's completion channel in a uv_poll), and reaping them,
 * under a CQ's own lock while other threads run steps.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "alloc.h"
#include "step.h"

/* Ack events in batches: ibv_ack_cq_events() takes a mutex. */
#define RS_ACK_BATCH 64
/* Completions per ibv_poll_cq() call. */
#define RS_POLL_BATCH 32
/* A busy spin returns to the loop (timers, signals) this often. */
#define RS_SPIN_NS 1000000ull

static inline bool mt(struct rs_step_run *sr)
{
	return atomic_load_explicit(&sr->st->threads, memory_order_relaxed);
}

/* A CQ's lock, taken only while other threads run steps.  A busy step
 * takes it twice per spin, so it is a test-and-set: a pthread mutex's
 * call and bookkeeping made the spin, and with it the time to see a
 * completion, measurably longer.  Held briefly (a poll and its routing,
 * or a non-blocking channel read or re-arm); a waiter yields. */
static bool cq_lock(struct rs_step_run *sr, struct rs_cqi *c)
{
	if (!mt(sr))
		return false;
	while (atomic_exchange_explicit(&c->held, true, memory_order_acquire))
		while (atomic_load_explicit(&c->held, memory_order_relaxed))
			sched_yield();
	return true;
}

static void cq_unlock(struct rs_cqi *c, bool locked)
{
	if (locked)
		atomic_store_explicit(&c->held, false, memory_order_release);
}

/* One completion of an extended CQ, as struct ibv_wc and the rest:
 * each field its wc_flags asked for, read with ibv_wc_read_*(). */
static void read_ex(struct ibv_cq_ex *cq, uint64_t flags, struct ibv_wc *wc,
		    struct rs_wc_ext *ext)
{
	memset(wc, 0, sizeof(*wc));
	ext->have = flags;
	wc->wr_id = cq->wr_id;
	wc->status = cq->status;
	wc->opcode = ibv_wc_read_opcode(cq);
	wc->vendor_err = ibv_wc_read_vendor_err(cq);
	wc->wc_flags = ibv_wc_read_wc_flags(cq);
	if (flags & IBV_WC_EX_WITH_BYTE_LEN)
		wc->byte_len = ibv_wc_read_byte_len(cq);
	if (flags & IBV_WC_EX_WITH_IMM && wc->wc_flags & IBV_WC_WITH_IMM)
		wc->imm_data = ibv_wc_read_imm_data(cq);
	if (flags & IBV_WC_EX_WITH_QP_NUM)
		wc->qp_num = ibv_wc_read_qp_num(cq);
	if (flags & IBV_WC_EX_WITH_SRC_QP)
		wc->src_qp = ibv_wc_read_src_qp(cq);
	if (flags & IBV_WC_EX_WITH_SLID)
		wc->slid = (uint16_t)ibv_wc_read_slid(cq);
	if (flags & IBV_WC_EX_WITH_SL)
		wc->sl = ibv_wc_read_sl(cq);
	if (flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
		wc->dlid_path_bits = ibv_wc_read_dlid_path_bits(cq);
	if (flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP)
		ext->ts = ibv_wc_read_completion_ts(cq);
	if (flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK)
		ext->ts_wall = ibv_wc_read_completion_wallclock_ns(cq);
	if (flags & IBV_WC_EX_WITH_CVLAN)
		ext->cvlan = ibv_wc_read_cvlan(cq);
	if (flags & IBV_WC_EX_WITH_FLOW_TAG)
		ext->flow_tag = ibv_wc_read_flow_tag(cq);
}

/* An extended CQ with wc_flags: ibv_start_poll(), ibv_next_poll(),
 * ibv_end_poll(); at most a batch.  How many, or -errno. */
static int poll_ex(struct rs_step_run *sr, struct rs_cqi *c)
{
	struct ibv_poll_cq_attr attr = { 0 };
	struct ibv_cq_ex *cq = c->rt->cq_ex;
	struct rs_wc_ext ext;
	struct ibv_wc wc;
	int n = 0, r;

	r = ibv_start_poll(cq, &attr);
	if (r)
		return r == ENOENT ? 0 : -r;
	for (;;) {
		read_ex(cq, c->rt->wc_flags, &wc, &ext);
		rs_step_route_ex(sr, c, &wc, &ext);
		if (++n == RS_POLL_BATCH)
			break;
		r = ibv_next_poll(cq);
		if (r)
			break;
	}
	ibv_end_poll(cq);
	return r && r != ENOENT ? -r : n;
}

static unsigned reap_cq(struct rs_step_run *sr, struct rs_cqi *c)
{
	struct ibv_wc wc[RS_POLL_BATCH];
	bool locked = cq_lock(sr, c);
	unsigned total = 0;
	int n;

	if (c->rt->cq_ex && c->rt->wc_flags) {
		do {
			n = poll_ex(sr, c);
			if (n > 0)
				total += n;
		} while (n == RS_POLL_BATCH && !sr->finished);
		cq_unlock(c, locked);
		if (n < 0)
			rs_step_fail(sr, RS_STEP_FAILED, NULL,
				     "ibv_start_poll on cq '%s': %s",
				     c->l->obj->id, strerror(-n));
		return total;
	}
	do {
		n = ibv_poll_cq(c->rt->cq, RS_POLL_BATCH, wc);
		for (int i = 0; i < n; i++)
			rs_step_route(sr, c, &wc[i]);
		if (n > 0)
			total += n;
	} while (n == RS_POLL_BATCH && !sr->finished);
	cq_unlock(c, locked);
	if (n < 0)
		rs_step_fail(sr, RS_STEP_FAILED, NULL,
			     "ibv_poll_cq on cq '%s': %s", c->l->obj->id,
			     strerror(n == -1 ? errno : -n));
	return total;
}

unsigned rs_step_reap(struct rs_step_run *sr, bool busy_only)
{
	unsigned n = 0;

	for (unsigned i = 0; i < sr->n_watch && !sr->finished; i++)
		if (!busy_only || !sr->watch[i].events)
			n += reap_cq(sr, sr->watch[i].cq);
	return n;
}

/* --- waiting -------------------------------------------------------------- */

int rs_step_watch(struct rs_step_run *sr, struct rs_cqi *cq, int completion)
{
	bool events;
	struct rs_watch *w;

	if (!cq || !cq->rt->cq)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "a CQ it needs does not exist");
	for (unsigned i = 0; i < sr->n_watch; i++)
		if (sr->watch[i].cq == cq)
			return 0;
	w = rs_reallocarray(sr->watch, sr->n_watch + 1, sizeof(*w));
	if (!w)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
				    "out of memory");
	sr->watch = w;
	/* The step's `completion:` wins; else the CQ's `mode:`, whose
	 * default is events when it has a channel. */
	if (rs_obj_has(sr->obj, "completion"))
		events = completion == RS_COMP_EVENTS;
	else
		events = cq->events;
	if (events && !cq->rt->channel)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "completion",
				    "events need a completion channel, and "
				    "cq '%s' has none (give it channel: true)",
				    cq->l->obj->id);
	w = &sr->watch[sr->n_watch++];
	w->sr = sr;
	w->cq = cq;
	w->events = events;
	return 0;
}

static void on_idle(uv_idle_t *h)
{
	struct rs_step_run *sr = h->data;
	uint64_t until = uv_hrtime() + RS_SPIN_NS;

	for (unsigned i = 1;; i++) {
		rs_step_reap(sr, true);
		/* Every spin: another thread may have reaped for us. */
		rs_step_advance(sr);
		if (sr->finished)
			return;
		/* Back to the loop now and then: the deadline timer, the
		 * signal pipe and wake-ups are seen there.  The clock is
		 * read seldom: it can be a syscall (hpet in a VM). */
		if (!(i & 31) && (rs_interrupted ||
				  atomic_load_explicit(&sr->stop_req,
						       memory_order_relaxed))) {
			rs_step_check_stop(sr);
			return;
		}
		if (!(i & 255) && uv_hrtime() >= until)
			return;
	}
}

static int arm(struct rs_step_run *sr, struct rs_watch *w)
{
	int r;

	r = ibv_req_notify_cq(w->cq->rt->cq, 0);
	if (r)
		return rs_step_fail(sr, RS_STEP_FAILED, NULL,
				    "ibv_req_notify_cq on cq '%s': %s",
				    w->cq->l->obj->id, strerror(r));
	return 0;
}

/* Read one event off @c's channel (non-blocking); false at EAGAIN or an
 * error, with errno set. */
static bool take_event(struct rs_step_run *sr, struct rs_cqi *c)
{
	bool locked = cq_lock(sr, c), got;
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	int e;

	got = !ibv_get_cq_event(c->rt->channel, &ev_cq, &ev_ctx);
	e = errno;
	if (got)
		c->rt->unacked++;
	cq_unlock(c, locked);
	errno = e;
	return got;
}

static void on_cq_event(uv_poll_t *p, int status, int events)
{
	struct rs_watch *w = p->data;
	struct rs_step_run *sr = w->sr;
	struct rs_cqi *c = w->cq;
	bool locked;
	int err = 0;

	(void)events;
	if (sr->finished)
		return;
	if (status < 0) {
		rs_step_fail(sr, RS_STEP_FAILED, NULL,
			     "waiting on cq '%s''s channel: %s",
			     c->l->obj->id, uv_strerror(status));
		return;
	}
	/* The completion that woke us is what the step waits on, most
	 * likely: reap it and let the step answer before the rest of the
	 * drain and the re-arm, whose syscalls would delay the answer.
	 * Re-armed it is all the same, finished or not: the steps of a
	 * parallel step may wait on this CQ too. */
	if (take_event(sr, c)) {
		reap_cq(sr, c);
		rs_step_advance(sr);
	}
	/* Drain: the fd is non-blocking, EAGAIN ends it. */
	while (take_event(sr, c))
		;
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		err = errno;
	locked = cq_lock(sr, c);
	if (c->rt->unacked >= RS_ACK_BATCH) {
		ibv_ack_cq_events(c->rt->cq, c->rt->unacked);
		c->rt->unacked = 0;
	}
	if (!err)
		err = ibv_req_notify_cq(c->rt->cq, 0);
	cq_unlock(c, locked);
	if (err) {
		rs_step_fail(sr, RS_STEP_FAILED, NULL,
			     "completion events of cq '%s': %s",
			     c->l->obj->id, strerror(err));
		return;
	}
	/* Armed again: now poll it empty, nothing is missed. */
	reap_cq(sr, c);
	rs_step_advance(sr);
}

int rs_step_watch_start(struct rs_step_run *sr)
{
	bool busy = sr->spin;
	int r;

	for (unsigned i = 0; i < sr->n_watch; i++) {
		struct rs_watch *w = &sr->watch[i];
		bool locked;

		if (!w->events) {
			busy = true;
			continue;
		}
		locked = cq_lock(sr, w->cq);
		r = arm(sr, w);
		cq_unlock(w->cq, locked);
		if (r)
			return r;
		r = uv_poll_init(&sr->loop, &w->poll, w->cq->rt->channel->fd);
		if (!r) {
			w->poll.data = w;
			r = uv_poll_start(&w->poll, UV_READABLE, on_cq_event);
		}
		if (r)
			return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
					    "uv_poll on cq '%s''s channel: %s",
					    w->cq->l->obj->id, uv_strerror(r));
	}
	if (busy && !sr->idle_on) {
		struct rs_owner *o = sr->serves;

		for (unsigned i = 0; o && i < o->n_lanes; i++)
			if (atomic_load(&o->lanes[i].sr) == sr)
				atomic_store(&o->lanes[i].spins, true);
		uv_idle_init(&sr->loop, &sr->idle);
		sr->idle.data = sr;
		uv_idle_start(&sr->idle, on_idle);
		sr->idle_on = true;
	}
	return 0;
}
