// SPDX-License-Identifier: MIT
/* pingpong: its fields and references; results are latency columns,
 * nothing to configure. */
#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

#define S struct rs_step_pingpong
static const cyaml_schema_field_t pingpong_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_REF("peer", S, peer),
	RS_FIELD_ENUM("op", S, op, rs_pingpong_op_names),
	RS_FIELD_REF("local", S, local),
	RS_FIELD_REF("peer_local", S, peer_local),
	RS_FIELD_UINT("size", S, size),
	RS_FIELD_UINT("iterations", S, iterations),
	RS_FIELD_UINT("warmup", S, warmup),
	RS_FIELD_BOOL("inline", S, inline_data),
	RS_FIELD_ENUM("completion", S, completion, rs_completion_names),
	CYAML_FIELD_END
};

static const struct rdmascn_ref pingpong_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF_SPANS("peer", S, peer, RS_QP_KINDS),
	RS_REF("local", S, local, "mr"),
	RS_REF_SPANS("peer_local", S, peer_local, "mr"),
	RS_REF_END
};

const struct rdmascn_kind rs_step_kind_pingpong = {
	.name = "pingpong",
	.section = "pingpong",
	.summary = "bounce a message between two QPs and measure latency",
	.fields = pingpong_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = pingpong_refs,
	.step = true,
	.step_ops = &rs_step_ops_pingpong,
	.figures = RDMASCN_FIGURES("latency"),
};
#undef S
