// SPDX-License-Identifier: MIT
/* The calls of posting steps as -v and the dry run show them: each WR of
 * a chain as "wr[i].field=value" arguments of one recorded call, with
 * what only a device knows named after its object ("lkey(src)"). */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "alloc.h"
#include "macros.h"
#include "steps.h"
#include "vary.h"
#include "wr.h"

/* --- the calls, as -v and the dry run show them --------------------------- */

static const struct rs_bit_name send_flag_names[] = {
	{ IBV_SEND_FENCE, "fence" },
	{ IBV_SEND_SIGNALED, "signaled" },
	{ IBV_SEND_SOLICITED, "solicited" },
	{ IBV_SEND_INLINE, "inline" },
};

static const char *const wr_opcode_names[] = {
	[IBV_WR_RDMA_WRITE] = "IBV_WR_RDMA_WRITE",
	[IBV_WR_RDMA_WRITE_WITH_IMM] = "IBV_WR_RDMA_WRITE_WITH_IMM",
	[IBV_WR_SEND] = "IBV_WR_SEND",
	[IBV_WR_SEND_WITH_IMM] = "IBV_WR_SEND_WITH_IMM",
	[IBV_WR_RDMA_READ] = "IBV_WR_RDMA_READ",
	[IBV_WR_ATOMIC_CMP_AND_SWP] = "IBV_WR_ATOMIC_CMP_AND_SWP",
	[IBV_WR_ATOMIC_FETCH_AND_ADD] = "IBV_WR_ATOMIC_FETCH_AND_ADD",
	[IBV_WR_LOCAL_INV] = "IBV_WR_LOCAL_INV",
	[IBV_WR_BIND_MW] = "IBV_WR_BIND_MW",
	[IBV_WR_SEND_WITH_INV] = "IBV_WR_SEND_WITH_INV",
};

/* An address or key: the number, or in a dry run what it will be
 * ("addr(src)+64", "rkey(dst)"). */
static void addr_arg(struct rs_call *c, const char *key, const char *fn,
		     const char *sym, uint64_t v, bool off)
{
	if (!sym)
		rs_call_arg(c, key, "0x%llx", (unsigned long long)v);
	else if (off)
		rs_call_arg(c, key, "%s(%s)+%llu", fn, sym,
			    (unsigned long long)v);
	else
		rs_call_arg(c, key, "%s(%s)", fn, sym);
}

