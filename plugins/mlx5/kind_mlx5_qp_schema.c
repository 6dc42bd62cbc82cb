// SPDX-License-Identifier: MIT
/*
 * mlx5_qps: the fields of a QP made with mlx5dv_create_qp(), and what
 * the schema cannot say: a DC QP is of type driver and the others are
 * not; a DCT receives through an SRQ into a CQ and has an access key, a
 * DCI may have streams; each at FILE:LINE:COL.
 */
#include <errno.h>
#include <stddef.h>

#include "mlx5.h"
#include "mlx5_qp.h"

static const cyaml_strval_t qp_type_names[] = {
	{ "rc", MLX5_QPT_RC }, { "uc", MLX5_QPT_UC }, { "ud", MLX5_QPT_UD },
	{ "raw_packet", MLX5_QPT_RAW_PACKET }, { "driver", MLX5_QPT_DRIVER },
};

static const cyaml_strval_t dc_type_names[] = {
	{ "dci", MLX5DV_DCTYPE_DCI }, { "dct", MLX5DV_DCTYPE_DCT },
};

static const cyaml_strval_t bool_names[] = {
	{ "false", 0 }, { "true", 1 },
};

/* The core's words for IBV_QP_EX_WITH_* (qps: send_ops). */
static const cyaml_strval_t send_op_names[] = {
	{ "write", IBV_QP_EX_WITH_RDMA_WRITE },
	{ "write_with_imm", IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM },
	{ "send", IBV_QP_EX_WITH_SEND },
	{ "send_with_imm", IBV_QP_EX_WITH_SEND_WITH_IMM },
	{ "read", IBV_QP_EX_WITH_RDMA_READ },
	{ "atomic_cmp_and_swp", IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP },
	{ "atomic_fetch_and_add", IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD },
	{ "local_inv", IBV_QP_EX_WITH_LOCAL_INV },
	{ "bind_mw", IBV_QP_EX_WITH_BIND_MW },
	{ "send_with_inv", IBV_QP_EX_WITH_SEND_WITH_INV },
	{ "tso", IBV_QP_EX_WITH_TSO },
};

static const cyaml_strval_t mlx5_send_op_names[] = {
	{ "mr_interleaved", MLX5DV_QP_EX_WITH_MR_INTERLEAVED },
	{ "mr_list", MLX5DV_QP_EX_WITH_MR_LIST },
	{ "mkey_configure", MLX5DV_QP_EX_WITH_MKEY_CONFIGURE },
	{ "raw_wqe", MLX5DV_QP_EX_WITH_RAW_WQE },
	{ "memcpy", MLX5DV_QP_EX_WITH_MEMCPY },
};

static const cyaml_strval_t create_flag_names[] = {
	{ "tunnel_offloads", MLX5DV_QP_CREATE_TUNNEL_OFFLOADS },
	{ "tir_allow_self_loopback_uc",
	  MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_UC },
	{ "tir_allow_self_loopback_mc",
	  MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_MC },
	{ "disable_scatter_to_cqe", MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE },
	{ "allow_scatter_to_cqe", MLX5DV_QP_CREATE_ALLOW_SCATTER_TO_CQE },
	{ "packet_based_credit_mode",
	  MLX5DV_QP_CREATE_PACKET_BASED_CREDIT_MODE },
	{ "sig_pipelining", MLX5DV_QP_CREATE_SIG_PIPELINING },
};

/* A DCT's access flags (qps' connections: access). */
static const cyaml_strval_t access_names[] = {
	{ "local_write", IBV_ACCESS_LOCAL_WRITE },
	{ "remote_write", IBV_ACCESS_REMOTE_WRITE },
	{ "remote_read", IBV_ACCESS_REMOTE_READ },
	{ "remote_atomic", IBV_ACCESS_REMOTE_ATOMIC },
};

#define FLAGS(key, s, m, names)                                           \
	CYAML_FIELD_FLAGS(key, CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT, s, \
			  m, names, CYAML_ARRAY_LEN(names))
#define UINT(key, s, m) CYAML_FIELD_UINT(key, CYAML_FLAG_OPTIONAL, s, m)

