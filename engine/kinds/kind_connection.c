// SPDX-License-Identifier: MIT
/*
 * connections: two QPs taken RESET -> INIT -> RTR -> RTS towards each
 * other, out of band (connection_oob.c) or via rdma_cm (connection_cm.c).
 * Here: the kind's ops; what both ways share is in connection.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "caps.h"
#include "connection.h"
#include "dec.h"
#include "model.h"
#include "str_put.h"
#include "value.h"

/* Side @name's psn and access: its own key, else the one for both. */
static void side_settings(const struct rs_obj *o, const char *name,
			  struct rs_conn_side *s)
{
	const struct rs_connection *conn = o->data;
	bool a = name[0] == 'a';

	if (rs_obj_has(o, a ? "a_psn" : "b_psn")) {
		s->psn = a ? conn->a_psn : conn->b_psn;
		s->psn_given = true;
	} else {
		s->psn = conn->psn;    /* 0 unless given */
		s->psn_given = rs_obj_has(o, "psn");
	}
	if (rs_obj_has(o, a ? "a_access" : "b_access"))
		s->access = a ? conn->a_access : conn->b_access;
	else if (rs_obj_has(o, "access"))
		s->access = conn->access;
	else
		s->access = -1;
}

/*
 * Side @name's QP, context and port, without its psn and access: what
 * describe and destroy read.  Its settings are four DOM lookups by path
 * (rs_obj_has()), which only the connecting needs; asked for at each
 * describe and destroy too, they were a fifth of a connection's own
 * instructions in a real run.
 */
static void side_find(struct rs_run *run, const char *name, const char *id,
		      struct rs_conn_side *s)
{
	struct rs_live *ctxl;

	s->psn = 0;
	s->psn_given = false;
	s->access = -1;
	s->name = name;
	s->l = rs_live_find(run, id);
	if (rs_as_qp(run, s->l, &s->info))
		memset(&s->info, 0, sizeof(s->info));
	s->q = &s->info;
	s->rt = s->info.rt;
	ctxl = rs_live_context(run, s->l);
	s->dev = rs_as_dev(ctxl);
	s->ctx_id = ctxl->obj->id;
	if (s->q->port)
		s->port = s->q->port;
	else if (run->dry_run)
		s->port = ((const struct rs_context *)
			   ctxl->obj->data)->port ?: 1;
	else
		s->port = s->dev->port;
}

/* Side @name as connecting it reads it: its psn and access too. */
static void side_get(struct rs_run *run, struct rs_live *cl, const char *name,
		     const char *id, struct rs_conn_side *s)
{
	side_find(run, name, id, s);
	side_settings(cl->obj, name, s);
}

static const char *article(int type)
{
	return type == RS_QPT_RC || type == RS_QPT_XRC_SEND ||
	       type == RS_QPT_XRC_RECV ? "an" : "a";
}

/* What can be connected: two rc or two uc QPs, or an xrc_send with an
 * xrc_recv; via rdma_cm, rc only. */
