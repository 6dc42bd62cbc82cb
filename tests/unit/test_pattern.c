// SPDX-License-Identifier: MIT
/* Traffic patterns: every pattern's pairs, in order, against the table
 * in pattern.h read literally; a mesh of 1000 pair by pair; the sizes a
 * pattern refuses, each with its reason. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "list.h"
#include "pattern.h"

/* The pairs of @p over @n in the table's order, by brute force: is
 * (a, b) one of them? */
static int in_pattern(enum rs_pattern p, unsigned n, unsigned root,
		      unsigned a, unsigned b)
{
	switch (p) {
	case RS_PATTERN_PAIRS: return a == b;
	case RS_PATTERN_RING: return b == (a + 1) % n;
	case RS_PATTERN_MESH: return a < b;
	case RS_PATTERN_ALL_TO_ALL: return a != b;
	case RS_PATTERN_INCAST: return b == root && a != root;
	case RS_PATTERN_FANOUT: return a == root && b != root;
	case RS_PATTERN_BISECTION: return a < n / 2 && b == a + n / 2;
	case RS_PATTERN_EVEN_ODD: return a % 2 == 0 && b == a + 1;
	default: return 0;
	}
}

TEST(pattern, every_pair_in_order)
{
	char why[128];

	for (int p = 0; p < RS_PATTERN_N; p++) {
		for (unsigned n = 2; n <= 24; n += (p >= RS_PATTERN_BISECTION) + 1) {
			unsigned root = n / 3;
			uint64_t count = 0, k = 0;

			CHECK_INT(rs_pattern_count(p, n, root, &count, why,
						   sizeof(why)), 0);
			for (unsigned a = 0; a < n; a++) {
				for (unsigned b = 0; b < n; b++) {
					unsigned x, y;

					if (!in_pattern(p, n, root, a, b))
						continue;
					rs_pattern_pair(p, n, root, k++, &x, &y);
					if (x != a || y != b) {
						printf("%s n=%u pair %llu: "
						       "(%u,%u), want (%u,%u)\n",
						       rs_pattern_name(p), n,
						       (unsigned long long)k - 1,
						       x, y, a, b);
						CHECK(0);
					}
				}
			}
			CHECK_UINT(k, count);
		}
	}
}

TEST(pattern, big_mesh)
{
	unsigned n = 1000, a = 0, b = 1, x, y;
	uint64_t count;
	char why[128];

	CHECK_INT(rs_pattern_count(RS_PATTERN_MESH, n, 0, &count, why,
				   sizeof(why)), 0);
	CHECK_UINT(count, 499500);
	for (uint64_t k = 0; k < count; k++) {
		rs_pattern_pair(RS_PATTERN_MESH, n, 0, k, &x, &y);
		if (x != a || y != b) {
			printf("pair %llu: (%u,%u), want (%u,%u)\n",
			       (unsigned long long)k, x, y, a, b);
			CHECK(0);
			break;
		}
		if (++b == n) {
			a++;
			b = a + 1;
		}
	}
	/* 64 nodes: the 2016 connections. */
	CHECK_INT(rs_pattern_count(RS_PATTERN_MESH, 64, 0, &count, why,
				   sizeof(why)), 0);
	CHECK_UINT(count, 2016);
	rs_pattern_pair(RS_PATTERN_MESH, 64, 0, 2015, &x, &y);
	CHECK_UINT(x, 62);
	CHECK_UINT(y, 63);
}

TEST(pattern, refused)
{
	uint64_t count = 7;
	char why[128], names[256];

	CHECK_INT(rs_pattern_count(RS_PATTERN_BISECTION, 5, 0, &count, why,
				   sizeof(why)), -EINVAL);
	CHECK_STR(why, "bisection pairs halves: it needs an even number of "
		  "elements, not 5");
	CHECK_INT(rs_pattern_count(RS_PATTERN_INCAST, 4, 4, &count, why,
				   sizeof(why)), -EINVAL);
	CHECK_STR(why, "root 4 is past the last of its 4 elements (0 to 3)");
	CHECK_INT(rs_pattern_count(RS_PATTERN_RING, 1, 0, &count, why,
				   sizeof(why)), -EINVAL);
	CHECK_STR(why, "ring needs at least 2 elements, not 1");
	CHECK_INT(rs_pattern_count(RS_PATTERN_PAIRS, 1, 0, &count, why,
				   sizeof(why)), 0);
	CHECK_UINT(count, 1);
	CHECK_INT(rs_pattern_parse("all_to_all"), RS_PATTERN_ALL_TO_ALL);
	CHECK_INT(rs_pattern_parse("alltoall"), -1);
	rs_pattern_names(names, sizeof(names));
	CHECK_STR(names, "pairs, ring, mesh, all_to_all, incast, fanout, "
		  "bisection, even_odd");
}
