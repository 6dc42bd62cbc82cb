// SPDX-License-Identifier: MIT
/*
 * Stragglers: a counted step's elements set beside each other, from the
 * run record (this node's steps and, on the leader, every other node's
 * in node_runs).  Numbers stay numbers here; the reporters print them
 * with rs_straggler_head() and rs_straggler_elem().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "figures.h"
#include "stragglers.h"
#include "value.h"

/* The entries of one counted step, from every record. */
struct group {
	const char *step;                  /* "1" */
	unsigned long no;                  /* its number, for the order */
	const struct rs_val **e;
	size_t n, cap;
};

struct elem {
	const struct rs_val *entry;
	uint64_t index;
	double value;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double rs_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int cmp_index(const void *a, const void *b)
{
	const struct elem *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* Worst first: high values first where lower is better; ties in element
 * order, so that a run's summary does not depend on qsort. */
static int cmp_worst_low(const void *a, const void *b)
{
	const struct elem *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? 1 : -1;
	return cmp_index(a, b);
}

static int cmp_worst_high(const void *a, const void *b)
{
	const struct elem *x = a, *y = b;

	if (x->value != y->value)
		return x->value > y->value ? 1 : -1;
	return cmp_index(a, b);
}

static struct group *group_of(struct group **gs, size_t *n, size_t *cap,
			      const char *step)
{
	struct group *g;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*gs)[i].step, step))
			return &(*gs)[i];
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 8;
		struct group *p = rs_reallocarray(*gs, c, sizeof(*p));

		if (!p)
			return NULL;
		*gs = p;
		*cap = c;
	}
	g = &(*gs)[(*n)++];
	memset(g, 0, sizeof(*g));
	g->step = step;
	g->no = strtoul(step, NULL, 10);
	return g;
}

static int group_add(struct group *g, const struct rs_val *e)
{
	if (g->n == g->cap) {
		size_t c = g->cap ? 2 * g->cap : 16;
		const struct rs_val **p = rs_reallocarray(g->e, c, sizeof(*p));

		if (!p)
			return -ENOMEM;
		g->e = p;
		g->cap = c;
	}
	g->e[g->n++] = e;
	return 0;
}

static int collect(const struct rs_val *rec, struct group **gs, size_t *n,
		   size_t *cap)
{
	const struct rs_val *steps = rs_val_get(rec, "steps");

	for (size_t i = 0; i < rs_val_len(steps); i++) {
		const struct rs_val *e = rs_val_at(steps, i);
		const struct rs_val *el = rs_val_get(e, "element");
		struct group *g;

		if (!el || !rs_val_get_str(el, "step"))
			continue;
		g = group_of(gs, n, cap, rs_val_get_str(el, "step"));
		if (!g || group_add(g, e))
			return -ENOMEM;
	}
	return 0;
}

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return (x->no > y->no) - (x->no < y->no);
}

/* Does an element of @g bound figure @name by its gate? */
static bool gated(const struct group *g, const char *name)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct rs_val *gates = rs_val_get(g->e[i], "gates");

		for (size_t j = 0; j < rs_val_len(gates); j++) {
			const char *f = rs_val_get_str(rs_val_at(gates, j),
						       "figure");

			if (f && !strcmp(f, name))
				return true;
		}
		if (gates)
			return false;  /* every element has the same gate */
	}
	return false;
}

/* The elements of @g that recorded @f, one each (an element two records
 * hold: the first with the figure), in element order. */
static size_t values(const struct group *g, const struct rs_figure_def *f,
		     struct elem *out)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < g->n; i++) {
		const struct rs_val *fig = rs_val_get(g->e[i], "figures");
		const struct rs_val *grp = fig ? rs_val_get(fig, f->group)
					       : NULL;

		if (!grp || !rs_val_get(grp, f->key))
			continue;
		out[n].entry = g->e[i];
		out[n].index = rs_val_get_u64(rs_val_get(g->e[i], "element"),
					      "index");
		out[n].value = rs_val_get_double(grp, f->key);
		n++;
	}
	/* Stable enough: qsort() then drop repeats, first kept. */
	qsort(out, n, sizeof(*out), cmp_index);
	for (size_t i = 0; i < n; i++)
		if (!k || out[k - 1].index != out[i].index)
			out[k++] = out[i];
	return k;
}

static void put_elem(struct rs_val *arr, const struct elem *x, double median)
{
	struct rs_val *o = rs_val_push_obj(arr);
	const char *id = rs_val_get_str(x->entry, "id");

	if (id)
		rs_val_put_str(o, "element", id);
	else
		rs_val_put_strf(o, "element", "step %s",
				rs_val_text(x->entry, "no"));
	rs_val_put_u64(o, "index", x->index);
	if (rs_val_get_str(x->entry, "node"))
		rs_val_put_str(o, "node", rs_val_get_str(x->entry, "node"));
	if (rs_val_get_str(x->entry, "peer_node"))
		rs_val_put_str(o, "peer_node",
			       rs_val_get_str(x->entry, "peer_node"));
	rs_val_put_double(o, "value", x->value);
	if (median != 0)
		rs_val_put_double(o, "ratio", x->value / median);
}

