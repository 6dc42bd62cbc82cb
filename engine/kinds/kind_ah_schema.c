// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>

#include "kinds.h"
#include "live.h"
#include "model.h"
#include "parse.h"

static const cyaml_schema_field_t ah_fields[] = {
	RS_FIELD_ID(struct rs_ah),
	RS_FIELD_AFTER(struct rs_ah),
	RS_FIELD_REF("pd", struct rs_ah, pd),
	RS_FIELD_OPT_REF("qp", struct rs_ah, qp),
	RS_FIELD_OPT_REF("to", struct rs_ah, to),
	RS_FIELD_STR("dgid", struct rs_ah, dgid),
	RS_FIELD_UINT("gid_index", struct rs_ah, gid_index),
	RS_FIELD_UINT("sl", struct rs_ah, sl),
	RS_FIELD_UINT("port", struct rs_ah, port),
	RS_FIELD_UINT("hop_limit", struct rs_ah, hop_limit),
	RS_FIELD_UINT("traffic_class", struct rs_ah, traffic_class),
	RS_FIELD_UINT("flow_label", struct rs_ah, flow_label),
	RS_FIELD_BOOL("is_global", struct rs_ah, is_global),
	RS_FIELD_UINT("dlid", struct rs_ah, dlid),
	RS_FIELD_UINT("src_path_bits", struct rs_ah, src_path_bits),
	RS_FIELD_ENUM("static_rate", struct rs_ah, static_rate, rs_rate_names),
	RS_FIELD_BOOL("from_wc", struct rs_ah, from_wc),
	CYAML_FIELD_END
};

static const struct rdmascn_ref ah_refs[] = {
	RS_REF("pd", struct rs_ah, pd, "pd", "parent_domain"),
	RS_REF("qp", struct rs_ah, qp, "qp"),
	/* The QP addressed may be on another node: its description comes
	 * from there. */
	RS_REF_SPANS("to", struct rs_ah, to, "qp"),
	RS_REF_AFTER(struct rs_ah),
	RS_REF_END
};

static int ah_check(struct rs_obj *obj, struct rs_diag *d)
{
	struct rs_ah *a = obj->data;
	/* A reply's address is the received completion's and GRH's. */
	static const char *const not_from_wc[] = {
		"qp", "to", "dgid", "gid_index", "sl", "hop_limit",
		"traffic_class", "flow_label", "is_global", "dlid",
		"src_path_bits", "static_rate",
	};
	/* What the QP addressed says of itself is its address. */
	static const char *const not_with_to[] = { "dgid", "dlid" };
	int ret = 0;

	for (size_t i = 0; a->from_wc && i < RS_N(not_from_wc); i++)
		if (rs_obj_has(obj, not_from_wc[i])) {
			rs_obj_error(d, obj, not_from_wc[i], "exclusive with "
				     "'from_wc': the received completion "
				     "gives it");
			return -EINVAL;
		}

	for (size_t i = 0; a->to && i < RS_N(not_with_to); i++)
		if (rs_obj_has(obj, not_with_to[i])) {
			rs_obj_error(d, obj, not_with_to[i], "exclusive with "
				     "'to': qp '%s' gives it", a->to);
			return -EINVAL;
		}
	if (a->dgid && rs_parse_gid(a->dgid, a->dgid_raw)) {
		rs_obj_error(d, obj, "dgid", "'%s' is not a GID", a->dgid);
		ret = -EINVAL;
	}
	if (a->dgid && rs_obj_has(obj, "is_global") && !a->is_global) {
		rs_obj_error(d, obj, "is_global",
			     "must be true with 'dgid'");
		ret = -EINVAL;
	}
	if (a->sl > 15) {
		rs_obj_error(d, obj, "sl", "must be 0 to 15");
		ret = -EINVAL;
	}
	/* The LID's low bits, as many as the port's LMC: at most 7. */
	if (a->src_path_bits > 127) {
		rs_obj_error(d, obj, "src_path_bits", "must be 0 to 127");
		ret = -EINVAL;
	}
	if (a->flow_label > 0xfffff) {
		rs_obj_error(d, obj, "flow_label",
			     "must fit in 20 bits");
		ret = -EINVAL;
	}
	return ret;
}

const struct rdmascn_kind rs_kind_ah = {
	.name = "ah",
	.section = "ahs",
	.summary = "an address handle for ud sends (ibv_create_ah)",
	.fields = ah_fields,
	.size = sizeof(struct rs_ah),
	.id_offset = offsetof(struct rs_ah, id),
	.refs = ah_refs,
	.check = ah_check,
	.ops = &rs_ops_ah,
};
