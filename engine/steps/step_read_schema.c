// SPDX-License-Identifier: MIT
/* read: its fields, references and what validate checks. */
#include <errno.h>

#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"
#include "vary.h"

#define S struct rs_step_read
static const cyaml_schema_field_t read_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_OPT_REF("local", S, local),
	RS_FIELD_REF("remote", S, remote),
	RS_FIELD_OPT_REF("dct", S, dct),
	RS_FIELD_OPT_REF("ah", S, ah),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("remote_offset", S, remote_offset),
	RS_FIELD_UINT("rkey", S, rkey),
	RS_STEP_WR_FIELDS(S),
	RS_FIELD_UINT("remote_stride", S, vary.remote_stride),
	RS_STEP_SPLIT_FIELDS(S),
	RS_STEP_TRAFFIC_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref read_refs[] = {
	RS_STEP_ONE_SIDED_REFS(S)
};

static int read_check(struct rs_obj *obj, struct rs_diag *d)
{
	const S *s = obj->data;

	if (rs_step_check_dest(obj, d, s->dct, s->ah))
		return -EINVAL;
	if (s->traffic.inline_data) {
		rs_obj_error(d, obj, "inline",
			     "not possible for read");
		return -EINVAL;
	}
	if (rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->traffic.iterations,
			.offset = s->offset, .length = s->length,
			.inline_data = s->traffic.inline_data, .remote = true,
			.remote_offset = s->remote_offset,
			.expect = s->traffic.expect }))
		return -EINVAL;
	return rs_step_check_traffic(obj, d, &s->traffic);
}

const struct rdmascn_kind rs_step_kind_read = {
	.name = "read",
	.section = "read",
	.summary = "post RDMA reads",
	.fields = read_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = read_refs,
	.step = true,
	.check = read_check,
	.step_ops = &rs_step_ops_read,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S
