// SPDX-License-Identifier: MIT
/* recv: its fields, references and what validate checks. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "steps.h"
/* after steps.h: model.h needs RS_ID_MAX from schema.h */
#include "model.h"
#include "vary.h"

static const cyaml_schema_field_t grh_fields[] = {
	RS_FIELD_STR("sgid", struct rs_step_grh, sgid),
	RS_FIELD_STR("dgid", struct rs_step_grh, dgid),
	RS_FIELD_OPT_REF("sgid_of", struct rs_step_grh, sgid_of),
	RS_FIELD_OPT_REF("dgid_of", struct rs_step_grh, dgid_of),
	CYAML_FIELD_END
};

/* A GID as text: IPv6, or IPv4 for its IPv4-mapped GID (RoCE v2). */
static int parse_gid(const char *text, uint8_t gid[16])
{
	uint8_t v4[4];

	if (inet_pton(AF_INET6, text, gid) == 1)
		return 0;
	if (inet_pton(AF_INET, text, v4) != 1)
		return -EINVAL;
	memset(gid, 0, 10);
	gid[10] = gid[11] = 0xff;
	memcpy(gid + 12, v4, 4);
	return 0;
}

#define S struct rs_step_recv
static const cyaml_schema_field_t recv_fields[] = {
	RS_STEP_COMMON_FIELDS(S),
	RS_FIELD_OPT_REF("qp", S, qp),
	RS_FIELD_OPT_REF("srq", S, srq),
	RS_FIELD_OPT_REF("local", S, local),
	RS_FIELD_UINT("length", S, length),
	RS_FIELD_UINT("offset", S, offset),
	RS_FIELD_UINT("count", S, count),
	CYAML_FIELD_MAPPING("grh", CYAML_FLAG_OPTIONAL, S, grh, grh_fields),
	RS_STEP_WR_FIELDS(S),
	RS_STEP_CQE_FIELDS(S),
	CYAML_FIELD_END
};

static const struct rdmascn_ref recv_refs[] = {
	RS_STEP_REF_AFTER(S),
	RS_STEP_WC_REFS(S),
	RS_REF("qp", S, qp, RS_QP_KINDS),
	RS_REF("srq", S, srq, "srq"),
	RS_REF("local", S, local, "mr"),
	RS_REF("grh.sgid_of", S, grh.sgid_of, "context"),
	RS_REF("grh.dgid_of", S, grh.dgid_of, "context"),
	RS_STEP_REF_SGE(S),
	RS_REF_END
};

static int recv_check(struct rs_obj *obj, struct rs_diag *d)
{
	S *s = obj->data;
	struct rs_step_grh *g = &s->grh;
	int r = rs_step_one_of(obj, d, "qp", "srq");

	if (!r && rs_step_check_vary(obj, d, &(struct rs_vary_check){
			.v = &s->vary, .n = s->count, .offset = s->offset,
			.length = s->length }))
		r = -EINVAL;

	if (!r && g->sgid && g->sgid_of) {
		rs_obj_error(d, obj, "grh.sgid_of", "exclusive with 'sgid'");
		r = -EINVAL;
	}
	if (!r && g->dgid && g->dgid_of) {
		rs_obj_error(d, obj, "grh.dgid_of", "exclusive with 'dgid'");
		r = -EINVAL;
	}
	if (!r && rs_obj_has(obj, "grh") && !g->sgid && !g->dgid &&
	    !g->sgid_of && !g->dgid_of) {
		rs_obj_error(d, obj, "grh", "give sgid, dgid, sgid_of or "
			     "dgid_of");
		r = -EINVAL;
	}
	if (!r && g->sgid && parse_gid(g->sgid, g->sgid_raw)) {
		rs_obj_error(d, obj, "grh.sgid", "'%s' is not a GID", g->sgid);
		r = -EINVAL;
	}
	if (!r && g->dgid && parse_gid(g->dgid, g->dgid_raw)) {
		rs_obj_error(d, obj, "grh.dgid", "'%s' is not a GID", g->dgid);
		r = -EINVAL;
	}
	return r;
}

const struct rdmascn_kind rs_step_kind_recv = {
	.name = "recv",
	.section = "recv",
	.summary = "post receives to a QP or an SRQ",
	.fields = recv_fields,
	.size = sizeof(S),
	.id_offset = offsetof(S, common.id),
	.refs = recv_refs,
	.step = true,
	.check = recv_check,
	.step_ops = &rs_step_ops_recv,
	.figures = RDMASCN_NO_FIGURES,
};
#undef S
