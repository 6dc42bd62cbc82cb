// SPDX-License-Identifier: MIT
/*
 * The plugin ABI: the mlx5 plugin loads from the plugin directory,
 * registers itself from its constructor under the versioned symbol, and
 * exports nothing of its own.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include "check.h"
#include "list.h"
#include "plugin.h"

/* The build tree's plugin directory (tests/CMakeLists.txt). */
static const char dir[] = RDMASCN_TEST_PLUGIN_DIR;

TEST(plugin, load_unload)
{
	const struct rdmascn_plugin *p;
	char path[PATH_MAX];
	void *h;

	setenv("RDMASCN_PLUGIN_DIR", dir, 1);
	rs_plugins_load(true);
	CHECK_UINT(rs_plugins_count(), 1);
	p = rs_plugin_at(0);
	CHECK_STR(p->name, "mlx5");
	CHECK(p->describe_device != NULL);
	CHECK_PTR(rs_plugin_at(1), NULL);

	snprintf(path, sizeof(path), "%s/mlx5.so", dir);
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	CHECK(h);
	CHECK_PTR(dlsym(h, "mlx5_plugin_init"), NULL);
	CHECK_PTR(dlsym(h, "describe_device"), NULL);
	dlclose(h);

	rs_plugins_unload();
	CHECK_UINT(rs_plugins_count(), 0);
	/* Loading again registers again: unload really unloaded. */
	rs_plugins_load(true);
	CHECK_UINT(rs_plugins_count(), 1);
	rs_plugins_unload();
}
