// SPDX-License-Identifier: MIT
/*
 * parent_domains: ibv_alloc_parent_domain() over a pd, with a thread
 * domain from ibv_alloc_td() when `td: true`, and with the engine's
 * allocators when `alloc:` is given.  The result is an ibv_pd that stands
 * wherever a pd does (rs_live_pd()); it is released with
 * ibv_dealloc_pd(), then the thread domain.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "live.h"
#include "value.h"

/*
 * The allocators (IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS): the provider
 * asks them for the buffers of what is created on the parent domain
 * (QP and CQ rings, doorbells).  Each call is counted; `alloc: counted`
 * leaves the buffer to the provider (IBV_ALLOCATOR_USE_DEFAULT, and the
 * provider frees it without a call), `alloc: engine` allocates it here,
 * aligned and zeroed, as pyverbs' example does, and frees it when the
 * provider gives it back.
 */
static void *pd_alloc(struct ibv_pd *pd, void *pd_context, size_t size,
		      size_t alignment, uint64_t resource_type)
{
	struct rs_parent_domain_rt *rt = pd_context;
	void *p;

	(void)pd;
	(void)resource_type;
	rt->alloc_calls++;
	rt->alloc_bytes += size;
	if (rt->alloc != RS_PD_ALLOC_ENGINE) {
		rt->alloc_default++;
		return IBV_ALLOCATOR_USE_DEFAULT;
	}
	if (alignment < sizeof(void *))
		alignment = sizeof(void *);
	if (posix_memalign(&p, alignment, size ? size : 1))
		return NULL;
	memset(p, 0, size);
	return p;
}

static void pd_free(struct ibv_pd *pd, void *pd_context, void *ptr,
		    uint64_t resource_type)
{
	struct rs_parent_domain_rt *rt = pd_context;

	(void)pd;
	(void)resource_type;
	rt->free_calls++;
	free(ptr);
}

static void set_allocators(struct ibv_parent_domain_init_attr *ia,
			   struct rs_parent_domain_rt *rt)
{
	ia->comp_mask |= IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS;
	ia->alloc = pd_alloc;
	ia->free = pd_free;
	ia->pd_context = rt;
}

/*
 * No device attribute says whether a provider has parent domains (rxe
 * has none), so ask it: a trial on a context of our own, released at
 * once, before the scenario creates anything.  Other errors are left to
 * the create, which reports them in place.
 */
static int parent_domain_check_caps(struct rs_run *run, struct rs_live *l,
				    char *why, unsigned len)
{
	const struct rs_parent_domain *p = l->obj->data;
	struct rs_dev *dev = rs_live_dev(run, l);
	struct ibv_td_init_attr ta = { .comp_mask = 0 };
	struct ibv_parent_domain_init_attr ia = { 0 };
	struct rs_parent_domain_rt counts = { .alloc = p->alloc };
	struct ibv_context *ctx;
	struct ibv_pd *pad = NULL;
	int ret = 0;

	if (!dev || !dev->device || !(ctx = ibv_open_device(dev->device)))
		return 0;
	ia.pd = ibv_alloc_pd(ctx);
	if (ia.pd && p->td) {
		ia.td = ibv_alloc_td(ctx, &ta);
		if (!ia.td && errno == EOPNOTSUPP) {
			snprintf(why, len, "thread domains (a trial "
				 "ibv_alloc_td: Operation not supported)");
			ret = -EOPNOTSUPP;
		}
	}
	if (p->alloc)
		set_allocators(&ia, &counts);
	if (ia.pd && !ret) {
		pad = ibv_alloc_parent_domain(ctx, &ia);
		if (!pad && errno == EOPNOTSUPP) {
			snprintf(why, len, "parent domains (a trial "
				 "ibv_alloc_parent_domain: Operation not "
				 "supported)");
			ret = -EOPNOTSUPP;
		}
	}
	if (pad)
		ibv_dealloc_pd(pad);
	if (ia.td)
		ibv_dealloc_td(ia.td);
	if (ia.pd)
		ibv_dealloc_pd(ia.pd);
	ibv_close_device(ctx);
	return ret;
}

