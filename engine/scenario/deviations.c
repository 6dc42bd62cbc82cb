// SPDX-License-Identifier: MIT
/* Known deviations: `deviations:` and --deviations FILE. */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <string.h>

#include "alloc.h"
#include "deviations.h"
#include "macros.h"
#include "model.h"
#include "suggest.h"

static const char *const fields[] = {
	"device", "provider", "scenario", "steps", "known", "reason",
};

static bool step_declared(const struct rs_scenario *s, const char *id)
{
	for (unsigned i = 0; i < s->n_steps; i++)
		if (s->steps[i]->id && !strcmp(s->steps[i]->id, id))
			return true;
	return false;
}

static int scalar(const struct rs_node *v, const char *key, struct rs_diag *d)
{
	if (v->type == RS_NODE_SCALAR && v->value[0])
		return 0;
	rs_diag_error(d, rs_node_loc(v), "deviations: %s: expected a non-empty "
		      "scalar", key);
	return -EINVAL;
}

static int read_steps(struct rs_deviation *x, const struct rs_node *v,
		      const struct rs_scenario *s, struct rs_diag *d)
{
	if (v->type != RS_NODE_SEQ || !v->n) {
		rs_diag_error(d, rs_node_loc(v),
			      "deviations: steps: expected a list "
			      "of step ids");
		return -EINVAL;
	}
	x->steps = rs_calloc(v->n, sizeof(*x->steps));
	if (!x->steps)
		return -ENOMEM;
	for (size_t i = 0; i < v->n; i++) {
		const struct rs_node *id = &v->items[i];

		if (scalar(id, "steps", d))
			return -EINVAL;
		if (s && !step_declared(s, id->value)) {
			rs_diag_error(d, rs_node_loc(id),
				      "deviations: steps: no step "
				      "has the id '%s'", id->value);
			return -EINVAL;
		}
		x->steps[x->n_steps++] = id->value;
	}
	return 0;
}

static int read_one(struct rs_deviation *x, const struct rs_node *e,
		    const struct rs_scenario *s, struct rs_diag *d)
{
	*x = (struct rs_deviation){ .loc = *rs_node_loc(e) };
	if (e->type != RS_NODE_MAP) {
		rs_diag_error(d, rs_node_loc(e),
			      "deviations: each entry is a mapping "
			      "(device or provider, steps, known, reason)");
		return -EINVAL;
	}
	for (size_t i = 0; i + 1 < e->n; i += 2) {
		const char *k = e->items[i].value;
		const struct rs_node *v = &e->items[i + 1];
		bool known_field = false;
		int r = 0;

		for (size_t f = 0; f < RS_N(fields); f++)
			known_field |= !strcmp(k, fields[f]);
		if (!known_field) {
			struct rs_suggest sg;
			char near[160];

			rs_suggest_init(&sg, k);
			for (size_t f = 0; f < RS_N(fields); f++)
				rs_suggest_add(&sg, fields[f]);
			rs_suggest_fmt(&sg, false, near, sizeof(near));
			rs_diag_error(d, rs_node_loc(&e->items[i]),
				      "deviations: "
				      "unknown field '%s'%s (device, provider, "
				      "scenario, steps, known, reason)", k,
				      near);
			return -EINVAL;
		}
		if (!strcmp(k, "steps")) {
			r = read_steps(x, v, s, d);
			if (r)
				return r;
			continue;
		}
		if (scalar(v, k, d))
			return -EINVAL;
		if (!strcmp(k, "device"))
			x->device = v->value;
		else if (!strcmp(k, "provider"))
			x->provider = v->value;
		else if (!strcmp(k, "scenario"))
			x->scenario = v->value;
		else if (!strcmp(k, "reason"))
			x->reason = v->value;
		else if (!strcmp(v->value, "skip") || !strcmp(v->value, "fail"))
			x->skip = !strcmp(v->value, "skip");
		else {
			rs_diag_error(d, rs_node_loc(v),
				      "deviations: known: '%s' is "
				      "not fail or skip", v->value);
			return -EINVAL;
		}
	}
	if (!x->reason) {
		rs_diag_error(d, rs_node_loc(e),
			      "deviations: an entry needs a reason");
		return -EINVAL;
	}
	if (!x->device && !x->provider) {
		rs_diag_error(d, rs_node_loc(e),
			      "deviations: an entry names a device "
			      "or a provider (a glob: \"*\" for any)");
		return -EINVAL;
	}
	return 0;
}

int rs_deviations_read(struct rs_deviations *dv, const struct rs_node *list,
		       const struct rs_scenario *s, struct rs_diag *d)
{
	struct rs_deviation *v;
	int r;

	if (!list)
		return 0;
	if (list->type != RS_NODE_SEQ) {
		rs_diag_error(d, rs_node_loc(list),
			      "deviations: expected a list of "
			      "entries");
		return -EINVAL;
	}
	v = rs_reallocarray(dv->v, dv->n + list->n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	dv->v = v;
	for (size_t i = 0; i < list->n; i++) {
		r = read_one(&dv->v[dv->n], &list->items[i], s, d);
		dv->n++;  /* freed with the others, even half read */
		if (r)
			return r;
	}
	return 0;
}

int rs_deviations_load(struct rs_deviations *dv, const char *path,
		       struct rs_diag *d)
{
	struct rs_node *list;
	int r;

	dv->doc = rs_calloc(1, sizeof(*dv->doc));
	if (!dv->doc)
		return -ENOMEM;
	r = rs_doc_load(dv->doc, path, d);
	if (r)
		return r;
	list = dv->doc->root && dv->doc->root->type == RS_NODE_MAP ?
	       rs_node_get(dv->doc->root, "deviations") : NULL;
	if (!list) {
		struct rs_loc loc = { path, 1, 1 };

		rs_diag_error(d, &loc, "a deviations file is a mapping with a "
			      "'deviations:' list");
		return -EINVAL;
	}
	return rs_deviations_read(dv, list, NULL, d);
}

bool rs_deviation_for_scenario(const struct rs_deviation *x,
			       const char *name, const char *file)
{
	const char *base = strrchr(file, '/');

	base = base ? base + 1 : file;
	return !x->scenario || (name && !fnmatch(x->scenario, name, 0)) ||
	       !fnmatch(x->scenario, file, 0) ||
	       !fnmatch(x->scenario, base, 0);
}

void rs_dev_provider(const char *dev, char *buf, size_t size)
{
	size_t n = strnlen(dev, size - 1);

	memcpy(buf, dev, n);
	while (n && isdigit((unsigned char)buf[n - 1]))
		n--;
	while (n && buf[n - 1] == '_')
		n--;
	buf[n] = '\0';
}

bool rs_deviation_for_device(const struct rs_deviation *x, const char *dev)
{
	char provider[64];

	rs_dev_provider(dev, provider, sizeof(provider));
	return (!x->device || !fnmatch(x->device, dev, 0)) &&
	       (!x->provider || !fnmatch(x->provider, provider, 0));
}

bool rs_deviation_for_step(const struct rs_deviation *x, const char *id)
{
	if (!id)
		return !x->n_steps;
	for (unsigned i = 0; i < x->n_steps; i++)
		if (!strcmp(x->steps[i], id))
			return true;
	return false;
}

void rs_deviations_free(struct rs_deviations *dv)
{
	for (unsigned i = 0; i < dv->n; i++)
		rs_free(dv->v[i].steps);
	rs_free(dv->v);
	if (dv->doc) {
		rs_doc_free(dv->doc);
		rs_free(dv->doc);
	}
	memset(dv, 0, sizeof(*dv));
}