static int pair_check(struct rs_run *run, struct rs_live *l,
		      const struct rs_connection *conn,
		      const struct rs_conn_side *a,
		      const struct rs_conn_side *b)
{
	const struct rs_conn_side *s[2] = { a, b };
	int ta = a->q->type, tb = b->q->type;
	bool xrc = (ta == RS_QPT_XRC_SEND && tb == RS_QPT_XRC_RECV) ||
		   (ta == RS_QPT_XRC_RECV && tb == RS_QPT_XRC_SEND);

	for (int i = 0; i < 2; i++) {
		int t = s[i]->q->type;

		if (t == RS_QPT_UD || t == RS_QPT_RAW_PACKET)
			return rs_live_error(run, l, EINVAL, "%s: %s is %s %s "
					     "qp; ud and raw_packet qps reach "
					     "RTS when created and take no "
					     "connection", s[i]->name,
					     s[i]->l->obj->name, article(t),
					     rs_qp_type_name(t));
	}
	if (!xrc && (ta != tb || ta == RS_QPT_XRC_SEND ||
		     ta == RS_QPT_XRC_RECV))
		return rs_live_error(run, l, EINVAL, "%s is %s %s qp and %s "
				     "%s %s qp; a connection joins two rc or "
				     "two uc qps, or an xrc_send qp with an "
				     "xrc_recv qp", a->l->obj->name,
				     article(ta), rs_qp_type_name(ta),
				     b->l->obj->name, article(tb),
				     rs_qp_type_name(tb));
	if (conn->via == RS_VIA_RDMA_CM && ta != RS_QPT_RC)
		return rs_live_error(run, l, EINVAL, "via rdma_cm connects rc "
				     "qps only; %s is %s %s qp",
				     a->l->obj->name, article(ta),
				     rs_qp_type_name(ta));
	return 0;
}
static int conn_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			   unsigned len)
{
	const struct rs_connection *conn = l->obj->data;
	const struct rs_dev *dev = rs_live_dev(run, l);

	if (conn->via != RS_VIA_RDMA_CM || !dev ||
	    rs_dev_features(&dev->attr) & 1u << RS_FEAT_RDMA_CM)
		return 0;
	snprintf(why, len, "%s (%s)", rs_feature_name(RS_FEAT_RDMA_CM),
		 rs_feature_source(RS_FEAT_RDMA_CM));
	return -EOPNOTSUPP;
}

/* A path MTU above a side's active MTU: rxe takes it and sends frames
 * its link cannot carry; other devices refuse RTR.  Once per port. */
static void mtu_warn(struct rs_run *run, struct rs_live *l,
		     const struct rs_conn_side *a, const struct rs_conn_side *b)
{
	const struct rs_connection *conn = l->obj->data;
	const struct rs_conn_side *s[2] = { a, b };

	if (run->dry_run || !conn->mtu)
		return;
	for (int i = 0; i < 2; i++) {
		const struct rs_dev *d = s[i]->dev;

		/* Another node's side: its device is not known here. */
		if (!rs_run_here(run, s[i]->l->obj))
			continue;
		if (s[i]->port != d->port ||
		    conn->mtu <= (int)d->port_attr.active_mtu)
			continue;
		if (i && b->dev == a->dev && b->port == a->port)
			continue;
		rs_live_warn_at(run, l, "mtu", "%u exceeds %s port %u "
				"active_mtu (%u)", 128u << conn->mtu, d->name,
				d->port, 128u << d->port_attr.active_mtu);
	}
}

/* Its two sides, checked against each other: 0, or -errno reported. */
static int conn_sides(struct rs_run *run, struct rs_live *l,
		      struct rs_conn_side *a, struct rs_conn_side *b)
{
	const struct rs_connection *conn = l->obj->data;
	int r;

	side_get(run, l, "a", conn->a, a);
	side_get(run, l, "b", conn->b, b);
	r = pair_check(run, l, conn, a, b);
	if (!r)
		mtu_warn(run, l, a, b);
	return r;
}

static int conn_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_connection *conn = l->obj->data;
	struct rs_conn_side a, b;
	int r;

	r = conn_sides(run, l, &a, &b);
	if (r)
		return r;
	/* A connection between nodes: each node moves its own side. */
	if (conn->via == RS_VIA_RDMA_CM)
		return rs_conn_cm_connect(run, l, &a, &b,
					  rs_run_here(run, a.l->obj),
					  rs_run_here(run, b.l->obj));
	/* Without a role (a dry run of every node) both sides are here;
	 * with one, a dry run has the far side from the file (a run
	 * between nodes crosses: conn_cross_out(), conn_cross_in()). */
	if (l->obj->on_peer != RS_NODE_ANY && run->node != RS_NODE_ANY)
		return rs_run_here(run, a.l->obj) ?
		       rs_conn_oob_side(run, l, &a, &b, NULL) :
		       rs_conn_oob_side(run, l, &b, &a, NULL);
	return rs_conn_oob_connect(run, l, &a, &b);
}

/* Between nodes, this node's side: its QP's description (oob), or its
 * rdma_cm half ready and described. */