static const cyaml_schema_field_t cap_fields[] = {
	UINT("max_send_wr", struct rdmascn_qp_cap, max_send_wr),
	UINT("max_recv_wr", struct rdmascn_qp_cap, max_recv_wr),
	UINT("max_send_sge", struct rdmascn_qp_cap, max_send_sge),
	UINT("max_recv_sge", struct rdmascn_qp_cap, max_recv_sge),
	UINT("max_inline_data", struct rdmascn_qp_cap, max_inline_data),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t streams_fields[] = {
	UINT("log_num_concurent", struct mlx5_qp_streams, log_num_concurent),
	UINT("log_num_errored", struct mlx5_qp_streams, log_num_errored),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t dc_fields[] = {
	CYAML_FIELD_ENUM("type", CYAML_FLAG_DEFAULT | CYAML_FLAG_STRICT,
			 struct mlx5_qp_dc, type, dc_type_names,
			 CYAML_ARRAY_LEN(dc_type_names)),
	UINT("access_key", struct mlx5_qp_dc, access_key),
	CYAML_FIELD_MAPPING_PTR("streams", CYAML_FLAG_POINTER |
				CYAML_FLAG_OPTIONAL, struct mlx5_qp_dc,
				streams, streams_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t mlx5_qp_fields[] = {
	MLX5_FIELD_ID(struct mlx5_qp),
	MLX5_FIELD_AFTER(struct mlx5_qp),
	MLX5_FIELD_REF("pd", struct mlx5_qp, pd),
	CYAML_FIELD_ENUM("type", CYAML_FLAG_DEFAULT | CYAML_FLAG_STRICT,
			 struct mlx5_qp, type, qp_type_names,
			 CYAML_ARRAY_LEN(qp_type_names)),
	MLX5_FIELD_OPT_REF("send_cq", struct mlx5_qp, send_cq),
	MLX5_FIELD_OPT_REF("recv_cq", struct mlx5_qp, recv_cq),
	MLX5_FIELD_OPT_REF("srq", struct mlx5_qp, srq),
	CYAML_FIELD_MAPPING_PTR("cap", CYAML_FLAG_POINTER |
				CYAML_FLAG_OPTIONAL, struct mlx5_qp, cap,
				cap_fields),
	CYAML_FIELD_ENUM("sq_sig_all", CYAML_FLAG_OPTIONAL |
			 CYAML_FLAG_STRICT, struct mlx5_qp, sq_sig_all,
			 bool_names, CYAML_ARRAY_LEN(bool_names)),
	FLAGS("send_ops", struct mlx5_qp, send_ops, send_op_names),
	FLAGS("mlx5_send_ops", struct mlx5_qp, mlx5_send_ops,
	      mlx5_send_op_names),
	FLAGS("create_flags", struct mlx5_qp, create_flags,
	      create_flag_names),
	CYAML_FIELD_MAPPING_PTR("dc", CYAML_FLAG_POINTER |
				CYAML_FLAG_OPTIONAL, struct mlx5_qp, dc,
				dc_fields),
	UINT("port", struct mlx5_qp, port),
	UINT("pkey_index", struct mlx5_qp, pkey_index),
	UINT("qkey", struct mlx5_qp, qkey),
	FLAGS("access", struct mlx5_qp, access, access_names),
	UINT("min_rnr_timer", struct mlx5_qp, min_rnr_timer),
	UINT("path_mtu", struct mlx5_qp, path_mtu),
	CYAML_FIELD_END
};

static const struct rdmascn_ref mlx5_qp_refs[] = {
	MLX5_REF_ONE("pd", struct mlx5_qp, pd, "pd"),
	MLX5_REF_ONE("send_cq", struct mlx5_qp, send_cq, "cq"),
	MLX5_REF_ONE("recv_cq", struct mlx5_qp, recv_cq, "cq"),
	MLX5_REF_ONE("srq", struct mlx5_qp, srq, "srq"),
	MLX5_REF_AFTER(struct mlx5_qp),
	{ .field = NULL }
};

/* What mlx5 takes on a raw packet QP only. */
#define RAW_ONLY (MLX5DV_QP_CREATE_TUNNEL_OFFLOADS |                       \
		  MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_UC |           \
		  MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_MC)

static int refuse(struct rdmascn_obj *obj, struct rdmascn_diag *d, bool given,
		  const char *path, const char *why)
{
	if (!given)
		return 0;
	rdmascn_obj_error(d, obj, path, "%s", why);
	return -EINVAL;
}

static int check_dc(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		    const struct mlx5_qp *q)
{
	const struct mlx5_qp_dc *dc = q->dc;
	int r = 0;

	if (q->type != MLX5_QPT_DRIVER) {
		rdmascn_obj_error(d, obj, "dc", "a DC QP is of type driver");
		return -EINVAL;
	}
	if (dc->type == MLX5DV_DCTYPE_DCT) {
		if (!q->srq) {
			rdmascn_obj_error(d, obj, "dc.type", "a dct receives "
					  "through an srq: give srq:");
			return -EINVAL;
		}
		if (!q->recv_cq && !q->send_cq) {
			rdmascn_obj_error(d, obj, "dc.type", "a dct needs a "
					  "cq: give recv_cq:");
			return -EINVAL;
		}
		r |= refuse(obj, d, q->create_flags & RAW_ONLY,
			    "create_flags", "not for a dct");
		r |= refuse(obj, d, dc->streams, "dc.streams",
			    "streams are a dci's");
		r |= refuse(obj, d, q->send_ops || q->mlx5_send_ops,
			    q->send_ops ? "send_ops" : "mlx5_send_ops",
			    "a dct sends nothing");
		return r;
	}
	r |= refuse(obj, d, dc->access_key, "dc.access_key",
		    "the access key is a dct's (a dci names it per send)");
	r |= refuse(obj, d, q->access, "access", "access is a dct's");
	r |= refuse(obj, d, q->create_flags & RAW_ONLY, "create_flags",
		    "not for a dci");
	r |= refuse(obj, d, !q->send_cq, NULL, "a dci needs a send_cq");
	return r;
}

static int mlx5_qp_check(struct rdmascn_obj *obj, struct rdmascn_diag *d)
{
	struct mlx5_qp *q = rdmascn_obj_data(obj);
	int r = 0;

	q->cap_given = rdmascn_qp_cap_given(obj);
	if (q->path_mtu && q->path_mtu != 256 && q->path_mtu != 512 &&
	    q->path_mtu != 1024 && q->path_mtu != 2048 &&
	    q->path_mtu != 4096) {
		rdmascn_obj_error(d, obj, "path_mtu", "%u is not an MTU "
				  "(256, 512, 1024, 2048 or 4096)",
				  q->path_mtu);
		return -EINVAL;
	}
	if (q->min_rnr_timer > 31) {
		rdmascn_obj_error(d, obj, "min_rnr_timer", "%u is over 31 "
				  "(a 5-bit code)", q->min_rnr_timer);
		return -EINVAL;
	}
	if (q->dc)
		return check_dc(obj, d, q);
	if (q->type == MLX5_QPT_DRIVER) {
		rdmascn_obj_error(d, obj, "type", "a driver QP here is a DC "
				  "QP: give dc: {type: dci|dct}");
		return -EINVAL;
	}
	r |= refuse(obj, d, q->access, "access", "access is a dct's");
	r |= refuse(obj, d, q->path_mtu, "path_mtu", "path_mtu is a DC "
		    "QP's (a connection sets an rc or uc QP's)");
	r |= refuse(obj, d, q->min_rnr_timer, "min_rnr_timer",
		    "min_rnr_timer is a dct's");
	r |= refuse(obj, d, !q->send_cq, NULL, "give send_cq:");
	r |= refuse(obj, d, q->create_flags & RAW_ONLY &&
		    q->type != MLX5_QPT_RAW_PACKET, "create_flags",
		    "tunnel_offloads and tir_allow_self_loopback_* are a "
		    "raw_packet QP's");
	return r;
}

/* A DCI's sends name a DCT each (`dct:` and `ah:` of a step). */
static bool needs_dest(const void *data)
{
	const struct mlx5_qp *q = data;

	return q->dc && q->dc->type == MLX5DV_DCTYPE_DCI;
}

static bool is_dest(const void *data)
{
	const struct mlx5_qp *q = data;

	return q->dc && q->dc->type == MLX5DV_DCTYPE_DCT;
}

const struct rdmascn_wr_dest mlx5_qp_wr_dest = {
	.kind = "mlx5_qp",
	.needs_dest = needs_dest,
	.is_dest = is_dest,
	.sender = "a dci",
	.dest = "a dct",
	.set_wr_dest = mlx5_qp_set_wr_dest,
};

extern const struct rdmascn_ops mlx5_qp_ops;

const struct rdmascn_kind mlx5_kind_qp = {
	.name = "mlx5_qp",
	.section = "mlx5_qps",
	.summary = "a QP made with mlx5dv_create_qp(): DCI, DCT, raw packet "
		   "with mlx5 create flags, mlx5 send ops",
	.fields = mlx5_qp_fields,
	.size = sizeof(struct mlx5_qp),
	.id_offset = offsetof(struct mlx5_qp, id),
	.refs = mlx5_qp_refs,
	.check = mlx5_qp_check,
	.ops = &mlx5_qp_ops,
};
