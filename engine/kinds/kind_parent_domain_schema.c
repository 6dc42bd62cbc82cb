// SPDX-License-Identifier: MIT
#include <stddef.h>

#include "kinds.h"
#include "live.h"

static const cyaml_strval_t pd_alloc_names[] = {
	{ "counted", RS_PD_ALLOC_COUNTED }, { "engine", RS_PD_ALLOC_ENGINE },
};

static const cyaml_schema_field_t parent_domain_fields[] = {
	RS_FIELD_ID(struct rs_parent_domain),
	RS_FIELD_AFTER(struct rs_parent_domain),
	RS_FIELD_REF("pd", struct rs_parent_domain, pd),
	RS_FIELD_BOOL("td", struct rs_parent_domain, td),
	RS_FIELD_ENUM("alloc", struct rs_parent_domain, alloc, pd_alloc_names),
	CYAML_FIELD_END
};

static const struct rdmascn_ref parent_domain_refs[] = {
	RS_REF("pd", struct rs_parent_domain, pd, "pd"),
	RS_REF_AFTER(struct rs_parent_domain),
	RS_REF_END
};

const struct rdmascn_kind rs_kind_parent_domain = {
	.name = "parent_domain",
	.section = "parent_domains",
	.summary = "a parent domain over a pd, with an optional thread domain",
	.fields = parent_domain_fields,
	.size = sizeof(struct rs_parent_domain),
	.id_offset = offsetof(struct rs_parent_domain, id),
	.refs = parent_domain_refs,
	.ops = &rs_ops_parent_domain,
};
