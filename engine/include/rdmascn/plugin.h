/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PLUGIN_H_PUBLIC
#define RDMASCN_PLUGIN_H_PUBLIC

/*
 * The plugin ABI.  A plugin is a shared object in the plugin directory;
 * rdmascn dlopen()s it and the plugin's constructor calls the registration
 * function below.  The ABI version is part of that symbol's name, so a
 * plugin built for another ABI fails to load with an undefined symbol
 * instead of misreading a structure.  A plugin exports nothing itself.
 */

struct ibv_context;
struct rs_val;
struct rdmascn_kind;

#define RDMASCN_PLUGIN_ABI 1

struct rdmascn_plugin {
	const char *name;
	const char *version;
	/* Add what the plugin knows of an open device to its description
	 * (the object printed by `rdmascn devices`).  May be NULL. */
	void (*describe_device)(struct ibv_context *ctx, struct rs_val *dev);
	/* Object kinds and step types the plugin adds, NULL-terminated. */
	const struct rdmascn_kind *const *kinds;
};

void rdmascn_register_plugin_v1(const struct rdmascn_plugin *plugin);

#endif
