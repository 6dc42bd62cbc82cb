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
#include "report.h"
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

/* The knee of axis @a and what named it: its score and the one of the
 * value short of it, the medians of their ratios to the best figure of
 * each round they ran in. */
static void knee_line(const struct ex *x, unsigned a)
{
	double pct = x->e.knee_pct ? x->e.knee_pct : 10.0;

	fprintf(x->out, "knee of %s: %lld (cell %u): the smallest value "
		"reaching %.0f%% of the plateau, each scored by the median "
		"of its ratios to the best of its rounds: %.2f",
		x->e.axes[a].name, (long long)x->x.knee[a],
		x->x.knee_cell[a], 100 - pct, x->x.knee_score[a]);
	if (x->x.has_short[a])
		fprintf(x->out, " (%lld: %.2f)", (long long)x->x.short_of[a],
			x->x.short_score[a]);
	fputc('\n', x->out);
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
				knee_line(x, a);
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

/* The search's part of the document: matrix.explore. */
static void put_search(const struct ex *x, struct rs_val *e)
{
	struct rs_val *o, *order;

	rs_val_put_str(e, "strategy", rs_explore_strategy_name(x->e.strategy));
	rs_val_put_u64(e, "seed", x->e.seed);
	if (x->e.repeat > 1)
		rs_val_put_u64(e, "repeat", x->e.repeat);
	o = rs_val_put_obj(e, "objective");
	rs_val_put_str(o, "goal", rs_explore_goal_name(x->e.goal));
	if (x->e.figure)
		rs_val_put_str(o, "figure", x->e.figure);
	o = rs_val_put_obj(e, "budget");
	rs_val_put_u64(o, "cells", x->e.budget_cells);
	if (x->e.budget_s)
		rs_val_put_double(o, "seconds", x->e.budget_s);
	rs_val_put_str(e, "stopped", x->stopped ? x->stopped : "done");
	order = rs_val_put_arr(e, "order");
	for (unsigned i = 0; i < x->n; i++)
		rs_val_push_str(order, x->cells[i].name);
	if (x->x.has_best)
		rs_val_put_u64(e, "best", x->x.best_r.cell);
	if (x->x.found)
		rs_val_put_u64(e, "found", x->x.failing_r.cell);
	o = NULL;
	for (unsigned a = 0; a < x->e.n_axes; a++) {
		struct rs_val *k;

		if (!x->x.has_knee[a])
			continue;
		if (!o)
			o = rs_val_put_obj(e, "knee");
		k = rs_val_put_obj(o, x->e.axes[a].name);
		rs_val_put_i64(k, "value", x->x.knee[a]);
		rs_val_put_u64(k, "cell", x->x.knee_cell[a]);
		rs_val_put_double(k, "score", x->x.knee_score[a]);
		if (x->x.has_short[a]) {
			struct rs_val *sh = rs_val_put_obj(k, "short");

			rs_val_put_i64(sh, "value", x->x.short_of[a]);
			rs_val_put_double(sh, "score", x->x.short_score[a]);
		}
	}
	o = NULL;
	for (unsigned a = 0; a < x->e.n_axes; a++) {
		struct rs_val *b;

		if (!x->x.has_boundary[a])
			continue;
		if (!o)
			o = rs_val_put_obj(e, "boundary");
		b = rs_val_put_obj(o, x->e.axes[a].name);
		rs_val_put_i64(b, "passes", x->x.pass[a]);
		rs_val_put_i64(b, "fails", x->x.fail[a]);
	}
	if (x->shrunk) {
		o = rs_val_put_obj(e, "shrunk");
		rs_val_put_u64(o, "cell", x->small_cell);
		rs_val_put_u64(o, "from", x->shrink_from);
		rs_val_put_u64(o, "cells", x->shrink_cells);
		if (x->repro_written) {
			rs_val_put_str(o, "file", x->shrink_out ?
				       x->shrink_out : "");
			rs_val_put_bool(o, "fails_the_same_way",
					x->repro_same);
		}
	}
}

/* Cell @c's record for the document, with its search: a copy of what it
 * wrote, or (killed before it wrote one) the not-run record of the
 * matrix document; the reproducer's run, no cell of the file, with an
 * empty name and no params. */
static struct rs_val *cell_record(const struct ex *x, unsigned i)
{
	const struct xcell *c = &x->cells[i];
	struct rs_val *rec = c->rec ? rs_val_copy(c->rec) : rs_val_obj();
	struct rs_val *cell, *s;
	char m[512];

	if (!c->rec) {
		rs_val_put_str(rec, "format", "rdmascn-run/1");
		cell = rs_val_put_obj(rec, "cell");
		rs_val_put_str(cell, "name", c->name);
		rs_val_put_obj(cell, "params");
		rs_val_put_str(rec, "verdict", "not run");
	}
	cell = rs_val_get_mut(rec, "cell");
	if (!cell) {
		cell = rs_val_put_obj(rec, "cell");
		rs_val_put_str(cell, "name", "");
		rs_val_put_obj(cell, "params");
	}
	s = rs_val_put_obj(cell, "search");
	rs_val_put_u64(s, "order", i + 1);
	rs_val_put_str(s, "phase", c->phase);
	if (c->r.has_value)
		rs_val_put_double(s, "objective", c->r.value);
	if (c->r.ran && finding(x))
		rs_val_put_bool(s, "fails", c->r.fails);
	if (c->r.ran && c->code != RS_EXIT_PASSED)
		rs_val_put_str(s, "failure", c->sig ? c->sig : "");
	marks(x, i + 1, m, sizeof(m));
	if (m[0])
		rs_val_put_str(s, "marks", m);
	return rec;
}

/*
 * --json: the matrix document, written by the code that writes the
 * matrix's (rs_results): matrix.params the axes, matrix.cells the number
 * run, matrix.explore the search; a record per cell in the order they
 * ran.  The document's exit code is the search's.
 */
int rs_ex_json(struct ex *x, int code)
{
	struct rs_results *res = rs_results_new(x->json, NULL);
	struct rs_val *mx = res ? rs_results_matrix(res) : NULL;
	struct rs_val *params;
	int r = 0;

	if (!mx) {
		rs_results_free(res);
		return -ENOMEM;
	}
	params = rs_val_put_obj(mx, "params");
	for (unsigned a = 0; a < x->e.n_axes; a++) {
		struct rs_val *v = rs_val_put_arr(params, x->e.axes[a].name);

		for (unsigned i = 0; i < x->e.axes[a].n; i++)
			rs_val_push_str(v, x->e.axes[a].values[i]);
	}
	rs_val_put_u64(mx, "cells", x->n);
	put_search(x, rs_val_put_obj(mx, "explore"));
	if (rs_val_check(mx))
		r = -ENOMEM;
	for (unsigned i = 0; i < x->n && !r; i++) {
		struct rs_val *rec = cell_record(x, i);

		if (!rec || rs_val_check(rec)) {
			rs_val_free(rec);
			r = -ENOMEM;
		} else {
			/* Owned by @res from here, freed by it on failure. */
			r = rs_results_add(res, rec, NULL);
		}
	}
	if (!r)
		r = rs_results_write(res, code);
	rs_results_free(res);
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
