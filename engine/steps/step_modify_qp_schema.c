// SPDX-License-Identifier: MIT
/* modify_qp: its fields and references; for negative tests, e.g.
 * posting to a QP in err. */
#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

#define S struct rs_step_modify_qp
static const cyaml_schema_field_t modify_qp_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_REQ_ENUM("state", S, state, rs_qp_state_names),
	CYAML_FIELD_END
};

static const struct rdmascn_ref modify_qp_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF_END
};

const struct rdmascn_kind rs_step_kind_modify_qp = {
	.name = "modify_qp",
	.section = "modify_qp",
	.summary = "move a QP to a state, e.g. err for negative tests",
	.fields = modify_qp_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = modify_qp_refs,
	.step = true,
	.step_ops = &rs_step_ops_modify_qp,
	.figures = RDMASCN_FIGURES("qp_state"),
};
#undef S
