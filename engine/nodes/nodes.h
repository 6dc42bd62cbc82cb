/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_NODES_H
#define RDMASCN_NODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rendezvous.h"

struct rs_cross;
struct rs_live;
struct rs_run;
struct rs_scenario;

/*
 * A node's part in a run of a scenario with `nodes:`: which node this
 * process plays (roles.c), and what the run's phases say to the other
 * nodes through the rendezvous (nodes.c, over rdv/rendezvous.h).  Every
 * node walks the same plan, so each call below is reached by all of
 * them in the same order.
 */

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
 * the variables): 0 and *@ret, or -EINVAL with the reason in @why
 * (@len bytes), for the caller to say. */
int rs_role_pick(const struct rs_scenario *s, const char *file,
		 const char *node, bool dry_run, struct rs_role *ret,
		 char *why, size_t len);
/* Where the nodes meet: --rendezvous HOST[:PORT] (@opt), else the first
 * node's address, else 127.0.0.1 (the port: RS_RDV_PORT_DEFAULT). */
const char *rs_role_rendezvous(const struct rs_scenario *s, const char *opt);

/* How this node meets the others: how, where, and with which key. */
struct rs_nodes_conf {
	enum rs_rdv_via via;      /* --rendezvous tcp|pmix|auto */
	const char *leader_addr;  /* HOST[:PORT] (rs_role_rendezvous()) */
	const uint8_t *key;       /* the run's key (run_key.h), or NULL */
	size_t key_len;
	bool insecure;            /* --insecure: no key off loopback */
};

/*
 * Each 0, or -errno with the reason in run->diag.
 * meet: before anything is created, into run->rdv (and run->nodes, for
 * exec's phases); -EINVAL: the nodes disagree, each difference named.
 * agree: the worst of every node's @mine (a reduce at the leader).
 * flush: the end of creation's phase @phase (exec/run.c): each of this
 * node's crossing objects @c (@n of them, maybe none) gives its
 * description to its far node and gets that node's, in one exchange of
 * every node.
 * publish: the MRs and QPs made here, each to the nodes whose objects or
 * steps refer to it, and theirs that this node's refer to (rs_live.far).
 * Each exchange's counts and bytes go to the record's node.exchanges.
 * barrier: all at @what.
 * fail: tell the others this node failed with exit code @code (the
 * first error, if no @why), which becomes their verdict too.
 */
/*
 * requires.uniform (@bits: enum rs_uniform): this host's "name=value"
 * of each, in name order, into *@ret (*@ret_n of them; free with
 * rs_uniform_free()); 0 or -ENOMEM.
 */
int rs_uniform_values(uint32_t bits, char ***ret, unsigned *ret_n);
void rs_uniform_free(char **v, unsigned n);

int rs_nodes_meet(struct rs_run *run, const struct rs_nodes_conf *c);
int rs_nodes_agree(struct rs_run *run, const char *what, int mine,
		   int *ret_all);
int rs_nodes_flush(struct rs_run *run, unsigned phase, struct rs_cross *c,
		   unsigned n);
int rs_nodes_publish(struct rs_run *run);
int rs_nodes_barrier(struct rs_run *run, const char *what);
void rs_nodes_fail(struct rs_run *run, int code, const char *why);
/*
 * After the steps: every node at one barrier before any tears down; a
 * failure there is left to rs_nodes_verdict(), which reports it.
 * verdict: the worst of every node's exit code (@mine when there are no
 * others, or they are lost).  gather: every node's record to the
 * leader, under its record's `node_runs` (or why not, `node_runs_error`),
 * before the record ends.  close: say goodbye.
 */
void rs_nodes_done(struct rs_run *run);
int rs_nodes_verdict(struct rs_run *run, int mine);
void rs_nodes_gather(struct rs_run *run);
void rs_nodes_close(struct rs_run *run);

#endif
