// SPDX-License-Identifier: MIT
/*
 * mlx5_mkeys without a device (plugins/mlx5/mkey_layout.c): the
 * descriptors mlx5dv_create_mkey() is asked for, the max_inline_data a
 * QP needs for the UMR WR (checked against rdma-core's own bound in
 * mlx5_send_wr_set_mkey_layout(): one byte less is refused), the
 * registered length, an interleaved entry's span of its MR, the entries
 * as the device takes them, and the QP's create asking for the room.
 */
#include <string.h>

#include <infiniband/mlx5dv.h>

#include "check.h"
#include "list.h"
#include "mkey.h"
#include "mlx5_qp.h"

/* rdma-core's test, providers/mlx5/qp.c: how many entries a QP with
 * @inl bytes of max_inline_data takes. */
static unsigned rdma_core_max(uint32_t inl, bool interleaved)
{
	size_t room = inl + sizeof(struct mlx5_wqe_inl_data_seg);

	return interleaved ?
	       room / sizeof(struct mlx5_wqe_umr_repeat_ent_seg) - 1 :
	       room / sizeof(struct mlx5_wqe_data_seg);
}

static struct mlx5_mkey_sge list3[] = {
	{ "a", 0, 1024 }, { "b", 512, 512 }, { "a", 2048, 1024 },
};
static struct mlx5_mkey_il_entry il2[] = {
	{ "hdr", 0, 16, 48 }, { "payload", 128, 64, 0 },
};

TEST(mlx5mkey, entries_and_max_entries)
{
	struct mlx5_mkey l = { .mr_list = list3, .mr_list_count = 3 };
	struct mlx5_mkey i = { .interleaved = { 4, il2, 2 } };

	CHECK_UINT(mlx5_mkey_entries(&l), 3);
	CHECK_UINT(mlx5_mkey_max_entries(&l), 3);
	/* One more for the strided (repeat block) header. */
	CHECK_UINT(mlx5_mkey_entries(&i), 3);
	CHECK_UINT(mlx5_mkey_max_entries(&i), 3);
	i.max_entries = 8;
	CHECK_UINT(mlx5_mkey_max_entries(&i), 8);
	CHECK_UINT(mlx5_mkey_entries(&i), 3);
}

TEST(mlx5mkey, inline_need_is_rdma_cores_bound)
{
	struct mlx5_mkey_sge sge[64];
	struct mlx5_mkey_il_entry ent[64];

	memset(sge, 0, sizeof(sge));
	memset(ent, 0, sizeof(ent));
	/* The man pages' words: 4 sges, 3 interleaved entries fit the
	 * default WQE's 60 bytes (16 n - 4, 16 (n + 1) - 4). */
	CHECK_UINT(mlx5_mkey_inline_need(&(struct mlx5_mkey){
		.mr_list = sge, .mr_list_count = 4 }), 60);
	CHECK_UINT(mlx5_mkey_inline_need(&(struct mlx5_mkey){
		.interleaved = { 1, ent, 3 } }), 60);
	CHECK_UINT(mlx5_mkey_inline_need(&(struct mlx5_mkey){
		.mr_list = sge, .mr_list_count = 3 }), 44);
	CHECK_UINT(mlx5_mkey_inline_need(&(struct mlx5_mkey){
		.interleaved = { 1, ent, 2 } }), 44);
	for (unsigned n = 1; n <= 64; n++) {
		struct mlx5_mkey l = { .mr_list = sge, .mr_list_count = n };
		struct mlx5_mkey i = { .interleaved = { 1, ent, n } };
		uint32_t nl = mlx5_mkey_inline_need(&l);
		uint32_t ni = mlx5_mkey_inline_need(&i);

		/* Enough, and not one byte more than needed. */
		CHECK(rdma_core_max(nl, false) >= n);
		CHECK(rdma_core_max(ni, true) >= n);
		CHECK(!nl || rdma_core_max(nl - 1, false) < n);
		CHECK(rdma_core_max(ni - 1, true) < n);
	}
}

