/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RUN_NODES_H
#define RDMASCN_RUN_NODES_H

struct rs_run;
struct run_opts;

/*
 * A run that is one node of several (run_nodes.c).  meet: before
 * anything is created, into run->rdv; 0, or -errno with the reason in
 * run->diag (-EINVAL: the nodes disagree, each difference named).
 * verdict: the worst of every node's exit code (@mine when there are no
 * others, or they are lost).  gather: every node's record to the leader,
 * under its record's `node_runs`.  close: say goodbye.
 */
int rs_run_nodes_meet(struct rs_run *run, const struct run_opts *o);
/* After the steps: every node at one barrier before any tears down; a
 * failure there is left to rs_run_nodes_verdict(), which reports it. */
void rs_run_nodes_done(struct rs_run *run);
int rs_run_nodes_verdict(struct rs_run *run, int mine);
void rs_run_nodes_gather(struct rs_run *run);
void rs_run_nodes_close(struct rs_run *run);

#endif
