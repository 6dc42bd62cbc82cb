/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_FILL_H
#define RDMASCN_FILL_H

#include <cyaml/cyaml.h>

#include "dom.h"

/*
 * The structs libcyaml would load from the file, filled from the located
 * DOM instead, by reading the same schema tables (libcyaml 1.3.1's
 * semantics: mappings, sequences, ints, uints, bools, enums, flags,
 * floats, strings, pointers, optional and required fields, ignored
 * fields).  The file is parsed once, not twice.
 *
 * What it fills lives in @doc's arena, and strings are the DOM's own
 * scalar texts: free @doc, never cyaml_free() them.  Anything libcyaml
 * would refuse, or that this does not interpret (bitfields, fixed
 * sequences, case-insensitive names), is -EAGAIN: the caller then loads
 * with libcyaml, whose error the messages are made from.  Whatever was
 * allocated before stays in the arena until @doc is freed.
 *
 * Returns 0 and the top struct in *@ret, -EAGAIN, or -ENOMEM.
 */
int rs_fill(struct rs_doc *doc, const struct rs_node *root,
	    const cyaml_schema_value_t *schema, void **ret);

/*
 * An integer as the language writes it (int_scalars.c): NULL when @v is
 * decimal without a leading zero or 0x hex, else why not ("" when it is
 * no number at all).  rs_fill() refuses (-EAGAIN) an integer field that
 * fails it, or a negative one for an unsigned field, so that a file it
 * fills needs no rs_int_scalars_check() walk: only one it refused does.
 */
const char *rs_int_syntax(const char *v);

#endif
