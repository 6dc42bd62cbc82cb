// SPDX-License-Identifier: MIT
/* atomic: an 8-byte fetch_add or cmp_swap on a remote mr, the fetched
 * value checked once every WR completed (expect_fetched:). */
#include <errno.h>
#include <string.h>

#include "buf.h"
#include "post.h"
#include "steps.h"

static int check_fetched(struct rs_step_run *sr)
{
	const struct rs_step_atomic *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	uint64_t v;

	if (!rs_obj_has(sr->obj, "expect_fetched"))
		return 0;
	if (!p->fetch)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "expect_fetched",
				    "mr '%s' is not in host memory", s->local);
	/* The responder returns the value in host byte order. */
	memcpy(&v, p->fetch, sizeof(v));
	if (v == s->expect_fetched)
		return 0;
	return rs_step_fail(sr, RS_STEP_FAILED, "expect_fetched",
			    "fetched %llu (0x%llx), expected %llu (0x%llx)",
			    (unsigned long long)v, (unsigned long long)v,
			    (unsigned long long)s->expect_fetched,
			    (unsigned long long)s->expect_fetched);
}

static int atomic_start(struct rs_step_run *sr)
{
	const struct rs_step_atomic *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	uint64_t raddr, ravail;
	uint32_t rkey;
	uint8_t *rhost;
	int r;

	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	if (!p->w.qp ||
	    rs_step_check_rd_atomic(sr, p->w.qp, s->traffic.expect))
		return -EIO;
	r = rs_step_local(sr, s->local, s->offset, NULL, 8, 8, &p->tsge,
			  &p->fetch);
	if (r)
		return r;
	if (p->tsge.length < 8)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "local",
				    "mr '%s' has %u bytes; an atomic fetches 8",
				    s->local, p->tsge.length);
	rs_step_remote(sr, s->remote, s->remote_offset, &raddr, &rkey, &rhost,
		       &ravail);
	if (ravail < 8 && s->traffic.expect == IBV_WC_SUCCESS)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "remote_offset",
				    "%llu leaves %llu of the 8 bytes in '%s'",
				    (unsigned long long)s->remote_offset,
				    (unsigned long long)ravail, s->remote);
	w->wr.atomic.remote_addr = raddr;
	w->wr.atomic.rkey = rkey;
	if (s->op == RS_ATOMIC_CMP_SWAP) {
		w->opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
		w->wr.atomic.compare_add = s->compare;
		w->wr.atomic.swap = s->swap;
	} else {
		w->opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
		w->wr.atomic.compare_add = s->add;
	}
	p->check = check_fetched;
	p->w.v.user_id = rs_obj_has(sr->obj, "wr_id");
	p->w.v.wr_id = s->vary.wr_id;
	return rs_post_begin(sr, p, &s->traffic, true);
}

/* --- dry run ------------------------------------------------------------- */

static void atomic_dry(struct rs_run *run, struct rs_obj *obj)
{
	const struct rs_step_atomic *s = obj->data;
	struct ibv_sge sge = { .length = 8 };
	struct rs_wr_sym sym = { .local = s->local, .remote = s->remote };
	struct ibv_send_wr w = { .num_sge = 1 };

	w.wr.atomic.remote_addr = s->remote_offset;
	if (s->op == RS_ATOMIC_CMP_SWAP) {
		w.opcode = IBV_WR_ATOMIC_CMP_AND_SWP;
		w.wr.atomic.compare_add = s->compare;
		w.wr.atomic.swap = s->swap;
	} else {
		w.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
		w.wr.atomic.compare_add = s->add;
	}
	rs_wr_dry_post(run, obj, s->qp, &s->traffic, &w, &sge, &sym);
}

RS_POST_OPS(atomic);
