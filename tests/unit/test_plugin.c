// SPDX-License-Identifier: MIT
/*
 * The plugin ABI: the mlx5 plugin loads from the plugin directory,
 * registers itself from its constructor under the versioned symbol, and
 * exports nothing of its own.  The tests' plugin, from the extra
 * directory, adds a word to requires.features (the mlx5 plugin's words
 * are the core's own), claims it on a device, and takes it away again
 * when unloaded.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "caps.h"
#include "check.h"
#include "list.h"
#include "plugin.h"
#include "schema.h"

/* The build tree's plugin directory and the tests' own plugin's
 * (tests/CMakeLists.txt). */
static const char dir[] = RDMASCN_TEST_PLUGIN_DIR;
static const char fake_dir[] = RDMASCN_TEST_FAKE_PLUGIN_DIR;
/* Plugins built for ABI 1, 6 and 8. */
static const char abi1_dir[] = RDMASCN_TEST_ABI1_PLUGIN_DIR;

TEST(plugin, load_unload)
{
	const struct rdmascn_plugin *p;
	char path[PATH_MAX];
	void *h;

	setenv("RDMASCN_PLUGIN_DIR", dir, 1);
	unsetenv("RDMASCN_EXTRA_PLUGIN_DIR");
	rs_plugins_load();
	CHECK_UINT(rs_plugins_count(), 1);
	p = rs_plugin_at(0);
	CHECK_STR(p->name, "mlx5");
	CHECK(p->describe_device != NULL);
	CHECK(p->device_features != NULL);
	CHECK_PTR(rs_plugin_at(1), NULL);
	snprintf(path, sizeof(path), "%s/mlx5.so", dir);
	CHECK_STR(rs_plugin_path(0), path);
	/* mlx5dv and devx are the core's words: nothing added. */
	CHECK_UINT(rs_feature_count(), RS_FEAT_COUNT);
	CHECK_INT(rs_feature_find("mlx5dv"), RS_FEAT_MLX5DV);
	CHECK_INT(rs_feature_find("devx"), RS_FEAT_DEVX);
	CHECK_INT(rs_feature_find("test_fake"), -ENOENT);

	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	CHECK(h);
	CHECK_PTR(dlsym(h, "rdmascn_plugin_register_"), NULL);
	CHECK_PTR(dlsym(h, "describe_device"), NULL);
	CHECK_PTR(dlsym(h, "device_features"), NULL);
	dlclose(h);

	rs_plugins_unload();
	CHECK_UINT(rs_plugins_count(), 0);
	/* Loading again registers again: unload really unloaded. */
	rs_plugins_load();
	CHECK_UINT(rs_plugins_count(), 1);
	rs_plugins_unload();

	/* The extra directory loads after the plugin directory. */
	setenv("RDMASCN_EXTRA_PLUGIN_DIR", fake_dir, 1);
	rs_plugins_load();
	CHECK_UINT(rs_plugins_count(), 2);
	CHECK_STR(rs_plugin_at(0)->name, "mlx5");
	CHECK_STR(rs_plugin_at(1)->name, "fake");
	snprintf(path, sizeof(path), "%s/fake.so", fake_dir);
	CHECK_STR(rs_plugin_path(1), path);
	CHECK_UINT(rs_feature_count(), RS_FEAT_COUNT + 1);
	CHECK_INT(rs_feature_find("test_fake"), RS_FEAT_COUNT);
	CHECK_STR(rs_feature_name(RS_FEAT_COUNT), "test_fake");
	CHECK_STR(rs_feature_source(RS_FEAT_COUNT),
		  "the fake plugin (every device)");
	rs_plugins_unload();
	CHECK_INT(rs_feature_find("test_fake"), -ENOENT);
	CHECK_UINT(rs_feature_count(), RS_FEAT_COUNT);

	/* Its claim, alone (mlx5's op needs a real device). */
	setenv("RDMASCN_PLUGIN_DIR", fake_dir, 1);
	unsetenv("RDMASCN_EXTRA_PLUGIN_DIR");
	rs_plugins_load();
	CHECK_UINT(rs_plugins_count(), 1);
	CHECK_UINT(rs_plugins_device_features(NULL), 1u << RS_FEAT_COUNT);
	rs_plugins_unload();
}

/* The ABI a file registers for, read without loading it. */
TEST(plugin, file_abi)
{
	char path[PATH_MAX];
	unsigned abi = 0;

	snprintf(path, sizeof(path), "%s/mlx5.so", dir);
	CHECK_INT(rs_plugin_file_abi(path, &abi), 0);
	CHECK_UINT(abi, RDMASCN_PLUGIN_ABI);
	snprintf(path, sizeof(path), "%s/fake.so", fake_dir);
	abi = 0;
	CHECK_INT(rs_plugin_file_abi(path, &abi), 0);
	CHECK_UINT(abi, RDMASCN_PLUGIN_ABI);
	snprintf(path, sizeof(path), "%s/abi6.so", abi1_dir);
	CHECK_INT(rs_plugin_file_abi(path, &abi), 0);
	CHECK_UINT(abi, 6);
	snprintf(path, sizeof(path), "%s/abi8.so", abi1_dir);
	CHECK_INT(rs_plugin_file_abi(path, &abi), 0);
	CHECK_UINT(abi, 8);
	snprintf(path, sizeof(path), "%s/abi1.so", abi1_dir);
	CHECK_INT(rs_plugin_file_abi(path, &abi), 0);
	CHECK_UINT(abi, 1);
	/* Not a shared object; an ELF file that registers nothing. */
	snprintf(path, sizeof(path), "%s/engine/rdmascn.dynlist",
		 RDMASCN_TEST_SOURCE_DIR);
	CHECK_INT(rs_plugin_file_abi(path, &abi), -ENOEXEC);
	CHECK_INT(rs_plugin_file_abi("/proc/self/exe", &abi), -ENOENT);
	CHECK_INT(rs_plugin_file_abi("/nonexistent/x.so", &abi), -ENOENT);
	CHECK_UINT(abi, 1);
}

/* Another ABI's plugins are not loaded (their constructors would call a
 * function this engine does not have), and the loader says so to its
 * caller instead of printing. */
TEST(plugin, other_abi_refused)
{
	char want[PATH_MAX + 128];
	const char *text;
	bool always = true;

	setenv("RDMASCN_PLUGIN_DIR", abi1_dir, 1);
	unsetenv("RDMASCN_EXTRA_PLUGIN_DIR");
	rs_plugins_load();
	CHECK_UINT(rs_plugins_count(), 0);
	snprintf(want, sizeof(want), "plugin %s/abi1.so: built for plugin "
		 "ABI 1, this rdmascn loads ABI %u; not loaded", abi1_dir,
		 RDMASCN_PLUGIN_ABI);
	CHECK_STR(rs_plugins_problem(0, &always), want);
	CHECK(!always);
	snprintf(want, sizeof(want), "plugin %s/abi6.so: built for plugin "
		 "ABI 6, this rdmascn loads ABI %u; not loaded", abi1_dir,
		 RDMASCN_PLUGIN_ABI);
	CHECK_STR(rs_plugins_problem(1, &always), want);
	snprintf(want, sizeof(want), "plugin %s/abi8.so: built for plugin "
		 "ABI 8, this rdmascn loads ABI %u; not loaded", abi1_dir,
		 RDMASCN_PLUGIN_ABI);
	CHECK_STR(rs_plugins_problem(2, &always), want);
	text = rs_plugins_problem(3, &always);
	CHECK_PTR(text, NULL);
	rs_plugins_unload();
	CHECK_PTR(rs_plugins_problem(0, &always), NULL);
}
