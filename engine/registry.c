// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "registry.h"
#include "schema.h"

static const struct rdmascn_kind *kinds[RS_MAX_KINDS];
static unsigned n_kinds, n_objects, n_steps;
static bool sealed;

/* Step entries: one optional pointer field per step type. */
static cyaml_schema_field_t step_fields[RS_MAX_KINDS + 1];
const cyaml_schema_value_t rs_step_entry_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct rs_step_entry,
			    step_fields),
};

static cyaml_schema_value_t kind_values[RS_MAX_KINDS];
static cyaml_schema_field_t top_fields[RS_MAX_KINDS + 8];
static const cyaml_schema_value_t top_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct rs_top, top_fields),
};

int rs_registry_add(const struct rdmascn_kind *kind)
{
	if (sealed || n_kinds == RS_MAX_KINDS)
		return -ENOSPC;
	for (unsigned i = 0; i < n_kinds; i++)
		if (kinds[i]->step == kind->step &&
		    (!strcmp(kinds[i]->section, kind->section) ||
		     !strcmp(kinds[i]->name, kind->name)))
			return -EEXIST;
	kinds[n_kinds++] = kind;
	if (kind->step)
		n_steps++;
	else
		n_objects++;
	return 0;
}

unsigned rs_registry_count(void)
{
	return n_kinds;
}

const struct rdmascn_kind *rs_registry_at(unsigned i)
{
	return i < n_kinds ? kinds[i] : NULL;
}

const struct rdmascn_kind *rs_registry_find(const char *key, bool step)
{
	for (unsigned i = 0; i < n_kinds; i++)
		if (kinds[i]->step == step && (!strcmp(kinds[i]->section, key) ||
					       !strcmp(kinds[i]->name, key)))
			return kinds[i];
	return NULL;
}

static const cyaml_schema_field_t requires_fields[] = {
	RS_FIELD_FLAGS("qp_types", struct rs_requires, qp_types, rs_qp_type_bits),
	RS_FIELD_FLAGS("features", struct rs_requires, features, rs_feature_bits),
	RS_FIELD_ENUM("link_layer", struct rs_requires, link_layer,
		      rs_link_layer_names),
	CYAML_FIELD_END
};

const cyaml_schema_value_t *rs_registry_schema(void)
{
	unsigned t = 0, s = 0, k = 0;

	if (sealed)
		return &top_schema;
	sealed = true;
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_STRING_PTR(
		"scenario", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
		struct rs_top, scenario, 1, 128);
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_STRING_PTR(
		"description", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
		struct rs_top, description, 0, CYAML_UNLIMITED);
	/* Dynamic-key maps, which libcyaml cannot type: read from the DOM. */
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_IGNORE(
		"params", CYAML_FLAG_OPTIONAL);
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_IGNORE(
		"matrix", CYAML_FLAG_OPTIONAL);
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_MAPPING_PTR(
		"requires", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
		struct rs_top, requires, requires_fields);

	for (unsigned i = 0; i < n_kinds; i++) {
		const struct rdmascn_kind *kd = kinds[i];

		if (kd->step) {
			step_fields[s] = (cyaml_schema_field_t){
				.key = kd->section,
				.data_offset = offsetof(struct rs_step_entry, types) +
					       s * sizeof(void *),
				.value = {
					.type = CYAML_MAPPING,
					.flags = CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
					.data_size = kd->size,
					.mapping = { .fields = kd->fields },
				},
			};
			s++;
			continue;
		}
		kind_values[k] = (cyaml_schema_value_t){
			.type = CYAML_MAPPING,
			.flags = CYAML_FLAG_DEFAULT,
			.data_size = kd->size,
			.mapping = { .fields = kd->fields },
		};
		top_fields[t++] = (cyaml_schema_field_t){
			.key = kd->section,
			.data_offset = offsetof(struct rs_top, sections) +
				       k * sizeof(((struct rs_top *)0)->sections[0]),
			.count_offset = offsetof(struct rs_top, sections) +
					k * sizeof(((struct rs_top *)0)->sections[0]) +
					offsetof(struct rs_top, sections[0].count) -
					offsetof(struct rs_top, sections[0]),
			.count_size = sizeof(unsigned),
			.value = {
				.type = CYAML_SEQUENCE,
				.flags = CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
				.data_size = kd->size,
				.sequence = {
					.entry = &kind_values[k],
					.min = 0,
					.max = CYAML_UNLIMITED,
				},
			},
		};
		k++;
	}
	step_fields[s] = (cyaml_schema_field_t)CYAML_FIELD_END;
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_SEQUENCE(
		"steps", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct rs_top,
		steps, &rs_step_entry_schema, 0, CYAML_UNLIMITED);
	top_fields[t] = (cyaml_schema_field_t)CYAML_FIELD_END;
	return &top_schema;
}
