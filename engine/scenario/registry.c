// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "caps.h"
#include "registry.h"
#include "schema.h"

/* Object kinds and step types, each in registration order.  The index is
 * also the slot: objects[k] fills rs_top.sections[k], steps[s] fills
 * rs_step_entry.types[s]. */
static const struct rdmascn_kind *objects[RS_MAX_KINDS], *steps[RS_MAX_KINDS];
static unsigned n_objects, n_steps;
static bool sealed;

/* Step entries: one optional pointer field per step type. */
static cyaml_schema_field_t step_fields[RS_MAX_STEP_TYPES + 1];
const cyaml_schema_value_t rs_step_entry_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct rs_step_entry,
			    step_fields),
};

static cyaml_schema_value_t kind_values[RS_MAX_KINDS];

static const cyaml_strval_t expect_create_names[] = {
	{ "fail", RS_EXPECT_FAIL },
};
static const cyaml_schema_field_t expect_fields[] = {
	CYAML_FIELD_ENUM("create", CYAML_FLAG_DEFAULT | CYAML_FLAG_STRICT,
			 struct rs_expect, create, expect_create_names, 1),
	CYAML_FIELD_STRING_PTR("errno", CYAML_FLAG_POINTER |
			       CYAML_FLAG_OPTIONAL, struct rs_expect, err, 1,
			       32),
	CYAML_FIELD_END
};
/* Each object kind's fields and `count:` after them: every entry may be
 * counted, whatever its kind (a plugin's too); the count is stored past
 * the kind's struct (RS_COUNT_AT), so no kind declares it. */
static cyaml_schema_field_t *kind_fields[RS_MAX_KINDS];
static cyaml_schema_field_t top_fields[RS_MAX_KINDS + 12];
static const cyaml_schema_value_t top_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct rs_top, top_fields),
};

int rs_registry_add(const struct rdmascn_kind *kind)
{
	const struct rdmascn_kind **list = kind->step ? steps : objects;
	unsigned *n = kind->step ? &n_steps : &n_objects;

	size_t n_refs = 0;

	if (sealed || n_objects + n_steps == RS_MAX_KINDS ||
	    (kind->step && n_steps == RS_MAX_STEP_TYPES))
		return -ENOSPC;
	/* An edge names its reference by its index in a byte, beside
	 * RS_EDGE_STEPS and RS_EDGE_SEQUENCE. */
	while (kind->refs && kind->refs[n_refs].field)
		n_refs++;
	if (n_refs >= RS_EDGE_STEPS)
		return -E2BIG;
	for (unsigned i = 0; i < *n; i++)
		if (!strcmp(list[i]->section, kind->section) ||
		    !strcmp(list[i]->name, kind->name))
			return -EEXIST;
	list[(*n)++] = kind;
	return 0;
}

unsigned rs_registry_count(bool step)
{
	return step ? n_steps : n_objects;
}

const struct rdmascn_kind *rs_registry_at(bool step, unsigned i)
{
	return i < rs_registry_count(step) ? (step ? steps : objects)[i] : NULL;
}

const struct rdmascn_kind *rs_registry_find(const char *key, bool step)
{
	const struct rdmascn_kind *k;

	for (unsigned i = 0; (k = rs_registry_at(step, i)); i++)
		if (!strcmp(k->section, key) || !strcmp(k->name, key))
			return k;
	return NULL;
}

/* The words of requires.features are the core's and the plugins': the
 * table is filled when the schema is sealed, after plugins loaded. */
static cyaml_strval_t feature_bits[RS_FEATURES_MAX];
static const cyaml_schema_field_t bound_fields[] = {
	CYAML_FIELD_STRING_PTR("fact", CYAML_FLAG_POINTER,
			       struct rs_fact_bound, fact, 1, 128),
	CYAML_FIELD_UINT_PTR("min", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct rs_fact_bound, min),
	CYAML_FIELD_UINT_PTR("max", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct rs_fact_bound, max),
	CYAML_FIELD_STRING_PTR("equals", CYAML_FLAG_POINTER |
			       CYAML_FLAG_OPTIONAL, struct rs_fact_bound,
			       equals, 1, 64),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t bound_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct rs_fact_bound,
			    bound_fields),
};
/* A counter's kernel name, as sysfs has it. */
static const cyaml_schema_value_t counter_name_schema = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, 64),
};

