/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_ROLES_H
#define RDMASCN_ROLES_H

#include <stdbool.h>
#include <stddef.h>

struct rs_cmd;
struct rs_scenario;

/* The node this process plays. */
struct rs_role {
	int node;          /* index in `nodes:`; RS_NODE_ANY: all of them
			    * (no nodes, or a dry run of every node) */
	const char *from;  /* "--node", the launcher's rank variable */
	int rank;          /* the launcher's rank; -1: none */
};

/* The rank variable of the launcher that started this process (roles.c
 * lists them), or NULL: none is set. */
const char *rs_role_launcher(void);
/* From --node @node, else the launcher's environment (roles.c lists
 * the variables): -1 and *@ret, or the exit code (2) with the reason
 * on stderr. */
int rs_role_pick(const struct rs_cmd *cmd, const struct rs_scenario *s,
		 const char *file, const char *node, bool dry_run,
		 struct rs_role *ret);
/* Where the nodes meet: --rendezvous HOST[:PORT] (@opt), else the first
 * node's address, else 127.0.0.1 (the port: RS_RDV_PORT_DEFAULT). */
const char *rs_role_rendezvous(const struct rs_scenario *s, const char *opt);

#endif
