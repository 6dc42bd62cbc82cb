// SPDX-License-Identifier: MIT
/*
 * One invocation's result files.  Each cell's record ends into a
 * struct rs_cell_result (the record, kept with rs_val_ref(), and
 * the human report, printed a second time into memory for JUnit's
 * system-out); the files are written once, from all of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "exit.h"
#include "outfile.h"
#include "report.h"
#include "value.h"

struct rs_results {
	char *json;
	char *junit;
	struct rs_val *matrix;
	struct rs_cell_result *cells;
	size_t n, cap;
};

struct cell_rep {
	struct rs_reporter r;
	struct rs_results *res;
	struct rs_reporter *text;  /* into buf */
	FILE *mem;
	char *buf;
	size_t len;
};

#define CELL(r) ((struct cell_rep *)(r))

static void cell_begin(struct rs_reporter *r, const struct rs_val *rec)
{
	struct cell_rep *c = CELL(r);

	if (c->text)
		c->text->ops->begin(c->text, rec);
}

static void cell_entry(struct rs_reporter *r, enum rs_rec_entry type,
		       const struct rs_val *e)
{
	struct cell_rep *c = CELL(r);

	if (c->text)
		c->text->ops->entry(c->text, type, e);
}

static bool cell_wants(struct rs_reporter *r, enum rs_rec_entry type)
{
	struct cell_rep *c = CELL(r);

	return c->text && (!c->text->ops->wants ||
			   c->text->ops->wants(c->text, type));
}

int rs_results_add(struct rs_results *res, struct rs_val *record,
		   char *human)
{
	struct rs_cell_result *cell;

	if (!human)
		human = strdup("");
	if (res->n == res->cap) {
		size_t cap = res->cap ? 2 * res->cap : 4;
		struct rs_cell_result *p =
			rs_reallocarray(res->cells, cap, sizeof(*p));

		if (p) {
			res->cells = p;
			res->cap = cap;
		}
	}
	if (!human || res->n == res->cap) {
		rs_val_free(record);
		free(human);
		return -ENOMEM;
	}
	cell = &res->cells[res->n++];
	cell->record = record;
	cell->human = human;
	return 0;
}

static int cell_end(struct rs_reporter *r, const struct rs_val *rec)
{
	struct cell_rep *c = CELL(r);
	char *human;

	if (c->text)
		c->text->ops->end(c->text, rec);
	if (c->mem) {
		fclose(c->mem);
		c->mem = NULL;
	}
	human = c->buf;
	c->buf = NULL;  /* the cell owns it now */
	return rs_results_add(c->res,
			      rs_val_ref(rec),
			      human);
}

static void cell_free(struct rs_reporter *r)
{
	struct cell_rep *c = CELL(r);

	if (c->text)
		c->text->ops->free(c->text);
	if (c->mem)
		fclose(c->mem);
	free(c->buf);  /* open_memstream's, not rs_alloc's */
	rs_free(c);
}

static const struct rs_reporter_ops cell_ops = {
	.begin = cell_begin,
	.entry = cell_entry,
	.wants = cell_wants,
	.end = cell_end,
	.free = cell_free,
};

struct rs_reporter *rs_results_cell(struct rs_results *res)
{
	struct cell_rep *c = rs_calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->r.ops = &cell_ops;
	c->res = res;
	/* Only JUnit shows the human report. */
	if (res->junit) {
		c->mem = open_memstream(&c->buf, &c->len);
		c->text = c->mem ? rs_report_text(c->mem, c->mem, NULL) : NULL;
		if (!c->text) {
			cell_free(&c->r);
			return NULL;
		}
	}
	return &c->r;
}

struct rs_results *rs_results_new(const char *json, const char *junit)
{
	struct rs_results *res = rs_calloc(1, sizeof(*res));

	if (!res)
		return NULL;
	if ((json && !(res->json = rs_strdup(json))) ||
	    (junit && !(res->junit = rs_strdup(junit)))) {
		rs_results_free(res);
		return NULL;
	}
	return res;
}

struct rs_val *rs_results_matrix(struct rs_results *res)
{
	if (!res->matrix)
		res->matrix = rs_val_obj();
	return res->matrix;
}

static int put_out(void *o, const void *buf, size_t n)
{
	return rs_out_write(o, buf, n);
}

/* The JSON document: the one cell's record, or the matrix with a record
 * per cell. */
static int write_json(struct rs_results *res, int exit_code)
{
	struct rs_val *doc = NULL;
	const struct rs_val *top;
	struct rs_out o;
	int ret;

	if (res->matrix) {
		struct rs_val *cells;

		doc = rs_val_obj();
		rs_val_put_str(doc, "format", "rdmascn-run/1");
		rs_val_put(doc, "matrix",
			   rs_val_ref(res->matrix));
		rs_val_put_str(doc, "verdict", rs_exit_verdict(exit_code));
		rs_val_put_i64(doc, "exit_code", exit_code);
		cells = rs_val_put_arr(doc, "cells");
		for (size_t i = 0; i < res->n; i++)
			rs_val_push(cells,
				    rs_val_ref(res->cells[i].record));
		if (rs_val_check(doc)) {
			rs_val_free(doc);
			return -ENOMEM;
		}
		top = doc;
	} else if (res->n) {
		top = res->cells[0].record;
	} else {
		return 0;
	}
	ret = rs_out_open(&o, "--json", res->json);
	if (!ret) {
		/* A failed write is the stream's error: the commit says it. */
		if (rs_val_write_json_to(top, true, put_out, &o) == -ENOMEM) {
			ret = -ENOMEM;
			fprintf(stderr, "rdmascn: --json %s: %s\n", res->json,
				strerror(ENOMEM));
			rs_out_abort(&o);
		} else {
			ret = rs_out_commit(&o);
		}
	}
	rs_val_free(doc);
	return ret;
}

int rs_results_write(struct rs_results *res, int exit_code)
{
	int ret = 0, r;

	if (res->json)
		ret = write_json(res, exit_code);
	if (res->junit) {
		struct rs_out o;

		r = rs_out_open(&o, "--junit", res->junit);
		if (!r && rs_junit_write(o.f, res->cells, res->n) == -ENOMEM) {
			r = -ENOMEM;
			fprintf(stderr, "rdmascn: --junit %s: %s\n",
				res->junit, strerror(ENOMEM));
			rs_out_abort(&o);
		} else if (!r) {
			/* -EIO from the writer is the stream's error too. */
			r = rs_out_commit(&o);
		}
		ret = ret ? ret : r;
	}
	return ret;
}

void rs_results_free(struct rs_results *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n; i++) {
		rs_val_free(res->cells[i].record);
		free(res->cells[i].human);  /* open_memstream's or strdup's */
	}
	rs_free(res->cells);
	rs_val_free(res->matrix);
	rs_free(res->json);
	rs_free(res->junit);
	rs_free(res);
}
