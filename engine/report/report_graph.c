// SPDX-License-Identifier: MIT
/*
 * --graph-out FILE: when a run's record ends, the scenario's graph with
 * each object and step in the colour of its outcome, as FILE's extension
 * says (DOT, or SVG/PNG through Graphviz's dot).  A matrix cell's graph
 * goes to FILE with the cell's name before the extension.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "graph_file.h"
#include "model.h"
#include "report.h"
#include "value.h"

struct graph_rep {
	struct rs_reporter r;
	const struct rs_scenario *s;
	char *path;
	enum rs_graph_format fmt;
};

#define GRAPH(r) ((struct graph_rep *)(r))

static bool file_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("+,-.=_", c));
}

/* @path with ".@cell" before its extension; in the cell's name, what is
 * not a letter, digit or one of "+,-.=_" becomes '_', so that no value
 * makes a directory or a name a shell has to quote. */
static char *cell_path(const char *path, const char *cell)
{
	const char *ext = strrchr(path, '.');
	size_t head = (size_t)(ext - path), len = strlen(cell);
	char *p = rs_malloc(strlen(path) + len + 2);

	if (!p)
		return NULL;
	memcpy(p, path, head);
	p[head] = '.';
	for (size_t i = 0; i < len; i++)
		p[head + 1 + i] = file_char(cell[i]) ? cell[i] : '_';
	strcpy(p + head + 1 + len, ext);
	return p;
}

/* The step @e is, by its place in the file (steps need not have ids;
 * the file is the one scenario, under whichever path it was read, as
 * `rdmascn report --scenario` reads it again); -1 when none. */
static int step_of(const struct rs_scenario *s, const struct rs_val *e)
{
	uint64_t line = rs_val_get_u64(e, "line");
	uint64_t col = rs_val_get_u64(e, "col");

	for (unsigned i = 0; i < s->n_steps; i++) {
		const struct rs_loc *l = rs_obj_loc(s->steps[i], NULL);

		if (l && l->line == line && l->col == col)
			return (int)s->steps[i]->index;
	}
	return -1;
}

/* Each object's and step's outcome from the record; an object that was
 * not created says which one it needed, a step why it did not pass. */
static int outcomes(const struct rs_scenario *s, const struct rs_val *rec,
		    const char **outcome, char **note)
{
	const struct rs_val *objs = rs_val_get(rec, "objects");
	const struct rs_val *steps = rs_val_get(rec, "steps");

	/* The record lists the objects in creation order. */
	for (size_t i = 0; i < rs_val_len(objs) && i < s->n_objects; i++) {
		const struct rs_val *e = rs_val_at(objs, i);
		const struct rs_obj *o = s->create[i];
		const char *id = rs_val_get_str(e, "id");
		const char *needs = rs_val_get_str(e, "needs");

		if (!id || strcmp(id, o->id))
			continue;
		outcome[o->index] = rs_val_get_str(e, "outcome");
		if (!needs)
			continue;
		note[o->index] = rs_malloc(strlen(needs) + 7);
		if (!note[o->index])
			return -ENOMEM;
		sprintf(note[o->index], "needs %s", needs);
	}
	for (size_t i = 0; i < rs_val_len(steps); i++) {
		const struct rs_val *e = rs_val_at(steps, i);
		const char *msg = rs_val_get_str(e, "message");
		int k = step_of(s, e);

		if (k < 0)
			continue;
		outcome[k] = rs_val_get_str(e, "outcome");
		if (msg && !note[k] && !(note[k] = rs_strdup(msg)))
			return -ENOMEM;
	}
	return 0;
}

static int graph_end(struct rs_reporter *r, const struct rs_val *rec)
{
	struct graph_rep *g = GRAPH(r);
	const struct rs_scenario *s = g->s;
	const struct rs_val *cell = rs_val_get(rec, "cell");
	const char *cell_name = cell ? rs_val_get_str(cell, "name") : NULL;
	const char *verdict = rs_val_get_str(rec, "verdict");
	const char **outcome = rs_calloc(s->n_objs + 1, sizeof(*outcome));
	char **note = rs_calloc(s->n_objs + 1, sizeof(*note));
	char *path = cell_name ? cell_path(g->path, cell_name) : g->path;
	char title[1200], what[4200];
	int ret = -ENOMEM;

	if (!outcome || !note || !path || outcomes(s, rec, outcome, note)) {
		fprintf(stderr, "rdmascn: --graph-out %s: out of memory\n",
			path ? path : g->path);
		goto out;
	}
	snprintf(title, sizeof(title), "%s%s%s%s: %s%s",
		 s->top->scenario ? s->top->scenario : "scenario",
		 cell_name ? " (" : "", cell_name ? cell_name : "",
		 cell_name ? ")" : "", verdict ? verdict : "not finished",
		 rs_val_get_bool(rec, "dry_run") ? " (dry run)" : "");
	snprintf(what, sizeof(what), "--graph-out %s", path);
	ret = rs_graph_write(path, g->fmt, what, s, &(struct rs_dot_run){
		.outcome = outcome,
		.note = (const char *const *)note,
		.title = title,
	});
out:
	for (unsigned i = 0; note && i < s->n_objs; i++)
		rs_free(note[i]);
	rs_free(note);
	rs_free(outcome);
	if (path != g->path)
		rs_free(path);
	return ret;
}

static void graph_free(struct rs_reporter *r)
{
	rs_free(GRAPH(r)->path);
	rs_free(r);
}

static const struct rs_reporter_ops graph_ops = {
	.end = graph_end,
	.free = graph_free,
};

struct rs_reporter *rs_report_graph(const struct rs_scenario *s,
				    const char *path)
{
	struct graph_rep *g;
	int fmt = rs_graph_format_of(path);

	if (fmt < 0 || !(g = rs_calloc(1, sizeof(*g))))
		return NULL;
	g->r.ops = &graph_ops;
	g->s = s;
	g->fmt = fmt;
	g->path = rs_strdup(path);
	if (!g->path) {
		rs_free(g);
		return NULL;
	}
	return &g->r;
}
