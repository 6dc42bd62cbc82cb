// SPDX-License-Identifier: MIT
/*
 * What rdmascn explore shows of its cells: the table in search order
 * with the best, knee, boundary and shrunk cells marked; the matrix
 * document (--json) with the search beside it; the objective over the
 * axes as SVG, drawn by gnuplot (--graph-out).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "alloc.h"
#include "explore_cli.h"
#include "macros.h"
#include "outfile.h"
#include "signals.h"

static bool finding(const struct ex *x)
{
	return x->e.goal == RS_EXPLORE_FIND_FAIL ||
	       x->e.goal == RS_EXPLORE_FIND_GATE;
}

/* The marks of cell @i (1-based number @no), space-separated. */
static void marks(const struct ex *x, unsigned no, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
#define MARK(...) do { if (len < size) len += snprintf(buf + len, \
		size - len, "%s", len ? " " : ""); if (len < size) \
		len += snprintf(buf + len, size - len, __VA_ARGS__); } while (0)
	if (x->x.has_best && x->x.best_r.cell == no)
		MARK("best");
	for (unsigned a = 0; a < x->e.n_axes; a++)
		if (x->x.has_knee[a] && x->x.knee_cell[a] == no)
			MARK("knee(%s)", x->e.axes[a].name);
	if (x->x.found && x->x.failing_r.cell == no)
		MARK("found");
	for (unsigned a = 0; a < x->e.n_axes && finding(x); a++) {
		const struct xcell *c = &x->cells[no - 1];

		if (!x->x.has_boundary[a] || strcmp(c->phase, "shrink") == 0 ||
		    !strcmp(c->phase, "check"))
			continue;
		for (unsigned b = 0; b < x->e.n_axes; b++)
			if (b != a && c->p.v[b] != x->x.failing.v[b])
				goto next;
		if (c->p.v[a] == x->x.pass[a])
			MARK("boundary(%s) passes", x->e.axes[a].name);
		if (c->p.v[a] == x->x.fail[a])
			MARK("boundary(%s) fails", x->e.axes[a].name);
next:;
	}
	if (x->shrunk && x->small_cell == no)
		MARK("shrunk");
	if (x->repro_cell == no)
		MARK("reproducer: %s", x->repro_same ? "fails the same way" :
		     "does NOT fail the same way");
#undef MARK
}

static const char *outcome(const struct ex *x, const struct xcell *c)
{
	if (c->code == RS_EXIT_PASSED && x->ro.dry_run)
		return "dry run done";
	return c->code >= 128 ? "interrupted" : rs_exit_verdict(c->code);
}

