/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PATTERN_H
#define RDMASCN_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/*
 * Traffic patterns over a set of N elements (nodes, contexts, any
 * counted entry): which ordered pairs (from, to) a pattern joins, and in
 * which order, so that every process that plans a scenario numbers the
 * pairs alike.  The patterns fabric tests run (fabtests fi_multinode,
 * DOCA Perftest, ClusterKit):
 *
 *   pairs       (i, i)                     N pairs: each element with itself
 *   ring        (i, i+1 mod N)             N pairs, N >= 2
 *   mesh        (i, j), i < j              N(N-1)/2: every unordered pair
 *   all_to_all  (i, j), i != j             N(N-1): every ordered pair
 *   incast      (i, root), i != root       N-1: all to one
 *   fanout      (root, i), i != root       N-1: one to all
 *   bisection   (i, i + N/2), i < N/2      N/2, N even: halves across
 *   even_odd    (2i, 2i+1), i < N/2        N/2, N even
 *
 * Pairs are numbered 0 to count-1 in the order the table reads: by from,
 * then by to.
 */
enum rs_pattern {
	RS_PATTERN_PAIRS,
	RS_PATTERN_RING,
	RS_PATTERN_MESH,
	RS_PATTERN_ALL_TO_ALL,
	RS_PATTERN_INCAST,
	RS_PATTERN_FANOUT,
	RS_PATTERN_BISECTION,
	RS_PATTERN_EVEN_ODD,
	RS_PATTERN_N
};

/* Its name in a file ("all_to_all"), or NULL past the end. */
const char *rs_pattern_name(enum rs_pattern p);
/* The pattern named @name, or -1. */
int rs_pattern_parse(const char *name);
/* The names, ", "-separated, for an error that lists what is valid. */
void rs_pattern_names(char *buf, size_t len);

/*
 * The number of pairs pattern @p makes over @n elements with @root (the
 * one of incast and fanout; ignored by the rest): 0 and *@ret, or
 * -EINVAL with what @n or @root must be in @why (@len bytes).
 */
int rs_pattern_count(enum rs_pattern p, unsigned n, unsigned root,
		     uint64_t *ret, char *why, size_t len);
/* Pair @k (below the count) of @p over @n: its from and to elements. */
void rs_pattern_pair(enum rs_pattern p, unsigned n, unsigned root,
		     uint64_t k, unsigned *ret_from, unsigned *ret_to);

#endif
