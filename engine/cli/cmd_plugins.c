// SPDX-License-Identifier: MIT
/* rdmascn plugins: what is loaded, from where, and what each adds. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <string.h>

#include "cli.h"
#include "model.h"
#include "paths.h"
#include "plugin.h"
#include "registry.h"
#include "value.h"

/* The core steps a kind's objects change: a QP kind that addresses each
 * send WR (rdmascn_register_wr_dest), a kind that a WR of its own
 * registers (rdmascn_register_wr_reg). */
static void describe_extends(const struct rdmascn_kind *k, struct rs_val *ext)
{
	const struct rdmascn_wr_dest *wd = rs_wr_dest_find(k->name);
	const struct rdmascn_wr_reg *wr = rs_wr_reg_find(k->name);
	struct rs_val *v;

	if (wd) {
		v = rs_val_push_obj(ext);
		rs_val_put_str(v, "steps", "send write read");
		rs_val_put_str(v, "section", k->section);
		rs_val_put_str(v, "fields", "dct ah");
	}
	if (wr) {
		v = rs_val_push_obj(ext);
		rs_val_put_str(v, "steps", "register_layout");
		rs_val_put_str(v, "section", k->section);
		rs_val_put_str(v, "fields", "mkey");
	}
}

static void describe_plugin(unsigned i, struct rs_val *list)
{
	const struct rdmascn_plugin *p = rs_plugin_at(i);
	struct rs_val *o = rs_val_push_obj(list);
	struct rs_val *kinds, *steps, *ext, *feats;

	rs_val_put_str(o, "name", p->name);
	rs_val_put_str(o, "version", p->version ? p->version : "");
	rs_val_put_str(o, "path", rs_plugin_path(i));
	kinds = rs_val_put_arr(o, "kinds");
	steps = rs_val_put_arr(o, "steps");
	ext = rs_val_put_arr(o, "extends");
	feats = rs_val_put_arr(o, "features");
	for (const struct rdmascn_kind *const *k = p->kinds; k && *k; k++) {
		struct rs_val *v = rs_val_push_obj((*k)->step ? steps : kinds);

		rs_val_put_str(v, "name", (*k)->name);
		rs_val_put_str(v, "section", (*k)->section);
		if ((*k)->summary)
			rs_val_put_str(v, "summary", (*k)->summary);
		if (!(*k)->step)
			describe_extends(*k, ext);
	}
	for (const struct rdmascn_feature *f = p->features; f && f->name; f++) {
		struct rs_val *v = rs_val_push_obj(feats);

		rs_val_put_str(v, "name", f->name);
		if (f->source)
			rs_val_put_str(v, "source", f->source);
	}
}

/* "  kinds: fake_tags", the words a scenario writes; nothing if none. */
static void print_words(FILE *f, const struct rs_val *plugin,
			const char *what, const char *key)
{
	const struct rs_val *list = rs_val_get(plugin, what);

	if (!list || !rs_val_len(list))
		return;
	fprintf(f, "  %s:", what);
	for (size_t i = 0; i < rs_val_len(list); i++)
		fprintf(f, " %s", rs_val_get_str(rs_val_at(list, i), key));
	fputc('\n', f);
}

/* "  extends: send write read (dct: ah:) on mlx5_qps; ..." */
static void print_extends(FILE *f, const struct rs_val *plugin)
{
	const struct rs_val *list = rs_val_get(plugin, "extends");

	if (!list || !rs_val_len(list))
		return;
	fputs("  extends:", f);
	for (size_t i = 0; i < rs_val_len(list); i++) {
		const struct rs_val *e = rs_val_at(list, i);
		char fields[64], *w, *save = NULL;

		snprintf(fields, sizeof(fields), "%s",
			 rs_val_get_str(e, "fields"));
		fprintf(f, "%s %s (", i ? ";" : "", rs_val_get_str(e, "steps"));
		for (w = strtok_r(fields, " ", &save); w;
		     w = strtok_r(NULL, " ", &save))
			fprintf(f, "%s%s:", w == fields ? "" : " ", w);
		fprintf(f, ") with %s", rs_val_get_str(e, "section"));
	}
	fputc('\n', f);
}

static void print_plugins(FILE *f, const struct rs_val *list)
{
	char dir[PATH_MAX];

	for (size_t i = 0; i < rs_val_len(list); i++) {
		const struct rs_val *p = rs_val_at(list, i);

		fprintf(f, "%s %s %s\n", rs_val_get_str(p, "name"),
			rs_val_get_str(p, "version"),
			rs_val_get_str(p, "path"));
		print_words(f, p, "kinds", "section");
		print_words(f, p, "steps", "section");
		print_extends(f, p);
		print_words(f, p, "features", "name");
	}
	if (rs_val_len(list))
		return;
	fputs("No plugins", f);
	if (rs_path_plugindir(dir, sizeof(dir)) == 0)
		fprintf(f, " in %s", dir);
	if (rs_path_extra_plugindir(dir, sizeof(dir)) == 0)
		fprintf(f, " or %s", dir);
	fputs(".\n", f);
}

int rs_cmd_plugins(const struct rs_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct rs_val *list;
	bool json = false;
	int c, r;

	while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			rs_cmd_usage(cmd, stdout);
			return RS_EXIT_PASSED;
		default:
			return rs_cmd_bad_option(cmd, argv, c);
		}
	}
	if (optind < argc)
		return rs_cmd_usage_error(cmd, "Unexpected argument '%s'.",
					  argv[optind]);

	/* A plugin that does not load is what this command is asked
	 * about: say why on stderr, -v or not.  Registering the kinds
	 * says which clash with others. */
	rs_cli_plugins_load(true);
	rs_cli_registry_init();
	list = rs_val_arr();
	for (unsigned i = 0; list && i < rs_plugins_count(); i++)
		describe_plugin(i, list);
	r = list ? rs_val_check(list) : -ENOMEM;
	if (r == 0 && json)
		r = rs_val_write_json(stdout, list, true);
	else if (r == 0)
		print_plugins(stdout, list);
	rs_val_free(list);
	if (r < 0) {
		fprintf(stderr, "rdmascn: plugins: %s\n", strerror(-r));
		return RS_EXIT_CANTRUN;
	}
	return RS_EXIT_PASSED;
}
