// SPDX-License-Identifier: MIT
/*
 * Which node of a scenario's `nodes:` this process plays: `--node NAME`
 * (an element of a node set: `--node h[3]`), or rank i of the launcher
 * that started it plays the i-th node of the expanded list.  The
 * launchers and their variables are one table, base/launcher.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stdio.h>

#include "launcher.h"
#include "model.h"
#include "nodes.h"

/* Why this process plays no node, into @why (its caller says it, as a
 * refusal of what was asked): -EINVAL. */
static int refuse(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int refuse(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int from_env(const struct rs_scenario *s, const char *file,
		    struct rs_role *ret, char *why, size_t len)
{
	unsigned n = rs_nodes_count(s);
	char names[512];

	rs_nodes_list(s, names, sizeof(names));
	size_t n_launchers;
	const struct rs_launcher *launchers = rs_launchers(&n_launchers);

	for (size_t i = 0; i < n_launchers; i++) {
		const struct rs_launcher *l = &launchers[i];
		const char *rv = getenv(l->rank), *sv;
		long rank = rs_launcher_whole(rv), size;

		if (!rv)
			continue;
		if (rank < 0)
			return refuse(why, len, "%s is '%s', not a rank.",
				      l->rank, rv);
		sv = l->size ? getenv(l->size) : NULL;
		size = rs_launcher_whole(sv);
		if (l->size && sv && size < 0)
			return refuse(why, len, "%s is '%s', not a "
				      "number of processes.", l->size, sv);
		if (sv && size != (long)n)
			return refuse(why, len, "%s started %ld "
				"processes (%s=%ld), but %s has %u nodes "
				"(%s): start one per node.", l->name, size,
				l->size, size, file, n, names);
		if (rank >= (long)n)
			return refuse(why, len, "%s=%ld, but %s has %u "
				"nodes (%s): ranks 0 to %u play them.",
				l->rank, rank, file, n, names, n - 1);
		ret->node = (int)rank;
		ret->from = l->rank;
		ret->rank = (int)rank;
		return 0;
	}
	return refuse(why, len, "%s has %u nodes (%s): say which this "
		"process plays, with --node NAME, or start one process per "
		"node with mpirun, srun or another PMI launcher "
		"(OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK or PMIX_RANK "
		"picks the node).", file, n, names);
}

const char *rs_role_launcher(void)
{
	const struct rs_launcher *l = rs_launcher_find();

	return l ? l->rank : NULL;
}

int rs_role_pick(const struct rs_scenario *s, const char *file,
		 const char *node, bool dry_run, struct rs_role *ret,
		 char *why, size_t len)
{
	char names[512];

	ret->node = RS_NODE_ANY;
	ret->from = NULL;
	ret->rank = -1;
	if (node && !rs_nodes_count(s))
		return refuse(why, len, "--node %s: %s declares no nodes "
			      "(it runs in one process).", node, file);
	if (node) {
		ret->node = rs_node_find(s, node);
		if (ret->node != RS_NODE_ANY) {
			ret->from = "--node";
			return 0;
		}
		rs_nodes_list(s, names, sizeof(names));
		return refuse(why, len, "--node %s: %s has no such node "
			      "(nodes: %s).", node, file, names);
	}
	/* Without nodes, a launcher's processes each run it all. */
	if (!rs_nodes_count(s))
		return 0;
	if (rs_nodes_count(s) == 1) {
		ret->node = 0;
		ret->from = "the only node";
		return 0;
	}
	/* A dry run without a role shows every node's calls. */
	if (dry_run && !rs_role_launcher())
		return 0;
	return from_env(s, file, ret, why, len);
}

const char *rs_role_rendezvous(const struct rs_scenario *s, const char *opt)
{
	if (opt)
		return opt;
	if (rs_nodes_count(s) && s->top->nodes[0].address)
		return s->top->nodes[0].address;
	return "127.0.0.1";
}
