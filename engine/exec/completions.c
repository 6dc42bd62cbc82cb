// SPDX-License-Identifier: MIT
/*
 * Completions: which CQs a step waits on and how (a uv_idle spin, or the
 * CQ's completion channel in a uv_poll), reaping them, and routing each
 * completion by its wr_id to the step that posted the WR, whoever polls.
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

/* --- the run's tables ----------------------------------------------------- */

static struct rs_live *live_of(struct rs_run *run, const char *id)
{
	return rs_live_find(run, id);
}

static void *by_id(struct rs_steps *st, const char *id)
{
	struct rs_live *l = live_of(st->run, id);

	return l ? st->by_obj[l->obj->index] : NULL;
}

static void qpn_insert(struct rs_steps *st, struct rs_qpi *q)
{
	unsigned i = (q->qpn * 2654435761u) & st->qpn_mask;

	while (st->by_qpn[i])
		i = (i + 1) & st->qpn_mask;
	st->by_qpn[i] = q;
}

struct rs_qpi *rs_qp_by_num(struct rs_steps *st, uint32_t qpn)
{
	unsigned i = (qpn * 2654435761u) & st->qpn_mask;

	for (; st->by_qpn[i]; i = (i + 1) & st->qpn_mask)
		if (st->by_qpn[i]->qpn == qpn)
			return st->by_qpn[i];
	return NULL;
}

static int setup_names(struct rs_steps *st)
{
	struct rs_scenario *s = st->run->s;

	st->id_width = 16;
	for (unsigned i = s->n_objects; i < s->n_objs; i++)
		if (s->objs[i].id &&
		    (int)strlen(s->objs[i].id) + 2 > st->id_width)
			st->id_width = strlen(s->objs[i].id) + 2;
	/* The numbers are the loader's (obj->no). */
	for (unsigned i = s->n_objects; i < s->n_objs; i++) {
		const struct rs_obj *o = &s->objs[i];
		char label[RDMASCN_ID_MAX + RS_STEP_NO_MAX + 64];

		if (o->id)
			snprintf(label, sizeof(label), "step %s (%s) '%s'",
				 o->no, o->kind->name, o->id);
		else
			snprintf(label, sizeof(label), "step %s (%s)", o->no,
				 o->kind->name);
		st->labels[i] = rs_strdup(label);
		if (!st->labels[i])
			return -ENOMEM;
	}
	return 0;
}

