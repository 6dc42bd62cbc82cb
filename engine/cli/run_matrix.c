// SPDX-License-Identifier: MIT
/* rdmascn run over a matrix: a full run per cell, the worst verdict. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cmd_run.h"
#include "exit.h"
#include "macros.h"
#include "signals.h"
#include "value.h"

/* Which exit code of two a matrix reports: invalid, could not run,
 * failed, skipped, passed; an interruption above all. */
static int worse(int a, int b)
{
	static const int order[] = { RS_EXIT_PASSED, RS_EXIT_SKIPPED,
				     RS_EXIT_FAILED, RS_EXIT_CANTRUN,
				     RS_EXIT_INVALID };
	int ra = RS_N(order), rb = RS_N(order);

	for (int i = 0; i < (int)RS_N(order); i++) {
		if (order[i] == a)
			ra = i;
		if (order[i] == b)
			rb = i;
	}
	return rb > ra ? b : a;
}

int rs_run_matrix(const struct rs_cmd *cmd, struct rs_scenario *s,
		      const char *file, const struct run_opts *o,
		      struct rs_results *res, FILE *out)
{
	const struct rs_matrix *m = &s->matrix;
	unsigned long n = rs_matrix_size(m), n_run = 0, k = 0;
	unsigned n_sets = o->scn.n_sets + m->n_dims;
	struct rs_set *sets = rs_calloc(n_sets + 1, sizeof(*sets));
	int *codes = rs_calloc(n + 1, sizeof(*codes));
	char (*names)[sizeof(((struct cell *)0)->name)] =
		rs_calloc(n + 1, sizeof(*names));
	struct rs_val *mx = res ? rs_results_matrix(res) : NULL;
	int worst = RS_EXIT_PASSED;

	if (!sets || !codes || !names) {
		rs_free(sets);
		rs_free(codes);
		rs_free(names);
		return rs_cmd_no_memory(cmd);
	}
	memcpy(sets, o->scn.sets, o->scn.n_sets * sizeof(*sets));
	for (unsigned long i = 0; i < n; i++)
		n_run += rs_matrix_cell(m, i, sets + o->scn.n_sets);
	if (mx) {
		struct rs_val *params = rs_val_put_obj(mx, "params");
		struct rs_val *excl = rs_val_put_arr(mx, "excluded");

		for (unsigned d = 0; d < m->n_dims; d++) {
			struct rs_val *a = rs_val_put_arr(params, m->dims[d].name);

			for (unsigned v = 0; v < m->dims[d].n; v++)
				rs_val_push_str(a, m->dims[d].values[v]);
		}
		for (unsigned long i = 0; i < n; i++) {
			struct rs_val *e;

			if (rs_matrix_cell(m, i, sets + o->scn.n_sets))
				continue;
			e = rs_val_push_obj(excl);
			for (unsigned d = 0; d < m->n_dims; d++)
				rs_val_put_str(e, sets[o->scn.n_sets + d].name,
					       sets[o->scn.n_sets + d].value);
		}
		rs_val_put_u64(mx, "cells", n_run);
	}
	for (unsigned long i = 0; i < n && !rs_interrupted; i++) {
		struct cell cell = { .sets = sets + o->scn.n_sets,
				     .n_sets = m->n_dims };
		struct rs_scenario *cs = NULL;
		size_t len = 0;
		int ret;

		codes[i] = -1;
		if (!rs_matrix_cell(m, i, sets + o->scn.n_sets))
			continue;
		for (unsigned d = 0; d < m->n_dims; d++)
			len += snprintf(cell.name + len, sizeof(cell.name) - len,
					"%s%s=%s", d ? "," : "", cell.sets[d].name,
					cell.sets[d].value);
		memcpy(names[i], cell.name, sizeof(cell.name));
		fprintf(out, "%scell %lu of %lu: %s\n", k ? "\n" : "", k + 1,
			n_run, cell.name);
		k++;
		fflush(out);
		ret = rs_scn_load(file, &(struct scn_opts){ sets, n_sets }, &cs);
		if (ret == RS_EXIT_PASSED)
			ret = rs_run_one(cmd, cs, file, o, &cell, res);
		rs_scenario_free(cs);
		codes[i] = ret;
		worst = ret >= 128 ? ret : worse(worst, ret);
	}
	fprintf(out, "\nmatrix: %lu cell%s", n_run, n_run == 1 ? "" : "s");
	if (n != n_run)
		fprintf(out, " (%lu excluded)", n - n_run);
	fputs("\n", out);
	for (unsigned long i = 0; i < n; i++)
		if (codes[i] >= 0)
			fprintf(out, "  %-40s %s\n", names[i],
				rs_exit_verdict(codes[i]));
		else if (rs_matrix_cell(m, i, sets + o->scn.n_sets))
			fprintf(out, "  %-40s not run\n", names[i][0] ?
				names[i] : "(interrupted before it)");
	fprintf(out, "verdict: %s (exit %d)\n", rs_exit_verdict(worst), worst);
	fflush(out);
	rs_free(sets);
	rs_free(codes);
	rs_free(names);
	return worst;
}

