// SPDX-License-Identifier: MIT
/* --check-leaks: not written yet. */
#include <errno.h>

#include "run.h"

int rs_leaks_check(FILE *f, const struct rs_run *run)
{
	(void)run;
	fprintf(f, "rdmascn: --check-leaks: not written yet\n");
	return -ENOSYS;
}
