/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_JSONSCHEMA_H
#define RDMASCN_JSONSCHEMA_H

#include "value.h"

/*
 * The scenario language as a JSON Schema (draft 2020-12), built from the
 * libcyaml tables of the registered kinds (rs_registry_schema()), in
 * registration order.  For editors and linters: what libcyaml checks, plus
 * `${param}` accepted wherever a number or a name is, since params are
 * substituted before libcyaml reads the file.  What kind checks add
 * (exclusive fields, ranges narrower than the C type) is not in it.
 * Returns NULL on allocation failure; free with rs_val_free().
 */
struct rs_val *rs_jsonschema(void);

/* The JSON Schema (draft-07, as schemas/rdmascn-run.schema.json) of a
 * step's `figures` in the run record, from the figure table (figures.h).
 * NULL on allocation failure. */
struct rs_val *rs_figures_jsonschema(void);

#endif
