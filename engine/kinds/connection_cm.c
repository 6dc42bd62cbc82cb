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
#include "nodes.h"

/* rdma_resolve_addr() and rdma_resolve_route() give up after this. */
#define CM_RESOLVE_MS 2000

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

/* What the sides of a connection between nodes swap: each its
 * description; b also the port its listen id is bound to (its address
 * is its GID's, or the file's ip:). */
struct cm_desc {
	struct rs_peer peer;
	uint16_t port;           /* host order; 0 from a */
	uint8_t pad[6];
};

/* b listens: a channel, the listen id bound to @addr @ss. */
static int cm_listen(struct rs_run *run, struct rs_live *l,
		     struct sockaddr_storage *ss, const char *addr)
{
	const struct rs_connection *conn = l->obj->data;
	struct rs_connection_rt *rt = l->rt;
	struct rs_call c;
	int r;

	r = cm_create_id(run, l, &rt->listen_id, "listen_id");
	if (r)
		return r;
	rs_call_init(&c, RS_CALL_CREATE, "rdma_bind_addr");
	rs_call_arg(&c, "id", "listen_id");
	rs_call_arg(&c, "addr", "%s", addr);
	if (rs_call_go(run, l, &c)) {
		RS_CALL_INT(&c, rdma_bind_addr(rt->listen_id,
					       (struct sockaddr *)ss));
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
	return rs_call_done(run, l, &c);
}

static void set_port(struct sockaddr_storage *ss, uint16_t port)
{
	if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)ss)->sin_port = htons(port);
}

/*
 * Between nodes (@a or @b not here): swap descriptions once b listens
 * (the swap is every node's meeting on this object, so a connects only
 * after b's rdma_listen()); a learns b's GID and port from it.  On
 * one node: b's description as it is.  @addr is b's address as text.
 */
static int cm_meet(struct rs_run *run, struct rs_live *l,
		   const struct rs_conn_side *a, const struct rs_conn_side *b,
		   bool here_a, bool here_b, struct sockaddr_storage *ss,
		   char *addr, size_t addr_len)
{
	struct rs_connection_rt *rt = l->rt;
	struct cm_desc mine = { 0 }, theirs = { 0 };
	uint16_t port;
	int r;

	if (here_a && here_b)
		return 0;
	rs_conn_side_peer(run, l, here_a ? a : b, &mine.peer);
	if (here_b && rt->listen_id)
		mine.port = ntohs(rdma_get_src_port(rt->listen_id));
	if (run->dry_run)
		return 0;
	r = rs_nodes_swap(run, l, &mine, sizeof(mine), &theirs,
			  sizeof(theirs));
	if (!r)
		r = rs_conn_uniform(run, l, &mine.peer, &theirs.peer, here_a);
	if (r || here_b)
		return r;
	/* a: b's address from b's description, at the port b has. */
	port = theirs.port;
	r = cm_addr(run, l, &theirs.peer, ss, addr, addr_len);
	if (r)
		return r;
	if (!port)
		return rs_live_error(run, l, EPROTO, "node b's side gave no "
				     "port");
	set_port(ss, port);
	if (strchr(addr, ']'))
		snprintf(strrchr(addr, ']') + 1, 8, ":%u", port);
	else if (strrchr(addr, ':'))
		snprintf(strrchr(addr, ':'), 8, ":%u", port);
	return 0;
}

/*
 * Connect @a (active: resolves, connects) and @b (passive: listens,
 * accepts).  @here_a, @here_b: which sides this process moves; on one
 * node both, one after the other.  Between nodes each node runs its own
 * half, and the halves meet only through rdma_cm and the swap in
 * cm_meet().
 */
int rs_conn_cm_connect(struct rs_run *run, struct rs_live *l,
		       const struct rs_conn_side *a,
		       const struct rs_conn_side *b, bool here_a, bool here_b)
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

	/* b's address; a's, between nodes, comes in cm_meet(). */
	if (here_b || run->dry_run) {
		rs_conn_side_peer(run, l, b, &bp);
		r = cm_addr(run, l, &bp, &ss, addr, sizeof(addr));
		if (r)
			return r;
		/* Between nodes, without a port: any free one, which
		 * travels to a. */
		if (!here_a && !conn->port && !run->dry_run)
			set_port(&ss, 0);
	}

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
	if (here_b) {
		r = cm_listen(run, l, &ss, addr);
		if (r)
			return r;
	}
	r = cm_meet(run, l, a, b, here_a, here_b, &ss, addr, sizeof(addr));
	if (r)
		return r;

	/* a finds b, moves its QP to INIT and asks. */
	if (here_a) {
		r = cm_create_id(run, l, &rt->a_id, "a_id");
		if (r)
			return r;
		rs_call_init(&c, RS_CALL_CREATE, "rdma_resolve_addr");
		rs_call_arg(&c, "id", "a_id");
		rs_call_arg(&c, "dst", "%s", addr);
		rs_call_arg(&c, "timeout_ms", "%u", CM_RESOLVE_MS);
		if (rs_call_go(run, l, &c))
			RS_CALL_INT(&c, rdma_resolve_addr(rt->a_id, NULL,
				(struct sockaddr *)&ss, CM_RESOLVE_MS));
		r = rs_call_done(run, l, &c);
		if (!r)
			r = rs_cm_wait(run, l, RDMA_CM_EVENT_ADDR_RESOLVED,
				       rt->a_id, RS_CM_ON_A, "a_id", NULL,
				       false);
		if (!r)
			r = cm_same_port(run, l, rt->a_id, "a_id", a, addr);
		if (r)
			return r;
		rs_call_init(&c, RS_CALL_CREATE, "rdma_resolve_route");
		rs_call_arg(&c, "id", "a_id");
		rs_call_arg(&c, "timeout_ms", "%u", CM_RESOLVE_MS);
		if (rs_call_go(run, l, &c))
			RS_CALL_INT(&c, rdma_resolve_route(rt->a_id,
							   CM_RESOLVE_MS));
		r = rs_call_done(run, l, &c);
		if (!r)
			r = rs_cm_wait(run, l, RDMA_CM_EVENT_ROUTE_RESOLVED,
				       rt->a_id, RS_CM_ON_A, "a_id", NULL,
				       false);
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
	}

	/* b gets the request on a new id, takes its QP to RTS, accepts. */
	if (here_b) {
		r = rs_cm_wait(run, l, RDMA_CM_EVENT_CONNECT_REQUEST,
			       rt->listen_id, RS_CM_ON_LISTEN, "listen_id",
			       &rt->b_id, false);
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
	}

	/* a gets the reply: INIT again (now with the access flags the CM
	 * agreed on, as librdmacm does), RTR, RTS, and the RTU. */
	if (here_a) {
		r = rs_cm_wait(run, l, RDMA_CM_EVENT_CONNECT_RESPONSE,
			       rt->a_id, RS_CM_ON_A, "a_id", NULL, false);
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
	}
	if (!r && here_b)
		r = rs_cm_wait(run, l, RDMA_CM_EVENT_ESTABLISHED, rt->b_id,
			       RS_CM_ON_B, "b_id", NULL, false);
	if (!r)
		rt->established = true;
	return r;
}
