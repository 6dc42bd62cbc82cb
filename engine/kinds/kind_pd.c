// SPDX-License-Identifier: MIT
/* pds: ibv_alloc_pd() on the context, or ibv_import_pd() of another pd
 * into an imported context (released with ibv_unimport_pd(), which
 * leaves the original to its own teardown). */
#include <errno.h>

#include "kinds.h"
#include "live.h"
#include "value.h"

static int pd_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			 unsigned len)
{
	const struct rs_pd *p = l->obj->data;

	if (p->import)
		return rs_import_trial(rs_live_dev(run, l), "pd", why, len);
	rs_dev_limit_count(run, l, RS_LIM_PD);
	return 0;
}

static int pd_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_pd *p = l->obj->data;
	struct ibv_context *ctx = rs_as_context(rs_live_find(run, p->context));
	struct rs_pd_rt *rt = l->rt;
	struct rs_call c;

	if (p->import) {
		struct ibv_pd *orig = rs_live_pd(run, p->import);

		rs_call_init(&c, RS_CALL_CREATE, "ibv_import_pd");
		rs_call_arg(&c, "context", "%s", p->context);
		rs_call_arg(&c, "pd_handle", "%s.handle", p->import);
		if (rs_call_go(run, l, &c))
			RS_CALL_PTR(&c, rt->pd, ibv_import_pd(ctx,
							      orig->handle));
		return rs_call_done(run, l, &c);
	}
	rs_call_init(&c, RS_CALL_CREATE, "ibv_alloc_pd");
	rs_call_arg(&c, "context", "%s", p->context);
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->pd, ibv_alloc_pd(ctx));
	return rs_call_done(run, l, &c);
}

static void pd_destroy(struct rs_run *run, struct rs_live *l)
{
	const struct rs_pd *p = l->obj->data;
	struct rs_pd_rt *rt = l->rt;
	struct rs_call c;

	if (!p->import) {
		RS_CALL_RELEASE(run, l, ibv_dealloc_pd, rt->pd);
		return;
	}
	if (!rt->pd && !run->dry_run)
		return;
	/* ibv_unimport_pd() returns nothing: it cannot fail. */
	rs_call_init(&c, RS_CALL_DESTROY, "ibv_unimport_pd");
	rs_call_arg(&c, "pd", "%s", l->obj->id);
	if (rs_call_go(run, l, &c)) {
		ibv_unimport_pd(rt->pd);
		rs_call_returned(&c);
		c.ok = true;
	}
	rt->pd = NULL;
	rs_call_done(run, l, &c);
}

static void pd_describe(struct rs_run *run, struct rs_live *l,
			struct rs_val *v)
{
	const struct rs_pd *p = l->obj->data;
	struct rs_pd_rt *rt = l->rt;

	(void)run;
	rs_val_put_u64(v, "handle", rt->pd->handle);
	if (p->import)
		rs_val_put_str(v, "import", p->import);
}

static int pd_as_pd(struct rs_live *l, struct rdmascn_pd *ret)
{
	ret->pd = ((struct rs_pd_rt *)l->rt)->pd;
	return 0;
}

const struct rdmascn_ops rs_ops_pd = {
	.rt_size = sizeof(struct rs_pd_rt),
	.check_caps = pd_check_caps,
	.create = pd_create,
	.destroy = pd_destroy,
	.describe = pd_describe,
	.as_pd = pd_as_pd,
};
