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
	if (y->dct) {
		/* mlx5dv_wr_set_dc_addr() after the op: the DCT's number
		 * and key are its own. */
		rs_call_arg(c, K("dc.ah"), "%s", y->dc_ah);
		rs_call_arg(c, K("dc.remote_dctn"), "qpn(%s)", y->dct);
		rs_call_arg(c, K("dc.remote_dc_key"), "dc_key(%s)", y->dct);
	}
	if (wr->next)
		rs_call_arg(c, K("next"), "wr[%u]", i + 1);
	else
		rs_call_arg(c, K("next"), "NULL");
#undef K
}

/* The call that posts @wr's chain on @qp (its id). */
static void post_call(struct rs_call *c, const char *qp, bool ex)
{
	rs_call_init(c, RS_CALL_QUERY, ex ? "ibv_wr_start..ibv_wr_complete" :
		     "ibv_post_send");
	rs_call_arg(c, "qp", "%s", qp);
}

void rs_wr_show_post(struct rs_step_run *sr, const struct rs_wr_window *w,
		     const struct ibv_send_wr *wr)
{
	struct rs_call c;
	unsigned i = 0;

	if (!sr->run->rec->calls_wanted)
		return;
	post_call(&c, w->qp->l->obj->id, w->ex);
	for (; wr; wr = wr->next)
		wr_args(&c, wr, i++, NULL);
	rs_step_call(sr->run, sr->obj, &c);
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
	uint64_t signaled;
	struct rs_call c;

	/* As rs_wr_window_size() will make them, where the file says. */
	if (t->depth && list > t->depth)
		list = t->depth;
	if (t->depth && sig > t->depth)
		sig = t->depth;
	if (list > n)
		list = (uint32_t)n;
	signaled = n / sig + (n % sig != 0);
	post_call(&c, qp, sym && sym->dct);
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
		wr_args(&c, &wr[i], i, sym);
	}
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
