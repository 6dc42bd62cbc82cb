// SPDX-License-Identifier: MIT
/*
 * mlx5_qps on a device: mlx5dv_create_qp() on the context of the pd's
 * device with the declaration's attributes (mlx5_qp_attr.c), then the
 * state changes it makes on its own (a DCT to RTR, a DCI, UD or raw
 * packet QP to RTS); an RC or UC one waits in RESET for a connection.
 * It offers the QP facet, so the core's steps and connections use it as
 * any QP.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mask_text.h"
#include "mlx5.h"
#include "mlx5_qp.h"
#include "rdmascn/value.h"

struct mlx5_qp_rt {
	struct rs_qp_rt qp;      /* what the QP facet hands out */
	struct mlx5dv_qp_ex *mqpx;
};

static const char *type_name(int type)
{
	switch (type) {
	case MLX5_QPT_RC: return "rc";
	case MLX5_QPT_UC: return "uc";
	case MLX5_QPT_UD: return "ud";
	case MLX5_QPT_RAW_PACKET: return "raw_packet";
	default: return "driver";
	}
}

static int check_caps(struct rs_run *run, struct rs_live *l, char *why,
		      unsigned len)
{
	if (rdmascn_live_has_feature(run, l, "mlx5dv"))
		return 0;
	snprintf(why, len, "mlx5dv (mlx5dv_is_supported(): "
		 "mlx5dv_create_qp())");
	return -EOPNOTSUPP;
}

static int create_qp(struct rs_run *run, struct rs_live *l)
{
	const struct mlx5_qp *q = rdmascn_live_data(l);
	struct mlx5_qp_rt *rt = rdmascn_live_rt(l);
	const char *recv_cq = q->recv_cq ? q->recv_cq : q->send_cq;
	struct ibv_qp_init_attr_ex ax;
	struct mlx5dv_qp_init_attr dv;
	struct ibv_pd *pd = rdmascn_live_pd(run, q->pd);
	struct rdmascn_call *c;
	char buf[256];

	mlx5_qp_init_attr(q, &ax, &dv);
	ax.pd = pd;
	ax.send_cq = rdmascn_live_cq(run, q->send_cq);
	ax.recv_cq = rdmascn_live_cq(run, recv_cq);
	ax.srq = rdmascn_live_srq(run, q->srq);
	c = rdmascn_call_new(RDMASCN_CALL_CREATE, "mlx5dv_create_qp");
	rdmascn_call_arg(c, "pd", "%s", q->pd);
	rdmascn_call_arg(c, "qp_type", "%s", type_name(q->type));
	if (q->send_cq)
		rdmascn_call_arg(c, "send_cq", "%s", q->send_cq);
	if (recv_cq)
		rdmascn_call_arg(c, "recv_cq", "%s", recv_cq);
	if (q->srq)
		rdmascn_call_arg(c, "srq", "%s", q->srq);
	rdmascn_call_arg(c, "max_send_wr", "%u", ax.cap.max_send_wr);
	rdmascn_call_arg(c, "max_recv_wr", "%u", ax.cap.max_recv_wr);
	rdmascn_call_arg(c, "max_send_sge", "%u", ax.cap.max_send_sge);
	rdmascn_call_arg(c, "max_recv_sge", "%u", ax.cap.max_recv_sge);
	rdmascn_call_arg(c, "max_inline_data", "%u", ax.cap.max_inline_data);
	if (ax.sq_sig_all)
		rdmascn_call_arg(c, "sq_sig_all", "1");
	rdmascn_call_arg(c, "comp_mask", "%s",
			 mlx5_mask_text(MLX5_MASK_QP_INIT, ax.comp_mask, buf,
					sizeof(buf)));
	if (ax.comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		mlx5_qp_send_ops_text(ax.send_ops_flags, 0, buf, sizeof(buf));
		rdmascn_call_arg(c, "send_ops_flags", "%s", buf);
	}
	mlx5_mask_text(MLX5_MASK_DV_QP_INIT, dv.comp_mask, buf, sizeof(buf));
	rdmascn_call_arg(c, "mlx5.comp_mask", "%s", buf);
	if (dv.create_flags) {
		mlx5_qp_flags_text(dv.create_flags, buf, sizeof(buf));
		rdmascn_call_arg(c, "mlx5.create_flags", "%s", buf);
	}
	if (q->dc) {
		rdmascn_call_arg(c, "mlx5.dc_type", "%s",
				 mlx5_dc_type_name(q->dc->type));
		if (q->dc->type == MLX5DV_DCTYPE_DCT)
			rdmascn_call_arg(c, "mlx5.dct_access_key", "0x%llx",
					 (unsigned long long)
					 dv.dc_init_attr.dct_access_key);
	}
	if (dv.comp_mask & MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS)
		rdmascn_call_arg(c, "mlx5.dci_streams", "%u/%u",
				 dv.dc_init_attr.dci_streams.log_num_concurent,
				 dv.dc_init_attr.dci_streams.log_num_errored);
	if (dv.send_ops_flags) {
		mlx5_qp_send_ops_text(0, dv.send_ops_flags, buf, sizeof(buf));
		rdmascn_call_arg(c, "mlx5.send_ops_flags", "%s", buf);
	}
	if (rdmascn_call_go(run, l, c)) {
		errno = 0;
		rt->qp.qp = pd ? mlx5dv_create_qp(pd->context, &ax, &dv) :
			    NULL;
		rdmascn_call_result(c, rt->qp.qp ? 0 : errno ? errno :
				    EINVAL);
	}
	/* What the device granted (the create writes it back). */
	rt->qp.cap = ax.cap;
	rt->qp.qkey = q->qkey;
	rt->qp.state = IBV_QPS_RESET;
	if (rt->qp.qp && ax.comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		rt->qp.qpx = ibv_qp_to_qp_ex(rt->qp.qp);
		rt->mqpx = mlx5dv_qp_ex_from_ibv_qp_ex(rt->qp.qpx);
	}
	return rdmascn_call_done(run, l, c);
}