static int parent_domain_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_parent_domain *p = l->obj->data;
	struct rs_parent_domain_rt *rt = l->rt;
	struct rs_live *cl = rs_live_made_on(run, l);
	struct ibv_context *ctx = rs_as_context(cl);
	struct ibv_parent_domain_init_attr ia = {
		.pd = rs_live_pd(run, p->pd),
	};
	struct rs_call c;
	int ret;

	if (p->td) {
		struct ibv_td_init_attr ta = { .comp_mask = 0 };

		rs_call_init(&c, RS_CALL_CREATE, "ibv_alloc_td");
		rs_call_arg(&c, "context", "%s", cl->obj->id);
		if (rs_call_go(run, l, &c))
			RS_CALL_PTR(&c, rt->td, ibv_alloc_td(ctx, &ta));
		if (!c.ok && c.err == EOPNOTSUPP && !c.hint[0])
			rs_call_hint(&c, "the provider has no thread domains");
		ret = rs_call_done(run, l, &c);
		if (ret)
			return ret;
	}
	ia.td = rt->td;
	rt->alloc = p->alloc;
	if (p->alloc)
		set_allocators(&ia, rt);
	rs_call_init(&c, RS_CALL_CREATE, "ibv_alloc_parent_domain");
	rs_call_arg(&c, "pd", "%s", p->pd);
	rs_call_arg(&c, "td", "%s", p->td ? "yes" : "none");
	rs_call_arg(&c, "comp_mask", "%s", p->alloc ? "ALLOCATORS" : "0");
	if (p->alloc)
		rs_call_arg(&c, "alloc", "%s", p->alloc == RS_PD_ALLOC_ENGINE ?
			    "engine (posix_memalign)" :
			    "counted (IBV_ALLOCATOR_USE_DEFAULT)");
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->pd, ibv_alloc_parent_domain(ctx, &ia));
	if (!c.ok && c.err == EOPNOTSUPP && !c.hint[0])
		rs_call_hint(&c, "the provider has no parent domains");
	return rs_call_done(run, l, &c);
}

/* The allocators' counts so far. */
static void put_counts(struct rs_val *v, const struct rs_parent_domain_rt *rt)
{
	rs_val_put_u64(v, "alloc_calls", rt->alloc_calls);
	rs_val_put_u64(v, "alloc_bytes", rt->alloc_bytes);
	rs_val_put_u64(v, "alloc_default", rt->alloc_default);
	rs_val_put_u64(v, "free_calls", rt->free_calls);
}

static void parent_domain_destroy(struct rs_run *run, struct rs_live *l)
{
	const struct rs_parent_domain *p = l->obj->data;
	struct rs_parent_domain_rt *rt = l->rt;
	struct rs_val *down = NULL;

	/* What was created on it is gone by now (teardown is the reverse
	 * of creation): the counts are final. */
	if (p->alloc && rt->pd)
		down = rs_live_down(run, l);
	if (down)
		put_counts(rs_val_put_obj(down, "facts"), rt);

	RS_CALL_RELEASE(run, l, ibv_dealloc_pd, rt->pd);
	/* A dry run prints what it would release, and there is a thread
	 * domain only with td: true. */
	if (rt->td || p->td)
		RS_CALL_RELEASE(run, l, ibv_dealloc_td, rt->td);
}

static void parent_domain_describe(struct rs_run *run, struct rs_live *l,
				   struct rs_val *v)
{
	const struct rs_parent_domain *p = l->obj->data;
	struct rs_parent_domain_rt *rt = l->rt;

	(void)run;
	rs_val_put_str(v, "pd", p->pd);
	rs_val_put_bool(v, "td", rt->td != NULL);
	if (p->alloc) {
		rs_val_put_str(v, "alloc", p->alloc == RS_PD_ALLOC_ENGINE ?
			       "engine" : "counted");
		put_counts(v, rt);
	}
}

/* It stands wherever a pd does. */
static int parent_domain_as_pd(struct rs_live *l, struct rdmascn_pd *ret)
{
	ret->pd = ((struct rs_parent_domain_rt *)l->rt)->pd;
	return 0;
}

const struct rdmascn_ops rs_ops_parent_domain = {
	.rt_size = sizeof(struct rs_parent_domain_rt),
	.check_caps = parent_domain_check_caps,
	.create = parent_domain_create,
	.destroy = parent_domain_destroy,
	.describe = parent_domain_describe,
	.as_pd = parent_domain_as_pd,
};
