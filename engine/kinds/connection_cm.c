// SPDX-License-Identifier: MIT
/*
 * A connection via rdma_cm: librdmacm connects the QPs the scenario made
 * (the application-managed QP model): the cm ids carry no QP, so every
 * state change is ours, with the attributes rdma_init_qp_attr() gives.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "caps.h"
#include "connection.h"
#include "model.h"

/* Waits of an rdma_cm connection when the run has no deadline of its own. */
#define CM_WAIT_MS 5000
/* rdma_resolve_addr() and rdma_resolve_route() give up after this. */
#define CM_RESOLVE_MS 2000
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

#define CM_BIT(t) ((unsigned)(t) < 32 ? 1u << (t) : 0)

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
static int cm_wait(struct rs_run *run, struct rs_live *l,
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
		poll(p, 2, (int)left + 1);
	}
}

/*
 * The address b listens on and a connects to: 'ip', else the IPv4
 * address of b's GID (RoCE v2, IPv4-mapped), as b's description @b has
 * it: all a learns of b.
 */
static int cm_addr(struct rs_run *run, struct rs_live *l,
		   const struct rs_peer *b, struct sockaddr_storage *ss,
		   char *text, size_t len)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	const struct rs_connection *conn = l->obj->data;
	uint16_t port = conn->port ? conn->port : RS_CM_DEFAULT_PORT;
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
		.ai_socktype = SOCK_STREAM,
	}, *res;
	char ip[INET6_ADDRSTRLEN], serv[8];
	int r;

	if (conn->ip) {
		snprintf(ip, sizeof(ip), "%s", conn->ip);
	} else if (run->dry_run) {
		snprintf(text, len, "ipv4(gid(%s)):%u", b->context, port);
		return 0;
	} else if (b->gid_index < 0 ||
		   memcmp(b->gid, v4mapped, sizeof(v4mapped))) {
		inet_ntop(AF_INET6, b->gid, ip, sizeof(ip));
		return rs_live_error(run, l, EINVAL, "ip: not given, and "
				     "context '%s' has no IPv4-mapped GID to "
				     "take it from (its GID: %s)", b->context,
				     b->gid_index < 0 ? "none" : ip);
	} else {
		inet_ntop(AF_INET, b->gid + 12, ip, sizeof(ip));
	}
	snprintf(serv, sizeof(serv), "%u", port);
	r = getaddrinfo(ip, serv, &hints, &res);
	if (r)
		return rs_live_error(run, l, EINVAL, "ip: '%s': %s", ip,
				     gai_strerror(r));
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	if (strchr(ip, ':'))
		snprintf(text, len, "[%s]:%u", ip, port);
	else
		snprintf(text, len, "%s:%u", ip, port);
	return 0;
}

/* The cm id must be on the QP's device and port: the address picks it. */
static int cm_same_port(struct rs_run *run, struct rs_live *l,
			struct rdma_cm_id *id, const char *id_name,
			const struct rs_conn_side *s, const char *addr)
{
	const char *dev;

	if (run->dry_run)
		return 0;
	dev = id->verbs ? ibv_get_device_name(id->verbs->device) :
	      "no device";
	if (!strcmp(dev, s->dev->name) && id->port_num == s->port)
		return 0;
	return rs_live_error(run, l, EXDEV, "rdma_cm: %s for %s is on %s port "
			     "%u, but %s is on %s port %u", id_name, addr, dev,
			     id->port_num, s->l->obj->name, s->dev->name,
			     s->port);
}

/* The path fields the file gives, over what rdma_init_qp_attr() took
 * from the route: the whole AV is in the mask already.  Each given one is
 * also a call argument in a dry run, where no AV is printed. */
static void cm_path(struct rs_call *c, const struct rs_obj *o,
		    struct ibv_ah_attr *ah, bool dry_run)
{
	struct rs_path p;

