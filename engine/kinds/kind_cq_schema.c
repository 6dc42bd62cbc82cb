// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>

#include <infiniband/verbs.h>

#include "kinds.h"
#include "live.h"
#include "model.h"


static const cyaml_strval_t cq_mode_names[] = {
	{ "events", RS_CQ_MODE_EVENTS }, { "busy", RS_CQ_MODE_BUSY },
};

static const cyaml_schema_field_t cq_fields[] = {
	RS_FIELD_ID(struct rs_cq),
	RS_FIELD_AFTER(struct rs_cq),
	RS_FIELD_REF("context", struct rs_cq, context),
	RS_FIELD_REQ_UINT("cqe", struct rs_cq, cqe),
	RS_FIELD_BOOL("channel", struct rs_cq, channel),
	RS_FIELD_UINT("comp_vector", struct rs_cq, comp_vector),
	RS_FIELD_BOOL("ex", struct rs_cq, ex),
	RS_FIELD_FLAGS("wc_flags", struct rs_cq, wc_flags, rs_cq_wc_flag_names),
	RS_FIELD_BOOL("single_threaded", struct rs_cq, single_threaded),
	RS_FIELD_BOOL("ignore_overrun", struct rs_cq, ignore_overrun),
	RS_FIELD_ENUM("mode", struct rs_cq, mode, cq_mode_names),
	RS_FIELD_OPT_REF("parent_domain", struct rs_cq, parent_domain),
	CYAML_FIELD_END
};

static const struct rdmascn_ref cq_refs[] = {
	RS_REF("context", struct rs_cq, context, "context"),
	RS_REF("parent_domain", struct rs_cq, parent_domain, "parent_domain"),
	RS_REF_AFTER(struct rs_cq),
	RS_REF_END
};

static int cq_check(struct rs_obj *obj, struct rs_diag *d)
{
	const struct rs_cq *c = obj->data;
	static const char *const ex_only[] = {
		"wc_flags", "single_threaded", "ignore_overrun",
		"parent_domain",
	};
	int ret = 0;

	if (!c->cqe) {
		rs_obj_error(d, obj, "cqe", "must be at least 1");
		ret = -EINVAL;
	}
	for (size_t i = 0; !c->ex && i < CYAML_ARRAY_LEN(ex_only); i++)
		if (rs_obj_has(obj, ex_only[i])) {
			rs_obj_error(d, obj, ex_only[i],
				     "needs 'ex: true'");
			ret = -EINVAL;
		}
	if (c->mode == RS_CQ_MODE_EVENTS && !c->channel) {
		rs_obj_error(d, obj, "mode",
			     "'events' needs 'channel: true'");
		ret = -EINVAL;
	}
	return ret;
}

const struct rdmascn_kind rs_kind_cq = {
	.name = "cq",
	.section = "cqs",
	.summary = "a completion queue, polled busy or woken by events",
	.fields = cq_fields,
	.size = sizeof(struct rs_cq),
	.id_offset = offsetof(struct rs_cq, id),
	.refs = cq_refs,
	.check = cq_check,
	.ops = &rs_ops_cq,
};
