// SPDX-License-Identifier: MIT
/*
 * An rdma_cm connection's events (connection_cm.c makes it): taken off
 * its channel and acked, waited for with a deadline, and handed to the
 * step loop while steps run.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>

#include "connection.h"

/* Waits of an rdma_cm connection when the run has no deadline of its own. */
#define CM_WAIT_MS 5000
/* Teardown: how long to wait for each DISCONNECTED. */
#define CM_DISCONNECT_MS 1000

static int cm_event_errno(enum rdma_cm_event_type t)
{
	switch (t) {
	case RDMA_CM_EVENT_REJECTED:
		return ECONNREFUSED;
	case RDMA_CM_EVENT_UNREACHABLE:
		return EHOSTUNREACH;
	case RDMA_CM_EVENT_ADDR_ERROR:
		return EADDRNOTAVAIL;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return ENETUNREACH;
	case RDMA_CM_EVENT_CONNECT_ERROR:
		return ECONNABORTED;
	default:
		return EPROTO;
	}
}

int rs_cm_take(struct rs_live *l, struct rs_cm_event *e,
	       const struct rdma_cm_id *accept_on)
{
	struct rs_connection_rt *rt = l->rt;
	struct rdma_cm_event *ev;

	if (rdma_get_cm_event(rt->channel, &ev))
		return -errno;
	e->type = ev->event;
	e->status = ev->status;
	e->id = ev->id;
	e->listen_id = ev->listen_id;
	rdma_ack_cm_event(ev);
	if (e->type == RDMA_CM_EVENT_CONNECT_REQUEST)
		e->on = e->listen_id && e->listen_id == rt->listen_id ?
			RS_CM_ON_LISTEN : RS_CM_ON_OTHER;
	else if (e->id && e->id == rt->a_id)
		e->on = RS_CM_ON_A;
	else if (e->id && e->id == rt->b_id)
		e->on = RS_CM_ON_B;
	else if (e->id && e->id == rt->listen_id)
		e->on = RS_CM_ON_LISTEN;
	else
		e->on = RS_CM_ON_OTHER;
	rt->seen[e->on] |= CM_BIT(e->type);
	if (e->type == RDMA_CM_EVENT_CONNECT_REQUEST &&
	    (!accept_on || e->listen_id != accept_on)) {
		/* Not ours to take (a stray peer on our port): refuse it
		 * so that its id does not outlive the run. */
		rdma_reject(e->id, NULL, 0);
		rdma_destroy_id(e->id);
		e->id = NULL;
	}
	return 0;
}

void rs_conn_cm_readable(struct rs_step_run *sr, struct rs_live *l)
{
	struct rs_cm_event e;
	int r;

	while (!(r = rs_cm_take(l, &e, NULL)))
		rs_cm_event(sr, l, &e);
	rs_cm_event_error(sr, l, r);
}

/* A DEVICE_REMOVAL came on one of the connection's ids: its device is
 * going, no DREQ or DREP passes any more. */
static bool cm_removed(const struct rs_connection_rt *rt)
{
	uint32_t any = 0;

	for (int i = 0; i < RS_CM_N_ON; i++)
		any |= rt->seen[i];
	return any & CM_BIT(RDMA_CM_EVENT_DEVICE_REMOVAL);
}

/* Teardown need not wait for @want on @on: it came already (a step or an
 * earlier wait took it), or it cannot come. */
static bool cm_needless(const struct rs_connection_rt *rt, enum rs_cm_on on,
			enum rdma_cm_event_type want)
{
	return rt->seen[on] & CM_BIT(want) || cm_removed(rt);
}

/*
 * Wait for event @want on @id (for CONNECT_REQUEST: on listening @id),
 * acking every event on the way.  Bounded by the run's deadline and
 * cut short by a signal; in @teardown quietly, by CM_DISCONNECT_MS and
 * without heeding signals (teardown must go on), skipping other events,
 * and not at all when the event already came (a step took it) or cannot
 * come any more (a DEVICE_REMOVAL).
 */
int rs_cm_wait(struct rs_run *run, struct rs_live *l,
	       enum rdma_cm_event_type want, struct rdma_cm_id *id,
	       enum rs_cm_on on, const char *id_name,
	       struct rdma_cm_id **ret_id, bool teardown)
{
	struct rs_connection_rt *rt = l->rt;
	uint64_t ms = teardown ? CM_DISCONNECT_MS :
		      run->default_deadline_ms ?: CM_WAIT_MS;
	double end = rs_now_ms() + (double)ms;
	bool request = want == RDMA_CM_EVENT_CONNECT_REQUEST;

	if (run->dry_run)
		return 0;
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = rt->channel->fd, .events = POLLIN },
			{ .fd = teardown ? -1 : rs_signal_fd(),
			  .events = POLLIN },
		};
		struct rs_cm_event e;
		double left;
		int r;

		if (teardown && cm_needless(rt, on, want))
			return 0;
		if (!teardown && rs_interrupted)
			return rs_live_error(run, l, EINTR, "rdma_cm: "
					     "interrupted while waiting for %s "
					     "on %s", rdma_event_str(want),
					     id_name);
		r = rs_cm_take(l, &e, request ? id : NULL);
		if (!r) {
			bool mine = request ? e.listen_id == id : e.id == id;

			if (e.type == want && mine) {
				if (ret_id)
					*ret_id = e.id;
				return 0;
			}
			/* A stray request was refused: not an error. */
			if (teardown || e.type == RDMA_CM_EVENT_CONNECT_REQUEST)
				continue;
			return rs_live_error(run, l, cm_event_errno(e.type),
					     "rdma_cm: %s (status %d%s%s) "
					     "while waiting for %s on %s",
					     rdma_event_str(e.type), e.status,
					     e.status < 0 ? ": " : "",
					     e.status < 0 ?
					     strerror(-e.status) : "",
					     rdma_event_str(want), id_name);
		}
		if (r != -EAGAIN && r != -EINTR)
			return teardown ? r : rs_live_error(run, l, -r,
				"rdma_get_cm_event: %s", strerror(-r));
		left = end - rs_now_ms();
		if (left <= 0)
			return teardown ? -ETIMEDOUT :
			       rs_live_error(run, l, ETIMEDOUT, "rdma_cm: no "
					     "%s on %s within %llu ms",
					     rdma_event_str(want), id_name,
					     (unsigned long long)ms);
		/* What the reporters hold goes out before we block. */
		rs_record_before_wait(run->rec);
		poll(p, 2, (int)left + 1);
	}
}

