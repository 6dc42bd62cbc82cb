// SPDX-License-Identifier: MIT
/*
 * Traffic patterns (pattern.h): each pair found from its number in
 * constant time, so that a mesh of 1000 elements (499500 pairs) plans as
 * fast as a list of them would read.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pattern.h"

static const char *const names[RS_PATTERN_N] = {
	[RS_PATTERN_PAIRS] = "pairs",
	[RS_PATTERN_RING] = "ring",
	[RS_PATTERN_MESH] = "mesh",
	[RS_PATTERN_ALL_TO_ALL] = "all_to_all",
	[RS_PATTERN_INCAST] = "incast",
	[RS_PATTERN_FANOUT] = "fanout",
	[RS_PATTERN_BISECTION] = "bisection",
	[RS_PATTERN_EVEN_ODD] = "even_odd",
};

const char *rs_pattern_name(enum rs_pattern p)
{
	return (unsigned)p < RS_PATTERN_N ? names[p] : NULL;
}

int rs_pattern_parse(const char *name)
{
	for (int p = 0; p < RS_PATTERN_N; p++)
		if (!strcmp(names[p], name))
			return p;
	return -1;
}

void rs_pattern_names(char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int p = 0; p < RS_PATTERN_N && o < len; p++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s",
				      p ? ", " : "", names[p]);
}

int rs_pattern_count(enum rs_pattern p, unsigned n, unsigned root,
		     uint64_t *ret, char *why, size_t len)
{
	uint64_t N = n;

	if (n < 1 || (p != RS_PATTERN_PAIRS && n < 2)) {
		snprintf(why, len, "%s needs at least %u elements, not %u",
			 rs_pattern_name(p), p == RS_PATTERN_PAIRS ? 1 : 2, n);
		return -EINVAL;
	}
	switch (p) {
	case RS_PATTERN_PAIRS:
	case RS_PATTERN_RING:
		*ret = N;
		return 0;
	case RS_PATTERN_MESH:
		*ret = N * (N - 1) / 2;
		return 0;
	case RS_PATTERN_ALL_TO_ALL:
		*ret = N * (N - 1);
		return 0;
	case RS_PATTERN_INCAST:
	case RS_PATTERN_FANOUT:
		if (root >= n) {
			snprintf(why, len, "root %u is past the last of its "
				 "%u elements (0 to %u)", root, n, n - 1);
			return -EINVAL;
		}
		*ret = N - 1;
		return 0;
	case RS_PATTERN_BISECTION:
	case RS_PATTERN_EVEN_ODD:
		if (n % 2) {
			snprintf(why, len, "%s pairs halves: it needs an even "
				 "number of elements, not %u",
				 rs_pattern_name(p), n);
			return -EINVAL;
		}
		*ret = N / 2;
		return 0;
	default:
		snprintf(why, len, "no pattern %d", (int)p);
		return -EINVAL;
	}
}

/* Row i of a mesh holds the pairs (i, i+1) .. (i, n-1): n-1-i of them,
 * starting at pair i*(2n-i-1)/2. */
static uint64_t mesh_row_start(uint64_t n, uint64_t i)
{
	return i * (2 * n - i - 1) / 2;
}

static void mesh_pair(unsigned n, uint64_t k, unsigned *a, unsigned *b)
{
	double N = n;
	/* The row from the quadratic's root, then mended by a step
	 * either way, where the double rounded. */
	double r = N - 0.5 - sqrt((N - 0.5) * (N - 0.5) - 2.0 * (double)k);
	uint64_t i = r < 0 ? 0 : (uint64_t)r;

	if (i > n - 2)
		i = n - 2;
	while (i > 0 && mesh_row_start(n, i) > k)
		i--;
	while (i + 1 < n - 1 && mesh_row_start(n, i + 1) <= k)
		i++;
	*a = (unsigned)i;
	*b = (unsigned)(i + 1 + (k - mesh_row_start(n, i)));
}

void rs_pattern_pair(enum rs_pattern p, unsigned n, unsigned root,
		     uint64_t k, unsigned *ret_from, unsigned *ret_to)
{
	unsigned i = (unsigned)k;

	switch (p) {
	case RS_PATTERN_PAIRS:
		*ret_from = *ret_to = i;
		return;
	case RS_PATTERN_RING:
		*ret_from = i;
		*ret_to = (i + 1) % n;
		return;
	case RS_PATTERN_MESH:
		mesh_pair(n, k, ret_from, ret_to);
		return;
	case RS_PATTERN_ALL_TO_ALL:
		/* Row i holds (i, j) for the n-1 j other than i. */
		*ret_from = (unsigned)(k / (n - 1));
		*ret_to = (unsigned)(k % (n - 1));
		if (*ret_to >= *ret_from)
			(*ret_to)++;
		return;
	case RS_PATTERN_INCAST:
		*ret_from = i < root ? i : i + 1;
		*ret_to = root;
		return;
	case RS_PATTERN_FANOUT:
		*ret_from = root;
		*ret_to = i < root ? i : i + 1;
		return;
	case RS_PATTERN_BISECTION:
		*ret_from = i;
		*ret_to = i + n / 2;
		return;
	case RS_PATTERN_EVEN_ODD:
		*ret_from = 2 * i;
		*ret_to = 2 * i + 1;
		return;
	default:
		*ret_from = *ret_to = 0;
		return;
	}
}
