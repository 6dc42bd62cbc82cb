// SPDX-License-Identifier: MIT
/*
 * The strategies of `rdmascn explore` (docs/explore.md), over points of
 * the axes, knowing nothing of runs: a coarse grid, then bisection along
 * each numeric axis for the knee (maximize, minimize) or the boundary
 * between passing and failing (find); the full grid; a seeded annealing
 * walk.  Every choice is a function of the results and the seed, so the
 * same seed asks for the same points in the same order.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "macros.h"
#include "explore_search.h"
#include "stragglers.h"

/* The knee: the smallest value within this many percent of the best on
 * its line, unless the file or --knee says. */
#define KNEE_PCT_DEFAULT 10.0
/* Cells the coarse grid may take when no budget is given. */
#define GRID_TARGET_DEFAULT 32

uint64_t rs_xrand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* In [0, 1). */
static double rand01(uint64_t *state)
{
	return (rs_xrand(state) >> 11) * (1.0 / 9007199254740992.0);
}

static const struct rs_explore_axis *axis(const struct rs_xsearch *x,
					  unsigned a)
{
	return &x->e->axes[a];
}

/* The point's coordinate for index @i of axis @a. */
static int64_t at(const struct rs_explore_axis *ax, unsigned i)
{
	return ax->numeric ? (int64_t)ax->nums[i] : (int64_t)i;
}

