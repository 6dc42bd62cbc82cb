// SPDX-License-Identifier: MIT
/*
 * qps: ibv_create_qp(), or ibv_create_qp_ex() for ex and XRC QPs.  UD and
 * raw packet QPs need no peer, so they are taken to RTS here; RC, UC and
 * XRC QPs stay in RESET until a connection moves them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "caps.h"
#include "kinds.h"
#include "live.h"
#include "value.h"

static const struct rs_bit_name send_op_names[] = {
	RS_SEND_OP_MAP(RS_SEND_OP_BIT_NAME)
};


static enum ibv_qp_type verbs_type(int type)
{
	switch (type) {
	case RS_QPT_UC:
		return IBV_QPT_UC;
	case RS_QPT_UD:
		return IBV_QPT_UD;
	case RS_QPT_XRC_SEND:
		return IBV_QPT_XRC_SEND;
	case RS_QPT_XRC_RECV:
		return IBV_QPT_XRC_RECV;
	case RS_QPT_RAW_PACKET:
		return IBV_QPT_RAW_PACKET;
	default:
		return IBV_QPT_RC;
	}
}

#define send_ops_text(ops, buf, len)                                      \
	rs_bits_text(ops, send_op_names, RS_N(send_op_names), buf, len)

/* The caps to ask for: what is given, else the defaults, which a queue
 * the QP does not have (an SRQ's receives, XRC) makes 0. */
static void qp_caps(const struct rs_obj *o, const struct rs_qp *q,
		    struct ibv_qp_cap *cap)
{
	bool has_sq = q->type != RS_QPT_XRC_RECV;
	bool has_rq = q->type != RS_QPT_XRC_RECV &&
		      q->type != RS_QPT_XRC_SEND && !q->srq;

	/* Without cap: there is nothing given to look up (five searches
	 * of the object's DOM, twice a QP). */
	rdmascn_qp_caps(q->cap, q->cap ? rdmascn_qp_cap_given(o) : 0, has_sq,
			has_rq, cap);
}

/* --- failure hints -------------------------------------------------------- */

/*
 * Trial creates for a hint, after a create failed: made directly, not
 * through rs_call (they are questions to the device, never part of the
 * scenario), and destroyed at once.
 */
static bool qp_try(struct ibv_context *ctx, struct ibv_pd *pd, bool ex,
		   const struct ibv_qp_init_attr_ex *want)
{
	struct ibv_qp_init_attr_ex ax = *want;
	struct ibv_qp *qp;

	if (ex) {
		qp = ibv_create_qp_ex(ctx, &ax);
	} else {
		struct ibv_qp_init_attr ia = {
			.send_cq = ax.send_cq, .recv_cq = ax.recv_cq,
			.srq = ax.srq, .cap = ax.cap, .qp_type = ax.qp_type,
			.sq_sig_all = ax.sq_sig_all,
		};

		qp = ibv_create_qp(pd, &ia);
	}
	if (!qp)
		return false;
	ibv_destroy_qp(qp);
	return true;
}

/* Which of @ax's send_ops the device refuses, each tried alone. */
static uint64_t refused_send_ops(struct ibv_context *ctx, struct ibv_pd *pd,
				 bool ex, const struct ibv_qp_init_attr_ex *ax)
{
	struct ibv_qp_init_attr_ex t = *ax;
	uint64_t refused = 0;

	for (size_t i = 0; i < RS_N(send_op_names);
	     i++) {
		if (!(ax->send_ops_flags & send_op_names[i].bit))
			continue;
		t.send_ops_flags = send_op_names[i].bit;
		if (!qp_try(ctx, pd, ex, &t))
			refused |= send_op_names[i].bit;
	}
	return refused;
}

/*
 * Why an ibv_create_qp failed, when the attributes tell: a cap over a
 * limit ibv_device_attr states, else (no field states it) the largest
 * max_inline_data or the send_ops the device accepts, found by trial.
 */
