// SPDX-License-Identifier: MIT
/*
 * A step's gate, once it passed: each bounded figure against its bounds.
 * A figure out of them, or not recorded at all, fails the step, named
 * with the bound's FILE:LINE:COL; every gate goes into the step's entry.
 */
#include <stdio.h>
#include <string.h>

#include "gate.h"
#include "step.h"
#include "value.h"

/* The figure's value in what the step recorded; false: none. */
static bool figure_value(struct rs_step_run *sr, const struct rs_figure_def *f,
			 double *ret)
{
	const struct rs_val *g = sr->figures ?
				 rs_val_get(sr->figures, f->group) : NULL;

	if (!g || !rs_val_get(g, f->key))
		return false;
	*ret = rs_val_get_double(g, f->key);
	return true;
}

static void miss(struct rs_step_run *sr, enum rs_figure i, const char *which,
		 const char *what)
{
	const struct rs_loc *loc = rs_gate_loc(sr->obj, i, which);

	pthread_mutex_lock(&sr->st->lock);
	rs_diag_error(&sr->run->diag, loc, "%s: gate: %s", sr->label, what);
	pthread_mutex_unlock(&sr->st->lock);
	if (sr->result == RS_STEP_PASSED) {
		sr->result = RS_STEP_FAILED;
		if (loc)
			snprintf(sr->why, sizeof(sr->why), "gate: %s (%s:%u:%u)",
				 what, loc->file, loc->line, loc->col);
		else
			snprintf(sr->why, sizeof(sr->why), "gate: %s", what);
	}
}

void rs_step_check_gates(struct rs_step_run *sr)
{
	const struct rs_step_common *c = sr->obj->data;
	size_t k = 0;

	/* A helper's run of the step (pingpong's answering side) has ops
	 * of its own and records no figures. */
	if (!c->gate || sr->result != RS_STEP_PASSED ||
	    sr->ops != sr->obj->kind->step_ops)
		return;
	sr->gates = rs_gate_entries(sr->obj);
	for (unsigned i = 0; i < RS_FIG_COUNT; i++) {
		const struct rs_bound *b = c->gate->f[i];
		const struct rs_figure_def *f = &rs_figures[i];
		struct rs_val *e = (struct rs_val *)rs_val_at(sr->gates, k);
		char what[256];
		double v;

		if (!b)
			continue;
		k++;
		if (!figure_value(sr, f, &v)) {
			rs_val_put_bool(e, "passed", false);
			snprintf(what, sizeof(what), "%s was not recorded",
				 f->name);
			miss(sr, i, NULL, what);
			continue;
		}
		rs_val_put_double(e, "value", v);
		rs_val_put_bool(e, "passed", (!b->min || v >= *b->min) &&
				(!b->max || v <= *b->max));
		if (b->min && v < *b->min) {
			snprintf(what, sizeof(what), "%s is %g %s, below min %g",
				 f->name, v, f->unit, *b->min);
			miss(sr, i, "min", what);
		}
		if (b->max && v > *b->max) {
			snprintf(what, sizeof(what), "%s is %g %s, above max %g",
				 f->name, v, f->unit, *b->max);
			miss(sr, i, "max", what);
		}
	}
}
