// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "plugin.h"

#define MAX_PLUGINS 16

static const struct rdmascn_plugin *plugins[MAX_PLUGINS];
static unsigned n_plugins;
static void *handles[MAX_PLUGINS];
static unsigned n_handles;
static bool loaded;

__attribute__((visibility("default")))
void rdmascn_register_plugin_v1(const struct rdmascn_plugin *plugin)
{
	if (n_plugins == MAX_PLUGINS) {
		fprintf(stderr, "rdmascn: too many plugins, ignoring '%s'\n",
			plugin->name);
		return;
	}
	plugins[n_plugins++] = plugin;
}

static int so_filter(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return len > 3 && !strcmp(d->d_name + len - 3, ".so");
}

void rs_plugins_load(bool verbose)
{
	struct dirent **ents;
	char dir[PATH_MAX];
	int n;

	if (loaded)
		return;
	loaded = true;
	if (rs_path_plugindir(dir, sizeof(dir)) < 0)
		return;
	/* Sorted, so the registration order never depends on the disk. */
	n = scandir(dir, &ents, so_filter, alphasort);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];
		void *h;

		int len = snprintf(path, sizeof(path), "%s/%s", dir,
				   ents[i]->d_name);

		free(ents[i]);
		if (len >= (int)sizeof(path) || n_handles == MAX_PLUGINS)
			continue;
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			if (verbose)
				fprintf(stderr, "rdmascn: plugin %s: %s\n",
					path, dlerror());
			continue;
		}
		handles[n_handles++] = h;
	}
	free(ents);
}

void rs_plugins_unload(void)
{
	while (n_handles)
		dlclose(handles[--n_handles]);
	n_plugins = 0;
	loaded = false;
}

unsigned rs_plugins_count(void)
{
	return n_plugins;
}

const struct rdmascn_plugin *rs_plugin_at(unsigned i)
{
	return i < n_plugins ? plugins[i] : NULL;
}

void rs_plugins_describe_device(struct ibv_context *ctx, struct rs_val *dev)
{
	for (unsigned i = 0; i < n_plugins; i++)
		if (plugins[i]->describe_device)
			plugins[i]->describe_device(ctx, dev);
}
