// SPDX-License-Identifier: MIT
/*
 * The plan: a topological order of the objects (creation; teardown is its
 * reverse) and of the steps (execution).  Among the ready nodes the one
 * declared first goes first, so the same file always gives the same plan.
 * A cycle is reported with its whole path, at the field that starts it.
 */
#include <errno.h>
#include <string.h>

#include "alloc.h"
#include "model.h"

struct heap {
	unsigned *v;
	unsigned n;
};

static void heap_push(struct heap *h, unsigned x)
{
	unsigned i = h->n++;

	while (i && h->v[(i - 1) / 2] > x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static unsigned heap_pop(struct heap *h)
{
	unsigned top = h->v[0], x = h->v[--h->n], i = 0;

	for (;;) {
		unsigned c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1] < h->v[c])
			c++;
		if (x <= h->v[c])
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = x;
	return top;
}

/* Follow edges among the unplaced nodes from @start until one repeats. */
static void report_cycle(struct rs_scenario *s, const unsigned *indeg,
			 unsigned start, struct rs_diag *d)
{
	unsigned *seen = rs_calloc(s->n_objs, sizeof(*seen));
	unsigned *path = rs_calloc(s->n_objs + 1, sizeof(*path));
	const char **via = rs_calloc(s->n_objs + 1, sizeof(*via));
	unsigned cur = start, len = 0, first;
	char msg[1024];
	size_t o = 0;

	if (!seen || !path || !via) {
		/* @start is on the cycle or waits on it; say where it is. */
		rs_obj_error(d, &s->objs[start], NULL, "in or behind a "
			     "dependency cycle (out of memory while tracing "
			     "it)");
		goto out;
	}
	/* seen[i] = position + 1 on the path */
	while (!seen[cur]) {
		struct rs_obj *ob = &s->objs[cur];
		unsigned next = cur;

		seen[cur] = ++len;
		path[len - 1] = cur;
		for (unsigned e = 0; e < ob->n_edges; e++) {
			unsigned t = ob->edges[e].to->index;

			if (indeg[t]) {
				next = t;
				via[len - 1] = rs_edge_field(ob,
							     &ob->edges[e]);
				break;
			}
		}
		cur = next;
	}
	first = seen[cur] - 1;
	for (unsigned i = first; i < len && o < sizeof(msg); i++)
		o += snprintf(msg + o, sizeof(msg) - o, "%s -(%s)-> ",
			      s->objs[path[i]].name, via[i]);
	if (o < sizeof(msg))
		snprintf(msg + o, sizeof(msg) - o, "%s", s->objs[cur].name);
	rs_obj_error(d, &s->objs[path[first]], via[first], "dependency cycle: %s",
		     msg);
out:
	rs_free(seen);
	rs_free(path);
	rs_free(via);
}

int rs_graph_plan(struct rs_scenario *s, struct rs_diag *d)
{
	unsigned n = s->n_objs, *indeg, *off, *users, placed = 0, nc = 0;
	struct heap h = { 0 };
	int r = 0;

	indeg = rs_calloc(n + 1, sizeof(*indeg));
	off = rs_calloc(n + 2, sizeof(*off));
	h.v = rs_calloc(n + 1, sizeof(*h.v));
	s->create = rs_calloc(s->n_objects + 1, sizeof(*s->create));
	s->steps = rs_calloc(n - s->n_objects + 1, sizeof(*s->steps));
	if (!indeg || !off || !h.v || !s->create || !s->steps) {
		r = -ENOMEM;
		goto out;
	}
	/* Dependants in CSR form: users[off[t]..off[t+1]) depend on t. */
	for (unsigned i = 0; i < n; i++)
		for (unsigned e = 0; e < s->objs[i].n_edges; e++)
			off[s->objs[i].edges[e].to->index + 1]++;
	for (unsigned i = 0; i < n; i++)
		off[i + 1] += off[i];
	users = rs_calloc(off[n] + 1, sizeof(*users));
	if (!users) {
		r = -ENOMEM;
		goto out;
	}
	{
		unsigned *fill = rs_calloc(n + 1, sizeof(*fill));

		if (!fill) {
			rs_free(users);
			r = -ENOMEM;
			goto out;
		}
		for (unsigned i = 0; i < n; i++)
			for (unsigned e = 0; e < s->objs[i].n_edges; e++) {
				unsigned t = s->objs[i].edges[e].to->index;

				users[off[t] + fill[t]++] = i;
			}
		rs_free(fill);
	}
	for (unsigned i = 0; i < n; i++) {
		indeg[i] = s->objs[i].n_edges;
		if (!indeg[i])
			heap_push(&h, i);
	}
	while (h.n) {
		unsigned i = heap_pop(&h);
		struct rs_obj *o = &s->objs[i];

		placed++;
		if (o->kind->step)
			s->steps[s->n_steps++] = o;
		else
			s->create[nc++] = o;
		for (unsigned u = off[i]; u < off[i + 1]; u++)
			if (!--indeg[users[u]])
				heap_push(&h, users[u]);
	}
	if (placed < n) {
		for (unsigned i = 0; i < n; i++)
			if (indeg[i]) {
				report_cycle(s, indeg, i, d);
				break;
			}
		r = -EINVAL;
	}
	rs_free(users);
out:
	rs_free(indeg);
	rs_free(off);
	rs_free(h.v);
	return r;
}
