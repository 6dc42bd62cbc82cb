// SPDX-License-Identifier: MIT
/*
 * What a plugin's kinds call on a device (rdmascn/plugin.h, qp.h, mem.h):
 * the live objects as opaque handles, the handles the steps use made for
 * a plugin's QPs, CQs and memory, and the call wrapper of call.c, so a
 * plugin's create and destroy are printed, numbered, failed on demand
 * and reported exactly as the core kinds' are.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "caps.h"
#include "live.h"
#include "schema.h"
#include "public_names.h"
#include "rdmascn/plugin.h"
#include "rdmascn/mem.h"
#include "rdmascn/qp.h"

#define API __attribute__((visibility("default")))

API const void *rdmascn_live_data(const struct rs_live *l)
{
	return l->obj->data;
}

API void *rdmascn_live_rt(struct rs_live *l)
{
	return l->rt;
}

API const char *rdmascn_live_id(const struct rs_live *l)
{
	return l->obj->id;
}

API struct rs_live *rdmascn_live_find(struct rs_run *run, const char *id)
{
	return id ? rs_live_find(run, id) : NULL;
}

API struct ibv_device *rdmascn_live_device(struct rs_run *run,
					   struct rs_live *l)
{
	struct rs_dev *dev = run->dry_run ? NULL : rs_live_dev(run, l);

	return dev ? dev->device : NULL;
}

API bool rdmascn_live_has_feature(struct rs_run *run, struct rs_live *l,
				  const char *feature)
{
	struct rs_dev *dev = rs_live_dev(run, l);
	int bit = rs_feature_find(feature);

	return dev && bit >= 0 && dev->features & 1u << bit;
}

API bool rdmascn_dry_run(const struct rs_run *run)
{
	return run->dry_run;
}

API int rdmascn_live_error(struct rs_run *run, struct rs_live *l, int err,
			   const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rs_live_error(run, l, err, "%s", msg);
}

API struct ibv_context *rdmascn_live_verbs_context(struct rs_run *run,
						   struct rs_live *l)
{
	return run->dry_run ? NULL : rs_live_ibv_context(run, l);
}

API struct rs_cq_rt *rdmascn_cq_handle_new(struct ibv_cq_ex *cq_ex,
					   struct ibv_comp_channel *channel,
					   uint64_t wc_flags)
{
	struct rs_cq_rt *rt = rs_calloc(1, sizeof(*rt));

	if (!rt)
		return NULL;
	rt->cq_ex = cq_ex;
	rt->cq = cq_ex ? ibv_cq_ex_to_cq(cq_ex) : NULL;
	rt->channel = channel;
	rt->wc_flags = wc_flags;
	return rt;
}

API void rdmascn_cq_handle_free(struct rs_cq_rt *rt)
{
	if (!rt)
		return;
	if (rt->cq && rt->unacked)
		ibv_ack_cq_events(rt->cq, rt->unacked);
	rs_free(rt);
}

API struct rs_qp_rt *rdmascn_qp_handle_new(struct ibv_qp *qp,
					   struct ibv_qp_ex *qpx,
					   const struct ibv_qp_cap *cap,
					   uint32_t qkey)
{
	struct rs_qp_rt *rt = rs_calloc(1, sizeof(*rt));

	if (!rt)
		return NULL;
	rt->qp = qp;
	rt->qpx = qpx;
	if (cap)
		rt->cap = *cap;
	rt->qkey = qkey;
	rt->state = IBV_QPS_RESET;
	return rt;
}

API void rdmascn_qp_handle_set_state(struct rs_qp_rt *rt,
				     enum ibv_qp_state state)
{
	if (rt)
		rt->state = state;
}

API void rdmascn_qp_handle_free(struct rs_qp_rt *rt)
{
	rs_free(rt);
}

API struct ibv_qp *rdmascn_live_ibv_qp(struct rs_run *run, struct rs_live *l)
{
	struct rdmascn_qp q = { 0 };

	if (!l || rs_as_qp(run, l, &q) || !q.rt)
		return NULL;
	return q.rt->qp;
}

API struct rdmascn_call *rdmascn_call_new(enum rdmascn_call_class cls,
					  const char *name)
{
	struct rdmascn_call *c = rs_malloc(sizeof(*c));

	if (c)
		rs_call_init(&c->c, (enum rs_call_class)cls, name);
	return c;
}

API void rdmascn_call_arg(struct rdmascn_call *c, const char *key,
			  const char *fmt, ...)
{
	char val[sizeof(c->c.args)];
	va_list ap;

	if (!c || c->c.quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	rs_call_arg(&c->c, key, "%s", val);
}

API void rdmascn_call_hint(struct rdmascn_call *c, const char *fmt, ...)
{
	char val[sizeof(c->c.hint)];
	va_list ap;

	if (!c)
		return;
	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	rs_call_hint(&c->c, "%s", val);
}

API bool rdmascn_call_go(struct rs_run *run, struct rs_live *l,
			 struct rdmascn_call *c)
{
	return c && rs_call_go(run, l, &c->c);
}

API void rdmascn_call_result(struct rdmascn_call *c, int err)
{
	if (!c)
		return;
	rs_call_returned(&c->c);
	c->c.ok = !err;
	c->c.err = err;
}

API int rdmascn_call_done(struct rs_run *run, struct rs_live *l,
			  struct rdmascn_call *c)
{
	int r;

	if (!c)
		return rs_live_error(run, l, ENOMEM, "out of memory");
	r = rs_call_done(run, l, &c->c);
	rs_free(c);
	return r;
}

/* --- what a plugin's QP is made on (rdmascn/qp.h) --------------------------- */