/* The index of @v on @ax, or -1 (off the axis: a default). */
static long index_of(const struct rs_explore_axis *ax, int64_t v)
{
	unsigned lo = 0, hi = ax->n;

	if (v == RS_XDEFAULT)
		return -1;
	if (!ax->numeric)
		return v >= 0 && v < ax->n ? v : -1;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if ((int64_t)ax->nums[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ax->n && (int64_t)ax->nums[lo] == v ? (long)lo : -1;
}

bool rs_xbetter(enum rs_explore_goal goal, const struct rs_xresult *a,
		const struct rs_xresult *b)
{
	if (!a->ran || !a->has_value)
		return false;
	if (!b->ran || !b->has_value)
		return true;
	return goal == RS_EXPLORE_MINIMIZE ? a->value < b->value :
	       a->value > b->value;
}

static bool finding(const struct rs_xsearch *x)
{
	return x->e->goal == RS_EXPLORE_FIND_FAIL ||
	       x->e->goal == RS_EXPLORE_FIND_GATE;
}

/* Learn from what @n points gave: the best, the first that failed. */
static void learn(struct rs_xsearch *x, const struct rs_xpoint *pts,
		  const struct rs_xresult *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (!r[i].ran)
			continue;
		if (finding(x) && r[i].fails && !x->found) {
			x->found = true;
			x->failing = pts[i];
			x->failing_r = r[i];
		}
		if (!finding(x) &&
		    (!x->has_best || rs_xbetter(x->e->goal, &r[i], &x->best_r))
		    && r[i].has_value) {
			x->has_best = true;
			x->best = pts[i];
			x->best_r = r[i];
		}
	}
}

static int ask(struct rs_xsearch *x, const char *phase,
		const struct rs_xpoint *pts, unsigned n,
		struct rs_xresult *ret)
{
	int r;

	memset(ret, 0, n * sizeof(*ret));
	r = x->eval(x->ctx, phase, pts, n, ret);
	learn(x, pts, ret, n);
	return r;
}

/* How many values of each axis the coarse grid takes: the same number
 * on each (less where an axis has fewer), its product within @target,
 * both ends of every axis at least. */
static void grid_counts(const struct rs_xsearch *x, unsigned long target,
			unsigned *g)
{
	unsigned k = x->e->n_axes, per = 2;

	for (;;) {
		unsigned long prod = 1;

		for (unsigned a = 0; a < k; a++) {
			unsigned n = axis(x, a)->n;

			prod *= per + 1 < n ? per + 1 : n;
		}
		if (prod > target || per + 1 > RS_EXPLORE_AXIS_MAX)
			break;
		per++;
	}
	for (unsigned a = 0; a < k; a++)
		g[a] = per < axis(x, a)->n ? per : axis(x, a)->n;
}

/* Index @j of @g evenly spread over an axis of @n values, both ends in. */
static unsigned spread(unsigned j, unsigned g, unsigned n)
{
	if (g <= 1 || n <= 1)
		return 0;
	return (unsigned)(((uint64_t)j * (n - 1) + (g - 1) / 2) / (g - 1));
}

/* Every combination of @g values per axis (first axis outermost): the
 * coarse grid, or with every g[a] = n the full one.  At most @max. */
static int grid(struct rs_xsearch *x, const unsigned *g, const char *phase)
{
	unsigned k = x->e->n_axes, pos[RS_EXPLORE_AXES_MAX] = { 0 };
	struct rs_xpoint *pts;
	struct rs_xresult *res;
	unsigned long total = 1;
	unsigned chunk = 64, n = 0;
	int r = 0;

	for (unsigned a = 0; a < k; a++)
		total *= g[a];
	pts = rs_calloc(chunk, sizeof(*pts));
	res = rs_calloc(chunk, sizeof(*res));
	if (!pts || !res) {
		rs_free(pts);
		rs_free(res);
		return -ENOMEM;
	}
	for (unsigned long i = 0; i < total && !r; i++) {
		struct rs_xpoint *p = &pts[n++];

		for (unsigned a = 0; a < RS_EXPLORE_AXES_MAX; a++)
			p->v[a] = a < k ? at(axis(x, a), spread(pos[a], g[a],
						axis(x, a)->n)) : 0;
		/* The last axis turns fastest. */
		for (unsigned a = k; a-- > 0;) {
			if (++pos[a] < g[a])
				break;
			pos[a] = 0;
		}
		if (n == chunk || i + 1 == total) {
			r = ask(x, phase, pts, n, res);
			n = 0;
		}
	}
	rs_free(pts);
	rs_free(res);
	return r;
}

/* What is known along one axis through a point.  For a knee, each
 * value's scores: its figure's ratio to the best figure of each round it
 * ran in (runs[i] of them, tries[i] runs asked for), and val[i] their
 * median. */
struct line {
	unsigned n;
	bool *known, *ok;
	double *val;
	unsigned *cell;
	double (*fig)[RS_EXPLORE_REPEAT_MAX];
	unsigned *runs, *tries;
	unsigned last_cell;      /* the newest cell a round of it ran */
};

static int line_init(struct line *l, unsigned n)
{
	l->n = n;
	l->last_cell = 0;
	l->known = rs_calloc(n, sizeof(*l->known));
	l->ok = rs_calloc(n, sizeof(*l->ok));
	l->val = rs_calloc(n, sizeof(*l->val));
	l->cell = rs_calloc(n, sizeof(*l->cell));
	l->fig = rs_calloc(n, sizeof(*l->fig));
	l->runs = rs_calloc(n, sizeof(*l->runs));
	l->tries = rs_calloc(n, sizeof(*l->tries));
	return l->known && l->ok && l->val && l->cell && l->fig &&
	       l->runs && l->tries ? 0 : -ENOMEM;
}

static void line_free(struct line *l)
{
	rs_free(l->known);
	rs_free(l->ok);
	rs_free(l->val);
	rs_free(l->cell);
	rs_free(l->fig);
	rs_free(l->runs);
	rs_free(l->tries);
}

/* One more score of value @i; its value becomes their median. */
static void line_add(struct line *l, unsigned i, double v)
{
	double sorted[RS_EXPLORE_REPEAT_MAX];
	unsigned n;

	if (l->runs[i] >= RS_EXPLORE_REPEAT_MAX)
		return;
	l->fig[i][l->runs[i]++] = v;
	n = l->runs[i];
	memcpy(sorted, l->fig[i], n * sizeof(*sorted));
	l->val[i] = rs_median(sorted, n);
	l->ok[i] = true;
}

/* Run the indices @idx (n of them) of axis @a through @through: for the
 * boundary, whether each fails. */
static int line_eval(struct rs_xsearch *x, const char *phase, unsigned a,
		     const struct rs_xpoint *through, const unsigned *idx,
		     unsigned n, struct line *l)
{
	struct rs_xpoint pts[64] = { 0 };
	struct rs_xresult res[64];
	int r;

	if (n > 64)
		n = 64;
	for (unsigned i = 0; i < n; i++) {
		pts[i] = *through;
		pts[i].v[a] = at(axis(x, a), idx[i]);
	}
	r = ask(x, phase, pts, n, res);
	for (unsigned i = 0; i < n; i++) {
		if (!res[i].ran)
			continue;
		l->known[idx[i]] = true;
		l->cell[idx[i]] = res[i].cell;
		l->tries[idx[i]]++;
		l->ok[idx[i]] = res[i].fails;
	}
	return r;
}

/* The grid's indices of axis @a: so that a line knows what the grid
 * ran through its point (answered from what ran, mostly). */
static int line_grid(struct rs_xsearch *x, const char *phase, unsigned a,
		     const struct rs_xpoint *through, const unsigned *g,
		     struct line *l)
{
	unsigned idx[64], n = 0, ga = g[a] < 64 ? g[a] : 64;

	for (unsigned j = 0; j < ga; j++)
		idx[n++] = spread(j, ga, axis(x, a)->n);
	return line_eval(x, phase, a, through, idx, n, l);
}

/* @v's ratio to @best, the best figure of its round: 1 for the best, less
 * for the others, of their size (a figure may be negative: a counter's
 * delta). */
static double ratio(enum rs_explore_goal goal, double v, double best)
{
	double d = goal == RS_EXPLORE_MINIMIZE ? v - best : best - v;

	if (d <= 0)
		return 1;
	if (!best)
		return 0;
	d /= fabs(best);
	return d >= 1 ? 0 : 1 - d;
}

/*
 * A round of the knee: the values @idx (n of them, none twice) of axis @a
 * through @through run back to back, and each scored by its figure's
 * ratio to the best figure of the round.  A value asked for before runs
 * again (@again: phase "repeat", a cell of its own) or is answered from
 * its cell (the grid's round); a new one is a cell of phase "bisect".
 * What a busy minute of the host takes, it takes from every value of
 * the round, and the ratios do not move; a lucky or a starved single
 * run moves one score of several, not the median.
 */
static int line_round(struct rs_xsearch *x, unsigned a,
		      const struct rs_xpoint *through, const unsigned *idx,
		      unsigned n, bool again, struct line *l)
{
	struct rs_xpoint pts[2][64];
	struct rs_xresult res[2][64];
	unsigned at_[2][64], k[2] = { 0, 0 };
	enum rs_explore_goal goal = x->e->goal;
	bool any = false;
	double best = 0;
	int r = 0;

	for (unsigned i = 0; i < n && i < 64; i++) {
		unsigned w = again && l->known[idx[i]];

		pts[w][k[w]] = *through;
		pts[w][k[w]].v[a] = at(axis(x, a), idx[i]);
		at_[w][k[w]++] = idx[i];
	}
	/* New values first, then the repeats: with --jobs, each set runs at
	 * once. */
	if (k[0])
		r = ask(x, "bisect", pts[0], k[0], res[0]);
	/* A new value of the line that ran before (the anneal walk's, or
	 * another line's) is answered from that cell, of another moment:
	 * in a round after the grid's it runs again, with the round. */
	for (unsigned j = 0; again && !r && j < k[0]; j++)
		if (res[0][j].ran && res[0][j].cell <= l->last_cell &&
		    k[1] < 64) {
			pts[1][k[1]] = pts[0][j];
			at_[1][k[1]++] = at_[0][j];
			res[0][j].ran = false;
		}
	if (k[1] && !r)
		r = ask(x, "repeat", pts[1], k[1], res[1]);
	for (unsigned w = 0; w < 2; w++)
		for (unsigned j = 0; j < k[w]; j++) {
			const struct rs_xresult *q = &res[w][j];
			unsigned i = at_[w][j];

			if (!q->ran)
				continue;
			if (q->cell > l->last_cell)
				l->last_cell = q->cell;
			if (!l->known[i])
				l->cell[i] = q->cell;
			l->known[i] = true;
			l->tries[i]++;
			if (q->has_value &&
			    (!any || (goal == RS_EXPLORE_MINIMIZE ?
				      q->value < best : q->value > best))) {
				best = q->value;
				any = true;
			}
		}
	for (unsigned w = 0; w < 2 && any; w++)
		for (unsigned j = 0; j < k[w]; j++)
			if (res[w][j].ran && res[w][j].has_value)
				line_add(l, at_[w][j], ratio(goal,
					 res[w][j].value, best));
	return r;
}

/* Up to @batch indices evenly between @lo and @hi (both out). */
static unsigned between(unsigned lo, unsigned hi, unsigned batch,
			unsigned *idx)
{
	unsigned gap = hi - lo, n = 0;

	if (gap <= 1)
		return 0;
	if (batch > gap - 1)
		batch = gap - 1;
	if (batch > 63)
		batch = 63;
	for (unsigned j = 1; j <= batch; j++) {
		unsigned i = lo + (unsigned)((uint64_t)gap * j / (batch + 1));

		if (i > lo && i < hi && (!n || idx[n - 1] != i))
			idx[n++] = i;
	}
	return n;
}

/* @i, unless @idx (n of them) has it already. */
static unsigned add_once(unsigned *idx, unsigned n, long i)
{
	if (i < 0)
		return n;
	for (unsigned j = 0; j < n; j++)
		if (idx[j] == (unsigned)i)
			return n;
	idx[n] = i;
	return n + 1;
}

/*
 * The knee of numeric axis @a on the line through the best point: the
 * smallest value whose score (the median of its ratios to the best
 * figure of each round it ran in) reaches 100 - knee percent (90% by
 * default) of the plateau, the best score.  The grid's values are the
 * first round; then bisection between the knee and the known value
 * short of it, each round the new values and the best; then, with
 * repeat, rounds of the best, the knee and the value short of it until
 * each has repeat scores.  Whatever a round changes is judged again.
 * On a pow2 axis the bisection ends on a power of two; of equal scores
 * the smaller value is the knee and the best.
 */
static int knee(struct rs_xsearch *x, unsigned a, const unsigned *g)
{
	const struct rs_explore_axis *ax = axis(x, a);
	double p = (x->e->knee_pct ? x->e->knee_pct : KNEE_PCT_DEFAULT) / 100;
	unsigned want = x->e->repeat > 1 ? x->e->repeat : 1;
	struct rs_xpoint through = x->best;
	unsigned idx[64], n = 0, ga = g[a] < 64 ? g[a] : 64;
	struct line l;
	int r = line_init(&l, ax->n);

	if (r) {
		line_free(&l);
		return r;
	}
	/* The grid's values through the best: the first round. */
	for (unsigned j = 0; j < ga; j++)
		n = add_once(idx, n, spread(j, ga, ax->n));
	r = line_round(x, a, &through, idx, n, false, &l);
	for (;;) {
		long h = -1, lo = -1, b = -1, u = -1, m = -1;

		for (unsigned i = 0; i < ax->n; i++)
			if (l.known[i] && l.ok[i] &&
			    (m < 0 || l.val[i] > l.val[m]))
				m = i;
		if (m < 0)
			break;
		/* The plateau's start: the smallest value within half the
		 * knee's percent of the best score.  A value above it that
		 * only ties it on another round is no reason to walk up. */
		for (unsigned i = 0; i < ax->n && b < 0; i++)
			if (l.known[i] && l.ok[i] &&
			    l.val[i] >= l.val[m] * (1 - p / 2))
				b = i;
		for (unsigned i = 0; i < ax->n && h < 0; i++)
			if (l.known[i] && l.ok[i] &&
			    l.val[i] >= l.val[m] * (1 - p))
				h = i;
		for (long i = h - 1; i >= 0 && lo < 0; i--)
			if (l.known[i])
				lo = i;
		for (unsigned i = b + 1; i < ax->n && u < 0; i++)
			if (l.known[i] && l.ok[i])
				u = i;
		x->has_knee[a] = true;
		x->knee[a] = at(ax, h);
		x->knee_cell[a] = l.cell[h];
		x->knee_score[a] = l.val[h];
		x->has_short[a] = lo >= 0;
		x->short_of[a] = lo >= 0 ? at(ax, lo) : 0;
		x->short_score[a] = lo >= 0 && l.ok[lo] ? l.val[lo] : 0;
		if (r)
			break;
		/* Bisect: the values between, and the best again, with the
		 * value above it: a best that was one lucky run is beaten
		 * there, in the same round, and the plateau moves up. */
		n = lo < 0 ? 0 : between(lo, h, x->batch, idx);
		if (n) {
			n = add_once(idx, n, b);
			if (want > 1)
				n = add_once(idx, n, u);
		} else {
			/* Neighbours: the ones that decide, until each has
			 * its scores: the knee, the value short of it, the
			 * best and the value above the best (the plateau
			 * holds where the best is not beaten by it). */
			long which[] = { b, h, lo, u };

			for (unsigned w = 0; w < RS_N(which); w++)
				if (which[w] >= 0 && l.runs[which[w]] < want &&
				    l.tries[which[w]] < want + 2)
					n = add_once(idx, n, which[w]);
			/* The best beside them: each round has the
			 * plateau to compare with. */
			if (n)
				n = add_once(idx, n, b);
			if (n == 1)
				n = add_once(idx, n, lo >= 0 ? lo : h);
			if (n == 1)
				n = 0;
		}
		if (!n)
			break;
		r = line_round(x, a, &through, idx, n, true, &l);
	}
	line_free(&l);
	return r;
}

/*
 * The boundary on numeric axis @a through the failing point: the passing
 * value nearest it on the line (the grid's first), then bisection
 * between the two down to neighbours on the axis.
 */
static int boundary(struct rs_xsearch *x, unsigned a, const unsigned *g)
{
	const struct rs_explore_axis *ax = axis(x, a);
	struct rs_xpoint through = x->failing;
	long f = index_of(ax, through.v[a]);
	struct line l;
	int r;

	if (f < 0)
		return 0;
	r = line_init(&l, ax->n);
	if (r) {
		line_free(&l);
		return r;
	}
	/* Past the budget, the boundary of what is known. */
	r = line_grid(x, "bisect", a, &through, g, &l);
	l.known[f] = true;
	l.ok[f] = true;
	for (;;) {
		long p = -1;
		unsigned idx[64], n;

		/* The nearest that passed, below first on a tie. */
		for (unsigned d = 1; d < ax->n && p < 0; d++) {
			if (f >= (long)d && l.known[f - d] && !l.ok[f - d])
				p = f - d;
			else if (f + d < ax->n && l.known[f + d] &&
				 !l.ok[f + d])
				p = f + d;
		}
		if (p < 0)
			break;
		/* The failing value nearest the passing one. */
		for (long i = f; i != p; i += p > f ? 1 : -1)
			if (l.known[i] && l.ok[i])
				f = i;
		x->has_boundary[a] = true;
		x->pass[a] = at(ax, p);
		x->fail[a] = at(ax, f);
		n = between(p < f ? p : f, p < f ? f : p, x->batch, idx);
		if (!n || r)
			break;
		r = line_eval(x, "bisect", a, &through, idx, n, &l);
	}
	line_free(&l);
	return r;
}

/* Knees or boundaries along every numeric axis, from what was found. */
static int refine(struct rs_xsearch *x, const unsigned *g)
{
	int r = 0;

	for (unsigned a = 0; a < x->e->n_axes && !r; a++) {
		if (!axis(x, a)->numeric || axis(x, a)->n < 2)
			continue;
		if (finding(x) && x->found)
			r = boundary(x, a, g);
		else if (!finding(x) && x->has_best)
			r = knee(x, a, g);
	}
	return r;
}

/* How good @r is, lower better: find's failing is 0. */
static double energy(const struct rs_xsearch *x, const struct rs_xresult *r,
		     double scale)
{
	if (finding(x))
		return r->ran && r->fails ? 0 : 1;
	if (!r->ran || !r->has_value)
		return INFINITY;
	return (x->e->goal == RS_EXPLORE_MINIMIZE ? r->value : -r->value) /
	       scale;
}

static int anneal(struct rs_xsearch *x)
{
	unsigned k = x->e->n_axes, batch = x->batch ? x->batch : 1;
	/* maximize, minimize: a quarter left for the knees; half with
	 * repeat, whose runs of the deciding cells are cells too. */
	unsigned long limit = !x->budget ? 48 : finding(x) ? x->budget :
			      x->e->repeat > 1 ? x->budget / 2 :
			      x->budget * 3 / 4, tries = 0, used;
	struct rs_xpoint cur, pts[64];
	struct rs_xresult cur_r, res[64];
	double t = 1, scale = 1, e_cur;
	int r;

	if (batch > 64)
		batch = 64;
	for (unsigned a = 0; a < RS_EXPLORE_AXES_MAX; a++)
		cur.v[a] = a < k ? at(axis(x, a), rs_xrand(&x->rng) %
					axis(x, a)->n) : 0;
	r = ask(x, "anneal", &cur, 1, &cur_r);
	if (r)
		return r;
	if (cur_r.has_value && cur_r.value)
		scale = fabs(cur_r.value);
	e_cur = energy(x, &cur_r, scale);
	used = cur_r.cell;
	/* A point run before costs nothing: a cap on tries as well. */
	while (tries++ < limit * 4 && used < limit &&
	       !(finding(x) && x->found)) {
		unsigned best = 0;

		for (unsigned j = 0; j < batch; j++) {
			unsigned a = rs_xrand(&x->rng) % k;
			const struct rs_explore_axis *ax = axis(x, a);
			long i = index_of(ax, cur.v[a]), reach, d;

			/* Far while hot, near as it cools. */
			reach = (long)(ax->n * t / 2);
			d = 1 + (reach > 1 ? (long)(rs_xrand(&x->rng) % reach) :
				 0);
			if (rs_xrand(&x->rng) & 1)
				d = -d;
			if (i + d < 0 || i + d >= (long)ax->n)
				d = -d;
			i += d;
			if (i < 0)
				i = 0;
			if (i >= (long)ax->n)
				i = ax->n - 1;
			pts[j] = cur;
			pts[j].v[a] = at(ax, i);
		}
		r = ask(x, "anneal", pts, batch, res);
		for (unsigned j = 1; j < batch; j++)
			if (energy(x, &res[j], scale) <
			    energy(x, &res[best], scale))
				best = j;
		if (res[best].ran) {
			double e_new = energy(x, &res[best], scale);

			if (e_new <= e_cur || (isfinite(e_new) &&
			    rand01(&x->rng) < exp(-(e_new - e_cur) / t))) {
				cur = pts[best];
				e_cur = e_new;
			}
		}
		for (unsigned j = 0; j < batch; j++)
			if (res[j].cell > used)
				used = res[j].cell;
		/* find: every cell that passes is as good as the next, so
		 * the walk keeps its long jumps until one fails. */
		if (!finding(x))
			t *= 0.85;
		if (r)
			return r;
	}
	return 0;
}

int rs_xsearch_run(struct rs_xsearch *x)
{
	unsigned g[RS_EXPLORE_AXES_MAX], full[RS_EXPLORE_AXES_MAX];
	unsigned long target = x->budget ? x->budget / 2 : GRID_TARGET_DEFAULT;
	int r;

	/* A knee judged on repeat scores: a third of the budget for the
	 * grid, the rest for the rounds that bisect and repeat. */
	if (x->budget && !finding(x) && x->e->repeat > 1)
		target = x->budget / 3;

	if (!x->batch)
		x->batch = 1;
	x->rng = x->e->seed;
	for (unsigned a = 0; a < x->e->n_axes; a++)
		full[a] = axis(x, a)->n;
	grid_counts(x, target < 2 ? 2 : target, g);
	switch (x->e->strategy) {
	case RS_EXPLORE_S_GRID:
		r = grid(x, full, "grid");
		if (!r)
			r = refine(x, full);
		break;
	case RS_EXPLORE_S_ANNEAL:
		r = anneal(x);
		if (!r)
			r = refine(x, g);
		break;
	default:
		r = grid(x, g, "grid");
		if (!r)
			r = refine(x, g);
		break;
	}
	return r;
}

/* --- shrinking --------------------------------------------------------- */

struct shrink {
	const struct rs_explore *e;
	rs_xeval_fn eval;
	void *ctx;
	const char *sig;
	struct rs_xpoint fail, dflt, best;
	struct rs_xresult best_r;
	int err;
};

/* Whether @p fails as the point being shrunk did. */
static bool same(struct shrink *s, const struct rs_xpoint *p)
{
	struct rs_xresult r = { 0 };
	int e;

	if (s->err)
		return false;
	e = s->eval(s->ctx, "shrink", p, 1, &r);
	if (e)
		s->err = e;
	if (!r.ran || !r.fails || !r.sig || strcmp(r.sig, s->sig))
		return false;
	s->best = *p;
	s->best_r = r;
	return true;
}

/* The point with the axes of @set (a bit each) at the failing values,
 * the others at their defaults. */
static bool same_set(struct shrink *s, unsigned set)
{
	struct rs_xpoint p = s->dflt;

	for (unsigned a = 0; a < s->e->n_axes; a++)
		if (set & (1u << a))
			p.v[a] = s->fail.v[a];
	return same(s, &p);
}

static unsigned popcount(unsigned v)
{
	return (unsigned)__builtin_popcount(v);
}

/* The @i-th of @n chunks of the bits of @set. */
static unsigned chunk(unsigned set, unsigned n, unsigned i)
{
	unsigned bits = popcount(set), lo = bits * i / n;
	unsigned hi = bits * (i + 1) / n;
	unsigned out = 0, k = 0;

	for (unsigned a = 0; a < 32; a++) {
		if (!(set & (1u << a)))
			continue;
		if (k >= lo && k < hi)
			out |= 1u << a;
		k++;
	}
	return out;
}

/* Zeller's ddmin over the changed axes: a 1-minimal set that still
 * fails the same way. */
static unsigned ddmin(struct shrink *s, unsigned set)
{
	unsigned n = 2;

	if (same_set(s, 0))
		return 0;
	while (popcount(set) >= 2 && !s->err) {
		bool reduced = false;

		for (unsigned i = 0; i < n && !reduced; i++) {
			unsigned d = chunk(set, n, i);

			if (d && d != set && same_set(s, d)) {
				set = d;
				n = 2;
				reduced = true;
			}
		}
		for (unsigned i = 0; i < n && !reduced && n > 2; i++) {
			unsigned c = set & ~chunk(set, n, i);

			if (c && c != set && same_set(s, c)) {
				set = c;
				n = n - 1 > 2 ? n - 1 : 2;
				reduced = true;
			}
		}
		if (reduced)
			continue;
		if (n >= popcount(set))
			break;
		n = 2 * n < popcount(set) ? 2 * n : popcount(set);
	}
	return set;
}

int rs_xshrink(const struct rs_explore *e, rs_xeval_fn eval, void *ctx,
	       const struct rs_xpoint *fail, const char *sig,
	       const struct rs_xpoint *dflt, struct rs_xpoint *ret,
	       struct rs_xresult *ret_r)
{
	struct shrink s = {
		.e = e, .eval = eval, .ctx = ctx, .sig = sig, .fail = *fail,
		.dflt = *dflt, .best = *fail,
	};
	unsigned set = 0;

	for (unsigned a = 0; a < e->n_axes; a++)
		if (fail->v[a] != dflt->v[a])
			set |= 1u << a;
	/* The failing point itself: its result (a point run before is
	 * answered from its cell), and that it fails as @sig says. */
	if (!same(&s, fail))
		goto out;
	set = ddmin(&s, set);
	s.fail = s.best;
	/* Each numeric axis left, towards its default, by halves: the
	 * value nearest the default that still fails the same way. */
	for (unsigned a = 0; a < e->n_axes && !s.err; a++) {
		int64_t lo = dflt->v[a], hi;

		if (!(set & (1u << a)) || !e->axes[a].numeric ||
		    lo == RS_XDEFAULT)
			continue;
		hi = s.best.v[a];
		while ((hi > lo ? hi - lo : lo - hi) > 1 && !s.err) {
			struct rs_xpoint p = s.best;

			p.v[a] = lo + (hi - lo) / 2;
			if (same(&s, &p))
				hi = p.v[a];
			else
				lo = p.v[a];
		}
	}
out:
	*ret = s.best;
	if (ret_r)
		*ret_r = s.best_r;
	return s.err;
}
