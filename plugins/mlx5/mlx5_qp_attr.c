// SPDX-License-Identifier: MIT
/*
 * An mlx5_qps declaration as mlx5dv_create_qp()'s attributes, and the
 * state changes that follow it: a DCT goes to RTR on its own, a DCI, a
 * UD and a raw packet QP to RTS, an RC or UC QP waits for a connection.
 * The masks are those mlx5 asks of DC QPs (rdma-core's pyverbs
 * Mlx5QP: DCT INIT pkey|port|access, RTR mtu|av|min_rnr_timer; DCI
 * INIT pkey|port, RTR mtu, RTS timeout|retry|rnr_retry|sq_psn|
 * max_rd_atomic).  No device: the unit tests check them.
 */
#include <stdio.h>
#include <string.h>

#include "mlx5_qp.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static enum ibv_qp_type verbs_type(int type)
{
	switch (type) {
	case MLX5_QPT_RC: return IBV_QPT_RC;
	case MLX5_QPT_UC: return IBV_QPT_UC;
	case MLX5_QPT_UD: return IBV_QPT_UD;
	case MLX5_QPT_RAW_PACKET: return IBV_QPT_RAW_PACKET;
	default: return IBV_QPT_DRIVER;
	}
}

void mlx5_qp_init_attr(const struct mlx5_qp *q,
		       struct ibv_qp_init_attr_ex *ax,
		       struct mlx5dv_qp_init_attr *dv)
{
	bool dct = q->dc && q->dc->type == MLX5DV_DCTYPE_DCT;
	bool sq = !dct, rq = !dct && !q->srq;

	memset(ax, 0, sizeof(*ax));
	memset(dv, 0, sizeof(*dv));
	ax->qp_type = verbs_type(q->type);
	ax->sq_sig_all = q->sq_sig_all;
	ax->comp_mask = IBV_QP_INIT_ATTR_PD;
	/* The fields not given as qps default them: a DCT receives
	 * through its SRQ and sends nothing; a DCI only sends. */
	rdmascn_qp_caps(q->cap, q->cap_given, sq, rq && !q->dc, &ax->cap);
	/* Room for the largest UMR WR a register_layout step posts. */
	if (ax->cap.max_inline_data < q->umr_inline)
		ax->cap.max_inline_data = q->umr_inline;
	if (q->send_ops || q->mlx5_send_ops) {
		ax->comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		ax->send_ops_flags = q->send_ops;
	}
	if (q->create_flags) {
		dv->comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS;
		dv->create_flags = q->create_flags;
	}
	if (q->dc) {
		dv->comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_DC;
		dv->dc_init_attr.dc_type = (enum mlx5dv_dc_type)q->dc->type;
		if (dct) {
			dv->dc_init_attr.dct_access_key = q->dc->access_key;
		} else if (q->dc->streams) {
			dv->comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS;
			dv->dc_init_attr.dci_streams.log_num_concurent =
				q->dc->streams->log_num_concurent;
			dv->dc_init_attr.dci_streams.log_num_errored =
				q->dc->streams->log_num_errored;
		}
	}
	if (q->mlx5_send_ops) {
		dv->comp_mask |= MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS;
		dv->send_ops_flags = q->mlx5_send_ops;
	}
}

static enum ibv_mtu mtu_of(uint32_t bytes)
{
	switch (bytes) {
	case 256: return IBV_MTU_256;
	case 512: return IBV_MTU_512;
	case 2048: return IBV_MTU_2048;
	case 4096: return IBV_MTU_4096;
	default: return IBV_MTU_1024;
	}
}

unsigned mlx5_qp_steps(const struct mlx5_qp *q,
		       const struct rdmascn_port *port,
		       struct mlx5_qp_step ret[3])
{
	int dc = q->dc ? q->dc->type : 0;
	uint8_t p = q->port ? q->port : port->port;
	unsigned n = 0;

