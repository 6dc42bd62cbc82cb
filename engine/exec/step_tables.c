// SPDX-License-Identifier: MIT
/*
 * The run's step tables: each object's step-side record (a QP's, a CQ's,
 * an MW's) by object index and a QP's by its number, each step's number
 * and label, and the owner records that completions are routed to.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "step.h"

static struct rs_live *live_of(struct rs_run *run, const char *id)
{
	return rs_live_find(run, id);
}

static void *by_id(struct rs_steps *st, const char *id)
{
	struct rs_live *l = live_of(st->run, id);

	return l ? st->by_obj[l->obj->index] : NULL;
}

struct rs_qpi *rs_step_qp_of(const struct rs_steps *st,
			    const struct rs_obj *o)
{
	void *p = o->index < st->n_objs ? st->by_obj[o->index] : NULL;

	/* by_obj holds CQs' and MWs' records too: a QP's is in qps[]. */
	if (!p || (uintptr_t)p < (uintptr_t)st->qps ||
	    (uintptr_t)p >= (uintptr_t)(st->qps + st->n_qps))
		return NULL;
	return p;
}

static void qpn_insert(struct rs_steps *st, struct rs_qpi *q)
{
	unsigned i = (q->qpn * 2654435761u) & st->qpn_mask;

	while (st->by_qpn[i])
		i = (i + 1) & st->qpn_mask;
	st->by_qpn[i] = q;
}

struct rs_qpi *rs_qp_by_num(struct rs_steps *st, uint32_t qpn)
{
	unsigned i = (qpn * 2654435761u) & st->qpn_mask;

	for (; st->by_qpn[i]; i = (i + 1) & st->qpn_mask)
		if (st->by_qpn[i]->qpn == qpn)
			return st->by_qpn[i];
	return NULL;
}

static int setup_names(struct rs_steps *st)
{
	struct rs_scenario *s = st->run->s;

	st->id_width = 16;
	for (unsigned i = s->n_objects; i < s->n_objs; i++)
		if (s->objs[i].id &&
		    (int)strlen(s->objs[i].id) + 2 > st->id_width)
			st->id_width = strlen(s->objs[i].id) + 2;
	/* The numbers are the loader's (obj->no). */
	for (unsigned i = s->n_objects; i < s->n_objs; i++) {
		const struct rs_obj *o = &s->objs[i];
		char label[RDMASCN_ID_MAX + RS_STEP_NO_MAX + 64];

		if (o->id)
			snprintf(label, sizeof(label), "step %s (%s) '%s'",
				 o->no, o->kind->name, o->id);
		else
			snprintf(label, sizeof(label), "step %s (%s)", o->no,
				 o->kind->name);
		st->labels[i] = rs_strdup(label);
		if (!st->labels[i])
			return -ENOMEM;
	}
	return 0;
}