/* WR @i of a chain, as "wr[i].field=value" arguments. */
static void wr_args(struct rs_call *c, const struct ibv_send_wr *wr,
		    unsigned i, const struct rs_wr_sym *sym)
{
	static const struct rs_wr_sym none;
	const struct rs_wr_sym *y = sym ? sym : &none;
	char k[64], flags[64];
	int op = wr->opcode;

#define K(name) (snprintf(k, sizeof(k), "wr[%u].%s", i, name), k)
	rs_call_arg(c, K("wr_id"), "0x%llx", (unsigned long long)wr->wr_id);
	rs_call_arg(c, K("opcode"), "%s",
		    op >= 0 && (size_t)op < RS_N(wr_opcode_names) &&
		    wr_opcode_names[op] ? wr_opcode_names[op] : "?");
	rs_call_arg(c, K("send_flags"), "%s",
		    rs_bits_text(wr->send_flags, send_flag_names,
				 RS_N(send_flag_names), flags, sizeof(flags)));
	for (int s = 0; s < wr->num_sge; s++) {
		/* An `sge:` entry names its own mr. */
		const char *mr = y->vary && y->vary->sge_count ?
				 y->vary->sge[s].mr : y->local;
		char sk[48];

		snprintf(sk, sizeof(sk), "wr[%u].sg_list[%d].addr", i, s);
		addr_arg(c, sk, "addr", mr, wr->sg_list[s].addr, true);
		snprintf(sk, sizeof(sk), "wr[%u].sg_list[%d].length", i, s);
		if (y->whole && mr)
			rs_call_arg(c, sk, "length(%s)-%llu", mr,
				    (unsigned long long)wr->sg_list[s].addr);
		else
			rs_call_arg(c, sk, "%u", wr->sg_list[s].length);
		snprintf(sk, sizeof(sk), "wr[%u].sg_list[%d].lkey", i, s);
		if (wr->send_flags & IBV_SEND_INLINE)
			rs_call_arg(c, sk, "unused_inline");
		else
			addr_arg(c, sk, "lkey", mr, wr->sg_list[s].lkey,
				 false);
	}
	if (op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_RDMA_WRITE_WITH_IMM)
		rs_call_arg(c, K("imm_data"), "%u", be32toh(wr->imm_data));
	switch (op) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		addr_arg(c, K("wr.rdma.remote_addr"), "addr", y->remote,
			 wr->wr.rdma.remote_addr, true);
		addr_arg(c, K("wr.rdma.rkey"), "rkey", y->remote,
			 wr->wr.rdma.rkey, false);
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		addr_arg(c, K("wr.atomic.remote_addr"), "addr", y->remote,
			 wr->wr.atomic.remote_addr, true);
		addr_arg(c, K("wr.atomic.rkey"), "rkey", y->remote,
			 wr->wr.atomic.rkey, false);
		rs_call_arg(c, K("wr.atomic.compare_add"), "%llu",
			    (unsigned long long)wr->wr.atomic.compare_add);
		if (op == IBV_WR_ATOMIC_CMP_AND_SWP)
			rs_call_arg(c, K("wr.atomic.swap"), "%llu",
				    (unsigned long long)wr->wr.atomic.swap);
		break;
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_LOCAL_INV:
		addr_arg(c, K("invalidate_rkey"), "rkey", y->inv,
			 wr->invalidate_rkey, false);
		break;
	case IBV_WR_BIND_MW:
		if (y->mw)
			rs_call_arg(c, K("bind_mw.mw"), "%s", y->mw);
		addr_arg(c, K("bind_mw.rkey"), "inc_rkey", y->mw,
			 wr->bind_mw.rkey, false);
		if (y->bind_mr)
			rs_call_arg(c, K("bind_mw.bind_info.mr"), "%s",
				    y->bind_mr);
		addr_arg(c, K("bind_mw.bind_info.addr"), "addr", y->bind_mr,
			 wr->bind_mw.bind_info.addr, true);
		rs_call_arg(c, K("bind_mw.bind_info.length"), "%llu",
			    (unsigned long long)wr->bind_mw.bind_info.length);
		rs_call_arg(c, K("bind_mw.bind_info.mw_access_flags"), "0x%x",
			    wr->bind_mw.bind_info.mw_access_flags);
		break;
	}
	if (y->ah) {
		rs_call_arg(c, K("wr.ud.ah"), "%s", y->ah);
		if (y->remote_qpn)
			rs_call_arg(c, K("wr.ud.remote_qpn"), "%s",
				    y->remote_qpn);
		else
			rs_call_arg(c, K("wr.ud.remote_qpn"), "0x%x",
				    wr->wr.ud.remote_qpn);
		if (y->remote_qkey)
			rs_call_arg(c, K("wr.ud.remote_qkey"), "%s",
				    y->remote_qkey);
		else
			rs_call_arg(c, K("wr.ud.remote_qkey"), "0x%x",
				    wr->wr.ud.remote_qkey);
	}
	if (wr->next)
		rs_call_arg(c, K("next"), "wr[%u]", i + 1);
	else
		rs_call_arg(c, K("next"), "NULL");
#undef K
}

/* --- through ibv_wr_*: the calls post_ex() (wr.c) makes ------------------ */

static const char *const ex_op_names[] = {
	[IBV_WR_RDMA_WRITE] = "ibv_wr_rdma_write",
	[IBV_WR_RDMA_WRITE_WITH_IMM] = "ibv_wr_rdma_write_imm",
	[IBV_WR_SEND] = "ibv_wr_send",
	[IBV_WR_SEND_WITH_IMM] = "ibv_wr_send_imm",
	[IBV_WR_RDMA_READ] = "ibv_wr_rdma_read",
	[IBV_WR_ATOMIC_CMP_AND_SWP] = "ibv_wr_atomic_cmp_swp",
	[IBV_WR_ATOMIC_FETCH_AND_ADD] = "ibv_wr_atomic_fetch_add",
	[IBV_WR_LOCAL_INV] = "ibv_wr_local_inv",
	[IBV_WR_BIND_MW] = "ibv_wr_bind_mw",
	[IBV_WR_SEND_WITH_INV] = "ibv_wr_send_inv",
};

