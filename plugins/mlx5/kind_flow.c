// SPDX-License-Identifier: MIT
/*
 * mlx5_flows: a steering rule in a matcher (mlx5dv_create_flow()): the
 * values its packets match, written as named fte_match_param fields,
 * each among the matcher's criteria; its actions, in order: a QP that
 * receives them (`qp:`, a raw packet QP on the matcher's context), a
 * DevX destination (`devx:`, a flow table or TIR), a tag in the
 * completion (`tag:`), `drop: true` or `default_miss: true`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow.h"
#include "rdmascn/qp.h"
#include "rdmascn/value.h"

struct mlx5_flow_action {
	char *qp;                /* first: the engine reads the id here */
	char *devx;
	uint32_t *tag;
	bool drop;
	bool default_miss;
};

struct mlx5_flow {
	char *id;
	char *matcher;
	struct mlx5_field *match;
	unsigned match_count;
	struct mlx5_flow_action *actions;
	unsigned actions_count;
	char **after;
	unsigned after_count;
};

struct mlx5_flow_rt {
	struct ibv_flow *flow;
};

static const cyaml_schema_field_t action_fields[] = {
	MLX5_FIELD_OPT_REF("qp", struct mlx5_flow_action, qp),
	MLX5_FIELD_OPT_REF("devx", struct mlx5_flow_action, devx),
	CYAML_FIELD_UINT_PTR("tag", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct mlx5_flow_action, tag),
	CYAML_FIELD_BOOL("drop", CYAML_FLAG_OPTIONAL, struct mlx5_flow_action,
			 drop),
	CYAML_FIELD_BOOL("default_miss", CYAML_FLAG_OPTIONAL,
			 struct mlx5_flow_action, default_miss),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t action_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct mlx5_flow_action,
			    action_fields),
};

