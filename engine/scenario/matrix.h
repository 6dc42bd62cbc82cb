/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MATRIX_H
#define RDMASCN_MATRIX_H

#include <stdbool.h>

#include "diag.h"

struct rs_scenario;
struct rs_set;

/*
 * A scenario's matrix: values for some of its params, run once per
 * combination (the cartesian product, first param outermost), less the
 * combinations `exclude:` names.
 *
 *	matrix:
 *	  size: [64, 4096]
 *	  qp_type: [rc, uc]
 *	  exclude:
 *	    - {size: 4096, qp_type: uc}
 *
 * A param given with --set is fixed at that value (one value); --matrix
 * NAME=V1,V2 replaces (or adds) a param's values.
 */
/* The most combinations a matrix may make (excluded ones counted). */
#define RS_MATRIX_MAX 100000u

struct rs_matrix_dim {
	const char *name;
	const char **values;
	unsigned n;
};

/* One `exclude:` entry: every (dim, value) of it must match. */
struct rs_matrix_excl {
	unsigned *dim;
	const char **value;
	unsigned n;
};

struct rs_matrix {
	struct rs_matrix_dim *dims;
	unsigned n_dims;
	struct rs_matrix_excl *excl;
	unsigned n_excl;
};

/* Read the file's matrix: (errors, located, to @d): 0 or -EINVAL or
 * -ENOMEM.  No `matrix:` is a matrix of no dims. */
int rs_matrix_read(struct rs_matrix *m, const struct rs_scenario *s,
		   struct rs_diag *d);
/* --matrix NAME=V1,V2,...: @spec is kept (values point into it) and
 * changed.  0, -EINVAL (said on @d) or -ENOMEM. */
int rs_matrix_set(struct rs_matrix *m, const struct rs_scenario *s,
		  char *spec, struct rs_diag *d);
/* The number of combinations, excluded ones included. */
unsigned long rs_matrix_size(const struct rs_matrix *m);
/* Combination @i as @m->n_dims sets (NAME=VALUE); false when `exclude:`
 * leaves it out. */
bool rs_matrix_cell(const struct rs_matrix *m, unsigned long i,
		    struct rs_set *sets);
void rs_matrix_free(struct rs_matrix *m);

#endif
