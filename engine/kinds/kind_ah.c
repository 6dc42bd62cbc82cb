// SPDX-License-Identifier: MIT
/*
 * ahs: ibv_create_ah() on the pd.  Port and source GID come from the
 * context of `qp` when one is named, else from the pd's context; given
 * fields override them.  What is not given is filled for loopback, which
 * is what a one-device scenario sends to: on RoCE (Ethernet) the AH is
 * global, as RoCE needs a GRH, and the destination GID defaults to the
 * source GID itself; on InfiniBand dlid defaults to the port's own LID.
 * With `to:` a QP the address is that QP's: its GID, LID and GID index
 * from its description (rs_peer), built here when it is on this node,
 * else by its node and swapped through the rendezvous as a connection's
 * sides are, so that an AH and the QP it sends to cannot disagree.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "kinds.h"
#include "live.h"
#include "run.h"
#include "peer.h"
#include "value.h"

/* The GRH's hop limit when the file gives none: what librdmacm and the
 * kernel's path records use, enough for any routed fabric. */
#define RS_AH_HOP_LIMIT 64

static int ah_attr_fill(struct rs_run *run, struct rs_live *l,
			struct rs_live *cl, const struct rs_peer *to,
			struct ibv_ah_attr *ret_attr)
{
	const struct rs_ah *a = l->obj->data;
	const struct rs_dev *dev = rs_as_dev(cl);
	struct ibv_context *ctx = rs_live_ibv_context(run, l);
	const struct rs_qp *qp = a->qp ? rs_live_find(run, a->qp)->obj->data :
				 NULL;
	struct ibv_ah_attr attr = { 0 };
	struct ibv_port_attr pa = dev->port_attr;
	bool eth;
	int sgid, r;

	attr.port_num = a->port ? a->port : qp && qp->port ? qp->port :
			dev->port;
	if (attr.port_num != dev->port) {
		errno = 0;
		r = ibv_query_port(ctx, attr.port_num, &pa);
		if (r) {
			r = r > 0 ? r : errno ? errno : EINVAL;
			return rs_live_error(run, l, r, "port: %s port %u: %s",
					     dev->name, attr.port_num,
					     strerror(r));
		}
	}
	eth = pa.link_layer == IBV_LINK_LAYER_ETHERNET;

	sgid = rs_obj_has(l->obj, "gid_index") ? a->gid_index :
	       attr.port_num == dev->port ? dev->gid_index : 0;
	if (sgid < 0)
		sgid = 0;
	/* To a QP with a GID: through a GRH, as a connection's AV is
	 * (rs_peer_av()). */
	attr.is_global = a->dgid || a->is_global || eth ||
			 (to && to->gid_index >= 0);
	attr.sl = a->sl;
	attr.src_path_bits = a->src_path_bits;
	attr.static_rate = (uint8_t)a->static_rate;
	attr.dlid = rs_obj_has(l->obj, "dlid") ? a->dlid : to ? to->lid :
		    eth ? 0 : pa.lid;
	if (attr.is_global) {
		struct ibv_global_route *g = &attr.grh;

		g->sgid_index = (uint8_t)sgid;
		g->hop_limit = rs_obj_has(l->obj, "hop_limit") ?
			       a->hop_limit : RS_AH_HOP_LIMIT;
		g->traffic_class = a->traffic_class;
		g->flow_label = a->flow_label;
		if (a->dgid)
			memcpy(g->dgid.raw, a->dgid_raw, 16);
		else if (to)
			memcpy(g->dgid.raw, to->gid, 16);
		else if (attr.port_num == dev->port && sgid == dev->gid_index)
			g->dgid = dev->gid;
		else if (ibv_query_gid(ctx, attr.port_num, sgid,
				       &g->dgid))
			return rs_live_error(run, l, errno ? errno : EINVAL,
					     "gid_index: %s port %u has no "
					     "GID %d", dev->name,
					     attr.port_num, sgid);
	}
	*ret_attr = attr;
	return 0;
}

static void ah_hint(struct rs_run *run, struct rs_live *cl,
		    const struct ibv_ah_attr *attr, struct rs_call *c)
{
	const struct rs_dev *dev = rs_as_dev(cl);

	(void)run;
	if (c->ok || c->hint[0])
		return;
	if (attr->port_num < 1 ||
	    attr->port_num > dev->attr.orig_attr.phys_port_cnt)
		rs_call_hint(c, "port %u: %s has ports 1 to %u",
			     attr->port_num, dev->name,
			     dev->attr.orig_attr.phys_port_cnt);
	else if (attr->is_global && attr->port_num == dev->port &&
		 attr->grh.sgid_index >= dev->port_attr.gid_tbl_len)
		rs_call_hint(c, "gid_index %u: the port's GID table has %d "
			     "entries", attr->grh.sgid_index,
			     dev->port_attr.gid_tbl_len);
	else if (!attr->is_global && !attr->dlid)
		rs_call_hint(c, "dlid 0 without a GRH addresses nothing; "
			     "give dlid or dgid");
}

