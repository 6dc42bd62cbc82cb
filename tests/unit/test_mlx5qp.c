// SPDX-License-Identifier: MIT
/*
 * mlx5_qps without a device (plugins/mlx5/mlx5_qp_attr.c): what a
 * declaration asks mlx5dv_create_qp() for, field by field, and the
 * state changes (attributes and masks) a DCT, a DCI, a raw packet QP
 * and an RC QP make after the create.
 */
#include <string.h>

#include <infiniband/mlx5dv.h>

#include "check.h"
#include "list.h"
#include "mask_text.h"
#include "mlx5_qp.h"

static const struct rdmascn_port port2 = { .port = 2, .gid_index = 3 };

TEST(mlx5qp, dci_attr)
{
	struct mlx5_qp_cap cap = { 100, 0, 1, 0, 0 };
	struct mlx5_qp_streams st = { 3, 2 };
	struct mlx5_qp_dc dc = { .type = MLX5DV_DCTYPE_DCI, .streams = &st };
	struct mlx5_qp q = {
		.type = MLX5_QPT_DRIVER, .send_cq = "cq", .cap = &cap,
		.dc = &dc, .send_ops = IBV_QP_EX_WITH_RDMA_WRITE,
		.mlx5_send_ops = MLX5DV_QP_EX_WITH_MR_LIST,
	};
	struct ibv_qp_init_attr_ex ax;
	struct mlx5dv_qp_init_attr dv;
	struct mlx5_qp_step s[3];
	char buf[128];

	mlx5_qp_init_attr(&q, &ax, &dv);
	CHECK_INT(ax.qp_type, IBV_QPT_DRIVER);
	CHECK_UINT(ax.comp_mask, IBV_QP_INIT_ATTR_PD |
		   IBV_QP_INIT_ATTR_SEND_OPS_FLAGS);
	CHECK_UINT(ax.send_ops_flags, IBV_QP_EX_WITH_RDMA_WRITE);
	CHECK_UINT(ax.cap.max_send_wr, 100);
	CHECK_UINT(ax.cap.max_recv_wr, 0);
	CHECK_UINT(ax.cap.max_send_sge, 1);
	CHECK_UINT(dv.comp_mask, MLX5DV_QP_INIT_ATTR_MASK_DC |
		   MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS |
		   MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS);
	CHECK_INT(dv.dc_init_attr.dc_type, MLX5DV_DCTYPE_DCI);
	CHECK_UINT(dv.dc_init_attr.dci_streams.log_num_concurent, 3);
	CHECK_UINT(dv.dc_init_attr.dci_streams.log_num_errored, 2);
	CHECK_UINT(dv.send_ops_flags, MLX5DV_QP_EX_WITH_MR_LIST);
	CHECK_UINT(dv.create_flags, 0);

	/* INIT pkey|port, RTR path_mtu, RTS the requester's five. */
	CHECK_UINT(mlx5_qp_steps(&q, &port2, s), 3);
	CHECK_INT(s[0].attr.qp_state, IBV_QPS_INIT);
	CHECK_INT(s[0].mask, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT);
	CHECK_UINT(s[0].attr.port_num, 2);
	CHECK_INT(s[1].attr.qp_state, IBV_QPS_RTR);
	CHECK_INT(s[1].mask, IBV_QP_STATE | IBV_QP_PATH_MTU);
	CHECK_INT(s[1].attr.path_mtu, IBV_MTU_1024);
	CHECK_INT(s[2].attr.qp_state, IBV_QPS_RTS);
	CHECK_INT(s[2].mask, IBV_QP_STATE | IBV_QP_TIMEOUT |
		  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
		  IBV_QP_MAX_QP_RD_ATOMIC);
	CHECK_UINT(s[2].attr.timeout, 14);
	CHECK_UINT(s[2].attr.retry_cnt, 7);
	CHECK_UINT(s[2].attr.rnr_retry, 7);
	CHECK_UINT(s[2].attr.max_rd_atomic, 1);

	mlx5_qp_send_ops_text(ax.send_ops_flags, dv.send_ops_flags, buf,
			      sizeof(buf));
	CHECK_STR(buf, "RDMA_WRITE|MR_LIST");
	CHECK_STR(mlx5_dc_type_name(MLX5DV_DCTYPE_DCI), "DCI");
}

