// SPDX-License-Identifier: MIT
/*
 * mlx5_umems: memory registered for DevX commands
 * (mlx5dv_devx_umem_reg(), or _reg_ex() with a page size bitmap), on an
 * mlx5 context opened with devx: a page-aligned buffer of its own,
 * zeroed.  Its umem_id is what a devx command's `set: [{field:
 * cq_context..., umem: ID}]` takes; the reference makes the UMEM
 * outlive that command's object (deregistered after it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "res.h"
#include "rdmascn/value.h"

struct mlx5_umem {
	char *id;
	char *context;           /* an mlx5_context with devx */
	uint64_t length;
	uint32_t access;         /* IBV_ACCESS_* */
	uint64_t pgsz_bitmap;    /* 0: mlx5dv_devx_umem_reg() */
	char **after;
	unsigned after_count;
};

struct mlx5_umem_rt {
	struct mlx5_res_rt res;  /* first: umem_id */
	struct mlx5dv_devx_umem *umem;
	void *buf;
};

static const cyaml_strval_t access_names[] = {
	{ "local_write", IBV_ACCESS_LOCAL_WRITE },
	{ "remote_write", IBV_ACCESS_REMOTE_WRITE },
	{ "remote_read", IBV_ACCESS_REMOTE_READ },
	{ "remote_atomic", IBV_ACCESS_REMOTE_ATOMIC },
	{ "relaxed_ordering", IBV_ACCESS_RELAXED_ORDERING },
};

static const cyaml_schema_field_t umem_fields[] = {
	MLX5_FIELD_ID(struct mlx5_umem),
	MLX5_FIELD_AFTER(struct mlx5_umem),
	MLX5_FIELD_REF("context", struct mlx5_umem, context),
	CYAML_FIELD_UINT("length", CYAML_FLAG_DEFAULT, struct mlx5_umem,
			 length),
	CYAML_FIELD_FLAGS("access", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			  struct mlx5_umem, access, access_names,
			  CYAML_ARRAY_LEN(access_names)),
	CYAML_FIELD_UINT("pgsz_bitmap", CYAML_FLAG_OPTIONAL, struct mlx5_umem,
			 pgsz_bitmap),
	CYAML_FIELD_END
};

static const struct rdmascn_ref umem_refs[] = {
	MLX5_REF("context", struct mlx5_umem, context, "mlx5_context"),
	MLX5_REF_AFTER(struct mlx5_umem),
	{ .field = NULL }
};

static int umem_check(struct rdmascn_obj *obj, struct rdmascn_diag *d)
{
	const struct mlx5_umem *u = rdmascn_obj_data(obj);

	if (!u->length) {
		rdmascn_obj_error(d, obj, "length", "a UMEM of 0 bytes");
		return -EINVAL;
	}
	return mlx5_need_devx(obj, d, "context", u->context, "a UMEM");
}

static int umem_create(struct rdmascn_run *run, struct rdmascn_live *l)
{
	const struct mlx5_umem *u = rdmascn_live_data(l);
	struct mlx5_umem_rt *rt = rdmascn_live_rt(l);
	struct ibv_context *ctx = mlx5_ctx_of(run, u->context);
	long page = sysconf(_SC_PAGESIZE);
	size_t size = (u->length + (size_t)page - 1) & ~((size_t)page - 1);
	struct rdmascn_call *call = rdmascn_call_new(RDMASCN_CALL_CREATE,
		u->pgsz_bitmap ? "mlx5dv_devx_umem_reg_ex" :
				 "mlx5dv_devx_umem_reg");
	char acc[96];

	rdmascn_access_text(u->access, acc, sizeof(acc));
	rdmascn_call_arg(call, "context", "%s", u->context);
	rdmascn_call_arg(call, "addr", "buf(%s)", u->id);
	rdmascn_call_arg(call, "size", "%llu", (unsigned long long)u->length);
	rdmascn_call_arg(call, "access", "%s", acc[0] ? acc : "0");
	if (u->pgsz_bitmap)
		rdmascn_call_arg(call, "pgsz_bitmap", "0x%llx",
				 (unsigned long long)u->pgsz_bitmap);
	if (rdmascn_call_go(run, l, call)) {
		struct mlx5dv_devx_umem_in in = {
			.size = u->length,
			.access = u->access,
			.pgsz_bitmap = u->pgsz_bitmap,
		};

		errno = 0;
		if (posix_memalign(&rt->buf, (size_t)page, size))
			rt->buf = NULL;
		if (rt->buf)
			memset(rt->buf, 0, size);
		in.addr = rt->buf;
		if (rt->buf && ctx)
			rt->umem = u->pgsz_bitmap ?
				   mlx5dv_devx_umem_reg_ex(ctx, &in) :
				   mlx5dv_devx_umem_reg(ctx, rt->buf,
							u->length, u->access);
		rdmascn_call_result(call, rt->umem ? 0 : !rt->buf ? ENOMEM :
				    errno ? errno : ENODEV);
		if (rt->umem) {
			rt->res.value = rt->umem->umem_id;
			rt->res.made = true;
		}
	}
	return rdmascn_call_done(run, l, call);
}

static void umem_destroy(struct rdmascn_run *run, struct rdmascn_live *l)
{
	struct mlx5_umem_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *call;

	if (rt->umem || rdmascn_dry_run(run)) {
		call = rdmascn_call_new(RDMASCN_CALL_DESTROY,
					"mlx5dv_devx_umem_dereg");
		rdmascn_call_arg(call, "umem", "%s", rdmascn_live_id(l));
		if (rdmascn_call_go(run, l, call))
			rdmascn_call_result(call,
					    mlx5dv_devx_umem_dereg(rt->umem));
		rt->umem = NULL;
		rt->res.made = false;
		rdmascn_call_done(run, l, call);
	}
	free(rt->buf);
	rt->buf = NULL;
}

static void umem_describe(struct rdmascn_run *run, struct rdmascn_live *l,
			  struct rdmascn_val *v)
{
	struct mlx5_umem_rt *rt = rdmascn_live_rt(l);

	(void)run;
	if (rt->umem)
		rdmascn_val_put_u64(v, "umem_id", rt->umem->umem_id);
}

static const struct rdmascn_ops umem_ops = {
	.rt_size = sizeof(struct mlx5_umem_rt),
	.create = umem_create,
	.destroy = umem_destroy,
	.describe = umem_describe,
};

const struct rdmascn_kind mlx5_kind_umem = {
	.name = "mlx5_umem",
	.section = "mlx5_umems",
	.summary = "memory registered for DevX (mlx5dv_devx_umem_reg; "
		   "length, access, pgsz_bitmap); its umem_id for devx "
		   "commands (set: [{umem: ID}])",
	.fields = umem_fields,
	.size = sizeof(struct mlx5_umem),
	.id_offset = offsetof(struct mlx5_umem, id),
	.refs = umem_refs,
	.check = umem_check,
	.ops = &umem_ops,
};
