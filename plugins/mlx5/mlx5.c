// SPDX-License-Identifier: MIT
/*
 * mlx5 plugin.  It tells `rdmascn devices` what mlx5dv_query_device()
 * knows of a device and whether DevX can be opened; `requires:
 * {features: [mlx5dv, devx]}` whether a device has them; and adds the
 * kinds mlx5_contexts (a context opened with mlx5dv_open_device()) and
 * devx (DevX commands written by name with named PRM fields), through
 * the same registration and ops tables as the core's.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "mlx5.h"
#include "rdmascn/value.h"

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

static void describe_device(struct ibv_context *ctx, struct rdmascn_val *dev)
{
	struct mlx5dv_context attr = { .comp_mask = mlx5_query_mask };
	struct rdmascn_val *m;

	if (!mlx5dv_is_supported(ctx->device))
		return;
	m = rdmascn_val_put_obj(dev, "mlx5");
	if (mlx5dv_query_device(ctx, &attr)) {
		rdmascn_val_put_str(m, "error", "mlx5dv_query_device failed");
		return;
	}
	mlx5_attr_describe(&attr, m);
	rdmascn_val_put_bool(m, "devx", devx_opens(ctx->device));
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

static const struct rdmascn_kind *const mlx5_kinds[] = {
	&mlx5_kind_context,
	&mlx5_kind_devx,
	&mlx5_kind_cq,
	&mlx5_kind_uar,
	&mlx5_kind_var,
	&mlx5_kind_pp,
	&mlx5_kind_umem,
	&mlx5_kind_matcher,
	&mlx5_kind_flow,
	&mlx5_kind_qp,
	&mlx5_kind_mkey,
	NULL
};

static const struct rdmascn_wr_dest *const mlx5_wr_dests[] = {
	&mlx5_qp_wr_dest,
	NULL
};

static const struct rdmascn_wr_reg *const mlx5_wr_regs[] = {
	&mlx5_mkey_wr_reg,
	NULL
};

static const struct rdmascn_plugin mlx5_plugin = {
	.name = "mlx5",
	/* Built with the engine, from the same tree: its version. */
	.version = RDMASCN_VERSION,
	.describe_device = describe_device,
	.kinds = mlx5_kinds,
	.features = mlx5_features,
	.device_features = device_features,
	.wr_dests = mlx5_wr_dests,
	.wr_regs = mlx5_wr_regs,
};

RDMASCN_PLUGIN(mlx5_plugin)