TEST(mlx5qp, dct_attr_and_states)
{
	struct mlx5_qp_dc dc = {
		.type = MLX5DV_DCTYPE_DCT, .access_key = 0x1234567890abcdefull,
	};
	struct mlx5_qp q = {
		.type = MLX5_QPT_DRIVER, .send_cq = "cq", .srq = "srq",
		.dc = &dc, .access = IBV_ACCESS_REMOTE_WRITE |
				     IBV_ACCESS_LOCAL_WRITE,
		.path_mtu = 4096, .port = 1,
	};
	struct rdmascn_port p = { .port = 2, .gid_index = 3 };
	struct ibv_qp_init_attr_ex ax;
	struct mlx5dv_qp_init_attr dv;
	struct mlx5_qp_step s[3];

	memset(p.gid.raw, 0xab, sizeof(p.gid.raw));
	mlx5_qp_init_attr(&q, &ax, &dv);
	/* No cap: a DCT neither sends nor has a receive queue of its own. */
	CHECK_UINT(ax.cap.max_send_wr, 0);
	CHECK_UINT(ax.cap.max_recv_wr, 0);
	CHECK_UINT(ax.comp_mask, IBV_QP_INIT_ATTR_PD);
	CHECK_UINT(dv.comp_mask, MLX5DV_QP_INIT_ATTR_MASK_DC);
	CHECK_INT(dv.dc_init_attr.dc_type, MLX5DV_DCTYPE_DCT);
	CHECK(dv.dc_init_attr.dct_access_key == 0x1234567890abcdefull);

	/* INIT pkey|port|access, RTR mtu|av|min_rnr_timer, no RTS; the
	 * declared port wins over the context's. */
	CHECK_UINT(mlx5_qp_steps(&q, &p, s), 2);
	CHECK_INT(s[0].mask, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		  IBV_QP_ACCESS_FLAGS);
	CHECK_UINT(s[0].attr.port_num, 1);
	CHECK_UINT(s[0].attr.qp_access_flags, IBV_ACCESS_REMOTE_WRITE |
		   IBV_ACCESS_LOCAL_WRITE);
	CHECK_INT(s[1].attr.qp_state, IBV_QPS_RTR);
	CHECK_INT(s[1].mask, IBV_QP_STATE | IBV_QP_PATH_MTU | IBV_QP_AV |
		  IBV_QP_MIN_RNR_TIMER);
	CHECK_INT(s[1].attr.path_mtu, IBV_MTU_4096);
	CHECK_UINT(s[1].attr.min_rnr_timer, 12);
	CHECK_UINT(s[1].attr.ah_attr.port_num, 1);
	CHECK_UINT(s[1].attr.ah_attr.is_global, 1);
	CHECK_UINT(s[1].attr.ah_attr.grh.sgid_index, 3);
	CHECK_UINT(s[1].attr.ah_attr.grh.hop_limit, 1);
	CHECK_MEM(s[1].attr.ah_attr.grh.dgid.raw, p.gid.raw, 16);

	/* Without a GID (InfiniBand, no GRH): no global route. */
	p.gid_index = -1;
	CHECK_UINT(mlx5_qp_steps(&q, &p, s), 2);
	CHECK_UINT(s[1].attr.ah_attr.is_global, 0);
	CHECK_STR(mlx5_dc_type_name(MLX5DV_DCTYPE_DCT), "DCT");
}

