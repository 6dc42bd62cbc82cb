// SPDX-License-Identifier: MIT
/* A scenario's matrix: `matrix:` and --matrix, and its cells. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "idmap.h"
#include "matrix.h"
#include "model.h"
#include "params.h"

static const struct rs_param *param(const struct rs_scenario *s,
				    const char *name)
{
	for (unsigned i = 0; i < s->n_params; i++)
		if (!strcmp(s->params[i].name, name))
			return &s->params[i];
	return NULL;
}

static int dim_of(const struct rs_matrix *m, const char *name)
{
	for (unsigned i = 0; i < m->n_dims; i++)
		if (!strcmp(m->dims[i].name, name))
			return i;
	return -1;
}

static bool has_value(const struct rs_matrix_dim *dm, const char *v)
{
	for (unsigned i = 0; i < dm->n; i++)
		if (!strcmp(dm->values[i], v))
			return true;
	return false;
}

/* "a, b, c" of the declared params, for messages. */
static void param_names(const struct rs_scenario *s, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < s->n_params && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				s->params[i].name);
	if (!s->n_params)
		snprintf(buf, size, "none");
}

/* A new dim @name (a declared param, fixed by --set to its value) or the
 * one there, emptied. */
static struct rs_matrix_dim *dim_new(struct rs_matrix *m, const char *name)
{
	int k = dim_of(m, name);
	struct rs_matrix_dim *p;

	if (k >= 0) {
		m->dims[k].n = 0;
		return &m->dims[k];
	}
	p = rs_reallocarray(m->dims, m->n_dims + 1, sizeof(*p));
	if (!p)
		return NULL;
	m->dims = p;
	p = &m->dims[m->n_dims++];
	*p = (struct rs_matrix_dim){ .name = name };
	return p;
}

