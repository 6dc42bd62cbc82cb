/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_GATE_H
#define RDMASCN_GATE_H

#include <stdbool.h>
#include <stddef.h>

#include <cyaml/cyaml.h>

#include "figures.h"

struct rs_obj;
struct rs_diag;
struct rs_loc;

/*
 * Figures as gates: a step's `gate:` bounds figures it records,
 *
 *   gate: {latency.typical: {max: 5}, throughput.MB/s: {min: 100}}
 *
 * and a figure out of its bounds fails the step.  The names are the
 * run record's (figures.GROUP.NAME), the units the record's too; which
 * figures take a gate, which way is better and which are a step's
 * headline (for compare) is the figure table's to say (figures.h).
 */

/* One figure's bounds; NULL: not bounded that way. */
struct rs_bound {
	double *min;
	double *max;
};

/*
 * A step's `gate:`: the bounds of each figure, NULL where none, and
 * `each:`, bounds every element of a counted step must keep (NULL: none;
 * its own each is always NULL).  A plain bound on a counted step is
 * judged on each element as it ends too, and the first miss ends the
 * run; an each: miss fails its element and the run, but the other
 * elements still run, so that every element out of bounds is named.
 */
struct rs_gate {
	struct rs_bound *f[RS_FIG_COUNT];
	struct rs_gate *each;
};

extern const cyaml_schema_field_t rs_gate_fields[];
/* The figures of `each:`: rs_gate_fields without each itself. */
extern const cyaml_schema_field_t rs_gate_each_fields[];

/* "latency.min, latency.typical, ...": for messages. */
void rs_figure_names(char *buf, size_t len);

/* Checks of a step's gate the schema cannot make: finite bounds, min not
 * above max, a bound given, a figure its step type records.  0 or
 * -EINVAL, the errors reported. */
int rs_gate_check(const struct rs_obj *obj, struct rs_diag *d);
/* Where the bound @which ("min", "max") of figure @f is written, in
 * `each:` when @each. */
const struct rs_loc *rs_gate_loc(const struct rs_obj *obj, enum rs_figure f,
				 bool each, const char *which);

/*
 * The step's gates as run-record entries, one per bounded figure, in
 * table order, then those of each: ({..., each: true}): {figure, unit,
 * min, max, file, line, col}; the step runner adds value and passed.
 * NULL when the step has no gate (or out of memory: rs_val_check()
 * says).
 */
struct rs_val *rs_gate_entries(const struct rs_obj *obj);
/* "latency.typical max 50 usec" ("... each"): one entry's bounds, for
 * messages. */
void rs_gate_text(const struct rs_val *e, char *buf, size_t len);
/* "latency.typical <= 50 usec: 12.3 usec held" ("1 <= latency.min <= 2
 * usec: ...", "latency.typical <= 50 usec each: ...", "... missed",
 * "...: not recorded, missed"): a judged entry (value and passed added),
 * for the reports. */
void rs_gate_result_text(const struct rs_val *e, char *buf, size_t len);
/* "latency.typical <= 50 usec each" and the like: @e's bounds as the
 * result text starts them, into @buf. */
void rs_gate_bounds_text(const struct rs_val *e, char *buf, size_t len);

#endif
