// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "kinds.h"
#include "live.h"
#include "model.h"

static const cyaml_schema_field_t context_fields[] = {
	RS_FIELD_ID(struct rs_context),
	RS_FIELD_AFTER(struct rs_context),
	RS_FIELD_STR("device", struct rs_context, device),
	RS_FIELD_UINT("index", struct rs_context, index),
	RS_FIELD_OPT_REF("import", struct rs_context, import),
	RS_FIELD_UINT("port", struct rs_context, port),
	RS_FIELD_UINT("gid_index", struct rs_context, gid_index),
	RS_FIELD_BOOL("async_events", struct rs_context, async_events),
	CYAML_FIELD_END
};

static const struct rdmascn_ref context_refs[] = {
	RS_REF("import", struct rs_context, import, "context"),
	RS_REF_AFTER(struct rs_context),
	RS_REF_END
};

static int context_check(struct rs_obj *obj, struct rs_diag *d)
{
	struct rs_context *c = obj->data;

	c->gid_index_given = rs_obj_has(obj, "gid_index");
	c->index_given = rs_obj_has(obj, "index");
	if (c->device && (!*c->device || !strcmp(c->device, "netdev:"))) {
		rs_obj_error(d, obj, "device", "names no device");
		return -EINVAL;
	}
	if (c->index_given && c->device) {
		rs_obj_error(d, obj, "index", "and 'device' both name the "
			     "device; give one");
		return -EINVAL;
	}
	/* An import is its original's device, port and GID. */
	if (c->import) {
		static const char *const own[] = {
			"device", "index", "port", "gid_index",
		};

		for (unsigned i = 0; i < RS_N(own); i++)
			if (rs_obj_has(obj, own[i])) {
				rs_obj_error(d, obj, own[i], "an imported "
					     "context has its original's; "
					     "remove it");
				return -EINVAL;
			}
	}
	return 0;
}

const struct rdmascn_kind rs_kind_context = {
	.name = "context",
	.section = "contexts",
	.summary = "an opened RDMA device and the port it uses",
	.fields = context_fields,
	.size = sizeof(struct rs_context),
	.id_offset = offsetof(struct rs_context, id),
	.refs = context_refs,
	.check = context_check,
	.ops = &rs_ops_context,
};
