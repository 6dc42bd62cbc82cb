// SPDX-License-Identifier: MIT
/*
 * link: the netdev under a context's port down or up, then a wait for
 * the port's asynchronous event (IBV_EVENT_PORT_ERR, _ACTIVE), which the
 * run records: the top-level step reads the context's events, takes
 * this one as provoked rather than a failure, and wakes this step
 * (exec/async_events.c).  A link left down comes up in teardown.
 */
#include <errno.h>
#include <net/if.h>

#include "live.h"
#include "step.h"
#include "steps.h"
#include "value.h"

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