int rs_steps_setup(struct rs_steps *st, struct rs_run *run)
{
	struct rs_scenario *s = run->s;
	unsigned nq = 0, nc = 0, nm = 0, size;

	memset(st, 0, sizeof(*st));
	st->run = run;
	st->n_objs = s->n_objs;
	pthread_mutex_init(&st->lock, NULL);
	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rs_live *l = &run->live[i];
		struct rdmascn_qp qf;
		struct rdmascn_cq cf;

		nq += !rs_as_qp(run, l, &qf);
		nc += !rs_as_cq(l, &cf);
		nm += rs_as_mw(l) != NULL;
	}
	for (size = 16; size < 2 * nq; size *= 2)
		;
	st->qpn_mask = size - 1;
	st->by_obj = rs_calloc(s->n_objs + 1, sizeof(*st->by_obj));
	st->owners = rs_calloc(s->n_objs + 1, sizeof(*st->owners));
	st->labels = rs_calloc(s->n_objs + 1, sizeof(*st->labels));
	st->qps = rs_calloc(nq + 1, sizeof(*st->qps));
	st->cqs = rs_calloc(nc + 1, sizeof(*st->cqs));
	st->mws = rs_calloc(nm + 1, sizeof(*st->mws));
	st->by_qpn = rs_calloc(size, sizeof(*st->by_qpn));
	if (!st->by_obj || !st->owners || !st->labels ||
	    !st->qps || !st->cqs || !st->mws || !st->by_qpn)
		return -ENOMEM;

	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rs_live *l = &run->live[i];
		struct rdmascn_cq cf;

		if (!rs_as_cq(l, &cf)) {
			struct rs_cqi *c = &st->cqs[st->n_cqs++];

			c->l = l;
			c->rt = cf.rt;
			c->events = cf.events;
			st->by_obj[i] = c;
		} else if (rs_as_mw(l)) {
			struct rs_mwi *m = &st->mws[st->n_mws++];

			m->l = l;
			st->by_obj[i] = m;
		}
	}
	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rs_live *l = &run->live[i];
		struct rdmascn_qp qf;
		struct rs_qpi *q;

		if (rs_as_qp(run, l, &qf))
			continue;
		q = &st->qps[st->n_qps++];
		q->l = l;
		q->info = qf;
		q->rt = qf.rt;
		q->qpn = q->rt->qp ? q->rt->qp->qp_num : 0;
		q->send_cq = by_id(st, qf.send_cq);
		q->recv_cq = by_id(st, qf.recv_cq);
		q->srq = live_of(run, qf.srq);
		st->by_obj[i] = q;
		if (q->rt->qp)
			qpn_insert(st, q);
	}
	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rdmascn_link c;
		struct rs_qpi *a, *b;

		if (rs_as_link(&run->live[i], &c))
			continue;
		a = by_id(st, c.a);
		b = by_id(st, c.b);
		if (!a || !b)
			continue;
		a->peer = b;
		b->peer = a;
		a->link = b->link = c;
		a->conn = &a->link;
		b->conn = &b->link;
	}
	return setup_names(st);
}

void rs_steps_free(struct rs_steps *st)
{
	for (unsigned i = 0; i < st->n_objs; i++) {
		if (st->owners)
			rs_free(st->owners[i]);
		if (st->labels)
			rs_free(st->labels[i]);
	}
	rs_free(st->owners);
	rs_free(st->labels);
	rs_free(st->by_obj);
	rs_free(st->by_qpn);
	rs_free(st->qps);
	rs_free(st->cqs);
	rs_free(st->mws);
	pthread_mutex_destroy(&st->lock);
}

struct rs_qpi *rs_step_qp(struct rs_step_run *sr, const char *id)
{
	return by_id(sr->st, id);
}

struct rs_cqi *rs_step_cq(struct rs_step_run *sr, const char *id)
{
	return by_id(sr->st, id);
}

struct rs_mwi *rs_step_mw(struct rs_step_run *sr, const char *id)
{
	return by_id(sr->st, id);
}

struct rs_owner *rs_step_owner(struct rs_step_run *sr, unsigned n_lanes,
			       int expect)
{
	struct rs_owner *o;

	if (n_lanes > RS_MAX_LANES)
		return NULL;
	o = rs_calloc_aligned(RS_CACHELINE,
			      sizeof(*o) + n_lanes * sizeof(o->lanes[0]));
	if (!o)
		return NULL;
	o->obj = sr->obj;
	o->label = sr->label;
	o->expect = expect;
	o->n_lanes = n_lanes;
	for (unsigned i = 0; i < n_lanes; i++) {
		o->lanes[i].op = "send";
		atomic_init(&o->lanes[i].sr, sr);
	}
	/* A step runs once; a record left from before would be a bug. */
	rs_free(sr->st->owners[sr->obj->index]);
	sr->st->owners[sr->obj->index] = o;
	sr->owner = o;
	sr->serves = o;
	return o;
}

/* --- status names --------------------------------------------------------- */

const char *rs_wc_status_name(int status)
{
	for (size_t i = 0; i < CYAML_ARRAY_LEN(rs_wc_status_names); i++)
		if (rs_wc_status_names[i].val == status)
			return rs_wc_status_names[i].str;
	return "unknown";
}

/* --- routing -------------------------------------------------------------- */

