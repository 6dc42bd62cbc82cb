// SPDX-License-Identifier: MIT
/*
 * --graph-out's reporter on a record of our own making: each node in
 * its outcome's colour (objects by creation order, steps found by their
 * place in the file, with or without an id), the tooltips, the legend,
 * and a matrix cell's file name.  The scenario is loaded for real.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "list.h"
#include "report.h"
#include "run_fixture.h"
#include "value.h"

static const char yaml[] =
	"scenario: colours\n"
	"contexts: [{id: ctx, device: any}]\n"
	"pds: [{id: pd, context: ctx}]\n"
	"cqs: [{id: cq, context: ctx, cqe: 16}]\n"
	"mrs: [{id: m, pd: pd, length: 64, access: [local_write]}]\n"
	"qps: [{id: a, pd: pd, type: ud, send_cq: cq, recv_cq: cq}]\n"
	"steps:\n"
	"  - recv: {id: r, qp: a, local: m}\n"
	"  - recv: {qp: a, local: m}\n";

/* The record's lists as a run that failed at the cq would leave them;
 * the steps as if they had run all the same. */
static struct rs_val *record(const struct rs_scenario *s, const char *cell)
{
	static const char *const objs[][2] = {
		{ "ctx", "created" }, { "pd", "created" }, { "m", "created" },
		{ "cq", "failed" }, { "a", "not created" },
	};
	static const char *const steps[] = { "failed", "skipped" };
	struct rs_val *rec = rs_val_obj(), *a;

	rs_val_put_str(rec, "verdict", "could not run");
	rs_val_put_bool(rec, "dry_run", false);
	if (cell)
		rs_val_put_str(rs_val_put_obj(rec, "cell"), "name", cell);
	a = rs_val_put_arr(rec, "objects");
	CHECK_UINT(s->n_objects, 5);
	for (unsigned i = 0; i < s->n_objects; i++) {
		struct rs_val *e = rs_val_push_obj(a);
		unsigned k = 0;

		while (strcmp(objs[k][0], s->create[i]->id))
			k++;
		rs_val_put_str(e, "id", objs[k][0]);
		rs_val_put_str(e, "outcome", objs[k][1]);
		if (!strcmp(objs[k][1], "not created"))
			rs_val_put_str(e, "needs", "cq");
	}
	a = rs_val_put_arr(rec, "steps");
	/* In the order they ended: the second first. */
	for (unsigned i = s->n_steps; i-- > 0;) {
		const struct rs_loc *l = rs_obj_loc(s->steps[i], NULL);
		struct rs_val *e = rs_val_push_obj(a);

		rs_val_put_str(e, "file", l->file);
		rs_val_put_u64(e, "line", l->line);
		rs_val_put_u64(e, "col", l->col);
		rs_val_put_str(e, "outcome", steps[i]);
		if (i == 0)
			rs_val_put_str(e, "message", "no \"room\"");
	}
	CHECK_INT(rs_val_check(rec), 0);
	return rec;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);

	CHECK(f && buf);
	CHECK(fread(buf, 1, (1 << 16) - 1, f) > 0);
	fclose(f);
	return buf;
}

/* The node line of @name, up to its end. */
static const char *node(const char *dot, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "\t\"%s\" [label=", name);
	p = strstr(dot, key);
	CHECK(p);
	return p;
}

static bool node_has(const char *dot, const char *name, const char *attr)
{
	const char *p = node(dot, name), *end = strchr(p, '\n');
	const char *hit = strstr(p, attr);

	return hit && hit < end;
}

/* @cell's graph (NULL: no matrix), read from the file with @infix
 * before its extension. */
static void draw(const char *cell, const char *infix, char **ret_dot)
{
	struct rs_scenario *s;
	struct rs_run run;
	struct rs_record rec;
	struct rs_reporter *r;
	struct rs_val *v;
	char path[128];

	fixture_run_open("graph.yaml", yaml, &s, &run, &rec);
	v = record(s, cell);
	snprintf(path, sizeof(path), "/tmp/rdmascn-graph.%d.gv", getpid());
	r = rs_report_graph(s, path);
	CHECK(r);
	CHECK_INT(r->ops->end(r, v), 0);
	r->ops->free(r);
	snprintf(path, sizeof(path), "/tmp/rdmascn-graph.%d%s.gv", getpid(),
		 infix);
	*ret_dot = slurp(path);
	unlink(path);
	rs_val_free(v);
	fixture_run_close(s, &run, &rec);
}

TEST(graph, run_outcomes)
{
	char *dot;

	draw(NULL, "", &dot);
	CHECK(strstr(dot, "label=\"colours: could not run\""));
	CHECK(node_has(dot, "ctx", "fillcolor=\"#b7e1b0\""));
	CHECK(node_has(dot, "m", "tooltip=\"created\""));
	CHECK(node_has(dot, "cq", "fillcolor=\"#f4a6a6\""));
	CHECK(node_has(dot, "a", "style=\"filled,dashed\""));
	CHECK(node_has(dot, "a", "tooltip=\"not created: needs cq\""));
	/* Steps: by id, and by place without one. */
	CHECK(node_has(dot, "r", "style=\"rounded,filled\", "
		       "fillcolor=\"#f4a6a6\""));
	CHECK(node_has(dot, "r", "tooltip=\"failed: no \\\"room\\\"\""));
	CHECK(node_has(dot, "step 2 (recv)", "fillcolor=\"#fbe99a\""));
	CHECK(node_has(dot, "step 2 (recv)", "tooltip=\"skipped\""));
	CHECK(strstr(dot, "\t\"legend\" [shape=plain, label=<<table"));
	CHECK(strstr(dot, ">not created</font></td>"));
	free(dot);
}

/* A cell's graph: its name before the extension, '/' and ' ' made '_'. */
TEST(graph, cell_file)
{
	char *dot;

	draw("size=64,dir=a/b c", ".size=64,dir=a_b_c", &dot);
	CHECK(strstr(dot, "label=\"colours (size=64,dir=a/b c): could not "
		      "run\""));
	free(dot);
}
