// SPDX-License-Identifier: MIT
/*
 * A connection out of band (oob): each side describes itself (struct
 * rs_peer: what a pair of processes exchange over a socket, as
 * ibv_rc_pingpong does), the descriptions are handed over in process,
 * and each QP is taken RESET -> INIT -> RTR -> RTS with its own and its
 * peer's.
 */
#include <errno.h>
#include <string.h>

#include "connection.h"
#include "peer.h"
#include "macros.h"
#include "nodes.h"

static int oob_access(struct rs_run *run, const struct rs_conn_side *s)
{
	int f = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

	if (s->access >= 0)
		return s->access;    /* the file's, as it is */
	switch (s->q->type) {
	case RS_QPT_UC:
		return IBV_ACCESS_REMOTE_WRITE;
	case RS_QPT_XRC_SEND:
		return 0;    /* an initiator only (ibv_xsrq_pingpong) */
	default:
		/* Not offered where there are no atomics: some devices
		 * refuse the flag. */
		if (run->dry_run ||
		    s->dev->attr.orig_attr.atomic_cap != IBV_ATOMIC_NONE)
			f |= IBV_ACCESS_REMOTE_ATOMIC;
		return f;
	}
}

static int oob_init(struct rs_run *run, struct rs_live *l,
		    const struct rs_conn_side *s, const struct rs_peer *self)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = s->q->pkey_index,
		.port_num = self->port,
		.qp_access_flags = oob_access(run, s),
	};
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		   IBV_QP_ACCESS_FLAGS;
	struct rs_call c;

	rs_call_init(&c, RS_CALL_MODIFY, "ibv_modify_qp");
	rs_call_arg(&c, "qp", "%s", s->l->obj->id);
	rs_qp_attr_args(&c, &attr, mask, 0);
	return rs_qp_modify(run, l, s->l, &c, &attr, mask);
}

static int oob_rtr(struct rs_run *run, struct rs_live *l,
		   const struct rs_conn_side *s, const struct rs_peer *self,
		   const struct rs_peer *peer)
{
	const struct rs_connection *conn = l->obj->data;
	struct rs_path path;
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = rs_peer_mtu(conn->mtu, self, peer),
		.dest_qp_num = peer->qpn,
		.rq_psn = peer->psn,
		.max_dest_rd_atomic = conn->max_dest_rd_atomic,
		.min_rnr_timer = conn->min_rnr_timer,
	};
	int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
		   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN, skip = 0;
	struct rs_call c;

	/* The responder's attributes: not for UC, nor for an XRC
	 * initiator. */
	if (s->q->type == RS_QPT_RC || s->q->type == RS_QPT_XRC_RECV)
		mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	rs_call_init(&c, RS_CALL_MODIFY, "ibv_modify_qp");
	rs_call_arg(&c, "qp", "%s", s->l->obj->id);
	if (run->dry_run) {
		/* What the devices will say is not known yet. */
		skip = IBV_QP_DEST_QPN | IBV_QP_AV |
		       (conn->mtu ? 0 : IBV_QP_PATH_MTU);
	} else {
		rs_conn_path(l->obj, &path);
		rs_peer_av(self, peer, &path, &attr.ah_attr);
	}
	rs_qp_attr_args(&c, &attr, mask, skip);
	if (run->dry_run) {
		if (!conn->mtu)
			rs_call_arg(&c, "path_mtu", "min(active_mtu(%s), "
				    "active_mtu(%s))", self->context,
				    peer->context);
		rs_call_arg(&c, "dest_qp_num", "qpn(%s)", peer->qp);
		rs_call_arg(&c, "ah_attr.port_num", "%u", self->port);
		rs_call_arg(&c, "ah_attr.sl", "%u", conn->sl);
		rs_call_arg(&c, "ah_attr.is_global", "1_on_ethernet_or_"
			    "with_a_gid");
		rs_call_arg(&c, "ah_attr.grh.dgid", "gid(%s)", peer->context);
		rs_call_arg(&c, "ah_attr.grh.sgid_index", "gid_index(%s)",
			    self->context);
		rs_conn_path(l->obj, &path);
		rs_call_arg(&c, "ah_attr.grh.hop_limit", "%u",
			    path.hop_limit);
		rs_call_arg(&c, "ah_attr.grh.traffic_class", "%u",
			    path.traffic_class);
		rs_call_arg(&c, "ah_attr.grh.flow_label", "%u",
			    path.flow_label);
		rs_call_arg(&c, "ah_attr.static_rate", "%s",
			    rs_rate_name(path.static_rate));
		rs_call_arg(&c, "ah_attr.dlid", "lid(%s)_if_not_global",
			    peer->context);
	}
	return rs_qp_modify(run, l, s->l, &c, &attr, mask);
}

