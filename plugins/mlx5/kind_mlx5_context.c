// SPDX-License-Identifier: MIT
/*
 * mlx5_contexts: the device a core context found, opened again with
 * mlx5dv_open_device() and the flags given (devx: what DevX commands
 * need).  Its facts are what mlx5dv_query_device() says of it.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mlx5.h"
#include "rdmascn/value.h"

struct mlx5_context {
	char *id;
	char *context;           /* the core context whose device it opens */
	uint32_t flags;          /* MLX5DV_CONTEXT_FLAGS_* */
	char **after;
	unsigned after_count;
};

static const cyaml_strval_t context_flag_names[] = {
	{ "devx", MLX5DV_CONTEXT_FLAGS_DEVX },
};

static const cyaml_schema_field_t mlx5_context_fields[] = {
	MLX5_FIELD_ID(struct mlx5_context),
	MLX5_FIELD_AFTER(struct mlx5_context),
	MLX5_FIELD_REF("context", struct mlx5_context, context),
	CYAML_FIELD_FLAGS("flags", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			  struct mlx5_context, flags, context_flag_names,
			  CYAML_ARRAY_LEN(context_flag_names)),
	CYAML_FIELD_END
};

static const struct rdmascn_ref mlx5_context_refs[] = {
	MLX5_REF("context", struct mlx5_context, context, "context"),
	MLX5_REF_AFTER(struct mlx5_context),
	{ .field = NULL }
};

bool mlx5_context_devx(const void *data)
{
	const struct mlx5_context *c = data;

	return c && c->flags & MLX5DV_CONTEXT_FLAGS_DEVX;
}

int mlx5_need_devx(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		   const char *field, const char *id, const char *what)
{
	const void *c = rdmascn_obj_ref_data(obj, id);

	if (!c)
		return -EINVAL;         /* resolve said so */
	if (mlx5_context_devx(c))
		return 0;
	rdmascn_obj_error(d, obj, field, "%s needs a DevX context: "
			  "mlx5_context '%s' has no flags: [devx]", what, id);
	return -EINVAL;
}

struct ibv_context *mlx5_ctx_of(struct rdmascn_run *run, const char *id)
{
	struct rdmascn_live *l = rdmascn_live_find(run, id);
	struct mlx5_context_rt *rt = l ? rdmascn_live_rt(l) : NULL;

	return rt ? rt->ctx : NULL;
}

static int check_caps(struct rdmascn_run *run, struct rdmascn_live *l,
		      char *why, unsigned len)
{
	const struct mlx5_context *c = rdmascn_live_data(l);

	if (!rdmascn_live_has_feature(run, l, "mlx5dv")) {
		snprintf(why, len, "mlx5dv (mlx5dv_is_supported())");
		return -EOPNOTSUPP;
	}
	if (c->flags & MLX5DV_CONTEXT_FLAGS_DEVX &&
	    !rdmascn_live_has_feature(run, l, "devx")) {
		snprintf(why, len, "devx (mlx5dv_open_device("
			 "MLX5DV_CONTEXT_FLAGS_DEVX))");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int create(struct rdmascn_run *run, struct rdmascn_live *l)
{
	const struct mlx5_context *c = rdmascn_live_data(l);
	struct mlx5_context_rt *rt = rdmascn_live_rt(l);
	struct ibv_device *dev = rdmascn_live_device(run, l);
	struct mlx5dv_context_attr attr = { .flags = c->flags };
	struct rdmascn_call *call = rdmascn_call_new(RDMASCN_CALL_CREATE,
						     "mlx5dv_open_device");

	rdmascn_call_arg(call, "device", "%s", dev ?
			 ibv_get_device_name(dev) : c->context);
	rdmascn_call_arg(call, "flags", "%s", c->flags &
			 MLX5DV_CONTEXT_FLAGS_DEVX ? "DEVX" : "0");
	if (rdmascn_call_go(run, l, call)) {
		errno = 0;
		rt->ctx = dev ? mlx5dv_open_device(dev, &attr) : NULL;
		rdmascn_call_result(call, rt->ctx ? 0 :
				    errno ? errno : ENODEV);
	}
	rt->devx = c->flags & MLX5DV_CONTEXT_FLAGS_DEVX;
	return rdmascn_call_done(run, l, call);
}

static void destroy(struct rdmascn_run *run, struct rdmascn_live *l)
{
	struct mlx5_context_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *call;

	if (!rt->ctx && !rdmascn_dry_run(run))
		return;
	call = rdmascn_call_new(RDMASCN_CALL_DESTROY, "ibv_close_device");
	rdmascn_call_arg(call, "mlx5_context", "%s", rdmascn_live_id(l));
	if (rdmascn_call_go(run, l, call))
		rdmascn_call_result(call, ibv_close_device(rt->ctx));
	rt->ctx = NULL;
	rdmascn_call_done(run, l, call);
}

static void describe(struct rdmascn_run *run, struct rdmascn_live *l,
		     struct rdmascn_val *v)
{
	struct mlx5_context_rt *rt = rdmascn_live_rt(l);
	struct mlx5dv_context attr = { .comp_mask = mlx5_query_mask };

	(void)run;
	rdmascn_val_put_bool(v, "devx", rt->devx);
	if (rt->ctx && !mlx5dv_query_device(rt->ctx, &attr))
		mlx5_attr_describe(&attr, rdmascn_val_put_obj(v, "mlx5"));
}

/* Core objects can stand on it (a pd with `context:` naming it), as
 * an mkey's pd must: mlx5dv_create_mkey() needs a DevX context. */
static int as_context(struct rdmascn_live *l, struct rdmascn_context *ret)
{
	ret->ctx = ((struct mlx5_context_rt *)rdmascn_live_rt(l))->ctx;
	return 0;
}

static const struct rdmascn_ops mlx5_context_ops = {
	.rt_size = sizeof(struct mlx5_context_rt),
	.check_caps = check_caps,
	.create = create,
	.destroy = destroy,
	.describe = describe,
	.as_context = as_context,
};

const struct rdmascn_kind mlx5_kind_context = {
	.name = "mlx5_context",
	.section = "mlx5_contexts",
	.summary = "a context's device opened with mlx5dv_open_device() "
		   "(flags: devx)",
	.fields = mlx5_context_fields,
	.size = sizeof(struct mlx5_context),
	.id_offset = offsetof(struct mlx5_context, id),
	.refs = mlx5_context_refs,
	.ops = &mlx5_context_ops,
};