TEST(mlx5qp, raw_packet_flags)
{
	struct mlx5_qp q = {
		.type = MLX5_QPT_RAW_PACKET, .send_cq = "cq",
		.create_flags = MLX5DV_QP_CREATE_TIR_ALLOW_SELF_LOOPBACK_UC |
				MLX5DV_QP_CREATE_TUNNEL_OFFLOADS,
	};
	struct ibv_qp_init_attr_ex ax;
	struct mlx5dv_qp_init_attr dv;
	struct mlx5_qp_step s[3];
	char buf[160];

	mlx5_qp_init_attr(&q, &ax, &dv);
	CHECK_INT(ax.qp_type, IBV_QPT_RAW_PACKET);
	/* No cap: the defaults, both queues. */
	CHECK_UINT(ax.cap.max_send_wr, 64);
	CHECK_UINT(ax.cap.max_recv_wr, 64);
	CHECK_UINT(ax.cap.max_recv_sge, 1);
	CHECK_UINT(dv.comp_mask, MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS);
	CHECK_UINT(dv.create_flags, (1u << 0) | (1u << 1));
	mlx5_qp_flags_text(dv.create_flags, buf, sizeof(buf));
	CHECK_STR(buf, "TUNNEL_OFFLOADS|TIR_ALLOW_SELF_LOOPBACK_UC");
	mlx5_qp_flags_text(0, buf, sizeof(buf));
	CHECK_STR(buf, "0");

	/* INIT with the port only (no P_Key), then RTR and RTS bare. */
	CHECK_UINT(mlx5_qp_steps(&q, &port2, s), 3);
	CHECK_INT(s[0].mask, IBV_QP_STATE | IBV_QP_PORT);
	CHECK_UINT(s[0].attr.port_num, 2);
	CHECK_INT(s[1].mask, IBV_QP_STATE);
	CHECK_INT(s[2].mask, IBV_QP_STATE);
}

TEST(mlx5qp, rc_waits_for_a_connection)
{
	struct mlx5_qp q = {
		.type = MLX5_QPT_RC, .send_cq = "cq",
		.create_flags = MLX5DV_QP_CREATE_DISABLE_SCATTER_TO_CQE,
	};
	struct mlx5_qp ud = { .type = MLX5_QPT_UD, .qkey = 0x11111111 };
	struct mlx5_qp_step s[3];

	CHECK_UINT(mlx5_qp_steps(&q, &port2, s), 0);
	CHECK_UINT(mlx5_qp_steps(&ud, &port2, s), 3);
	CHECK_INT(s[0].mask, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
		  IBV_QP_QKEY);
	CHECK_UINT(s[0].attr.qkey, 0x11111111);
	CHECK_INT(s[2].mask, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

/* Every comp_mask the plugin's creates pass, by name through one helper
 * (mlx5dv_create_cq's was hex where mlx5dv_create_qp's was named). */
TEST(mlx5qp, comp_mask_names)
{
	char buf[96];

	CHECK_STR(mlx5_mask_text(MLX5_MASK_QP_INIT, IBV_QP_INIT_ATTR_PD |
				 IBV_QP_INIT_ATTR_SEND_OPS_FLAGS, buf,
				 sizeof(buf)), "PD|SEND_OPS_FLAGS");
	CHECK_STR(mlx5_mask_text(MLX5_MASK_DV_QP_INIT,
				 MLX5DV_QP_INIT_ATTR_MASK_DC, buf,
				 sizeof(buf)), "DC");
	CHECK_STR(mlx5_mask_text(MLX5_MASK_DV_CQ_INIT,
				 MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE |
				 MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE, buf,
				 sizeof(buf)), "COMPRESSED_CQE|CQE_SIZE");
	CHECK_STR(mlx5_mask_text(MLX5_MASK_DV_CQ_INIT, 0, buf, sizeof(buf)),
		  "0");
	/* A bit without a name: still there, as a number. */
	CHECK_STR(mlx5_mask_text(MLX5_MASK_DV_CQ_INIT,
				 MLX5DV_CQ_INIT_ATTR_MASK_FLAGS | 1u << 20, buf,
				 sizeof(buf)), "FLAGS|0x100000");
}