static cyaml_schema_field_t requires_fields[] = {
	RS_FIELD_FLAGS("qp_types", struct rs_requires, qp_types, rs_qp_type_bits),
	CYAML_FIELD_FLAGS("features", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			  struct rs_requires, features, feature_bits, 0),
	RS_FIELD_ENUM("link_layer", struct rs_requires, link_layer,
		      rs_link_layer_names),
	CYAML_FIELD_SEQUENCE("facts", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct rs_requires, facts, &bound_schema, 1,
			     CYAML_UNLIMITED),
	RS_FIELD_FLAGS("uniform", struct rs_requires, uniform,
		       rs_uniform_bits),
	CYAML_FIELD_SEQUENCE("counters", CYAML_FLAG_POINTER |
			     CYAML_FLAG_OPTIONAL, struct rs_requires, counters,
			     &counter_name_schema, 1, CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t node_fields[] = {
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER, struct rs_node_decl,
			       id, 1, RDMASCN_ID_MAX),
	CYAML_FIELD_STRING_PTR("address", CYAML_FLAG_POINTER |
			       CYAML_FLAG_OPTIONAL, struct rs_node_decl,
			       address, 1, 255),
	CYAML_FIELD_STRING_PTR("device", CYAML_FLAG_POINTER |
			       CYAML_FLAG_OPTIONAL, struct rs_node_decl,
			       device, 1, 64),
	CYAML_FIELD_UINT("count", CYAML_FLAG_OPTIONAL, struct rs_node_decl,
			 count),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t node_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct rs_node_decl,
			    node_fields),
};

static const cyaml_schema_field_t pairs_fields[] = {
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER, struct rs_pairs_decl,
			       id, 1, RDMASCN_ID_MAX),
	CYAML_FIELD_STRING_PTR("pattern", CYAML_FLAG_POINTER,
			       struct rs_pairs_decl, pattern, 1, 32),
	CYAML_FIELD_STRING_PTR("of", CYAML_FLAG_POINTER, struct rs_pairs_decl,
			       of, 1, RDMASCN_ID_MAX),
	CYAML_FIELD_UINT("root", CYAML_FLAG_OPTIONAL, struct rs_pairs_decl,
			 root),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t pairs_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct rs_pairs_decl,
			    pairs_fields),
};

static void seal_features(void)
{
	unsigned n = rs_feature_count();

	for (unsigned f = 0; f < n; f++)
		feature_bits[f] = (cyaml_strval_t){ rs_feature_name(f),
						    (int64_t)1 << f };
	requires_fields[1].value.enumeration.count = n;
}

static size_t n_fields(const struct rdmascn_kind *kd)
{
	size_t n = 0;

	while (kd->fields && kd->fields[n].key)
		n++;
	return n;
}

/* Room for every kind's table with the keys with_count() adds: all, or
 * none and -ENOMEM.  (A kind's own table in place of one that could not
 * be had was a file without those keys loaded as if nothing had failed,
 * and one with them refused as unknown.) */
static int alloc_kind_fields(void)
{
	for (unsigned k = 0; k < n_objects; k++) {
		kind_fields[k] = rs_calloc(n_fields(objects[k]) + 5,
					   sizeof(*kind_fields[k]));
		if (kind_fields[k])
			continue;
		while (k-- > 0) {
			rs_free(kind_fields[k]);
			kind_fields[k] = NULL;
		}
		return -ENOMEM;
	}
	return 0;
}

/* @kd's fields, then `count`, `node`, `expect` and `for`, in its table
 * from alloc_kind_fields(). */
static const cyaml_schema_field_t *with_count(unsigned k,
					      const struct rdmascn_kind *kd)
{
	size_t n = n_fields(kd);

	if (n)
		memcpy(kind_fields[k], kd->fields, n * sizeof(*kd->fields));
	kind_fields[k][n] = (cyaml_schema_field_t){
		.key = "count",
		.data_offset = RS_COUNT_AT(kd),
		.value = {
			.type = CYAML_UINT,
			.flags = CYAML_FLAG_OPTIONAL,
			.data_size = sizeof(uint32_t),
		},
	};
	kind_fields[k][n + 1] = (cyaml_schema_field_t){
		.key = "node",
		.data_offset = RS_NODE_AT(kd),
		.value = {
			.type = CYAML_STRING,
			.flags = CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			.data_size = sizeof(char),
			.string = { .min = 1, .max = RDMASCN_ID_MAX },
		},
	};
	kind_fields[k][n + 2] = (cyaml_schema_field_t){
		.key = "expect",
		.data_offset = RS_EXPECT_AT(kd),
		.value = {
			CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER |
					    CYAML_FLAG_OPTIONAL,
					    struct rs_expect, expect_fields),
		},
	};
	kind_fields[k][n + 3] = (cyaml_schema_field_t){
		.key = "for",
		.data_offset = RS_FOR_AT(kd),
		.value = {
			.type = CYAML_STRING,
			.flags = CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			.data_size = sizeof(char),
			.string = { .min = 1, .max = RDMASCN_ID_MAX + 5 },
		},
	};
	return kind_fields[k];
}

