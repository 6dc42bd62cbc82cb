// SPDX-License-Identifier: MIT
/* parallel: its fields and references; the loader recurses into steps. */
#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

#define S struct rs_step_parallel
static const cyaml_schema_field_t parallel_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	CYAML_FIELD_SEQUENCE("steps", CYAML_FLAG_POINTER, S, steps,
			     &rs_step_entry_schema, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const struct rdmascn_ref parallel_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_REF_END
};

const struct rdmascn_kind rs_step_kind_parallel = {
	.name = "parallel",
	.section = "parallel",
	.summary = "run nested steps at the same time",
	.fields = parallel_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = parallel_refs,
	.step = true,
	.children_offset = offsetof(S, steps),
	.children_count_offset = offsetof(S, steps_count),
	.step_ops = &rs_step_ops_parallel,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S
