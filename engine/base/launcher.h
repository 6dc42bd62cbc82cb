/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_LAUNCHER_H
#define RDMASCN_LAUNCHER_H

#include <stddef.h>

/*
 * The launchers that start one process per node (mpirun, srun, PMI),
 * told apart by their variables, in one table: the scenario layer reads
 * the size (${launcher.size}), nodes/roles.c the rank.  The first whose
 * rank variable is set wins.
 */
struct rs_launcher {
	const char *rank;        /* its rank variable */
	const char *size;        /* its size variable; NULL: not given */
	const char *name;        /* "Open MPI" */
};

/* The table, @ret_n rows. */
const struct rs_launcher *rs_launchers(size_t *ret_n);
/* The launcher that started this process, or NULL. */
const struct rs_launcher *rs_launcher_find(void);
/* The size variables, "A, B or C", for a message. */
void rs_launcher_size_names(char *buf, size_t len);
/* A rank or a size as a launcher writes it: a whole number below 2^31;
 * -1 when @v is NULL or not one. */
long rs_launcher_whole(const char *v);

#endif
