// SPDX-License-Identifier: MIT
/*
 * mlx5_mkeys: the fields of an indirect mkey and of the layout a
 * register_layout step gives it, and what the schema cannot say: one
 * layout, each entry inside its MR, no more entries than max_entries;
 * and, for the step (struct rdmascn_wr_reg's check), that its QP is an
 * RC mlx5_qp with the layout's mlx5 send op, whose max_inline_data is
 * then raised to what the UMR WR needs.  Each at FILE:LINE:COL.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "mkey.h"
#include "mlx5.h"
#include "mlx5_qp.h"

static const cyaml_strval_t access_names[] = {
	{ "local_write", IBV_ACCESS_LOCAL_WRITE },
	{ "remote_write", IBV_ACCESS_REMOTE_WRITE },
	{ "remote_read", IBV_ACCESS_REMOTE_READ },
	{ "remote_atomic", IBV_ACCESS_REMOTE_ATOMIC },
};

#define SGE struct mlx5_mkey_sge
static const cyaml_schema_field_t sge_fields[] = {
	MLX5_FIELD_REF("mr", SGE, mr),
	CYAML_FIELD_UINT("offset", CYAML_FLAG_OPTIONAL, SGE, offset),
	CYAML_FIELD_UINT("length", CYAML_FLAG_DEFAULT, SGE, length),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t sge_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, SGE, sge_fields),
};
#undef SGE

#define ENT struct mlx5_mkey_il_entry
static const cyaml_schema_field_t il_entry_fields[] = {
	MLX5_FIELD_REF("mr", ENT, mr),
	CYAML_FIELD_UINT("offset", CYAML_FLAG_OPTIONAL, ENT, offset),
	CYAML_FIELD_UINT("bytes_count", CYAML_FLAG_DEFAULT, ENT, bytes_count),
	CYAML_FIELD_UINT("bytes_skip", CYAML_FLAG_OPTIONAL, ENT, bytes_skip),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t il_entry_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, ENT, il_entry_fields),
};
#undef ENT

static const cyaml_schema_field_t il_fields[] = {
	CYAML_FIELD_UINT("repeat", CYAML_FLAG_OPTIONAL, struct mlx5_mkey_il,
			 repeat),
	CYAML_FIELD_SEQUENCE("entries", CYAML_FLAG_POINTER,
			     struct mlx5_mkey_il, entries, &il_entry_schema,
			     1, UINT16_MAX),
	CYAML_FIELD_END
};

#define K struct mlx5_mkey
static const cyaml_schema_field_t mkey_fields[] = {
	MLX5_FIELD_ID(K),
	MLX5_FIELD_AFTER(K),
	MLX5_FIELD_REF("pd", K, pd),
	CYAML_FIELD_FLAGS("access", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			  K, access, access_names,
			  CYAML_ARRAY_LEN(access_names)),
	CYAML_FIELD_UINT("max_entries", CYAML_FLAG_OPTIONAL, K, max_entries),
	CYAML_FIELD_SEQUENCE("mr_list", CYAML_FLAG_POINTER |
			     CYAML_FLAG_OPTIONAL, K, mr_list, &sge_schema, 1,
			     UINT16_MAX),
	CYAML_FIELD_MAPPING("interleaved", CYAML_FLAG_OPTIONAL, K,
			    interleaved, il_fields),
	CYAML_FIELD_END
};

/* The layout's MRs are the mkey's references: it is made after them and
 * destroyed before them. */
static const struct rdmascn_ref mkey_refs[] = {
	MLX5_REF("pd", K, pd, "pd"),
	{ .field = "mr_list", .offset = offsetof(K, mr_list),
	  .count_offset = offsetof(K, mr_list_count),
	  .kinds = RDMASCN_KINDS("mr"), .stride = sizeof(struct mlx5_mkey_sge),
	  .item_offset = offsetof(struct mlx5_mkey_sge, mr),
	  .item_key = "mr" },
	{ .field = "interleaved.entries",
	  .offset = offsetof(K, interleaved.entries),
	  .count_offset = offsetof(K, interleaved.entries_count),
	  .kinds = RDMASCN_KINDS("mr"),
	  .stride = sizeof(struct mlx5_mkey_il_entry),
	  .item_offset = offsetof(struct mlx5_mkey_il_entry, mr),
	  .item_key = "mr" },
	MLX5_REF_AFTER(K),
	{ .field = NULL }
};

/* @end bytes from the start of mr @mr: inside it? */
static int inside(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		  const char *path, const char *mr, uint64_t end)
{
	uint64_t len;

	if (rdmascn_obj_ref_uint(obj, mr, "length", &len) || end <= len)
		return 0;
	rdmascn_obj_error(d, obj, path, "ends at byte %llu, past the end of "
			  "mr '%s' (%llu bytes)", (unsigned long long)end, mr,
			  (unsigned long long)len);
	return -EINVAL;
}

/* mlx5dv_create_mkey(): "the mkey is created on a DEVX context", which
 * the mkey's pd stands on. */
