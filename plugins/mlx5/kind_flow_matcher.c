// SPDX-License-Identifier: MIT
/*
 * mlx5_flow_matchers: mlx5dv_create_flow_matcher() on a core context,
 * its mask written as named fte_match_param fields (`criteria:
 * [{field: outer_headers.ethertype}]`, a mask of all ones unless one is
 * given), checked against the PRM tables at validate time;
 * match_criteria_enable follows from the parameter sets they lie in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "flow.h"
#include "rdmascn/value.h"

/* One more than the table type: 0 is "none given". */
static const cyaml_strval_t ft_type_names[] = {
	{ "nic_rx", MLX5DV_FLOW_TABLE_TYPE_NIC_RX + 1 },
	{ "nic_tx", MLX5DV_FLOW_TABLE_TYPE_NIC_TX + 1 },
	{ "fdb", MLX5DV_FLOW_TABLE_TYPE_FDB + 1 },
	{ "rdma_rx", MLX5DV_FLOW_TABLE_TYPE_RDMA_RX + 1 },
	{ "rdma_tx", MLX5DV_FLOW_TABLE_TYPE_RDMA_TX + 1 },
};

static const cyaml_strval_t matcher_flag_names[] = {
	{ "egress", IBV_FLOW_ATTR_FLAGS_EGRESS },
};

static const cyaml_schema_field_t matcher_fields[] = {
	MLX5_FIELD_ID(struct mlx5_matcher),
	MLX5_FIELD_AFTER(struct mlx5_matcher),
	MLX5_FIELD_REF("context", struct mlx5_matcher, context),
	CYAML_FIELD_UINT("priority", CYAML_FLAG_OPTIONAL, struct mlx5_matcher,
			 priority),
	CYAML_FIELD_FLAGS("flags", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			  struct mlx5_matcher, flags, matcher_flag_names,
			  CYAML_ARRAY_LEN(matcher_flag_names)),
	CYAML_FIELD_ENUM("ft_type", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			 struct mlx5_matcher, ft_type, ft_type_names,
			 CYAML_ARRAY_LEN(ft_type_names)),
	MLX5_FIELD_LIST("criteria", struct mlx5_matcher, criteria),
	CYAML_FIELD_END
};

static const struct rdmascn_ref matcher_refs[] = {
	MLX5_REF("context", struct mlx5_matcher, context, "context"),
	MLX5_REF_AFTER(struct mlx5_matcher),
	{ .field = NULL }
};

int mlx5_match_build(const struct mlx5_field *f, unsigned n, bool masks,
		     uint8_t *buf, uint8_t *ret_criteria)
{
	struct prm_val *vals = calloc(n + 1, sizeof(*vals));
	uint8_t (*wide)[64] = calloc(n + 1, sizeof(*wide));
	size_t bad;
	int r = -ENOMEM;

	if (vals && wide) {
		mlx5_fields_vals(f, n, masks, &prm_fte_match_param, vals,
				 wide);
		r = prm_encode_struct(&prm_fte_match_param, vals, n, buf,
				      MLX5_MATCH_BYTES, &bad);
		*ret_criteria = prm_match_criteria(vals, n);
	}
	free(vals);
	free(wide);
	return r;
}

static int matcher_check(struct rdmascn_obj *obj, struct rdmascn_diag *d)
{
	const struct mlx5_matcher *m = rdmascn_obj_data(obj);

	if (!m->criteria_count) {
		rdmascn_obj_error(d, obj, NULL, "a matcher needs criteria: "
				  "the fields its flows match");
		return -EINVAL;
	}
	return mlx5_fields_check(obj, d, "criteria", &prm_fte_match_param,
				 m->criteria, m->criteria_count, true);
}

static int matcher_caps(struct rdmascn_run *run, struct rdmascn_live *l,
			char *why, unsigned len)
{
	if (!rdmascn_live_has_feature(run, l, "mlx5dv")) {
		snprintf(why, len, "mlx5dv (mlx5dv_is_supported(): "
			 "mlx5dv_create_flow_matcher)");
		return -EOPNOTSUPP;
	}
	return 0;
}

static const char *ft_type_name(int32_t t)
{
	for (size_t i = 0; i < CYAML_ARRAY_LEN(ft_type_names); i++)
		if (ft_type_names[i].val == t)
			return ft_type_names[i].str;
	return "?";
}

/* The hex of MLX5_MATCH_BYTES fits. */
#define MATCH_HEX (2 * MLX5_MATCH_BYTES + 1)

