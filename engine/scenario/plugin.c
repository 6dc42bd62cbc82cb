// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "caps.h"
#include "model.h"
#include "paths.h"
#include "plugin.h"
#include "suggest.h"

#define MAX_PLUGINS 16
#define MAX_PROBLEMS 32

struct loaded {
	const struct rdmascn_plugin *p;
	char *path;              /* the file it registered from */
	/* Its features[i] as a requires.features bit; -1: none. */
	int8_t bit[RDMASCN_PLUGIN_FEATURES_MAX];
	unsigned n_features;
};

/* What went wrong, for the caller to say (rs_plugins_problem()). */
struct problem {
	char *text;
	bool always;
};

static struct loaded plugins[MAX_PLUGINS];
static unsigned n_plugins;
static void *handles[MAX_PLUGINS];
static unsigned n_handles;
static struct problem problems[MAX_PROBLEMS];
static unsigned n_problems;
static bool loaded;

__attribute__((format(printf, 2, 3)))
static void problem(bool always, const char *fmt, ...)
{
	char buf[PATH_MAX + 256];
	va_list ap;
	char *text;

	if (n_problems == MAX_PROBLEMS)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	text = rs_strdup(buf);
	if (text)
		problems[n_problems++] = (struct problem){ text, always };
}

/* The one registration function, its ABI in its name (rdmascn/plugin.h:
 * rdmascn_register_plugin_vN); called from the plugin's constructor,
 * during load_dir()'s dlopen(). */
__attribute__((visibility("default")))
void rdmascn_register_plugin(const struct rdmascn_plugin *plugin)
{
	if (n_plugins == MAX_PLUGINS) {
		problem(true, "too many plugins, ignoring '%s'", plugin->name);
		return;
	}
	plugins[n_plugins++] = (struct loaded){ .p = plugin };
}

/* A plugin's feature words become words of requires.features. */
static void add_features(struct loaded *l)
{
	const struct rdmascn_feature *f = l->p->features;

	for (; f && f->name; f++) {
		int bit;

		if (l->n_features == RDMASCN_PLUGIN_FEATURES_MAX) {
			problem(true, "plugin %s: more than %u features, "
				"ignoring '%s' and after", l->p->name,
				RDMASCN_PLUGIN_FEATURES_MAX, f->name);
			break;
		}
		bit = rs_feature_add(f->name, f->source);
		if (bit < 0)
			problem(true, "plugin %s: no room for feature '%s'",
				l->p->name, f->name);
		l->bit[l->n_features++] = (int8_t)(bit < 0 ? -1 : bit);
	}
}

/* The core steps its kinds extend. */
static void add_wr_rules(const struct loaded *l)
{
	for (const struct rdmascn_wr_dest *const *d = l->p->wr_dests;
	     d && *d; d++)
		if (rs_wr_dest_add(*d))
			problem(true, "plugin %s: ignoring a send destination "
				"rule for kind '%s'", l->p->name,
				(*d)->kind ? (*d)->kind : "?");
	for (const struct rdmascn_wr_reg *const *r = l->p->wr_regs;
	     r && *r; r++)
		if (rs_wr_reg_add(*r))
			problem(true, "plugin %s: ignoring a registration WR "
				"for kind '%s'", l->p->name,
				(*r)->kind ? (*r)->kind : "?");
}

static int so_filter(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return len > 3 && !strcmp(d->d_name + len - 3, ".so");
}

/* Whether the file at @path may be dlopen()ed: a regular file (dlopen()
 * of a FIFO waits for a writer, forever, in every command; a device or
 * a directory is no plugin either) that registers for this ABI, if it
 * registers at all.  Its constructor never runs otherwise. */
static bool loadable(const char *path)
{
	unsigned abi;
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		problem(false, "plugin %s: not a regular file, not loaded",
			path);
		return false;
	}
	if (rs_plugin_file_abi(path, &abi) == 0 && abi != RDMASCN_PLUGIN_ABI) {
		problem(false, "plugin %s: built for plugin ABI %u, this "
			"rdmascn loads ABI %u; not loaded", path, abi,
			RDMASCN_PLUGIN_ABI);
		return false;
	}
	return true;
}

static void load_dir(const char *dir)
{
	struct dirent **ents;
	int n;

	/* Sorted, so the registration order never depends on the disk. */
	n = scandir(dir, &ents, so_filter, alphasort);
	if (n < 0)
		return;
	for (int i = 0; i < n; i++) {
		unsigned before = n_plugins;
		char path[PATH_MAX];
		void *h;

		int len = snprintf(path, sizeof(path), "%s/%s", dir,
				   ents[i]->d_name);

		free(ents[i]);
		if (len >= (int)sizeof(path) || n_handles == MAX_PLUGINS ||
		    !loadable(path))
			continue;
		h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			problem(false, "plugin %s: %s", path, dlerror());
			continue;
		}
		handles[n_handles++] = h;
		if (n_plugins == before)
			problem(false, "plugin %s: registered nothing", path);
		for (unsigned p = before; p < n_plugins; p++) {
			plugins[p].path = strdup(path);
			add_features(&plugins[p]);
			add_wr_rules(&plugins[p]);
		}
	}
	free(ents);
}

