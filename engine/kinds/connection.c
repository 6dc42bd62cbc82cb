// SPDX-License-Identifier: MIT
/*
 * What both ways of connecting (connection_oob.c, connection_cm.c and
 * its teardown) ask of a connection, apart from the kind's ops
 * (kind_connection.c) that dispatch to them, so that the calls go one
 * way: the ops to the ways, the ways to here.
 */
#include <errno.h>
#include <stdio.h>

#include <infiniband/verbs.h>

#include "connection.h"
#include "model.h"
#include "str_put.h"

void rs_conn_path(const struct rs_obj *o, struct rs_path *ret)
{
	const struct rs_connection *conn = o->data;

	*ret = (struct rs_path){
		.sl = conn->sl,
		.traffic_class = conn->traffic_class,
		.hop_limit = rs_obj_has(o, "hop_limit") ? conn->hop_limit :
			     RS_PEER_HOP_LIMIT,
		.static_rate = (uint8_t)conn->static_rate,
		.flow_label = conn->flow_label,
	};
}

void rs_conn_side_peer(struct rs_run *run, struct rs_live *l,
		       const struct rs_conn_side *s, struct rs_peer *ret)
{
	(void)l;
	rs_peer_fill(ret, s->l->obj->id, s->ctx_id,
		     s->rt->qp ? s->rt->qp->qp_num : 0, s->psn, s->port,
		     run->dry_run ? NULL : s->dev);
	/* Copied, not formatted: one a side, in every real run. */
	rs_str_put(ret->node, sizeof(ret->node), 0,
		   rs_node_name(run->s, s->l->obj->on));
}

int rs_conn_uniform(struct rs_run *run, struct rs_live *l,
		    const struct rs_peer *self, const struct rs_peer *peer,
		    bool self_is_a)
{
	const struct rs_connection *conn = l->obj->data;
	char why[512];

	if (!rs_peer_uniform(self_is_a ? self : peer, self_is_a ? peer : self,
			     conn->mtu, why, sizeof(why)))
		return 0;
	return rs_live_error(run, l, EPROTO, "%s", why);
}

/*
 * Teardown: the QP to ERR, so that whatever is still posted flushes
 * instead of retrying towards a peer about to go, as rdma_disconnect()
 * does to a QP librdmacm owns.  A QP still in RESET (the connection
 * failed before it) is left alone: RESET -> ERR is not a transition.
 * Nor is a QP nothing was ever posted on: it has nothing to flush, and
 * the modify cost as much as the destroy after it (docs/scenario.md,
 * "Teardown").  A dry run lists the flush: which QPs steps post on is
 * known only as they run.
 */
void rs_conn_flush(struct rs_run *run, struct rs_live *l,
		   const struct rs_conn_side *s)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };
	struct rs_call c;

	if (!run->dry_run && (!s->rt->qp || s->rt->state == IBV_QPS_RESET ||
			      !s->rt->posted))
		return;
	rs_call_init(&c, RS_CALL_DESTROY, "ibv_modify_qp");
	rs_call_arg(&c, "qp", "%s", s->l->obj->id);
	rs_qp_attr_args(&c, &attr, IBV_QP_STATE, 0);
	rs_qp_modify(run, l, s->l, &c, &attr, IBV_QP_STATE);
}
