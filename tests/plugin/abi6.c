// SPDX-License-Identifier: MIT
/*
 * A plugin as it was built against the ABI 6 headers, with its own copy
 * of what they declared: its constructor calls the ABI 6 registration
 * function.  An engine of another ABI must refuse it, naming both ABIs,
 * without running that constructor.
 */
#include <stddef.h>
#include <stdint.h>

struct rdmascn_plugin_abi6 {
	const char *name;
	const char *version;
	void (*describe_device)(void *ctx, void *dev);
	const void *const *kinds;
	const void *features;
	int (*device_features)(void *ctx, uint64_t *ret_have);
};

void rdmascn_register_plugin_v6(const struct rdmascn_plugin_abi6 *plugin);
void rs_val_put_str(void *obj, const char *key, const char *s);

static void describe_device(void *ctx, void *dev)
{
	(void)ctx;
	rs_val_put_str(dev, "abi6", "yes");
}

static const struct rdmascn_plugin_abi6 abi6_plugin = {
	.name = "abi6",
	.version = "6",
	.describe_device = describe_device,
};

__attribute__((constructor))
static void abi6_plugin_init(void)
{
	rdmascn_register_plugin_v6(&abi6_plugin);
}
