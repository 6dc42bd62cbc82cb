// SPDX-License-Identifier: MIT
/* bind_mw: its fields, references and what validate checks. */
#include <errno.h>

#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

#define S struct rs_step_bind_mw
static const cyaml_schema_field_t bind_mw_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_REF("mw", S, mw),
	RS_FIELD_REF("mr", S, mr),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_FLAGS("access", S, access, rs_mw_access_names),
	RS_STEP_CQE_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref bind_mw_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("mw", S, mw, "mw"),
	RS_REF("mr", S, mr, "mr"),
	RS_REF_END
};

const struct rdmascn_kind rs_step_kind_bind_mw = {
	.name = "bind_mw",
	.section = "bind_mw",
	.summary = "bind a memory window to a range of an MR",
	.fields = bind_mw_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = bind_mw_refs,
	.step = true,
	.step_ops = &rs_step_ops_bind_mw,
	.figures = RDMASCN_FIGURES("rkey"),
};
#undef S
