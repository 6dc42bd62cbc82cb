// SPDX-License-Identifier: MIT
#include <stddef.h>

#include "kinds.h"
#include "live.h"

static const cyaml_schema_field_t pd_fields[] = {
	RS_FIELD_ID(struct rs_pd),
	RS_FIELD_AFTER(struct rs_pd),
	RS_FIELD_REF("context", struct rs_pd, context),
	CYAML_FIELD_END
};

static const struct rdmascn_ref pd_refs[] = {
	RS_REF("context", struct rs_pd, context, "context"),
	RS_REF_AFTER(struct rs_pd),
	RS_REF_END
};

const struct rdmascn_kind rs_kind_pd = {
	.name = "pd",
	.section = "pds",
	.summary = "a protection domain (ibv_alloc_pd)",
	.fields = pd_fields,
	.size = sizeof(struct rs_pd),
	.id_offset = offsetof(struct rs_pd, id),
	.refs = pd_refs,
	.ops = &rs_ops_pd,
};