/* from_wc: ibv_create_ah_from_wc() with the completion and GRH the
 * replying step creates @l from (rs_live_late()); the attributes it
 * derives (a query, ibv_init_ah_from_wc()) for the call's arguments and
 * the facts. */
static int ah_create_from_wc(struct rs_run *run, struct rs_live *l,
			     struct ibv_pd *pd, struct rs_live *cl)
{
	const struct rs_ah *a = l->obj->data;
	struct rs_ah_rt *rt = l->rt;
	const struct rs_dev *dev = rs_as_dev(cl);
	struct ibv_wc wc = { 0 };
	struct ibv_grh grh = { 0 };
	char gid[INET6_ADDRSTRLEN];
	uint8_t port = a->port ? a->port : dev->port;
	const void *from_grh = NULL;
	const struct ibv_wc *from_wc = rs_live_late(run, l, &from_grh);
	struct rs_call c;

	rs_call_init(&c, RS_CALL_CREATE, "ibv_create_ah_from_wc");
	rs_call_arg(&c, "pd", "%s", a->pd);
	if (run->dry_run && !a->port)
		rs_call_arg(&c, "port", "(context '%s')", cl->obj->id);
	else
		rs_call_arg(&c, "port", "%u", port);
	if (run->dry_run || !from_wc) {
		rs_call_arg(&c, "wc", "(the receive a ud_send replies to)");
	} else {
		wc = *from_wc;
		memcpy(&grh, from_grh, sizeof(grh));
		if (ibv_init_ah_from_wc(rs_live_ibv_context(run, l), port, &wc, &grh,
					&rt->attr)) {
			int e = errno ? errno : EINVAL;

			return rs_live_error(run, l, e, "ibv_init_ah_from_wc "
					     "(port %u, src_qp 0x%x, wc_flags "
					     "0x%x): %s", port, wc.src_qp,
					     wc.wc_flags, strerror(e));
		}
		rs_call_arg(&c, "src_qp", "0x%x", wc.src_qp);
		rs_call_arg(&c, "slid", "%u", wc.slid);
		rs_call_arg(&c, "sl", "%u", wc.sl);
		rs_call_arg(&c, "grh", "%s", wc.wc_flags & IBV_WC_GRH ?
			    "yes" : "no");
		if (rt->attr.is_global) {
			inet_ntop(AF_INET6, rt->attr.grh.dgid.raw, gid,
				  sizeof(gid));
			rs_call_arg(&c, "dgid", "%s", gid);
			rs_call_arg(&c, "sgid_index", "%u",
				    rt->attr.grh.sgid_index);
		}
	}
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->ah, ibv_create_ah_from_wc(pd, &wc, &grh,
							      port));
	return rs_call_done(run, l, &c);
}

/* QP @ql described as a connection's side is (rs_peer_fill()): from
 * its context's device, none in a dry run. */
static void qp_peer(struct rs_run *run, struct rs_live *ql,
		    struct rs_peer *ret)
{
	struct rs_live *cl = rs_live_context(run, ql);
	const struct rs_dev *dev = run->dry_run ? NULL : rs_as_dev(cl);
	struct rdmascn_qp q;
	uint32_t qpn = 0;

	if (!rs_as_qp(run, ql, &q) && q.rt && q.rt->qp)
		qpn = q.rt->qp->qp_num;
	rs_peer_fill(ret, ql->obj->id, cl->obj->id, qpn, 0,
		     dev ? dev->port : 0, dev);
	snprintf(ret->node, sizeof(ret->node), "%s",
		 rs_node_name(run->s, ql->obj->on));
}

/* This process is the node of the QP an AH on another node addresses:
 * it gives that QP's description, and makes nothing. */
static bool ah_far_side(struct rs_run *run, struct rs_live *l)
{
	return l->obj->on_peer != RS_NODE_ANY && run->node != RS_NODE_ANY &&
	       l->obj->on != run->node;
}

/* The description of the QP @l's `to:` names: its own where it is
 * here (or in a dry run), else @far, what its node sent (ah_cross_in()):
 * 0, or -errno reported. */
