// SPDX-License-Identifier: MIT
/*
 * link: the netdev under a context's port down or up, then a wait for
 * the port's asynchronous event (IBV_EVENT_PORT_ERR, _ACTIVE), and that
 * of each context whose port goes with it (wait_ports()), which the run
 * records: the top-level step reads the contexts' events, takes these
 * as provoked rather than failures, and wakes this step when the last
 * came (exec/async_events.c).  A link left down comes up in teardown.
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>

#include "live.h"
#include "step.h"
#include "steps.h"
#include "value.h"
#include "wire.h"

struct link_rt {
	char ifname[IF_NAMESIZE];
	double t_change;
};

/* Passed: the state set and when its event came (both, or the record
 * would lack one). */
static void link_pass(struct rs_step_run *sr, double event_ms)
{
	const struct rs_step_link *s = sr->obj->data;
	struct rs_val *f = rs_val_put_obj(rs_step_figures(sr), "link");

	rs_val_put_str(f, "state", s->state == RS_LINK_UP ? "up" : "down");
	rs_val_put_double(f, "event_ms", event_ms);
	rs_step_pass(sr);
}

static void link_progress(struct rs_step_run *sr)
{
	struct link_rt *rt = sr->rt;

	if (atomic_load(&sr->port_seen))
		link_pass(sr, sr->port_seen_ms - rt->t_change);
}

/*
 * Does the step wait for @l's port event?  Its own context's, always
 * (link_start() saw its port is not in the state asked for yet); another
 * context's when its port's netdev is @ifname or goes with it (a veth's
 * peer loses its carrier too) and its port is not in that state
 * already.  The far end's event comes later than ours (the kernel's link
 * watch passes a carrier change on within a second): a step that ended
 * at its own port's event left it to fail the next step.
 */
static bool waits_for(struct rs_step_run *sr, struct rs_live *l,
		      const char *ifname, bool up)
{
	struct rs_dev *dev = rs_as_dev(l);
	char other[IF_NAMESIZE + 1], why[256];
	struct ibv_port_attr pa;

	if (l == sr->port_ctx)
		return true;
	if (rs_wire_reach("/sys", dev->name, dev->port, other, sizeof(other),
			  why, sizeof(why)))
		return false;
	if (strcmp(other, ifname) &&
	    !rs_wire_follows("/sys", other, ifname, up))
		return false;
	return !ibv_query_port(rs_as_context(l), dev->port, &pa) &&
	       (pa.state == IBV_PORT_ACTIVE) != up;
}

/* Each open context's waiter: this step where waits_for(), else none. */
static void wait_ports(struct rs_step_run *sr, const char *ifname, bool up)
{
	struct rs_run *run = sr->run;
	unsigned n = 0;

	for (unsigned i = 0; i < run->n_created; i++) {
		struct rs_live *l = run->created[i];
		struct rs_dev *dev = rs_as_dev(l);
		bool w;

		if (!dev || !rs_as_context(l) || l->state != RS_LIVE_CREATED)
			continue;
		w = waits_for(sr, l, ifname, up);
		atomic_store(&dev->port_waiter, w ? sr : NULL);
		n += w;
	}
	atomic_store(&sr->port_left, n);
}

static int link_start(struct rs_step_run *sr)
{
	const struct rs_step_link *s = sr->obj->data;
	struct link_rt *rt = sr->rt;
	bool up = s->state == RS_LINK_UP;
	struct ibv_port_attr pa;
	struct ibv_context *ctx;
	struct rs_live *l;
	char err[512];
	int r;

	r = rs_step_netdev(sr, s->context, &l, rt->ifname,
			   sizeof(rt->ifname));
	if (r)
		return r;
	ctx = rs_as_context(l);
	/* Set to the state it is in, the port says nothing: no wait. */
	if (ctx && !ibv_query_port(ctx, rs_as_dev(l)->port, &pa) &&
	    (pa.state == IBV_PORT_ACTIVE) == up) {
		rs_step_warn(sr, "state", "the port of '%s' is %s already: "
			     "no event to wait for", s->context,
			     ibv_port_state_str(pa.state));
		link_pass(sr, 0);
		return 0;
	}
	sr->port_ctx = l;
	sr->port_want = up ? IBV_EVENT_PORT_ACTIVE : IBV_EVENT_PORT_ERR;
	wait_ports(sr, rt->ifname, up);
	rt->t_change = rs_now_ms();
	r = rs_wire_link_set(sr->run, rt->ifname, up, err, sizeof(err));
	if (r)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "state", "%s", err);
	return 0;
}

const struct rdmascn_step_ops rs_step_ops_link = {
	.rt_size = sizeof(struct link_rt),
	.start = link_start,
	.progress = link_progress,
};
