/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MLX5_MASK_TEXT_H
#define RDMASCN_MLX5_MASK_TEXT_H

#include <stdint.h>

/* The comp_masks the plugin's create calls pass, as -v and the dry run
 * show them: their bits by name ("PD|SEND_OPS_FLAGS"), so that every
 * call reads alike. */
enum mlx5_mask {
	MLX5_MASK_QP_INIT,       /* ibv_qp_init_attr_ex (IBV_QP_INIT_ATTR_*) */
	MLX5_MASK_DV_QP_INIT,    /* mlx5dv_qp_init_attr */
	MLX5_MASK_DV_CQ_INIT,    /* mlx5dv_cq_init_attr */
};

/* @mask's bits by name joined by '|', a bit without one as hex, "0" for
 * none, into @buf; @buf. */
const char *mlx5_mask_text(enum mlx5_mask which, uint64_t mask, char *buf,
			   unsigned len);

#endif
