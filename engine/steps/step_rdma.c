// SPDX-License-Identifier: MIT
/* write (with an immediate), read and atomic: one-sided ops on a
 * remote mr or bound mw, checked once every WR completed (verify:,
 * expect_fetched:). */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "buf.h"
#include "post.h"
#include "registry.h"
#include "steps.h"
#include "vary.h"

/* Every message: its local SGEs, one after the other, against the
 * remote bytes where it went (write) or came from (read). */
static int check_moved(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;
	const struct rs_wr_vary *v = &p->w.v;
	bool read = p->tmpl.opcode == IBV_WR_RDMA_READ;
	uint64_t msgs = p->w.n / v->pieces;

	if (!p->dst)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "verify",
				    "the remote bytes are not in this "
				    "process's memory");
	for (uint64_t m = 0; m < msgs; m++) {
		const uint8_t *remote = p->dst + m * v->remote_stride;
		uint64_t at = 0;

		for (unsigned j = 0; j < v->nsge; j++) {
			const uint8_t *local = v->host[j];
			uint32_t len = v->sge[j].length;
			size_t d;

			if (!local)
				return rs_step_fail(sr, RS_STEP_CANTRUN,
						    "verify", "the local bytes "
						    "are not in this process's "
						    "memory");
			local += m * v->stride;
			d = rs_first_diff(read ? local : remote + at,
					  read ? remote + at : local, len);
			if (d < len)
				return rs_step_fail(sr, RS_STEP_FAILED,
						    "verify", "the bytes moved "
						    "differ at byte %llu of "
						    "message %llu of %llu",
						    (unsigned long long)(at + d),
						    (unsigned long long)m + 1,
						    (unsigned long long)msgs);
			at += len;
		}
	}
	return 0;
}

static int rdma_start(struct rs_step_run *sr, const char *qp,
		      const struct rs_step_vary *vary, const char *local,
		      uint64_t offset, uint32_t length, const char *remote,
		      uint64_t remote_offset, uint32_t rkey_field,
		      const struct rs_step_traffic *t, bool read)
{
	struct post_rt *p = sr->rt;
	struct ibv_send_wr *w = &p->tmpl;
	struct rs_wr_vary *v = &p->w.v;
	uint64_t raddr, ravail, end;
	uint64_t iters = t->iterations ? t->iterations : 1;
	uint32_t rkey;
	uint8_t *rhost;
	int r;

	p->w.qp = rs_wr_qp(sr, qp, "qp", false);
	if (!p->w.qp)
		return -EIO;
	rs_step_remote(sr, remote, remote_offset, &raddr, &rkey, &rhost,
		       &ravail);
	p->vary = vary;
	r = rs_step_bufs(sr, vary, local, offset, length, ravail, iters, v);
	if (r)
		return r;
	/* Past the end of the remote is a negative test, or a mistake. */
	end = rs_vary_end(0, v->len, iters, vary->remote_stride);
	if (end > ravail && t->expect == IBV_WC_SUCCESS) {
		if (iters > 1 && vary->remote_stride)
			return rs_step_fail(sr, RS_STEP_CANTRUN,
					    "remote_stride",
					    "%llu messages of %llu bytes, "
					    "%llu apart from remote_offset "
					    "%llu, end at byte %llu of the "
					    "%llu there in '%s'",
					    (unsigned long long)iters,
					    (unsigned long long)v->len,
					    (unsigned long long)
					    vary->remote_stride,
					    (unsigned long long)remote_offset,
					    (unsigned long long)end,
					    (unsigned long long)ravail, remote);
		return rs_step_fail(sr, RS_STEP_CANTRUN, "length",
				    "%llu bytes at remote_offset %llu do not "
				    "fit in '%s' (%llu bytes there)",
				    (unsigned long long)v->len,
				    (unsigned long long)remote_offset, remote,
				    (unsigned long long)ravail);
	}
	if (rs_obj_has(sr->obj, "rkey"))
		rkey = rkey_field;
	w->opcode = read ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE;
	w->wr.rdma.remote_addr = raddr;
	w->wr.rdma.rkey = rkey;
	v->has_remote = true;
	v->remote = raddr;
	v->remote_stride = vary->remote_stride;
	p->dst = rhost;
	if (t->verify)
		p->check = check_moved;
	return 0;
}