/* Does @status meet the owner's `expect:`?  With an error expected, the
 * WRs that succeed before it are fine (the step fails at its end if the
 * error never came), and the queue's WRs flushed after it are its
 * consequence, not a failure. */
static bool expected(struct rs_owner *o, int status)
{
	if (status == o->expect) {
		if (status != IBV_WC_SUCCESS)
			atomic_store_explicit(&o->saw_expect, true,
					      memory_order_release);
		return true;
	}
	if (o->expect == IBV_WC_SUCCESS)
		return false;
	if (status == IBV_WC_SUCCESS)
		return true;
	return status == IBV_WC_WR_FLUSH_ERR &&
	       atomic_load_explicit(&o->saw_expect, memory_order_acquire);
}

/* Wake the step in @who, if it is another thread's and still open.
 * @who is reloaded under st->lock, where a finishing step clears it. */
static void wake_other(struct rs_step_run *sr,
		       _Atomic(struct rs_step_run *) *who)
{
	struct rs_step_run *to;

	pthread_mutex_lock(&sr->st->lock);
	to = atomic_load(who);
	if (to && to != sr && to->wakeable && !to->closing)
		uv_async_send(&to->wake);
	pthread_mutex_unlock(&sr->st->lock);
}

static void wake_lane(struct rs_step_run *sr, struct rs_owner *o,
		      struct rs_lane *ln, bool bad)
{
	struct rs_step_run *to = atomic_load_explicit(&ln->sr,
						      memory_order_acquire);

	if (to == sr || (to && atomic_load_explicit(&ln->spins,
						    memory_order_relaxed)))
		return;
	if (!to) {
		/* It finished (a recv step): whoever reaped it answers. */
		if (bad && !sr->late_bad)
			sr->late_bad = o;
		return;
	}
	/* Waiting on another thread's loop. */
	wake_other(sr, &ln->sr);
}

/* A receive of @q came: the step counting them (a send step waiting for
 * its peer's receives, which a finished recv step posted) learns it
 * from its own wake-ups, unless another thread reaped it: wake it then.
 * With several steps on one CQ, that thread may have taken the only
 * event. */
static void wake_recv_waiter(struct rs_step_run *sr, struct rs_qpi *q)
{
	struct rs_step_run *to = atomic_load_explicit(&q->recv_waiter,
						      memory_order_acquire);

	if (to && to != sr)
		wake_other(sr, &q->recv_waiter);
}

/* A completion no step posted: nothing owns it, so the reaper fails. */
static void stray(struct rs_step_run *sr, struct rs_cqi *c,
		  const struct ibv_wc *wc)
{
	rs_step_fail(sr, RS_STEP_FAILED, NULL,
		     "cq '%s' returned a completion no step posted: wr_id "
		     "0x%llx, qp_num 0x%x, status %s", c->l->obj->id,
		     (unsigned long long)wc->wr_id, wc->qp_num,
		     rs_wc_status_name(wc->status));
}

