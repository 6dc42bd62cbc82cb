// SPDX-License-Identifier: MIT
/*
 * A connection out of band (oob): the attributes a pair of processes
 * would exchange over a socket, as ibv_rc_pingpong does, are handed over
 * in process, and each QP is taken RESET -> INIT -> RTR -> RTS with them.
 */
#include "connection.h"

/* GRH hop limit on the wire: 1 stops at the first router. */
#define CONN_HOP_LIMIT 64

static int oob_access(struct rs_run *run, const struct rs_conn_side *s)
{
	int f = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

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
		    const struct rs_conn_side *s)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = s->q->pkey_index,
		.port_num = s->port,
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

/*
 * The address vector towards @peer: with a GRH on Ethernet, or when the
 * peer's context has a GID (IB with a gid_index); else the peer's LID.
 */
static void oob_av(const struct rs_connection *conn,
		   const struct rs_conn_side *s,
		   const struct rs_conn_side *peer, struct ibv_ah_attr *ah)
{
	ah->port_num = s->port;
	ah->sl = conn->sl;
	if (s->dev->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET ||
	    peer->dev->gid_index >= 0) {
		ah->is_global = 1;
		ah->grh.dgid = peer->dev->gid;
		ah->grh.sgid_index = s->dev->gid_index >= 0 ?
				     (uint8_t)s->dev->gid_index : 0;
		ah->grh.hop_limit = CONN_HOP_LIMIT;
		ah->grh.traffic_class = conn->traffic_class;
	} else {
		ah->dlid = peer->dev->port_attr.lid;
	}
}

static int oob_rtr(struct rs_run *run, struct rs_live *l,
		   const struct rs_conn_side *s,
		   const struct rs_conn_side *peer, enum ibv_mtu mtu)
{
	const struct rs_connection *conn = l->obj->data;
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTR,
		.path_mtu = mtu,
		.dest_qp_num = peer->rt->qp ? peer->rt->qp->qp_num : 0,
		.rq_psn = conn->psn,
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
		oob_av(conn, s, peer, &attr.ah_attr);
	}
	rs_qp_attr_args(&c, &attr, mask, skip);
	if (run->dry_run) {
		if (!conn->mtu)
			rs_call_arg(&c, "path_mtu", "min(active_mtu(%s), "
				    "active_mtu(%s))", s->ctx_id,
				    peer->ctx_id);
		rs_call_arg(&c, "dest_qp_num", "qpn(%s)", peer->l->obj->id);
		rs_call_arg(&c, "ah_attr.port_num", "%u", s->port);
		rs_call_arg(&c, "ah_attr.sl", "%u", conn->sl);
		rs_call_arg(&c, "ah_attr.is_global", "1_on_ethernet_or_"
			    "with_a_gid");
		rs_call_arg(&c, "ah_attr.grh.dgid", "gid(%s)", peer->ctx_id);
		rs_call_arg(&c, "ah_attr.grh.sgid_index", "gid_index(%s)",
			    s->ctx_id);
		rs_call_arg(&c, "ah_attr.grh.hop_limit", "%u",
			    CONN_HOP_LIMIT);
		rs_call_arg(&c, "ah_attr.grh.traffic_class", "%u",
			    conn->traffic_class);
		rs_call_arg(&c, "ah_attr.dlid", "lid(%s)_if_not_global",
			    peer->ctx_id);
	}
	return rs_qp_modify(run, l, s->l, &c, &attr, mask);
}

static int oob_rts(struct rs_run *run, struct rs_live *l,
		   const struct rs_conn_side *s)
{
	const struct rs_connection *conn = l->obj->data;
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTS,
		.sq_psn = conn->psn,
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

int rs_conn_oob_connect(struct rs_run *run, struct rs_live *l,
			const struct rs_conn_side *a,
			const struct rs_conn_side *b)
{
	const struct rs_connection *conn = l->obj->data;
	enum ibv_mtu mtu = conn->mtu;
	int r;

	if (!mtu && !run->dry_run) {
		mtu = a->dev->port_attr.active_mtu;
		if (b->dev->port_attr.active_mtu < mtu)
			mtu = b->dev->port_attr.active_mtu;
	}
	/* Both to INIT, both to RTR, both to RTS: each step of one side
	 * only needs what the other already has at that point. */
	r = oob_init(run, l, a);
	if (!r)
		r = oob_init(run, l, b);
	if (!r)
		r = oob_rtr(run, l, a, b, mtu);
	if (!r)
		r = oob_rtr(run, l, b, a, mtu);
	if (!r)
		r = oob_rts(run, l, a);
	if (!r)
		r = oob_rts(run, l, b);
	return r;
}
