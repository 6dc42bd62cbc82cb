// SPDX-License-Identifier: MIT
/*
 * The launchers' variables (launcher.h):
 *   Open MPI  OMPI_COMM_WORLD_RANK / OMPI_COMM_WORLD_SIZE
 *   Slurm     SLURM_PROCID / SLURM_NTASKS
 *   PMI(-2)   PMI_RANK / PMI_SIZE  (MPICH's Hydra, Intel MPI)
 *   PMIx      PMIX_RANK            (the size is not in the environment:
 *                                   only the rank is checked)
 * Open MPI's mpirun sets PMIX_RANK too, and OMPI_COMM_WORLD_SIZE with
 * it: Open MPI comes first so that its size is read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher.h"

static const struct rs_launcher launchers[] = {
	{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "Open MPI" },
	{ "SLURM_PROCID", "SLURM_NTASKS", "Slurm" },
	{ "PMI_RANK", "PMI_SIZE", "PMI" },
	{ "PMIX_RANK", NULL, "PMIx" },
};

#define N_LAUNCHERS (sizeof(launchers) / sizeof(launchers[0]))

const struct rs_launcher *rs_launchers(size_t *ret_n)
{
	*ret_n = N_LAUNCHERS;
	return launchers;
}

const struct rs_launcher *rs_launcher_find(void)
{
	for (size_t i = 0; i < N_LAUNCHERS; i++)
		if (getenv(launchers[i].rank))
			return &launchers[i];
	return NULL;
}

void rs_launcher_size_names(char *buf, size_t len)
{
	size_t o = 0, n = 0, k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_LAUNCHERS; i++)
		n += launchers[i].size != NULL;
	for (size_t i = 0; i < N_LAUNCHERS && o < len; i++) {
		if (!launchers[i].size)
			continue;
		o += snprintf(buf + o, len - o, "%s%s",
			      !k ? "" : k + 1 == n ? " or " : ", ",
			      launchers[i].size);
		k++;
	}
}

long rs_launcher_whole(const char *v)
{
	char *end;
	long n;

	if (!v || !*v || strspn(v, "0123456789") != strlen(v))
		return -1;
	errno = 0;
	n = strtol(v, &end, 10);
	return errno || *end || n > 0x7fffffff ? -1 : n;
}
