// SPDX-License-Identifier: MIT
/*
 * The core list of step kinds, apart from the helpers in steps.c: this
 * names every step type's kind, and the schema files call those helpers,
 * so the two in one file would make them call each other in a circle.
 */
#include <stddef.h>

#include "step_types.h"

#define RS_STEP_TYPE_KIND(name) &rs_step_kind_##name,
const struct rdmascn_kind *const rs_core_steps[RS_STEP_TYPE_COUNT + 1] = {
	RS_STEP_TYPE_MAP(RS_STEP_TYPE_KIND)
	NULL,
};
#undef RS_STEP_TYPE_KIND
