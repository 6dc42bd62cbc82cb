// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>

#include <infiniband/verbs.h>

#include "kinds.h"
#include "live.h"
#include "model.h"

static const cyaml_strval_t srq_type_names[] = {
	{ "basic", IBV_SRQT_BASIC }, { "xrc", IBV_SRQT_XRC },
	{ "tm", IBV_SRQT_TM },
};

static const cyaml_schema_field_t srq_fields[] = {
	RS_FIELD_ID(struct rs_srq),
	RS_FIELD_AFTER(struct rs_srq),
	RS_FIELD_REF("pd", struct rs_srq, pd),
	RS_FIELD_ENUM("type", struct rs_srq, type, srq_type_names),
	RS_FIELD_REQ_UINT("max_wr", struct rs_srq, max_wr),
	RS_FIELD_UINT("max_sge", struct rs_srq, max_sge),
	RS_FIELD_UINT("srq_limit", struct rs_srq, srq_limit),
	RS_FIELD_OPT_REF("xrcd", struct rs_srq, xrcd),
	RS_FIELD_OPT_REF("cq", struct rs_srq, cq),
	RS_FIELD_UINT("max_num_tags", struct rs_srq, max_num_tags),
	RS_FIELD_UINT("max_ops", struct rs_srq, max_ops),
	CYAML_FIELD_END
};

static const struct rdmascn_ref srq_refs[] = {
	RS_REF_ONE("pd", struct rs_srq, pd, "pd", "parent_domain"),
	RS_REF_ONE("xrcd", struct rs_srq, xrcd, "xrcd"),
	RS_REF_ONE("cq", struct rs_srq, cq, "cq"),
	RS_REF_AFTER(struct rs_srq),
	RS_REF_END
};

static int srq_check(struct rs_obj *obj, struct rs_diag *d)
{
	const struct rs_srq *s = obj->data;
	int ret = 0;

	if (!s->max_wr) {
		rs_obj_error(d, obj, "max_wr", "must be at least 1");
		ret = -EINVAL;
	}
	if (s->srq_limit && s->srq_limit >= s->max_wr) {
		rs_obj_error(d, obj, "srq_limit",
			     "must be below 'max_wr'");
		ret = -EINVAL;
	}
	switch (s->type) {
	case IBV_SRQT_XRC:
		if (!s->xrcd || !s->cq) {
			rs_obj_error(d, obj, s->xrcd ? "cq" : "xrcd",
				     "required for an xrc srq");
			ret = -EINVAL;
		}
		break;
	case IBV_SRQT_TM:
		if (!s->cq) {
			rs_obj_error(d, obj, "cq", "required for a tm srq");
			ret = -EINVAL;
		}
		if (!s->max_num_tags) {
			rs_obj_error(d, obj, "max_num_tags",
				     "required for a tm srq");
			ret = -EINVAL;
		}
		break;
	default:
		if (s->xrcd) {
			rs_obj_error(d, obj, "xrcd",
				     "only for 'type: xrc'");
			ret = -EINVAL;
		}
		if (s->cq) {
			rs_obj_error(d, obj, "cq",
				     "only for 'type: xrc' or 'tm'");
			ret = -EINVAL;
		}
		break;
	}
	if (s->type != IBV_SRQT_TM)
		for (int i = 0; i < 2; i++) {
			const char *k = i ? "max_ops" : "max_num_tags";

			if (rs_obj_has(obj, k)) {
				rs_obj_error(d, obj, k,
					     "only for 'type: tm'");
				ret = -EINVAL;
			}
		}
	return ret;
}

const struct rdmascn_kind rs_kind_srq = {
	.name = "srq",
	.section = "srqs",
	.summary = "a shared receive queue: basic, xrc or tag matching",
	.fields = srq_fields,
	.size = sizeof(struct rs_srq),
	.id_offset = offsetof(struct rs_srq, id),
	.refs = srq_refs,
	.check = srq_check,
	.ops = &rs_ops_srq,
};
