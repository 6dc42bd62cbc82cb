/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MLX5_MKEY_H
#define RDMASCN_MLX5_MKEY_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/mlx5dv.h>

/*
 * mlx5_mkeys: an indirect mkey (mlx5dv_create_mkey()) and the layout a
 * register_layout step gives it with a UMR WR: a list of SGEs
 * (mlx5dv_wr_mr_list()) or an interleaved pattern repeated
 * (mlx5dv_wr_mr_interleaved()).  The scenario's data, and what is
 * computed from it, kept apart from the device so that unit tests
 * check it without one.
 */
struct mlx5_mkey_sge {
	char *mr;
	uint64_t offset;             /* in mr */
	uint32_t length;
};

struct mlx5_mkey_il_entry {
	char *mr;
	uint64_t offset;             /* in mr: the first repetition's */
	uint32_t bytes_count;        /* taken each repetition ... */
	uint32_t bytes_skip;         /* ... then skipped */
};

struct mlx5_mkey_il {
	uint32_t repeat;             /* repeat_count; 0: 1 */
	struct mlx5_mkey_il_entry *entries;
	unsigned entries_count;
};

struct mlx5_mkey {
	char *id;
	char **after;
	unsigned after_count;
	char *pd;
	uint32_t access;             /* IBV_ACCESS_*: the layout's */
	uint16_t max_entries;        /* 0: what the layout needs */
	struct mlx5_mkey_sge *mr_list;
	unsigned mr_list_count;
	struct mlx5_mkey_il interleaved; /* entries_count 0: none */
};

/* The descriptors the layout takes of the mkey: the list's length, or
 * the interleaved entries and one for the strided (repeat block)
 * header, as mlx5dv_wr_mr_interleaved(3) says. */
unsigned mlx5_mkey_entries(const struct mlx5_mkey *k);
/* What mlx5dv_create_mkey() is asked for: max_entries when given, else
 * mlx5_mkey_entries(). */
unsigned mlx5_mkey_max_entries(const struct mlx5_mkey *k);
/* The max_inline_data a QP needs to post the layout's UMR WR (see
 * mkey_layout.c: rdma-core's mlx5_send_wr_set_mkey_layout()). */
uint32_t mlx5_mkey_inline_need(const struct mlx5_mkey *k);
/* The bytes the layout registers (the mkey's length, zero-based). */
uint64_t mlx5_mkey_length(const struct mlx5_mkey *k);
/* The bytes of its MR an interleaved entry spans from its offset over
 * @repeat repetitions (the last one without its skip). */
uint64_t mlx5_mkey_il_span(const struct mlx5_mkey_il_entry *e,
			   uint32_t repeat);
/* The layout's entries as the device takes them, from each entry's MR
 * address @addr[i] and @lkey[i]: @ret holds mlx5_mkey_entries() (less
 * the header) of them. */
void mlx5_mkey_sges(const struct mlx5_mkey *k, const uint64_t *addr,
		    const uint32_t *lkey, struct ibv_sge *ret);
void mlx5_mkey_interleaved(const struct mlx5_mkey *k, const uint64_t *addr,
			   const uint32_t *lkey,
			   struct mlx5dv_mr_interleaved *ret);

#endif
