// SPDX-License-Identifier: MIT
/*
 * mlx5_cqs: a CQ made with mlx5dv_create_cq() on a core context's
 * verbs context, with the mlx5 options: CQE compression and its
 * responder result format (hash, checksum, stride index), the CQE size
 * (64 or 128 bytes), padding.  It is a CQ to everything else (the facet
 * as_cq): core QPs on that context's PDs complete into it and the steps
 * poll it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mask_text.h"
#include "mlx5.h"
#include "rdmascn/value.h"

struct mlx5_cq {
	char *id;
	char *context;           /* a core context */
	uint32_t cqe;
	uint32_t comp_vector;
	uint32_t compressed_cqe; /* MLX5DV_CQE_RES_FORMAT_* */
	uint32_t cqe_size;       /* 0: the device's */
	uint32_t flags;          /* MLX5DV_CQ_INIT_ATTR_FLAGS_* */
	char **after;
	unsigned after_count;
};

struct mlx5_cq_rt {
	struct ibv_cq_ex *cq;
	struct rs_cq_rt *cq_rt;  /* as the steps see a CQ */
};

static const cyaml_strval_t res_format_names[] = {
	{ "hash", MLX5DV_CQE_RES_FORMAT_HASH },
	{ "csum", MLX5DV_CQE_RES_FORMAT_CSUM },
	{ "csum_stridx", MLX5DV_CQE_RES_FORMAT_CSUM_STRIDX },
};

static const cyaml_strval_t cq_flag_names[] = {
	{ "cqe_pad", MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD },
};

static const cyaml_schema_field_t mlx5_cq_fields[] = {
	MLX5_FIELD_ID(struct mlx5_cq),
	MLX5_FIELD_AFTER(struct mlx5_cq),
	MLX5_FIELD_REF("context", struct mlx5_cq, context),
	CYAML_FIELD_UINT("cqe", CYAML_FLAG_OPTIONAL, struct mlx5_cq, cqe),
	CYAML_FIELD_UINT("comp_vector", CYAML_FLAG_OPTIONAL, struct mlx5_cq,
			 comp_vector),
	CYAML_FIELD_FLAGS("compressed_cqe", CYAML_FLAG_OPTIONAL |
			  CYAML_FLAG_STRICT, struct mlx5_cq, compressed_cqe,
			  res_format_names, CYAML_ARRAY_LEN(res_format_names)),
	CYAML_FIELD_UINT("cqe_size", CYAML_FLAG_OPTIONAL, struct mlx5_cq,
			 cqe_size),
	CYAML_FIELD_FLAGS("flags", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			  struct mlx5_cq, flags, cq_flag_names,
			  CYAML_ARRAY_LEN(cq_flag_names)),
	CYAML_FIELD_END
};

static const struct rdmascn_ref mlx5_cq_refs[] = {
	MLX5_REF("context", struct mlx5_cq, context, "context"),
	MLX5_REF_AFTER(struct mlx5_cq),
	{ .field = NULL }
};

static int mlx5_cq_check(struct rs_obj *obj, struct rs_diag *d)
{
	const struct mlx5_cq *q = rdmascn_obj_data(obj);

	if (q->cqe_size && q->cqe_size != 64 && q->cqe_size != 128) {
		rdmascn_obj_error(d, obj, "cqe_size", "%u: a CQE is 64 or 128 "
				  "bytes", q->cqe_size);
		return -EINVAL;
	}
	if (q->flags & MLX5DV_CQ_INIT_ATTR_FLAGS_CQE_PAD &&
	    q->cqe_size == 64) {
		rdmascn_obj_error(d, obj, "flags", "cqe_pad pads a 128-byte "
				  "CQE; cqe_size is 64");
		return -EINVAL;
	}
	return 0;
}

static int check_caps(struct rs_run *run, struct rs_live *l, char *why,
		      unsigned len)
{
	if (!rdmascn_live_has_feature(run, l, "mlx5dv")) {
		snprintf(why, len, "mlx5dv (mlx5dv_is_supported(): "
			 "mlx5dv_create_cq)");
		return -EOPNOTSUPP;
	}
	return 0;
}

static void res_format_text(uint32_t f, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < CYAML_ARRAY_LEN(res_format_names); i++)
		if (f & res_format_names[i].val && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      o ? "|" : "",
					      res_format_names[i].str);
}

