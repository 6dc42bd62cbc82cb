/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_GATE_H
#define RDMASCN_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include <cyaml/cyaml.h>

struct rs_obj;
struct rs_diag;
struct rs_loc;

/*
 * Figures as gates: a step's `gate:` bounds figures it records,
 *
 *   gate: {latency.typical: {max: 5}, throughput.MB/s: {min: 100}}
 *
 * and a figure out of its bounds fails the step.  The names are the
 * run record's (figures.GROUP.NAME), the units the record's too.  The
 * table also says, for `rdmascn compare`, which way is better and which
 * figures are a step's headline (judged by default: the typical latency
 * and MB/s; the tails and the other rates move with noise or with them).
 *
 * X(enum suffix, group, name, unit, lower is better, headline)
 */
#define RS_GATE_FIGURES(X)                                                 \
	X(LAT_MIN, "latency", "min", "usec", true, false)                  \
	X(LAT_TYPICAL, "latency", "typical", "usec", true, true)           \
	X(LAT_AVG, "latency", "avg", "usec", true, false)                  \
	X(LAT_STDEV, "latency", "stdev", "usec", true, false)              \
	X(LAT_P99, "latency", "p99", "usec", true, false)                  \
	X(LAT_P999, "latency", "p99.9", "usec", true, false)               \
	X(LAT_MAX, "latency", "max", "usec", true, false)                  \
	X(TP_MESSAGES, "throughput", "messages", "messages", false, false) \
	X(TP_ELAPSED, "throughput", "elapsed_ms", "ms", true, false)       \
	X(TP_MBS, "throughput", "MB/s", "MB/s", false, true)               \
	X(TP_GBS, "throughput", "Gb/s", "Gb/s", false, false)              \
	X(TP_MPPS, "throughput", "Mpps", "Mpps", false, false)

#define RS_GATE_ENUM(id, g, n, u, l, h) RS_FIG_##id,
enum rs_figure { RS_GATE_FIGURES(RS_GATE_ENUM) RS_FIG_COUNT };
#undef RS_GATE_ENUM

struct rs_figure_def {
	const char *name;        /* "latency.typical": a key of gate: */
	const char *group;       /* "latency" */
	const char *key;         /* "typical" */
	const char *unit;
	bool lower_better;
	bool headline;           /* compare judges it by default */
};
extern const struct rs_figure_def rs_figures[RS_FIG_COUNT];

/* One figure's bounds; NULL: not bounded that way. */
struct rs_bound {
	double *min;
	double *max;
};

/* A step's `gate:`: the bounds of each figure, NULL where none. */
struct rs_gate {
	struct rs_bound *f[RS_FIG_COUNT];
};

extern const cyaml_schema_field_t rs_gate_fields[];

/* The figure @group.@key, or NULL: the table's entry for that figure. */
const struct rs_figure_def *rs_figure_find(const char *group,
					   const char *key);
/* "latency.min, latency.typical, ...": for messages. */
void rs_figure_names(char *buf, size_t len);

/* Checks of a step's gate the schema cannot make: finite bounds, min not
 * above max, a bound given, a figure its step type records.  0 or
 * -EINVAL, the errors reported. */
int rs_gate_check(const struct rs_obj *obj, struct rs_diag *d);
/* Where the bound @which ("min", "max") of figure @f is written. */
const struct rs_loc *rs_gate_loc(const struct rs_obj *obj, enum rs_figure f,
				 const char *which);

/*
 * The step's gates as run-record entries, one per bounded figure, in
 * table order: {figure, unit, min, max, file, line, col}; the step
 * runner adds value and passed.  NULL when the step has no gate (or out
 * of memory: rs_val_check() says).
 */
struct rs_val *rs_gate_entries(const struct rs_obj *obj);
/* "latency.typical max 50 usec": one entry's bounds, for messages. */
void rs_gate_text(const struct rs_val *e, char *buf, size_t len);
/* "latency.typical <= 50 usec: 12.3 usec held" ("1 <= latency.min <= 2
 * usec: ...", "... missed", "...: not recorded, missed"): a judged
 * entry (value and passed added), for the reports. */
void rs_gate_result_text(const struct rs_val *e, char *buf, size_t len);

#endif
