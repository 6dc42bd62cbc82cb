// SPDX-License-Identifier: MIT
/* stream: its fields, references and what validate checks. */
#include <errno.h>

#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"

#define S struct rs_step_stream
static const cyaml_schema_field_t stream_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_OPT_REF("qp", S, qp),
	RS_FIELD_REFS("qps", S, qps),
	RS_FIELD_ENUM("op", S, op, rs_stream_op_names),
	RS_FIELD_REF("local", S, local),
	RS_FIELD_OPT_REF("remote", S, remote),
	RS_FIELD_OPT_REF("peer", S, peer),
	RS_FIELD_UINT("size", S, size),
	RS_FIELD_UINT("iterations", S, iterations),
	RS_FIELD_UINT("duration_ms", S, duration_ms),
	RS_FIELD_UINT("depth", S, depth),
	RS_FIELD_UINT("post_list", S, post_list),
	RS_FIELD_UINT("signal_every", S, signal_every),
	RS_FIELD_BOOL("inline", S, inline_data),
	RS_FIELD_ENUM("completion", S, completion, rs_completion_names),
	CYAML_FIELD_END
};

static const struct rdmascn_ref stream_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF_LIST("qps", S, qps, RS_QP_KINDS),
	RS_REF("local", S, local, "mr"),
	RS_REF_SPANS("remote", S, remote, "mr", "mw"),
	RS_REF_SPANS("peer", S, peer, RS_QP_KINDS),
	RS_REF_END
};

static int stream_check(struct rs_obj *obj, struct rs_diag *d)
{
	const S *s = obj->data;
	struct rs_step_traffic t = {
		.depth = s->depth,
		.post_list = s->post_list,
		.signal_every = s->signal_every,
	};

	if (s->qp && s->qps_count) {
		rs_obj_error(d, obj, "qps", "exclusive with 'qp'");
		return -EINVAL;
	}
	if (!s->qp && !s->qps_count) {
		rs_obj_error(d, obj, "qp", "one of qp and qps is required");
		return -EINVAL;
	}
	if (rs_obj_has(obj, "iterations") && rs_obj_has(obj, "duration_ms")) {
		rs_obj_error(d, obj, "duration_ms",
			     "exclusive with 'iterations'");
		return -EINVAL;
	}
	if (s->op == RS_STREAM_SEND && !s->peer) {
		rs_obj_error(d, obj, "peer", "required with 'op: send'");
		return -EINVAL;
	}
	if (s->op != RS_STREAM_SEND && !s->remote) {
		rs_obj_error(d, obj, "remote",
			     "required with 'op: write' or 'read'");
		return -EINVAL;
	}
	if (s->op == RS_STREAM_READ && s->inline_data) {
		rs_obj_error(d, obj, "inline",
			     "not possible for read");
		return -EINVAL;
	}
	return rs_step_check_traffic(obj, d, &t);
}

const struct rdmascn_kind rs_step_kind_stream = {
	.name = "stream",
	.section = "stream",
	.summary = "stream sends, writes or reads and measure bandwidth",
	.fields = stream_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = stream_refs,
	.step = true,
	.check = stream_check,
	.step_ops = &rs_step_ops_stream,
	.figures = RDMASCN_FIGURES("throughput"),
};
#undef S
