// SPDX-License-Identifier: MIT
/* What write and read share: one-sided ops on a remote mr or bound mw,
 * their bytes checked once every WR completed (verify:). */
#include <errno.h>

#include "buf.h"
#include "post.h"
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

int rs_rdma_start(struct rs_step_run *sr, const char *qp,
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

/* --- dry run ------------------------------------------------------------- */

void rs_rdma_dry(struct rs_run *run, struct rs_obj *obj, const char *qp,
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

