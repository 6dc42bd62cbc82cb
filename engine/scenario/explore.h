/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_EXPLORE_H
#define RDMASCN_EXPLORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct rs_scenario;

/*
 * What `rdmascn explore` searches (docs/explore.md): axes over params,
 * an objective, a budget, a strategy.  The file's `explore:` section and
 * the command's options say the same things; both are read here, so a
 * bad range is said the same way from either, located in the file.
 *
 *	explore:
 *	  vary:
 *	    size: 64..8M:pow2
 *	    op: [write, read]
 *	  maximize: throughput.MB/s     # or minimize: FIG, find: fail|gate
 *	  budget: {cells: 20, seconds: 600}
 *	  strategy: bisect              # grid, bisect, anneal
 *	  seed: 1
 *	  knee: 10                      # percent
 *	  repeat: 3                     # runs of each cell deciding a knee
 */

/* An axis takes at most this many values: each may be a run. */
#define RS_EXPLORE_AXIS_MAX 4096u
#define RS_EXPLORE_AXES_MAX 8u
/* The runs of a point the knee is judged on (repeat:) at most. */
#define RS_EXPLORE_REPEAT_MAX 9u

struct rs_explore_axis {
	const char *name;        /* the param's */
	char **values;           /* as --set takes them */
	uint64_t *nums;          /* numeric: each value's number, ascending */
	unsigned n;
	bool numeric;
	bool pow2;               /* a pow2 range: a log scale to plot */
};

#define RS_EXPLORE_GOALS(X)                                               \
	X(NONE, "none")                                                   \
	X(MAXIMIZE, "maximize")                                           \
	X(MINIMIZE, "minimize")                                           \
	X(FIND_FAIL, "fail")                                              \
	X(FIND_GATE, "gate")

#define RS_EXPLORE_GOAL_ENUM(id, name) RS_EXPLORE_##id,
enum rs_explore_goal { RS_EXPLORE_GOALS(RS_EXPLORE_GOAL_ENUM) };
#undef RS_EXPLORE_GOAL_ENUM

#define RS_EXPLORE_STRATEGIES(X)                                          \
	X(BISECT, "bisect")                                               \
	X(GRID, "grid")                                                   \
	X(ANNEAL, "anneal")

#define RS_EXPLORE_STRATEGY_ENUM(id, name) RS_EXPLORE_S_##id,
enum rs_explore_strategy {
	RS_EXPLORE_STRATEGIES(RS_EXPLORE_STRATEGY_ENUM) RS_EXPLORE_S_COUNT
};
#undef RS_EXPLORE_STRATEGY_ENUM

struct rs_explore {
	struct rs_explore_axis *axes;
	unsigned n_axes;
	enum rs_explore_goal goal;
	char *figure;            /* maximize/minimize: [STEP:]GROUP.KEY */
	unsigned long budget_cells;  /* 0: not said */
	double budget_s;             /* 0: not said */
	enum rs_explore_strategy strategy;
	bool has_strategy;
	uint64_t seed;
	bool has_seed;
	double knee_pct;         /* 0: not said */
	unsigned repeat;         /* 0: not said (1: each point once) */
};

const char *rs_explore_goal_name(enum rs_explore_goal g);
const char *rs_explore_strategy_name(enum rs_explore_strategy s);
/* "grid", "bisect", "anneal": 0 and *@ret, or -EINVAL. */
int rs_explore_strategy_parse(const char *word,
			      enum rs_explore_strategy *ret);

/*
 * One axis from its text (--vary NAME=SPEC, or a scalar of vary:):
 *   LO..HI[:pow2]   LO, every power of two between, HI (the default)
 *   LO..HI:lin      every integer from LO to HI
 *   LO..HI:step=N   LO, LO+N, ..., and HI
 *   V1,V2,...       these values (numbers are sorted ascending)
 * Numbers take K, M, G (1024, 1024^2, 1024^3).  0 and *@ret (free it
 * with rs_explore_axis_free()); -EINVAL with why (what would be valid)
 * in @why; -ENOMEM.
 */
int rs_explore_axis_parse(const char *name, const char *spec,
			  struct rs_explore_axis *ret, char *why, size_t len);
/* An axis of the values @values (a vary: list). As above. */
int rs_explore_axis_list(const char *name, const char *const *values,
			 unsigned n, struct rs_explore_axis *ret, char *why,
			 size_t len);
void rs_explore_axis_free(struct rs_explore_axis *a);
/* "65536", "8M": 0 and *@ret, or -EINVAL. */
int rs_explore_number(const char *text, uint64_t *ret);

/* The file's explore: section, errors located on @d: 0 (none is an
 * explore of no axes and goal NONE), -EINVAL, -ENOMEM. */
int rs_explore_read(struct rs_explore *e, const struct rs_scenario *s,
		    struct rs_diag *d);
/* An objective's figure: [STEP:]GROUP.KEY, a number of the figures
 * table, or counters.[WHERE.]NAME. */
bool rs_explore_figure_ok(const char *fig);
/* Whether @s declares param @name. */
bool rs_explore_is_param(const struct rs_scenario *s, const char *name);
/* Append a copy of @a to @e, replacing an axis of the same param:
 * 0 or -ENOMEM (or -E2BIG past RS_EXPLORE_AXES_MAX).  @a is moved. */
int rs_explore_add_axis(struct rs_explore *e, struct rs_explore_axis *a);
void rs_explore_free(struct rs_explore *e);

#endif
