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

#endif
