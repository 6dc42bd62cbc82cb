// SPDX-License-Identifier: MIT
/* "Did you mean": a bounded edit distance and the nearest names. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"

/* Longer words are not typos worth measuring; they cost a row each. */
#define WORD_MAX 128

unsigned rs_edit_distance(const char *a, const char *b, unsigned max)
{
	unsigned rows[3][WORD_MAX + 1];
	unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	size_t la = strlen(a), lb = strlen(b);

	if (la > WORD_MAX || lb > WORD_MAX)
		return max + 1;
	if ((la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		unsigned row_min;
		unsigned *t;

		cur[0] = row_min = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			unsigned d = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			/* "lenght": two neighbours swapped is one edit. */
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    cb == tolower((unsigned char)a[i - 2]) &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
			if (d < row_min)
				row_min = d;
		}
		/* Every later row is at least this row's least. */
		if (row_min > max)
			return max + 1;
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb] > max ? max + 1 : prev[lb];
}

void rs_suggest_init(struct rs_suggest *s, const char *word)
{
	size_t len = strlen(word);

	memset(s, 0, sizeof(*s));
	s->word = word;
	/* One letter is a typo of every other: only its case is. */
	s->limit = len < 2 ? 0 : len / 3 < 1 ? 1 : len / 3 > 3 ? 3 : len / 3;
	s->best = s->limit + 1;
	/* A number is no typo of a name: '16' is not "near" '10' and '14'. */
	s->numeric = true;
	for (const char *c = word; *c; c++)
		s->numeric &= !isalpha((unsigned char)*c);
}

void rs_suggest_add(struct rs_suggest *s, const char *name)
{
	unsigned d;

	if (!name || !name[0] || !strcmp(name, s->word))
		return;
	for (unsigned i = 0; i < s->n_names && i < RS_SUGGEST_LIST; i++)
		if (!strcmp(s->names[i], name))
			return;
	if (s->n_names < RS_SUGGEST_LIST)
		snprintf(s->names[s->n_names], RS_SUGGEST_NAME, "%s", name);
	s->n_names++;
	if (s->numeric)
		return;
	d = rs_edit_distance(s->word, name, s->limit);
	if (d > s->limit || d > s->best)
		return;
	if (d < s->best) {
		s->best = d;
		s->n_near = 0;
	}
	for (unsigned i = 0; i < s->n_near && i < RS_SUGGEST_NEAR; i++)
		if (!strcmp(s->near[i], name))
			return;
	if (s->n_near < RS_SUGGEST_NEAR)
		snprintf(s->near[s->n_near], RS_SUGGEST_NAME, "%s", name);
	s->n_near++;
}

size_t rs_suggest_fmt(const struct rs_suggest *s, bool list, char *buf,
		      size_t len)
{
	size_t o = 0;

#define PUT(...) \
	(o += snprintf(buf + (o < len ? o : len), o < len ? len - o : 0, \
		       __VA_ARGS__))
	if (!len)
		return 0;
	buf[0] = '\0';
	if (s->n_near && s->n_near <= RS_SUGGEST_NEAR) {
		PUT(", did you mean ");
		for (unsigned i = 0; i < s->n_near; i++)
			PUT("%s'%s'", !i ? "" : i + 1 < s->n_near ? ", " :
			    " or ", s->near[i]);
		PUT("?");
	} else if (list && s->n_names && s->n_names <= RS_SUGGEST_LIST) {
		PUT(" (expected one of: ");
		for (unsigned i = 0; i < s->n_names; i++)
			PUT("%s%s", i ? ", " : "", s->names[i]);
		PUT(")");
	}
#undef PUT
	return o < len ? o : len - 1;
}
