// SPDX-License-Identifier: MIT
/*
 * The straggler summary from run records written by hand: the median,
 * the ratio to it, ties, which way is slow, a step of fewer than three
 * elements, and elements spread over the leader's record and node_runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "list.h"
#include "stragglers.h"
#include "value.h"

/* A step entry: element @i of @n of step @no, @fig = @v. */
static void step(struct rs_val *steps, const char *no, const char *id,
		 unsigned i, unsigned n, const char *group, const char *key,
		 double v, const char *node, const char *peer)
{
	struct rs_val *e = rs_val_push_obj(steps), *el;

	rs_val_put_strf(e, "no", "%s[%u]", no, i);
	rs_val_put_str(e, "type", group && !strcmp(group, "throughput") ?
		       "stream" : "pingpong");
	if (id)
		rs_val_put_strf(e, "id", "%s[%u]", id, i);
	el = rs_val_put_obj(e, "element");
	rs_val_put_str(el, "step", no);
	rs_val_put_u64(el, "index", i);
	rs_val_put_u64(el, "count", n);
	if (node)
		rs_val_put_str(e, "node", node);
	if (peer)
		rs_val_put_str(e, "peer_node", peer);
	rs_val_put_str(e, "outcome", "passed");
	if (group)
		rs_val_put_double(rs_val_put_obj(rs_val_put_obj(e, "figures"),
						 group), key, v);
}

static const struct rs_val *el_at(const struct rs_val *sum, const char *list,
				  size_t i)
{
	return rs_val_at(rs_val_get(sum, list), i);
}

/* Odd and even counts; a median of 0 gives no ratio. */
TEST(stragglers, median)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };

	CHECK(rs_median(odd, 3) == 3);
	CHECK(rs_median(even, 4) == 2.5);
	CHECK(rs_median(one, 1) == 7);
	CHECK(rs_median(NULL, 0) == 0);
}

/* Five latency elements: slowest the highest, fastest the lowest, two
 * of each (5 / 2), none in both; ratios to the median; the text. */
TEST(stragglers, latency)
{
	static const double v[] = { 10, 12, 30, 8, 11 };
	struct rs_val *rec = rs_val_obj();
	struct rs_val *steps = rs_val_put_arr(rec, "steps");
	struct rs_val *all;
	const struct rs_val *sum, *e;
	char line[256];

	for (unsigned i = 0; i < 5; i++)
		step(steps, "2", "lat", i, 5, "latency", "typical", v[i],
		     NULL, NULL);
	CHECK_INT(rs_stragglers(rec, &all), 0);
	CHECK(all);
	CHECK_UINT(rs_val_len(all), 1);
	sum = rs_val_at(all, 0);
	CHECK_STR(rs_val_get_str(sum, "step"), "2");
	CHECK_STR(rs_val_get_str(sum, "id"), "lat");
	CHECK_STR(rs_val_get_str(sum, "figure"), "latency.typical");
	CHECK_UINT(rs_val_get_u64(sum, "elements"), 5);
	CHECK(rs_val_get_double(sum, "median") == 11);
	CHECK_UINT(rs_val_len(rs_val_get(sum, "slowest")), 2);
	CHECK_UINT(rs_val_len(rs_val_get(sum, "fastest")), 2);
	e = el_at(sum, "slowest", 0);
	CHECK_STR(rs_val_get_str(e, "element"), "lat[2]");
	CHECK_UINT(rs_val_get_u64(e, "index"), 2);
	CHECK(rs_val_get_double(e, "value") == 30);
	CHECK(rs_val_get_double(e, "ratio") == 30.0 / 11);
	CHECK_STR(rs_val_get_str(el_at(sum, "slowest", 1), "element"),
		  "lat[1]");
	CHECK_STR(rs_val_get_str(el_at(sum, "fastest", 0), "element"),
		  "lat[3]");
	CHECK_STR(rs_val_get_str(el_at(sum, "fastest", 1), "element"),
		  "lat[0]");
	rs_straggler_head(sum, line, sizeof(line));
	CHECK_STR(line, "step 2 (pingpong) 'lat' latency.typical over 5 "
		  "elements: median 11 usec");
	rs_straggler_elem(sum, e, line, sizeof(line));
	CHECK_STR(line, "lat[2] 30 usec 2.73x median");
	rs_val_free(all);
	rs_val_free(rec);
}

/* Throughput: slow is low.  Ties keep element order, in both lists;
 * a step without an id is named by its number. */