_Static_assert(RDMASCN_QPT_RC == (int)RS_QPT_RC &&
	       RDMASCN_QPT_UD == (int)RS_QPT_UD &&
	       RDMASCN_QPT_XRC_RECV == (int)RS_QPT_XRC_RECV &&
	       RDMASCN_QPT_RAW_PACKET == (int)RS_QPT_RAW_PACKET,
	       "rdmascn/qp.h's QP types are the language's");

API struct rs_mr_rt *rdmascn_mem_handle_new(struct ibv_mr *mr, uint64_t addr,
					    size_t length, void *buf)
{
	struct rs_mr_rt *rt = rs_calloc(1, sizeof(*rt));

	if (!rt)
		return NULL;
	rt->mr = mr;
	rt->addr = addr;
	rt->length = length;
	rt->buf = buf;
	return rt;
}

API void rdmascn_mem_handle_free(struct rs_mr_rt *rt)
{
	rs_free(rt);
}

API struct rs_mr_rt *rdmascn_live_mem(struct rs_run *run, const char *id)
{
	return id ? rs_as_mem(rs_live_find(run, id)) : NULL;
}

API const struct ibv_mr *rdmascn_mem_mr(const struct rs_mr_rt *rt)
{
	return rt ? rt->mr : NULL;
}

API uint64_t rdmascn_mem_addr(const struct rs_mr_rt *rt)
{
	return rt ? rt->addr : 0;
}

API struct ibv_pd *rdmascn_live_pd(struct rs_run *run, const char *id)
{
	return id ? rs_live_pd(run, id) : NULL;
}

API struct ibv_cq *rdmascn_live_cq(struct rs_run *run, const char *id)
{
	struct rdmascn_cq cf;

	if (!id || rs_as_cq(rs_live_find(run, id), &cf) || !cf.rt)
		return NULL;
	return cf.rt->cq;
}

API struct ibv_srq *rdmascn_live_srq(struct rs_run *run, const char *id)
{
	struct rdmascn_srq sf;

	if (!id || rs_as_srq(rs_live_find(run, id), &sf))
		return NULL;
	return sf.srq;
}

API void rdmascn_live_port(struct rs_run *run, struct rs_live *l,
			   struct rdmascn_port *ret)
{
	struct rs_dev *dev = run->dry_run ? NULL : rs_live_dev(run, l);

	memset(ret, 0, sizeof(*ret));
	ret->port = dev ? dev->port : 1;
	ret->gid_index = dev ? dev->gid_index : 0;
	if (dev)
		ret->gid = dev->gid;
}
