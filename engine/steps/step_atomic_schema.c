// SPDX-License-Identifier: MIT
/* atomic: its fields, references and what validate checks. */
#include <errno.h>

#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"
#include "vary.h"

#define S struct rs_step_atomic
static const cyaml_schema_field_t atomic_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_REF("local", S, local),
	RS_FIELD_REF("remote", S, remote),
	RS_FIELD_REQ_ENUM("op", S, op, rs_atomic_op_names),
	RS_FIELD_UINT("add", S, add),
	RS_FIELD_UINT("compare", S, compare),
	RS_FIELD_UINT("swap", S, swap),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("remote_offset", S, remote_offset),
	RS_FIELD_UINT("wr_id", S, vary.wr_id),
	RS_FIELD_UINT("expect_fetched", S, expect_fetched),
	RS_STEP_TRAFFIC_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref atomic_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("local", S, local, "mr"),
	RS_REF_SPANS("remote", S, remote, "mr"),
	RS_REF_END
};

static int atomic_check(struct rs_obj *obj, struct rs_diag *d)
{
	static const char *const cas[] = { "compare", "swap" };
	const S *s = obj->data;

	for (unsigned i = 0; i < 2; i++) {
		bool has = rs_obj_has(obj, cas[i]);

		if (s->op == RS_ATOMIC_FETCH_ADD && has) {
			rs_obj_error(d, obj, cas[i],
				     "for 'op: cmp_swap', not fetch_add");
			return -EINVAL;
		}
		if (s->op == RS_ATOMIC_CMP_SWAP && !has) {
			rs_obj_error(d, obj, cas[i],
				     "required with 'op: cmp_swap'");
			return -EINVAL;
		}
	}
	if (s->op == RS_ATOMIC_CMP_SWAP && rs_obj_has(obj, "add")) {
		rs_obj_error(d, obj, "add",
			     "for 'op: fetch_add', not cmp_swap");
		return -EINVAL;
	}
	if (s->remote_offset % 8) {
		rs_obj_error(d, obj, "remote_offset",
			     "must be 8-byte aligned");
		return -EINVAL;
	}
	if (s->traffic.inline_data) {
		rs_obj_error(d, obj, "inline",
			     "not possible for atomics");
		return -EINVAL;
	}
	if (rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->traffic.iterations,
			.offset = s->offset, .length = 8 }))
		return -EINVAL;
	return rs_step_check_traffic(obj, d, &s->traffic);
}

const struct rdmascn_kind rs_step_kind_atomic = {
	.name = "atomic",
	.section = "atomic",
	.summary = "post 8-byte atomics: fetch_add or cmp_swap",
	.fields = atomic_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = atomic_refs,
	.step = true,
	.check = atomic_check,
	.step_ops = &rs_step_ops_atomic,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S