static void create_hint(struct rs_run *run, struct rs_live *l,
			struct rs_call *c, struct ibv_context *ctx,
			struct ibv_pd *pd, bool ex,
			const struct ibv_qp_init_attr_ex *ax)
{
	const struct ibv_device_attr *a = &rs_live_dev(run, l)->attr.orig_attr;
	const struct ibv_qp_cap *cap = &ax->cap;
	struct ibv_qp_init_attr_ex t;
	char hint[sizeof(c->hint)];
	size_t n = 0;

#define OVER(field, limit)                                                \
	do {                                                              \
		if (cap->field > (uint32_t)a->limit && n < sizeof(hint))  \
			n += snprintf(hint + n, sizeof(hint) - n,         \
				      "%s" #field " %u exceeds " #limit   \
				      " %d", n ? "; " : "", cap->field,   \
				      a->limit);                          \
	} while (0)
	OVER(max_send_wr, max_qp_wr);
	OVER(max_recv_wr, max_qp_wr);
	OVER(max_send_sge, max_sge);
	OVER(max_recv_sge, max_sge);
#undef OVER
	if (n) {
		rs_call_hint(c, "%s", hint);
		return;
	}
	if (ex && ax->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS &&
	    ax->send_ops_flags) {
		uint64_t refused = 0;
		char names[160];

		/* Only when the QP can be made without them are they to
		 * blame; then each one alone tells. */
		t = *ax;
		t.send_ops_flags = 0;
		if (qp_try(ctx, pd, ex, &t))
			refused = refused_send_ops(ctx, pd, ex, ax);
		if (refused) {
			rs_call_hint(c, "send_ops %s: not supported by the "
				     "device, found by trial", send_ops_text(
				     refused, names, sizeof(names)));
			return;
		}
	}
	if (cap->max_inline_data) {
		uint32_t lo = 0, hi = cap->max_inline_data - 1;

		t = *ax;
		t.cap.max_inline_data = 0;
		if (!qp_try(ctx, pd, ex, &t))
			return;
		/* The largest accepted: lo always is, hi + 1 is not. */
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo + 1) / 2;

			t.cap.max_inline_data = mid;
			if (qp_try(ctx, pd, ex, &t))
				lo = mid;
			else
				hi = mid - 1;
		}
		rs_call_hint(c, "max_inline_data %u exceeds device limit %u, "
			     "found by trial: ibv_device_attr has no field "
			     "for it", cap->max_inline_data, lo);
	}
}

/* --- state changes -------------------------------------------------------- */

void rs_qp_attr_args(struct rs_call *c, const struct ibv_qp_attr *attr,
		     int mask, int skip)
{
	char buf[96];

	if (c->quiet)
		return;
	mask &= ~skip;
	if (mask & IBV_QP_STATE)
		rs_call_arg(c, "qp_state", "%s",
			    rs_qp_state_name(attr->qp_state));
	if (mask & IBV_QP_PKEY_INDEX)
		rs_call_arg(c, "pkey_index", "%u", attr->pkey_index);
	if (mask & IBV_QP_PORT)
		rs_call_arg(c, "port_num", "%u", attr->port_num);
	if (mask & IBV_QP_QKEY)
		rs_call_arg(c, "qkey", "0x%x", attr->qkey);
	if (mask & IBV_QP_ACCESS_FLAGS)
		rs_call_arg(c, "qp_access_flags", "%s",
			    rs_access_text(attr->qp_access_flags, buf,
					   sizeof(buf)));
	if (mask & IBV_QP_PATH_MTU)
		rs_call_arg(c, "path_mtu", "%u", 128u << attr->path_mtu);
	if (mask & IBV_QP_DEST_QPN)
		rs_call_arg(c, "dest_qp_num", "0x%x", attr->dest_qp_num);
	if (mask & IBV_QP_RQ_PSN)
		rs_call_arg(c, "rq_psn", "%u", attr->rq_psn);
	if (mask & IBV_QP_MAX_DEST_RD_ATOMIC)
		rs_call_arg(c, "max_dest_rd_atomic", "%u",
			    attr->max_dest_rd_atomic);
	if (mask & IBV_QP_MIN_RNR_TIMER)
		rs_call_arg(c, "min_rnr_timer", "%u", attr->min_rnr_timer);
	if (mask & IBV_QP_AV) {
		const struct ibv_ah_attr *ah = &attr->ah_attr;

		rs_call_arg(c, "ah_attr.port_num", "%u", ah->port_num);
		rs_call_arg(c, "ah_attr.sl", "%u", ah->sl);
		if (ah->static_rate)
			rs_call_arg(c, "ah_attr.static_rate", "%s",
				    rs_rate_name(ah->static_rate));
		if (ah->is_global) {
			inet_ntop(AF_INET6, ah->grh.dgid.raw, buf,
				  sizeof(buf));
			rs_call_arg(c, "ah_attr.grh.dgid", "%s", buf);
			rs_call_arg(c, "ah_attr.grh.sgid_index", "%u",
				    ah->grh.sgid_index);
			rs_call_arg(c, "ah_attr.grh.hop_limit", "%u",
				    ah->grh.hop_limit);
			rs_call_arg(c, "ah_attr.grh.traffic_class", "%u",
				    ah->grh.traffic_class);
			if (ah->grh.flow_label)
				rs_call_arg(c, "ah_attr.grh.flow_label", "%u",
					    ah->grh.flow_label);
		} else {
			rs_call_arg(c, "ah_attr.dlid", "%u", ah->dlid);
		}
	}
	if (mask & IBV_QP_TIMEOUT)
		rs_call_arg(c, "timeout", "%u", attr->timeout);
	if (mask & IBV_QP_RETRY_CNT)
		rs_call_arg(c, "retry_cnt", "%u", attr->retry_cnt);
	if (mask & IBV_QP_RNR_RETRY)
		rs_call_arg(c, "rnr_retry", "%u", attr->rnr_retry);
	if (mask & IBV_QP_SQ_PSN)
		rs_call_arg(c, "sq_psn", "%u", attr->sq_psn);
	if (mask & IBV_QP_MAX_QP_RD_ATOMIC)
		rs_call_arg(c, "max_rd_atomic", "%u", attr->max_rd_atomic);
}