	rs_conn_path(o, &p);
	if (rs_obj_has(o, "sl")) {
		ah->sl = p.sl;
		if (dry_run)
			rs_call_arg(c, "ah_attr.sl", "%u", p.sl);
	}
	if (rs_obj_has(o, "static_rate")) {
		ah->static_rate = p.static_rate;
		if (dry_run)
			rs_call_arg(c, "ah_attr.static_rate", "%s",
				    rs_rate_name(p.static_rate));
	}
	if (rs_obj_has(o, "hop_limit")) {
		ah->grh.hop_limit = p.hop_limit;
		if (dry_run)
			rs_call_arg(c, "ah_attr.grh.hop_limit", "%u",
				    p.hop_limit);
	}
	if (rs_obj_has(o, "traffic_class")) {
		ah->grh.traffic_class = p.traffic_class;
		if (dry_run)
			rs_call_arg(c, "ah_attr.grh.traffic_class", "%u",
				    p.traffic_class);
	}
	if (rs_obj_has(o, "flow_label")) {
		ah->grh.flow_label = p.flow_label;
		if (dry_run)
			rs_call_arg(c, "ah_attr.grh.flow_label", "%u",
				    p.flow_label);
	}
}

/*
 * Move @s's QP to @state with what rdma_init_qp_attr(@id) says, and the
 * connection's own values where librdmacm would put them (the rd_atomic
 * depths) or where the file gives them (access, mtu, psns, timers, the
 * path's sl, rate and GRH): the QP is the engine's, not librdmacm's, so
 * all of them apply.  @peer is the other side, for its psn.
 */
static int cm_modify(struct rs_run *run, struct rs_live *l,
		     const struct rs_conn_side *s,
		     const struct rs_conn_side *peer, struct rdma_cm_id *id,
		     const char *id_name, enum ibv_qp_state state)
{
	const struct rs_connection *conn = l->obj->data;
	const struct rs_obj *o = l->obj;
	struct ibv_qp_attr attr = { .qp_state = state };
	int mask = 0, over = 0;
	struct rs_call c;

	if (!run->dry_run && rdma_init_qp_attr(id, &attr, &mask)) {
		int err = errno;

		return rs_live_error(run, l, err, "rdma_init_qp_attr(%s, %s): "
				     "%s", id_name, rs_qp_state_name(state),
				     strerror(err));
	}
	if (state == IBV_QPS_INIT && s->access >= 0) {
		attr.qp_access_flags = (unsigned)s->access;
		over |= IBV_QP_ACCESS_FLAGS;
	} else if (state == IBV_QPS_RTR) {
		attr.max_dest_rd_atomic = conn->max_dest_rd_atomic;
		over |= IBV_QP_MAX_DEST_RD_ATOMIC;
		if (rs_obj_has(o, "mtu")) {
			attr.path_mtu = conn->mtu;
			over |= IBV_QP_PATH_MTU;
		}
		if (peer->psn_given) {
			attr.rq_psn = peer->psn;
			over |= IBV_QP_RQ_PSN;
		}
		if (rs_obj_has(o, "min_rnr_timer")) {
			attr.min_rnr_timer = conn->min_rnr_timer;
			over |= IBV_QP_MIN_RNR_TIMER;
		}
	} else if (state == IBV_QPS_RTS) {
		attr.max_rd_atomic = conn->max_rd_atomic;
		over |= IBV_QP_MAX_QP_RD_ATOMIC;
		if (rs_obj_has(o, "timeout")) {
			attr.timeout = conn->timeout;
			over |= IBV_QP_TIMEOUT;
		}
		if (s->psn_given) {
			attr.sq_psn = s->psn;
			over |= IBV_QP_SQ_PSN;
		}
	}
	mask |= over;
	rs_call_init(&c, RS_CALL_MODIFY, "ibv_modify_qp");
	rs_call_arg(&c, "qp", "%s", s->l->obj->id);
	rs_call_arg(&c, "attr", "rdma_init_qp_attr(%s)", id_name);
	if (run->dry_run)
		rs_qp_attr_args(&c, &attr, IBV_QP_STATE | over, 0);
	if (state == IBV_QPS_RTR)
		cm_path(&c, o, &attr.ah_attr, run->dry_run);
	if (!run->dry_run)
		rs_qp_attr_args(&c, &attr, mask, 0);
	return rs_qp_modify(run, l, s->l, &c, &attr, mask);
}