static int modify(struct rs_run *run, struct rs_live *l,
		  struct mlx5_qp_step *s)
{
	struct mlx5_qp_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *c = rdmascn_call_new(RDMASCN_CALL_MODIFY,
						  "ibv_modify_qp");
	int r;

	rdmascn_call_arg(c, "qp", "%s", rdmascn_live_id(l));
	rdmascn_qp_attr_args(c, &s->attr, s->mask);
	if (rdmascn_call_go(run, l, c))
		rdmascn_call_result(c, ibv_modify_qp(rt->qp.qp, &s->attr,
						     s->mask));
	r = rdmascn_call_done(run, l, c);
	if (!r)
		rt->qp.state = s->attr.qp_state;
	return r;
}

static int create(struct rs_run *run, struct rs_live *l)
{
	const struct mlx5_qp *q = rdmascn_live_data(l);
	struct mlx5_qp_step steps[3];
	struct rdmascn_port port;
	unsigned n;
	int r = create_qp(run, l);

	if (r)
		return r;
	rdmascn_live_port(run, l, &port);
	n = mlx5_qp_steps(q, &port, steps);
	for (unsigned i = 0; i < n && !r; i++)
		r = modify(run, l, &steps[i]);
	return r;
}

static void destroy(struct rs_run *run, struct rs_live *l)
{
	struct mlx5_qp_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *c;

	if (!rt->qp.qp && !rdmascn_dry_run(run))
		return;
	c = rdmascn_call_new(RDMASCN_CALL_DESTROY, "ibv_destroy_qp");
	rdmascn_call_arg(c, "qp", "%s", rdmascn_live_id(l));
	if (rdmascn_call_go(run, l, c))
		rdmascn_call_result(c, ibv_destroy_qp(rt->qp.qp));
	rt->qp.qp = NULL;
	rt->qp.qpx = NULL;
	rt->mqpx = NULL;
	rdmascn_call_done(run, l, c);
}

static void describe(struct rs_run *run, struct rs_live *l,
		     struct rs_val *v)
{
	const struct mlx5_qp *q = rdmascn_live_data(l);
	struct mlx5_qp_rt *rt = rdmascn_live_rt(l);
	struct ibv_qp_attr attr;
	struct ibv_qp_init_attr init;

	(void)run;
	if (!rt->qp.qp)
		return;
	rs_val_put_strf(v, "qpn", "0x%06x", rt->qp.qp->qp_num);
	rs_val_put_str(v, "type", type_name(q->type));
	if (q->dc)
		rs_val_put_str(v, "dc_type", mlx5_dc_type_name(q->dc->type));
	rs_val_put_u64(v, "max_send_wr", rt->qp.cap.max_send_wr);
	rs_val_put_u64(v, "max_recv_wr", rt->qp.cap.max_recv_wr);
	rs_val_put_u64(v, "max_inline_data", rt->qp.cap.max_inline_data);
	if (!ibv_query_qp(rt->qp.qp, &attr, IBV_QP_STATE, &init))
		rs_val_put_str(v, "state",
			       rdmascn_qp_state_name(attr.qp_state));
}

/* A DCI's WR, just begun with ibv_wr_<op>(): to the DCT @dest (an
 * mlx5_qp the step's check found to be one) through @ah, with the DCT's
 * number and access key, as mlx5dv_wr_set_dc_addr(3)'s example. */
void mlx5_qp_set_wr_dest(struct rs_live *l, struct rs_live *dest,
			struct ibv_ah *ah)
{
	struct mlx5_qp_rt *rt = rdmascn_live_rt(l);
	const struct mlx5_qp *d = rdmascn_live_data(dest);
	struct mlx5_qp_rt *drt = rdmascn_live_rt(dest);

	if (!rt->mqpx || !drt->qp.qp || !d->dc)
		return;
	mlx5dv_wr_set_dc_addr(rt->mqpx, ah, drt->qp.qp->qp_num,
			      d->dc->access_key);
}

struct mlx5dv_qp_ex *mlx5_qp_mqpx(struct rs_live *l)
{
	struct mlx5_qp_rt *rt = rdmascn_live_rt(l);

	return rt ? rt->mqpx : NULL;
}

/* As any QP to the steps and connections: a DC QP is reliable, as an
 * RC QP is. */
static int as_qp(struct rs_run *run, struct rs_live *l,
		 struct rdmascn_qp *ret)
{
	const struct mlx5_qp *q = rdmascn_live_data(l);
	struct mlx5_qp_rt *rt = rdmascn_live_rt(l);

	(void)run;
	memset(ret, 0, sizeof(*ret));
	ret->rt = &rt->qp;
	ret->type = q->type == MLX5_QPT_DRIVER ? RDMASCN_QPT_RC : q->type;
	ret->ex = q->send_ops || q->mlx5_send_ops;
	ret->send_ops = q->send_ops;
	ret->port = q->port;
	ret->pkey_index = q->pkey_index;
	ret->send_cq = q->send_cq;
	ret->recv_cq = q->recv_cq ? q->recv_cq : q->send_cq;
	ret->srq = q->srq;
	ret->srq_posts = q->srq != NULL;
	return 0;
}

const struct rdmascn_ops mlx5_qp_ops = {
	.rt_size = sizeof(struct mlx5_qp_rt),
	.check_caps = check_caps,
	.create = create,
	.destroy = destroy,
	.describe = describe,
	.as_qp = as_qp,
};