int rs_steps_setup(struct rs_steps *st, struct rs_run *run)
{
	struct rs_scenario *s = run->s;
	unsigned nq = 0, nc = 0, nm = 0, size;

	memset(st, 0, sizeof(*st));
	st->run = run;
	st->n_objs = s->n_objs;
	pthread_mutex_init(&st->lock, NULL);
	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rs_live *l = &run->live[i];
		struct rdmascn_qp qf;
		struct rdmascn_cq cf;

		nq += !rs_as_qp(run, l, &qf);
		nc += !rs_as_cq(l, &cf);
		nm += rs_as_mw(l) != NULL;
	}
	for (size = 16; size < 2 * nq; size *= 2)
		;
	st->qpn_mask = size - 1;
	st->by_obj = rs_calloc(s->n_objs + 1, sizeof(*st->by_obj));
	st->owners = rs_calloc(s->n_objs + 1, sizeof(*st->owners));
	st->labels = rs_calloc(s->n_objs + 1, sizeof(*st->labels));
	st->qps = rs_calloc(nq + 1, sizeof(*st->qps));
	st->cqs = rs_calloc(nc + 1, sizeof(*st->cqs));
	st->mws = rs_calloc(nm + 1, sizeof(*st->mws));
	st->by_qpn = rs_calloc(size, sizeof(*st->by_qpn));
	if (!st->by_obj || !st->owners || !st->labels ||
	    !st->qps || !st->cqs || !st->mws || !st->by_qpn)
		return -ENOMEM;

	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rs_live *l = &run->live[i];
		struct rdmascn_cq cf;

		if (!rs_as_cq(l, &cf)) {
			struct rs_cqi *c = &st->cqs[st->n_cqs++];

			c->l = l;
			c->rt = cf.rt;
			c->events = cf.events;
			st->by_obj[i] = c;
		} else if (rs_as_mw(l)) {
			struct rs_mwi *m = &st->mws[st->n_mws++];

			m->l = l;
			st->by_obj[i] = m;
		}
	}
	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rs_live *l = &run->live[i];
		struct rdmascn_qp qf;
		struct rs_qpi *q;

		if (rs_as_qp(run, l, &qf))
			continue;
		q = &st->qps[st->n_qps++];
		q->l = l;
		q->info = qf;
		q->rt = qf.rt;
		q->qpn = q->rt->qp ? q->rt->qp->qp_num : 0;
		q->send_cq = by_id(st, qf.send_cq);
		q->recv_cq = by_id(st, qf.recv_cq);
		q->srq = live_of(run, qf.srq);
		st->by_obj[i] = q;
		if (q->rt->qp)
			qpn_insert(st, q);
	}
	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rdmascn_link c;
		struct rs_qpi *a, *b;

		if (rs_as_link(&run->live[i], &c))
			continue;
		a = by_id(st, c.a);
		b = by_id(st, c.b);
		if (!a || !b)
			continue;
		a->peer = b;
		b->peer = a;
		a->link = b->link = c;
		a->conn = &a->link;
		b->conn = &b->link;
	}
	return setup_names(st);
}

void rs_steps_free(struct rs_steps *st)
{
	for (unsigned i = 0; i < st->n_objs; i++) {
		if (st->owners)
			rs_free(st->owners[i]);
		if (st->labels)
			rs_free(st->labels[i]);
	}
	rs_free(st->owners);
	rs_free(st->labels);
	rs_free(st->watch_objs);
	rs_free(st->by_obj);
	rs_free(st->by_qpn);
	rs_free(st->qps);
	rs_free(st->cqs);
	rs_free(st->mws);
	pthread_mutex_destroy(&st->lock);
}

struct rs_qpi *rs_step_qp(struct rs_step_run *sr, const char *id)
{
	return by_id(sr->st, id);
}

struct rs_cqi *rs_step_cq(struct rs_step_run *sr, const char *id)
{
	return by_id(sr->st, id);
}

struct rs_mwi *rs_step_mw(struct rs_step_run *sr, const char *id)
{
	return by_id(sr->st, id);
}

struct rs_owner *rs_step_owner(struct rs_step_run *sr, unsigned n_lanes,
			       int expect)
{
	struct rs_owner *o;

	if (n_lanes > RS_MAX_LANES)
		return NULL;
	o = rs_calloc_aligned(RS_CACHELINE,
			      sizeof(*o) + n_lanes * sizeof(o->lanes[0]));
	if (!o)
		return NULL;
	o->obj = sr->obj;
	o->label = sr->label;
	o->expect = expect;
	o->n_lanes = n_lanes;
	for (unsigned i = 0; i < n_lanes; i++) {
		o->lanes[i].op = "send";
		atomic_init(&o->lanes[i].sr, sr);
	}
	/* A step runs once; a record left from before would be a bug. */
	rs_free(sr->st->owners[sr->obj->index]);
	sr->st->owners[sr->obj->index] = o;
	sr->owner = o;
	sr->serves = o;
	return o;
}