static int oob_rts(struct rs_run *run, struct rs_live *l,
		   const struct rs_conn_side *s, const struct rs_peer *self)
{
	const struct rs_connection *conn = l->obj->data;
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTS,
		.sq_psn = self->psn,
		.timeout = conn->timeout,
		.retry_cnt = conn->retry_cnt,
		.rnr_retry = conn->rnr_retry,
		.max_rd_atomic = conn->max_rd_atomic,
	};
	int mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	struct rs_call c;

	/* The requester's attributes, by type as the kernel's
	 * ib_modify_qp_is_ok() table wants them. */
	if (s->q->type == RS_QPT_RC || s->q->type == RS_QPT_XRC_SEND)
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	else if (s->q->type == RS_QPT_XRC_RECV)
		mask |= IBV_QP_TIMEOUT;
	rs_call_init(&c, RS_CALL_MODIFY, "ibv_modify_qp");
	rs_call_arg(&c, "qp", "%s", s->l->obj->id);
	rs_qp_attr_args(&c, &attr, mask, 0);
	return rs_qp_modify(run, l, s->l, &c, &attr, mask);
}

/*
 * Take @s's QP to @state (INIT, RTR, RTS in turn) with its own
 * description @self and its peer's @peer: nothing else of the peer is
 * read, so that the description could as well have come over a socket.
 */
static int oob_to(struct rs_run *run, struct rs_live *l,
		  const struct rs_conn_side *s, const struct rs_peer *self,
		  const struct rs_peer *peer, enum ibv_qp_state state)
{
	switch (state) {
	case IBV_QPS_INIT:
		return oob_init(run, l, s, self);
	case IBV_QPS_RTR:
		return oob_rtr(run, l, s, self, peer);
	case IBV_QPS_RTS:
		return oob_rts(run, l, s, self);
	default:
		return -EINVAL;
	}
}

int rs_conn_oob_connect(struct rs_run *run, struct rs_live *l,
			const struct rs_conn_side *a,
			const struct rs_conn_side *b)
{
	static const enum ibv_qp_state states[] = {
		IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS,
	};
	struct rs_peer pa, pb;
	int r = 0;

	/* What a pair of processes would send each other first. */
	rs_conn_side_peer(run, l, a, &pa);
	rs_conn_side_peer(run, l, b, &pb);
	/* Both to INIT, both to RTR, both to RTS: each step of one side
	 * only needs what the other already has at that point. */
	for (size_t i = 0; !r && i < RS_N(states); i++) {
		r = oob_to(run, l, a, &pa, &pb, states[i]);
		if (!r)
			r = oob_to(run, l, b, &pb, &pa, states[i]);
	}
	return r;
}

int rs_conn_oob_side(struct rs_run *run, struct rs_live *l,
		     const struct rs_conn_side *mine,
		     const struct rs_conn_side *far)
{
	static const enum ibv_qp_state states[] = {
		IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS,
	};
	struct rs_peer self, peer;
	int r = 0;

	rs_conn_side_peer(run, l, mine, &self);
	if (run->dry_run)
		rs_conn_side_peer(run, l, far, &peer);
	else
		r = rs_nodes_swap(run, l, &self, sizeof(self), &peer,
				  sizeof(peer));
	if (!r)
		r = rs_conn_uniform(run, l, &self, &peer,
				    !strcmp(mine->name, "a"));
	for (size_t i = 0; !r && i < RS_N(states); i++)
		r = oob_to(run, l, mine, &self, &peer, states[i]);
	return r;
}
