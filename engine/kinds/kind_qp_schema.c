// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>

#include <infiniband/verbs.h>

#include "caps.h"
#include "kinds.h"
#include "live.h"
#include "model.h"

static const cyaml_strval_t qp_send_op_names[] = {
	RS_SEND_OP_MAP(RS_SEND_OP_STRVAL)
};

static const cyaml_schema_field_t qp_cap_fields[] = {
	RS_FIELD_UINT("max_send_wr", struct rs_qp_cap, max_send_wr),
	RS_FIELD_UINT("max_recv_wr", struct rs_qp_cap, max_recv_wr),
	RS_FIELD_UINT("max_send_sge", struct rs_qp_cap, max_send_sge),
	RS_FIELD_UINT("max_recv_sge", struct rs_qp_cap, max_recv_sge),
	RS_FIELD_UINT("max_inline_data", struct rs_qp_cap, max_inline_data),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t qp_fields[] = {
	RS_FIELD_ID(struct rs_qp),
	RS_FIELD_AFTER(struct rs_qp),
	RS_FIELD_OPT_REF("pd", struct rs_qp, pd),
	RS_FIELD_REQ_ENUM("type", struct rs_qp, type, rs_qp_type_names),
	RS_FIELD_OPT_REF("send_cq", struct rs_qp, send_cq),
	RS_FIELD_OPT_REF("recv_cq", struct rs_qp, recv_cq),
	RS_FIELD_OPT_REF("srq", struct rs_qp, srq),
	RS_FIELD_OPT_REF("xrcd", struct rs_qp, xrcd),
	RS_FIELD_MAP("cap", struct rs_qp, cap, qp_cap_fields),
	RS_FIELD_BOOL("sq_sig_all", struct rs_qp, sq_sig_all),
	RS_FIELD_BOOL("ex", struct rs_qp, ex),
	RS_FIELD_FLAGS("send_ops", struct rs_qp, send_ops, qp_send_op_names),
	RS_FIELD_UINT("port", struct rs_qp, port),
	RS_FIELD_UINT("pkey_index", struct rs_qp, pkey_index),
	RS_FIELD_UINT("qkey", struct rs_qp, qkey),
	CYAML_FIELD_END
};

static const struct rdmascn_ref qp_refs[] = {
	RS_REF_ONE("pd", struct rs_qp, pd, "pd", "parent_domain"),
	RS_REF_ONE("send_cq", struct rs_qp, send_cq, "cq"),
	RS_REF_ONE("recv_cq", struct rs_qp, recv_cq, "cq"),
	RS_REF_ONE("srq", struct rs_qp, srq, "srq"),
	RS_REF_ONE("xrcd", struct rs_qp, xrcd, "xrcd"),
	RS_REF_AFTER(struct rs_qp),
	RS_REF_END
};

/* "an rc qp", "a ud qp", "an xrc_send qp" */
static const char *qp_article(int type)
{
	return type == RS_QPT_RC || type == RS_QPT_XRC_SEND ||
	       type == RS_QPT_XRC_RECV ? "an" : "a";
}

/* Fields a type must not have: error on each one given. */
static int qp_refuse(struct rs_obj *obj, struct rs_diag *d,
		     const char *const *keys, size_t n)
{
	const struct rs_qp *q = obj->data;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		if (rs_obj_has(obj, keys[i])) {
			rs_obj_error(d, obj, keys[i],
				     "not for %s %s qp", qp_article(q->type),
				     rs_qp_type_name(q->type));
			ret = -EINVAL;
		}
	return ret;
}

#define QP_REFUSE(obj, d, ...)                                            \
	qp_refuse(obj, d, (const char *const[]){ __VA_ARGS__ },           \
		  sizeof((const char *const[]){ __VA_ARGS__ }) /          \
			  sizeof(const char *))

static int qp_check(struct rs_obj *obj, struct rs_diag *d)
{
	const struct rs_qp *q = obj->data;
	const char *t = rs_qp_type_name(q->type), *an = qp_article(q->type);
	int ret = 0;

	if (q->send_ops && !q->ex) {
		rs_obj_error(d, obj, "send_ops", "needs 'ex: true'");
		ret = -EINVAL;
	}
	if (q->type == RS_QPT_XRC_RECV) {
		if (!q->xrcd) {
			rs_obj_error(d, obj, "type",
				     "an xrc_recv qp needs 'xrcd'");
			ret = -EINVAL;
		}
		if (QP_REFUSE(obj, d, "pd", "send_cq", "recv_cq", "srq",
			      "cap.max_send_wr", "cap.max_recv_wr"))
			ret = -EINVAL;
		return ret;
	}
	if (!q->pd) {
		rs_obj_error(d, obj, "pd", "required for %s %s qp", an, t);
		ret = -EINVAL;
	}
	if (!q->send_cq) {
		rs_obj_error(d, obj, "send_cq", "required for %s %s qp", an,
			     t);
		ret = -EINVAL;
	}
	if (q->xrcd) {
		rs_obj_error(d, obj, "xrcd",
			     "only for xrc_recv qps");
		ret = -EINVAL;
	}
	if (q->type == RS_QPT_XRC_SEND &&
	    QP_REFUSE(obj, d, "recv_cq", "srq", "cap.max_recv_wr",
		      "cap.max_recv_sge"))
		ret = -EINVAL;
	if (q->type != RS_QPT_UD && rs_obj_has(obj, "qkey")) {
		rs_obj_error(d, obj, "qkey", "only for ud qps");
		ret = -EINVAL;
	}
	return ret;
}

const struct rdmascn_kind rs_kind_qp = {
	.name = "qp",
	.section = "qps",
	.summary = "a queue pair of any verbs type (ibv_create_qp[_ex])",
	.fields = qp_fields,
	.size = sizeof(struct rs_qp),
	.id_offset = offsetof(struct rs_qp, id),
	.refs = qp_refs,
	.check = qp_check,
	.ops = &rs_ops_qp,
};