static void put_summary(struct rs_val *arr, const struct group *g,
			const struct rs_figure_def *f, struct elem *el,
			size_t n, double *scratch)
{
	struct rs_val *s = rs_val_push_obj(arr), *slow, *fast;
	const char *id = rs_val_get_str(g->e[0], "id");
	size_t k = n / 2 < RS_STRAGGLER_SHOW ? n / 2 : RS_STRAGGLER_SHOW;
	double median;

	for (size_t i = 0; i < n; i++)
		scratch[i] = el[i].value;
	median = rs_median(scratch, n);
	qsort(el, n, sizeof(*el), f->lower_better ? cmp_worst_low :
	      cmp_worst_high);
	rs_val_put_str(s, "step", g->step);
	rs_val_put_str(s, "type", rs_val_text(g->e[0], "type"));
	if (id)
		rs_val_put_strf(s, "id", "%.*s", (int)strcspn(id, "["), id);
	rs_val_put_str(s, "figure", f->name);
	rs_val_put_str(s, "unit", f->unit);
	rs_val_put_u64(s, "elements", n);
	rs_val_put_double(s, "median", median);
	slow = rs_val_put_arr(s, "slowest");
	fast = rs_val_put_arr(s, "fastest");
	for (size_t i = 0; i < k; i++) {
		put_elem(slow, &el[i], median);
		put_elem(fast, &el[n - 1 - i], median);
	}
}

int rs_stragglers(const struct rs_val *rec, struct rs_val **ret_sums)
{
	const struct rs_val *others = rs_val_get(rec, "node_runs");
	struct group *gs = NULL;
	size_t n = 0, cap = 0, most = 0;
	struct rs_val *arr = NULL;
	struct elem *el = NULL;
	double *scratch = NULL;
	int r;

	r = collect(rec, &gs, &n, &cap);
	for (size_t i = 0; !r && i < rs_val_len(others); i++)
		r = collect(rs_val_at(others, i), &gs, &n, &cap);
	for (size_t i = 0; i < n; i++)
		most = gs[i].n > most ? gs[i].n : most;
	if (r || most < RS_STRAGGLER_MIN)
		goto out;
	el = rs_calloc(most, sizeof(*el));
	scratch = rs_calloc(most, sizeof(*scratch));
	arr = rs_val_arr();
	if (!el || !scratch || !arr) {
		r = -ENOMEM;
		goto out;
	}
	qsort(gs, n, sizeof(*gs), cmp_group);
	for (size_t i = 0; i < n; i++) {
		for (unsigned f = 0; f < RS_FIG_COUNT; f++) {
			const struct rs_figure_def *d = &rs_figures[f];
			size_t m;

			if (!d->headline && !gated(&gs[i], d->name))
				continue;
			m = values(&gs[i], d, el);
			if (m >= RS_STRAGGLER_MIN)
				put_summary(arr, &gs[i], d, el, m, scratch);
		}
	}
	r = rs_val_check(arr);
out:
	if (!r) {
		/* Elements, but none with a figure three times. */
		if (arr && !rs_val_len(arr)) {
			rs_val_free(arr);
			arr = NULL;
		}
		*ret_sums = arr;
	} else {
		rs_val_free(arr);
	}
	for (size_t i = 0; i < n; i++)
		rs_free(gs[i].e);
	rs_free(gs);
	rs_free(el);
	rs_free(scratch);
	return r;
}

void rs_straggler_head(const struct rs_val *sum, char *buf, size_t len)
{
	const char *id = rs_val_get_str(sum, "id");

	snprintf(buf, len, "step %s (%s)%s%s%s %s over %llu elements: "
		 "median %g %s", rs_val_text(sum, "step"),
		 rs_val_text(sum, "type"), id ? " '" : "", id ? id : "",
		 id ? "'" : "", rs_val_text(sum, "figure"),
		 (unsigned long long)rs_val_get_u64(sum, "elements"),
		 rs_val_get_double(sum, "median"), rs_val_text(sum, "unit"));
}

void rs_straggler_elem(const struct rs_val *sum, const struct rs_val *el,
		       char *buf, size_t len)
{
	const char *node = rs_val_get_str(el, "node");
	const char *peer = rs_val_get_str(el, "peer_node");
	char nodes[160] = "", ratio[32] = "";

	if (node && peer && strcmp(node, peer))
		snprintf(nodes, sizeof(nodes), " (%s -> %s)", node, peer);
	else if (node)
		snprintf(nodes, sizeof(nodes), " (%s)", node);
	if (rs_val_get(el, "ratio"))
		snprintf(ratio, sizeof(ratio), " %.2fx median",
			 rs_val_get_double(el, "ratio"));
	snprintf(buf, len, "%s%s %g %s%s", rs_val_text(el, "element"), nodes,
		 rs_val_get_double(el, "value"), rs_val_text(sum, "unit"),
		 ratio);
}
