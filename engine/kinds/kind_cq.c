// SPDX-License-Identifier: MIT
/*
 * cqs: ibv_create_cq(), or ibv_create_cq_ex() with `ex: true` (and a
 * parent domain, if given), with an optional completion channel.  The channel's fd is made non-blocking:
 * the steps watch it with uv_poll and drain it with ibv_get_cq_event().
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kinds.h"
#include "live.h"
#include "value.h"

static void wc_flags_str(uint64_t flags, char *buf, size_t len)
{
	static const struct rs_bit_name names[] = {
		{ IBV_WC_EX_WITH_BYTE_LEN, "BYTE_LEN" },
		{ IBV_WC_EX_WITH_IMM, "IMM" },
		{ IBV_WC_EX_WITH_QP_NUM, "QP_NUM" },
		{ IBV_WC_EX_WITH_SRC_QP, "SRC_QP" },
		{ IBV_WC_EX_WITH_SLID, "SLID" },
		{ IBV_WC_EX_WITH_SL, "SL" },
		{ IBV_WC_EX_WITH_DLID_PATH_BITS, "DLID_PATH_BITS" },
		{ IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
		  "COMPLETION_TIMESTAMP" },
		{ IBV_WC_EX_WITH_CVLAN, "CVLAN" },
		{ IBV_WC_EX_WITH_FLOW_TAG, "FLOW_TAG" },
		{ IBV_WC_EX_WITH_TM_INFO, "TM_INFO" },
		{ IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK,
		  "COMPLETION_TIMESTAMP_WALLCLOCK" },
	};

	rs_bits_text(flags, names, RS_N(names), buf, len);
}

/* What the engine reads of every completion it routes, whatever the
 * file asks: the QP a receive is for, and the bytes it got. */
#define RS_CQ_WC_NEEDED (IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_BYTE_LEN)

static const char *wc_flag_name(uint64_t flag)
{
	for (size_t i = 0; i < RS_N(rs_cq_wc_flag_names); i++)
		if ((uint64_t)rs_cq_wc_flag_names[i].val == flag)
			return rs_cq_wc_flag_names[i].str;
	return "?";
}

/* Can the device make this CQ's wc_flags?  A trial ibv_create_cq_ex()
 * on a context of its own, before anything is created: the first flag
 * that it refuses alone is named, so that the scenario is skipped
 * (77), not failed half built. */
static int cq_check_caps(struct rs_run *run, struct rs_live *l, char *why,
			 unsigned len)
{
	const struct rs_cq *q = l->obj->data;
	struct rs_dev *dev = rs_live_dev(run, l);
	struct ibv_context *ctx;
	struct ibv_cq_ex *cq;
	uint64_t bad = 0;

	rs_dev_limit_count(run, l, RS_LIM_CQ);
	if (rs_dev_limit_value(run, l, "cqe", q->cqe, "max_cqe", why, len))
		return -E2BIG;
	if (!q->ex || !q->wc_flags || !dev || !dev->device)
		return 0;
	ctx = ibv_open_device(dev->device);
	if (!ctx)
		return 0;       /* the create says why, located */
	for (uint64_t f = 1; f && f <= q->wc_flags && !bad; f <<= 1) {
		struct ibv_cq_init_attr_ex ia = {
			.cqe = 1,
			.wc_flags = f | RS_CQ_WC_NEEDED,
		};

		if (!(q->wc_flags & f))
			continue;
		errno = 0;
		cq = ibv_create_cq_ex(ctx, &ia);
		if (cq)
			ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
		else if (errno == EOPNOTSUPP || errno == EINVAL ||
			 errno == ENOSYS || errno == EPROTONOSUPPORT)
			bad = f;
	}
	ibv_close_device(ctx);
	if (!bad)
		return 0;
	snprintf(why, len, "wc_flags %s (%s.wc_flags: a trial "
		 "ibv_create_cq_ex was refused)", wc_flag_name(bad),
		 l->obj->id);
	return -EOPNOTSUPP;
}

static void cq_hint(struct rs_run *run, struct rs_live *l,
		    struct ibv_context *ctx, struct rs_call *c)
{
	const struct rs_cq *q = l->obj->data;
	const struct rs_dev *dev = rs_live_dev(run, l);