	if (!dc && (q->type == MLX5_QPT_RC || q->type == MLX5_QPT_UC))
		return 0;
	memset(ret, 0, 3 * sizeof(*ret));
	/* INIT */
	ret[n].attr.qp_state = IBV_QPS_INIT;
	ret[n].attr.port_num = p;
	ret[n].mask = IBV_QP_STATE | IBV_QP_PORT;
	if (q->type != MLX5_QPT_RAW_PACKET) {
		ret[n].attr.pkey_index = q->pkey_index;
		ret[n].mask |= IBV_QP_PKEY_INDEX;
	}
	if (q->type == MLX5_QPT_UD) {
		ret[n].attr.qkey = q->qkey;
		ret[n].mask |= IBV_QP_QKEY;
	}
	if (dc == MLX5DV_DCTYPE_DCT) {
		ret[n].attr.qp_access_flags = q->access;
		ret[n].mask |= IBV_QP_ACCESS_FLAGS;
	}
	n++;
	/* RTR */
	ret[n].attr.qp_state = IBV_QPS_RTR;
	ret[n].mask = IBV_QP_STATE;
	if (dc) {
		ret[n].attr.path_mtu = mtu_of(q->path_mtu);
		ret[n].mask |= IBV_QP_PATH_MTU;
	}
	if (dc == MLX5DV_DCTYPE_DCT) {
		struct ibv_ah_attr *ah = &ret[n].attr.ah_attr;

		ret[n].attr.min_rnr_timer = q->min_rnr_timer ?
					    q->min_rnr_timer : 12;
		ah->port_num = p;
		if (port->gid_index >= 0) {
			ah->is_global = 1;
			ah->grh.sgid_index = (uint8_t)port->gid_index;
			ah->grh.dgid = port->gid;
			ah->grh.hop_limit = 1;
		}
		ret[n].mask |= IBV_QP_AV | IBV_QP_MIN_RNR_TIMER;
		return n + 1;
	}
	n++;
	/* RTS */
	ret[n].attr.qp_state = IBV_QPS_RTS;
	ret[n].mask = IBV_QP_STATE;
	if (q->type == MLX5_QPT_UD)
		ret[n].mask |= IBV_QP_SQ_PSN;
	if (dc == MLX5DV_DCTYPE_DCI) {
		ret[n].attr.timeout = 14;
		ret[n].attr.retry_cnt = 7;
		ret[n].attr.rnr_retry = 7;
		ret[n].attr.max_rd_atomic = 1;
		ret[n].mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			       IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
			       IBV_QP_MAX_QP_RD_ATOMIC;
	}
	return n + 1;
}

const char *mlx5_dc_type_name(int type)
{
	return type == MLX5DV_DCTYPE_DCT ? "DCT" :
	       type == MLX5DV_DCTYPE_DCI ? "DCI" : "?";
}

struct bit_name {
	uint64_t bit;
	const char *name;
};

static void bits_text(uint64_t v, const struct bit_name *t, size_t n,
		      char *buf, unsigned len, unsigned *o)
{
	for (size_t i = 0; i < n; i++)
		if (v & t[i].bit && *o < len)
			*o += (unsigned)snprintf(buf + *o, len - *o, "%s%s",
						 *o ? "|" : "", t[i].name);
}

void mlx5_qp_flags_text(uint32_t flags, char *buf, unsigned len)
{
	static const struct bit_name t[] = {
		{ MLX5DV_QP_CREATE_TUNNEL_OFFLOADS, "TUNNEL_OFFLOADS" },
		{ MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_UC,
		  "TIR_ALLOW_SELF_LOOPBACK_UC" },
		{ MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_MC,
		  "TIR_ALLOW_SELF_LOOPBACK_MC" },
		{ MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE,
		  "DISABLE_SCATTER_TO_CQE" },
		{ MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE,
		  "ALLOW_SCATTER_TO_CQE" },
		{ MLX5DV_QP_CREATE_PACKET_BASED_CREDIT_MODE,
		  "PACKET_BASED_CREDIT_MODE" },
		{ MLX5DV_QP_CREATE_SIG_PIPELINING, "SIG_PIPELINING" },
	};
	unsigned o = 0;

	buf[0] = '\0';
	bits_text(flags, t, N(t), buf, len, &o);
	if (!o)
		snprintf(buf, len, "0");
}

void mlx5_qp_send_ops_text(uint64_t ops, uint64_t mlx5_ops, char *buf,
			   unsigned len)
{
	static const struct bit_name ibv[] = {
		{ IBV_QP_EX_WITH_RDMA_WRITE, "RDMA_WRITE" },
		{ IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM, "RDMA_WRITE_WITH_IMM" },
		{ IBV_QP_EX_WITH_SEND, "SEND" },
		{ IBV_QP_EX_WITH_SEND_WITH_IMM, "SEND_WITH_IMM" },
		{ IBV_QP_EX_WITH_RDMA_READ, "RDMA_READ" },
		{ IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP, "ATOMIC_CMP_AND_SWP" },
		{ IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD,
		  "ATOMIC_FETCH_AND_ADD" },
		{ IBV_QP_EX_WITH_LOCAL_INV, "LOCAL_INV" },
		{ IBV_QP_EX_WITH_BIND_MW, "BIND_MW" },
		{ IBV_QP_EX_WITH_SEND_WITH_INV, "SEND_WITH_INV" },
		{ IBV_QP_EX_WITH_TSO, "TSO" },
	};
	static const struct bit_name mlx5[] = {
		{ MLX5DV_QP_EX_WITH_MR_INTERLEAVED, "MR_INTERLEAVED" },
		{ MLX5DV_QP_EX_WITH_MR_LIST, "MR_LIST" },
		{ MLX5DV_QP_EX_WITH_MKEY_CONFIGURE, "MKEY_CONFIGURE" },
		{ MLX5DV_QP_EX_WITH_RAW_WQE, "RAW_WQE" },
		{ MLX5DV_QP_EX_WITH_MEMCPY, "MEMCPY" },
	};
	unsigned o = 0;

	buf[0] = '\0';
	bits_text(ops, ibv, N(ibv), buf, len, &o);
	bits_text(mlx5_ops, mlx5, N(mlx5), buf, len, &o);
	if (!o)
		snprintf(buf, len, "0");
}
