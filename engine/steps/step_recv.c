// SPDX-License-Identifier: MIT
/* recv: post receives on a qp or an srq and finish; the step that
 * polls their CQ routes their completions back here. */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "step.h"
#include "steps.h"
#include "wr.h"

#define RECV_CHAIN 64

/* `grh:` into @w: the GIDs given, or those the contexts named use. */
static int want_grh(struct rs_step_run *sr, struct rs_wc_want *w,
		    const struct rs_wr_vary *v)
{
	const uint8_t *host = v->host ? v->host[0] : NULL;
	const struct rs_step_grh *g = &((const struct rs_step_recv *)
					sr->obj->data)->grh;
	const char *of[2] = { g->sgid_of, g->dgid_of };
	const uint8_t *raw[2] = { g->sgid ? g->sgid_raw : NULL,
				  g->dgid ? g->dgid_raw : NULL };
	uint8_t *to[2] = { w->sgid, w->dgid };

	for (int i = 0; i < 2; i++) {
		const struct rs_dev *dev;

		if (of[i]) {
			dev = rs_as_dev(rs_live_find(sr->run, of[i]));
			if (!dev || dev->gid_index < 0)
				return rs_step_fail(sr, RS_STEP_CANTRUN,
						    i ? "grh.dgid_of" :
							"grh.sgid_of",
						    "context '%s' uses no GID",
						    of[i]);
			raw[i] = dev->gid.raw;
		}
		if (raw[i]) {
			memcpy(to[i], raw[i], 16);
			w->mask |= i ? RS_WCW_DGID : RS_WCW_SGID;
		}
	}
	if (w->mask & (RS_WCW_SGID | RS_WCW_DGID)) {
		if (!host)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "grh",
					    "the receive buffer is not in "
					    "this process");
		/* The GRH checked is where every receive lands. */
		if (v->stride)
			return rs_step_fail(sr, RS_STEP_CANTRUN, "grh",
					    "checks one receive buffer: "
					    "not with 'stride'");
		w->grh = host;
	}
	return 0;
}

/* Post the receives and finish: whoever polls their CQ later routes
 * their completions here (expect:, the byte count, the buffer).  Receive
 * i is `stride` bytes further on in each of its SGEs than receive i-1. */
static int recv_start(struct rs_step_run *sr)
{
	const struct rs_step_recv *s = sr->obj->data;
	struct ibv_recv_wr wr[RECV_CHAIN], *bad;
	struct rs_wr_vary v = { 0 };
	struct ibv_sge *sge = NULL;
	struct rs_owner *o;
	struct rs_qpi *qp = NULL;
	struct rdmascn_srq sf = { 0 };
	struct rs_live *srql = s->srq ? rs_live_find(sr->run, s->srq) : NULL;
	struct ibv_srq *srq = srql && !rs_as_srq(srql, &sf) ? sf.srq : NULL;
	uint64_t n = s->count ? s->count : 1, posted = 0, remote;
	uint32_t room;
	int r;

	if (s->qp && !(qp = rs_wr_qp(sr, s->qp, "qp", false)))
		return -EIO;
	r = rs_step_bufs(sr, &s->vary, s->local, s->offset, s->length,
			 UINT64_MAX, n, &v);
	if (r)
		goto out;
	/* An SRQ's max_sge is not in its facet: its post says. */
	room = srq ? UINT32_MAX : qp->rt->cap.max_recv_sge;
	if (v.nsge > 1 && v.nsge > room) {
		r = rs_step_fail(sr, RS_STEP_CANTRUN, "sge",
				 "%u entries exceed qp '%s' max_recv_sge (%u)",
				 v.nsge, s->qp, room);
		goto out;
	}
	sge = rs_calloc((size_t)RECV_CHAIN * v.nsge, sizeof(*sge));
	o = sge ? rs_step_owner(sr, 1, s->traffic.expect) : NULL;
	if (!o) {
		r = rs_step_fail(sr, RS_STEP_CANTRUN, NULL, "out of memory");
		goto out;
	}
	if (rs_step_want(sr, o, &s->traffic.wc) ||
	    want_grh(sr, &o->want, &v)) {
		r = -EIO;
		goto out;
	}
	rs_recv_lane(&o->lanes[0]);
	r = rs_wr_user_ids(sr, &v, qp, srq ? srql : NULL, true, 0, n);
	if (r)
		goto out;
	for (unsigned i = 0; i < RECV_CHAIN; i++)
		wr[i] = (struct ibv_recv_wr){ .sg_list = &sge[i * v.nsge],
					      .num_sge = (int)v.nsge };
	while (posted < n) {
		unsigned k = n - posted < RECV_CHAIN ? n - posted : RECV_CHAIN;

		for (unsigned i = 0; i < k; i++) {
			wr[i].wr_id = rs_wr_id_of(sr, &v, 0, posted + i);
			rs_wr_vary_at(&v, posted + i, wr[i].sg_list, &remote);
			wr[i].next = i + 1 < k ? &wr[i + 1] : NULL;
		}
		bad = NULL;
		r = rs_post_recv_list(srq, qp, wr, &bad);
		if (r) {
			for (unsigned i = 0; i < k && &wr[i] != bad; i++)
				posted++;
			sr->wrs = posted;
			r = rs_step_fail(sr, RS_STEP_FAILED, "count",
					 "posting receive %llu of %llu on "
					 "%s '%s': %s (room for %u)",
					 (unsigned long long)posted + 1,
					 (unsigned long long)n,
					 srq ? "srq" : "qp",
					 srq ? s->srq : s->qp, strerror(-r),
					 srq ? sf.max_wr :
					       qp->rt->cap.max_recv_wr);
			goto out;
		}
		posted += k;
	}
	sr->wrs = posted;
	rs_step_pass(sr);
out:
	rs_free(sge);
	rs_wr_vary_free(&v);
	return r;
}

/* Where receive *@ret_offset (its number among ours) landed: one
 * buffer `stride` further on per receive; an sge list is no one
 * place. */
static const char *recv_receives_into(const struct rs_obj *obj,
				      uint64_t *ret_offset)
{
	const struct rs_step_recv *s = obj->data;

	if (s->vary.sge_count)
		return NULL;
	*ret_offset = s->offset + *ret_offset * s->vary.stride;
	return s->local;
}

static void recv_dry(struct rs_run *run, struct rs_obj *obj)
{
	const struct rs_step_recv *s = obj->data;
	struct ibv_sge sge = { .addr = s->offset, .length = s->length };
	struct rs_wr_sym sym = { .local = s->local,
				 .whole = !rs_obj_has(obj, "length") &&
					  !s->vary.sge_count,
				 .vary = &s->vary,
				 .user_wr_id = rs_obj_has(obj, "wr_id") };

	rs_wr_dry_recv(run, obj, s->qp ? s->qp : s->srq, !s->qp,
		       s->count ? s->count : 1, RECV_CHAIN, &sge, &sym);
}

const struct rdmascn_step_ops rs_step_ops_recv = {
	.start = recv_start,
	.receives_into = recv_receives_into,
	.dry_run = recv_dry,
};
