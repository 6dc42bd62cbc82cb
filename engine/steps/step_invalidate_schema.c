// SPDX-License-Identifier: MIT
/* invalidate: its fields, references and what validate checks. */
#include <errno.h>

#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

#define S struct rs_step_invalidate
static const cyaml_schema_field_t invalidate_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_OPT_REF("mw", S, mw),
	RS_FIELD_OPT_REF("mr", S, mr),
	RS_STEP_CQE_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref invalidate_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("mw", S, mw, "mw"),
	RS_REF_LAYOUT("mr", S, mr, RDMASCN_LAYOUT_DROPS, "mr"),
	RS_REF_END
};

static int invalidate_check(struct rs_obj *obj, struct rs_diag *d)
{
	int r = rs_step_one_of(obj, d, "mw", "mr");

	if (r)
		return r;
	return rs_step_check_invalidatable(obj, d, rs_obj_has(obj, "mw") ?
					   "mw" : "mr");
}

const struct rdmascn_kind rs_step_kind_invalidate = {
	.name = "invalidate",
	.section = "invalidate",
	.summary = "post a local invalidate of an MW's or MR's rkey",
	.fields = invalidate_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = invalidate_refs,
	.step = true,
	.check = invalidate_check,
	.step_ops = &rs_step_ops_invalidate,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S