static const cyaml_schema_field_t flow_fields[] = {
	MLX5_FIELD_ID(struct mlx5_flow),
	MLX5_FIELD_AFTER(struct mlx5_flow),
	MLX5_FIELD_REF("matcher", struct mlx5_flow, matcher),
	MLX5_FIELD_LIST("match", struct mlx5_flow, match),
	CYAML_FIELD_SEQUENCE("actions", CYAML_FLAG_POINTER, struct mlx5_flow,
			     actions, &action_schema, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const struct rdmascn_ref flow_refs[] = {
	MLX5_REF("matcher", struct mlx5_flow, matcher, "mlx5_flow_matcher"),
	{ .field = "actions", .offset = offsetof(struct mlx5_flow, actions),
	  .count_offset = offsetof(struct mlx5_flow, actions_count),
	  .kinds = RDMASCN_KINDS("qp"),
	  .stride = sizeof(struct mlx5_flow_action),
	  .item_offset = offsetof(struct mlx5_flow_action, qp),
	  .item_key = "qp" },
	{ .field = "actions", .offset = offsetof(struct mlx5_flow, actions),
	  .count_offset = offsetof(struct mlx5_flow, actions_count),
	  .kinds = RDMASCN_KINDS("devx_obj"),
	  .stride = sizeof(struct mlx5_flow_action),
	  .item_offset = offsetof(struct mlx5_flow_action, devx),
	  .item_key = "devx" },
	MLX5_REF_AFTER(struct mlx5_flow),
	{ .field = NULL }
};

static bool among_criteria(const struct mlx5_matcher *m, const char *field)
{
	for (unsigned i = 0; i < m->criteria_count; i++)
		if (!strcmp(m->criteria[i].field, field))
			return true;
	return false;
}

static int flow_check(struct rdmascn_obj *obj, struct rdmascn_diag *d)
{
	const struct mlx5_flow *f = rdmascn_obj_data(obj);
	const struct mlx5_matcher *m = rdmascn_obj_ref_data(obj, f->matcher);
	char path[48];
	int r;

	r = mlx5_fields_check(obj, d, "match", &prm_fte_match_param,
			      f->match, f->match_count, false);
	for (unsigned i = 0; !r && m && i < f->match_count; i++) {
		if (among_criteria(m, f->match[i].field))
			continue;
		snprintf(path, sizeof(path), "match[%u].field", i);
		rdmascn_obj_error(d, obj, path, "%s is not among matcher "
				  "'%s''s criteria", f->match[i].field,
				  f->matcher);
		r = -EINVAL;
	}
	for (unsigned i = 0; i < f->actions_count; i++) {
		const struct mlx5_flow_action *a = &f->actions[i];
		int n = !!a->qp + !!a->devx + !!a->tag + a->drop +
			a->default_miss;

		if (n == 1)
			continue;
		snprintf(path, sizeof(path), "actions[%u]", i);
		rdmascn_obj_error(d, obj, path, "an action is one of qp:, "
				  "devx:, tag:, drop: true, default_miss: "
				  "true");
		r = -EINVAL;
	}
	return r;
}

/* What mlx5dv_create_flow() is given for @a; a dry run names it. */
static void action_of(struct rdmascn_run *run, const struct mlx5_flow_action *a,
		      struct mlx5dv_flow_action_attr *ret, char *text,
		      size_t len)
{
	if (a->qp) {
		ret->type = MLX5DV_FLOW_ACTION_DEST_IBV_QP;
		ret->qp = rdmascn_live_ibv_qp(run,
					      rdmascn_live_find(run, a->qp));
		snprintf(text, len, "DEST_IBV_QP(%s)", a->qp);
	} else if (a->devx) {
		struct rdmascn_live *t = rdmascn_live_find(run, a->devx);
		/* A devx object's rt starts with its mlx5dv_devx_obj. */
		struct mlx5dv_devx_obj **obj = t ? rdmascn_live_rt(t) : NULL;

		ret->type = MLX5DV_FLOW_ACTION_DEST_DEVX;
		ret->obj = obj ? *obj : NULL;
		snprintf(text, len, "DEST_DEVX(%s)", a->devx);
	} else if (a->tag) {
		ret->type = MLX5DV_FLOW_ACTION_TAG;
		ret->tag_value = *a->tag;
		snprintf(text, len, "TAG(0x%x)", *a->tag);
	} else if (a->drop) {
		ret->type = MLX5DV_FLOW_ACTION_DROP;
		snprintf(text, len, "DROP");
	} else {
		ret->type = MLX5DV_FLOW_ACTION_DEFAULT_MISS;
		snprintf(text, len, "DEFAULT_MISS");
	}
}

#define MATCH_HEX (2 * MLX5_MATCH_BYTES + 1)

static int flow_create(struct rdmascn_run *run, struct rdmascn_live *l)
{
	const struct mlx5_flow *f = rdmascn_live_data(l);
	struct mlx5_flow_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_live *ml = rdmascn_live_find(run, f->matcher);
	struct mlx5_matcher_rt *mrt = ml ? rdmascn_live_rt(ml) : NULL;
	struct rdmascn_call *call = rdmascn_call_new(RDMASCN_CALL_CREATE,
						     "mlx5dv_create_flow");
	struct mlx5dv_flow_match_parameters *value =
		calloc(1, sizeof(*value) + MLX5_MATCH_BYTES);
	struct mlx5dv_flow_action_attr *acts =
		calloc(f->actions_count, sizeof(*acts));
	char *hex = malloc(MATCH_HEX);
	uint8_t criteria;
	char key[24], text[96];
	int r = value && acts && hex ? 0 : -ENOMEM;

	if (!r)
		r = mlx5_match_build(f->match, f->match_count, false,
				     (uint8_t *)value->match_buf, &criteria);
	if (r) {
		rdmascn_call_result(call, -r);
		rdmascn_call_hint(call, "out of memory");
		goto out;
	}
	value->match_sz = MLX5_MATCH_BYTES;
	rdmascn_call_arg(call, "matcher", "%s", f->matcher);
	rdmascn_call_arg(call, "match_value", "%s",
			 prm_hex((uint8_t *)value->match_buf,
				 MLX5_MATCH_BYTES, hex, MATCH_HEX));
	rdmascn_call_arg(call, "match_sz", "%u", MLX5_MATCH_BYTES);
	rdmascn_call_arg(call, "num_actions", "%u", f->actions_count);
	for (unsigned i = 0; i < f->actions_count; i++) {
		action_of(run, &f->actions[i], &acts[i], text, sizeof(text));
		snprintf(key, sizeof(key), "actions[%u]", i);
		rdmascn_call_arg(call, key, "%s", text);
	}
	if (rdmascn_call_go(run, l, call)) {
		errno = 0;
		rt->flow = mrt && mrt->matcher ?
			   mlx5dv_create_flow(mrt->matcher, value,
					      f->actions_count, acts) : NULL;
		rdmascn_call_result(call, rt->flow ? 0 :
				    errno ? errno : ENODEV);
	}
out:
	free(value);
	free(acts);
	free(hex);
	return rdmascn_call_done(run, l, call);
}

static void flow_destroy(struct rdmascn_run *run, struct rdmascn_live *l)
{
	struct mlx5_flow_rt *rt = rdmascn_live_rt(l);
	struct rdmascn_call *call;

	if (!rt->flow && !rdmascn_dry_run(run))
		return;
	call = rdmascn_call_new(RDMASCN_CALL_DESTROY, "ibv_destroy_flow");
	rdmascn_call_arg(call, "flow", "%s", rdmascn_live_id(l));
	if (rdmascn_call_go(run, l, call))
		rdmascn_call_result(call, ibv_destroy_flow(rt->flow));
	rt->flow = NULL;
	rdmascn_call_done(run, l, call);
}

static const struct rdmascn_ops flow_ops = {
	.rt_size = sizeof(struct mlx5_flow_rt),
	.create = flow_create,
	.destroy = flow_destroy,
};

const struct rdmascn_kind mlx5_kind_flow = {
	.name = "mlx5_flow",
	.section = "mlx5_flows",
	.summary = "mlx5dv_create_flow in a matcher: match values as named "
		   "fte_match_param fields among its criteria; actions: qp, "
		   "devx, tag, drop, default_miss",
	.fields = flow_fields,
	.size = sizeof(struct mlx5_flow),
	.id_offset = offsetof(struct mlx5_flow, id),
	.refs = flow_refs,
	.check = flow_check,
	.ops = &flow_ops,
};