/* The rdma_conn_param of either side: the depths and retries from the
 * file, the QP by number (librdmacm does not own it). */
static void cm_param(struct rs_call *c, const struct rs_connection *conn,
		     const struct rs_conn_side *s, struct rdma_conn_param *p,
		     bool dry_run)
{
	*p = (struct rdma_conn_param){
		.responder_resources = conn->max_dest_rd_atomic,
		.initiator_depth = conn->max_rd_atomic,
		.retry_count = conn->retry_cnt,
		.rnr_retry_count = conn->rnr_retry,
		.srq = s->q->srq != NULL,
		.qp_num = s->rt->qp ? s->rt->qp->qp_num : 0,
	};
	if (dry_run)
		rs_call_arg(c, "qp_num", "qpn(%s)", s->l->obj->id);
	else
		rs_call_arg(c, "qp_num", "0x%x", p->qp_num);
	rs_call_arg(c, "responder_resources", "%u", p->responder_resources);
	rs_call_arg(c, "initiator_depth", "%u", p->initiator_depth);
	rs_call_arg(c, "retry_count", "%u", p->retry_count);
	rs_call_arg(c, "rnr_retry_count", "%u", p->rnr_retry_count);
	if (p->srq)
		rs_call_arg(c, "srq", "1");
}

static void cm_param_hint(struct rs_call *c, const struct rdma_conn_param *p,
			  const struct rs_conn_side *s)
{
	const struct ibv_device_attr *a = &s->dev->attr.orig_attr;

	if (c->ok || c->err != EINVAL)
		return;
	if (p->responder_resources > a->max_qp_rd_atom)
		rs_call_hint(c, "max_dest_rd_atomic %u exceeds max_qp_rd_atom "
			     "%d", p->responder_resources, a->max_qp_rd_atom);
	else if (p->initiator_depth > a->max_qp_init_rd_atom)
		rs_call_hint(c, "max_rd_atomic %u exceeds max_qp_init_rd_atom "
			     "%d", p->initiator_depth,
			     a->max_qp_init_rd_atom);
}

static int cm_create_id(struct rs_run *run, struct rs_live *l,
			struct rdma_cm_id **id, const char *id_name)
{
	struct rs_connection_rt *rt = l->rt;
	struct rs_call c;

	rs_call_init(&c, RS_CALL_CREATE, "rdma_create_id");
	rs_call_arg(&c, "id", "%s", id_name);
	rs_call_arg(&c, "ps", "RDMA_PS_TCP");
	if (rs_call_go(run, l, &c))
		RS_CALL_INT(&c, rdma_create_id(rt->channel, id, NULL,
					       RDMA_PS_TCP));
	return rs_call_done(run, l, &c);
}

