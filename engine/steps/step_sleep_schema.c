// SPDX-License-Identifier: MIT
/* sleep: its fields and references. */
#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

#define S struct rs_step_sleep
static const cyaml_schema_field_t sleep_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REQ_UINT("ms", S, ms),
	CYAML_FIELD_END
};

static const struct rdmascn_ref sleep_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_REF_END
};

const struct rdmascn_kind rs_step_kind_sleep = {
	.name = "sleep",
	.section = "sleep",
	.summary = "wait a number of milliseconds",
	.fields = sleep_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = sleep_refs,
	.step = true,
	.step_ops = &rs_step_ops_sleep,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S
