// SPDX-License-Identifier: MIT
/*
 * rdma_cm events come through the step loops, as asynchronous events do
 * (async_events.c sets up both watches): each top-level step watches the
 * event channel of every rdma_cm connection (O_NONBLOCK since it was
 * made, in a uv_poll), takes and acks every event until EAGAIN, prints
 * each as an `event` line and fails the step on the first.  The
 * connection's on_readable op takes them (rs_conn_cm_readable() in
 * connection_cm.c: the channel and its ids are the connection's) and
 * hands each to rs_cm_event() here.  Nothing is
 * expected while steps run: a connection is made before them and torn
 * down after them, so DISCONNECTED, DEVICE_REMOVAL, ADDR_CHANGE and the
 * like all mean the connection broke under the step.
 *
 * What a step takes is noted in the connection's seen[] (rs_cm_take(),
 * which the connect and teardown waits use too), so
 * that teardown does not wait for a DISCONNECTED that already came, and
 * after a DEVICE_REMOVAL (the kernel closes the ids of a device that
 * goes) neither waits nor calls rdma_disconnect() on a closed id.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "live.h"
#include "step.h"
#include "value.h"

/* "a_id (a's side, qp 'a')" */
static void cm_what(struct rs_live *l, const struct rs_cm_event *e,
		    char *buf, size_t len)
{
	struct rdmascn_link conn = { .a = "?", .b = "?" };

	rs_as_link(l, &conn);
	switch (e->on) {
	case RS_CM_ON_A:
		snprintf(buf, len, "a_id (a's side, qp '%s')", conn.a);
		break;
	case RS_CM_ON_B:
		snprintf(buf, len, "b_id (b's side, qp '%s')", conn.b);
		break;
	case RS_CM_ON_LISTEN:
		snprintf(buf, len, "listen_id (b's side, listening)");
		break;
	default:
		snprintf(buf, len, "an id not of this connection");
		break;
	}
}

/* " (status -19: No such device)", " (status 28)", "" */
static void cm_status(int status, char *buf, size_t len)
{
	if (!status)
		buf[0] = '\0';
	else if (status < 0)
		snprintf(buf, len, " (status %d: %s)", status,
			 strerror(-status));
	else
		snprintf(buf, len, " (status %d)", status);
}

void rs_cm_event(struct rs_step_run *sr, struct rs_live *l,
		 const struct rs_cm_event *e)
{
	char what[128], st[96];
	struct rs_val *ev;

	cm_what(l, e, what, sizeof(what));
	cm_status(e->status, st, sizeof(st));
	ev = rs_val_obj();
	rs_val_put_str(ev, "event", rdma_event_str(e->type));
	rs_val_put_str(ev, "status", st);
	rs_val_put_i64(ev, "status_code", e->status);
	rs_val_put_str(ev, "on", what);
	rs_val_put_str(ev, "connection", l->obj->id);
	rs_val_put_str(ev, "step", sr->no);
	rs_record_add(sr->run->rec, RS_REC_EVENT, sr->run->rec->events, ev);
	if (!sr->finished)
		rs_step_fail(sr, RS_STEP_FAILED, NULL, "rdma_cm event %s%s on "
			     "%s of connection '%s'", rdma_event_str(e->type),
			     st, what, l->obj->id);
}

void rs_cm_event_error(struct rs_step_run *sr, struct rs_live *l, int r)
{
	/* The descriptor stays readable while this lasts: stop here. */
	if (r != -EAGAIN && r != -EINTR && !sr->finished)
		rs_step_fail(sr, RS_STEP_FAILED, NULL, "rdma_get_cm_event on "
			     "connection '%s': %s", l->obj->id,
			     strerror(-r));
}