static int conn_cross_out(struct rs_run *run, struct rs_live *l, void *buf,
			  size_t len)
{
	const struct rs_connection *conn = l->obj->data;
	struct rs_conn_side a, b;
	struct rs_peer self;
	bool here_a;
	int r;

	r = conn_sides(run, l, &a, &b);
	if (r)
		return r;
	here_a = rs_run_here(run, a.l->obj);
	if (conn->via == RS_VIA_RDMA_CM)
		return rs_conn_cm_out(run, l, &a, &b, here_a, buf, len);
	if (len < sizeof(self))
		return rs_live_error(run, l, ENOBUFS, "its description "
				     "takes %zu bytes, %zu are room",
				     sizeof(self), len);
	rs_conn_side_peer(run, l, here_a ? &a : &b, &self);
	memcpy(buf, &self, sizeof(self));
	return (int)sizeof(self);
}

/* ... and to RTS with the far side's description. */
static int conn_cross_in(struct rs_run *run, struct rs_live *l,
			 const void *far, size_t far_len)
{
	const struct rs_connection *conn = l->obj->data;
	struct rs_conn_side a, b;
	struct rs_peer peer;
	bool here_a;

	side_get(run, l, "a", conn->a, &a);
	side_get(run, l, "b", conn->b, &b);
	here_a = rs_run_here(run, a.l->obj);
	if (conn->via == RS_VIA_RDMA_CM)
		return rs_conn_cm_in(run, l, &a, &b, here_a, far, far_len);
	if (far_len != sizeof(peer))
		return rs_live_error(run, l, EPROTO, "node '%s' sent %zu "
				     "bytes for it, not %zu",
				     rs_node_name(run->s, here_a ?
						  l->obj->on_peer :
						  l->obj->on),
				     far_len, sizeof(peer));
	memcpy(&peer, far, sizeof(peer));
	return here_a ? rs_conn_oob_side(run, l, &a, &b, &peer) :
	       rs_conn_oob_side(run, l, &b, &a, &peer);
}

static void conn_destroy(struct rs_run *run, struct rs_live *l)
{
	const struct rs_connection *conn = l->obj->data;
	struct rs_conn_side a, b;

	side_find(run, "a", conn->a, &a);
	side_find(run, "b", conn->b, &b);
	if (conn->via == RS_VIA_RDMA_CM) {
		rs_conn_cm_destroy(run, l, &a, &b, rs_run_here(run, a.l->obj),
				   rs_run_here(run, b.l->obj));
		return;
	}
	if (rs_run_here(run, a.l->obj))
		rs_conn_flush(run, l, &a);
	if (rs_run_here(run, b.l->obj))
		rs_conn_flush(run, l, &b);
}

/*
 * A connection's facts, as describe read them back: kept as they came
 * (ibv_query_qp()'s attributes a side) and made members only when the
 * record is written or read.  Put as 40 nodes a connection they were
 * half of a real run's facts with --json (8.1 M instructions of 15.6 M
 * at N=1000, callgrind in the guest), and the writer walked them again.
 */
enum side_shown {
	SIDE_NONE,              /* no QP: nothing of it */
	SIDE_QPN,               /* ibv_query_qp() failed: its qpn */
	SIDE_QUERIED,           /* its state and settings */
};

struct side_facts {
	struct ibv_qp_attr attr;
	uint32_t qpn;
	int gid_index;          /* the device's, when not global */
	uint8_t shown;          /* enum side_shown */
};

struct conn_facts {
	struct side_facts side[2];
	uint8_t mtu;            /* enum ibv_mtu; 0: none read */
	bool cm;
};

/* The settings the engine chose for one side, as the device holds them
 * (ibv_query_qp): numbers, for the record. */
