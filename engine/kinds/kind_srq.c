// SPDX-License-Identifier: MIT
/*
 * srqs: ibv_create_srq() for a basic SRQ; ibv_create_srq_ex() for an XRC
 * SRQ (in an XRC domain, with its own CQ) or a tag-matching one.  The
 * create verbs do not arm the limit: a srq_limit is set afterwards with
 * ibv_modify_srq(IBV_SRQ_LIMIT), as ibv_modify_srq(3) describes.
 */
#include <errno.h>

#include "caps.h"
#include "kinds.h"
#include "live.h"
#include "schema.h"
#include "value.h"

static const char *type_name(int type)
{
	return type == IBV_SRQT_XRC ? "IBV_SRQT_XRC" :
	       type == IBV_SRQT_TM ? "IBV_SRQT_TM" : "IBV_SRQT_BASIC";
}

static int srq_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			  unsigned len)
{
	const struct rs_srq *s = l->obj->data;
	const struct rs_dev *dev = rs_live_dev(run, l);
	uint32_t feats;

	if (!dev)
		return 0;
	feats = rs_dev_features(&dev->attr);
	if (!(feats & 1u << RS_FEAT_SRQ)) {
		snprintf(why, len, "srq (%s is 0)",
			 rs_feature_source(RS_FEAT_SRQ));
		return -EOPNOTSUPP;
	}
	if (s->type == IBV_SRQT_XRC && !(feats & 1u << RS_FEAT_XRC)) {
		snprintf(why, len, "xrc for an xrc srq (%s in "
			 "device_cap_flags)", rs_feature_source(RS_FEAT_XRC));
		return -EOPNOTSUPP;
	}
	if (s->type == IBV_SRQT_TM && !dev->attr.tm_caps.max_num_tags) {
		snprintf(why, len, "tag_matching for a tm srq "
			 "(tm_caps.max_num_tags is 0)");
		return -EOPNOTSUPP;
	}
	rs_dev_limit_count(run, l, RS_LIM_SRQ);
	if (rs_dev_limit_value(run, l, "max_wr", s->max_wr, "max_srq_wr",
			       why, len) ||
	    rs_dev_limit_value(run, l, "max_sge", s->max_sge, "max_srq_sge",
			       why, len))
		return -E2BIG;
	return 0;
}

static void srq_hint(struct rs_run *run, struct rs_live *l,
		     struct rs_call *c)
{
	const struct rs_srq *s = l->obj->data;
	const struct rs_dev *dev = rs_live_dev(run, l);
	const struct ibv_device_attr *a = dev ? &dev->attr.orig_attr : NULL;

	if (c->ok || c->hint[0] || !a)
		return;
	if (s->max_wr > (uint32_t)a->max_srq_wr)
		rs_call_hint(c, "max_wr %u exceeds max_srq_wr %d", s->max_wr,
			     a->max_srq_wr);
	else if (s->max_sge > (uint32_t)a->max_srq_sge)
		rs_call_hint(c, "max_sge %u exceeds max_srq_sge %d",
			     s->max_sge, a->max_srq_sge);
	else if (s->type == IBV_SRQT_TM &&
		 s->max_num_tags > dev->attr.tm_caps.max_num_tags)
		rs_call_hint(c, "max_num_tags %u exceeds tm_caps.max_num_tags "
			     "%u", s->max_num_tags,
			     dev->attr.tm_caps.max_num_tags);
	else if (s->type == IBV_SRQT_TM &&
		 s->max_ops > dev->attr.tm_caps.max_ops)
		rs_call_hint(c, "max_ops %u exceeds tm_caps.max_ops %u",
			     s->max_ops, dev->attr.tm_caps.max_ops);
}

