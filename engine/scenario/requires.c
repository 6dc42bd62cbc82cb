// SPDX-License-Identifier: MIT
/* requires.facts: bounds on what a context's device reports, checked
 * by the loader for shape and by a run against each device. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "expr.h"
#include "requires.h"

static const struct rs_node *bound_node(const struct rs_scenario *s,
					unsigned i, const char *key)
{
	const struct rs_node *f = rs_node_get(rs_node_get(s->doc.root,
							  "requires"), "facts");
	const struct rs_node *e = f && f->type == RS_NODE_SEQ && i < f->n ?
				  &f->items[i] : NULL;
	const struct rs_node *v = key ? rs_node_get(e, key) : NULL;

	return v ? v : e ? e : f;
}

static int bad(struct rs_diag *d, const struct rs_scenario *s, unsigned i,
	       const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int bad(struct rs_diag *d, const struct rs_scenario *s, unsigned i,
	       const char *key, const char *fmt, ...)
{
	const struct rs_node *n = bound_node(s, i, key);
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rs_diag_error(d, n ? rs_node_loc(n) : NULL,
		      "requires.facts[%u]: %s", i, msg);
	return -EINVAL;
}

/* requires.counters: each a kernel name, which the run looks up in
 * sysfs; a path or a glob would look elsewhere or match nothing. */
static int check_counters(struct rs_scenario *s, struct rs_diag *d)
{
	const struct rs_requires *req = s->top->requires;
	const struct rs_node *seq = rs_node_get(rs_node_get(s->doc.root,
							    "requires"),
						"counters");
	int r = 0;

	for (unsigned i = 0; req && i < req->counters_count; i++) {
		const char *n = req->counters[i];

		if (n[strspn(n, "abcdefghijklmnopqrstuvwxyz"
			     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")]) {
			const struct rs_node *e = seq && i < seq->n ?
						  &seq->items[i] : seq;

			rs_diag_error(d, e ? rs_node_loc(e) : NULL,
				      "requires.counters[%u]: '%s' is not a "
				      "counter's name (the kernel's, as in "
				      "/sys/class/infiniband/DEV/ports/PORT/"
				      "counters)", i, n);
			r = -EINVAL;
		}
	}
	return r;
}

int rs_requires_check(struct rs_scenario *s, struct rs_diag *d)
{
	const struct rs_requires *req = s->top->requires;
	int r = check_counters(s, d);

	for (unsigned i = 0; req && i < req->facts_count; i++) {
		struct rs_fact_bound *b = &req->facts[i];
		__int128 eq;

		b->f = rs_fact_find(b->fact, strlen(b->fact));
		if (!b->f) {
			char near[160];

			rs_fact_near(b->fact, strlen(b->fact), near,
				     sizeof(near));
			r = bad(d, s, i, "fact", "unknown fact '%s'%s "
				"(device.FIELD, port.FIELD as `rdmascn devices "
				"-j` names them, gid.index, gid.type, gid.gid, "
				"or mlx5.FIELD as mlx5dv_query_device() says)",
				b->fact, near);
			continue;
		}
		if (!b->min && !b->max && !b->equals)
			r = bad(d, s, i, NULL, "%s: give a bound: min, max or "
				"equals", b->fact);
		else if (b->f->text && (b->min || b->max))
			r = bad(d, s, i, b->min ? "min" : "max", "%s is text: "
				"bound it with equals, not %s", b->fact,
				b->min ? "min" : "max");
		else if (!b->f->text && b->equals &&
			 (!rs_expr_int(b->equals, &eq) || eq < 0))
			r = bad(d, s, i, "equals", "%s is a number, not '%s'",
				b->fact, b->equals);
		else if (b->min && b->max && *b->min > *b->max)
			r = bad(d, s, i, "min", "%s: min is above max",
				b->fact);
	}
	return r;
}

bool rs_requires_fact_met(const struct rs_fact_bound *b,
			  const struct rs_fact_val *v, char *why, size_t len)
{
	char path[64], have[64];
	__int128 eq = 0;

	rs_fact_path(b->f, path, sizeof(path));
	if (v->text)
		snprintf(have, sizeof(have), "%s", v->str);
	else
		snprintf(have, sizeof(have), "%" PRIu64, v->num);
	if (b->equals && (v->text ? !rs_fact_text_eq(v->str, b->equals) :
			  !rs_expr_int(b->equals, &eq) ||
			  (uint64_t)eq != v->num)) {
		snprintf(why, len, "%s %s (it has %s", path, b->equals, have);
		return false;
	}
	if (b->min && v->num < *b->min) {
		snprintf(why, len, "%s of at least %" PRIu64 " (it has %s",
			 path, *b->min, have);
		return false;
	}
	if (b->max && v->num > *b->max) {
		snprintf(why, len, "%s of at most %" PRIu64 " (it has %s",
			 path, *b->max, have);
		return false;
	}
	return true;
}
