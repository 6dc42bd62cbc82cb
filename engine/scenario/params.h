/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PARAMS_H
#define RDMASCN_PARAMS_H

#include "model.h"

/* What ${} may make: one value (a param's, or a scalar's) at most this
 * many bytes once expanded, all of them together at most the second. */
#define RS_PARAM_LEN_MAX (1024u * 1024u)
#define RS_PARAMS_TOTAL_MAX (16u * 1024u * 1024u)

/* Declare params, apply the environment and --set, substitute ${name}
 * in the DOM, and make s->text (what libcyaml reads) when anything was
 * substituted. */
int rs_params_apply(struct rs_scenario *s, const struct rs_set *sets,
		    unsigned n_sets, struct rs_diag *d);
/* A byte offset in s->text, as a byte offset in the user's file. */
size_t rs_params_orig_offset(const struct rs_scenario *s, size_t off);
/* ", did you mean 'size'?" for @word, not a param of @s, into @buf; else,
 * with @list and at most 8 params, " (expected one of: ...)"; else "".
 * Its length. */
size_t rs_param_near(const struct rs_scenario *s, const char *word,
		     bool list, char *buf, size_t len);

#endif
