/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_DOT_H
#define RDMASCN_DOT_H

#include <stdio.h>

#include "model.h"

/*
 * A loaded scenario as a Graphviz digraph: objects in a cluster per
 * context (the one each reaches first through its references), steps in
 * a cluster of their own, an edge from each dependant to its dependency
 * labelled with the field.  The same scenario always gives the same text.
 * Returns 0, -ENOMEM or -EIO.
 */
int rs_dot_write(FILE *f, const struct rs_scenario *s);

/* How a run of the scenario went, for rs_dot_write_run(). */
struct rs_dot_run {
	/* By object index (s->objs): the run record's outcome, NULL for
	 * none (a step that did not run). */
	const char *const *outcome;
	/* By object index, or NULL: what the node's tooltip adds (why a
	 * step failed, what an object was not created for). */
	const char *const *note;
	/* The graph's label; NULL: the scenario's name. */
	const char *title;
};

/*
 * rs_dot_write(), each node filled in the colour of its outcome in
 * @run (NULL: as rs_dot_write()), with a legend node.
 */
int rs_dot_write_run(FILE *f, const struct rs_scenario *s,
		     const struct rs_dot_run *run);

#endif
