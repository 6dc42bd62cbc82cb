// SPDX-License-Identifier: MIT
/*
 * Latency samples: every measured round trip, in the order measured, as
 * a CSV row (`run --samples FILE`, like perftest's -U), and a compact
 * histogram of them in the step's latency figures.  Buckets are a quarter
 * of a power of two wide (2^(k/4) usec to 2^((k+1)/4)): fixed edges, so
 * two runs' histograms line up, about 19% wide each, and only the range
 * the samples cover is kept.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "step.h"
#include "value.h"

#define BUCKETS_PER_OCTAVE 4
/* Below a nanosecond is a clock's noise: the first bucket. */
#define MIN_BUCKET (-10 * BUCKETS_PER_OCTAVE)

static int bucket(double usec)
{
	int k;

	if (!(usec > 0))
		return MIN_BUCKET;
	k = (int)floor(log2(usec) * BUCKETS_PER_OCTAVE);
	return k < MIN_BUCKET ? MIN_BUCKET : k;
}

static void histogram(struct rs_step_run *sr, const uint64_t *ns, uint64_t n,
		      double ns_per_usec)
{
	int lo = 0, hi = 0;
	uint64_t *counts;
	struct rs_val *h, *edges, *cs;

	for (uint64_t i = 0; i < n; i++) {
		int k = bucket(ns[i] / ns_per_usec);

		if (!i || k < lo)
			lo = k;
		if (!i || k > hi)
			hi = k;
	}
	counts = rs_calloc(hi - lo + 1, sizeof(*counts));
	h = rs_val_obj();
	if (!counts || !h)
		goto lost;
	for (uint64_t i = 0; i < n; i++)
		counts[bucket(ns[i] / ns_per_usec) - lo]++;
	rs_val_put_str(h, "unit", "usec");
	edges = rs_val_put_arr(h, "edges");
	cs = rs_val_put_arr(h, "counts");
	for (int k = lo; k <= hi + 1; k++)
		rs_val_push(edges, rs_val_double(
			exp2((double)k / BUCKETS_PER_OCTAVE)));
	for (int k = lo; k <= hi; k++)
		rs_val_push(cs, rs_val_u64(counts[k - lo]));
	if (rs_val_check(h) < 0)
		goto lost;
	sr->histogram = h;
	h = NULL;
	goto out;
lost:
	/* Not a run passed without the histogram it promised (a bucket
	 * that could not be added was one left out, silently). */
	rs_record_lost(sr->run->rec);
out:
	rs_val_free(h);
	rs_free(counts);
}

void rs_step_samples(struct rs_step_run *sr, const uint64_t *ns, uint64_t n,
		     double ns_per_usec)
{
	FILE *f = sr->run->samples;

	if (!n)
		return;
	histogram(sr, ns, n, ns_per_usec);
	if (!f)
		return;
	/* Parallel steps write theirs whole, one after the other. */
	pthread_mutex_lock(&sr->st->lock);
	/* A cell's name has commas: quoted, '"' doubled, as CSV does. */
	for (uint64_t i = 0; i < n; i++) {
		if (sr->run->cell) {
			fputc('"', f);
			for (const char *c = sr->run->cell; *c; c++) {
				if (*c == '"')
					fputc('"', f);
				fputc(*c, f);
			}
			fputc('"', f);
		}
		fprintf(f, ",%s,%llu,%.3f\n", sr->obj->id ? sr->obj->id : sr->no,
			(unsigned long long)i, ns[i] / ns_per_usec);
	}
	pthread_mutex_unlock(&sr->st->lock);
}
