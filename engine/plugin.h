/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PLUGIN_H
#define RDMASCN_PLUGIN_H

#include <stdbool.h>

#include "rdmascn/plugin.h"

/* Load every plugin in the plugin directory (once).  A plugin that fails
 * to load is reported when @verbose and otherwise skipped. */
void rs_plugins_load(bool verbose);
void rs_plugins_unload(void);
unsigned rs_plugins_count(void);
const struct rdmascn_plugin *rs_plugin_at(unsigned i);

void rs_plugins_describe_device(struct ibv_context *ctx, struct rs_val *dev);

#endif
