// SPDX-License-Identifier: MIT
/* mws: ibv_alloc_mw() on the pd; bound later by the bind_mw step. */
#include <errno.h>

#include "caps.h"
#include "kinds.h"
#include "live.h"
#include "schema.h"
#include "value.h"

static int mw_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			 unsigned len)
{
	const struct rs_mw *w = l->obj->data;
	const struct rs_dev *dev = rs_live_dev(run, l);
	unsigned feat = w->type == IBV_MW_TYPE_2 ? RS_FEAT_MW_TYPE2 :
			RS_FEAT_MW_TYPE1;

	if (dev && !(rs_dev_features(&dev->attr) & 1u << feat)) {
		snprintf(why, len, "%s (%s)", rs_feature_name(feat),
			 feat == RS_FEAT_MW_TYPE2 ?
			 "IBV_DEVICE_MEM_WINDOW_TYPE_2A/2B in "
			 "device_cap_flags" : "max_mw is 0");
		return -EOPNOTSUPP;
	}
	rs_dev_limit_count(run, l, RS_LIM_MW);
	return 0;
}

static int mw_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_mw *w = l->obj->data;
	struct rs_mw_rt *rt = l->rt;
	struct ibv_pd *pd = rs_live_pd(run, w->pd);
	struct rs_call c;

	rs_call_init(&c, RS_CALL_CREATE, "ibv_alloc_mw");
	rs_call_arg(&c, "pd", "%s", w->pd);
	rs_call_arg(&c, "type", "%s", w->type == IBV_MW_TYPE_2 ?
		    "IBV_MW_TYPE_2" : "IBV_MW_TYPE_1");
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->mw, ibv_alloc_mw(pd, w->type));
	if (rt->mw)
		rt->rkey = rt->mw->rkey;
	return rs_call_done(run, l, &c);
}

static void mw_destroy(struct rs_run *run, struct rs_live *l)
{
	struct rs_mw_rt *rt = l->rt;

	RS_CALL_RELEASE(run, l, ibv_dealloc_mw, rt->mw);
}

static void mw_describe(struct rs_run *run, struct rs_live *l,
			struct rs_val *v)
{
	const struct rs_mw *w = l->obj->data;
	struct rs_mw_rt *rt = l->rt;

	(void)run;
	rs_val_put_u64(v, "type", w->type == IBV_MW_TYPE_2 ? 2 : 1);
	rs_val_put_strf(v, "rkey", "0x%x", rt->rkey);
}

static int mw_as_mw(struct rs_live *l, struct rdmascn_mw *ret)
{
	ret->rt = l->rt;
	return 0;
}

const struct rdmascn_ops rs_ops_mw = {
	.rt_size = sizeof(struct rs_mw_rt),
	.check_caps = mw_check_caps,
	.create = mw_create,
	.destroy = mw_destroy,
	.describe = mw_describe,
	.as_mw = mw_as_mw,
};
