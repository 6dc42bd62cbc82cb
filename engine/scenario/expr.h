/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_EXPR_H
#define RDMASCN_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The expressions of ${...}: integers, names (a param, or a fact
 * CTX.device.FIELD / CTX.port.FIELD / CTX.gid.FIELD), + - * / %,
 * unary -, parentheses, min(a, ...) and max(a, ...).  Arithmetic is
 * checked: every value stays within [INT64_MIN, UINT64_MAX] (a u64 fact
 * such as max_mr_size is a value), division by zero is an error.  A
 * lone name may stand for text (a param "any", a fact "roce_v2"); text
 * in arithmetic is an error.
 */
struct rs_expr_val {
	bool text;              /* @str, not @num */
	__int128 num;
	const char *str;        /* the resolver's, kept until it returns */
	const char *name;       /* a lone name: which, for messages */
	size_t name_len;
};

/* Resolve a name of @len bytes at @name: 0 and *ret, or -errno with a
 * message in @why ("unknown param 'x'"). */
typedef int (*rs_expr_lookup_fn)(void *arg, const char *name, size_t len,
				 struct rs_expr_val *ret, char *why,
				 size_t why_len);

/* Evaluate @len bytes at @src.  0 with the value in *ret (a lone name's
 * text as the resolver gave it); -EINVAL with a message in @why; the
 * resolver's -errno as it gave it. */
int rs_expr_eval(const char *src, size_t len, rs_expr_lookup_fn lookup,
		 void *arg, struct rs_expr_val *ret, char *why,
		 size_t why_len);

/* An integer in decimal ("-12", "4096") or hex ("0x1000"), alone in
 * @s: true with *ret. */
bool rs_expr_int(const char *s, __int128 *ret);

/* @v in decimal into @buf (at least 44 bytes). */
const char *rs_expr_num_text(__int128 v, char *buf, size_t len);

#endif
