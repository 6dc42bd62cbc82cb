// SPDX-License-Identifier: MIT
/*
 * Start-up: the CLI puts the core kinds and steps into the registry, then
 * the plugins' kinds.  The loader below it only reads the registry.
 */
#include <errno.h>
#include <stdio.h>

#include "cli.h"
#include "kinds.h"
#include "plugin.h"
#include "registry.h"
#include "steps.h"

void rs_cli_plugins_load(bool all)
{
	static bool said;
	const char *text;
	bool always;

	rs_plugins_load();
	if (said)
		return;
	said = true;
	for (unsigned i = 0; (text = rs_plugins_problem(i, &always)); i++)
		if (always || all)
			fprintf(stderr, "rdmascn: %s\n", text);
}

/* A kind the registry refuses is named with why: its name or section
 * taken (by the core or a plugin loaded before), too many references,
 * or the registry full. */
static void plugin_kind_add(unsigned i, const struct rdmascn_kind *k)
{
	int ret = rs_registry_add(k);

	if (ret == -EEXIST)
		fprintf(stderr, "rdmascn: plugin %s: kind '%s' (section '%s') "
			"clashes with a registered one; not loaded\n",
			rs_plugin_path(i), k->name, k->section);
	else if (ret == -E2BIG)
		fprintf(stderr, "rdmascn: plugin %s: kind '%s' (section '%s') "
			"not loaded: a kind has at most %d references\n",
			rs_plugin_path(i), k->name, k->section,
			RS_EDGE_STEPS - 1);
	else if (ret < 0)
		fprintf(stderr, "rdmascn: plugin %s: kind '%s' (section '%s') "
			"not loaded: the registry holds at most %d kinds, "
			"%d of them step types\n", rs_plugin_path(i), k->name,
			k->section, RS_MAX_KINDS, RS_MAX_STEP_TYPES);
}

void rs_cli_registry_init(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	for (const struct rdmascn_kind *const *k = rs_core_objects; *k; k++)
		rs_registry_add(*k);
	for (const struct rdmascn_kind *const *k = rs_core_steps; *k; k++)
		rs_registry_add(*k);
	rs_cli_plugins_load(rs_verbose);
	for (unsigned i = 0; i < rs_plugins_count(); i++) {
		const struct rdmascn_plugin *p = rs_plugin_at(i);

		for (const struct rdmascn_kind *const *k = p->kinds; k && *k; k++)
			plugin_kind_add(i, *k);
	}
}