static int pd_on_devx(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		      const char *pd)
{
	const struct rdmascn_obj *c = rdmascn_obj_ref_ref(obj, pd, "context");

	if (c && rdmascn_obj_kind(c) == &mlx5_kind_context &&
	    mlx5_context_devx(rdmascn_obj_data(c)))
		return 0;
	rdmascn_obj_error(d, obj, "pd", "pd '%s' is not on a DevX context, "
			  "which mlx5dv_create_mkey() needs: give the pd "
			  "'context:' an mlx5_context with flags: [devx]", pd);
	return -EINVAL;
}

static int mkey_check(struct rdmascn_obj *obj, struct rdmascn_diag *d)
{
	const K *k = rdmascn_obj_data(obj);
	const struct mlx5_mkey_il *il = &k->interleaved;
	char path[64];
	int r = 0;

	if (!k->mr_list_count == !il->entries_count) {
		rdmascn_obj_error(d, obj, k->mr_list_count ? "interleaved" :
				  NULL, "give one layout: mr_list or "
				  "interleaved");
		return -EINVAL;
	}
	for (unsigned i = 0; i < k->mr_list_count; i++) {
		const struct mlx5_mkey_sge *e = &k->mr_list[i];

		snprintf(path, sizeof(path), "mr_list[%u].length", i);
		r |= inside(obj, d, path, e->mr, e->offset + e->length);
	}
	for (unsigned i = 0; i < il->entries_count; i++) {
		const struct mlx5_mkey_il_entry *e = &il->entries[i];

		snprintf(path, sizeof(path), "interleaved.entries[%u]", i);
		if (!e->bytes_count) {
			rdmascn_obj_error(d, obj, path, "bytes_count 0");
			r = -EINVAL;
			continue;
		}
		r |= inside(obj, d, path, e->mr,
			    e->offset + mlx5_mkey_il_span(e, il->repeat));
	}
	r |= pd_on_devx(obj, d, k->pd);
	if (r)
		return -EINVAL;
	if (k->max_entries && k->max_entries < mlx5_mkey_entries(k)) {
		if (il->entries_count)
			rdmascn_obj_error(d, obj, "max_entries", "%u: the "
					  "layout takes %u (%u interleaved "
					  "entries and the strided header)",
					  k->max_entries, mlx5_mkey_entries(k),
					  il->entries_count);
		else
			rdmascn_obj_error(d, obj, "max_entries", "%u: the "
					  "layout takes %u (its mr_list)",
					  k->max_entries, mlx5_mkey_entries(k));
		return -EINVAL;
	}
	return 0;
}

/* --- register_layout on a QP (struct rdmascn_wr_reg) ---------------------- */

/* An RC mlx5_qp with the layout's mlx5 send op; its WQEs grown to hold
 * the layout's entries inline. */
static int reg_check(struct rdmascn_obj *step, struct rdmascn_diag *d,
		     const char *qp_kind, void *qp, const void *obj)
{
	const K *k = obj;
	struct mlx5_qp *q = qp;
	bool il = k->interleaved.entries_count;
	uint64_t op = il ? MLX5DV_QP_EX_WITH_MR_INTERLEAVED :
			   MLX5DV_QP_EX_WITH_MR_LIST;
	uint32_t need = mlx5_mkey_inline_need(k);

	if (strcmp(qp_kind, "mlx5_qp")) {
		rdmascn_obj_error(d, step, "qp", "a %s is not an mlx5_qp: a "
				  "UMR is posted through mlx5dv_qp_ex",
				  qp_kind);
		return -EINVAL;
	}
	if (q->type != MLX5_QPT_RC) {
		rdmascn_obj_error(d, step, "qp", "qp '%s' is not an rc qp: "
				  "mlx5dv_wr_mr_%s() is an RC QP's", q->id,
				  il ? "interleaved" : "list");
		return -EINVAL;
	}
	if (!(q->mlx5_send_ops & op)) {
		rdmascn_obj_error(d, step, "qp", "qp '%s' was not made with "
				  "mlx5_send_ops: [%s]", q->id,
				  il ? "mr_interleaved" : "mr_list");
		return -EINVAL;
	}
	if (q->umr_inline < need)
		q->umr_inline = need;
	return 0;
}

static int reg_build(struct rdmascn_live *qp, struct rdmascn_live *obj)
{
	return mlx5_mkey_build(mlx5_qp_mqpx(qp), obj);
}

static void reg_dry(const void *obj, struct rdmascn_call *c)
{
	mlx5_mkey_dry(obj, c);
}

const struct rdmascn_wr_reg mlx5_mkey_wr_reg = {
	.kind = "mlx5_mkey",
	.op = "umr",
	.check = reg_check,
	.build = reg_build,
	.wr_flags = IBV_SEND_INLINE,
	.wc_opcode = MLX5DV_WC_UMR,
	.wc_opcode_name = "MLX5DV_WC_UMR",
	.dry = reg_dry,
};

extern const struct rdmascn_ops mlx5_mkey_ops;

const struct rdmascn_kind mlx5_kind_mkey = {
	.name = "mlx5_mkey",
	.section = "mlx5_mkeys",
	.summary = "an indirect mkey (mlx5dv_create_mkey) and the layout a "
		   "register_layout step gives it: mr_list or interleaved",
	.fields = mkey_fields,
	.size = sizeof(K),
	.id_offset = offsetof(K, id),
	.refs = mkey_refs,
	.check = mkey_check,
	.ops = &mlx5_mkey_ops,
};
#undef K