/* Where the WRs of a chain go besides their own fields: how post_ex()
 * addresses each after its op. */
enum ex_dest { EX_DEST_NONE, EX_DEST_UD, EX_DEST_XRC, EX_DEST_DC };

/* WR @wr's op, as ibv_wr_<op>() takes it after wr_id and wr_flags. */
static void ex_op(struct rs_call *c, const char *qp,
		  const struct ibv_send_wr *wr, const struct rs_wr_sym *y)
{
	int op = wr->opcode;
	char flags[64];

	rs_call_init(c, RS_CALL_QUERY, op >= 0 &&
		     (size_t)op < RS_N(ex_op_names) && ex_op_names[op] ?
		     ex_op_names[op] : "ibv_wr_abort");
	rs_call_arg(c, "qp", "%s", qp);
	rs_call_arg(c, "wr_id", "0x%llx", (unsigned long long)wr->wr_id);
	rs_call_arg(c, "wr_flags", "%s",
		    rs_bits_text(wr->send_flags, send_flag_names,
				 RS_N(send_flag_names), flags, sizeof(flags)));
	switch (op) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		addr_arg(c, "rkey", "rkey", y->remote, wr->wr.rdma.rkey,
			 false);
		addr_arg(c, "remote_addr", "addr", y->remote,
			 wr->wr.rdma.remote_addr, true);
		if (op == IBV_WR_RDMA_WRITE_WITH_IMM)
			rs_call_arg(c, "imm_data", "%u",
				    be32toh(wr->imm_data));
		break;
	case IBV_WR_SEND_WITH_IMM:
		rs_call_arg(c, "imm_data", "%u", be32toh(wr->imm_data));
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		addr_arg(c, "rkey", "rkey", y->remote, wr->wr.atomic.rkey,
			 false);
		addr_arg(c, "remote_addr", "addr", y->remote,
			 wr->wr.atomic.remote_addr, true);
		rs_call_arg(c, op == IBV_WR_ATOMIC_CMP_AND_SWP ? "compare" :
			    "add", "%llu",
			    (unsigned long long)wr->wr.atomic.compare_add);
		if (op == IBV_WR_ATOMIC_CMP_AND_SWP)
			rs_call_arg(c, "swap", "%llu",
				    (unsigned long long)wr->wr.atomic.swap);
		break;
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_LOCAL_INV:
		addr_arg(c, "invalidate_rkey", "rkey", y->inv,
			 wr->invalidate_rkey, false);
		break;
	case IBV_WR_BIND_MW:
		if (y->mw)
			rs_call_arg(c, "mw", "%s", y->mw);
		addr_arg(c, "rkey", "inc_rkey", y->mw, wr->bind_mw.rkey,
			 false);
		if (y->bind_mr)
			rs_call_arg(c, "bind_info.mr", "%s", y->bind_mr);
		addr_arg(c, "bind_info.addr", "addr", y->bind_mr,
			 wr->bind_mw.bind_info.addr, true);
		rs_call_arg(c, "bind_info.length", "%llu",
			    (unsigned long long)wr->bind_mw.bind_info.length);
		rs_call_arg(c, "bind_info.mw_access_flags", "0x%x",
			    wr->bind_mw.bind_info.mw_access_flags);
		break;
	}
}

