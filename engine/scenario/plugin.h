/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PLUGIN_H
#define RDMASCN_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "rdmascn/plugin.h"

/* Load every plugin in the plugin directory, then in the extra one
 * (once).  A plugin that fails to load is reported when @verbose and
 * otherwise skipped.  The features plugins name become words of
 * requires.features; unloading takes them away again. */
void rs_plugins_load(bool verbose);
void rs_plugins_unload(void);
unsigned rs_plugins_count(void);
const struct rdmascn_plugin *rs_plugin_at(unsigned i);
/* The file plugin @i registered from. */
const char *rs_plugin_path(unsigned i);

void rs_plugins_describe_device(struct ibv_context *ctx, struct rs_val *dev);
/* The requires.features bits the plugins find on an open device. */
uint32_t rs_plugins_device_features(struct ibv_context *ctx);

#endif