	if (c->ok || c->hint[0] || !dev)
		return;
	if (dev->attr.orig_attr.max_cqe > 0 &&
	    q->cqe > (uint32_t)dev->attr.orig_attr.max_cqe)
		rs_call_hint(c, "cqe %u exceeds max_cqe %d", q->cqe,
			     dev->attr.orig_attr.max_cqe);
	else if (ctx && q->comp_vector >= (uint32_t)ctx->num_comp_vectors)
		rs_call_hint(c, "comp_vector %u: the device has %d "
			     "(0 to %d)", q->comp_vector,
			     ctx->num_comp_vectors, ctx->num_comp_vectors - 1);
	else if (q->ex && c->err == EOPNOTSUPP)
		rs_call_hint(c, "the provider does not support these "
			     "wc_flags or flags");
}

static int make_channel(struct rs_run *run, struct rs_live *l,
			struct ibv_context *ctx)
{
	const struct rs_cq *q = l->obj->data;
	struct rs_cq_rt *rt = l->rt;
	struct rs_call c;
	int flags, r;

	rs_call_init(&c, RS_CALL_CREATE, "ibv_create_comp_channel");
	rs_call_arg(&c, "context", "%s", q->context);
	if (rs_call_go(run, l, &c))
		RS_CALL_PTR(&c, rt->channel, ibv_create_comp_channel(ctx));
	r = rs_call_done(run, l, &c);
	/* A dry run has no channel to make non-blocking. */
	if (r || !rt->channel)
		return r;
	flags = fcntl(rt->channel->fd, F_GETFL);
	if (flags < 0 ||
	    fcntl(rt->channel->fd, F_SETFL, flags | O_NONBLOCK) < 0)
		return rs_live_error(run, l, errno, "completion channel fd "
				     "%d: O_NONBLOCK: %s", rt->channel->fd,
				     strerror(errno));
	return 0;
}

static int cq_create(struct rs_run *run, struct rs_live *l)
{
	const struct rs_cq *q = l->obj->data;
	struct ibv_context *ctx = rs_as_context(rs_live_find(run, q->context));
	struct rs_cq_rt *rt = l->rt;
	char wcf[256];
	struct rs_call c;
	int ret;

	if (q->channel) {
		ret = make_channel(run, l, ctx);
		if (ret)
			return ret;
	}
	if (q->ex) {
		struct ibv_cq_init_attr_ex ia = {
			.cqe = q->cqe,
			.channel = rt->channel,
			.comp_vector = q->comp_vector,
			.wc_flags = q->wc_flags ?
				    q->wc_flags | RS_CQ_WC_NEEDED : 0,
		};

		if (q->single_threaded)
			ia.flags |= IBV_CREATE_CQ_ATTR_SINGLE_THREADED;
		if (q->ignore_overrun)
			ia.flags |= IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN;
		if (ia.flags)
			ia.comp_mask |= IBV_CQ_INIT_ATTR_MASK_FLAGS;
		/* Its buffers through the domain's allocators, if it has
		 * them. */
		if (q->parent_domain) {
			ia.parent_domain = rs_live_pd(run, q->parent_domain);
			ia.comp_mask |= IBV_CQ_INIT_ATTR_MASK_PD;
		}
		rs_call_init(&c, RS_CALL_CREATE, "ibv_create_cq_ex");
		rs_call_arg(&c, "context", "%s", q->context);
		rs_call_arg(&c, "cqe", "%u", q->cqe);
		rs_call_arg(&c, "channel", "%s", q->channel ? "yes" : "none");
		rs_call_arg(&c, "comp_vector", "%u", q->comp_vector);
		wc_flags_str(ia.wc_flags, wcf, sizeof(wcf));
		rs_call_arg(&c, "wc_flags", "%s", wcf);
		rs_call_arg(&c, "comp_mask", "0x%x", ia.comp_mask);
		if (q->parent_domain)
			rs_call_arg(&c, "parent_domain", "%s",
				    q->parent_domain);
		rs_call_arg(&c, "flags", "%s%s%s",
			    q->single_threaded ? "SINGLE_THREADED" : "",
			    q->single_threaded && q->ignore_overrun ? "|" : "",
			    q->ignore_overrun ? "IGNORE_OVERRUN" :
			    q->single_threaded ? "" : "0");
		if (rs_call_go(run, l, &c))
			RS_CALL_PTR(&c, rt->cq_ex, ibv_create_cq_ex(ctx, &ia));
		if (rt->cq_ex) {
			rt->cq = ibv_cq_ex_to_cq(rt->cq_ex);
			rt->wc_flags = ia.wc_flags;
		}
	} else {
		rs_call_init(&c, RS_CALL_CREATE, "ibv_create_cq");
		rs_call_arg(&c, "context", "%s", q->context);
		rs_call_arg(&c, "cqe", "%u", q->cqe);
		rs_call_arg(&c, "channel", "%s", q->channel ? "yes" : "none");
		rs_call_arg(&c, "comp_vector", "%u", q->comp_vector);
		if (rs_call_go(run, l, &c))
			RS_CALL_PTR(&c, rt->cq, ibv_create_cq(ctx, (int)q->cqe,
				    NULL, rt->channel, (int)q->comp_vector));
	}
	cq_hint(run, l, ctx, &c);
	return rs_call_done(run, l, &c);
}

