/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MLX5_RES_H
#define RDMASCN_MLX5_RES_H

#include <stdbool.h>
#include <stdint.h>

#include "mlx5.h"
#include "prm.h"

/*
 * What DevX commands take from the device's other objects: a UAR's,
 * a VAR's page, a UMEM's id, a packet pacing entry's index.  Each of
 * those kinds keeps this first in its rt, so that a devx `set:` item
 * (`{field: cq_context.uar_page, uar: u}`) reads it by reference, and
 * the reference orders teardown: the command's object goes first.
 */
struct mlx5_res_rt {
	uint64_t value;          /* page_id, umem_id, index */
	bool made;               /* value is the device's */
};

/* A resource a devx set: item can name, by its key there. */
struct mlx5_res_kind {
	const char *key;         /* "uar": the set: item's key */
	const char *kind;        /* "mlx5_uar" */
	const char *out;         /* "page_id": named in a dry run */
	uint32_t width;          /* bits of the value */
};

extern const struct mlx5_res_kind mlx5_res_kinds[];
extern const unsigned mlx5_n_res_kinds;

/*
 * Named fields of a PRM structure (`{field: rate_limit, value: 5}`,
 * a match's `{field: outer_headers.ethertype, value: 0x86dd}`): what
 * the file gives, checked against the layout at validate time, set
 * into bytes at run time.
 */
struct mlx5_field {
	char *field;
	char *value;             /* decimal or 0x hex; wider: hex bytes */
	char *mask;              /* a matcher's criteria: NULL: all ones */
};

#define MLX5_FIELD_LIST(key, s, m)                                        \
	CYAML_FIELD_SEQUENCE(key, CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL, \
			     s, m, &mlx5_field_schema, 0, CYAML_UNLIMITED)
extern const cyaml_schema_value_t mlx5_field_schema;

/* Each item's field is a leaf of @l and its value (or mask, @masks)
 * fits it; errors at "@key[i].field" / ".value": 0 or -EINVAL. */
int mlx5_fields_check(struct rdmascn_obj *obj, struct rdmascn_diag *d,
		      const char *key, const struct prm_layout *l,
		      const struct mlx5_field *f, unsigned n, bool masks);
/* ", did you mean 'cq_context.log_cq_size'?" for @path, which @l does
 * not have: the nearest field of the layout where it goes astray, or "".
 * Its length. */
size_t mlx5_field_near(const struct prm_layout *l, const char *path,
		       char *buf, size_t len);
/* The items as prm_val (@masks: the mask, all ones when none), the
 * wide values' bytes in @wide (64 bytes an item): for prm_encode_struct. */
void mlx5_fields_vals(const struct mlx5_field *f, unsigned n, bool masks,
		      const struct prm_layout *l, struct prm_val *vals,
		      uint8_t (*wide)[64]);

#endif
