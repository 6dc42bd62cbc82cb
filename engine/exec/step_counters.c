// SPDX-License-Identifier: MIT
/*
 * The counters around each top-level step and around the steps phase
 * (counters.h).  A step reads the ports its QPs use: the QPs its
 * references (and its nested steps') reach, directly or through the
 * object they name (a connection's two QPs), and each QP's peer, each
 * on its context's device and port; and those devices' own counters.
 * A step that reaches no QP (verify, sleep) reads nothing and waits
 * for nothing.  The deltas go into the step's figures as the group
 * "counters" before its gate is judged; the phase's, over every QP of
 * this node, into the record's root.
 */
#include <errno.h>

#include "alloc.h"
#include "counters.h"
#include "step.h"
#include "value.h"

static int want_qp(struct rs_steps *st, struct rs_ctr_snap *s,
		   const struct rs_qpi *q)
{
	struct rs_dev *dev;

	/* Another node's, or not made: nothing of it here to read. */
	if (!q || q->l->state != RS_LIVE_CREATED)
		return 0;
	dev = rs_live_dev(st->run, q->l);
	if (!dev || !dev->name[0] || !dev->port)
		return 0;
	return rs_ctr_snap_add(s, st->ctrs, dev->name, dev->port);
}

/* The QPs object @o names, itself, or those it names (a connection). */
static int want_obj(struct rs_steps *st, struct rs_ctr_snap *s,
		    const struct rs_obj *o)
{
	const struct rs_qpi *q = rs_step_qp_of(st, o);
	int r = 0;

	if (q) {
		r = want_qp(st, s, q);
		return r ? r : want_qp(st, s, q->peer);
	}
	for (unsigned i = 0; i < o->n_edges && !r; i++) {
		q = o->edges[i].order_only ? NULL : rs_step_qp_of(st, o->edges[i].to);
		if (q)
			r = want_qp(st, s, q);
		if (q && !r)
			r = want_qp(st, s, q->peer);
	}
	return r;
}

/* What step @o and its nested steps reach. */
static int want_step(struct rs_steps *st, struct rs_ctr_snap *s,
		     const struct rs_obj *o)
{
	const struct rs_scenario *sc = st->run->s;
	int r = 0;

	for (unsigned i = 0; i < o->n_edges && !r; i++) {
		const struct rs_edge *e = &o->edges[i];

		if (!e->order_only && !e->to->kind->step)
			r = want_obj(st, s, e->to);
	}
	for (unsigned i = 0; i < sc->n_steps && !r; i++)
		if (sc->steps[i]->parent == o)
			r = want_step(st, s, sc->steps[i]);
	return r;
}

struct rs_ctr_snap *rs_step_counters_read(struct rs_steps *st,
					  const struct rs_obj *o)
{
	struct rs_ctr_snap *s;
	int r = -ENOMEM;

	if (!st->ctrs)
		return NULL;
	s = rs_calloc(1, sizeof(*s));
	if (s)
		r = want_step(st, s, o);
	if (!r && !s->n) {
		rs_free(s);
		return NULL;
	}
	if (!r)
		r = rs_ctr_snap_begin(s);
	if (!r)
		return s;
	/* -ENOMEM is all a snapshot returns here. */
	pthread_mutex_lock(&st->lock);
	rs_diag_warning(&st->run->diag, rs_obj_loc(o, NULL), "%s: its port "
			"counters were not read: out of memory",
			st->labels[o->index]);
	pthread_mutex_unlock(&st->lock);
	rs_step_counters_drop(s);
	return NULL;
}

void rs_step_counters_drop(struct rs_ctr_snap *s)
{
	if (!s)
		return;
	rs_ctr_snap_free(s);
	rs_free(s);
}

void rs_step_counters_begin(struct rs_step_run *sr)
{
	/* A nested step shares its parent's snapshot; a top-level one's
	 * was read before its barrier (rs_steps_run()). */
	if (!sr->ctrs && !sr->parent)
		sr->ctrs = rs_step_counters_read(sr->st, sr->obj);
}

void rs_step_counters_end(struct rs_step_run *sr)
{
	struct rs_val *g;
	int r = -ENOMEM;

	if (!sr->ctrs)
		return;
	g = rs_val_obj();
	/* The second read may wait out the counters' cache (up to its
	 * lifespan and a jiffy): what the reporters hold goes out first. */
	rs_record_before_wait(sr->run->rec);
	if (g)
		r = rs_ctr_snap_end(sr->ctrs, g);
	if (!r && rs_val_len(g))
		rs_val_put(rs_step_figures(sr), "counters", g);
	else
		rs_val_free(g);
	if (r)
		rs_step_warn(sr, NULL, "its port counters were not read: "
			     "out of memory");
	rs_step_counters_drop(sr->ctrs);
	sr->ctrs = NULL;
}

int rs_steps_counters_begin(struct rs_steps *st, struct rs_ctr_snap *s)
{
	int r = 0;

	if (st->run->counters_off)
		return 0;
	st->ctrs = rs_counters_new(NULL);
	if (!st->ctrs)
		return -ENOMEM;
	for (unsigned i = 0; i < st->n_qps && !r; i++)
		r = want_qp(st, s, &st->qps[i]);
	if (!r)
		r = rs_ctr_snap_begin(s);
	/* The steps read theirs all the same; the totals are left out. */
	if (r)
		rs_ctr_snap_free(s);
	return r;
}

int rs_steps_counters_end(struct rs_steps *st, struct rs_ctr_snap *s)
{
	struct rs_val *g;
	int r = 0;

	if (st->ctrs && s->n) {
		rs_record_before_wait(st->run->rec);
		g = rs_val_obj();
		r = g ? rs_ctr_snap_end(s, g) : -ENOMEM;
		if (!r && rs_val_len(g))
			rs_val_put(st->run->rec->root, "counters", g);
		else
			rs_val_free(g);
	}
	rs_ctr_snap_free(s);
	rs_counters_free(st->ctrs);
	st->ctrs = NULL;
	return r;
}