/* Why a modify failed, when an attribute is over a device limit. */
static void modify_hint(struct rs_run *run, struct rs_live *l,
			struct rs_live *qp, struct rs_call *c,
			const struct ibv_qp_attr *attr, int mask)
{
	const struct rs_dev *dev = rs_live_dev(run, qp);
	const struct ibv_device_attr *a = &dev->attr.orig_attr;
	const char *who = l != qp ? qp->obj->name : "";
	const char *sep = l != qp ? ": " : "";

	if (mask & IBV_QP_MAX_QP_RD_ATOMIC &&
	    attr->max_rd_atomic > a->max_qp_init_rd_atom)
		rs_call_hint(c, "%s%smax_rd_atomic %u exceeds "
			     "max_qp_init_rd_atom %d", who, sep,
			     attr->max_rd_atomic, a->max_qp_init_rd_atom);
	else if (mask & IBV_QP_MAX_DEST_RD_ATOMIC &&
		 attr->max_dest_rd_atomic > a->max_qp_rd_atom)
		rs_call_hint(c, "%s%smax_dest_rd_atomic %u exceeds "
			     "max_qp_rd_atom %d", who, sep,
			     attr->max_dest_rd_atomic, a->max_qp_rd_atom);
	else if (mask & IBV_QP_PATH_MTU &&
		 attr->path_mtu > dev->port_attr.max_mtu)
		rs_call_hint(c, "%s%spath_mtu %u exceeds the port's max_mtu "
			     "%u", who, sep, 128u << attr->path_mtu,
			     128u << dev->port_attr.max_mtu);
	else if (mask & IBV_QP_PKEY_INDEX &&
		 attr->pkey_index >= dev->port_attr.pkey_tbl_len)
		rs_call_hint(c, "%s%spkey_index %u: the port's P_Key table "
			     "has %u entries", who, sep, attr->pkey_index,
			     dev->port_attr.pkey_tbl_len);
	else if (mask & IBV_QP_PORT && attr->port_num > a->phys_port_cnt)
		rs_call_hint(c, "%s%sport_num %u: the device has %u ports",
			     who, sep, attr->port_num, a->phys_port_cnt);
	else if (l != qp)
		rs_call_hint(c, "%s to %s", qp->obj->name,
			     rs_qp_state_name(attr->qp_state));
}

int rs_qp_modify(struct rs_run *run, struct rs_live *l, struct rs_live *qp,
		 struct rs_call *c, struct ibv_qp_attr *attr, int mask)
{
	struct rdmascn_qp qf;
	struct rs_qp_rt *rt;

	/* Through the facet: @qp may be a plugin's QP, whose rt is its
	 * own. */
	if (rs_as_qp(run, qp, &qf) || !qf.rt)
		return rs_live_error(run, l, ENODEV, "'%s' is not a QP made "
				     "here", qp->obj->id);
	rt = qf.rt;
	if (rs_call_go(run, l, c)) {
		RS_CALL_INT(c, ibv_modify_qp(rt->qp, attr, mask));
		if (!c->ok)
			modify_hint(run, l, qp, c, attr, mask);
	}
	if (c->ok && mask & IBV_QP_STATE)
		rt->state = attr->qp_state;
	return rs_call_done(run, l, c);
}

