// SPDX-License-Identifier: MIT
#include <stddef.h>

#include "kinds.h"
#include "live.h"

static const cyaml_schema_field_t dm_fields[] = {
	RS_FIELD_ID(struct rs_dm),
	RS_FIELD_AFTER(struct rs_dm),
	RS_FIELD_REF("context", struct rs_dm, context),
	RS_FIELD_REQ_UINT("length", struct rs_dm, length),
	RS_FIELD_UINT("log_align_req", struct rs_dm, log_align_req),
	CYAML_FIELD_END
};

static const struct rdmascn_ref dm_refs[] = {
	RS_REF("context", struct rs_dm, context, "context"),
	RS_REF_AFTER(struct rs_dm),
	RS_REF_END
};

const struct rdmascn_kind rs_kind_dm = {
	.name = "dm",
	.section = "dms",
	.summary = "device memory (ibv_alloc_dm)",
	.fields = dm_fields,
	.size = sizeof(struct rs_dm),
	.id_offset = offsetof(struct rs_dm, id),
	.refs = dm_refs,
	.ops = &rs_ops_dm,
};
