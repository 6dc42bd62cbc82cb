// SPDX-License-Identifier: MIT
/*
 * A step's gate, once it passed: each bounded figure against its bounds.
 * A figure out of them, or not recorded at all, fails the step, named
 * with the bound's FILE:LINE:COL; every gate goes into the step's entry.
 * An element's miss of an each: bound names the element, its nodes and
 * its value, and leaves the other elements to run (each_missed).
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

static void miss(struct rs_step_run *sr, enum rs_figure i, bool each,
		 const char *which, const char *what)
{
	const struct rs_loc *loc = rs_gate_loc(sr->obj, i, each, which);

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

/* "lat[7] (a -> b)": the element, and with nodes: its node and the
 * peer's. */
static void element_text(const struct rs_step_run *sr, char *buf, size_t len)
{
	const struct rs_obj *o = sr->obj;
	const struct rs_scenario *s = sr->run->s;
	int n;

	if (o->id)
		n = snprintf(buf, len, "%s", o->id);
	else
		n = snprintf(buf, len, "step %s", o->no);
	if (n < 0 || (size_t)n >= len || !rs_nodes_count(s) ||
	    o->on == RS_NODE_ANY)
		return;
	if (o->on_peer != RS_NODE_ANY && o->on_peer != o->on)
		snprintf(buf + n, len - n, " (%s -> %s)",
			 rs_node_name(s, o->on), rs_node_name(s, o->on_peer));
	else
		snprintf(buf + n, len - n, " (%s)", rs_node_name(s, o->on));
}

/* Judge the bounds of @g (each: with @each) from entry @k of sr->gates
 * on; the next entry's index.  A miss of a plain bound clears *@only_each. */
static size_t judge(struct rs_step_run *sr, const struct rs_gate *g,
		    bool each, size_t k, bool *only_each)
{
	char elem[160] = "";

	if (each)
		element_text(sr, elem, sizeof(elem));
	for (unsigned i = 0; i < RS_FIG_COUNT; i++) {
		const struct rs_bound *b = g->f[i];
		const struct rs_figure_def *f = &rs_figures[i];
		struct rs_val *e = (struct rs_val *)rs_val_at(sr->gates, k);
		char what[512], bounds[160];
		bool held;
		double v;

		if (!b)
			continue;
		k++;
		if (!figure_value(sr, f, &v)) {
			rs_val_put_bool(e, "passed", false);
			if (each) {
				rs_gate_bounds_text(e, bounds, sizeof(bounds));
				snprintf(what, sizeof(what), "%s: %s has no "
					 "%s", bounds, elem, f->name);
			} else {
				snprintf(what, sizeof(what), "%s was not "
					 "recorded", f->name);
				*only_each = false;
			}
			miss(sr, i, each, NULL, what);
			continue;
		}
		held = (!b->min || v >= *b->min) && (!b->max || v <= *b->max);
		rs_val_put_double(e, "value", v);
		rs_val_put_bool(e, "passed", held);
		if (held)
			continue;
		if (each) {
			/* "latency.typical <= 20 usec each: lat[7] (a -> b)
			 * has 31.2 usec" */
			rs_gate_bounds_text(e, bounds, sizeof(bounds));
			snprintf(what, sizeof(what), "%s: %s has %g %s",
				 bounds, elem, v, f->unit);
			miss(sr, i, true, b->min && v < *b->min ? "min" :
			     "max", what);
			continue;
		}
		*only_each = false;
		if (b->min && v < *b->min) {
			snprintf(what, sizeof(what), "%s is %g %s, below min %g",
				 f->name, v, f->unit, *b->min);
			miss(sr, i, false, "min", what);
		}
		if (b->max && v > *b->max) {
			snprintf(what, sizeof(what), "%s is %g %s, above max %g",
				 f->name, v, f->unit, *b->max);
			miss(sr, i, false, "max", what);
		}
	}
	return k;
}

void rs_step_check_gates(struct rs_step_run *sr)
{
	const struct rs_step_common *c = sr->obj->data;
	bool only_each = true;
	size_t k;

	/* A helper's run of the step (pingpong's answering side) has ops
	 * of its own and records no figures. */
	if (!c->gate || sr->result != RS_STEP_PASSED ||
	    sr->ops != sr->obj->kind->step_ops)
		return;
	/* Across nodes, the node of a pingpong's peer runs its answering
	 * half with the step's own ops (rs_step_on()): the figures, and
	 * so the gate, are the measuring node's. */
	if (sr->run->node != RS_NODE_ANY && sr->obj->on != RS_NODE_ANY &&
	    sr->obj->on != sr->run->node)
		return;
	sr->gates = rs_gate_entries(sr->obj);
	k = judge(sr, c->gate, false, 0, &only_each);
	if (c->gate->each)
		judge(sr, c->gate->each, true, k, &only_each);
	sr->each_missed = sr->result == RS_STEP_FAILED && only_each;
}