static unsigned settings_fields(const void *data, struct rs_val_field *f,
				void *room)
{
	const struct side_facts *sf = data;
	const struct ibv_qp_attr *a = &sf->attr;
	const char *rate = rs_rate_name(a->ah_attr.static_rate);
	const char *acc = rs_access_text(a->qp_access_flags, room, 96);
	unsigned n = 0;

	f[n++] = RS_VAL_F_U64("path_mtu", 128u << a->path_mtu);
	f[n++] = RS_VAL_F_U64("sq_psn", a->sq_psn);
	f[n++] = RS_VAL_F_U64("rq_psn", a->rq_psn);
	f[n++] = RS_VAL_F_U64("dest_qp_num", a->dest_qp_num);
	f[n++] = RS_VAL_F_I64("sgid_index", a->ah_attr.is_global ?
			      a->ah_attr.grh.sgid_index : sf->gid_index);
	f[n++] = RS_VAL_F_BOOL("global", a->ah_attr.is_global);
	if (a->ah_attr.is_global) {
		f[n++] = RS_VAL_F_U64("hop_limit", a->ah_attr.grh.hop_limit);
		f[n++] = RS_VAL_F_U64("traffic_class",
				      a->ah_attr.grh.traffic_class);
		f[n++] = RS_VAL_F_U64("flow_label",
				      a->ah_attr.grh.flow_label);
	}
	f[n++] = RS_VAL_F_U64("sl", a->ah_attr.sl);
	f[n++] = RS_VAL_F_STR("static_rate", rate, strlen(rate));
	f[n++] = RS_VAL_F_STR("access", acc, strlen(acc));
	f[n++] = RS_VAL_F_U64("timeout", a->timeout);
	f[n++] = RS_VAL_F_U64("retry_cnt", a->retry_cnt);
	f[n++] = RS_VAL_F_U64("rnr_retry", a->rnr_retry);
	f[n++] = RS_VAL_F_U64("min_rnr_timer", a->min_rnr_timer);
	f[n++] = RS_VAL_F_U64("max_rd_atomic", a->max_rd_atomic);
	f[n++] = RS_VAL_F_U64("max_dest_rd_atomic", a->max_dest_rd_atomic);
	return n;
}

static const struct rs_val_struct settings_ops = {
	.fields = settings_fields,
};

/* "settings": each side's that was read. */
static unsigned sides_fields(const void *data, struct rs_val_field *f,
			     void *room)
{
	const struct conn_facts *cf = data;
	unsigned n = 0;

	(void)room;
	if (cf->side[0].shown == SIDE_QUERIED)
		f[n++] = RS_VAL_F_STRUCT("a", &settings_ops, &cf->side[0]);
	if (cf->side[1].shown == SIDE_QUERIED)
		f[n++] = RS_VAL_F_STRUCT("b", &settings_ops, &cf->side[1]);
	return n;
}

static const struct rs_val_struct sides_ops = { .fields = sides_fields };

/* "qpn 0x000011 RTS sq_psn 0" (or its qpn only, when it could not be
 * read) in @buf (96 bytes): put together, not formatted (two a
 * connection, in every real run's record); its length. */
static size_t side_text(const struct side_facts *sf, char *buf)
{
	char hex[RS_HEX_MAX], dec[RS_DEC_MAX + 1];
	size_t n = 0;
	const char *part[6];
	unsigned k = 2;

	dec[RS_DEC_MAX] = '\0';
	part[0] = "qpn ";
	part[1] = rs_hex(sf->qpn, 6, hex);
	if (sf->shown == SIDE_QUERIED) {
		part[2] = " ";
		part[3] = rs_qp_state_name(sf->attr.qp_state);
		part[4] = " sq_psn ";
		part[5] = rs_dec(dec + RS_DEC_MAX, sf->attr.sq_psn);
		k = 6;
	}
	for (unsigned i = 0; i < k; i++)
		n = rs_str_put(buf, 96, n, part[i]);
	return n;
}