static void cq_destroy(struct rs_run *run, struct rs_live *l)
{
	struct rs_cq_rt *rt = l->rt;
	struct rs_call c;

	/* ibv_destroy_cq() waits for every event it handed out to be
	 * acked: ack what the steps left before destroying. */
	if (rt->cq && rt->unacked) {
		rs_call_init(&c, RS_CALL_DESTROY, "ibv_ack_cq_events");
		rs_call_arg(&c, "cq", "%s", l->obj->id);
		rs_call_arg(&c, "nevents", "%u", rt->unacked);
		if (rs_call_go(run, l, &c))
			RS_CALL_INT(&c, (ibv_ack_cq_events(rt->cq,
							   rt->unacked), 0));
		rt->unacked = 0;
		rs_call_done(run, l, &c);
	}
	RS_CALL_RELEASE(run, l, ibv_destroy_cq, rt->cq);
	rt->cq_ex = NULL;
	if (rt->channel || ((const struct rs_cq *)l->obj->data)->channel)
		RS_CALL_RELEASE(run, l, ibv_destroy_comp_channel, rt->channel);
}

/* A CQ's facts, made members when the record is written or read. */
struct cq_facts {
	int cqe;
	int channel_fd;
	bool channel;
};

static unsigned cq_facts_fields(const void *data, struct rs_val_field *f,
				void *room)
{
	const struct cq_facts *cf = data;
	unsigned n = 0;

	(void)room;
	f[n++] = RS_VAL_F_U64("cqe", (uint64_t)cf->cqe);
	if (cf->channel)
		f[n++] = RS_VAL_F_I64("channel_fd", cf->channel_fd);
	return n;
}

static const struct rs_val_struct cq_facts_ops = {
	.fields = cq_facts_fields,
};

static void cq_describe(struct rs_run *run, struct rs_live *l,
			struct rs_val *v)
{
	struct rs_cq_rt *rt = l->rt;
	struct cq_facts *cf = rs_val_obj_struct(v, &cq_facts_ops,
						sizeof(*cf));

	(void)run;
	if (!cf)
		return;
	cf->cqe = rt->cq->cqe;
	if (rt->channel) {
		cf->channel = true;
		cf->channel_fd = rt->channel->fd;
	}
}

static int cq_as_cq(struct rs_live *l, struct rdmascn_cq *ret)
{
	const struct rs_cq *c = l->obj->data;

	ret->rt = l->rt;
	ret->channel = c->channel;
	/* `mode:` decides; by default, events when it has a channel. */
	if (c->mode == RS_CQ_MODE_DEFAULT)
		ret->events = c->channel;
	else
		ret->events = c->mode == RS_CQ_MODE_EVENTS;
	return 0;
}

const struct rdmascn_ops rs_ops_cq = {
	.rt_size = sizeof(struct rs_cq_rt),
	.check_caps = cq_check_caps,
	.create = cq_create,
	.destroy = cq_destroy,
	.describe = cq_describe,
	.as_cq = cq_as_cq,
};
