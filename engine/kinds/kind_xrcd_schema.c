// SPDX-License-Identifier: MIT
#include <stddef.h>

#include "kinds.h"
#include "live.h"

static const cyaml_schema_field_t xrcd_fields[] = {
	RS_FIELD_ID(struct rs_xrcd),
	RS_FIELD_AFTER(struct rs_xrcd),
	RS_FIELD_REF("context", struct rs_xrcd, context),
	RS_FIELD_STR("fd_path", struct rs_xrcd, fd_path),
	CYAML_FIELD_END
};

static const struct rdmascn_ref xrcd_refs[] = {
	RS_REF("context", struct rs_xrcd, context, "context"),
	RS_REF_AFTER(struct rs_xrcd),
	RS_REF_END
};

const struct rdmascn_kind rs_kind_xrcd = {
	.name = "xrcd",
	.section = "xrcds",
	.summary = "an XRC domain (ibv_open_xrcd), shared through fd_path",
	.fields = xrcd_fields,
	.size = sizeof(struct rs_xrcd),
	.id_offset = offsetof(struct rs_xrcd, id),
	.refs = xrcd_refs,
	.ops = &rs_ops_xrcd,
};