/* UD and raw packet QPs: RESET -> INIT -> RTR -> RTS, as a UD QP made
 * by librdmacm is. */
static int qp_to_rts(struct rs_run *run, struct rs_live *l, uint8_t port)
{
	const struct rs_qp *q = l->obj->data;
	bool ud = q->type == RS_QPT_UD;
	static const enum ibv_qp_state steps[] = {
		IBV_QPS_INIT, IBV_QPS_RTR, IBV_QPS_RTS,
	};

	for (size_t i = 0; i < RS_N(steps); i++) {
		struct ibv_qp_attr attr = { .qp_state = steps[i] };
		int mask = IBV_QP_STATE, r;
		struct rs_call c;

		if (steps[i] == IBV_QPS_INIT) {
			attr.port_num = port;
			mask |= IBV_QP_PORT;
			if (ud) {
				attr.pkey_index = q->pkey_index;
				attr.qkey = q->qkey;
				mask |= IBV_QP_PKEY_INDEX | IBV_QP_QKEY;
			}
		} else if (steps[i] == IBV_QPS_RTS && ud) {
			attr.sq_psn = 0;
			mask |= IBV_QP_SQ_PSN;
		}
		rs_call_init(&c, RS_CALL_MODIFY, "ibv_modify_qp");
		rs_call_arg(&c, "qp", "%s", l->obj->id);
		rs_qp_attr_args(&c, &attr, mask, 0);
		r = rs_qp_modify(run, l, l, &c, &attr, mask);
		if (r)
			return r;
	}
	return 0;
}

/* --- ops ------------------------------------------------------------------ */

static int qp_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			 unsigned len)
{
	const struct rs_qp *q = l->obj->data;
	const struct rs_dev *dev = rs_live_dev(run, l);
	int need = rs_qp_type_feature(q->type);
	const struct rs_qp_cap *c = q->cap;

	if (dev && need >= 0 && !(rs_dev_features(&dev->attr) & 1u << need)) {
		snprintf(why, len, "%s qps (%s: %s)", rs_qp_type_name(q->type),
			 rs_feature_name(need), rs_feature_source(need));
		return -EOPNOTSUPP;
	}
	rs_dev_limit_count(run, l, RS_LIM_QP);
	if (!c)
		return 0;
	if (rs_dev_limit_value(run, l, "cap.max_send_wr", c->max_send_wr,
			       "max_qp_wr", why, len) ||
	    rs_dev_limit_value(run, l, "cap.max_recv_wr", c->max_recv_wr,
			       "max_qp_wr", why, len) ||
	    rs_dev_limit_value(run, l, "cap.max_send_sge", c->max_send_sge,
			       "max_sge", why, len) ||
	    rs_dev_limit_value(run, l, "cap.max_recv_sge", c->max_recv_sge,
			       "max_sge", why, len))
		return -E2BIG;
	return 0;
}

/* Through the facet: a plugin's CQ is a CQ here too. */
static struct ibv_cq *cq_of(struct rs_run *run, const char *id)
{
	struct rs_live *l = id ? rs_live_find(run, id) : NULL;
	struct rdmascn_cq cq;

	if (!l || rs_as_cq(l, &cq) || !cq.rt)
		return NULL;
	return cq.rt->cq;
}

