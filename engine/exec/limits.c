// SPDX-License-Identifier: MIT
/*
 * A device's limits, before anything is created: a file that asks for
 * more QPs than the device has (`count: 100000`), or a CQ deeper than its
 * max_cqe, is refused at the probe with the limit named and how to get
 * past it, not half built and then torn down at the first create that
 * fails.  The limits are the device facts (scenario/facts.c), read the
 * way `rdmascn devices -j` and ${ctx.device.max_qp} read them.
 *
 * Each kind tells, from its check_caps, what it takes of its device:
 * one of a counted resource (rs_dev_limit_count(); the verdict comes
 * once every object is counted, so it can say how many the file makes)
 * and the numbers in its fields (rs_dev_limit_value(), at once).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "live.h"
#include "run.h"

static const struct {
	const char *fact;       /* the device's maximum */
	const char *what;       /* plural, for messages */
} counted[RS_LIM_N] = {
	[RS_LIM_QP] = { "max_qp", "qps" },
	[RS_LIM_CQ] = { "max_cq", "cqs" },
	[RS_LIM_MR] = { "max_mr", "mrs" },
	[RS_LIM_PD] = { "max_pd", "pds" },
	[RS_LIM_SRQ] = { "max_srq", "srqs" },
	[RS_LIM_AH] = { "max_ah", "ahs" },
	[RS_LIM_MW] = { "max_mw", "mws" },
};

/* The device fact @name ("max_cqe") of @dev, read from the device's
 * attributes. */
static bool dev_max_read(const struct rs_dev *dev, const char *name,
			 uint64_t *ret)
{
	char path[64];
	const struct rs_fact *f;
	struct rs_fact_src src;
	struct rs_fact_val v;
	int n = snprintf(path, sizeof(path), "device.%s", name);

	f = rs_fact_find(path, (size_t)n);
	if (!f || f->text)
		return false;
	rs_dev_fact_src(dev, &src);
	rs_fact_get(f, &src, &v);
	*ret = v.num;
	return true;
}

/* The same, each name read once for @dev (its attributes do not change
 * after the probe). */
static bool dev_max(struct rs_dev *dev, const char *name, uint64_t *ret)
{
	unsigned i;

	for (i = 0; i < dev->n_maxima; i++)
		if (dev->maxima[i].fact == name)
			break;
	if (i == dev->n_maxima) {
		uint64_t max = 0;
		bool ok = dev_max_read(dev, name, &max);

		if (i == RS_N(dev->maxima)) {
			*ret = max;
			return ok;
		}
		dev->maxima[i].fact = name;
		dev->maxima[i].max = max;
		dev->maxima[i].ok = ok;
		dev->n_maxima++;
	}
	if (dev->maxima[i].ok)
		*ret = dev->maxima[i].max;
	return dev->maxima[i].ok;
}

void rs_dev_limit_count(struct rs_run *run, struct rs_live *l,
			enum rs_limit what)
{
	struct rs_dev *dev = rs_live_dev(run, l);
	uint64_t max;

	if (!dev || what >= RS_LIM_N)
		return;
	dev->lim[what].used++;
	if (!dev->lim[what].over && dev_max(dev, counted[what].fact, &max) &&
	    dev->lim[what].used > max)
		dev->lim[what].over = l;
}

int rs_dev_limit_value(struct rs_run *run, struct rs_live *l,
		       const char *field, uint64_t value, const char *fact,
		       char *why, unsigned len)
{
	struct rs_dev *dev = rs_live_dev(run, l);
	uint64_t max;

	if (!dev || !dev_max(dev, fact, &max) || value <= max)
		return 0;
	if (len)
		why[0] = '\0';
	/* Of a counted entry's elements, the first speaks for all. */
	if (!rs_obj_elem(l->obj))
		rs_diag_error(&run->diag, rs_obj_loc(l->obj, field),
			      "%s: %s: %" PRIu64 " is over %s's %s, %" PRIu64
			      " (lower it, e.g. to ${%s.device.%s}, or use a "
			      "device with more: rdmascn devices -j)",
			      l->obj->name, field, value, dev->name, fact, max,
			      rs_live_context(run, l)->obj->id, fact);
	return -E2BIG;
}

int rs_run_limits_report(struct rs_run *run)
{
	int r = 0;

	for (unsigned i = 0; i < run->s->n_objects; i++) {
		struct rs_dev *dev = rs_as_dev(&run->live[i]);

		/* An imported context is its original's device: once. */
		for (unsigned j = 0; dev && j < i; j++)
			if (rs_as_dev(&run->live[j]) == dev)
				dev = NULL;
		for (unsigned k = 0; dev && k < RS_LIM_N; k++) {
			struct rs_live *o = dev->lim[k].over;
			uint64_t max = 0;

			if (!o)
				continue;
			dev_max(dev, counted[k].fact, &max);
			rs_diag_error(&run->diag, rs_obj_loc(o->obj, NULL),
				      "%s: %s allows %" PRIu64 " %s (%s); the "
				      "file makes %" PRIu64 " there, this one "
				      "is past it (make fewer, or use a device "
				      "with a larger %s: rdmascn devices -j)",
				      o->obj->name, dev->name, max,
				      counted[k].what, counted[k].fact,
				      dev->lim[k].used, counted[k].fact);
			r = -E2BIG;
		}
	}
	return r;
}