const cyaml_schema_value_t *rs_registry_schema(void)
{
	const size_t stride = sizeof(((struct rs_top *)0)->sections[0]);
	unsigned t = 0, s, k;

	if (sealed)
		return &top_schema;
	if (alloc_kind_fields() < 0)
		return NULL;
	sealed = true;
	seal_features();
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
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_IGNORE(
		"explore", CYAML_FLAG_OPTIONAL);
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_IGNORE(
		"deviations", CYAML_FLAG_OPTIONAL);
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_IGNORE(
		"gates", CYAML_FLAG_OPTIONAL);
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_MAPPING_PTR(
		"requires", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
		struct rs_top, requires, requires_fields);
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_SEQUENCE(
		"nodes", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct rs_top,
		nodes, &node_schema, 1, 64);
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_SEQUENCE(
		"pairs", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
		struct rs_top, pairs, &pairs_schema, 1, 64);

	for (s = 0; s < n_steps; s++)
		step_fields[s] = (cyaml_schema_field_t){
			.key = steps[s]->section,
			.data_offset = offsetof(struct rs_step_entry, types) +
				       s * sizeof(void *),
			.value = {
				.type = CYAML_MAPPING,
				.flags = CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
				.data_size = steps[s]->size,
				.mapping = { .fields = steps[s]->fields },
			},
		};
	for (k = 0; k < n_objects; k++) {
		const struct rdmascn_kind *kd = objects[k];

		kind_values[k] = (cyaml_schema_value_t){
			.type = CYAML_MAPPING,
			.flags = CYAML_FLAG_DEFAULT,
			.data_size = RS_ITEM_SIZE(kd),
			.mapping = { .fields = with_count(k, kd) },
		};
		top_fields[t++] = (cyaml_schema_field_t){
			.key = kd->section,
			.data_offset = offsetof(struct rs_top, sections[0].items) +
				       k * stride,
			.count_offset = offsetof(struct rs_top, sections[0].count) +
					k * stride,
			.count_size = sizeof(unsigned),
			.value = {
				.type = CYAML_SEQUENCE,
				.flags = CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
				.data_size = RS_ITEM_SIZE(kd),
				.sequence = {
					.entry = &kind_values[k],
					.min = 0,
					.max = CYAML_UNLIMITED,
				},
			},
		};
	}
	step_fields[s] = (cyaml_schema_field_t)CYAML_FIELD_END;
	top_fields[t++] = (cyaml_schema_field_t)CYAML_FIELD_SEQUENCE(
		"steps", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, struct rs_top,
		steps, &rs_step_entry_schema, 0, CYAML_UNLIMITED);
	top_fields[t] = (cyaml_schema_field_t)CYAML_FIELD_END;
	return &top_schema;
}

/* --- QP kinds whose sends name their destination ------------------------- */

#define MAX_WR_DEST 8
static const struct rdmascn_wr_dest *wr_dests[MAX_WR_DEST];
static unsigned n_wr_dests;

int rs_wr_dest_add(const struct rdmascn_wr_dest *d)
{
	if (!d || !d->kind || !d->needs_dest || !d->is_dest ||
	    !d->set_wr_dest ||
	    n_wr_dests == MAX_WR_DEST)
		return -EINVAL;
	wr_dests[n_wr_dests++] = d;
	return 0;
}

const struct rdmascn_wr_dest *rs_wr_dest_find(const char *kind)
{
	for (unsigned i = 0; kind && i < n_wr_dests; i++)
		if (!strcmp(wr_dests[i]->kind, kind))
			return wr_dests[i];
	return NULL;
}

/* --- kinds whose objects a WR of their own registers ---------------------- */

#define MAX_WR_REG 8
static const struct rdmascn_wr_reg *wr_regs[MAX_WR_REG];
static unsigned n_wr_regs;

int rs_wr_reg_add(const struct rdmascn_wr_reg *r)
{
	if (!r || !r->kind || !r->op || !r->check || !r->build || !r->dry ||
	    n_wr_regs == MAX_WR_REG)
		return -EINVAL;
	wr_regs[n_wr_regs++] = r;
	return 0;
}

const struct rdmascn_wr_reg *rs_wr_reg_find(const char *kind)
{
	for (unsigned i = 0; kind && i < n_wr_regs; i++)
		if (!strcmp(wr_regs[i]->kind, kind))
			return wr_regs[i];
	return NULL;
}
