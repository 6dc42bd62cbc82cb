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
#include "plugin.h"

int main(int argc, char **argv)
{
	const struct rdmascn_plugin *p;
	char path[PATH_MAX];
	void *h;

	CHECK(argc == 2);
	setenv("RDMASCN_PLUGIN_DIR", argv[1], 1);
	rs_plugins_load(true);
	CHECK(rs_plugins_count() == 1);
	p = rs_plugin_at(0);
	CHECK_STR(p->name, "mlx5");
	CHECK(p->describe_device != NULL);
	CHECK(rs_plugin_at(1) == NULL);

	snprintf(path, sizeof(path), "%s/mlx5.so", argv[1]);
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	CHECK(h);
	CHECK(dlsym(h, "mlx5_plugin_init") == NULL);
	CHECK(dlsym(h, "describe_device") == NULL);
	dlclose(h);

	rs_plugins_unload();
	CHECK(rs_plugins_count() == 0);
	/* Loading again registers again: unload really unloaded. */
	rs_plugins_load(true);
	CHECK(rs_plugins_count() == 1);
	rs_plugins_unload();
	return 0;
}
