// SPDX-License-Identifier: MIT
/*
 * A plugin as it was built for ABI 1, with its own copy of that ABI's
 * declarations: an engine of another ABI must refuse to load it (the
 * registration symbol is not there), not misread its structure.
 */
#include <stddef.h>

struct rdmascn_plugin_abi1 {
	const char *name;
	const char *version;
	void (*describe_device)(void *ctx, void *dev);
	const void *const *kinds;
};

void rdmascn_register_plugin_v1(const struct rdmascn_plugin_abi1 *plugin);

static const struct rdmascn_plugin_abi1 abi1_plugin = {
	.name = "abi1",
	.version = "1",
};

__attribute__((constructor))
static void abi1_plugin_init(void)
{
	rdmascn_register_plugin_v1(&abi1_plugin);
}
