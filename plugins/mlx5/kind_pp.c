// SPDX-License-Identifier: MIT
/*
 * mlx5_pps: a packet pacing entry (mlx5dv_pp_alloc()) on an mlx5
 * context opened with devx.  Its context is a set_pp_rate_limit_context
 * written as named PRM fields (`set: [{field: rate_limit, value: 5}]`),
 * checked against the layout at validate time and sent as its bytes,
 * which a dry run prints.  Its index is what a devx command's
 * `set: [{field: ctx.packet_pacing_rate_limit_index, pp: ID}]` takes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "res.h"
#include "rdmascn/value.h"

struct mlx5_pp {
	char *id;
	char *context;           /* an mlx5_context with devx */
	struct mlx5_field *set;  /* set_pp_rate_limit_context's fields */
	unsigned set_count;
	uint32_t flags;          /* MLX5DV_PP_ALLOC_FLAGS_* */
	char **after;
	unsigned after_count;
};

struct mlx5_pp_rt {
	struct mlx5_res_rt res;  /* first: index */
	struct mlx5dv_pp *pp;
};

static const cyaml_strval_t pp_flag_names[] = {
	{ "dedicated_index", MLX5DV_PP_ALLOC_FLAGS_DEDICATED_INDEX },
};

static const cyaml_schema_field_t pp_fields[] = {
	MLX5_FIELD_ID(struct mlx5_pp),
	MLX5_FIELD_AFTER(struct mlx5_pp),
	MLX5_FIELD_REF("context", struct mlx5_pp, context),
	MLX5_FIELD_LIST("set", struct mlx5_pp, set),
	CYAML_FIELD_FLAGS("flags", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			  struct mlx5_pp, flags, pp_flag_names,
			  CYAML_ARRAY_LEN(pp_flag_names)),
	CYAML_FIELD_END
};

static const struct rdmascn_ref pp_refs[] = {
	MLX5_REF("context", struct mlx5_pp, context, "mlx5_context"),
	MLX5_REF_AFTER(struct mlx5_pp),
	{ .field = NULL }
};

static int pp_check(struct rdmascn_obj *obj, struct rdmascn_diag *d)
{
	const struct mlx5_pp *p = rdmascn_obj_data(obj);
	int r = mlx5_need_devx(obj, d, "context", p->context,
			       "a packet pacing entry");

	if (mlx5_fields_check(obj, d, "set", &prm_set_pp_rate_limit_context,
			      p->set, p->set_count, false))
		r = -EINVAL;
	return r;
}

/* The context's bytes: set_pp_rate_limit_context is 48. */
#define PP_CTX_BYTES (0x180 / 8)

static int pp_create(struct rdmascn_run *run, struct rdmascn_live *l)
{
	const struct mlx5_pp *p = rdmascn_live_data(l);
	struct mlx5_pp_rt *rt = rdmascn_live_rt(l);
	struct ibv_context *ctx = mlx5_ctx_of(run, p->context);
	struct rdmascn_call *call = rdmascn_call_new(RDMASCN_CALL_CREATE,
						     "mlx5dv_pp_alloc");
	struct prm_val *vals = calloc(p->set_count + 1, sizeof(*vals));
	uint8_t (*wide)[64] = calloc(p->set_count + 1, sizeof(*wide));
	uint8_t buf[PP_CTX_BYTES];
	char hex[2 * PP_CTX_BYTES + 1];
	size_t bad = 0;
	int r = -ENOMEM;

	if (vals && wide) {
		mlx5_fields_vals(p->set, p->set_count, false,
				 &prm_set_pp_rate_limit_context, vals, wide);
		r = prm_encode_struct(&prm_set_pp_rate_limit_context, vals,
				      p->set_count, buf, sizeof(buf), &bad);
	}
	free(vals);
	free(wide);
	rdmascn_call_arg(call, "context", "%s", p->context);
	if (r) {
		rdmascn_call_result(call, -r);
		if (r != -ENOMEM)
			rdmascn_call_hint(call, "set[%zu]", bad);
		return rdmascn_call_done(run, l, call);
	}
	for (unsigned i = 0; i < p->set_count; i++)
		rdmascn_call_arg(call, p->set[i].field, "%s", p->set[i].value);
	rdmascn_call_arg(call, "pp_context", "%s",
			 prm_hex(buf, sizeof(buf), hex, sizeof(hex)));
	rdmascn_call_arg(call, "pp_context_sz", "%zu", sizeof(buf));
	rdmascn_call_arg(call, "flags", "%s", p->flags ? "DEDICATED_INDEX" :
			 "0");
	if (rdmascn_call_go(run, l, call)) {
		errno = 0;
		rt->pp = ctx ? mlx5dv_pp_alloc(ctx, sizeof(buf), buf,
					       p->flags) : NULL;
		rdmascn_call_result(call, rt->pp ? 0 : errno ? errno : ENODEV);
		if (rt->pp) {
			rt->res.value = rt->pp->index;
			rt->res.made = true;
		}
	}
	return rdmascn_call_done(run, l, call);
}

static void pp_destroy(struct rdmascn_run *run, struct rdmascn_live *l)
{
	struct mlx5_pp_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *call;

	if (!rt->pp && !rdmascn_dry_run(run))
		return;
	call = rdmascn_call_new(RDMASCN_CALL_DESTROY, "mlx5dv_pp_free");
	rdmascn_call_arg(call, "pp", "%s", rdmascn_live_id(l));
	if (rdmascn_call_go(run, l, call)) {
		mlx5dv_pp_free(rt->pp);
		rdmascn_call_result(call, 0);
	}
	rt->pp = NULL;
	rt->res.made = false;
	rdmascn_call_done(run, l, call);
}

static void pp_describe(struct rdmascn_run *run, struct rdmascn_live *l,
			struct rdmascn_val *v)
{
	struct mlx5_pp_rt *rt = rdmascn_live_rt(l);

	(void)run;
	if (rt->pp)
		rdmascn_val_put_u64(v, "index", rt->pp->index);
}

static const struct rdmascn_ops pp_ops = {
	.rt_size = sizeof(struct mlx5_pp_rt),
	.create = pp_create,
	.destroy = pp_destroy,
	.describe = pp_describe,
};

const struct rdmascn_kind mlx5_kind_pp = {
	.name = "mlx5_pp",
	.section = "mlx5_pps",
	.summary = "a packet pacing entry (mlx5dv_pp_alloc) with its "
		   "set_pp_rate_limit_context as named fields (set:); its "
		   "index for devx commands (set: [{pp: ID}])",
	.fields = pp_fields,
	.size = sizeof(struct mlx5_pp),
	.id_offset = offsetof(struct mlx5_pp, id),
	.refs = pp_refs,
	.check = pp_check,
	.ops = &pp_ops,
};
