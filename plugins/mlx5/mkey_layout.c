// SPDX-License-Identifier: MIT
/*
 * What an mlx5_mkeys declaration computes, without a device: the
 * mkey's descriptors, the QP's inline room its UMR WR needs, the
 * registered length and each entry as the device takes it.
 *
 * The inline room: rdma-core (providers/mlx5/qp.c,
 * mlx5_send_wr_set_mkey_layout()) builds the UMR WQE's translation
 * entries where inline data would go, and refuses (ENOMEM) a layout of
 * more entries than
 *   list:        (max_inline_data + sizeof(mlx5_wqe_inl_data_seg))
 *                  / sizeof(mlx5_wqe_data_seg)
 *   interleaved: (max_inline_data + sizeof(mlx5_wqe_inl_data_seg))
 *                  / sizeof(mlx5_wqe_umr_repeat_ent_seg) - 1
 * (4, 16 and 16 bytes), so a QP posting n entries needs
 *   list:        max_inline_data >= 16 n - 4
 *   interleaved: max_inline_data >= 16 (n + 1) - 4
 * which is what mlx5dv_wr_mr_list(3) means by "more than 4 num_sge
 * entries" (and _interleaved's "more than 3") needing a larger WQE.
 */
#include "mkey.h"

#define INL_HDR sizeof(struct mlx5_wqe_inl_data_seg)
#define LIST_ENT sizeof(struct mlx5_wqe_data_seg)
#define IL_ENT sizeof(struct mlx5_wqe_umr_repeat_ent_seg)

unsigned mlx5_mkey_entries(const struct mlx5_mkey *k)
{
	if (k->interleaved.entries_count)
		return k->interleaved.entries_count + 1;
	return k->mr_list_count;
}

unsigned mlx5_mkey_max_entries(const struct mlx5_mkey *k)
{
	return k->max_entries ? k->max_entries : mlx5_mkey_entries(k);
}

uint32_t mlx5_mkey_inline_need(const struct mlx5_mkey *k)
{
	uint64_t n;

	if (k->interleaved.entries_count)
		n = ((uint64_t)k->interleaved.entries_count + 1) * IL_ENT;
	else
		n = (uint64_t)k->mr_list_count * LIST_ENT;
	if (n <= INL_HDR)
		return 0;
	return n - INL_HDR > UINT32_MAX ? UINT32_MAX : (uint32_t)(n - INL_HDR);
}

static uint32_t repeats(const struct mlx5_mkey *k)
{
	return k->interleaved.repeat ? k->interleaved.repeat : 1;
}

uint64_t mlx5_mkey_length(const struct mlx5_mkey *k)
{
	uint64_t n = 0;

	if (k->interleaved.entries_count) {
		for (unsigned i = 0; i < k->interleaved.entries_count; i++)
			n += k->interleaved.entries[i].bytes_count;
		return n * repeats(k);
	}
	for (unsigned i = 0; i < k->mr_list_count; i++)
		n += k->mr_list[i].length;
	return n;
}

uint64_t mlx5_mkey_il_span(const struct mlx5_mkey_il_entry *e,
			   uint32_t repeat)
{
	uint64_t stride = (uint64_t)e->bytes_count + e->bytes_skip;

	if (!repeat)
		repeat = 1;
	return (uint64_t)(repeat - 1) * stride + e->bytes_count;
}

void mlx5_mkey_sges(const struct mlx5_mkey *k, const uint64_t *addr,
		    const uint32_t *lkey, struct ibv_sge *ret)
{
	for (unsigned i = 0; i < k->mr_list_count; i++)
		ret[i] = (struct ibv_sge){
			.addr = addr[i] + k->mr_list[i].offset,
			.length = k->mr_list[i].length,
			.lkey = lkey[i],
		};
}

void mlx5_mkey_interleaved(const struct mlx5_mkey *k, const uint64_t *addr,
			   const uint32_t *lkey,
			   struct mlx5dv_mr_interleaved *ret)
{
	for (unsigned i = 0; i < k->interleaved.entries_count; i++) {
		const struct mlx5_mkey_il_entry *e = &k->interleaved.entries[i];

		ret[i] = (struct mlx5dv_mr_interleaved){
			.addr = addr[i] + e->offset,
			.bytes_count = e->bytes_count,
			.bytes_skip = e->bytes_skip,
			.lkey = lkey[i],
		};
	}
}
