// SPDX-License-Identifier: MIT
/*
 * ${...} expressions: a recursive descent over the text, evaluating as
 * it goes (they are a few tokens long; no tree is worth building).
 *
 *	expr    := term (('+' | '-') term)*
 *	term    := unary (('*' | '/' | '%') unary)*
 *	unary   := '-' unary | primary
 *	primary := INT | NAME | FUNC '(' expr (',' expr)* ')' | '(' expr ')'
 *
 * A NAME is letters, digits, '_' and '.' (a fact is
 * "ctx.port.max_msg_sz"), so "size-1" is size minus one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "expr.h"

#define LO ((__int128)INT64_MIN)
#define HI ((__int128)UINT64_MAX)
/* LO..HI in a message: "... " RANGE, with RANGE_ARGS. */
#define RANGE "%" PRId64 " to %" PRIu64
#define RANGE_ARGS INT64_MIN, UINT64_MAX
/* Deep nesting is hostile input, not a scenario. */
#define MAX_DEPTH 64

struct ex {
	const char *p, *end, *src;
	rs_expr_lookup_fn lookup;
	void *arg;
	char *why;
	size_t why_len;
	unsigned depth;
	int err;
};

static int fail(struct ex *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct ex *x, const char *fmt, ...)
{
	va_list ap;

	if (x->err)
		return x->err;
	va_start(ap, fmt);
	vsnprintf(x->why, x->why_len, fmt, ap);
	va_end(ap);
	x->err = -EINVAL;
	return x->err;
}

static void skip_ws(struct ex *x)
{
	while (x->p < x->end && (*x->p == ' ' || *x->p == '\t'))
		x->p++;
}

static bool name_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && ((c >= '0' && c <= '9') || c == '.'));
}

/* @s as an integer: 0; -ERANGE written as one (decimal, or 0x hex) but
 * outside LO..HI; -EINVAL not written as one. */
static int int_of(const char *s, __int128 *ret)
{
	bool neg = *s == '-', over = false;
	unsigned base = 10;
	__int128 v = 0;

	if (neg)
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && s[2]) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -EINVAL;
		/* Past the range: the rest is only looked at. */
		if (!over)
			v = v * base + d;
		over = over || v > HI + 1;
	}
	v = neg ? -v : v;
	if (over || v < LO || v > HI)
		return -ERANGE;
	*ret = v;
	return 0;
}

bool rs_expr_int(const char *s, __int128 *ret)
{
	return !int_of(s, ret);
}

const char *rs_expr_num_text(__int128 v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "%" PRId64, (int64_t)v);
	else
		snprintf(buf, len, "%" PRIu64, (uint64_t)v);
	return buf;
}

static int expr(struct ex *x, struct rs_expr_val *v);

/* A number for arithmetic: text there is an error naming it (an integer
 * too big for the range said as such, not as "not a number"). */
static int need_num(struct ex *x, const struct rs_expr_val *v,
		    const char *what)
{
	int len;
	const char *name;

	if (!v->text)
		return 0;
	len = v->name ? (int)v->name_len : (int)strlen(what);
	name = v->name ? v->name : what;
	if (int_of(v->str, &(__int128){ 0 }) == -ERANGE)
		return fail(x, "%.*s is '%s', not an integer from " RANGE,
			    len, name, v->str, RANGE_ARGS);
	return fail(x, "%.*s is '%s', not a number", len, name, v->str);
}

static int call(struct ex *x, const char *fn, size_t n, struct rs_expr_val *v)
{
	bool is_min = n == 3 && !memcmp(fn, "min", 3);
	unsigned args = 0;

	x->p++; /* '(' */
	for (;;) {
		struct rs_expr_val a;
		int r = expr(x, &a);

		if (r)
			return r;
		if (need_num(x, &a, "an argument of min()/max()"))
			return x->err;
		if (!args++ || (is_min ? a.num < v->num : a.num > v->num))
			*v = a;
		skip_ws(x);
		if (x->p < x->end && *x->p == ',') {
			x->p++;
			continue;
		}
		if (x->p < x->end && *x->p == ')') {
			x->p++;
			return 0;
		}
		return fail(x, "expected ',' or ')' in %.*s()", (int)n, fn);
	}
}

