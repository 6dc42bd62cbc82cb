// SPDX-License-Identifier: MIT
/*
 * An rdma_cm connection's teardown (connection_cm.c makes it): each side
 * that is here flushes its QP and disconnects, waiting a bounded time
 * for the other's DISCONNECTED; then the ids and the channel go.
 */
#include <errno.h>

#include "connection.h"

static void cm_destroy_id(struct rs_run *run, struct rs_live *l,
			  struct rdma_cm_id **id, const char *id_name)
{
	struct rs_call c;

	if (!*id && !run->dry_run)
		return;
	rs_call_init(&c, RS_CALL_DESTROY, "rdma_destroy_id");
	rs_call_arg(&c, "id", "%s", id_name);
	if (rs_call_go(run, l, &c))
		RS_CALL_INT(&c, rdma_destroy_id(*id));
	*id = NULL;
	rs_call_done(run, l, &c);
}

/* The connection's id that @on names. */
static struct rdma_cm_id *cm_id_on(const struct rs_connection_rt *rt,
				   enum rs_cm_on on)
{
	switch (on) {
	case RS_CM_ON_LISTEN:
		return rt->listen_id;
	case RS_CM_ON_A:
		return rt->a_id;
	case RS_CM_ON_B:
		return rt->b_id;
	default:
		return NULL;
	}
}

/*
 * A DEVICE_REMOVAL came on @id, or on another of the connection's ids on
 * the same device (librdmacm's ids on one device share its verbs
 * context): the kernel closes every id of a device that goes, and the
 * order in which their events come is its own (the listening id's may
 * be the first taken while a's is still queued).
 */
static bool cm_device_gone(const struct rs_connection_rt *rt,
			   const struct rdma_cm_id *id, enum rs_cm_on on)
{
	if (rt->seen[on] & CM_BIT(RDMA_CM_EVENT_DEVICE_REMOVAL))
		return true;
	for (int i = RS_CM_ON_LISTEN; i < RS_CM_N_ON; i++) {
		const struct rdma_cm_id *other = cm_id_on(rt, i);

		if (rt->seen[i] & CM_BIT(RDMA_CM_EVENT_DEVICE_REMOVAL) &&
		    other && other->verbs && other->verbs == id->verbs)
			return true;
	}
	return false;
}

/*
 * rdma_disconnect() @id, unless its device took it away: the kernel then
 * closed the id after queueing its DEVICE_REMOVAL, and the call could
 * only fail (ENXIO).  What came meanwhile is taken first, so that a
 * removal is known before the call rather than after.
 */
static void cm_disconnect(struct rs_run *run, struct rs_live *l,
			  struct rdma_cm_id *id, enum rs_cm_on on,
			  const char *id_name)
{
	struct rs_connection_rt *rt = l->rt;
	struct rs_cm_event e;
	struct rs_call c;

	if (!run->dry_run) {
		while (!rs_cm_take(l, &e, NULL))
			;
		if (cm_device_gone(rt, id, on))
			return;
	}
	rs_call_init(&c, RS_CALL_DESTROY, "rdma_disconnect");
	rs_call_arg(&c, "id", "%s", id_name);
	if (rs_call_go(run, l, &c))
		RS_CALL_INT(&c, rdma_disconnect(id));
	rs_call_done(run, l, &c);
}

void rs_conn_cm_destroy(struct rs_run *run, struct rs_live *l,
			const struct rs_conn_side *a,
			const struct rs_conn_side *b, bool here_a, bool here_b)
{
	struct rs_connection_rt *rt = l->rt;

	if ((rt->established || run->dry_run) && here_a != here_b) {
		/* Between nodes: this side flushes and disconnects; its
		 * DISCONNECTED comes with the other's DREQ or DREP, as
		 * each node gets there (bounded). */
		const struct rs_conn_side *s = here_a ? a : b;
		struct rdma_cm_id *id = here_a ? rt->a_id : rt->b_id;
		enum rs_cm_on on = here_a ? RS_CM_ON_A : RS_CM_ON_B;
		const char *name = here_a ? "a_id" : "b_id";

		rs_conn_flush(run, l, s);
		cm_disconnect(run, l, id, on, name);
		rs_cm_wait(run, l, RDMA_CM_EVENT_DISCONNECTED, id, on, name,
			   NULL, true);
		rt->established = false;
	} else if (rt->established || run->dry_run) {
		/* DREQ from a; b's DISCONNECTED; b's rdma_disconnect()
		 * answers with the DREP that ends a's wait.  Bounded:
		 * rdma_destroy_id() cleans up whatever did not come.  Not
		 * waited for when a step took it already, nor once the
		 * device went (DEVICE_REMOVAL: cm_events.c). */
		rs_conn_flush(run, l, a);
		cm_disconnect(run, l, rt->a_id, RS_CM_ON_A, "a_id");
		rs_cm_wait(run, l, RDMA_CM_EVENT_DISCONNECTED, rt->b_id,
			RS_CM_ON_B, "b_id", NULL, true);
		rs_conn_flush(run, l, b);
		cm_disconnect(run, l, rt->b_id, RS_CM_ON_B, "b_id");
		rs_cm_wait(run, l, RDMA_CM_EVENT_DISCONNECTED, rt->a_id,
			RS_CM_ON_A, "a_id", NULL, true);
		rt->established = false;
	} else {
		if (here_a)
			rs_conn_flush(run, l, a);
		if (here_b)
			rs_conn_flush(run, l, b);
	}
	cm_destroy_id(run, l, &rt->b_id, "b_id");
	cm_destroy_id(run, l, &rt->a_id, "a_id");
	cm_destroy_id(run, l, &rt->listen_id, "listen_id");
	if (rt->channel || run->dry_run) {
		struct rs_call c;

		rs_call_init(&c, RS_CALL_DESTROY,
			     "rdma_destroy_event_channel");
		if (rs_call_go(run, l, &c)) {
			rdma_destroy_event_channel(rt->channel);
			c.ok = true;
		}
		rt->channel = NULL;
		rs_call_done(run, l, &c);
	}
}
