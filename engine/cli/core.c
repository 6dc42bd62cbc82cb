// SPDX-License-Identifier: MIT
#include "kinds.h"
#include "steps.h"
#include "registry.h"
#include "schema.h"

void rs_schemas_register_core(void)
{
	for (const struct rdmascn_kind *const *k = rs_core_objects; *k; k++)
		rs_registry_add(*k);
	for (const struct rdmascn_kind *const *k = rs_core_steps; *k; k++)
		rs_registry_add(*k);
}