/* Its destination, as post_ex() sets it after the op. */
static bool ex_dest(struct rs_call *c, const char *qp,
		    const struct ibv_send_wr *wr, const struct rs_wr_sym *y,
		    enum ex_dest dest, uint32_t dctn)
{
	switch (dest) {
	case EX_DEST_DC:
		/* The mlx5 plugin's set_wr_dest (the only one there is):
		 * the DCT's number and access key, through the ah. */
		rs_call_init(c, RS_CALL_QUERY, "mlx5dv_wr_set_dc_addr");
		rs_call_arg(c, "qp", "%s", qp);
		rs_call_arg(c, "ah", "%s", y->dc_ah ? y->dc_ah : "?");
		if (dctn)
			rs_call_arg(c, "remote_dctn", "0x%x", dctn);
		else
			rs_call_arg(c, "remote_dctn", "qpn(%s)", y->dct);
		rs_call_arg(c, "remote_dc_key", "dc_key(%s)", y->dct);
		return true;
	case EX_DEST_UD:
		rs_call_init(c, RS_CALL_QUERY, "ibv_wr_set_ud_addr");
		rs_call_arg(c, "qp", "%s", qp);
		rs_call_arg(c, "ah", "%s", y->ah ? y->ah : "?");
		if (y->remote_qpn)
			rs_call_arg(c, "remote_qpn", "%s", y->remote_qpn);
		else
			rs_call_arg(c, "remote_qpn", "0x%x",
				    wr->wr.ud.remote_qpn);
		if (y->remote_qkey)
			rs_call_arg(c, "remote_qkey", "%s", y->remote_qkey);
		else
			rs_call_arg(c, "remote_qkey", "0x%x",
				    wr->wr.ud.remote_qkey);
		return true;
	case EX_DEST_XRC:
		rs_call_init(c, RS_CALL_QUERY, "ibv_wr_set_xrc_srqn");
		rs_call_arg(c, "qp", "%s", qp);
		rs_call_arg(c, "remote_srqn", "0x%x",
			    wr->qp_type.xrc.remote_srqn);
		return true;
	default:
		return false;
	}
}

/* Its data: the first SGE, or its bytes inline. */
static bool ex_data(struct rs_call *c, const char *qp,
		    const struct ibv_send_wr *wr, const struct rs_wr_sym *y)
{
	const char *mr = y->vary && y->vary->sge_count ? y->vary->sge[0].mr :
			 y->local;

	if (wr->opcode == IBV_WR_LOCAL_INV || wr->opcode == IBV_WR_BIND_MW ||
	    !wr->num_sge)
		return false;
	if (wr->send_flags & IBV_SEND_INLINE) {
		rs_call_init(c, RS_CALL_QUERY, "ibv_wr_set_inline_data");
		rs_call_arg(c, "qp", "%s", qp);
		addr_arg(c, "addr", "addr", mr, wr->sg_list[0].addr, true);
	} else {
		rs_call_init(c, RS_CALL_QUERY, "ibv_wr_set_sge");
		rs_call_arg(c, "qp", "%s", qp);
		addr_arg(c, "lkey", "lkey", mr, wr->sg_list[0].lkey, false);
		addr_arg(c, "addr", "addr", mr, wr->sg_list[0].addr, true);
	}
	if (y->whole && mr)
		rs_call_arg(c, "length", "length(%s)-%llu", mr,
			    (unsigned long long)wr->sg_list[0].addr);
	else
		rs_call_arg(c, "length", "%u", wr->sg_list[0].length);
	return true;
}

/* The chain @wr through ibv_wr_*, call by call, after @start (an
 * ibv_wr_start() with its arguments). */
static void ex_calls(struct rs_run *run, const struct rs_obj *step,
		     struct rs_call *start, const char *qp,
		     const struct ibv_send_wr *wr, const struct rs_wr_sym *y,
		     enum ex_dest dest, uint32_t dctn)
{
	struct rs_call *c = start;

	rs_step_call(run, step, c);
	for (; wr; wr = wr->next) {
		ex_op(c, qp, wr, y);
		rs_step_call(run, step, c);
		if (ex_dest(c, qp, wr, y, dest, dctn))
			rs_step_call(run, step, c);
		if (ex_data(c, qp, wr, y))
			rs_step_call(run, step, c);
	}
	rs_call_init(c, RS_CALL_QUERY, "ibv_wr_complete");
	rs_call_arg(c, "qp", "%s", qp);
	rs_step_call(run, step, c);
}

/* The call that posts @wr's chain on @qp (its id): ibv_post_send(), or
 * ibv_wr_start() when @ex (ex_calls() makes the rest). */
static void post_call(struct rs_call *c, const char *qp, bool ex)
{
	rs_call_init(c, RS_CALL_QUERY, ex ? "ibv_wr_start" : "ibv_post_send");
	rs_call_arg(c, "qp", "%s", qp);
}

