// SPDX-License-Identifier: MIT
/*
 * A step's gate, once it passed: each bound against what the step
 * recorded (its figures, its counters' deltas) and, for a ratio, against
 * what the `of:` step recorded in this run.  A figure out of bounds, or
 * not recorded at all, fails the step, named with the bound's
 * FILE:LINE:COL; a counter the device lacks does too, unless its bound
 * says `missing: skip`, which skips the step.  Every gate goes into the
 * step's entry.  An element's miss of an each: bound names the element,
 * its nodes and its value, and leaves the other elements to run
 * (each_missed).
 */
#include <stdio.h>
#include <string.h>

#include "exit.h"
#include "gate.h"
#include "record.h"
#include "step.h"
#include "value.h"

struct step_judging {
	struct rs_step_run *sr;
	bool each;
	bool only_each;          /* every miss was of an each: bound */
	bool skip;               /* a missing: skip counter was missing */
	char skip_why[512];
};

static void miss(void *ctx, const struct rs_bound *b, const char *which,
		 bool not_measured, const char *what)
{
	struct step_judging *j = ctx;
	struct rs_step_run *sr = j->sr;
	const struct rs_loc *loc = rs_bound_loc(b, which);

	if (not_measured && b->missing_skip) {
		if (!j->skip)
			snprintf(j->skip_why, sizeof(j->skip_why), "gate: %s "
				 "(missing: skip, %s:%u:%u)", what, loc->file,
				 loc->line, loc->col);
		j->skip = true;
		return;
	}
	if (!j->each)
		j->only_each = false;
	pthread_mutex_lock(&sr->st->lock);
	rs_diag_error(&sr->run->diag, loc, "%s: gate: %s", sr->label, what);
	pthread_mutex_unlock(&sr->st->lock);
	if (sr->result == RS_STEP_PASSED) {
		sr->result = RS_STEP_FAILED;
		snprintf(sr->why, sizeof(sr->why), "gate: %s (%s:%u:%u)",
			 what, loc->file, loc->line, loc->col);
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

/* A copy of the figures step @id recorded in this run (this node's
 * record), for the caller to free; NULL: none.  Steps of a parallel: append
 * beside us, hence the lock. */
static struct rs_val *figures_of(struct rs_record *rec, const char *id)
{
	struct rs_val *found = NULL;

	if (!rec || !id)
		return NULL;
	pthread_mutex_lock(&rec->lock);
	for (size_t i = 0; i < rs_val_len(rec->steps); i++) {
		const struct rs_val *e = rs_val_at(rec->steps, i);
		const char *eid = rs_val_get_str(e, "id");
		const struct rs_val *f = rs_val_get(e, "figures");

		if (eid && f && !strcmp(eid, id)) {
			rs_val_free(found);
			found = rs_val_copy(f);
		}
	}
	pthread_mutex_unlock(&rec->lock);
	return found;
}

static void judge(struct step_judging *j, const struct rs_gate *g, bool each)
{
	struct rs_step_run *sr = j->sr;
	char elem[160] = "";

	if (!g)
		return;
	if (each)
		element_text(sr, elem, sizeof(elem));
	j->each = each;
	for (unsigned i = 0; i < g->n; i++) {
		const struct rs_bound *b = &g->b[i];
		struct rs_val *of = figures_of(sr->run->rec, b->of);

		rs_gate_judge(b, each ? elem : NULL, sr->figures, of,
			      sr->gates, miss, j);
		rs_val_free(of);
	}
}

void rs_step_check_gates(struct rs_step_run *sr)
{
	const struct rs_step_common *c = sr->obj->data;
	struct step_judging j = { .sr = sr, .only_each = true };

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
	sr->gates = rs_val_arr();
	if (!sr->gates)
		rs_record_lost(sr->run->rec);
	judge(&j, c->gate, false);
	judge(&j, c->gate->each, true);
	sr->each_missed = sr->result == RS_STEP_FAILED && j.only_each;
	/* A failure says more than a skip. */
	if (j.skip && sr->result == RS_STEP_PASSED) {
		sr->result = RS_STEP_SKIPPED;
		snprintf(sr->why, sizeof(sr->why), "%s", j.skip_why);
	}
}

/* --- the run's gates: ----------------------------------------------------- */

struct run_judging {
	struct rs_run *run;
	bool missed;
};

static void run_miss(void *ctx, const struct rs_bound *b, const char *which,
		     bool not_measured, const char *what)
{
	struct run_judging *j = ctx;

	if (not_measured && b->missing_skip)
		return;
	j->missed = true;
	rs_diag_error(&j->run->diag, rs_bound_loc(b, which), "gates: %s",
		      what);
}

int rs_run_check_gates(struct rs_run *run)
{
	const struct rs_gate *g = run->s->gates;
	struct run_judging j = { .run = run };
	struct rs_record *rec = run->rec;
	struct rs_val *figures, *arr;
	const struct rs_val *totals;

	if (!g || !rec)
		return 0;
	figures = rs_val_obj();
	arr = rs_val_arr();
	pthread_mutex_lock(&rec->lock);
	totals = rs_val_get(rec->root, "counters");
	if (totals)
		rs_val_put(figures, "counters", rs_val_copy(totals));
	pthread_mutex_unlock(&rec->lock);
	for (unsigned i = 0; i < g->n; i++)
		rs_gate_judge(&g->b[i], NULL, figures, NULL, arr, run_miss, &j);
	rs_val_free(figures);
	pthread_mutex_lock(&rec->lock);
	rs_val_put(rec->root, "gates", arr);
	pthread_mutex_unlock(&rec->lock);
	return j.missed ? RS_EXIT_FAILED : 0;
}
