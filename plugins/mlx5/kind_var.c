// SPDX-License-Identifier: MIT
/*
 * mlx5_vars: a VAR (virtio access region) for DevX commands
 * (mlx5dv_alloc_var()), on an mlx5 context opened with devx, and, as
 * pyverbs' example does, its page mapped: mmap() of the context's
 * cmd_fd at the VAR's mmap_off for its length, unmapped in teardown
 * before the VAR is freed.  Its page_id is what a devx command's
 * `set: [{field: ..., var: ID}]` takes.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>

#include "res.h"
#include "rdmascn/value.h"

struct mlx5_var {
	char *id;
	char *context;           /* an mlx5_context with devx */
	bool *map;               /* NULL: true */
	char **after;
	unsigned after_count;
};

struct mlx5_var_rt {
	struct mlx5_res_rt res;  /* first: page_id */
	struct mlx5dv_var *var;
	void *addr;              /* mapped, or NULL */
	bool mapped;             /* a dry run: the mmap was shown */
};

static const cyaml_schema_field_t var_fields[] = {
	MLX5_FIELD_ID(struct mlx5_var),
	MLX5_FIELD_AFTER(struct mlx5_var),
	MLX5_FIELD_REF("context", struct mlx5_var, context),
	CYAML_FIELD_BOOL_PTR("map", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct mlx5_var, map),
	CYAML_FIELD_END
};

static const struct rdmascn_ref var_refs[] = {
	MLX5_REF("context", struct mlx5_var, context, "mlx5_context"),
	MLX5_REF_AFTER(struct mlx5_var),
	{ .field = NULL }
};

static int var_check(struct rdmascn_obj *obj, struct rdmascn_diag *d)
{
	const struct mlx5_var *v = rdmascn_obj_data(obj);

	return mlx5_need_devx(obj, d, "context", v->context, "a VAR");
}

static int var_map(struct rdmascn_run *run, struct rdmascn_live *l,
		   struct ibv_context *ctx)
{
	struct mlx5_var_rt *rt = rdmascn_live_rt(l);
	const struct mlx5_var *v = rdmascn_live_data(l);
	struct rdmascn_call *call = rdmascn_call_new(RDMASCN_CALL_CREATE,
						     "mmap");

	if (rt->var) {
		rdmascn_call_arg(call, "fd", "%d", ctx->cmd_fd);
		rdmascn_call_arg(call, "length", "%u", rt->var->length);
		rdmascn_call_arg(call, "offset", "0x%llx",
				 (unsigned long long)rt->var->mmap_off);
	} else {
		rdmascn_call_arg(call, "fd", "cmd_fd(%s)", v->context);
		rdmascn_call_arg(call, "length", "length(%s)", v->id);
		rdmascn_call_arg(call, "offset", "mmap_off(%s)", v->id);
	}
	rdmascn_call_arg(call, "prot", "READ|WRITE");
	rdmascn_call_arg(call, "flags", "SHARED");
	if (rdmascn_call_go(run, l, call)) {
		void *a = mmap(NULL, rt->var->length, PROT_READ | PROT_WRITE,
			       MAP_SHARED, ctx->cmd_fd, rt->var->mmap_off);

		rt->addr = a == MAP_FAILED ? NULL : a;
		rdmascn_call_result(call, rt->addr ? 0 : errno);
	}
	rt->mapped = true;
	return rdmascn_call_done(run, l, call);
}

static int var_create(struct rdmascn_run *run, struct rdmascn_live *l)
{
	const struct mlx5_var *v = rdmascn_live_data(l);
	struct mlx5_var_rt *rt = rdmascn_live_rt(l);
	struct ibv_context *ctx = mlx5_ctx_of(run, v->context);
	struct rdmascn_call *call = rdmascn_call_new(RDMASCN_CALL_CREATE,
						     "mlx5dv_alloc_var");
	int r;

	rdmascn_call_arg(call, "context", "%s", v->context);
	rdmascn_call_arg(call, "flags", "0");
	if (rdmascn_call_go(run, l, call)) {
		errno = 0;
		rt->var = ctx ? mlx5dv_alloc_var(ctx, 0) : NULL;
		rdmascn_call_result(call, rt->var ? 0 : errno ? errno : ENODEV);
		if (rt->var) {
			rt->res.value = rt->var->page_id;
			rt->res.made = true;
		}
	}
	r = rdmascn_call_done(run, l, call);
	if (r || (v->map && !*v->map))
		return r;
	return var_map(run, l, ctx);
}

static void var_destroy(struct rdmascn_run *run, struct rdmascn_live *l)
{
	struct mlx5_var_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *call;

	if (rt->addr || (rt->mapped && rdmascn_dry_run(run))) {
		call = rdmascn_call_new(RDMASCN_CALL_DESTROY, "munmap");
		rdmascn_call_arg(call, "var", "%s", rdmascn_live_id(l));
		if (rt->var)
			rdmascn_call_arg(call, "length", "%u",
					 rt->var->length);
		else
			rdmascn_call_arg(call, "length", "length(%s)",
					 rdmascn_live_id(l));
		if (rdmascn_call_go(run, l, call))
			rdmascn_call_result(call, munmap(rt->addr,
							 rt->var->length) ?
					    errno : 0);
		rt->addr = NULL;
		rdmascn_call_done(run, l, call);
	}
	rt->mapped = false;
	if (!rt->var && !rdmascn_dry_run(run))
		return;
	call = rdmascn_call_new(RDMASCN_CALL_DESTROY, "mlx5dv_free_var");
	rdmascn_call_arg(call, "var", "%s", rdmascn_live_id(l));
	if (rdmascn_call_go(run, l, call)) {
		mlx5dv_free_var(rt->var);
		rdmascn_call_result(call, 0);
	}
	rt->var = NULL;
	rt->res.made = false;
	rdmascn_call_done(run, l, call);
}

static void var_describe(struct rdmascn_run *run, struct rdmascn_live *l,
			 struct rdmascn_val *v)
{
	struct mlx5_var_rt *rt = rdmascn_live_rt(l);

	(void)run;
	if (!rt->var)
		return;
	rdmascn_val_put_u64(v, "page_id", rt->var->page_id);
	rdmascn_val_put_u64(v, "length", rt->var->length);
	rdmascn_val_put_u64(v, "mmap_off", (uint64_t)rt->var->mmap_off);
	rdmascn_val_put_bool(v, "mapped", rt->addr != NULL);
}

static const struct rdmascn_ops var_ops = {
	.rt_size = sizeof(struct mlx5_var_rt),
	.create = var_create,
	.destroy = var_destroy,
	.describe = var_describe,
};

const struct rdmascn_kind mlx5_kind_var = {
	.name = "mlx5_var",
	.section = "mlx5_vars",
	.summary = "a VAR (mlx5dv_alloc_var) and its page mapped from the "
		   "context's cmd_fd (map: false to leave it); its page_id "
		   "for devx commands (set: [{var: ID}])",
	.fields = var_fields,
	.size = sizeof(struct mlx5_var),
	.id_offset = offsetof(struct mlx5_var, id),
	.refs = var_refs,
	.check = var_check,
	.ops = &var_ops,
};