static int srq_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_srq *s = l->obj->data;
	struct rs_srq_rt *rt = l->rt;
	struct ibv_pd *pd = rs_live_pd(run, s->pd);
	/* A receive needs one scatter entry; 0 would make an SRQ no
	 * receive can be posted to on some providers. */
	struct ibv_srq_attr attr = {
		.max_wr = s->max_wr,
		.max_sge = s->max_sge ? s->max_sge : 1,
		.srq_limit = s->srq_limit,
	};
	struct rs_call c;
	int ret;

	if (s->type == IBV_SRQT_BASIC) {
		struct ibv_srq_init_attr ia = { .attr = attr };

		rs_call_init(&c, RS_CALL_CREATE, "ibv_create_srq");
		rs_call_arg(&c, "pd", "%s", s->pd);
		rs_call_arg(&c, "max_wr", "%u", attr.max_wr);
		rs_call_arg(&c, "max_sge", "%u", attr.max_sge);
		if (rs_call_go(run, l, &c))
			RS_CALL_PTR(&c, rt->srq, ibv_create_srq(pd, &ia));
		rt->attr = ia.attr;
	} else {
		struct rs_live *cql = s->cq ? rs_live_find(run, s->cq) : NULL;
		struct rdmascn_cq cqf = { 0 };
		struct rs_cq_rt *cq = cql && !rs_as_cq(cql, &cqf) ? cqf.rt :
				      NULL;
		struct rs_xrcd_rt *xrcd = rs_rt(run, s->xrcd);
		struct ibv_context *ctx = rs_live_ibv_context(run, l);
		struct ibv_srq_init_attr_ex ia = {
			.attr = attr,
			.comp_mask = IBV_SRQ_INIT_ATTR_TYPE |
				     IBV_SRQ_INIT_ATTR_PD |
				     IBV_SRQ_INIT_ATTR_CQ,
			.srq_type = s->type,
			.pd = pd,
			.cq = cq ? cq->cq : NULL,
		};

		if (s->type == IBV_SRQT_XRC) {
			ia.comp_mask |= IBV_SRQ_INIT_ATTR_XRCD;
			ia.xrcd = xrcd ? xrcd->xrcd : NULL;
		} else {
			ia.comp_mask |= IBV_SRQ_INIT_ATTR_TM;
			ia.tm_cap.max_num_tags = s->max_num_tags;
			ia.tm_cap.max_ops = s->max_ops;
		}
		rs_call_init(&c, RS_CALL_CREATE, "ibv_create_srq_ex");
		rs_call_arg(&c, "type", "%s", type_name(s->type));
		rs_call_arg(&c, "pd", "%s", s->pd);
		if (s->xrcd)
			rs_call_arg(&c, "xrcd", "%s", s->xrcd);
		rs_call_arg(&c, "cq", "%s", s->cq);
		rs_call_arg(&c, "max_wr", "%u", attr.max_wr);
		rs_call_arg(&c, "max_sge", "%u", attr.max_sge);
		if (s->type == IBV_SRQT_TM) {
			rs_call_arg(&c, "max_num_tags", "%u", s->max_num_tags);
			rs_call_arg(&c, "max_ops", "%u", s->max_ops);
		}
		if (rs_call_go(run, l, &c))
			RS_CALL_PTR(&c, rt->srq,
				    ibv_create_srq_ex(ctx, &ia));
		rt->attr = ia.attr;
	}
	srq_hint(run, l, &c);
	ret = rs_call_done(run, l, &c);
	if (ret)
		return ret;

	if (s->type == IBV_SRQT_XRC) {
		rs_call_init(&c, RS_CALL_QUERY, "ibv_get_srq_num");
		rs_call_arg(&c, "srq", "%s", l->obj->id);
		if (rs_call_go(run, l, &c))
			RS_CALL_INT(&c, ibv_get_srq_num(rt->srq, &rt->srq_num));
		ret = rs_call_done(run, l, &c);
		if (ret)
			return ret;
	}
	if (s->srq_limit) {
		struct ibv_srq_attr lim = { .srq_limit = s->srq_limit };

		rs_call_init(&c, RS_CALL_MODIFY, "ibv_modify_srq");
		rs_call_arg(&c, "srq", "%s", l->obj->id);
		rs_call_arg(&c, "srq_limit", "%u", s->srq_limit);
		rs_call_arg(&c, "mask", "IBV_SRQ_LIMIT");
		if (rs_call_go(run, l, &c))
			RS_CALL_INT(&c, ibv_modify_srq(rt->srq, &lim,
						       IBV_SRQ_LIMIT));
		rt->attr.srq_limit = s->srq_limit;
		ret = rs_call_done(run, l, &c);
	}
	return ret;
}

static void srq_destroy(struct rs_run *run, struct rs_live *l)
{
	struct rs_srq_rt *rt = l->rt;

	RS_CALL_RELEASE(run, l, ibv_destroy_srq, rt->srq);
}

static void srq_describe(struct rs_run *run, struct rs_live *l,
			 struct rs_val *v)
{
	const struct rs_srq *s = l->obj->data;
	struct rs_srq_rt *rt = l->rt;

	(void)run;
	rs_val_put_u64(v, "max_wr", rt->attr.max_wr);
	rs_val_put_u64(v, "max_sge", rt->attr.max_sge);
	if (rt->attr.srq_limit)
		rs_val_put_u64(v, "srq_limit", rt->attr.srq_limit);
	if (s->type == IBV_SRQT_XRC)
		rs_val_put_u64(v, "srq_num", rt->srq_num);
}

static int srq_as_srq(struct rs_live *l, struct rdmascn_srq *ret)
{
	const struct rs_srq *s = l->obj->data;
	struct rs_srq_rt *rt = l->rt;
	bool xrc = s->type == IBV_SRQT_XRC;

	ret->srq = rt->srq;
	ret->srq_num = rt->srq_num;
	ret->max_wr = s->max_wr;
	ret->cq = s->cq;
	ret->xrcd = xrc ? s->xrcd : NULL;
	return 0;
}

const struct rdmascn_ops rs_ops_srq = {
	.rt_size = sizeof(struct rs_srq_rt),
	.check_caps = srq_check_caps,
	.create = srq_create,
	.destroy = srq_destroy,
	.describe = srq_describe,
	.as_srq = srq_as_srq,
};
