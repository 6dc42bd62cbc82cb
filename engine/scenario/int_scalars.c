// SPDX-License-Identifier: MIT
/*
 * Integer scalars, checked in the located DOM before libcyaml reads them.
 * libcyaml 1.3.1 converts with strtoll(value, &end, 0) and looks at `end`
 * only to see that something was read: `cqe: 2abc` and `cqe: 2.5` load as
 * 2, `0x` as 0, and `010` as 8 (octal).  The language's integers are
 * decimal or 0x hexadecimal (docs/scenario.md, Types); anything else in a
 * field whose schema is CYAML_INT or CYAML_UINT is an error here, at the
 * value, naming the object and the field, as libcyaml's own "expected
 * an integer" is.  The walk follows the very schema libcyaml loads with,
 * so every kind's and step's integer fields are covered without naming
 * one (`count:` is count.c's, which checks it the same way).  Values from params and
 * `${...}` are checked as substituted: the DOM holds them by now.  Range
 * is left to libcyaml ("300 is out of range (0..255)").
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "fill.h"
#include "load_error.h"
#include "registry.h"

/* Decimal without a leading zero, or 0x hex; a sign is libcyaml's to
 * judge (a u32's -1 is out of range, an int's is fine). */
const char *rs_int_syntax(const char *v)
{
	const char *p = v + (*v == '-' || *v == '+');

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (!*p)
			return "no hex digits after 0x";
		return p[strspn(p, "0123456789abcdefABCDEF")] ? "" : NULL;
	}
	if (!*p || p[strspn(p, "0123456789")])
		return "";
	if (p[0] == '0' && p[1])
		return "a leading 0 is not octal here: write it in decimal "
		       "or 0x hex";
	return NULL;
}

static int check(const struct rs_scenario *s, const struct rs_node *n,
		 const cyaml_schema_value_t *v, struct rs_diag *d)
{
	const char *why = rs_int_syntax(n->value);
	/* libcyaml reads an unsigned field with strtoull(), which takes a
	 * sign and wraps: a u64's -18446744073709547520 would be 4096. */
	bool negative = v->type == CYAML_UINT && n->value[0] == '-' && !why;
	struct rs_where w;

	/* Empty: libcyaml refuses it, located at its key. */
	if ((!why && !negative) || !n->value[0])
		return 0;
	if (rs_where_at(s->doc.root, n->start, &w) < 0) {
		rs_diag_error(d, &w.unknown_step_loc, "%s", w.unknown_step);
		return -EINVAL;
	}
	if (negative)
		rs_diag_error(d, rs_node_loc(n),
			      "%s%s%s%s is out of range (0..%llu)",
			      w.who, w.path, w.path[0] ? ": " : "", n->value,
			      v->data_size >= 8 ?
			      (unsigned long long)UINT64_MAX :
			      (1ull << (8 * v->data_size)) - 1);
	else
		rs_diag_error(d, rs_node_loc(n),
			      "%s%s%sexpected an integer, got "
			      "'%s'%s%s", w.who, w.path,
			      w.path[0] ? ": " : "", n->value,
			      why[0] ? ": " : "", why);
	return -EINVAL;
}

static int walk(const struct rs_scenario *s, const struct rs_node *n,
		const cyaml_schema_value_t *v, struct rs_diag *d)
{
	int ret = 0, r;

	if (!v || !n || d->errors >= RS_MAX_ERRORS)
		return 0;
	switch (v->type) {
	case CYAML_INT:
	case CYAML_UINT:
		return n->type == RS_NODE_SCALAR ? check(s, n, v, d) : 0;
	case CYAML_SEQUENCE:
	case CYAML_SEQUENCE_FIXED:
		if (n->type != RS_NODE_SEQ)
			return 0;
		for (size_t i = 0; i < n->n; i++) {
			r = walk(s, &n->items[i], v->sequence.entry, d);
			ret = r ? r : ret;
		}
		return ret;
	case CYAML_MAPPING:
		if (n->type != RS_NODE_MAP)
			return 0;
		for (size_t i = 0; i + 1 < n->n; i += 2) {
			const cyaml_schema_field_t *f = v->mapping.fields;

			while (f->key && strcmp(f->key, n->items[i].value))
				f++;
			/* Unknown keys are libcyaml's to report; `count:`
			 * is count.c's, whose message gives its range. */
			if (!f->key || !strcmp(f->key, "count"))
				continue;
			r = walk(s, &n->items[i + 1], &f->value, d);
			ret = r ? r : ret;
		}
		return ret;
	default:
		return 0;
	}
}

int rs_int_scalars_check(const struct rs_scenario *s, struct rs_diag *d)
{
	return walk(s, s->doc.root, rs_registry_schema(), d);
}