void rs_ex_table(struct ex *x)
{
	const char *head = finding(x) ? "fails" : x->e.figure;
	int w = 8;
	char m[512], buf[32];

	for (unsigned i = 0; i < x->n; i++)
		if ((int)strlen(x->cells[i].name) > w)
			w = strlen(x->cells[i].name);
	if (w > 48)
		w = 48;
	fprintf(x->out, "\n  %3s  %-6s  %-*s  %-13s  %14s\n", "#", "phase",
		w, "cell", "verdict", head);
	for (unsigned i = 0; i < x->n; i++) {
		const struct xcell *c = &x->cells[i];

		if (finding(x))
			snprintf(buf, sizeof(buf), "%s",
				 !c->r.ran ? "-" : c->r.fails ? "yes" : "no");
		else if (c->r.has_value)
			snprintf(buf, sizeof(buf), "%.6g", c->r.value);
		else
			snprintf(buf, sizeof(buf), "-");
		marks(x, i + 1, m, sizeof(m));
		fprintf(x->out, "  %3u  %-6s  %-*s  ", i + 1, c->phase, w,
			c->name);
		rs_text_outcome(x->out, &x->ro.text, outcome(x, c));
		fprintf(x->out, "%*s  %14s%s%s\n",
			13 - (int)strlen(outcome(x, c)) > 0 ?
			13 - (int)strlen(outcome(x, c)) : 0, "", buf,
			m[0] ? "  " : "", m);
	}
	fputs("\n", x->out);
	if (!finding(x)) {
		if (x->x.has_best)
			fprintf(x->out, "best: cell %u: %s: %s %.6g\n",
				x->x.best_r.cell,
				x->cells[x->x.best_r.cell - 1].name,
				x->e.figure, x->x.best_r.value);
		else
			fprintf(x->out, "best: none: no cell recorded %s%s\n",
				x->e.figure, x->ro.dry_run ?
				" (a dry run measures nothing)" : "");
		for (unsigned a = 0; a < x->e.n_axes; a++)
			if (x->x.has_knee[a])
				fprintf(x->out, "knee of %s: %lld (cell %u): "
					"the smallest value within %.0f%% of "
					"the best on its line%s\n",
					x->e.axes[a].name,
					(long long)x->x.knee[a],
					x->x.knee_cell[a], x->e.knee_pct ?
					x->e.knee_pct : 10.0, x->e.repeat > 1 ?
					", on the medians of its deciding "
					"cells' runs" : "");
	} else if (x->x.found) {
		fprintf(x->out, "found: cell %u: %s: %s\n",
			x->x.failing_r.cell,
			x->cells[x->x.failing_r.cell - 1].name,
			x->cells[x->x.failing_r.cell - 1].sig);
		for (unsigned a = 0; a < x->e.n_axes; a++)
			if (x->x.has_boundary[a])
				fprintf(x->out, "boundary of %s: passes at "
					"%lld, fails at %lld\n",
					x->e.axes[a].name,
					(long long)x->x.pass[a],
					(long long)x->x.fail[a]);
		if (x->shrunk)
			fprintf(x->out, "shrunk: cell %u: %s (%u cells "
				"shrinking)\n", x->small_cell,
				x->cells[x->small_cell - 1].name,
				x->shrink_cells);
		if (x->repro_written)
			fprintf(x->out, "reproducer: %s: run alone, %s\n",
				x->shrink_out, x->repro_same ?
				"fails the same way" :
				"does NOT fail the same way");
	} else {
		fprintf(x->out, "found: nothing %s in the %u cells run\n",
			x->e.goal == RS_EXPLORE_FIND_GATE ? "missed a gate" :
			"failed", x->n);
	}
	fprintf(x->out, "search: %s; %u cells, %.1f s\n", x->stopped ?
		x->stopped : "done", x->n, x->elapsed_s);
	fflush(x->out);
}

