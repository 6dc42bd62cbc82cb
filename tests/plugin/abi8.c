// SPDX-License-Identifier: MIT
/*
 * A plugin built by a newer rdmascn, for an ABI after this one: refused
 * as an older one is, both ABIs named, its constructor never run.
 */
struct rdmascn_plugin_abi8;

void rdmascn_register_plugin_v8(const struct rdmascn_plugin_abi8 *plugin);

__attribute__((constructor))
static void abi8_plugin_init(void)
{
	rdmascn_register_plugin_v8((const struct rdmascn_plugin_abi8 *)0);
}
