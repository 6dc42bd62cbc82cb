// SPDX-License-Identifier: MIT
/*
 * Asynchronous events come through the step loops: each top-level step
 * watches the async_fd of every context (O_NONBLOCK, in a uv_poll), gets
 * and acks every event, and fails on one that means something broke (QP
 * fatal, port down, CQ overrun, device fatal), naming it and what it hit.
 * A step that expects a completion error may see its QPs' error events:
 * those are reported, not failed on.  `async_events: true` on a context
 * prints every event, expected or not.
 *
 * The same set-up watches the event channel of every rdma_cm connection
 * (cm_events.c reads it): one uv_poll per descriptor, all closed with the
 * step's other handles when it finishes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#include "alloc.h"
#include "live.h"
#include "rendezvous.h"
#include "run.h"
#include "step.h"
#include "value.h"

static bool event_is_failure(enum ibv_event_type t)
{
	switch (t) {
	case IBV_EVENT_CQ_ERR:
	case IBV_EVENT_QP_FATAL:
	case IBV_EVENT_QP_REQ_ERR:
	case IBV_EVENT_QP_ACCESS_ERR:
	case IBV_EVENT_PATH_MIG_ERR:
	case IBV_EVENT_DEVICE_FATAL:
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_SRQ_ERR:
	case IBV_EVENT_WQ_FATAL:
		return true;
	default:
		return false;
	}
}

static bool event_on_qp(enum ibv_event_type t)
{
	return t == IBV_EVENT_QP_FATAL || t == IBV_EVENT_QP_REQ_ERR ||
	       t == IBV_EVENT_QP_ACCESS_ERR || t == IBV_EVENT_COMM_EST ||
	       t == IBV_EVENT_SQ_DRAINED || t == IBV_EVENT_PATH_MIG ||
	       t == IBV_EVENT_PATH_MIG_ERR ||
	       t == IBV_EVENT_QP_LAST_WQE_REACHED;
}

/* "qp 'a' (qpn 0x11)", "port 1", "cq", "srq", "the device". */
static void event_what(struct rs_step_run *sr, const struct ibv_async_event *e,
		       char *buf, size_t len)
{
	const struct rs_qpi *q;

	if (event_on_qp(e->event_type)) {
		q = rs_qp_by_num(sr->st, e->element.qp->qp_num);
		snprintf(buf, len, "%s (qpn 0x%x)", q ? q->l->obj->name : "qp",
			 e->element.qp->qp_num);
	} else if (e->event_type == IBV_EVENT_PORT_ERR ||
		   e->event_type == IBV_EVENT_PORT_ACTIVE ||
		   e->event_type == IBV_EVENT_LID_CHANGE ||
		   e->event_type == IBV_EVENT_PKEY_CHANGE ||
		   e->event_type == IBV_EVENT_GID_CHANGE ||
		   e->event_type == IBV_EVENT_SM_CHANGE ||
		   e->event_type == IBV_EVENT_CLIENT_REREGISTER) {
		snprintf(buf, len, "port %d", e->element.port_num);
	} else if (e->event_type == IBV_EVENT_CQ_ERR) {
		snprintf(buf, len, "a cq");
	} else if (e->event_type == IBV_EVENT_SRQ_ERR ||
		   e->event_type == IBV_EVENT_SRQ_LIMIT_REACHED) {
		snprintf(buf, len, "an srq");
	} else {
		snprintf(buf, len, "the device");
	}
}

/* Does @sr, or a step it runs, expect a completion error?  Its QPs'
 * error events are then reported, not failed on. */
static bool expects_error(struct rs_step_run *sr)
{
	struct rs_step_run **kids;
	unsigned n;

	if (sr->owner && sr->owner->expect != IBV_WC_SUCCESS)
		return true;
	n = rs_step_children(sr, &kids);
	for (unsigned i = 0; i < n; i++)
		if (kids[i] && expects_error(kids[i]))
			return true;
	return false;
}

/* The link step, @sr or one it runs, now changing a port's state, or
 * NULL.  While it runs, every port event is its doing: the port it
 * changes, and the far end of its wire (a veth's peer loses its
 * carrier too). */
static struct rs_step_run *link_step(struct rs_step_run *sr)
{
	struct rs_step_run **kids, *k;
	unsigned n;

	if (sr->port_ctx)
		return sr;
	n = rs_step_children(sr, &kids);
	for (unsigned i = 0; i < n; i++)
		if (kids[i] && (k = link_step(kids[i])))
			return k;
	return NULL;
}

/* @l's port event of @t came: when @k (a link step) waited for it and
 * it was the last, tell @k; wake it when it runs on a loop of its own. */
static void port_event_came(struct rs_step_run *sr, struct rs_step_run *k,
			    struct rs_live *l, enum ibv_event_type t)
{
	struct rs_dev *dev = rs_as_dev(l);
	struct rs_step_run *want = k;

	if (k->port_want != (int)t || !dev ||
	    !atomic_compare_exchange_strong(&dev->port_waiter, &want, NULL))
		return;
	if (l == k->port_ctx)
		k->port_seen_ms = rs_now_ms();
	if (atomic_fetch_sub(&k->port_left, 1) != 1)
		return;
	atomic_store(&k->port_seen, true);
	if (k == sr) {
		rs_step_advance(sr);
		return;
	}
	pthread_mutex_lock(&sr->st->lock);
	if (k->wakeable && !k->closing)
		uv_async_send(&k->wake);
	pthread_mutex_unlock(&sr->st->lock);
}