static struct json_object *str(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static void put(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

/* The search's part of the document: matrix.explore. */
static struct json_object *search_json(const struct ex *x)
{
	struct json_object *e = json_object_new_object(), *o, *order;

	put(e, "strategy", str(rs_explore_strategy_name(x->e.strategy)));
	put(e, "seed", json_object_new_uint64(x->e.seed));
	if (x->e.repeat > 1)
		put(e, "repeat", json_object_new_int(x->e.repeat));
	o = json_object_new_object();
	put(o, "goal", str(rs_explore_goal_name(x->e.goal)));
	if (x->e.figure)
		put(o, "figure", str(x->e.figure));
	put(e, "objective", o);
	o = json_object_new_object();
	put(o, "cells", json_object_new_uint64(x->e.budget_cells));
	if (x->e.budget_s)
		put(o, "seconds", json_object_new_double(x->e.budget_s));
	put(e, "budget", o);
	put(e, "stopped", str(x->stopped ? x->stopped : "done"));
	order = json_object_new_array();
	for (unsigned i = 0; i < x->n; i++)
		json_object_array_add(order, str(x->cells[i].name));
	put(e, "order", order);
	if (x->x.has_best)
		put(e, "best", json_object_new_int(x->x.best_r.cell));
	if (x->x.found)
		put(e, "found", json_object_new_int(x->x.failing_r.cell));
	o = json_object_new_object();
	for (unsigned a = 0; a < x->e.n_axes; a++) {
		struct json_object *k;

		if (!x->x.has_knee[a])
			continue;
		k = json_object_new_object();
		put(k, "value", json_object_new_int64(x->x.knee[a]));
		put(k, "cell", json_object_new_int(x->x.knee_cell[a]));
		put(o, x->e.axes[a].name, k);
	}
	if (json_object_object_length(o))
		put(e, "knee", o);
	else
		json_object_put(o);
	o = json_object_new_object();
	for (unsigned a = 0; a < x->e.n_axes; a++) {
		struct json_object *b;

		if (!x->x.has_boundary[a])
			continue;
		b = json_object_new_object();
		put(b, "passes", json_object_new_int64(x->x.pass[a]));
		put(b, "fails", json_object_new_int64(x->x.fail[a]));
		put(o, x->e.axes[a].name, b);
	}
	if (json_object_object_length(o))
		put(e, "boundary", o);
	else
		json_object_put(o);
	if (x->shrunk) {
		o = json_object_new_object();
		put(o, "cell", json_object_new_int(x->small_cell));
		put(o, "from", json_object_new_int(x->shrink_from));
		put(o, "cells", json_object_new_int(x->shrink_cells));
		if (x->repro_written) {
			put(o, "file", str(x->shrink_out));
			put(o, "fails_the_same_way",
			    json_object_new_boolean(x->repro_same));
		}
		put(e, "shrunk", o);
	}
	return e;
}

/* A cell that left no record (killed before it wrote one): the
 * not-run record of the matrix document, with its search. */
static struct json_object *bare(const struct ex *x, const struct xcell *c)
{
	struct json_object *rec = json_object_new_object(), *cell;

	put(rec, "format", str("rdmascn-run/1"));
	cell = json_object_new_object();
	put(cell, "name", str(c->name));
	put(cell, "params", json_object_new_object());
	put(rec, "cell", cell);
	put(rec, "verdict", str("not run"));
	(void)x;
	return rec;
}

int rs_ex_json(struct ex *x, int code)
{
	struct json_object *doc = json_object_new_object(), *mx, *params;
	struct json_object *cells = json_object_new_array();
	struct rs_out out = { 0 };
	const char *text;
	char m[512];
	int r;

	put(doc, "format", str("rdmascn-run/1"));
	mx = json_object_new_object();
	params = json_object_new_object();
	for (unsigned a = 0; a < x->e.n_axes; a++) {
		struct json_object *v = json_object_new_array();

		for (unsigned i = 0; i < x->e.axes[a].n; i++)
			json_object_array_add(v, str(x->e.axes[a].values[i]));
		put(params, x->e.axes[a].name, v);
	}
	put(mx, "params", params);
	put(mx, "cells", json_object_new_int(x->n));
	put(mx, "explore", search_json(x));
	put(doc, "matrix", mx);
	put(doc, "verdict", str(code >= 128 ? "interrupted" :
				rs_exit_verdict(code)));
	put(doc, "exit_code", json_object_new_int(code));
	for (unsigned i = 0; i < x->n; i++) {
		const struct xcell *c = &x->cells[i];
		struct json_object *rec = c->rec ? json_object_get(c->rec) :
					  bare(x, c);
		struct json_object *cell, *s = json_object_new_object();

		/* The reproducer's run is no cell of the file: no params. */
		if (!json_object_object_get_ex(rec, "cell", &cell)) {
			cell = json_object_new_object();
			put(cell, "name", str(""));
			put(cell, "params", json_object_new_object());
			put(rec, "cell", cell);
		}
		put(s, "order", json_object_new_int(i + 1));
		put(s, "phase", str(c->phase));
		if (c->r.has_value)
			put(s, "objective", json_object_new_double(c->r.value));
		if (c->r.ran && finding(x))
			put(s, "fails", json_object_new_boolean(c->r.fails));
		if (c->r.ran && c->code != RS_EXIT_PASSED)
			put(s, "failure", str(c->sig));
		marks(x, i + 1, m, sizeof(m));
		if (m[0])
			put(s, "marks", str(m));
		put(cell, "search", s);
		json_object_array_add(cells, rec);
	}
	put(doc, "cells", cells);
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	r = text ? rs_out_open(&out, "--json", x->json) : -ENOMEM;
	if (!r) {
		fputs(text, out.f);
		fputc('\n', out.f);
		r = rs_out_commit(&out);
	}
	json_object_put(doc);
	return r;
}

/* Run gnuplot on @script: 0; 1 when it is not installed; -errno. */
static int gnuplot(const char *script)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return 1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

/* gnuplot's string: in single quotes, a quote doubled. */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

int rs_ex_graph(struct ex *x)
{
	char dat[PATH_MAX + 16], gp[PATH_MAX + 16];
	struct rs_out out = { 0 };
	unsigned xa = 0, ca = 1;
	FILE *d, *g;
	int r;

	/* The first numeric axis across, the next one as the colour. */
	for (unsigned a = 0; a < x->e.n_axes; a++)
		if (x->e.axes[a].numeric) {
			xa = a;
			break;
		}
	ca = xa == 0 ? 1 : 0;
	snprintf(dat, sizeof(dat), "%s/plot.dat", x->dir);
	snprintf(gp, sizeof(gp), "%s/plot.gp", x->dir);
	d = fopen(dat, "we");
	if (!d)
		return -errno;
	for (unsigned i = 0; i < x->n; i++) {
		const struct xcell *c = &x->cells[i];
		char buf[32];

		if (!c->r.ran || !strcmp(c->phase, "check") ||
		    (!finding(x) && !c->r.has_value))
			continue;
		fprintf(d, "%s %g %s\n", rs_ex_value(x, &c->p, xa, buf,
						      sizeof(buf)),
			finding(x) ? (double)c->r.fails : c->r.value,
			ca < x->e.n_axes ? rs_ex_value(x, &c->p, ca, buf,
						       sizeof(buf)) : "0");
	}
	if (fclose(d))
		return -errno;
	r = rs_out_open(&out, "--graph-out", x->graph_out);
	if (r)
		return r;
	g = fopen(gp, "we");
	if (!g) {
		rs_out_abort(&out);
		return -errno;
	}
	fputs("set terminal svg size 800,500 dynamic\nset output ", g);
	gp_str(g, rs_out_name(&out));
	fputs("\nset title ", g);
	{
		char title[600];

		snprintf(title, sizeof(title), "rdmascn explore %s: %s%s%s, "
			 "seed %llu", x->file, rs_explore_goal_name(x->e.goal),
			 x->e.figure ? " " : "", x->e.figure ? x->e.figure : "",
			 (unsigned long long)x->e.seed);
		gp_str(g, title);
	}
	fputs(" noenhanced\nset xlabel ", g);
	gp_str(g, x->e.axes[xa].name);
	fputs(" noenhanced\nset ylabel ", g);
	gp_str(g, finding(x) ? "fails (1) or passes (0)" : x->e.figure);
	fputs(" noenhanced\nset grid\n", g);
	if (x->e.axes[xa].pow2)
		fputs("set logscale x 2\n", g);
	if (!x->e.axes[xa].numeric)
		fputs("set datafile separator ' '\n", g);
	fputs("plot ", g);
	gp_str(g, dat);
	if (!x->e.axes[xa].numeric)
		fputs(" using 0:2:xticlabels(1)", g);
	else if (ca < x->e.n_axes && x->e.axes[ca].numeric)
		fputs(" using 1:2:3 with points pt 7 ps 1.2 palette", g);
	else
		fputs(" using 1:2 with points pt 7 ps 1.2", g);
	fputs(" title 'cells'\n", g);
	if (fclose(g)) {
		rs_out_abort(&out);
		return -errno;
	}
	r = gnuplot(gp);
	unlink(gp);
	unlink(dat);
	if (r == 1) {
		rs_out_abort(&out);
		fprintf(stderr, "rdmascn explore: --graph-out %s: gnuplot is "
			"not installed (Debian: gnuplot-nox); no plot drawn\n",
			x->graph_out);
		return 0;
	}
	if (r) {
		rs_out_abort(&out);
		fprintf(stderr, "rdmascn explore: --graph-out %s: gnuplot "
			"failed\n", x->graph_out);
		return r;
	}
	/* gnuplot wrote the file by its name: the stream is empty. */
	return rs_out_commit(&out);
}