void rs_wr_show_post(struct rs_step_run *sr, const struct rs_wr_window *w,
		     const struct ibv_send_wr *wr)
{
	/* On a device the numbers are there: only the ids the step
	 * names. */
	struct rs_wr_sym sym = {
		.ah = w->dest ? NULL : w->ah_id,
		.dct = w->dest ? w->dest->obj->id : NULL,
		.dc_ah = w->dest ? w->ah_id : NULL,
	};
	const char *qp = w->qp->l->obj->id;
	enum ex_dest dest = w->dest ? EX_DEST_DC :
			    w->qp->info.type == RS_QPT_UD ? EX_DEST_UD :
			    w->qp->info.type == RS_QPT_XRC_SEND ? EX_DEST_XRC :
			    EX_DEST_NONE;
	struct rdmascn_qp dct = { 0 };
	struct rs_call c;
	unsigned i = 0;

	if (!sr->run->rec->calls_wanted)
		return;
	post_call(&c, qp, w->ex);
	if (w->ex) {
		if (w->dest && !rs_as_qp(sr->run, w->dest, &dct) && dct.rt &&
		    dct.rt->qp)
			ex_calls(sr->run, sr->obj, &c, qp, wr, &sym, dest,
				 dct.rt->qp->qp_num);
		else
			ex_calls(sr->run, sr->obj, &c, qp, wr, &sym, dest, 0);
		return;
	}
	for (; wr; wr = wr->next)
		wr_args(&c, wr, i++, dest == EX_DEST_UD ? &sym : NULL);
	rs_step_call(sr->run, sr->obj, &c);
}

/* Does @qp (its id) post WRs of @op through ibv_wr_* (rs_qp_use_ex(), as
 * its facet says before it exists)? */
static bool dry_ex(struct rs_run *run, const char *qp, enum ibv_wr_opcode op,
		   const struct rs_wr_sym *sym)
{
	struct rs_live *l = rs_live_find(run, qp);
	struct rdmascn_qp info;

	if (sym && sym->dct)
		return true;
	return l && !rs_as_qp(run, l, &info) && info.ex &&
	       rs_wr_send_ops_has(info.send_ops, op);
}

void rs_wr_dry_post(struct rs_run *run, struct rs_obj *obj, const char *qp,
		    const struct rs_step_traffic *t, struct ibv_send_wr *tmpl,
		    const struct ibv_sge *sge, const struct rs_wr_sym *sym)
{
	uint64_t n = t->iterations ? t->iterations : 1;
	uint32_t list = t->post_list ? t->post_list : 1;
	uint32_t sig = t->signal_every ? t->signal_every : 1;
	const struct rs_step_vary *v = sym ? sym->vary : NULL;
	unsigned nsge = v && v->sge_count ? v->sge_count : 1;
	struct ibv_send_wr wr[8];
	struct ibv_sge sg[RS_N(wr)][RS_SGE_MAX];
	static const struct rs_wr_sym none;
	uint64_t signaled;
	struct rs_call c;
	bool ex;

	/* As rs_wr_window_size() will make them, where the file says. */
	if (t->depth && list > t->depth)
		list = t->depth;
	if (t->depth && sig > t->depth)
		sig = t->depth;
	if (list > n)
		list = (uint32_t)n;
	signaled = n / sig + (n % sig != 0);
	ex = dry_ex(run, qp, tmpl->opcode, sym);
	post_call(&c, qp, ex);
	rs_call_arg(&c, "wrs", "%llu", (unsigned long long)n);
	rs_call_arg(&c, "post_list", "%u", list);
	if (t->depth)
		rs_call_arg(&c, "depth", "%u", t->depth);
	else
		rs_call_arg(&c, "depth", "max_send_wr(%s)", qp);
	rs_call_arg(&c, "signaled", "%llu", (unsigned long long)signaled);
	if (v && v->max_msg_sz)
		rs_call_arg(&c, "max_msg_sz", "%u", v->max_msg_sz);
	/* The first call's chain: the others differ in wr_id and flags. */
	for (uint32_t i = 0; i < list && i < RS_N(wr); i++) {
		uint64_t step = v ? v->stride * i : 0;

		wr[i] = *tmpl;
		for (unsigned j = 0; j < nsge && j < RS_SGE_MAX; j++) {
			if (v && v->sge_count)
				sg[i][j] = (struct ibv_sge){
					.addr = v->sge[j].offset,
					.length = v->sge[j].length };
			else
				sg[i][j] = *sge;
			sg[i][j].addr += step;
		}
		wr[i].sg_list = sg[i];
		if (v && v->sge_count)
			wr[i].num_sge = (int)nsge;
		if (v && v->remote_stride)
			wr[i].wr.rdma.remote_addr += v->remote_stride * i;
		wr[i].wr_id = sym && sym->user_wr_id ? v->wr_id + i :
			      rs_wr_id(obj->index, 0, i);
		if (t->inline_data)
			wr[i].send_flags |= IBV_SEND_INLINE;
		if ((i + 1) % sig == 0 || i + 1 == n)
			wr[i].send_flags |= IBV_SEND_SIGNALED;
		wr[i].next = i + 1 < list && i + 1 < RS_N(wr) ? &wr[i + 1] :
			     NULL;
		if (!ex)
			wr_args(&c, &wr[i], i, sym);
	}
	if (ex)
		ex_calls(run, obj, &c, qp, wr, sym ? sym : &none,
			 sym && sym->dct ? EX_DEST_DC :
			 sym && sym->ah ? EX_DEST_UD : EX_DEST_NONE, 0);
	else
		rs_step_call(run, obj, &c);
}