void rs_async_events(struct rs_step_run *sr, struct rs_live *l,
		     struct ibv_context *ctx, bool all)
{
	struct ibv_async_event e;

	while (!ibv_get_async_event(ctx, &e)) {
		enum ibv_event_type t = e.event_type;
		struct rs_step_run *link = (t == IBV_EVENT_PORT_ERR ||
					    t == IBV_EVENT_PORT_ACTIVE) ?
					   link_step(sr) : NULL;
		bool tolerated = (event_on_qp(t) && expects_error(sr)) ||
				 link;
		char what[128];

		event_what(sr, &e, what, sizeof(what));
		ibv_ack_async_event(&e);
		if (event_is_failure(t) && !tolerated && !sr->finished) {
			rs_step_fail(sr, RS_STEP_FAILED, NULL, "asynchronous "
				     "event %s on %s of context '%s'",
				     ibv_event_type_str(t), what,
				     l->obj->id);
		} else if (all || event_is_failure(t) || link) {
			struct rs_val *ev = rs_val_obj();

			rs_val_put_str(ev, "event", ibv_event_type_str(t));
			rs_val_put_str(ev, "on", what);
			rs_val_put_str(ev, "context", l->obj->id);
			/* Which step's loop read it: a replay puts it where
			 * the run printed it, before that step's line. */
			rs_val_put_str(ev, "step", sr->no);
			/* A link step's doing, or what a step expecting
			 * errors brought on itself. */
			if (link)
				rs_val_put_bool(ev, "provoked", true);
			else if (tolerated)
				rs_val_put_bool(ev, "tolerated", true);
			rs_record_add(sr->run->rec, RS_REC_EVENT,
				      sr->run->rec->events, ev);
		}
		if (link)
			port_event_came(sr, link, l, t);
	}
}

static void on_readable(uv_poll_t *p, int status, int events)
{
	struct rs_async_watch *w = p->data;

	(void)status;
	(void)events;
	rs_on_readable(w->sr, w->l);
}

/* What a top-level step watches of @l: its descriptor (-1: nothing),
 * and what to call it in messages. */
static int watched(struct rs_live *l, const char **what)
{
	if (l->state != RS_LIVE_CREATED)
		return -1;
	return rs_watch_fd(l, what);
}

/* The objects with a descriptor to watch, once per run: they are all
 * created before the first step, and stay until the last. */
static int find_watched(struct rs_steps *st, struct rs_run *run)
{
	const char *what;
	unsigned n = 0;

	if (st->watch_known)
		return 0;
	for (unsigned i = 0; i < run->s->n_objects; i++)
		n += watched(&run->live[i], &what) >= 0;
	st->watch_objs = rs_calloc(n + 1, sizeof(*st->watch_objs));
	if (!st->watch_objs)
		return -ENOMEM;
	for (unsigned i = 0; i < run->s->n_objects; i++)
		if (watched(&run->live[i], &what) >= 0)
			st->watch_objs[st->n_watch_objs++] = i;
	st->watch_known = true;
	return 0;
}

/* Another node failed or was lost: this step ends too, naming it. */
static void on_nodes(uv_poll_t *h, int status, int events)
{
	struct rs_step_run *sr = h->data;
	char err[1024] = "";
	int r;

	(void)events;
	r = status < 0 ? status : rs_rdv_poll(sr->run->rdv, err, sizeof(err));
	if (!r)
		return;
	uv_poll_stop(h);
	rs_step_fail(sr, RS_STEP_FAILED, NULL, "nodes: %s",
		     err[0] ? err : uv_strerror(r));
}

static int watch_nodes(struct rs_step_run *sr)
{
	int r = uv_poll_init(&sr->loop, &sr->rdv_poll,
			     rs_rdv_fd(sr->run->rdv));

	sr->rdv_poll.data = sr;
	if (!r)
		r = uv_poll_start(&sr->rdv_poll, UV_READABLE, on_nodes);
	if (r)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "uv_poll on "
				    "the other nodes: %s", uv_strerror(r));
	sr->rdv_watched = true;
	return 0;
}

int rs_step_async_start(struct rs_step_run *sr)
{
	struct rs_run *run = sr->run;
	struct rs_steps *st = sr->st;
	const char *what;

	/* The top-level step watches for its nested ones. */
	if (sr->parent)
		return 0;
	if (run->rdv && watch_nodes(sr) < 0)
		return -EIO;
	if (find_watched(st, run) < 0)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "out of memory");
	if (!st->n_watch_objs)
		return 0;
	sr->async = rs_calloc(st->n_watch_objs, sizeof(*sr->async));
	if (!sr->async)
		return rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "out of memory");
	for (unsigned k = 0; k < st->n_watch_objs; k++) {
		struct rs_live *l = &run->live[st->watch_objs[k]];
		struct rs_async_watch *w = &sr->async[sr->n_async];
		int fd = watched(l, &what), fl, r;

		if (fd < 0)
			continue;
		/* Each callback reads until EAGAIN: the loop must not
		 * block in it. */
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK))
			return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
					    "%s of %s: %m", what,
					    l->obj->name);
		w->sr = sr;
		w->l = l;
		w->poll.data = w;
		r = uv_poll_init(&sr->loop, &w->poll, fd);
		if (!r)
			r = uv_poll_start(&w->poll, UV_READABLE, on_readable);
		if (r)
			return rs_step_fail(sr, RS_STEP_CANTRUN, NULL,
					    "uv_poll on %s of %s: %s", what,
					    l->obj->name, uv_strerror(r));
		sr->n_async++;
	}
	return 0;
}
