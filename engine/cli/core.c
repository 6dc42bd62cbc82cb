// SPDX-License-Identifier: MIT
/*
 * Start-up: the CLI puts the core kinds and steps into the registry, then
 * the plugins' kinds.  The loader below it only reads the registry.
 */
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
			if (rs_registry_add(*k) < 0)
				fprintf(stderr, "rdmascn: plugin %s: kind '%s' "
					"clashes with a registered one\n",
					p->name, (*k)->name);
	}
}