void rs_wr_dry_recv(struct rs_run *run, struct rs_obj *obj, const char *q,
		    bool srq, uint64_t n, unsigned chain,
		    const struct ibv_sge *sge, const struct rs_wr_sym *sym)
{
	const struct rs_step_vary *v = sym->vary;
	unsigned nsge = v && v->sge_count ? v->sge_count : 1;
	/* The first WRs of the first chain: the rest differ by stride. */
	unsigned shown = n < chain ? (unsigned)n : chain;
	struct rs_call c;
	char k[64];

	if (shown > 8)
		shown = 8;
	rs_call_init(&c, RS_CALL_QUERY, srq ? "ibv_post_srq_recv" :
		     "ibv_post_recv");
	rs_call_arg(&c, srq ? "srq" : "qp", "%s", q);
	rs_call_arg(&c, "wrs", "%llu", (unsigned long long)n);
	rs_call_arg(&c, "chain", "%u", n < chain ? (unsigned)n : chain);
	for (unsigned i = 0; i < shown; i++) {
		uint64_t step = v ? v->stride * i : 0;

		snprintf(k, sizeof(k), "wr[%u].wr_id", i);
		rs_call_arg(&c, k, "0x%llx", (unsigned long long)
			    (sym->user_wr_id ? v->wr_id + i :
					       rs_wr_id(obj->index, 0, i)));
		for (unsigned j = 0; j < nsge && j < RS_SGE_MAX; j++) {
			bool list = v && v->sge_count;
			const char *mr = list ? v->sge[j].mr : sym->local;
			uint64_t addr = (list ? v->sge[j].offset : sge->addr) +
					step;

			snprintf(k, sizeof(k), "wr[%u].sg_list[%u].addr", i, j);
			addr_arg(&c, k, "addr", mr, addr, true);
			snprintf(k, sizeof(k), "wr[%u].sg_list[%u].length", i, j);
			if (!list && sym->whole)
				rs_call_arg(&c, k, "length(%s)-%llu", mr,
					    (unsigned long long)addr);
			else
				rs_call_arg(&c, k, "%u", list ?
					    v->sge[j].length : sge->length);
			snprintf(k, sizeof(k), "wr[%u].sg_list[%u].lkey", i, j);
			addr_arg(&c, k, "lkey", mr, 0, false);
		}
		snprintf(k, sizeof(k), "wr[%u].next", i);
		if (i + 1 < (n < chain ? n : chain))
			rs_call_arg(&c, k, "wr[%u]", i + 1);
		else
			rs_call_arg(&c, k, "NULL");
	}
	rs_step_call(run, obj, &c);
}
