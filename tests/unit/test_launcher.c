// SPDX-License-Identifier: MIT
/* The launchers' table (base/launcher.c): which launcher a process was
 * started by, the first whose rank variable is set; a rank or size as
 * launchers write them; the size variables named for a message. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "launcher.h"
#include "list.h"

static void clear(void)
{
	size_t n;
	const struct rs_launcher *l = rs_launchers(&n);

	for (size_t i = 0; i < n; i++) {
		unsetenv(l[i].rank);
		if (l[i].size)
			unsetenv(l[i].size);
	}
}

TEST(launcher, find_first_set)
{
	const struct rs_launcher *l;

	clear();
	CHECK_PTR(rs_launcher_find(), NULL);
	setenv("PMIX_RANK", "3", 1);
	l = rs_launcher_find();
	CHECK(l != NULL);
	CHECK_STR(l->name, "PMIx");
	CHECK_PTR(l->size, NULL);
	/* mpirun sets both: Open MPI's row, which has the size, wins. */
	setenv("OMPI_COMM_WORLD_RANK", "3", 1);
	l = rs_launcher_find();
	CHECK_STR(l->rank, "OMPI_COMM_WORLD_RANK");
	CHECK_STR(l->size, "OMPI_COMM_WORLD_SIZE");
	clear();
}

TEST(launcher, whole_and_names)
{
	char buf[160];

	CHECK_INT(rs_launcher_whole("0"), 0);
	CHECK_INT(rs_launcher_whole("64"), 64);
	CHECK_INT(rs_launcher_whole("2147483647"), 2147483647);
	CHECK_INT(rs_launcher_whole("2147483648"), -1);
	CHECK_INT(rs_launcher_whole("-1"), -1);
	CHECK_INT(rs_launcher_whole("4 "), -1);
	CHECK_INT(rs_launcher_whole(""), -1);
	CHECK_INT(rs_launcher_whole(NULL), -1);
	rs_launcher_size_names(buf, sizeof(buf));
	CHECK_STR(buf, "OMPI_COMM_WORLD_SIZE, SLURM_NTASKS or PMI_SIZE");
	/* Cut, never past the buffer. */
	rs_launcher_size_names(buf, 8);
	CHECK(strlen(buf) < 8);
}
