// SPDX-License-Identifier: MIT
/* link: its fields and references. */
#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

#define S struct rs_step_link
static const cyaml_schema_field_t link_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("context", S, context),
	RS_FIELD_REQ_ENUM("state", S, state, rs_link_state_names),
	CYAML_FIELD_END
};

static const struct rdmascn_ref link_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_REF("context", S, context, "context"),
	RS_REF_END
};

const struct rdmascn_kind rs_step_kind_link = {
	.name = "link",
	.section = "link",
	.summary = "set a software device's netdev down or up and wait for "
		   "the port's event",
	.fields = link_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = link_refs,
	.step = true,
	.step_ops = &rs_step_ops_link,
	.figures = RDMASCN_FIGURES("wire", "link"),
};
#undef S