int rs_conn_cm_connect(struct rs_run *run, struct rs_live *l,
		       const struct rs_conn_side *a,
		       const struct rs_conn_side *b)
{
	const struct rs_connection *conn = l->obj->data;
	struct rs_connection_rt *rt = l->rt;
	struct sockaddr_storage ss = { 0 };
	struct rdma_conn_param pa, pb;
	/* "[IPv6]:PORT", or a dry run's "ipv4(gid(CONTEXT)):PORT" */
	char addr[INET6_ADDRSTRLEN + RDMASCN_ID_MAX];
	struct rs_peer bp;
	struct rs_call c;
	int r, fl;

	rs_conn_side_peer(run, l, b, &bp);
	r = cm_addr(run, l, &bp, &ss, addr, sizeof(addr));
	if (r)
		return r;

	rs_call_init(&c, RS_CALL_CREATE, "rdma_create_event_channel");
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->channel, rdma_create_event_channel());
	r = rs_call_done(run, l, &c);
	if (r)
		return r;
	/* Every wait polls it, with a deadline. */
	if (rt->channel) {
		fl = fcntl(rt->channel->fd, F_GETFL);
		if (fl < 0 || fcntl(rt->channel->fd, F_SETFL,
				    fl | O_NONBLOCK) < 0)
			return rs_live_error(run, l, errno, "rdma_cm channel: "
					     "O_NONBLOCK: %s", strerror(errno));
	}

	/* b listens. */
	r = cm_create_id(run, l, &rt->listen_id, "listen_id");
	if (r)
		return r;
	rs_call_init(&c, RS_CALL_CREATE, "rdma_bind_addr");
	rs_call_arg(&c, "id", "listen_id");
	rs_call_arg(&c, "addr", "%s", addr);
	if (rs_call_go(run, l, &c)) {
		RS_CALL_INT(&c, rdma_bind_addr(rt->listen_id,
					       (struct sockaddr *)&ss));
		if (c.err == EADDRINUSE)
			rs_call_hint(&c, "port %u is taken; give another "
				     "'port'", conn->port ? conn->port :
				     RS_CM_DEFAULT_PORT);
		else if (c.err == EADDRNOTAVAIL || c.err == ENODEV)
			rs_call_hint(&c, "no RDMA device here has %s", addr);
	}
	r = rs_call_done(run, l, &c);
	if (r)
		return r;
	rs_call_init(&c, RS_CALL_CREATE, "rdma_listen");
	rs_call_arg(&c, "id", "listen_id");
	rs_call_arg(&c, "backlog", "1");
	if (rs_call_go(run, l, &c))
		RS_CALL_INT(&c, rdma_listen(rt->listen_id, 1));
	r = rs_call_done(run, l, &c);
	if (r)
		return r;

	/* a finds b, moves its QP to INIT and asks. */
	r = cm_create_id(run, l, &rt->a_id, "a_id");
	if (r)
		return r;
	rs_call_init(&c, RS_CALL_CREATE, "rdma_resolve_addr");
	rs_call_arg(&c, "id", "a_id");
	rs_call_arg(&c, "dst", "%s", addr);
	rs_call_arg(&c, "timeout_ms", "%u", CM_RESOLVE_MS);
	if (rs_call_go(run, l, &c))
		RS_CALL_INT(&c, rdma_resolve_addr(rt->a_id, NULL,
						  (struct sockaddr *)&ss,
						  CM_RESOLVE_MS));
	r = rs_call_done(run, l, &c);
	if (!r)
		r = cm_wait(run, l, RDMA_CM_EVENT_ADDR_RESOLVED, rt->a_id,
			    RS_CM_ON_A, "a_id", NULL, false);
	if (!r)
		r = cm_same_port(run, l, rt->a_id, "a_id", a, addr);
	if (r)
		return r;
	rs_call_init(&c, RS_CALL_CREATE, "rdma_resolve_route");
	rs_call_arg(&c, "id", "a_id");
	rs_call_arg(&c, "timeout_ms", "%u", CM_RESOLVE_MS);
	if (rs_call_go(run, l, &c))
		RS_CALL_INT(&c, rdma_resolve_route(rt->a_id, CM_RESOLVE_MS));
	r = rs_call_done(run, l, &c);
	if (!r)
		r = cm_wait(run, l, RDMA_CM_EVENT_ROUTE_RESOLVED, rt->a_id,
			    RS_CM_ON_A, "a_id", NULL, false);
	if (!r)
		r = cm_modify(run, l, a, b, rt->a_id, "a_id",
			      IBV_QPS_INIT);
	if (r)
		return r;
	rs_call_init(&c, RS_CALL_CREATE, "rdma_connect");
	rs_call_arg(&c, "id", "a_id");
	cm_param(&c, conn, a, &pa, run->dry_run);
	if (rs_call_go(run, l, &c)) {
		RS_CALL_INT(&c, rdma_connect(rt->a_id, &pa));
		cm_param_hint(&c, &pa, a);
	}
	r = rs_call_done(run, l, &c);
	if (r)
		return r;

	/* b gets the request on a new id, takes its QP to RTS, accepts. */
	r = cm_wait(run, l, RDMA_CM_EVENT_CONNECT_REQUEST, rt->listen_id,
		    RS_CM_ON_LISTEN, "listen_id", &rt->b_id, false);
	if (!r)
		r = cm_same_port(run, l, rt->b_id, "b_id", b, addr);
	if (!r)
		r = cm_modify(run, l, b, a, rt->b_id, "b_id",
			      IBV_QPS_INIT);
	if (!r)
		r = cm_modify(run, l, b, a, rt->b_id, "b_id",
			      IBV_QPS_RTR);
	if (!r)
		r = cm_modify(run, l, b, a, rt->b_id, "b_id",
			      IBV_QPS_RTS);
	if (r)
		return r;
	rs_call_init(&c, RS_CALL_CREATE, "rdma_accept");
	rs_call_arg(&c, "id", "b_id");
	cm_param(&c, conn, b, &pb, run->dry_run);
	if (rs_call_go(run, l, &c)) {
		RS_CALL_INT(&c, rdma_accept(rt->b_id, &pb));
		cm_param_hint(&c, &pb, b);
	}
	r = rs_call_done(run, l, &c);
	if (r)
		return r;

	/* a gets the reply: INIT again (now with the access flags the CM
	 * agreed on, as librdmacm does), RTR, RTS, and the RTU. */
	r = cm_wait(run, l, RDMA_CM_EVENT_CONNECT_RESPONSE, rt->a_id,
		    RS_CM_ON_A, "a_id", NULL, false);
	if (!r)
		r = cm_modify(run, l, a, b, rt->a_id, "a_id",
			      IBV_QPS_INIT);
	if (!r)
		r = cm_modify(run, l, a, b, rt->a_id, "a_id",
			      IBV_QPS_RTR);
	if (!r)
		r = cm_modify(run, l, a, b, rt->a_id, "a_id",
			      IBV_QPS_RTS);
	if (r)
		return r;
	rs_call_init(&c, RS_CALL_CREATE, "rdma_establish");
	rs_call_arg(&c, "id", "a_id");
	if (rs_call_go(run, l, &c))
		RS_CALL_INT(&c, rdma_establish(rt->a_id));
	r = rs_call_done(run, l, &c);
	if (!r)
		r = cm_wait(run, l, RDMA_CM_EVENT_ESTABLISHED, rt->b_id,
			    RS_CM_ON_B, "b_id", NULL, false);
	if (!r)
		rt->established = true;
	return r;
}

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
		if (rt->seen[on] & CM_BIT(RDMA_CM_EVENT_DEVICE_REMOVAL))
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
			const struct rs_conn_side *b)
{
	struct rs_connection_rt *rt = l->rt;

	if (rt->established || run->dry_run) {
		/* DREQ from a; b's DISCONNECTED; b's rdma_disconnect()
		 * answers with the DREP that ends a's wait.  Bounded:
		 * rdma_destroy_id() cleans up whatever did not come.  Not
		 * waited for when a step took it already, nor once the
		 * device went (DEVICE_REMOVAL: cm_events.c). */
		rs_conn_flush(run, l, a);
		cm_disconnect(run, l, rt->a_id, RS_CM_ON_A, "a_id");
		cm_wait(run, l, RDMA_CM_EVENT_DISCONNECTED, rt->b_id,
			RS_CM_ON_B, "b_id", NULL, true);
		rs_conn_flush(run, l, b);
		cm_disconnect(run, l, rt->b_id, RS_CM_ON_B, "b_id");
		cm_wait(run, l, RDMA_CM_EVENT_DISCONNECTED, rt->a_id,
			RS_CM_ON_A, "a_id", NULL, true);
		rt->established = false;
	} else {
		rs_conn_flush(run, l, a);
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