static unsigned conn_facts_fields(const void *data, struct rs_val_field *f,
				  void *room)
{
	const struct conn_facts *cf = data;
	char *buf = room;
	unsigned n = 0;

	if (cf->cm)
		f[n++] = RS_VAL_F_STR("via", "rdma_cm", 7);
	else
		f[n++] = RS_VAL_F_STR("via", "oob", 3);
	if (cf->side[0].shown)
		f[n++] = RS_VAL_F_STR("a", buf, side_text(&cf->side[0], buf));
	if (cf->side[1].shown)
		f[n++] = RS_VAL_F_STR("b", buf + 96,
				      side_text(&cf->side[1], buf + 96));
	if (cf->mtu)
		f[n++] = RS_VAL_F_U64("mtu", 128u << cf->mtu);
	/* Last: the text report shows the facts before it, not it. */
	f[n++] = RS_VAL_F_STRUCT("settings", &sides_ops, cf);
	return n;
}

static const struct rs_val_struct conn_facts_ops = {
	.fields = conn_facts_fields,
};

/* One side as the device sees it: its state and settings. */
static void describe_side(struct side_facts *sf, const struct rs_conn_side *s,
			  uint8_t *mtu)
{
	struct ibv_qp_init_attr init;

	if (!s->rt->qp)
		return;
	sf->qpn = s->rt->qp->qp_num;
	sf->gid_index = s->dev ? s->dev->gid_index : -1;
	if (ibv_query_qp(s->rt->qp, &sf->attr, IBV_QP_STATE |
			 IBV_QP_PATH_MTU | IBV_QP_SQ_PSN | IBV_QP_RQ_PSN |
			 IBV_QP_AV | IBV_QP_DEST_QPN | IBV_QP_TIMEOUT |
			 IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			 IBV_QP_MIN_RNR_TIMER | IBV_QP_MAX_QP_RD_ATOMIC |
			 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_ACCESS_FLAGS,
			 &init)) {
		sf->shown = SIDE_QPN;
		return;
	}
	sf->shown = SIDE_QUERIED;
	if (!*mtu)
		*mtu = (uint8_t)sf->attr.path_mtu;
}

static void conn_describe(struct rs_run *run, struct rs_live *l,
			  struct rs_val *v)
{
	const struct rs_connection *conn = l->obj->data;
	struct conn_facts *cf = rs_val_obj_struct(v, &conn_facts_ops,
						  sizeof(*cf));
	struct rs_conn_side a, b;

	if (!cf)
		return;
	side_find(run, "a", conn->a, &a);
	side_find(run, "b", conn->b, &b);
	cf->cm = conn->via == RS_VIA_RDMA_CM;
	describe_side(&cf->side[0], &a, &cf->mtu);
	describe_side(&cf->side[1], &b, &cf->mtu);
}

/* Its rdma_cm events, while steps run. */
static int conn_watch_fd(struct rs_live *l, const char **ret_what)
{
	struct rs_connection_rt *rt = l->rt;

	if (!rt->channel)
		return -1;
	*ret_what = "the rdma_cm event channel";
	return rt->channel->fd;
}

static bool conn_uses_rdma_cm(const struct rs_live *l)
{
	const struct rs_connection *conn = l->obj->data;

	return conn->via == RS_VIA_RDMA_CM;
}

static int conn_as_link(struct rs_live *l, struct rdmascn_link *ret)
{
	const struct rs_connection *conn = l->obj->data;

	ret->id = conn->id;
	ret->a = conn->a;
	ret->b = conn->b;
	ret->mtu = conn->mtu;
	ret->max_rd_atomic = conn->max_rd_atomic;
	ret->max_dest_rd_atomic = conn->max_dest_rd_atomic;
	return 0;
}

const struct rdmascn_ops rs_ops_connection = {
	.rt_size = sizeof(struct rs_connection_rt),
	.check_caps = conn_check_caps,
	.create = conn_create,
	.destroy = conn_destroy,
	.describe = conn_describe,
	.watch_fd = conn_watch_fd,
	.on_readable = rs_conn_cm_readable,
	.uses_rdma_cm = conn_uses_rdma_cm,
	.as_link = conn_as_link,
};

static const struct rs_cross_ops conn_cross = {
	.ops = &rs_ops_connection,
	.out = conn_cross_out,
	.in = conn_cross_in,
};

__attribute__((constructor)) static void conn_cross_add(void)
{
	rs_cross_add(&conn_cross);
}
