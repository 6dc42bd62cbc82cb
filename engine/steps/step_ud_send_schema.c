// SPDX-License-Identifier: MIT
/* ud_send: its fields, references and what validate checks. */
#include <errno.h>

#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"
#include "registry.h"
#include "vary.h"

#define S struct rs_step_ud_send
static const cyaml_schema_field_t ud_send_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_REF("qp", S, qp),
	RS_FIELD_REF("ah", S, ah),
	RS_FIELD_OPT_REF("to", S, to),
	RS_FIELD_OPT_REF("reply_to", S, reply_to),
	RS_FIELD_UINT("remote_qkey", S, remote_qkey),
	RS_FIELD_OPT_REF("local", S, local),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_UINT("offset", S, offset),
	RS_STEP_WR_FIELDS(S),
	RS_STEP_TRAFFIC_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref ud_send_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("ah", S, ah, "ah"),
	RS_REF_SPANS("to", S, to, RS_QP_KINDS),
	RS_REF("reply_to", S, reply_to, "recv"),
	RS_REF("local", S, local, "mr"),
	RS_STEP_REF_SGE(S),
	RS_REF_END
};

/* Whether the ah @obj names is made from a received completion. */
static bool ah_from_wc(const struct rs_obj *obj)
{
	const struct rs_obj *ah = rs_obj_target(obj, "ah");
	int64_t v = 0;

	return ah && rs_obj_field_int(ah, "from_wc", &v) && v;
}

/* The QP the ah @obj names addresses (its `to:`), or NULL. */
static const struct rs_obj *ah_to(const struct rs_obj *obj)
{
	const struct rs_obj *ah = rs_obj_target(obj, "ah");

	return ah ? rs_obj_target(ah, "to") : NULL;
}

static int ud_send_check(struct rs_obj *obj, struct rs_diag *d)
{
	const S *s = obj->data;
	const struct rs_obj *ah_qp = ah_to(obj), *to = rs_obj_target(obj, "to");

	if (!s->to && !s->reply_to) {
		rs_obj_error(d, obj, NULL, "give 'to' (a QP) or 'reply_to' "
			     "(a recv step)");
		return -EINVAL;
	}
	if (s->to && s->reply_to) {
		rs_obj_error(d, obj, "reply_to", "exclusive with 'to'");
		return -EINVAL;
	}
	if (ah_from_wc(obj) != !!s->reply_to) {
		rs_obj_error(d, obj, "ah", s->reply_to ?
			     "'%s' has no 'from_wc: true': a reply's ah is "
			     "made from the completion it answers" :
			     "'%s' has 'from_wc: true': it exists only as "
			     "a reply (give 'reply_to', not 'to')", s->ah);
		return -EINVAL;
	}
	/* Known from the file: the address is one QP's, the QPN
	 * another's. */
	if (ah_qp && to && ah_qp != to) {
		rs_obj_error(d, obj, "to", "'%s', but ah '%s' addresses qp "
			     "'%s' (its to:): give the ah 'to: %s'", s->to,
			     s->ah, ah_qp->id, s->to);
		return -EINVAL;
	}
	if (s->to && rs_obj_has(obj, "remote_qkey")) {
		rs_obj_error(d, obj, "remote_qkey", "needs 'reply_to' (with "
			     "'to', the Q_Key is that QP's)");
		return -EINVAL;
	}
	if (rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->traffic.iterations,
			.offset = s->offset, .length = s->length,
			.inline_data = s->traffic.inline_data }))
		return -EINVAL;
	return rs_step_check_traffic(obj, d, &s->traffic);
}

const struct rdmascn_kind rs_step_kind_ud_send = {
	.name = "ud_send",
	.section = "ud_send",
	.summary = "post UD sends to a QP through an address handle",
	.fields = ud_send_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = ud_send_refs,
	.step = true,
	.check = ud_send_check,
	.step_ops = &rs_step_ops_ud_send,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S
