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
struct rs_node;
struct rs_scenario;
struct rs_val;

/*
 * Figures as gates: a step's `gate:` bounds figures it records,
 *
 *   gate: {latency.typical: {max: 5}, throughput.MB/s: {min: 100},
 *          counters.retry_exceeded_err: {max: 0},
 *          counters.port_xmit_data: {equals_counter: port_rcv_data},
 *          throughput.Gb/s: {min_ratio: 0.8, of: baseline}}
 *
 * and a figure out of its bounds fails the step.  The names are the
 * run record's (figures.GROUP.NAME), the units the record's too; which
 * figures take a gate, which way is better and which are a step's
 * headline (for compare) is the figure table's to say (figures.h).
 * The counters' names are the kernel's, and so not the table's: they
 * are known only once the device is, which is why a gate is read from
 * the located DOM rather than by libcyaml (whose mappings have fixed
 * keys), and why a counter the device lacks is "not measured" at run
 * time rather than an error at load.
 */

enum {
	RS_BOUND_MIN = 1u << 0,
	RS_BOUND_MAX = 1u << 1,
	RS_BOUND_EQUALS = 1u << 2,
	RS_BOUND_EQUALS_COUNTER = 1u << 3,
	RS_BOUND_MIN_RATIO = 1u << 4,
	RS_BOUND_MAX_RATIO = 1u << 5,
	RS_BOUND_TOLERANCE = 1u << 6,
};

/* One key of a gate and its bounds. */
struct rs_bound {
	const char *name;        /* the key: "latency.typical",
				  * "counters.rxe_a/1.*discard*" */
	const struct rs_figure_def *fig; /* NULL: a counter */
	const char *scope;       /* a counter's "DEV/PORT" or "DEV"; NULL:
				  * summed over every one that has it */
	const char *counter;     /* its kernel name, or an fnmatch glob */
	bool glob;               /* bounds each counter it matches */
	unsigned has;            /* RS_BOUND_* */
	double min, max, equals, tolerance, min_ratio, max_ratio;
	const char *equals_counter; /* another counter, same scope */
	const char *of;          /* the ratios' step */
	bool missing_skip;       /* not measured: skip the step, not fail */
	const struct rs_node *node; /* its value mapping, for locations */
};

/*
 * A step's `gate:` (or the run's `gates:`): its bounds in the order
 * written, and `each:`, bounds every element of a counted step must keep
 * (NULL: none; its own each is always NULL).  A plain bound on a counted
 * step is judged on each element as it ends too, and the first miss ends
 * the run; an each: miss fails its element and the run, but the other
 * elements still run, so that every element out of bounds is named.
 */
struct rs_gate {
	struct rs_bound *b;
	unsigned n;
	struct rs_gate *each;
};

/* The figures of a gate as a schema, for the JSON Schema only (a gate is
 * read from the DOM): the table's figures and each:. */
extern const cyaml_schema_field_t rs_gate_fields[];
extern const cyaml_schema_field_t rs_gate_each_fields[];

/* "latency.min, latency.typical, ...": for messages. */
void rs_figure_names(char *buf, size_t len);

/* Read the step's `gate:` into its rs_step_common.gate, and check what
 * the schema cannot: figures it records, numbers that are finite, min
 * not above max, a bound given.  0 or -EINVAL (reported), -ENOMEM. */
int rs_gate_check(struct rs_scenario *s, struct rs_obj *obj,
		  struct rs_diag *d);
/* Once the plan is made: each ratio's `of:` names a step that has ended
 * before this one starts and records the figure.  0 or -EINVAL. */
int rs_gate_check_of(struct rs_scenario *s, struct rs_diag *d);
/* The top-level `gates:`, bounds on the run's counter totals; NULL in
 * *@ret_gate when there is none.  0, -EINVAL (reported) or -ENOMEM. */
int rs_run_gates_read(struct rs_scenario *s, struct rs_diag *d,
		      struct rs_gate **ret_gate);

/* Where the bound @which ("min", "max", ...) of @b is written; its key
 * when @which is NULL or not given.  Into @ret; rs_bound_loc() into a
 * location that lives as long as the enclosing block (rs_node_loc()). */
const struct rs_loc *rs_bound_loc_to(const struct rs_bound *b,
				     const char *which, struct rs_loc *ret);
#define rs_bound_loc(b, which) \
	rs_bound_loc_to((b), (which), &(struct rs_loc){ 0 })

/*
 * The gate's entries for the run record, one per bound, in the order
 * written, then those of each: ({..., each: true}): {figure, unit, min,
 * max, ..., file, line, col}; judging adds value and passed.  NULL when
 * there is no gate (or out of memory: rs_val_check() says).
 */
struct rs_val *rs_gate_entries(const struct rs_gate *g);

/*
 * Judge @b against @figures (a step's figures: {latency: {...}, counters:
 * {"DEV/PORT": {NAME: delta}}}; a run's: {counters: ...}) and, for a
 * ratio, @of_figures (the `of:` step's, NULL when it recorded none):
 * each judged entry (a glob makes one per counter it matches) is pushed
 * onto @arr, and each miss is told to @miss with the bound it is about
 * ("min", "max", ... or NULL), whether the figure was not measured, and
 * the text ("counters.sent_pkts is 2000 (rxe_a/1 2000), above max 0").
 * @elem names the element of a counted step for each: (NULL: not each).
 * Returns how many entries missed.
 */
typedef void rs_gate_miss_fn(void *ctx, const struct rs_bound *b,
			     const char *which, bool not_measured,
			     const char *what);
unsigned rs_gate_judge(const struct rs_bound *b, const char *elem,
		       const struct rs_val *figures,
		       const struct rs_val *of_figures, struct rs_val *arr,
		       rs_gate_miss_fn *miss, void *ctx);

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
