// SPDX-License-Identifier: MIT
/*
 * The tests' plugin, loaded only from RDMASCN_EXTRA_PLUGIN_DIR: it claims
 * the feature test_fake on every device, and adds an object kind
 * (`fake_tags:`, nothing to create) so that a plugin's kind shows in the
 * schema and in `rdmascn plugins`.  Built against the public headers
 * alone, as any plugin is.
 */
#include <stddef.h>
#include <stdint.h>

#include "rdmascn/kind.h"
#include "rdmascn/plugin.h"

struct fake_tag {
	char *id;
	char *note;
};

static const cyaml_schema_field_t fake_tag_fields[] = {
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER, struct fake_tag, id,
			       1, RDMASCN_ID_MAX),
	CYAML_FIELD_STRING_PTR("note", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			       struct fake_tag, note, 0, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const struct rdmascn_kind fake_tag_kind = {
	.name = "fake_tag",
	.section = "fake_tags",
	.summary = "a note with an id; the tests' plugin creates nothing",
	.fields = fake_tag_fields,
	.size = sizeof(struct fake_tag),
	.id_offset = offsetof(struct fake_tag, id),
};

static const struct rdmascn_kind *const fake_kinds[] = {
	&fake_tag_kind,
	NULL
};

static const struct rdmascn_feature fake_features[] = {
	{ "test_fake", "the fake plugin (every device)" },
	{ NULL }
};

static int device_features(struct ibv_context *ctx, uint64_t *ret_have)
{
	*ret_have = 1;
	return 0;
}

static const struct rdmascn_plugin fake_plugin = {
	.name = "fake",
	.version = "0.1",
	.kinds = fake_kinds,
	.features = fake_features,
	.device_features = device_features,
};

RDMASCN_PLUGIN(fake_plugin)