static int matcher_create(struct rdmascn_run *run, struct rdmascn_live *l)
{
	const struct mlx5_matcher *m = rdmascn_live_data(l);
	struct mlx5_matcher_rt *rt = rdmascn_live_rt(l);
	struct ibv_context *ctx = rdmascn_live_verbs_context(run, l);
	struct rdmascn_call *call = rdmascn_call_new(RDMASCN_CALL_CREATE,
					"mlx5dv_create_flow_matcher");
	struct mlx5dv_flow_match_parameters *mask =
		calloc(1, sizeof(*mask) + MLX5_MATCH_BYTES);
	char *hex = malloc(MATCH_HEX);
	uint8_t criteria = 0;
	int r = mask && hex ? 0 : -ENOMEM;

	if (!r)
		r = mlx5_match_build(m->criteria, m->criteria_count, true,
				     (uint8_t *)mask->match_buf, &criteria);
	if (r) {
		free(mask);
		free(hex);
		rdmascn_call_result(call, -r);
		rdmascn_call_hint(call, "out of memory");
		return rdmascn_call_done(run, l, call);
	}
	mask->match_sz = MLX5_MATCH_BYTES;
	rdmascn_call_arg(call, "context", "%s", m->context);
	rdmascn_call_arg(call, "type", "NORMAL");
	rdmascn_call_arg(call, "flags", "%s", m->flags ? "EGRESS" : "0");
	rdmascn_call_arg(call, "priority", "%u", m->priority);
	rdmascn_call_arg(call, "match_criteria_enable", "0x%02x", criteria);
	rdmascn_call_arg(call, "match_mask", "%s",
			 prm_hex((uint8_t *)mask->match_buf, MLX5_MATCH_BYTES,
				 hex, MATCH_HEX));
	rdmascn_call_arg(call, "match_sz", "%u", MLX5_MATCH_BYTES);
	if (m->ft_type)
		rdmascn_call_arg(call, "ft_type", "%s",
				 ft_type_name(m->ft_type));
	free(hex);
	if (rdmascn_call_go(run, l, call)) {
		struct mlx5dv_flow_matcher_attr a = {
			.type = IBV_FLOW_ATTR_NORMAL,
			.flags = m->flags,
			.priority = (uint16_t)m->priority,
			.match_criteria_enable = criteria,
			.match_mask = mask,
		};

		if (m->ft_type) {
			a.comp_mask = MLX5DV_FLOW_MATCHER_MASK_FT_TYPE;
			a.ft_type = (enum mlx5dv_flow_table_type)
				    (m->ft_type - 1);
		}
		errno = 0;
		rt->matcher = ctx ? mlx5dv_create_flow_matcher(ctx, &a) :
				    NULL;
		rdmascn_call_result(call, rt->matcher ? 0 :
				    errno ? errno : ENODEV);
	}
	free(mask);
	return rdmascn_call_done(run, l, call);
}

static void matcher_destroy(struct rdmascn_run *run, struct rdmascn_live *l)
{
	struct mlx5_matcher_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *call;

	if (!rt->matcher && !rdmascn_dry_run(run))
		return;
	call = rdmascn_call_new(RDMASCN_CALL_DESTROY,
				"mlx5dv_destroy_flow_matcher");
	rdmascn_call_arg(call, "matcher", "%s", rdmascn_live_id(l));
	if (rdmascn_call_go(run, l, call))
		rdmascn_call_result(call,
				    mlx5dv_destroy_flow_matcher(rt->matcher));
	rt->matcher = NULL;
	rdmascn_call_done(run, l, call);
}

static const struct rdmascn_ops matcher_ops = {
	.rt_size = sizeof(struct mlx5_matcher_rt),
	.check_caps = matcher_caps,
	.create = matcher_create,
	.destroy = matcher_destroy,
};

const struct rdmascn_kind mlx5_kind_matcher = {
	.name = "mlx5_flow_matcher",
	.section = "mlx5_flow_matchers",
	.summary = "mlx5dv_create_flow_matcher on a context: criteria as "
		   "named fte_match_param fields (mask all ones unless "
		   "given), priority, flags (egress), ft_type",
	.fields = matcher_fields,
	.size = sizeof(struct mlx5_matcher),
	.id_offset = offsetof(struct mlx5_matcher, id),
	.refs = matcher_refs,
	.check = matcher_check,
	.ops = &matcher_ops,
};
