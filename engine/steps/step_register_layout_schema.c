// SPDX-License-Identifier: MIT
/*
 * register_layout: post the WR that registers an object's memory layout
 * (mlx5's indirect mkeys: a UMR WR, mlx5dv_wr_mr_list() or
 * mlx5dv_wr_mr_interleaved()), built by the object's kind through the
 * struct rdmascn_wr_reg it registered; the engine posts it in one
 * ibv_wr_start()..ibv_wr_complete() on the step's QP and waits for its
 * completion as the other posting steps wait for theirs.  Nothing here
 * knows what an mkey is.
 */
#include <errno.h>
#include <string.h>

#include "registry.h"
#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

#define S struct rs_step_register_layout
static const cyaml_schema_field_t register_layout_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_REF("mkey", S, mkey),
	RS_STEP_CQE_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref register_layout_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	{ .field = "mkey", .offset = offsetof(S, mkey), .count_offset = -1,
	  .layout = RDMASCN_LAYOUT_SETS },
	RS_REF_END
};

/* The step before @o in the file's top-level order, NULL: none. */
static const struct rs_obj *step_before(const struct rs_obj *o)
{
	for (unsigned i = 0; i < o->n_edges; i++)
		if (o->edges[i].field == RS_EDGE_SEQUENCE)
			return o->edges[i].to;
	return NULL;
}

/* What step @p does to @k's layout, as the references its type
 * declares say (rdmascn_ref.layout): sets it (a register_layout),
 * takes it away (a local invalidate of it, a send with invalidate of
 * its rkey), or nothing. */
static enum rdmascn_layout layout_use(const struct rs_obj *p,
				      const struct rs_obj *k)
{
	for (unsigned i = 0; i < p->n_edges; i++)
		if (p->edges[i].to == k && p->edges[i].layout)
			return p->edges[i].layout;
	return RDMASCN_LAYOUT_KEEPS;
}

/*
 * mlx5dv_wr_mr_list(3): the layout of an mkey that has one is changed
 * only after a local invalidate.  Back along the top-level steps to the
 * last that did something to @k's layout; a step that runs others
 * (parallel) ends the search, as does a nested step: the order inside
 * is not followed.
 */
static int register_again(struct rs_obj *obj, const struct rs_obj *k,
			  struct rs_diag *d)
{
	const struct rs_obj *p = obj;
	const struct rs_loc *at;

	if (obj->parent)
		return 0;
	while ((p = step_before(p))) {
		enum rdmascn_layout use = layout_use(p, k);

		if (use == RDMASCN_LAYOUT_DROPS)
			return 0;
		if (p->kind->step_ops && p->kind->step_ops->children)
			return 0;
		if (use != RDMASCN_LAYOUT_SETS)
			continue;
		at = rs_obj_loc(p, NULL);
		rs_obj_error(d, obj, "mkey", "'%s' has a layout already "
			     "(registered at %u:%u): invalidate it first "
			     "(invalidate: {qp: ..., mr: %s})", k->id,
			     at->line, at->col, k->id);
		return -EINVAL;
	}
	return 0;
}

/* What its kind says of the pair: which QPs can post it, and what the
 * QP must allow for; and not over a layout still in place. */
static int register_layout_check(struct rs_obj *obj, struct rs_diag *d)
{
	const struct rs_obj *q = rs_obj_ref(obj, "qp");
	const struct rs_obj *k = rs_obj_ref(obj, "mkey");
	const struct rdmascn_wr_reg *g = k ? rs_wr_reg_find(k->kind->name) :
				     NULL;

	if (!q || !k)
		return 0;
	if (!g) {
		rs_obj_error(d, obj, "mkey", "'%s' (%s) is not something a "
			     "WR registers", k->id, k->kind->name);
		return -EINVAL;
	}
	if (register_again(obj, k, d))
		return -EINVAL;
	return g->check(obj, d, q->kind->name, q->data, k->data);
}

const struct rdmascn_kind rs_step_kind_register_layout = {
	.name = "register_layout",
	.section = "register_layout",
	.summary = "post the WR that registers an mkey's layout (a UMR)",
	.fields = register_layout_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = register_layout_refs,
	.step = true,
	.check = register_layout_check,
	.step_ops = &rs_step_ops_register_layout,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S
