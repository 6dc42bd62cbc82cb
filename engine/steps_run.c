// SPDX-License-Identifier: MIT
/* The steps: not written yet. */
#include "cli.h"
#include "run.h"

int rs_steps_run(struct rs_run *run)
{
	if (!run->s->n_steps)
		return RS_EXIT_PASSED;
	rs_diag_error(&run->diag, NULL, "steps: not written yet");
	return RS_EXIT_CANTRUN;
}
