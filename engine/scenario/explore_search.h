/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_EXPLORE_SEARCH_H
#define RDMASCN_EXPLORE_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "explore.h"

/*
 * The search and the shrinking of `rdmascn explore`, engine-agnostic:
 * they pick points of the axes and learn what each gave through @eval,
 * which runs them (cells in processes, for the command; a function, for
 * the unit tests).  Same axes, goal, strategy and seed: the same points
 * asked for in the same order.
 */

/* A point: per axis, a numeric axis's number or a list axis's index;
 * RS_XDEFAULT, the param's own value (the file's default or --set). */
#define RS_XDEFAULT INT64_MIN
struct rs_xpoint {
	int64_t v[RS_EXPLORE_AXES_MAX];
};

/* What a point gave. */
struct rs_xresult {
	bool ran;                /* it ran to a verdict */
	bool has_value;          /* maximize/minimize: the figure was there */
	double value;
	bool fails;              /* find: it failed (fail: did not pass;
				  * gate: a gate missed) */
	const char *sig;         /* how it failed: verdict, where, error
				  * class; "fails the same way" is equal
				  * text.  The evaluator's; lives as long */
	unsigned cell;           /* the evaluator's number for it (1-) */
};

/*
 * Run @n points (at once, if the evaluator can) as phase @phase
 * ("grid", "bisect", "anneal", "shrink"); their results to @ret.  A
 * point run before is answered from what it gave, not run again.  0;
 * -ENOSPC: the budget ran out (the points past it have ran false);
 * -EINTR: interrupted; other -errno: stop.
 */
typedef int (*rs_xeval_fn)(void *ctx, const char *phase,
			   const struct rs_xpoint *pts, unsigned n,
			   struct rs_xresult *ret);

struct rs_xsearch {
	const struct rs_explore *e;  /* axes, goal, strategy, seed, knee */
	rs_xeval_fn eval;
	void *ctx;
	unsigned batch;          /* points asked for at once (--jobs) */
	unsigned long budget;    /* cells, for the grid's coarseness */
	/* What it found. */
	bool has_best;
	struct rs_xpoint best;
	struct rs_xresult best_r;
	/* Per numeric axis: the knee (maximize/minimize), the boundary
	 * (find): the last value that passed, the first that failed, on
	 * the line through the best or the failing point. */
	bool has_knee[RS_EXPLORE_AXES_MAX];
	int64_t knee[RS_EXPLORE_AXES_MAX];
	unsigned knee_cell[RS_EXPLORE_AXES_MAX];
	/* The knee's score, the median of its ratios to the best of each
	 * round it ran in; the value short of it and its score (has_short
	 * false: the knee is the axis's first value). */
	double knee_score[RS_EXPLORE_AXES_MAX];
	bool has_short[RS_EXPLORE_AXES_MAX];
	int64_t short_of[RS_EXPLORE_AXES_MAX];
	double short_score[RS_EXPLORE_AXES_MAX];
	bool has_boundary[RS_EXPLORE_AXES_MAX];
	int64_t pass[RS_EXPLORE_AXES_MAX], fail[RS_EXPLORE_AXES_MAX];
	bool found;              /* find: a failing point */
	struct rs_xpoint failing;
	struct rs_xresult failing_r;
	uint64_t rng;
};

/* The search @x->e->strategy says, from @x's fields; its findings in
 * @x.  0 (done), or the first error @eval returned (-ENOSPC: the budget
 * is spent; what was found so far is in @x all the same). */
int rs_xsearch_run(struct rs_xsearch *x);

/* Whether @a is better than @b for @goal (b may have no value). */
bool rs_xbetter(enum rs_explore_goal goal, const struct rs_xresult *a,
		const struct rs_xresult *b);

/*
 * Shrink @fail (which failed as @sig) towards @dflt, the params' own
 * values (RS_XDEFAULT where a list axis's default is none of its values,
 * or a numeric axis's is not a number): ddmin over the axes that differ,
 * then bisection of each numeric one left towards its default, as long
 * as the point fails the same way (@sig).  The smallest such point in
 * *@ret, its result in *@ret_r.  0, or @eval's error (then *@ret is the
 * smallest found so far).
 */
int rs_xshrink(const struct rs_explore *e, rs_xeval_fn eval, void *ctx,
	       const struct rs_xpoint *fail, const char *sig,
	       const struct rs_xpoint *dflt, struct rs_xpoint *ret,
	       struct rs_xresult *ret_r);

/* The seeded generator the anneal walk uses: splitmix64. */
uint64_t rs_xrand(uint64_t *state);

#endif