static int qp_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_qp *q = l->obj->data;
	struct rs_qp_rt *rt = l->rt;
	struct rs_live *ctxl = rs_live_made_on(run, l);
	struct ibv_context *ctx = rs_as_context(ctxl);
	bool xrc = q->type == RS_QPT_XRC_SEND || q->type == RS_QPT_XRC_RECV;
	bool ex = q->ex || xrc;
	const char *recv_cq = q->recv_cq ? q->recv_cq :
			      q->type == RS_QPT_XRC_SEND ? NULL : q->send_cq;
	struct ibv_qp_init_attr_ex ax = {
		.qp_type = verbs_type(q->type),
		.sq_sig_all = q->sq_sig_all,
	};
	struct ibv_pd *pd = NULL;
	struct rs_srq_rt *srq = rs_rt(run, q->srq);
	char ops[160];
	bool made = false;
	struct rs_call c;
	uint8_t port;
	int r;

	qp_caps(l->obj, q, &ax.cap);
	if (q->type == RS_QPT_XRC_RECV) {
		struct rs_xrcd_rt *x = rs_rt(run, q->xrcd);

		ax.comp_mask = IBV_QP_INIT_ATTR_XRCD;
		ax.xrcd = x ? x->xrcd : NULL;
	} else {
		pd = rs_live_pd(run, q->pd);
		ax.comp_mask = IBV_QP_INIT_ATTR_PD;
		ax.pd = pd;
		ax.send_cq = cq_of(run, q->send_cq);
		ax.recv_cq = cq_of(run, recv_cq);
		ax.srq = srq ? srq->srq : NULL;
	}
	if (q->ex) {
		/* Without SEND_OPS_FLAGS there is no ibv_qp_ex to post
		 * with, so an ex QP always asks for its send_ops (maybe
		 * none). */
		ax.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		ax.send_ops_flags = q->send_ops;
	}

	rs_call_init(&c, RS_CALL_CREATE, ex ? "ibv_create_qp_ex" :
		     "ibv_create_qp");
	if (ex)
		rs_call_arg(&c, "context", "%s", ctxl->obj->id);
	if (q->pd)
		rs_call_arg(&c, "pd", "%s", q->pd);
	if (q->xrcd)
		rs_call_arg(&c, "xrcd", "%s", q->xrcd);
	rs_call_arg(&c, "qp_type", "%s", rs_qp_type_name(q->type));
	if (q->send_cq)
		rs_call_arg(&c, "send_cq", "%s", q->send_cq);
	if (recv_cq)
		rs_call_arg(&c, "recv_cq", "%s", recv_cq);
	if (q->srq)
		rs_call_arg(&c, "srq", "%s", q->srq);
	rs_call_arg(&c, "max_send_wr", "%u", ax.cap.max_send_wr);
	rs_call_arg(&c, "max_recv_wr", "%u", ax.cap.max_recv_wr);
	rs_call_arg(&c, "max_send_sge", "%u", ax.cap.max_send_sge);
	rs_call_arg(&c, "max_recv_sge", "%u", ax.cap.max_recv_sge);
	rs_call_arg(&c, "max_inline_data", "%u", ax.cap.max_inline_data);
	if (q->sq_sig_all)
		rs_call_arg(&c, "sq_sig_all", "1");
	if (ex)
		rs_call_arg(&c, "comp_mask", "%s%s",
			    ax.comp_mask & IBV_QP_INIT_ATTR_PD ? "PD" : "XRCD",
			    q->ex ? "|SEND_OPS_FLAGS" : "");
	if (q->ex)
		rs_call_arg(&c, "send_ops_flags", "%s",
			    send_ops_text(q->send_ops, ops, sizeof(ops)));
	if (rs_call_go(run, l, &c)) {
		made = true;
		if (ex) {
			struct ibv_qp_init_attr_ex want = ax;

			RS_CALL_PTR(&c, rt->qp, ibv_create_qp_ex(ctx, &ax));
			if (!c.ok)
				ax = want;
		} else {
			struct ibv_qp_init_attr ia = {
				.send_cq = ax.send_cq, .recv_cq = ax.recv_cq,
				.srq = ax.srq, .cap = ax.cap,
				.qp_type = ax.qp_type,
				.sq_sig_all = ax.sq_sig_all,
			};

			RS_CALL_PTR(&c, rt->qp, ibv_create_qp(pd, &ia));
			if (c.ok)
				ax.cap = ia.cap;
		}
	}
	if (made && !c.ok && (c.err == EINVAL || c.err == EOPNOTSUPP))
		create_hint(run, l, &c, ctx, pd, ex, &ax);
	r = rs_call_done(run, l, &c);
	if (r)
		return r;
	rt->cap = ax.cap;
	rt->qkey = q->qkey;
	rt->state = IBV_QPS_RESET;
	if (rt->qp && q->ex)
		rt->qpx = ibv_qp_to_qp_ex(rt->qp);
	if (q->type != RS_QPT_UD && q->type != RS_QPT_RAW_PACKET)
		return 0;
	if (q->port)
		port = q->port;
	else if (run->dry_run)
		port = ((const struct rs_context *)
			rs_live_context(run, l)->obj->data)->port ?: 1;
	else
		port = rs_live_dev(run, l)->port;
	return qp_to_rts(run, l, port);
}

