// SPDX-License-Identifier: MIT
/*
 * mlx5_uars: a User Access Region for DevX commands
 * (mlx5dv_devx_alloc_uar(), blueflame or non-cached), on an mlx5
 * context opened with devx.  Its page_id is what a devx command's
 * `set: [{field: cq_context.uar_page, uar: ID}]` takes; the reference
 * makes the UAR outlive that command's object.
 */
#include <errno.h>
#include <stdio.h>

#include "res.h"
#include "rdmascn/value.h"

struct mlx5_uar {
	char *id;
	char *context;           /* an mlx5_context with devx */
	uint32_t type;           /* MLX5DV_UAR_ALLOC_TYPE_* */
	char **after;
	unsigned after_count;
};

struct mlx5_uar_rt {
	struct mlx5_res_rt res;  /* first: page_id */
	struct mlx5dv_devx_uar *uar;
};

static const cyaml_strval_t uar_type_names[] = {
	{ "bf", MLX5DV_UAR_ALLOC_TYPE_BF },
	{ "nc", MLX5DV_UAR_ALLOC_TYPE_NC },
};

static const cyaml_schema_field_t uar_fields[] = {
	MLX5_FIELD_ID(struct mlx5_uar),
	MLX5_FIELD_AFTER(struct mlx5_uar),
	MLX5_FIELD_REF("context", struct mlx5_uar, context),
	CYAML_FIELD_ENUM("type", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			 struct mlx5_uar, type, uar_type_names,
			 CYAML_ARRAY_LEN(uar_type_names)),
	CYAML_FIELD_END
};

static const struct rdmascn_ref uar_refs[] = {
	MLX5_REF("context", struct mlx5_uar, context, "mlx5_context"),
	MLX5_REF_AFTER(struct mlx5_uar),
	{ .field = NULL }
};

static int uar_check(struct rdmascn_obj *obj, struct rdmascn_diag *d)
{
	const struct mlx5_uar *u = rdmascn_obj_data(obj);

	return mlx5_need_devx(obj, d, "context", u->context, "a UAR");
}

static int uar_create(struct rdmascn_run *run, struct rdmascn_live *l)
{
	const struct mlx5_uar *u = rdmascn_live_data(l);
	struct mlx5_uar_rt *rt = rdmascn_live_rt(l);
	struct ibv_context *ctx = mlx5_ctx_of(run, u->context);
	struct rdmascn_call *call = rdmascn_call_new(RDMASCN_CALL_CREATE,
						     "mlx5dv_devx_alloc_uar");

	rdmascn_call_arg(call, "context", "%s", u->context);
	rdmascn_call_arg(call, "flags", "%s",
			 u->type == MLX5DV_UAR_ALLOC_TYPE_NC ? "NC" : "BF");
	if (rdmascn_call_go(run, l, call)) {
		errno = 0;
		rt->uar = ctx ? mlx5dv_devx_alloc_uar(ctx, u->type) : NULL;
		rdmascn_call_result(call, rt->uar ? 0 : errno ? errno : ENODEV);
		if (rt->uar) {
			rt->res.value = rt->uar->page_id;
			rt->res.made = true;
		}
	}
	return rdmascn_call_done(run, l, call);
}

static void uar_destroy(struct rdmascn_run *run, struct rdmascn_live *l)
{
	struct mlx5_uar_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *call;

	if (!rt->uar && !rdmascn_dry_run(run))
		return;
	call = rdmascn_call_new(RDMASCN_CALL_DESTROY, "mlx5dv_devx_free_uar");
	rdmascn_call_arg(call, "uar", "%s", rdmascn_live_id(l));
	if (rdmascn_call_go(run, l, call)) {
		mlx5dv_devx_free_uar(rt->uar);
		rdmascn_call_result(call, 0);
	}
	rt->uar = NULL;
	rt->res.made = false;
	rdmascn_call_done(run, l, call);
}

static void uar_describe(struct rdmascn_run *run, struct rdmascn_live *l,
			 struct rdmascn_val *v)
{
	struct mlx5_uar_rt *rt = rdmascn_live_rt(l);

	(void)run;
	if (!rt->uar)
		return;
	rdmascn_val_put_u64(v, "page_id", rt->uar->page_id);
	rdmascn_val_put_u64(v, "mmap_off", (uint64_t)rt->uar->mmap_off);
}

static const struct rdmascn_ops uar_ops = {
	.rt_size = sizeof(struct mlx5_uar_rt),
	.create = uar_create,
	.destroy = uar_destroy,
	.describe = uar_describe,
};

const struct rdmascn_kind mlx5_kind_uar = {
	.name = "mlx5_uar",
	.section = "mlx5_uars",
	.summary = "a DevX UAR (mlx5dv_devx_alloc_uar; type: bf or nc); "
		   "its page_id for devx commands (set: [{uar: ID}])",
	.fields = uar_fields,
	.size = sizeof(struct mlx5_uar),
	.id_offset = offsetof(struct mlx5_uar, id),
	.refs = uar_refs,
	.check = uar_check,
	.ops = &uar_ops,
};
