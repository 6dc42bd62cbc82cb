/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PATHS_H
#define RDMASCN_PATHS_H

#include <stddef.h>

/*
 * Where the binary finds its plugins and helpers.  The build tree mirrors
 * the install tree (bin/, lib.../rdmascn/plugins, libexec/rdmascn), so the
 * same lookup relative to /proc/self/exe works in both; the environment
 * (RDMASCN_PLUGIN_DIR, RDMASCN_HELPER_DIR) overrides.
 */
int rs_path_self(char *buf, size_t len);
int rs_path_plugindir(char *buf, size_t len);
/* RDMASCN_EXTRA_PLUGIN_DIR, where the tests keep their plugin: -ENOENT
 * when unset. */
int rs_path_extra_plugindir(char *buf, size_t len);
int rs_path_helper(const char *name, char *buf, size_t len);

#endif