TEST(stragglers, ties_and_direction)
{
	static const double v[] = { 100, 50, 100, 50, 75, 100 };
	struct rs_val *rec = rs_val_obj();
	struct rs_val *steps = rs_val_put_arr(rec, "steps");
	struct rs_val *all;
	const struct rs_val *sum;

	for (unsigned i = 0; i < 6; i++)
		step(steps, "1", NULL, i, 6, "throughput", "MB/s", v[i],
		     NULL, NULL);
	CHECK_INT(rs_stragglers(rec, &all), 0);
	CHECK(all);
	sum = rs_val_at(all, 0);
	CHECK_STR(rs_val_get_str(sum, "figure"), "throughput.MB/s");
	CHECK(!rs_val_get(sum, "id"));
	CHECK(rs_val_get_double(sum, "median") == 87.5);
	CHECK_UINT(rs_val_len(rs_val_get(sum, "slowest")), 3);
	CHECK_STR(rs_val_get_str(el_at(sum, "slowest", 0), "element"),
		  "step 1[1]");
	CHECK_STR(rs_val_get_str(el_at(sum, "slowest", 1), "element"),
		  "step 1[3]");
	CHECK_STR(rs_val_get_str(el_at(sum, "slowest", 2), "element"),
		  "step 1[4]");
	/* Best first: of the three at 100, the last in element order is
	 * the last in the worst-first order, so it comes first here. */
	CHECK_STR(rs_val_get_str(el_at(sum, "fastest", 0), "element"),
		  "step 1[5]");
	CHECK_STR(rs_val_get_str(el_at(sum, "fastest", 2), "element"),
		  "step 1[0]");
	rs_val_free(all);
	rs_val_free(rec);
}

/* Two elements are no summary; nor are elements that recorded no
 * figure; an uncounted step is not an element. */
TEST(stragglers, fewer_than_three)
{
	struct rs_val *rec = rs_val_obj();
	struct rs_val *steps = rs_val_put_arr(rec, "steps");
	struct rs_val *plain, *all;

	step(steps, "1", "lat", 0, 2, "latency", "typical", 1, NULL, NULL);
	step(steps, "1", "lat", 1, 2, "latency", "typical", 2, NULL, NULL);
	for (unsigned i = 0; i < 3; i++)
		step(steps, "2", "w", i, 3, NULL, NULL, 0, NULL, NULL);
	plain = rs_val_push_obj(steps);
	rs_val_put_str(plain, "no", "3");
	rs_val_put_double(rs_val_put_obj(rs_val_put_obj(plain, "figures"),
					 "latency"), "typical", 5);
	all = rec;  /* untouched on failure: set on success */
	CHECK_INT(rs_stragglers(rec, &all), 0);
	CHECK(!all);
	rs_val_free(rec);
}

/* Across nodes: the leader's elements and node_runs' are one step's;
 * the answering side's entry (no figures) of an element the other
 * record measured does not count twice; nodes named. */
TEST(stragglers, across_nodes)
{
	struct rs_val *rec = rs_val_obj();
	struct rs_val *steps = rs_val_put_arr(rec, "steps");
	struct rs_val *runs = rs_val_put_arr(rec, "node_runs");
	struct rs_val *other = rs_val_push_obj(runs);
	struct rs_val *osteps = rs_val_put_arr(other, "steps");
	struct rs_val *all;
	const struct rs_val *sum, *e;
	char line[256];

	step(steps, "1", "lat", 0, 4, "latency", "typical", 2, "h[0]", "h[1]");
	step(steps, "1", "lat", 1, 4, NULL, NULL, 0, "h[1]", "h[2]");
	step(osteps, "1", "lat", 1, 4, "latency", "typical", 9, "h[1]",
	     "h[2]");
	step(osteps, "1", "lat", 2, 4, "latency", "typical", 3, "h[1]",
	     "h[2]");
	step(osteps, "1", "lat", 3, 4, "latency", "typical", 4, "h[1]",
	     "h[0]");
	CHECK_INT(rs_stragglers(rec, &all), 0);
	CHECK(all);
	sum = rs_val_at(all, 0);
	CHECK_UINT(rs_val_get_u64(sum, "elements"), 4);
	CHECK(rs_val_get_double(sum, "median") == 3.5);
	e = el_at(sum, "slowest", 0);
	CHECK_STR(rs_val_get_str(e, "node"), "h[1]");
	CHECK_STR(rs_val_get_str(e, "peer_node"), "h[2]");
	rs_straggler_elem(sum, e, line, sizeof(line));
	CHECK_STR(line, "lat[1] (h[1] -> h[2]) 9 usec 2.57x median");
	CHECK_STR(rs_val_get_str(el_at(sum, "fastest", 0), "element"),
		  "lat[0]");
	rs_val_free(all);
	rs_val_free(rec);
}

/* Each of the summary's own allocations failed in turn: -ENOMEM and
 * *ret_sums untouched, never a summary with elements missing. */
TEST(stragglers, alloc_fails)
{
	struct rs_val *rec = rs_val_obj();
	struct rs_val *steps = rs_val_put_arr(rec, "steps");
	struct rs_val *sentinel = rs_val_obj(), *all;
	long n;

	for (unsigned i = 0; i < 40; i++)
		step(steps, i < 20 ? "1" : "2", "lat", i % 20, 20, "latency",
		     "typical", i, NULL, NULL);
	for (n = 1; n < 1000; n++) {
		int r;

		all = sentinel;
		rs_alloc_fail_at(n);
		r = rs_stragglers(rec, &all);
		if (rs_alloc_count() < n) {
			rs_alloc_fail_at(0);
			CHECK_INT(r, 0);
			CHECK(all && all != sentinel);
			CHECK_UINT(rs_val_len(all), 2);
			rs_val_free(all);
			break;
		}
		CHECK_INT(r, -ENOMEM);
		CHECK_PTR(all, sentinel);
	}
	rs_alloc_fail_at(0);
	/* Groups and their lists grow: more than one allocation to fail. */
	CHECK(n > 4);
	rs_val_free(sentinel);
	rs_val_free(rec);
}