void rs_plugins_load(void)
{
	char dir[PATH_MAX];

	if (loaded)
		return;
	loaded = true;
	if (rs_path_plugindir(dir, sizeof(dir)) == 0)
		load_dir(dir);
	if (rs_path_extra_plugindir(dir, sizeof(dir)) == 0)
		load_dir(dir);
}

const char *rs_plugins_problem(unsigned i, bool *ret_always)
{
	if (i >= n_problems)
		return NULL;
	*ret_always = problems[i].always;
	return problems[i].text;
}

void rs_plugins_unload(void)
{
	/* The feature words are the plugins' strings. */
	rs_features_drop_added();
	while (n_handles)
		dlclose(handles[--n_handles]);
	while (n_plugins)
		free(plugins[--n_plugins].path);
	while (n_problems)
		rs_free(problems[--n_problems].text);
	loaded = false;
}

unsigned rs_plugins_count(void)
{
	return n_plugins;
}

const struct rdmascn_plugin *rs_plugin_at(unsigned i)
{
	return i < n_plugins ? plugins[i].p : NULL;
}

const char *rs_plugin_path(unsigned i)
{
	return i < n_plugins && plugins[i].path ? plugins[i].path : "?";
}

void rs_plugins_describe_device(struct ibv_context *ctx, struct rs_val *dev)
{
	for (unsigned i = 0; i < n_plugins; i++)
		if (plugins[i].p->describe_device)
			plugins[i].p->describe_device(ctx, dev);
}

uint32_t rs_plugins_device_features(struct ibv_context *ctx)
{
	uint32_t bits = 0;

	for (unsigned i = 0; i < n_plugins; i++) {
		const struct loaded *l = &plugins[i];
		uint64_t have = 0;

		if (!l->p->device_features || !l->n_features ||
		    l->p->device_features(ctx, &have) < 0)
			continue;
		for (unsigned f = 0; f < l->n_features; f++)
			if (have & 1ull << f && l->bit[f] >= 0)
				bits |= 1u << l->bit[f];
	}
	return bits;
}

uint32_t rs_ctx_features(struct ibv_context *ctx,
			 const struct ibv_device_attr_ex *ax)
{
	return rs_dev_features(ax) | rs_plugins_device_features(ctx);
}

/* A plugin kind's check(): its data, and errors at its fields. */
__attribute__((visibility("default")))
void *rdmascn_obj_data(const struct rs_obj *obj)
{
	return obj->data;
}

__attribute__((visibility("default")))
size_t rdmascn_did_you_mean(const char *word,
			    const char *(*name_at)(void *arg, unsigned i,
						   char *tmp, size_t tmp_len),
			    void *arg, char *buf, size_t len)
{
	char tmp[RS_SUGGEST_NAME];
	struct rs_suggest sg;
	const char *name;

	rs_suggest_init(&sg, word);
	for (unsigned i = 0; (name = name_at(arg, i, tmp, sizeof(tmp))); i++)
		rs_suggest_add(&sg, name);
	return rs_suggest_fmt(&sg, false, buf, len);
}

__attribute__((visibility("default")))
void rdmascn_obj_error(struct rs_diag *d, const struct rs_obj *obj,
		       const char *path, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rs_obj_error(d, obj, path, "%s", msg);
}

static const struct rs_obj *ref_obj(const struct rs_obj *obj,
				    const char *id)
{
	for (unsigned i = 0; id && i < obj->n_edges; i++)
		if (obj->edges[i].to->id && !strcmp(obj->edges[i].to->id, id))
			return obj->edges[i].to;
	return NULL;
}

__attribute__((visibility("default")))
const struct rdmascn_kind *rdmascn_obj_kind(const struct rs_obj *obj)
{
	return obj->kind;
}

__attribute__((visibility("default")))
const struct rs_obj *rdmascn_obj_ref_ref(const struct rs_obj *obj,
					 const char *id, const char *field)
{
	const struct rs_obj *t = ref_obj(obj, id);

	for (unsigned i = 0; t && field && i < t->n_edges; i++)
		if (!t->edges[i].order_only &&
		    !strcmp(rs_edge_field(t, &t->edges[i]), field))
			return t->edges[i].to;
	return NULL;
}

/* A field of the kind's own table, read by its schema: no kind named. */
__attribute__((visibility("default")))
int rdmascn_obj_ref_uint(const struct rs_obj *obj, const char *id,
			 const char *field, uint64_t *ret)
{
	const struct rs_obj *t = ref_obj(obj, id);
	int64_t v;

	if (!t || !field || !rs_obj_field_int(t, field, &v))
		return -ENOENT;
	*ret = (uint64_t)v;
	return 0;
}

__attribute__((visibility("default")))
void *rdmascn_obj_ref_data(const struct rs_obj *obj, const char *id)
{
	for (unsigned i = 0; id && i < obj->n_edges; i++)
		if (obj->edges[i].to->id && !strcmp(obj->edges[i].to->id, id))
			return obj->edges[i].to->data;
	return NULL;
}
