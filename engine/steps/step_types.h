/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_STEP_TYPES_H
#define RDMASCN_STEP_TYPES_H

#include "public_names.h"
#include "rdmascn/kind.h"

/*
 * The core step types, one line each, in the order the registry, `rdmascn
 * schema` and the docs list them.  Step type NAME is the kind
 * rs_step_kind_NAME (its schema and checks, steps/step_NAME_schema.c) and
 * the ops rs_step_ops_NAME (what it does on a device, steps/step_NAME.c).
 * A new step type is its pair of files, a line here and its docs.
 */
#define RS_STEP_TYPE_MAP(X)                                               \
	X(send)                                                           \
	X(recv)                                                           \
	X(write)                                                          \
	X(read)                                                           \
	X(atomic)                                                         \
	X(ud_send)                                                        \
	X(bind_mw)                                                        \
	X(invalidate)                                                     \
	X(register_layout)                                                \
	X(pingpong)                                                       \
	X(stream)                                                         \
	X(verify)                                                         \
	X(parallel)                                                       \
	X(sleep)                                                          \
	X(modify_qp)                                                      \
	X(impair)                                                         \
	X(link)

#define RS_STEP_TYPE_ENUM(name) RS_STEP_TYPE_##name,
enum rs_step_type { RS_STEP_TYPE_MAP(RS_STEP_TYPE_ENUM) RS_STEP_TYPE_COUNT };
#undef RS_STEP_TYPE_ENUM

#define RS_STEP_TYPE_DECL(name)                                           \
	extern const struct rdmascn_kind rs_step_kind_##name;             \
	extern const struct rdmascn_step_ops rs_step_ops_##name;
RS_STEP_TYPE_MAP(RS_STEP_TYPE_DECL)
#undef RS_STEP_TYPE_DECL

/* The core step types, in the list's order, NULL-terminated. */
extern const struct rdmascn_kind *const rs_core_steps[RS_STEP_TYPE_COUNT + 1];

#endif
