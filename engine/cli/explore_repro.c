// SPDX-License-Identifier: MIT
/*
 * The reproducer rdmascn explore writes (--shrink-out): the scenario
 * file as it is, byte for byte, but for the defaults of the params the
 * shrinking fixed, under a comment that says how it was found.  The
 * default is found where the loader located it (FILE:LINE:COL of the
 * scalar), so comments, order and layout of the original stay.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dom.h"
#include "explore_cli.h"
#include "model.h"
#include "outfile.h"

/* The param's default scalar: NAME: V, or NAME: {default: V, ...}. */
static const struct rs_node *default_node(const struct rs_scenario *s,
					  const struct rs_param *p)
{
	const struct rs_node *n = rs_node_get(s->doc.root, "params");

	n = n && n->type == RS_NODE_MAP ? rs_node_get(n, p->name) : NULL;

	if (n && n->type == RS_NODE_MAP)
		n = rs_node_get(n, "default");
	return n && n->type == RS_NODE_SCALAR ? n : NULL;
}

/* The byte offset of LINE:COL (1-based) in @text, or -1. */
static long offset_of(const char *text, size_t len, unsigned line,
		      unsigned col)
{
	size_t i = 0;

	for (unsigned l = 1; l < line; l++) {
		const char *nl = memchr(text + i, '\n', len - i);

		if (!nl)
			return -1;
		i = nl - text + 1;
	}
	return i + col - 1 <= len ? (long)(i + col - 1) : -1;
}

/* Where the scalar that starts at @off ends: a quoted one at its
 * closing quote; a plain one before a flow indicator, a comment or the
 * end of the line, less trailing blanks. */
static size_t scalar_end(const char *text, size_t len, size_t off)
{
	size_t i = off;

	if (text[i] == '"' || text[i] == '\'') {
		char q = text[i++];

		while (i < len && text[i] != q) {
			if (q == '"' && text[i] == '\\' && i + 1 < len)
				i++;
			i++;
		}
		return i < len ? i + 1 : len;
	}
	while (i < len && text[i] != '\n' && text[i] != ',' &&
	       text[i] != '}' && text[i] != ']' &&
	       !(text[i] == '#' && i > off && (text[i - 1] == ' ' ||
					       text[i - 1] == '\t')))
		i++;
	while (i > off && (text[i - 1] == ' ' || text[i - 1] == '\t'))
		i--;
	return i;
}

/* @v as a YAML scalar: plain when it is a plain word or number, else
 * double-quoted. */
static void put_value(FILE *f, const char *v)
{
	bool plain = v[0] && !strpbrk(v, ":#,[]{}&*!|>'\"%@`\\\n ") &&
		     v[0] != '-' && v[0] != '?';

	if (plain) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			fputc('\\', f);
		fputc(*v, f);
	}
	fputc('"', f);
}

struct edit {
	size_t start, end;
	const char *value;
};

static int cmp_edit(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

int rs_ex_repro_write(const struct rs_scenario *s, const char *file,
		      const char *const *names, const char *const *values,
		      unsigned n, const char *comment, const char *out_path,
		      char *why, size_t len)
{
	struct edit *edits = rs_calloc(n + 1, sizeof(*edits));
	struct rs_out out = { 0 };
	unsigned n_edits = 0;
	char *text = NULL;
	size_t size = 0, at = 0;
	FILE *in;
	int r;

	if (!edits)
		return -ENOMEM;
	in = fopen(file, "re");
	if (!in) {
		r = -errno;
		snprintf(why, len, "%s: %s", file, strerror(errno));
		goto out;
	}
	{
		FILE *mem = open_memstream(&text, &size);
		char buf[8192];
		size_t got;

		while (mem && (got = fread(buf, 1, sizeof(buf), in)))
			fwrite(buf, 1, got, mem);
		fclose(in);
		if (!mem || fclose(mem)) {
			r = -ENOMEM;
			snprintf(why, len, "out of memory");
			goto out;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		const struct rs_param *p = NULL;
		const struct rs_node *d;
		long off = -1;

		for (unsigned j = 0; j < s->n_params && !p; j++)
			if (!strcmp(s->params[j].name, names[i]))
				p = &s->params[j];
		d = p ? default_node(s, p) : NULL;
		if (d) {
			const struct rs_loc *loc = rs_node_loc(d);

			off = offset_of(text, size, loc->line, loc->col);
		}
		if (off < 0) {
			r = -EINVAL;
			snprintf(why, len, "param '%s' has no default in %s "
				 "to change", names[i], file);
			goto out;
		}
		edits[n_edits++] = (struct edit){
			.start = off, .end = scalar_end(text, size, off),
			.value = values[i],
		};
	}
	qsort(edits, n_edits, sizeof(*edits), cmp_edit);
	r = rs_out_open(&out, "--shrink-out", out_path);
	if (r) {
		snprintf(why, len, "cannot be written");
		goto out;
	}
	for (const char *l = comment; *l;) {
		const char *nl = strchr(l, '\n');
		int w = nl ? (int)(nl - l) : (int)strlen(l);

		fprintf(out.f, "#%s%.*s\n", w ? " " : "", w, l);
		l += w + (nl != NULL);
	}
	for (unsigned i = 0; i < n_edits; i++) {
		fwrite(text + at, 1, edits[i].start - at, out.f);
		put_value(out.f, edits[i].value);
		at = edits[i].end;
	}
	fwrite(text + at, 1, size - at, out.f);
	r = rs_out_commit(&out);
	if (r)
		snprintf(why, len, "%s", strerror(-r));
out:
	free(text);
	rs_free(edits);
	return r;
}
