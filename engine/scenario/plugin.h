/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PLUGIN_H
#define RDMASCN_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "public_names.h"
#include "rdmascn/plugin.h"

struct ibv_device_attr_ex;

/* Load every plugin in the plugin directory, then in the extra one
 * (once).  A plugin that fails to load is skipped, and said by
 * rs_plugins_problem().  The features plugins name become words of
 * requires.features; unloading takes them away again. */
void rs_plugins_load(void);
void rs_plugins_unload(void);
unsigned rs_plugins_count(void);
const struct rdmascn_plugin *rs_plugin_at(unsigned i);
/* What went wrong loading them, the i-th, as "plugin PATH: why"; NULL
 * after the last.  *@ret_always: worth saying without -v (a plugin that
 * loaded but could not register all it has), else a file that did not
 * load (said by `rdmascn plugins` and -v). */
const char *rs_plugins_problem(unsigned i, bool *ret_always);
/* The ABI a plugin file registers for (the N of the
 * rdmascn_register_plugin_vN it calls), read from the file without
 * loading it: 0; -ENOENT: it registers none; -ENOEXEC: not a shared
 * object of this machine; -errno. */
int rs_plugin_file_abi(const char *path, unsigned *ret_abi);
/* The file plugin @i registered from. */
const char *rs_plugin_path(unsigned i);

void rs_plugins_describe_device(struct ibv_context *ctx, struct rs_val *dev);
/* The requires.features bits the plugins find on an open device. */
uint32_t rs_plugins_device_features(struct ibv_context *ctx);
/* rs_dev_features() and what the loaded plugins find on the open
 * device: what `requires:` is checked against and `devices` lists.
 * Here, not in caps.h, so that caps.c does not call into the plugins
 * that call it. */
uint32_t rs_ctx_features(struct ibv_context *ctx,
			 const struct ibv_device_attr_ex *ax);

#endif