static int create(struct rs_run *run, struct rs_live *l)
{
	const struct mlx5_cq *q = rdmascn_live_data(l);
	struct mlx5_cq_rt *rt = rdmascn_live_rt(l);
	struct ibv_context *ctx = rdmascn_live_verbs_context(run, l);
	struct ibv_cq_init_attr_ex ia = {
		.cqe = q->cqe ? q->cqe : 1,
		.comp_vector = q->comp_vector,
	};
	struct mlx5dv_cq_init_attr dv = { 0 };
	struct rdmascn_call *call = rdmascn_call_new(RDMASCN_CALL_CREATE,
						     "mlx5dv_create_cq");
	char fmt[64], mask[64];

	if (q->compressed_cqe) {
		dv.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE;
		dv.cqe_comp_res_format = (uint8_t)q->compressed_cqe;
	}
	if (q->flags) {
		dv.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_FLAGS;
		dv.flags = q->flags;
	}
	if (q->cqe_size) {
		dv.comp_mask |= MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE;
		dv.cqe_size = (uint16_t)q->cqe_size;
	}
	res_format_text(q->compressed_cqe, fmt, sizeof(fmt));
	rdmascn_call_arg(call, "context", "%s", q->context);
	rdmascn_call_arg(call, "cqe", "%u", ia.cqe);
	rdmascn_call_arg(call, "comp_vector", "%u", ia.comp_vector);
	rdmascn_call_arg(call, "comp_mask", "%s",
			 mlx5_mask_text(MLX5_MASK_DV_CQ_INIT, dv.comp_mask,
					mask, sizeof(mask)));
	rdmascn_call_arg(call, "cqe_comp_res_format", "%s",
			 fmt[0] ? fmt : "0");
	rdmascn_call_arg(call, "flags", "%s", q->flags ? "CQE_PAD" : "0");
	rdmascn_call_arg(call, "cqe_size", "%u", q->cqe_size);
	if (rdmascn_call_go(run, l, call)) {
		errno = 0;
		rt->cq = ctx ? mlx5dv_create_cq(ctx, &ia, &dv) : NULL;
		rdmascn_call_result(call, rt->cq ? 0 : errno ? errno : ENODEV);
		if (!rt->cq && errno == EOPNOTSUPP && q->compressed_cqe)
			rdmascn_call_hint(call, "see cqe_comp_caps in "
					  "`rdmascn devices -j`: the formats "
					  "this device compresses");
	}
	if (rt->cq || rdmascn_dry_run(run)) {
		rt->cq_rt = rdmascn_cq_rt_new(rt->cq, NULL, 0);
		if (!rt->cq_rt) {
			rdmascn_call_result(call, ENOMEM);
			rdmascn_call_hint(call, "out of memory");
		}
	}
	return rdmascn_call_done(run, l, call);
}

static void destroy(struct rs_run *run, struct rs_live *l)
{
	struct mlx5_cq_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *call;

	rdmascn_cq_rt_free(rt->cq_rt);
	rt->cq_rt = NULL;
	if (!rt->cq && !rdmascn_dry_run(run))
		return;
	call = rdmascn_call_new(RDMASCN_CALL_DESTROY, "ibv_destroy_cq");
	rdmascn_call_arg(call, "cq", "%s", rdmascn_live_id(l));
	if (rdmascn_call_go(run, l, call))
		rdmascn_call_result(call,
				    ibv_destroy_cq(ibv_cq_ex_to_cq(rt->cq)));
	rt->cq = NULL;
	rdmascn_call_done(run, l, call);
}

static void describe(struct rs_run *run, struct rs_live *l,
		     struct rs_val *v)
{
	const struct mlx5_cq *q = rdmascn_live_data(l);
	struct mlx5_cq_rt *rt = rdmascn_live_rt(l);
	char fmt[64];

	(void)run;
	if (rt->cq)
		rs_val_put_u64(v, "cqe", (uint64_t)rt->cq->cqe);
	res_format_text(q->compressed_cqe, fmt, sizeof(fmt));
	if (fmt[0])
		rs_val_put_str(v, "compressed_cqe", fmt);
	if (q->cqe_size)
		rs_val_put_u64(v, "cqe_size", q->cqe_size);
}

/* Polled: it has no channel. */
static int as_cq(struct rs_live *l, struct rdmascn_cq *ret)
{
	struct mlx5_cq_rt *rt = rdmascn_live_rt(l);

	ret->rt = rt->cq_rt;
	ret->events = false;
	return 0;
}

static const struct rdmascn_ops mlx5_cq_ops = {
	.rt_size = sizeof(struct mlx5_cq_rt),
	.check_caps = check_caps,
	.create = create,
	.destroy = destroy,
	.describe = describe,
	.as_cq = as_cq,
};

const struct rdmascn_kind mlx5_kind_cq = {
	.name = "mlx5_cq",
	.section = "mlx5_cqs",
	.summary = "a CQ made with mlx5dv_create_cq() on a context "
		   "(compressed_cqe: hash, csum, csum_stridx; cqe_size: 64 "
		   "or 128; flags: cqe_pad); a CQ to core QPs and steps",
	.fields = mlx5_cq_fields,
	.size = sizeof(struct mlx5_cq),
	.id_offset = offsetof(struct mlx5_cq, id),
	.refs = mlx5_cq_refs,
	.check = mlx5_cq_check,
	.ops = &mlx5_cq_ops,
};
