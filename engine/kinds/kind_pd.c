// SPDX-License-Identifier: MIT
/* pds: ibv_alloc_pd() on the context. */
#include <errno.h>

#include "kinds.h"
#include "live.h"
#include "value.h"

static int pd_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_pd *p = l->obj->data;
	struct rs_context_rt *ctx = rs_rt(run, p->context);
	struct rs_pd_rt *rt = l->rt;
	struct rs_call c;

	rs_call_init(&c, RS_CALL_CREATE, "ibv_alloc_pd");
	rs_call_arg(&c, "context", "%s", p->context);
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->pd, ibv_alloc_pd(ctx->ctx));
	return rs_call_done(run, l, &c);
}

static void pd_destroy(struct rs_run *run, struct rs_live *l)
{
	struct rs_pd_rt *rt = l->rt;

	RS_CALL_RELEASE(run, l, ibv_dealloc_pd, rt->pd);
}

static void pd_describe(struct rs_run *run, struct rs_live *l,
			struct rs_val *v)
{
	struct rs_pd_rt *rt = l->rt;

	(void)run;
	rs_val_put_u64(v, "handle", rt->pd->handle);
}

static struct ibv_pd *pd_as_pd(struct rs_live *l)
{
	return ((struct rs_pd_rt *)l->rt)->pd;
}

const struct rdmascn_ops rs_ops_pd = {
	.rt_size = sizeof(struct rs_pd_rt),
	.create = pd_create,
	.destroy = pd_destroy,
	.describe = pd_describe,
	.as_pd = pd_as_pd,
};
