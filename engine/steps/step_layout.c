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

#include "post.h"
#include "registry.h"
#include "steps.h"

#define S struct rs_step_register_layout
S {
	struct rs_step_common common;
	char *qp;
	char *mkey;
	struct rs_step_traffic traffic; /* expect, completion, wc */
};

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
	{ .field = "mkey", .offset = offsetof(S, mkey), .count_offset = -1 },
	RS_REF_END
};

/* The step before @o in the file's top-level order, NULL: none. */
static const struct rs_obj *step_before(const struct rs_obj *o)
{
	for (unsigned i = 0; i < o->n_edges; i++)
		if (!strcmp(o->edges[i].field, "sequence"))
			return o->edges[i].to;
	return NULL;
}

/* Step @p takes @k's layout away: a local invalidate of it, or a send
 * with invalidate of its rkey. */
static bool drops_layout(const struct rs_obj *p, const struct rs_obj *k)
{
	for (unsigned i = 0; i < p->n_edges; i++)
		if (p->edges[i].to == k &&
		    ((p->kind == &rs_step_kind_invalidate &&
		      !strcmp(p->edges[i].field, "mr")) ||
		     !strcmp(p->edges[i].field, "invalidate_rkey_of")))
			return true;
	return false;
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
		if (drops_layout(p, k))
			return 0;
		if (p->kind->step_ops && p->kind->step_ops->children)
			return 0;
		if (p->kind != &rs_step_kind_register_layout ||
		    rs_obj_ref(p, "mkey") != k)
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

/* --- on a device ---------------------------------------------------------- */

/* One WR, the kind's: in its own ibv_wr_start()..ibv_wr_complete(). */
static int post_reg(struct rs_step_run *sr, struct ibv_send_wr *wr,
		    struct ibv_send_wr **bad)
{
	struct post_rt *p = sr->rt;
	struct ibv_qp_ex *x = p->w.qp->rt->qpx;
	int r;

	for (; wr; wr = wr->next) {
		p->w.qp->rt->posted = true;
		ibv_wr_start(x);
		x->wr_id = wr->wr_id;
		x->wr_flags = wr->send_flags | p->reg->wr_flags;
		r = p->reg->build(p->w.qp->l, p->reg_obj);
		if (r) {
			ibv_wr_abort(x);
			*bad = wr;
			return r;
		}
		r = rs_wr_err(ibv_wr_complete(x));
		if (r) {
			*bad = wr;
			return r;
		}
	}
	return 0;
}

/* Its completion carries the opcode its kind names (MLX5DV_WC_UMR). */
static int check_opcode(struct rs_step_run *sr)
{
	struct post_rt *p = sr->rt;
	const struct ibv_wc *wc = &sr->owner->seen.last;

	if (!sr->owner->seen.n || (int)wc->opcode == p->reg->wc_opcode)
		return 0;
	return rs_step_fail(sr, RS_STEP_FAILED, NULL, "the %s WR completed "
			    "with opcode %d, not %s (%d)", p->reg->op,
			    (int)wc->opcode, p->reg->wc_opcode_name ?
			    p->reg->wc_opcode_name : "?", p->reg->wc_opcode);
}

static int register_layout_start(struct rs_step_run *sr)
{
	const S *s = sr->obj->data;
	struct post_rt *p = sr->rt;
	struct rs_live *k = rs_live_find(sr->run, s->mkey);

	p->w.qp = rs_wr_qp(sr, s->qp, "qp", false);
	if (!p->w.qp)
		return -EIO;
	p->reg = k ? rs_wr_reg_find(k->obj->kind->name) : NULL;
	if (!p->reg)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "mkey", "'%s' is not "
				    "registered by a WR", s->mkey);
	if (!p->w.qp->rt->qpx)
		return rs_step_fail(sr, RS_STEP_CANTRUN, "qp", "qp '%s' posts "
				    "through ibv_wr_* only: it has no "
				    "ibv_qp_ex", s->qp);
	p->reg_obj = k;
	p->post = post_reg;
	p->op = p->reg->op;
	p->check = check_opcode;
	return rs_post_begin(sr, p, &s->traffic, false);
}

static void register_layout_dry(struct rs_run *run, struct rs_obj *obj)
{
	const S *s = obj->data;
	const struct rs_obj *k = rs_obj_ref(obj, "mkey");
	const struct rdmascn_wr_reg *g = k ? rs_wr_reg_find(k->kind->name) :
				     NULL;
	struct rdmascn_call c;

	if (!g)
		return;
	rs_call_init(&c.c, RS_CALL_QUERY, "ibv_wr_start..ibv_wr_complete");
	rs_call_arg(&c.c, "qp", "%s", s->qp);
	rs_call_arg(&c.c, "wr_id", "0x%llx",
		    (unsigned long long)rs_wr_id(obj->index, 0, 0));
	rs_call_arg(&c.c, "wr_flags", "signaled%s",
		    g->wr_flags & IBV_SEND_INLINE ? "|inline" : "");
	g->dry(k->data, &c);
	rs_call_arg(&c.c, "wc.opcode", "%s", g->wc_opcode_name ?
		    g->wc_opcode_name : "?");
	rs_step_call(run, obj, &c.c);
}

RS_POST_OPS(register_layout);
