/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PLUGIN_H_PUBLIC
#define RDMASCN_PLUGIN_H_PUBLIC

#include <stdint.h>

/*
 * The plugin ABI.  A plugin is a shared object in the plugin directory;
 * rdmascn dlopen()s it and the plugin's constructor calls the registration
 * function below.  The ABI version is part of that symbol's name, so a
 * plugin built for another ABI fails to load with an undefined symbol
 * instead of misreading a structure.  A plugin exports nothing itself.
 *
 * Bump RDMASCN_PLUGIN_ABI, and the symbol's name with it, whenever the
 * layout of struct rdmascn_plugin, struct rdmascn_feature or of what
 * rdmascn/kind.h declares changes.
 */

struct ibv_context;
struct rs_val;
struct rdmascn_kind;

#define RDMASCN_PLUGIN_ABI 5

/* A device feature a plugin can tell: a word of `requires: {features:}`. */
struct rdmascn_feature {
	/* "devx".  A word the core already knows (mlx5dv, devx) is that
	 * feature; a new one is a word of requires.features for as long as
	 * the plugin is loaded. */
	const char *name;
	/* What decides it, named when a scenario is skipped for lack of it:
	 * "mlx5dv_open_device(MLX5DV_CONTEXT_FLAGS_DEVX)".  May be NULL. */
	const char *source;
};

/* Features one plugin can tell: bit i of a mask is features[i]. */
#define RDMASCN_PLUGIN_FEATURES_MAX 64

struct rdmascn_plugin {
	const char *name;
	const char *version;
	/* Add what the plugin knows of an open device to its description
	 * (the object printed by `rdmascn devices`).  May be NULL. */
	void (*describe_device)(struct ibv_context *ctx, struct rs_val *dev);
	/* Object kinds and step types the plugin adds, NULL-terminated. */
	const struct rdmascn_kind *const *kinds;
	/* The device features the plugin can tell, ending with { NULL }. */
	const struct rdmascn_feature *features;
	/* Which of @features the device behind @ctx has, when a context
	 * probes its device and for `rdmascn devices`: bit i of *ret_have
	 * for features[i].  0, or -errno (then the device has none of
	 * them).  May be NULL when @features is. */
	int (*device_features)(struct ibv_context *ctx, uint64_t *ret_have);
};

void rdmascn_register_plugin_v5(const struct rdmascn_plugin *plugin);

#endif
