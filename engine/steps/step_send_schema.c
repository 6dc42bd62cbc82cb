// SPDX-License-Identifier: MIT
/* send: its fields, references and what validate checks. */
#include <errno.h>

#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"
#include "vary.h"

#define S struct rs_step_send
static const cyaml_schema_field_t send_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_OPT_REF("local", S, local),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("imm", S, imm),
	RS_FIELD_OPT_REF("ah", S, ah),
	RS_FIELD_OPT_REF("dct", S, dct),
	RS_FIELD_UINT("remote_qpn", S, remote_qpn),
	RS_FIELD_UINT("remote_qkey", S, remote_qkey),
	RS_FIELD_OPT_REF("invalidate_rkey_of", S, invalidate_rkey_of),
	RS_STEP_WR_FIELDS(S),
	RS_STEP_SPLIT_FIELDS(S),
	RS_STEP_TRAFFIC_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref send_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("local", S, local, "mr"),
	RS_STEP_REF_SGE(S),
	RS_REF("ah", S, ah, "ah"),
	RS_REF("dct", S, dct, RS_QP_KINDS),
	RS_REF_LAYOUT("invalidate_rkey_of", S, invalidate_rkey_of,
		      RDMASCN_LAYOUT_DROPS, "mr", "mw"),
	RS_REF_END
};

static int send_check(struct rs_obj *obj, struct rs_diag *d)
{
	const S *s = obj->data;

	if (rs_obj_has(obj, "imm") && s->invalidate_rkey_of) {
		rs_obj_error(d, obj, "invalidate_rkey_of",
			     "exclusive with 'imm'");
		return -EINVAL;
	}
	if (s->invalidate_rkey_of &&
	    rs_step_check_invalidatable(obj, d, "invalidate_rkey_of"))
		return -EINVAL;
	/* A DCI's send: its ah: is the path to the DCT, not a UD one. */
	if (rs_step_check_dest(obj, d, s->dct, s->dct ? s->ah : NULL))
		return -EINVAL;
	if (s->dct && (rs_obj_has(obj, "remote_qpn") ||
		       rs_obj_has(obj, "remote_qkey"))) {
		rs_obj_error(d, obj, rs_obj_has(obj, "remote_qpn") ?
			     "remote_qpn" : "remote_qkey", "not with 'dct' "
			     "(the DCT's number and key are its own)");
		return -EINVAL;
	}
	if (s->ah && !s->dct && !rs_obj_has(obj, "remote_qpn")) {
		rs_obj_error(d, obj, "remote_qpn",
			     "required with 'ah'");
		return -EINVAL;
	}
	if (!s->ah) {
		const char *f = rs_obj_has(obj, "remote_qpn") ? "remote_qpn" :
				rs_obj_has(obj, "remote_qkey") ? "remote_qkey" :
								  NULL;

		if (f) {
			rs_obj_error(d, obj, f, "needs 'ah'");
			return -EINVAL;
		}
	}
	if (rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->traffic.iterations,
			.offset = s->offset, .length = s->length,
			.inline_data = s->traffic.inline_data }))
		return -EINVAL;
	return rs_step_check_traffic(obj, d, &s->traffic);
}

const struct rdmascn_kind rs_step_kind_send = {
	.name = "send",
	.section = "send",
	.summary = "post sends (with imm or invalidate; UD or DC with ah)",
	.fields = send_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = send_refs,
	.step = true,
	.check = send_check,
	.step_ops = &rs_step_ops_send,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S
