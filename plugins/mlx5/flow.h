/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MLX5_FLOW_H
#define RDMASCN_MLX5_FLOW_H

#include "res.h"

/* An mlx5_flow_matchers entry: what a flow's match is checked against. */
struct mlx5_matcher {
	char *id;
	char *context;           /* a core context */
	uint32_t priority;
	uint32_t flags;          /* IBV_FLOW_ATTR_FLAGS_* */
	int32_t ft_type;         /* 0: none given; else the type + 1 */
	struct mlx5_field *criteria; /* fte_match_param fields, masks */
	unsigned criteria_count;
	char **after;
	unsigned after_count;
};

/* What both send: the match parameters, fte_match_param's 512 bytes. */
#define MLX5_MATCH_BYTES (0x1000 / 8)

struct mlx5_matcher_rt {
	struct mlx5dv_flow_matcher *matcher;
};

/* @f's bytes into @buf (MLX5_MATCH_BYTES), masks or values, and the
 * match_criteria_enable they need: 0 or -errno (-ENOMEM). */
int mlx5_match_build(const struct mlx5_field *f, unsigned n, bool masks,
		     uint8_t *buf, uint8_t *ret_criteria);

extern const struct rdmascn_kind mlx5_kind_matcher;
extern const struct rdmascn_kind mlx5_kind_flow;

#endif