TEST(mlx5mkey, length_and_span)
{
	struct mlx5_mkey l = { .mr_list = list3, .mr_list_count = 3 };
	struct mlx5_mkey i = { .interleaved = { 4, il2, 2 } };

	CHECK_UINT(mlx5_mkey_length(&l), 2560);
	CHECK_UINT(mlx5_mkey_length(&i), (16 + 64) * 4);
	/* Four repetitions of 16 bytes, 64 apart: the last one ends at
	 * 3 * 64 + 16. */
	CHECK_UINT(mlx5_mkey_il_span(&il2[0], 4), 208);
	CHECK_UINT(mlx5_mkey_il_span(&il2[1], 4), 256);
	CHECK_UINT(mlx5_mkey_il_span(&il2[1], 0), 64);
	i.interleaved.repeat = 0;
	CHECK_UINT(mlx5_mkey_length(&i), 80);
}

TEST(mlx5mkey, entries_as_the_device_takes_them)
{
	struct mlx5_mkey l = { .mr_list = list3, .mr_list_count = 3 };
	struct mlx5_mkey i = { .interleaved = { 4, il2, 2 } };
	const uint64_t addr[] = { 0x10000, 0x20000, 0x10000 };
	const uint32_t lkey[] = { 0x11, 0x22, 0x11 };
	struct ibv_sge sge[3];
	struct mlx5dv_mr_interleaved d[2];

	mlx5_mkey_sges(&l, addr, lkey, sge);
	CHECK_UINT(sge[0].addr, 0x10000);
	CHECK_UINT(sge[0].length, 1024);
	CHECK_UINT(sge[0].lkey, 0x11);
	CHECK_UINT(sge[1].addr, 0x20000 + 512);
	CHECK_UINT(sge[1].length, 512);
	CHECK_UINT(sge[1].lkey, 0x22);
	CHECK_UINT(sge[2].addr, 0x10000 + 2048);
	CHECK_UINT(sge[2].length, 1024);
	mlx5_mkey_interleaved(&i, addr, lkey, d);
	CHECK_UINT(d[0].addr, 0x10000);
	CHECK_UINT(d[0].bytes_count, 16);
	CHECK_UINT(d[0].bytes_skip, 48);
	CHECK_UINT(d[0].lkey, 0x11);
	CHECK_UINT(d[1].addr, 0x20000 + 128);
	CHECK_UINT(d[1].bytes_count, 64);
	CHECK_UINT(d[1].bytes_skip, 0);
	CHECK_UINT(d[1].lkey, 0x22);
}

/* register_layout's check raises umr_inline; the create asks for it. */
TEST(mlx5mkey, qp_asks_for_the_umr_room)
{
	struct rdmascn_qp_cap cap = { 16, 16, 1, 1, 100 };
	struct mlx5_qp q = {
		.type = MLX5_QPT_RC, .send_cq = "cq",
		.mlx5_send_ops = MLX5DV_QP_EX_WITH_MR_LIST, .umr_inline = 44,
	};
	struct ibv_qp_init_attr_ex ax;
	struct mlx5dv_qp_init_attr dv;

	mlx5_qp_init_attr(&q, &ax, &dv);
	CHECK_UINT(ax.cap.max_inline_data, 44);
	CHECK_UINT(dv.send_ops_flags, MLX5DV_QP_EX_WITH_MR_LIST);
	q.cap = &cap;
	q.cap_given = RDMASCN_QP_CAP_MAX_INLINE_DATA;
	mlx5_qp_init_attr(&q, &ax, &dv);
	CHECK_UINT(ax.cap.max_inline_data, 100);
	cap.max_inline_data = 12;
	mlx5_qp_init_attr(&q, &ax, &dv);
	CHECK_UINT(ax.cap.max_inline_data, 44);
}
