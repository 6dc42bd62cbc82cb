// SPDX-License-Identifier: MIT
/*
 * mlx5 plugin.  For now it tells `rdmascn devices` what mlx5dv knows of a
 * device: the direct-verbs flags and whether DevX can be opened; and
 * `requires: {features: [mlx5dv, devx]}` whether a device has them.  Later
 * it adds the mlx5 object kinds and DevX commands through the same
 * registration.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <infiniband/mlx5dv.h>

#include "rdmascn/plugin.h"
#include "rdmascn/value.h"

struct flag_name {
	uint64_t flag;
	const char *name;
};

static const struct flag_name mlx5_flags[] = {
	{ MLX5DV_CONTEXT_FLAGS_CQE_V1, "cqe_v1" },
	{ MLX5DV_CONTEXT_FLAGS_MPW_ALLOWED, "mpw_allowed" },
	{ MLX5DV_CONTEXT_FLAGS_ENHANCED_MPW, "enhanced_mpw" },
	{ MLX5DV_CONTEXT_FLAGS_CQE_128B_COMP, "cqe_128b_comp" },
	{ MLX5DV_CONTEXT_FLAGS_CQE_128B_PAD, "cqe_128b_pad" },
	{ MLX5DV_CONTEXT_FLAGS_PACKET_BASED_CREDIT_MODE, "packet_based_credit_mode" },
	{ MLX5DV_CONTEXT_FLAGS_REAL_TIME_TS, "real_time_ts" },
};

/* DevX needs a context opened for it: try, and say. */
static bool devx_opens(struct ibv_device *device)
{
	struct mlx5dv_context_attr attr = {
		.flags = MLX5DV_CONTEXT_FLAGS_DEVX,
	};
	struct ibv_context *devx = mlx5dv_open_device(device, &attr);

	if (!devx)
		return false;
	ibv_close_device(devx);
	return true;
}

static void describe_device(struct ibv_context *ctx, struct rs_val *dev)
{
	struct mlx5dv_context attr = {
		.comp_mask = MLX5DV_CONTEXT_MASK_CQE_COMPRESION |
			     MLX5DV_CONTEXT_MASK_SWP |
			     MLX5DV_CONTEXT_MASK_STRIDING_RQ |
			     MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS |
			     MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS |
			     MLX5DV_CONTEXT_MASK_DC_ODP_CAPS,
	};
	struct rs_val *m, *flags;

	if (!mlx5dv_is_supported(ctx->device))
		return;
	m = rs_val_put_obj(dev, "mlx5");
	if (mlx5dv_query_device(ctx, &attr)) {
		rs_val_put_str(m, "error", "mlx5dv_query_device failed");
		return;
	}
	rs_val_put_u64(m, "version", attr.version);
	flags = rs_val_put_arr(m, "flags");
	for (size_t i = 0; i < sizeof(mlx5_flags) / sizeof(*mlx5_flags); i++)
		if (attr.flags & mlx5_flags[i].flag)
			rs_val_push_str(flags, mlx5_flags[i].name);
	if (attr.comp_mask & MLX5DV_CONTEXT_MASK_CQE_COMPRESION)
		rs_val_put_u64(m, "cqe_comp_max_num", attr.cqe_comp_caps.max_num);
	if (attr.comp_mask & MLX5DV_CONTEXT_MASK_STRIDING_RQ)
		rs_val_put_u64(m, "striding_rq_max_stride_bytes",
			   1ull << attr.striding_rq_caps.max_single_stride_log_num_of_bytes);
	if (attr.comp_mask & MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS)
		rs_val_put_u64(m, "tunnel_offloads_caps", attr.tunnel_offloads_caps);
	if (attr.comp_mask & MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS)
		rs_val_put_u64(m, "num_lag_ports", attr.num_lag_ports);
	if (attr.comp_mask & MLX5DV_CONTEXT_MASK_DC_ODP_CAPS)
		rs_val_put_u64(m, "dc_odp_caps", attr.dc_odp_caps);
	rs_val_put_bool(m, "devx", devx_opens(ctx->device));
}

/* The core knows these words already; the plugin is what can tell them. */
enum { FEAT_MLX5DV, FEAT_DEVX };
static const struct rdmascn_feature mlx5_features[] = {
	[FEAT_MLX5DV] = { "mlx5dv", "mlx5dv_is_supported()" },
	[FEAT_DEVX] = { "devx",
			"mlx5dv_open_device(MLX5DV_CONTEXT_FLAGS_DEVX)" },
	{ NULL }
};

static int device_features(struct ibv_context *ctx, uint64_t *ret_have)
{
	uint64_t have = 0;

	if (mlx5dv_is_supported(ctx->device)) {
		have |= 1ull << FEAT_MLX5DV;
		if (devx_opens(ctx->device))
			have |= 1ull << FEAT_DEVX;
	}
	*ret_have = have;
	return 0;
}

static const struct rdmascn_plugin mlx5_plugin = {
	.name = "mlx5",
	.version = "1",
	.describe_device = describe_device,
	.features = mlx5_features,
	.device_features = device_features,
};

__attribute__((constructor))
static void mlx5_plugin_init(void)
{
	rdmascn_register_plugin_v5(&mlx5_plugin);
}
