// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "kinds.h"
#include "live.h"
#include "model.h"

static const cyaml_schema_field_t pd_fields[] = {
	RS_FIELD_ID(struct rs_pd),
	RS_FIELD_AFTER(struct rs_pd),
	RS_FIELD_REF("context", struct rs_pd, context),
	RS_FIELD_OPT_REF("import", struct rs_pd, import),
	CYAML_FIELD_END
};

static const struct rdmascn_ref pd_refs[] = {
	RS_REF("context", struct rs_pd, context, "context"),
	RS_REF("import", struct rs_pd, import, "pd"),
	RS_REF_AFTER(struct rs_pd),
	RS_REF_END
};

/* A pd's handle means something only to the cmd_fd it was made on: an
 * import goes into a context imported from the original's. */
static int pd_check(struct rs_obj *obj, struct rs_diag *d)
{
	const struct rs_pd *p = obj->data;
	const struct rs_obj *orig, *ctx;
	const char *from = NULL, *orig_ctx;

	if (!p->import)
		return 0;
	orig = rs_obj_ref(obj, "import");
	ctx = rs_obj_ref(obj, "context");
	if (ctx && rs_obj_field_str(ctx, "import", &from)) {
		rs_obj_error(d, obj, "context", "'%s' is of kind %s: a pd "
			     "is imported into a context of the contexts "
			     "section (one with 'import:')", p->context,
			     ctx->kind->name);
		return -EINVAL;
	}
	orig_ctx = orig ? ((const struct rs_pd *)orig->data)->context : NULL;
	if (orig_ctx && ctx && (!from || strcmp(from, orig_ctx))) {
		rs_obj_error(d, obj, "context", "'%s' is not an import of "
			     "context '%s', where pd '%s' is (give a context "
			     "with 'import: %s')", p->context, orig_ctx,
			     p->import, orig_ctx);
		return -EINVAL;
	}
	return 0;
}

const struct rdmascn_kind rs_kind_pd = {
	.name = "pd",
	.section = "pds",
	.summary = "a protection domain (ibv_alloc_pd, or ibv_import_pd)",
	.fields = pd_fields,
	.size = sizeof(struct rs_pd),
	.id_offset = offsetof(struct rs_pd, id),
	.refs = pd_refs,
	.check = pd_check,
	.ops = &rs_ops_pd,
};