static int primary(struct ex *x, struct rs_expr_val *v)
{
	const char *s;

	skip_ws(x);
	if (x->p == x->end)
		return fail(x, "expected a number, a name or '(' at the end");
	s = x->p;
	if (*s == '(') {
		int r;

		x->p++;
		r = expr(x, v);
		if (r)
			return r;
		skip_ws(x);
		if (x->p == x->end || *x->p != ')')
			return fail(x, "expected ')'");
		x->p++;
		return 0;
	}
	if (*s >= '0' && *s <= '9') {
		char num[48];
		size_t n;

		while (x->p < x->end && ((*x->p >= '0' && *x->p <= '9') ||
		       (*x->p >= 'a' && *x->p <= 'z') ||
		       (*x->p >= 'A' && *x->p <= 'Z')))
			x->p++;
		n = x->p - s;
		if (n >= sizeof(num))
			return fail(x, "'%.*s' is not an integer from " RANGE,
				    (int)n, s, RANGE_ARGS);
		memcpy(num, s, n);
		num[n] = '\0';
		if (!rs_expr_int(num, &v->num))
			return fail(x, "'%s' is not an integer from " RANGE,
				    num, RANGE_ARGS);
		v->text = false;
		v->name = NULL;
		return 0;
	}
	if (name_char(*s, true)) {
		size_t n;
		int r;

		while (x->p < x->end && name_char(*x->p, false))
			x->p++;
		n = x->p - s;
		skip_ws(x);
		if ((n == 3 && (!memcmp(s, "min", 3) || !memcmp(s, "max", 3))) &&
		    x->p < x->end && *x->p == '(')
			return call(x, s, n, v);
		r = x->lookup(x->arg, s, n, v, x->why, x->why_len);
		if (r)
			x->err = r;
		v->name = s;
		v->name_len = n;
		return r;
	}
	return fail(x, "unexpected '%c'", *s);
}

static int unary(struct ex *x, struct rs_expr_val *v)
{
	int r;

	skip_ws(x);
	if (x->p < x->end && *x->p == '-') {
		x->p++;
		if (++x->depth > MAX_DEPTH)
			return fail(x, "nested deeper than %d", MAX_DEPTH);
		r = unary(x, v);
		x->depth--;
		if (r || need_num(x, v, "the operand of '-'"))
			return x->err;
		v->num = -v->num;
		v->name = NULL;
		if (v->num < LO)
			return fail(x, "the value is below %" PRId64, INT64_MIN);
		return 0;
	}
	return primary(x, v);
}

/* @a op @b, checked. */
static int apply(struct ex *x, char op, struct rs_expr_val *a,
		 const struct rs_expr_val *b)
{
	char t1[48], t2[48];
	__int128 r;

	if (need_num(x, a, "the left operand") ||
	    need_num(x, b, "the right operand"))
		return x->err;
	switch (op) {
	case '+':
		r = a->num + b->num;
		break;
	case '-':
		r = a->num - b->num;
		break;
	case '*':
		if (__builtin_mul_overflow(a->num, b->num, &r))
			r = HI + 1;
		break;
	default:
		if (!b->num)
			return fail(x, "%s %c 0: division by zero",
				    rs_expr_num_text(a->num, t1, sizeof(t1)), op);
		r = op == '/' ? a->num / b->num : a->num % b->num;
		break;
	}
	if (r < LO || r > HI)
		return fail(x, "%s %c %s overflows (the range is " RANGE ")",
			    rs_expr_num_text(a->num, t1, sizeof(t1)), op,
			    rs_expr_num_text(b->num, t2, sizeof(t2)),
			    RANGE_ARGS);
	a->num = r;
	a->name = NULL;
	return 0;
}

static int term(struct ex *x, struct rs_expr_val *v)
{
	int r = unary(x, v);

	while (!r) {
		struct rs_expr_val b;
		char op;

		skip_ws(x);
		if (x->p == x->end || !strchr("*/%", *x->p))
			break;
		op = *x->p++;
		r = unary(x, &b);
		if (!r)
			r = apply(x, op, v, &b);
	}
	return r;
}

static int expr(struct ex *x, struct rs_expr_val *v)
{
	int r;

	if (++x->depth > MAX_DEPTH)
		return fail(x, "nested deeper than %d", MAX_DEPTH);
	r = term(x, v);
	while (!r) {
		struct rs_expr_val b;
		char op;

		skip_ws(x);
		if (x->p == x->end || (*x->p != '+' && *x->p != '-'))
			break;
		op = *x->p++;
		r = term(x, &b);
		if (!r)
			r = apply(x, op, v, &b);
	}
	x->depth--;
	return r;
}

int rs_expr_eval(const char *src, size_t len, rs_expr_lookup_fn lookup,
		 void *arg, struct rs_expr_val *ret, char *why,
		 size_t why_len)
{
	struct ex x = { .p = src, .end = src + len, .src = src,
			.lookup = lookup, .arg = arg, .why = why,
			.why_len = why_len };
	struct rs_expr_val v = { 0 };
	int r;

	why[0] = '\0';
	skip_ws(&x);
	if (x.p == x.end)
		return fail(&x, "an empty expression");
	r = expr(&x, &v);
	if (r)
		return r;
	skip_ws(&x);
	if (x.p != x.end)
		return fail(&x, "unexpected '%c' after the expression", *x.p);
	*ret = v;
	return 0;
}
