// SPDX-License-Identifier: MIT
#include <stddef.h>

#include <infiniband/verbs.h>

#include "kinds.h"
#include "live.h"

static const cyaml_strval_t mw_type_names[] = {
	{ "1", IBV_MW_TYPE_1 }, { "2", IBV_MW_TYPE_2 },
};

static const cyaml_schema_field_t mw_fields[] = {
	RS_FIELD_ID(struct rs_mw),
	RS_FIELD_AFTER(struct rs_mw),
	RS_FIELD_REF("pd", struct rs_mw, pd),
	RS_FIELD_REQ_ENUM("type", struct rs_mw, type, mw_type_names),
	CYAML_FIELD_END
};

static const struct rdmascn_ref mw_refs[] = {
	RS_REF("pd", struct rs_mw, pd, "pd"),
	RS_REF_AFTER(struct rs_mw),
	RS_REF_END
};

const struct rdmascn_kind rs_kind_mw = {
	.name = "mw",
	.section = "mws",
	.summary = "a memory window of type 1 or 2 (ibv_alloc_mw)",
	.fields = mw_fields,
	.size = sizeof(struct rs_mw),
	.id_offset = offsetof(struct rs_mw, id),
	.refs = mw_refs,
	.ops = &rs_ops_mw,
};
