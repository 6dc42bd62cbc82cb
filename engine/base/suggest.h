/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_SUGGEST_H
#define RDMASCN_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * "Did you mean": the valid names nearest a rejected word.  Offer every
 * name valid where the word stood, one by one; then format the remedy.
 * The names are copied, so they may be transient (a fact's path built in
 * a buffer).  A name is near when its edit distance (insertions,
 * deletions, substitutions and swaps of two neighbours, case ignored) is
 * at most a third of the word's length, at least 1 and at most 3: "sendcq"
 * is near "send_cq", "rd" near "rc" and "ud", "rdma_write" near nothing.
 * A word without a letter ("16") is near nothing, nor is one of a single
 * letter, but for its case.
 */
#define RS_SUGGEST_NEAR 3     /* names kept at the best distance */
#define RS_SUGGEST_LIST 8     /* a list this short is worth printing */
#define RS_SUGGEST_NAME 64    /* longer names are kept cut */

struct rs_suggest {
	const char *word;
	/* The farthest a near name may be; a caller may lower it before
	 * the first name (a fact's group prefix is not worth edits). */
	unsigned limit;
	unsigned best;        /* distance of near[]; limit + 1: none yet */
	unsigned n_near;      /* names at best, all of them */
	bool numeric;         /* no letter in word: nothing is near */
	char near[RS_SUGGEST_NEAR][RS_SUGGEST_NAME];
	unsigned n_names;     /* names offered, all of them */
	char names[RS_SUGGEST_LIST][RS_SUGGEST_NAME];
};

void rs_suggest_init(struct rs_suggest *s, const char *word);
void rs_suggest_add(struct rs_suggest *s, const char *name);
/*
 * The remedy, to append to a message, into @buf (always terminated):
 * ", did you mean 'send_cq'?" (or "'rc' or 'ud'?") when a name is near
 * and at most RS_SUGGEST_NEAR are as near (more say nothing: "max_dm" is
 * as near max_qp, max_cq, max_mr and max_pd);
 * else, with @list and at most RS_SUGGEST_LIST names offered,
 * " (expected one of: a, b)"; else "".  The length written.
 */
size_t rs_suggest_fmt(const struct rs_suggest *s, bool list, char *buf,
		      size_t len);
/*
 * The edit distance of @a and @b (optimal string alignment, case
 * ignored), or @max + 1 once it is known to exceed @max.
 */
unsigned rs_edit_distance(const char *a, const char *b, unsigned max);

#endif
