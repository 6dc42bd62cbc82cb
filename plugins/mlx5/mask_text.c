// SPDX-License-Identifier: MIT
/* comp_masks by name: one table a mask, one way of joining them. */
#include <stdio.h>

#include <infiniband/mlx5dv.h>

#include "mask_text.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct mask_bit {
	uint64_t bit;
	const char *name;
};

static const struct mask_bit qp_init[] = {
	{ IBV_QP_INIT_ATTR_PD, "PD" },
	{ IBV_QP_INIT_ATTR_XRCD, "XRCD" },
	{ IBV_QP_INIT_ATTR_CREATE_FLAGS, "CREATE_FLAGS" },
	{ IBV_QP_INIT_ATTR_MAX_TSO_HEADER, "MAX_TSO_HEADER" },
	{ IBV_QP_INIT_ATTR_IND_TABLE, "IND_TABLE" },
	{ IBV_QP_INIT_ATTR_RX_HASH, "RX_HASH" },
	{ IBV_QP_INIT_ATTR_SEND_OPS_FLAGS, "SEND_OPS_FLAGS" },
};

static const struct mask_bit dv_qp_init[] = {
	{ MLX5DV_QP_INIT_ATTR_MASK_QP_CREATE_FLAGS, "QP_CREATE_FLAGS" },
	{ MLX5DV_QP_INIT_ATTR_MASK_DC, "DC" },
	{ MLX5DV_QP_INIT_ATTR_MASK_SEND_OPS_FLAGS, "SEND_OPS_FLAGS" },
	{ MLX5DV_QP_INIT_ATTR_MASK_DCI_STREAMS, "DCI_STREAMS" },
};

static const struct mask_bit dv_cq_init[] = {
	{ MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE, "COMPRESSED_CQE" },
	{ MLX5DV_CQ_INIT_ATTR_MASK_FLAGS, "FLAGS" },
	{ MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE, "CQE_SIZE" },
};

static const struct {
	const struct mask_bit *bits;
	size_t n;
} masks[] = {
	[MLX5_MASK_QP_INIT] = { qp_init, N(qp_init) },
	[MLX5_MASK_DV_QP_INIT] = { dv_qp_init, N(dv_qp_init) },
	[MLX5_MASK_DV_CQ_INIT] = { dv_cq_init, N(dv_cq_init) },
};

const char *mlx5_mask_text(enum mlx5_mask which, uint64_t mask, char *buf,
			   unsigned len)
{
	uint64_t left = mask;
	unsigned o = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; which < N(masks) && i < masks[which].n; i++) {
		const struct mask_bit *b = &masks[which].bits[i];

		if (!(mask & b->bit) || o >= len)
			continue;
		o += (unsigned)snprintf(buf + o, len - o, "%s%s",
					o ? "|" : "", b->name);
		left &= ~b->bit;
	}
	/* A bit this table does not know: still said, as a number. */
	if (left && o < len)
		o += (unsigned)snprintf(buf + o, len - o, "%s0x%llx",
					o ? "|" : "", (unsigned long long)left);
	if (!o)
		snprintf(buf, len, "0");
	return buf;
}