static int ah_to(struct rs_run *run, struct rs_live *l,
		 const struct rs_peer *far, struct rs_peer *ret)
{
	const struct rs_ah *a = l->obj->data;
	struct rs_live *ql = rs_live_find(run, a->to);

	if (rs_run_here(run, ql->obj) || run->dry_run) {
		qp_peer(run, ql, ret);
		return 0;
	}
	if (!far)
		return rs_live_error(run, l, EPROTO, "no description of "
				     "qp '%s' came from node '%s'", a->to,
				     rs_node_name(run->s, ql->obj->on));
	*ret = *far;
	return 0;
}

/* Make @l; @far: the description of its `to:` QP from that QP's node,
 * or NULL where it is here. */
static int ah_make(struct rs_run *run, struct rs_live *l,
		   const struct rs_peer *far)
{
	const struct rs_ah *a = l->obj->data;
	struct rs_ah_rt *rt = l->rt;
	struct ibv_pd *pd = rs_live_pd(run, a->pd);
	struct rs_live *cl = rs_live_context(run, a->qp ?
					     rs_live_find(run, a->qp) : l);
	struct rs_live *pd_cl = rs_live_context(run, l);
	char gid[INET6_ADDRSTRLEN];
	struct rs_peer to;
	struct rs_call c;
	int ret;

	/* The QP's node (a dry run of it): it only describes the QP
	 * (ah_cross_out()). */
	if (a->to && ah_far_side(run, l))
		return 0;
	if (a->to && (ret = ah_to(run, l, far, &to)))
		return ret;
	if (cl != pd_cl)
		return rs_live_error(run, l, EINVAL, "qp: '%s' is on context "
				     "'%s', the ah's pd on '%s'", a->qp,
				     cl->obj->id, pd_cl->obj->id);
	/* A reply's: when a step has the completion (a dry run says
	 * the call it will be). */
	if (a->from_wc && !run->dry_run && !rs_live_late(run, l, NULL))
		return RDMASCN_CREATE_LATER;
	if (a->from_wc)
		return ah_create_from_wc(run, l, pd, cl);
	rs_call_init(&c, RS_CALL_CREATE, "ibv_create_ah");
	rs_call_arg(&c, "pd", "%s", a->pd);
	if (run->dry_run) {
		/* No device yet: what the file says, and where the rest
		 * will come from. */
		if (a->port)
			rs_call_arg(&c, "port", "%u", a->port);
		else
			rs_call_arg(&c, "port", "(context '%s')",
				    cl->obj->id);
		if (a->to) {
			rs_call_arg(&c, "to", "%s", a->to);
			rs_call_arg(&c, "is_global", "%s", a->is_global ?
				    "1" : "(1 on Ethernet or with a GID)");
			rs_call_arg(&c, "dgid", "gid(%s)", to.context);
			rs_call_arg(&c, "dlid", "lid(%s)_if_not_global",
				    to.context);
		} else {
			rs_call_arg(&c, "is_global", "%s",
				    a->dgid || a->is_global ? "1" :
				    "(1 on Ethernet)");
			rs_call_arg(&c, "dgid", "%s", a->dgid ? a->dgid :
				    "(the source GID: loopback)");
		}
		if (rs_obj_has(l->obj, "gid_index"))
			rs_call_arg(&c, "sgid_index", "%u", a->gid_index);
		else
			rs_call_arg(&c, "sgid_index", "(context '%s')",
				    cl->obj->id);
		rs_call_arg(&c, "hop_limit", "%u",
			    rs_obj_has(l->obj, "hop_limit") ? a->hop_limit :
			    RS_AH_HOP_LIMIT);
		if (a->traffic_class)
			rs_call_arg(&c, "traffic_class", "%u",
				    a->traffic_class);
		if (a->flow_label)
			rs_call_arg(&c, "flow_label", "%u", a->flow_label);
		rs_call_arg(&c, "sl", "%u", a->sl);
		rs_call_arg(&c, "src_path_bits", "%u", a->src_path_bits);
		rs_call_arg(&c, "static_rate", "%s",
			    rs_rate_name(a->static_rate));
		if (rs_obj_has(l->obj, "dlid"))
			rs_call_arg(&c, "dlid", "%u", a->dlid);
		if (a->qp)
			rs_call_arg(&c, "from_qp", "%s", a->qp);
	} else {
		ret = ah_attr_fill(run, l, cl, a->to ? &to : NULL, &rt->attr);
		if (ret)
			return ret;
		rs_call_arg(&c, "port", "%u", rt->attr.port_num);
		rs_call_arg(&c, "is_global", "%u", rt->attr.is_global);
		if (rt->attr.is_global) {
			inet_ntop(AF_INET6, rt->attr.grh.dgid.raw, gid,
				  sizeof(gid));
			rs_call_arg(&c, "dgid", "%s", gid);
			rs_call_arg(&c, "sgid_index", "%u",
				    rt->attr.grh.sgid_index);
			rs_call_arg(&c, "hop_limit", "%u",
				    rt->attr.grh.hop_limit);
			rs_call_arg(&c, "traffic_class", "%u",
				    rt->attr.grh.traffic_class);
			rs_call_arg(&c, "flow_label", "%u",
				    rt->attr.grh.flow_label);
		}
		rs_call_arg(&c, "dlid", "%u", rt->attr.dlid);
		rs_call_arg(&c, "sl", "%u", rt->attr.sl);
		rs_call_arg(&c, "src_path_bits", "%u",
			    rt->attr.src_path_bits);
		rs_call_arg(&c, "static_rate", "%s",
			    rs_rate_name(rt->attr.static_rate));
	}
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->ah, ibv_create_ah(pd, &rt->attr));
	ah_hint(run, cl, &rt->attr, &c);
	return rs_call_done(run, l, &c);
}