static int write_start(struct rs_step_run *sr)
{
	const struct rs_step_write *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	int r;

	r = rdma_start(sr, s->qp, &s->vary, s->local, s->offset, s->length,
		       s->remote, s->remote_offset, s->rkey, &s->traffic,
		       false);
	if (!r)
		r = rs_post_dest(sr, s->dct, s->ah, IBV_WR_RDMA_WRITE);
	if (r)
		return r;
	if (rs_obj_has(sr->obj, "imm")) {
		/* The immediate consumes a receive at the peer. */
		p->tmpl.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		p->tmpl.imm_data = htobe32(s->imm);
		p->peer = p->w.qp->peer;
	}
	return rs_post_begin(sr, p, &s->traffic,
			     rs_post_has_data(sr, s->length));
}

static int read_start(struct rs_step_run *sr)
{
	const struct rs_step_read *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	int r;

	r = rdma_start(sr, s->qp, &s->vary, s->local, s->offset, s->length,
		       s->remote, s->remote_offset, s->rkey, &s->traffic,
		       true);
	if (!r)
		r = rs_post_dest(sr, s->dct, s->ah, IBV_WR_RDMA_READ);
	if (!r)
		r = rs_step_check_rd_atomic(sr, p->w.qp, s->traffic.expect);
	if (r)
		return r;
	return rs_post_begin(sr, p, &s->traffic,
			     rs_post_has_data(sr, s->length));
}

/* --- atomic --------------------------------------------------------------- */

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

static void rdma_dry(struct rs_run *run, struct rs_obj *obj, const char *qp,
		     const char *local, uint64_t offset, uint32_t length,
		     const char *remote, uint64_t remote_offset,
		     const struct rs_step_traffic *t,
		     const struct rs_step_vary *v, struct ibv_send_wr *w,
		     const char *dct, const char *ah)
{
	struct ibv_sge sge = { .addr = offset, .length = length };
	struct rs_wr_sym sym = { .local = local, .remote = remote,
				 .dct = dct, .dc_ah = ah,
				 .whole = !rs_obj_has(obj, "length") &&
					  !v->sge_count,
				 .vary = v,
				 .user_wr_id = rs_obj_has(obj, "wr_id") };

	w->wr.rdma.remote_addr = remote_offset;
	w->num_sge = !rs_obj_has(obj, "length") || length;
	rs_wr_dry_post(run, obj, qp, t, w, &sge, &sym);
}

static void write_dry(struct rs_run *run, struct rs_obj *obj)
{
	const struct rs_step_write *s = obj->data;
	struct ibv_send_wr w = { .opcode = IBV_WR_RDMA_WRITE };

	if (rs_obj_has(obj, "imm")) {
		w.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		w.imm_data = htobe32(s->imm);
	}
	rdma_dry(run, obj, s->qp, s->local, s->offset, s->length, s->remote,
		 s->remote_offset, &s->traffic, &s->vary, &w, s->dct, s->ah);
}

static void read_dry(struct rs_run *run, struct rs_obj *obj)
{
	const struct rs_step_read *s = obj->data;
	struct ibv_send_wr w = { .opcode = IBV_WR_RDMA_READ };

	rdma_dry(run, obj, s->qp, s->local, s->offset, s->length, s->remote,
		 s->remote_offset, &s->traffic, &s->vary, &w, s->dct, s->ah);
}

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

RS_POST_OPS(write);
RS_POST_OPS(read);
RS_POST_OPS(atomic);
