/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MLX5_QP_H
#define RDMASCN_MLX5_QP_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/mlx5dv.h>

#include "rdmascn/qp.h"

/*
 * mlx5_qps: a QP made with mlx5dv_create_qp(), its mlx5 attributes as
 * fields.  The scenario's data (libcyaml fills it), and what the create
 * computes from it, kept apart from the device so that unit tests check
 * the attributes without one.
 */

/* `type:`: the verbs QP types and `driver` (a DC QP, dc: says which). */
enum mlx5_qp_type {
	MLX5_QPT_RC = RDMASCN_QPT_RC,
	MLX5_QPT_UC = RDMASCN_QPT_UC,
	MLX5_QPT_UD = RDMASCN_QPT_UD,
	MLX5_QPT_RAW_PACKET = RDMASCN_QPT_RAW_PACKET,
	MLX5_QPT_DRIVER = 100,
};


struct mlx5_qp_streams {
	uint8_t log_num_concurent;
	uint8_t log_num_errored;
};

struct mlx5_qp_dc {
	int type;                        /* MLX5DV_DCTYPE_* */
	uint64_t access_key;             /* dct */
	struct mlx5_qp_streams *streams; /* dci; NULL: none */
};

struct mlx5_qp {
	char *id;
	char **after;
	unsigned after_count;
	char *pd;
	char *send_cq;
	char *recv_cq;
	char *srq;
	int type;                   /* enum mlx5_qp_type */
	struct rdmascn_qp_cap *cap; /* NULL: the type's defaults */
	int sq_sig_all;
	uint64_t send_ops;          /* IBV_QP_EX_WITH_* */
	uint64_t mlx5_send_ops;     /* MLX5DV_QP_EX_WITH_* */
	uint32_t create_flags;      /* MLX5DV_QP_CREATE_* */
	struct mlx5_qp_dc *dc;
	uint8_t port;               /* 0: its context's */
	uint16_t pkey_index;
	uint32_t qkey;
	uint32_t access;            /* dct: IBV_ACCESS_* */
	uint8_t min_rnr_timer;      /* dct; 0: 12 */
	uint32_t path_mtu;          /* dct, dci: bytes; 0: 1024 */
	/* Not a field: the max_inline_data the UMR WRs posted on it need
	 * (register_layout's check raises it); the create asks for at
	 * least this much. */
	uint32_t umr_inline;
	/* Not a field: which of cap: are given (RDMASCN_QP_CAP_*), as
	 * the check read them; the others are qps' defaults. */
	unsigned cap_given;
};

/* What a declaration asks mlx5dv_create_qp() for: both attribute
 * structures, the pointers to other objects left NULL. */
void mlx5_qp_init_attr(const struct mlx5_qp *q,
		       struct ibv_qp_init_attr_ex *ax,
		       struct mlx5dv_qp_init_attr *dv);

/* The states a declaration moves its QP through after the create (at
 * most 3; 0: it stays in RESET for a connection), each one's attribute
 * mask, with @port's values (the DCT's address vector). */
struct mlx5_qp_step {
	struct ibv_qp_attr attr;
	int mask;
};
unsigned mlx5_qp_steps(const struct mlx5_qp *q,
		       const struct rdmascn_port *port,
		       struct mlx5_qp_step ret[3]);

/* A DCI's WR to the DCT @dest through @ah (mlx5dv_wr_set_dc_addr()):
 * struct rdmascn_wr_dest's set_wr_dest. */
struct rdmascn_live;
void mlx5_qp_set_wr_dest(struct rdmascn_live *l, struct rdmascn_live *dest,
			 struct ibv_ah *ah);

/* The mlx5dv_qp_ex of an mlx5_qp (NULL: not made, or no send ops). */
struct mlx5dv_qp_ex *mlx5_qp_mqpx(struct rdmascn_live *l);

/* Names, for calls and the record: "DCI", "TUNNEL_OFFLOADS|...". */
const char *mlx5_dc_type_name(int type);
void mlx5_qp_flags_text(uint32_t flags, char *buf, unsigned len);
void mlx5_qp_send_ops_text(uint64_t ops, uint64_t mlx5_ops, char *buf,
			   unsigned len);

#endif