static void qp_destroy(struct rs_run *run, struct rs_live *l)
{
	struct rs_qp_rt *rt = l->rt;
	struct rs_call c;

	if (!rt->qp && !run->dry_run)
		return;
	rs_call_init(&c, RS_CALL_DESTROY, "ibv_destroy_qp");
	rs_call_arg(&c, "qp", "%s", l->obj->id);
	if (rs_call_go(run, l, &c))
		RS_CALL_INT(&c, ibv_destroy_qp(rt->qp));
	rt->qp = NULL;
	rt->qpx = NULL;
	rs_call_done(run, l, &c);
}

/* A QP's facts as describe found them, made members when the record is
 * written or read (as nodes, 2.4 M instructions at N=1000). */
struct qp_facts {
	struct ibv_qp_cap cap;
	uint32_t qpn, qkey;
	enum ibv_qp_state state;
	uint8_t type;
};

static unsigned qp_facts_fields(const void *data, struct rs_val_field *f,
				void *room)
{
	const struct qp_facts *qf = data;
	char *hex = room;
	const char *type = rs_qp_type_name(qf->type);
	const char *state = rs_qp_state_name(qf->state);
	unsigned n = 0;

	rs_hex(qf->qpn, 6, hex);
	f[n++] = RS_VAL_F_STR("qpn", hex, strlen(hex));
	f[n++] = RS_VAL_F_STR("type", type, strlen(type));
	f[n++] = RS_VAL_F_U64("max_send_wr", qf->cap.max_send_wr);
	f[n++] = RS_VAL_F_U64("max_recv_wr", qf->cap.max_recv_wr);
	f[n++] = RS_VAL_F_U64("max_send_sge", qf->cap.max_send_sge);
	f[n++] = RS_VAL_F_U64("max_recv_sge", qf->cap.max_recv_sge);
	f[n++] = RS_VAL_F_U64("max_inline_data", qf->cap.max_inline_data);
	f[n++] = RS_VAL_F_STR("state", state, strlen(state));
	if (qf->type == RS_QPT_UD) {
		hex += RS_HEX_MAX;
		rs_hex(qf->qkey, 1, hex);
		f[n++] = RS_VAL_F_STR("qkey", hex, strlen(hex));
	}
	return n;
}

static const struct rs_val_struct qp_facts_ops = {
	.fields = qp_facts_fields,
};

static void qp_describe(struct rs_run *run, struct rs_live *l,
			struct rs_val *v)
{
	const struct rs_qp *q = l->obj->data;
	struct rs_qp_rt *rt = l->rt;
	struct qp_facts *qf;

	(void)run;
	if (!rt->qp)
		return;
	qf = rs_val_obj_struct(v, &qp_facts_ops, sizeof(*qf));
	if (!qf)
		return;
	qf->qpn = rt->qp->qp_num;
	qf->type = (uint8_t)q->type;
	qf->cap = rt->cap;
	/* Every state change is an ibv_modify_qp() of ours (rdma_cm
	 * connections too), and rs_qp_modify() keeps the state each one
	 * that succeeded set: asking the device again (ibv_query_qp) was
	 * one more system call per QP for the same answer. */
	qf->state = rt->state;
	qf->qkey = rt->qkey;
}

static int qp_as_qp(struct rs_live *l, struct rdmascn_qp *ret)
{
	const struct rs_qp *q = l->obj->data;

	memset(ret, 0, sizeof(*ret));
	ret->rt = l->rt;
	ret->type = q->type;
	ret->ex = q->ex;
	ret->send_ops = q->send_ops;
	ret->port = q->port;
	ret->pkey_index = q->pkey_index;
	ret->send_cq = q->send_cq;
	ret->recv_cq = q->recv_cq ? q->recv_cq : q->send_cq;
	ret->srq = q->srq;
	ret->srq_posts = q->srq != NULL;
	if (q->type == RS_QPT_XRC_RECV)
		ret->recv_xrcd = q->xrcd;
	return 0;
}

const struct rdmascn_ops rs_ops_qp = {
	.rt_size = sizeof(struct rs_qp_rt),
	.check_caps = qp_check_caps,
	.create = qp_create,
	.destroy = qp_destroy,
	.describe = qp_describe,
	.as_qp = qp_as_qp,
};