/* Room for @n values: one allocation for a list of any length. */
static int dim_room(struct rs_matrix_dim *dm, size_t n)
{
	const char **p;

	if (n > UINT_MAX)
		return -ENOMEM;
	p = rs_reallocarray(dm->values, n ? n : 1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	dm->values = p;
	return 0;
}

/*
 * The first value of @dm that an earlier one repeats: its index, or
 * -1 when none does; -ENOMEM.  A hash of the values, so that a list of
 * any length costs its length, not its square.
 */
static long dim_repeat(const struct rs_matrix_dim *dm)
{
	struct rs_idmap seen;
	long ret = -1;

	if (rs_idmap_build(&seen, dm->values, dm->n))
		return -ENOMEM;
	/* Of two equal values the map keeps the first. */
	for (unsigned i = 0; i < dm->n && ret < 0; i++)
		if (rs_idmap_get(&seen, dm->values[i]) != i)
			ret = i;
	rs_idmap_free(&seen);
	return ret;
}

/* A value given twice is one cell: the later ones go.  0 or -ENOMEM. */
static int dim_dedup(struct rs_matrix_dim *dm)
{
	struct rs_idmap seen;
	unsigned k = 0;
	/* The map reads its ids back from the array it was built on:
	 * not the one compacted under it. */
	const char **ids = rs_calloc(dm->n ? dm->n : 1, sizeof(*ids));

	if (!ids)
		return -ENOMEM;
	if (dm->n)
		memcpy(ids, dm->values, dm->n * sizeof(*ids));
	if (rs_idmap_build(&seen, ids, dm->n)) {
		rs_free(ids);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < dm->n; i++)
		if (rs_idmap_get(&seen, ids[i]) == i)
			dm->values[k++] = ids[i];
	dm->n = k;
	rs_idmap_free(&seen);
	rs_free(ids);
	return 0;
}

/* A param given with --set is that one value (@dm has room for one). */
static void fix_set(struct rs_matrix_dim *dm, const struct rs_param *p)
{
	if (!p->set)
		return;
	dm->values[0] = p->value;
	dm->n = 1;
}

/*
 * The number of combinations into @ret_n; false when it is more than
 * RS_MATRIX_MAX_CELLS (*@ret_n then the product, or ULLONG_MAX when
 * even that overflows).  Every dim has one value or more.
 */
static bool count_cells(const struct rs_matrix *m, unsigned long long *ret_n)
{
	unsigned long long n = 1;
	bool over = false;

	for (unsigned i = 0; i < m->n_dims; i++) {
		if (__builtin_mul_overflow(n, m->dims[i].n, &n)) {
			*ret_n = ULLONG_MAX;
			return false;
		}
		over |= n > RS_MATRIX_MAX_CELLS;
	}
	*ret_n = n;
	return !over;
}

/* Say that @m has too many cells, at @loc, after @what ("matrix",
 * "--matrix size=..."). */
static int too_many(const struct rs_matrix *m, const struct rs_loc *loc,
		    const char *what, struct rs_diag *d)
{
	unsigned long long n;
	char count[48];

	if (count_cells(m, &n))
		return 0;
	if (n == ULLONG_MAX)
		snprintf(count, sizeof(count), "more than %llu", ULLONG_MAX);
	else
		snprintf(count, sizeof(count), "%llu", n);
	rs_diag_error(d, loc, "%s: %s cells (%u param%s), over the limit of "
		      "%u; fix some params with --set, or split the matrix",
		      what, count, m->n_dims, m->n_dims == 1 ? "" : "s",
		      RS_MATRIX_MAX_CELLS);
	return -EINVAL;
}

static int read_dim(struct rs_matrix *m, const struct rs_scenario *s,
		    struct rs_node *key, struct rs_node *val, struct rs_diag *d)
{
	const struct rs_param *p = param(s, key->value);
	struct rs_matrix_dim *dm;
	char names[256];
	long r;

	if (!p) {
		char near[160];

		rs_param_near(s, key->value, false, near, sizeof(near));
		param_names(s, names, sizeof(names));
		rs_diag_error(d, rs_node_loc(key),
			      "matrix: '%s' is not a param%s "
			      "(params: %s)", key->value, near, names);
		return -EINVAL;
	}
	if (val->type == RS_NODE_MAP || (val->type == RS_NODE_SEQ && !val->n)) {
		rs_diag_error(d, rs_node_loc(val),
			      "matrix: '%s' takes a list of one "
			      "or more values", key->value);
		return -EINVAL;
	}
	dm = dim_new(m, p->name);
	if (!dm || dim_room(dm, val->type == RS_NODE_SCALAR ? 1 : val->n))
		return -ENOMEM;
	if (val->type == RS_NODE_SCALAR) {  /* one value */
		dm->values[dm->n++] = val->value;
		return 0;
	}
	for (size_t i = 0; i < val->n; i++) {
		if (val->items[i].type != RS_NODE_SCALAR) {
			rs_diag_error(d, rs_node_loc(&val->items[i]),
				      "matrix: '%s': "
				      "each value must be a scalar", key->value);
			return -EINVAL;
		}
		dm->values[dm->n++] = val->items[i].value;
	}
	r = dim_repeat(dm);
	if (r >= 0)
		rs_diag_error(d, rs_node_loc(&val->items[r]),
			      "matrix: '%s': '%s' is "
			      "there twice", key->value, val->items[r].value);
	return r == -1 ? 0 : r >= 0 ? -EINVAL : (int)r;
}

static int read_excl(struct rs_matrix *m, struct rs_node *e,
		     struct rs_diag *d)
{
	struct rs_matrix_excl *x;

	if (e->type != RS_NODE_MAP || !e->n) {
		rs_diag_error(d, rs_node_loc(e),
			      "matrix: exclude: each entry is a "
			      "mapping of matrix params to values");
		return -EINVAL;
	}
	x = rs_reallocarray(m->excl, m->n_excl + 1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	m->excl = x;
	x = &m->excl[m->n_excl++];
	*x = (struct rs_matrix_excl){
		.dim = rs_calloc(e->n / 2, sizeof(*x->dim)),
		.value = rs_calloc(e->n / 2, sizeof(*x->value)),
	};
	if (!x->dim || !x->value)
		return -ENOMEM;
	for (size_t i = 0; i + 1 < e->n; i += 2) {
		struct rs_node *k = &e->items[i], *v = &e->items[i + 1];
		int dim = dim_of(m, k->value);

		if (dim < 0) {
			rs_diag_error(d, rs_node_loc(k),
				      "matrix: exclude: '%s' is not "
				      "a param of the matrix", k->value);
			return -EINVAL;
		}
		if (v->type != RS_NODE_SCALAR ||
		    !has_value(&m->dims[dim], v->value)) {
			rs_diag_error(d, rs_node_loc(v),
				      "matrix: exclude: '%s' is "
				      "not one of the values of '%s'",
				      v->type == RS_NODE_SCALAR ? v->value : "",
				      k->value);
			return -EINVAL;
		}
		x->dim[x->n] = dim;
		x->value[x->n++] = v->value;
	}
	return 0;
}

int rs_matrix_read(struct rs_matrix *m, const struct rs_scenario *s,
		   struct rs_diag *d)
{
	struct rs_node *mx = rs_node_get(s->doc.root, "matrix");
	struct rs_node *excl = NULL;
	int r;

	memset(m, 0, sizeof(*m));
	if (!mx)
		return 0;
	if (mx->type != RS_NODE_MAP) {
		rs_diag_error(d, rs_node_loc(mx),
			      "matrix: expected a mapping of "
			      "params to lists of values (and exclude:)");
		return -EINVAL;
	}
	for (size_t i = 0; i + 1 < mx->n; i += 2) {
		struct rs_node *k = &mx->items[i], *v = &mx->items[i + 1];

		if (!strcmp(k->value, "exclude")) {
			excl = v;
			continue;
		}
		r = read_dim(m, s, k, v, d);
		if (r)
			return r;
	}
	if (excl && excl->type != RS_NODE_SEQ) {
		rs_diag_error(d, rs_node_loc(excl),
			      "matrix: exclude: expected a "
			      "list of combinations");
		return -EINVAL;
	}
	for (size_t i = 0; excl && i < excl->n; i++) {
		r = read_excl(m, &excl->items[i], d);
		if (r)
			return r;
	}
	/* After exclude: an entry naming a value --set left out is not an
	 * error, it excludes nothing. */
	for (unsigned i = 0; i < m->n_dims; i++)
		fix_set(&m->dims[i], param(s, m->dims[i].name));
	return too_many(m, rs_node_loc(mx), "matrix", d);
}

int rs_matrix_set(struct rs_matrix *m, const struct rs_scenario *s,
		  char *spec, struct rs_diag *d)
{
	char *eq = strchr(spec, '='), *save = NULL, *v;
	struct rs_loc loc = { .file = s->doc.file, .line = 1, .col = 1 };
	const struct rs_param *p;
	struct rs_matrix_dim *dm;
	char names[256], what[64], *at;
	size_t n = 1;

	if (!eq || eq == spec || !eq[1]) {
		rs_diag_error(d, &loc, "--matrix %s: expected "
			      "NAME=VALUE,VALUE,...", spec);
		return -EINVAL;
	}
	*eq = '\0';
	p = param(s, spec);
	if (!p) {
		char near[160];

		rs_param_near(s, spec, false, near, sizeof(near));
		param_names(s, names, sizeof(names));
		rs_diag_error(d, &loc, "--matrix %s: the scenario has no "
			      "param '%s'%s (params: %s)", spec, spec, near,
			      names);
		return -EINVAL;
	}
	for (at = eq + 1; (at = strchr(at, ',')); at++)
		n++;
	dm = dim_new(m, p->name);
	if (!dm || dim_room(dm, n))
		return -ENOMEM;
	for (v = strtok_r(eq + 1, ",", &save); v; v = strtok_r(NULL, ",", &save))
		dm->values[dm->n++] = v;
	if (!dm->n) {
		rs_diag_error(d, &loc, "--matrix %s: no values", spec);
		return -EINVAL;
	}
	if (dim_dedup(dm))
		return -ENOMEM;
	fix_set(dm, p);
	snprintf(what, sizeof(what), "--matrix %s", spec);
	return too_many(m, &loc, what, d);
}

unsigned long rs_matrix_size(const struct rs_matrix *m)
{
	unsigned long long n;

	/* Read and set refused a matrix over the bound. */
	return count_cells(m, &n) ? n : RS_MATRIX_MAX_CELLS;
}

bool rs_matrix_cell(const struct rs_matrix *m, unsigned long i,
		    struct rs_set *sets)
{
	for (unsigned k = m->n_dims; k-- > 0;) {
		const struct rs_matrix_dim *dm = &m->dims[k];

		sets[k].name = dm->name;
		sets[k].value = dm->values[i % dm->n];
		i /= dm->n;
	}
	for (unsigned e = 0; e < m->n_excl; e++) {
		const struct rs_matrix_excl *x = &m->excl[e];
		unsigned hit = 0;

		for (unsigned j = 0; j < x->n; j++)
			hit += !strcmp(sets[x->dim[j]].value, x->value[j]);
		if (hit == x->n)
			return false;
	}
	return true;
}

void rs_matrix_free(struct rs_matrix *m)
{
	for (unsigned i = 0; i < m->n_dims; i++)
		rs_free(m->dims[i].values);
	for (unsigned i = 0; i < m->n_excl; i++) {
		rs_free(m->excl[i].dim);
		rs_free(m->excl[i].value);
	}
	rs_free(m->dims);
	rs_free(m->excl);
	memset(m, 0, sizeof(*m));
}
