/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_STRAGGLERS_H
#define RDMASCN_STRAGGLERS_H

#include <stddef.h>

struct rs_val;

/*
 * Stragglers, as nccl-tests' straggler analysis: of a step run once per
 * element (a counted step; across nodes, every node's part of it), which
 * elements were slowest and fastest by a figure, against the median of
 * all of them.  Read from a run record: its steps with an "element"
 * entry and, in the leader's record of a run across nodes, those of each
 * record in node_runs.
 *
 * A step is summed up for its headline figures (figures.h) and the ones
 * its gate bounds, where at least RS_STRAGGLER_MIN elements recorded
 * the figure: {step, type, id, figure, unit, elements, median,
 * slowest: [...], fastest: [...]}, each of slowest and fastest
 * min(RS_STRAGGLER_SHOW, elements / 2) elements, worst (best) first,
 * none in both: {element, index, node, peer_node, value, ratio} (ratio:
 * value / median; none when the median is 0).  "Slow" is the figure's
 * worse direction: high latency, low throughput.  Elements of equal
 * value keep element order.
 */
#define RS_STRAGGLER_MIN 3
#define RS_STRAGGLER_SHOW 3

/* The summaries of @rec, in step order, into *@ret_sums: an array, or
 * NULL when no step has RS_STRAGGLER_MIN elements with a figure.  0, or
 * -ENOMEM (*@ret_sums untouched). */
int rs_stragglers(const struct rs_val *rec, struct rs_val **ret_sums);

/* The median of @n values in @v, which it sorts; 0 when @n is 0. */
double rs_median(double *v, size_t n);

/* One summary's head line: "step 1 (pingpong) 'lat' latency.typical
 * over 4 elements: median 12.9 usec". */
void rs_straggler_head(const struct rs_val *sum, char *buf, size_t len);
/* One element of its slowest or fastest: "lat[3] (a -> b) 14.1 usec
 * 1.09x median". */
void rs_straggler_elem(const struct rs_val *sum, const struct rs_val *el,
		       char *buf, size_t len);

#endif