void rs_step_route(struct rs_step_run *sr, struct rs_cqi *c,
		   const struct ibv_wc *wc)
{
	struct rs_steps *st = sr->st;
	uint32_t slot = wc->wr_id >> RS_WR_SLOT_SHIFT;
	unsigned li = (wc->wr_id >> RS_WR_LANE_SHIFT) & 0xff;
	struct rs_owner *o = slot < st->n_objs ? st->owners[slot] : NULL;
	struct rs_lane *ln;
	uint64_t n, ok;
	bool bad;

	if (!o || li >= o->n_lanes) {
		stray(sr, c, wc);
		return;
	}
	ln = &o->lanes[li];
	if (ln->per_wr) {
		struct rs_qpi *q = rs_qp_by_num(st, wc->qp_num);

		n = 1;
		if (q) {
			atomic_store_explicit(&q->last_recv_slot, slot,
					      memory_order_relaxed);
			atomic_store_explicit(&q->last_recv_len, wc->byte_len,
					      memory_order_relaxed);
			atomic_fetch_add_explicit(&q->recv_done, 1,
						  memory_order_release);
			wake_recv_waiter(sr, q);
		}
	} else {
		uint32_t seq = (uint32_t)wc->wr_id;

		/* Signalled every Nth: this one completes those before. */
		n = (uint32_t)(seq + 1 - ln->next);
		ln->next = seq + 1;
	}
	ok = wc->status == IBV_WC_SUCCESS ? n : n - 1;
	bad = !expected(o, wc->status);
	if (wc->status != IBV_WC_SUCCESS)
		atomic_store_explicit(&ln->errored, true, memory_order_relaxed);
	if (bad && !atomic_exchange(&o->claimed, 1)) {
		o->bad_wc = *wc;
		o->bad_lane = li;
		atomic_store_explicit(&o->bad, true, memory_order_release);
	}
	if (ok)
		atomic_fetch_add_explicit(&ln->ok, ok, memory_order_relaxed);
	atomic_fetch_add_explicit(&ln->done, n, memory_order_release);
	wake_lane(sr, o, ln, bad);
}

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

static unsigned reap_cq(struct rs_step_run *sr, struct rs_cqi *c)
{
	struct ibv_wc wc[RS_POLL_BATCH];
	bool locked = cq_lock(sr, c);
	unsigned total = 0;
	int n;

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

void rs_step_fail_wc(struct rs_step_run *sr, struct rs_owner *o)
{
	const struct ibv_wc *wc = &o->bad_wc;
	const struct rs_lane *ln = &o->lanes[o->bad_lane];
	char msg[640], opc[48] = "", seq[24] = "", text[64] = "";
	const struct rs_loc *loc = rs_obj_loc(o->obj, NULL);

	/* The opcode is only defined on success: else say what was posted. */
	if (wc->status == IBV_WC_SUCCESS)
		snprintf(opc, sizeof(opc), ", opcode %d", wc->opcode);
	else
		snprintf(text, sizeof(text), " (%s)",
			 ibv_wc_status_str(wc->status));
	/* Receives have no order to number them by. */
	if (!ln->per_wr)
		snprintf(seq, sizeof(seq), " (#%u)",
			 (unsigned)(uint32_t)wc->wr_id);
	snprintf(msg, sizeof(msg),
		 "%s wr 0x%llx%s completed with %s%s, vendor_err 0x%x%s, "
		 "qp_num 0x%x; expected %s", ln->op,
		 (unsigned long long)wc->wr_id, seq,
		 rs_wc_status_name(wc->status), text, wc->vendor_err, opc,
		 wc->qp_num,
		 rs_wc_status_name(o->expect));
	if (sr->finished)
		return;
	pthread_mutex_lock(&sr->st->lock);
	if (o == sr->owner)
		rs_diag_error(&sr->run->diag, loc, "%s: %s", o->label, msg);
	else
		rs_diag_error(&sr->run->diag, loc, "%s: %s (reaped by %s)",
			      o->label, msg, sr->label);
	pthread_mutex_unlock(&sr->st->lock);
	if (o == sr->owner)
		snprintf(sr->why, sizeof(sr->why), "%s", msg);
	else
		snprintf(sr->why, sizeof(sr->why), "%s: %s", o->label, msg);
	if (sr->ops->stop)
		sr->ops->stop(sr);
	rs_step_finish(sr, RS_STEP_FAILED);
}

void rs_step_advance(struct rs_step_run *sr)
{
	if (sr->finished)
		return;
	if (sr->owner && atomic_load_explicit(&sr->owner->bad,
					      memory_order_acquire)) {
		rs_step_fail_wc(sr, sr->owner);
		return;
	}
	if (sr->late_bad) {
		rs_step_fail_wc(sr, sr->late_bad);
		return;
	}
	if (sr->ops->progress)
		sr->ops->progress(sr);
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