static void ah_destroy(struct rs_run *run, struct rs_live *l)
{
	struct rs_ah_rt *rt = l->rt;

	if (ah_far_side(run, l))
		return;    /* nothing made here */
	RS_CALL_RELEASE(run, l, ibv_destroy_ah, rt->ah);
}

static void ah_describe(struct rs_run *run, struct rs_live *l,
			struct rs_val *v)
{
	struct rs_ah_rt *rt = l->rt;
	char gid[INET6_ADDRSTRLEN];

	if (ah_far_side(run, l)) {
		/* The far side of an AH `to:` a QP here: it only gave the
		 * QP's description. */
		rs_val_put_str(v, "addressed_from", rs_node_name(run->s,
								 l->obj->on));
		return;
	}
	rs_val_put_u64(v, "port", rt->attr.port_num);
	if (rt->attr.is_global) {
		inet_ntop(AF_INET6, rt->attr.grh.dgid.raw, gid, sizeof(gid));
		rs_val_put_str(v, "dgid", gid);
		rs_val_put_u64(v, "sgid_index", rt->attr.grh.sgid_index);
	}
	if (rt->attr.dlid)
		rs_val_put_u64(v, "dlid", rt->attr.dlid);
}

static int ah_as_ah(struct rs_live *l, struct rdmascn_ah *ret)
{
	struct rs_ah_rt *rt = l->rt;

	ret->ah = rt ? rt->ah : NULL;
	return 0;
}

/* Nothing to ask of the device but room for one more. */
static int ah_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			 unsigned len)
{
	(void)why;
	(void)len;
	if (!ah_far_side(run, l))
		rs_dev_limit_count(run, l, RS_LIM_AH);
	return 0;
}

static int ah_create(struct rs_run *run, struct rs_live *l)
{
	return ah_make(run, l, NULL);
}

/*
 * Across nodes (`to:` a QP on another node, docs/nodes.md "Addresses"):
 * in the phase's one exchange the QP's node sends that QP's description
 * and makes nothing; the AH's node sends nothing and makes the AH from
 * it.
 */
static int ah_cross_out(struct rs_run *run, struct rs_live *l, void *buf,
			size_t len)
{
	const struct rs_ah *a = l->obj->data;
	struct rs_peer p;

	if (!ah_far_side(run, l))
		return 0;
	if (len < sizeof(p))
		return rs_live_error(run, l, ENOBUFS, "its description takes "
				     "%zu bytes, %zu are room", sizeof(p), len);
	qp_peer(run, rs_live_find(run, a->to), &p);
	memcpy(buf, &p, sizeof(p));
	return (int)sizeof(p);
}

static int ah_cross_in(struct rs_run *run, struct rs_live *l,
		       const void *far, size_t far_len)
{
	struct rs_peer p;

	if (ah_far_side(run, l))
		return 0;
	if (far_len != sizeof(p))
		return rs_live_error(run, l, EPROTO, "node '%s' sent %zu "
				     "bytes for it, not %zu",
				     rs_node_name(run->s, l->obj->on_peer),
				     far_len, sizeof(p));
	memcpy(&p, far, sizeof(p));
	return ah_make(run, l, &p);
}

const struct rdmascn_ops rs_ops_ah = {
	.rt_size = sizeof(struct rs_ah_rt),
	.check_caps = ah_check_caps,
	.create = ah_create,
	.destroy = ah_destroy,
	.as_ah = ah_as_ah,
	.describe = ah_describe,
};

static const struct rs_cross_ops ah_cross = {
	.ops = &rs_ops_ah,
	.out = ah_cross_out,
	.in = ah_cross_in,
};

__attribute__((constructor)) static void ah_cross_add(void)
{
	rs_cross_add(&ah_cross);
}
