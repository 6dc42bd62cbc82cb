// SPDX-License-Identifier: MIT
/*
 * rdmascn run over a matrix: a full run per cell, the worst verdict.
 * With --jobs N, N cells at once, each in a process of its own (fork:
 * nothing of libibverbs is open yet in the parent) that writes its report
 * and its record to files the parent then shows and keeps in cell order.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "alloc.h"
#include "cells.h"
#include "cmd_run.h"
#include "escape.h"
#include "exit.h"
#include "macros.h"
#include "signals.h"
#include "value.h"

/* Which exit code of two a matrix reports: invalid, could not run,
 * failed, skipped, passed; an interruption above all. */
static int worse(int a, int b)
{
	static const int order[] = { RS_EXIT_PASSED, RS_EXIT_SKIPPED,
				     RS_EXIT_FAILED, RS_EXIT_CANTRUN,
				     RS_EXIT_INVALID };
	int ra = RS_N(order), rb = RS_N(order);

	for (int i = 0; i < (int)RS_N(order); i++) {
		if (order[i] == a)
			ra = i;
		if (order[i] == b)
			rb = i;
	}
	return rb > ra ? b : a;
}

/* The matrix run: its cells, their names and outcomes. */
struct mx {
	const struct rs_cmd *cmd;
	struct rs_scenario *s;
	const char *file;
	const struct run_opts *o;
	struct rs_results *res;
	FILE *out;
	struct rs_set *sets;       /* --set, then the cell's values */
	unsigned n_sets;
	unsigned long n, n_run, shown, k;
	int *codes;                /* -1: not run (yet); -2: excluded */
	char (*names)[sizeof(((struct rs_cell *)0)->name)];
	pid_t *pids;               /* --jobs: each cell's process */
	char dir[64];              /* --jobs: the cells' files */
};

/* The sets of cell @i, and its name; false when it is excluded. */
static bool cell_of(struct mx *x, unsigned long i, struct rs_cell *cell)
{
	const struct rs_matrix *m = &x->s->matrix;
	size_t len = 0;

	*cell = (struct rs_cell){ .sets = x->sets + x->o->scn.n_sets,
			       .n_sets = m->n_dims };
	if (!rs_matrix_cell(m, i, x->sets + x->o->scn.n_sets))
		return false;
	for (unsigned d = 0; d < m->n_dims; d++)
		len += snprintf(cell->name + len, sizeof(cell->name) - len,
				"%s%s=%s", d ? "," : "", cell->sets[d].name,
				cell->sets[d].value);
	return true;
}

static void header(struct mx *x, unsigned long i)
{
	if (!x->o->text.quiet)
		fprintf(x->out, "%scell %lu of %lu: %s\n", x->k ? "\n" : "",
			x->k + 1, x->n_run, rs_esc(x->names[i]));
	x->k++;
	fflush(x->out);
}

/* Cell @i in this process; its record to @res, its samples to @samples
 * (appended to when @append). */
static int run_cell(struct mx *x, unsigned long i, const struct run_opts *o,
		    struct rs_results *res)
{
	struct rs_val *errors = rs_val_arr();
	struct rs_cell cell;
	int ret;

	cell_of(x, i, &cell);
	/* A cell that does not load is a record too: its errors, in the
	 * JSON and JUnit files beside the cells that ran. */
	ret = errors ? rs_run_cell(x->cmd, x->s, x->file, x->sets, x->n_sets,
				   o, &cell, errors, res) :
	      rs_cmd_no_memory(x->cmd);
	rs_val_free(errors);
	return ret;
}

static void cell_path(const struct mx *x, unsigned long i, const char *what,
		      char *buf, size_t size)
{
	snprintf(buf, size, "%s/%lu.%s", x->dir, i, what);
}

/* In cell @i's process (cells.c made its stdout DIR/I.out and its
 * stderr DIR/I.err: the parent's stderr gets it, with -q too): its
 * record to DIR/I.json, its samples to DIR/I.csv. */
struct child {
	struct mx *x;
	unsigned long i;
};

static int child_run(void *ctx)
{
	struct child *ch = ctx;
	struct mx *x = ch->x;
	char json[96], csv[96];
	struct run_opts co = *x->o;
	struct rs_results *cr;
	int ret;

	cell_path(x, ch->i, "json", json, sizeof(json));
	cell_path(x, ch->i, "csv", csv, sizeof(csv));
	co.json = json;
	co.junit = NULL;
	/* Its report is a file the parent shows: no line redrawn in it,
	 * and no colour a JUnit system-out could not hold. */
	co.text.progress = false;
	co.text.color = false;
	/* The whole report, for JUnit's system-out; with -q the parent
	 * does not show it. */
	co.text.quiet = false;
	/* Its rows, no header: the parent adds them to its --samples. */
	co.samples_f = x->o->samples_f ? fopen(csv, "we") : NULL;
	if (x->o->samples_f && !co.samples_f)
		return RS_EXIT_CANTRUN;
	cr = rs_results_new(json, NULL);
	ret = cr ? run_cell(x, ch->i, &co, cr) : RS_EXIT_CANTRUN;
	if (co.samples_f && (ferror(co.samples_f) | fclose(co.samples_f)) &&
	    ret == RS_EXIT_PASSED)
		ret = RS_EXIT_CANTRUN;
	if (cr && rs_results_write(cr, ret) && ret == RS_EXIT_PASSED)
		ret = RS_EXIT_CANTRUN;
	rs_results_free(cr);
	return ret;
}

/* Start cell @i in a process of its own. */
static int spawn(struct mx *x, unsigned long i)
{
	struct child ch = { .x = x, .i = i };
	char out[96], err[96];
	pid_t pid;

	cell_path(x, i, "out", out, sizeof(out));
	cell_path(x, i, "err", err, sizeof(err));
	pid = rs_cells_spawn(out, err, child_run, &ch);
	if (pid < 0)
		return pid;
	x->pids[i] = pid;
	return 0;
}

/* Copy @path to @f. */
static void copy_file(FILE *f, const char *path)
{
	FILE *in = fopen(path, "r");
	char buf[8192];
	size_t len;

	if (!in)
		return;
	while ((len = fread(buf, 1, sizeof(buf), in)))
		fwrite(buf, 1, len, f);
	fclose(in);
	fflush(f);
}

/* @path's text (empty if it is not there), malloc()ed; NULL when out of
 * memory. */
static char *read_file(const char *path)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&buf, &size);

	if (!mem)
		return NULL;
	copy_file(mem, path);
	fclose(mem);
	return buf;
}

/* Cell @i never ran (the matrix was interrupted first): a record that
 * says so, so --json and --junit list every cell, as the text does. */
static void not_run(struct mx *x, unsigned long i)
{
	struct rs_val *rec, *scn, *c, *params;
	char *human;
	struct rs_cell cell;

	if (!x->res)
		return;
	rec = rs_val_obj();
	rs_val_put_str(rec, "format", "rdmascn-run/1");
	scn = rs_val_put_obj(rec, "scenario");
	if (x->s->top->scenario)
		rs_val_put_str(scn, "name", x->s->top->scenario);
	rs_val_put_str(scn, "file", x->file);
	c = rs_val_put_obj(rec, "cell");
	cell_of(x, i, &cell);
	rs_val_put_str(c, "name", cell.name);
	params = rs_val_put_obj(c, "params");
	for (unsigned d = 0; d < cell.n_sets; d++)
		rs_val_put_str(params, cell.sets[d].name, cell.sets[d].value);
	rs_val_put_str(rec, "verdict", "not run");
	/* JUnit's system-out: what the text report says of it. */
	if (rs_val_check(rec) || asprintf(&human, "%s[%s]: not run, the "
					  "matrix was interrupted before it\n",
					  x->file, cell.name) < 0)
		rs_val_free(rec);
	else
		rs_results_add(x->res, rec, human);
}

/* A finished cell's output, record and samples, in cell order. */
static void collect(struct mx *x, unsigned long i)
{
	char out[96], err[96], path[96];

	header(x, i);
	cell_path(x, i, "out", out, sizeof(out));
	cell_path(x, i, "err", err, sizeof(err));
	if (!x->o->text.quiet)  /* -q: the table at the end says it */
		copy_file(x->out, out);
	/* Errors are said with -q too, as a cell run here says them. */
	copy_file(stderr, err);
	cell_path(x, i, "json", path, sizeof(path));
	if (x->res) {
		struct json_object *rec = json_object_from_file(path);
		char *human = read_file(out), *errs = read_file(err);
		char *both = NULL;

		/* JUnit's system-out: the report, then its errors. */
		if (human && errs && asprintf(&both, "%s%s", human, errs) < 0)
			both = NULL;
		free(human);
		free(errs);
		if (rec)
			rs_results_add(x->res, rs_val_from_json(rec), both);
		else
			free(both);
		json_object_put(rec);
	}
	if (x->o->samples_f) {
		cell_path(x, i, "csv", path, sizeof(path));
		copy_file(x->o->samples_f, path);
	}
}

static void cleanup_dir(struct mx *x)
{
	static const char *const what[] = { "out", "err", "json", "csv" };
	char path[96];

	for (unsigned long i = 0; i < x->n; i++)
		for (size_t w = 0; w < RS_N(what); w++) {
			cell_path(x, i, what[w], path, sizeof(path));
			unlink(path);
		}
	rmdir(x->dir);
}

static void run_parallel(struct mx *x)
{
	unsigned long next = 0, running = 0;
	bool forwarded = false;

	/* Without the self-pipe the wait polls: slower, not wrong. */
	(void)rs_cells_open();
	while (x->shown < x->n) {
		int code, i;
		pid_t pid;

		while (running < x->o->jobs && next < x->n && !rs_interrupted) {
			if (x->codes[next] == -2 || spawn(x, next)) {
				next++;
				continue;
			}
			running++;
			next++;
		}
		/* Show what is done, in order; past an interruption, what
		 * never started is "not run". */
		while (x->shown < x->n &&
		       (x->codes[x->shown] != -1 ||
			(!x->pids[x->shown] && (rs_interrupted ||
						 x->shown < next)))) {
			if (x->codes[x->shown] >= 0)
				collect(x, x->shown);
			else if (x->codes[x->shown] == -1)
				not_run(x, x->shown);
			x->shown++;
		}
		if (!running)
			break;
		/* A signal reached us (perhaps not them: kill, not ^C):
		 * pass it on, once; each cell tears itself down. */
		if (rs_interrupted && !forwarded) {
			for (unsigned long c = 0; c < x->n; c++)
				if (x->pids[c] && x->codes[c] == -1)
					kill(x->pids[c], rs_interrupted);
			forwarded = true;
		}
		pid = rs_cells_wait(-1, &code);
		if (!pid)
			continue;
		if (pid < 0)
			break;
		for (i = 0; i < (int)x->n && x->pids[i] != pid; i++)
			;
		if (i == (int)x->n)
			continue;
		x->codes[i] = code;
		running--;
	}
	rs_cells_close();
	cleanup_dir(x);
}

static void run_serial(struct mx *x)
{
	for (unsigned long i = 0; i < x->n && !rs_interrupted; i++) {
		if (x->codes[i] == -2)
			continue;
		header(x, i);
		x->codes[i] = run_cell(x, i, x->o, x->res);
	}
	for (unsigned long i = 0; i < x->n; i++)
		if (x->codes[i] == -1)
			not_run(x, i);
}

static void put_matrix(struct mx *x, struct rs_val *mx)
{
	const struct rs_matrix *m = &x->s->matrix;
	struct rs_val *params = rs_val_put_obj(mx, "params");
	struct rs_val *excl = rs_val_put_arr(mx, "excluded");
	struct rs_cell cell;

	for (unsigned d = 0; d < m->n_dims; d++) {
		struct rs_val *a = rs_val_put_arr(params, m->dims[d].name);

		for (unsigned v = 0; v < m->dims[d].n; v++)
			rs_val_push_str(a, m->dims[d].values[v]);
	}
	for (unsigned long i = 0; i < x->n; i++) {
		struct rs_val *e;

		if (cell_of(x, i, &cell))
			continue;
		e = rs_val_push_obj(excl);
		for (unsigned d = 0; d < m->n_dims; d++)
			rs_val_put_str(e, cell.sets[d].name, cell.sets[d].value);
	}
	rs_val_put_u64(mx, "cells", x->n_run);
}

/* A cell's (or the matrix's) outcome in words: a dry run that passed ran
 * nothing, so it says so, as a dry run's own report does; the record
 * keeps "passed" beside "dry_run": true. */
static const char *outcome(const struct mx *x, int code)
{
	if (code < 0)
		return "not run";
	if (code == RS_EXIT_PASSED && x->o->dry_run)
		return "dry run done";
	return rs_exit_verdict(code);
}

static int summary(struct mx *x)
{
	int worst = RS_EXIT_PASSED;
	unsigned long unrun = 0;

	for (unsigned long i = 0; i < x->n; i++)
		unrun += x->codes[i] == -1;
	fprintf(x->out, "%smatrix: %lu cell%s", x->o->text.quiet ? "" : "\n",
		x->n_run, x->n_run == 1 ? "" : "s");
	if (x->n != x->n_run)
		fprintf(x->out, " (%lu excluded)", x->n - x->n_run);
	if (unrun)
		fprintf(x->out, ", %lu not run", unrun);
	fputs("\n", x->out);
	if (x->res)
		rs_val_put_u64(rs_results_matrix(x->res), "not_run", unrun);
	for (unsigned long i = 0; i < x->n; i++) {
		if (x->codes[i] == -2)
			continue;
		fprintf(x->out, "  %-40s ", rs_esc(x->names[i]));
		rs_text_outcome(x->out, &x->o->text, outcome(x, x->codes[i]));
		fputc('\n', x->out);
		if (x->codes[i] >= 0)
			worst = worst >= 128 ? worst :
				x->codes[i] >= 128 ? x->codes[i] :
				worse(worst, x->codes[i]);
	}
	/* The signal came between two cells: no cell said so. */
	if (rs_interrupted && worst < 128) {
		fprintf(x->o->err, "rdmascn: interrupted by %s; torn down\n",
			rs_run_signal_name());
		worst = 128 + rs_interrupted;
	}
	fputs("verdict: ", x->out);
	rs_text_outcome(x->out, &x->o->text, outcome(x, worst));
	fprintf(x->out, " (exit %d)\n", worst);
	fflush(x->out);
	return worst;
}

int rs_run_matrix(const struct rs_cmd *cmd, struct rs_scenario *s,
		  const char *file, const struct run_opts *o,
		  struct rs_results *res, FILE *out)
{
	struct mx x = {
		.cmd = cmd, .s = s, .file = file, .o = o, .res = res,
		.out = out, .n = rs_matrix_size(&s->matrix),
		.n_sets = o->scn.n_sets + s->matrix.n_dims,
	};
	int worst = RS_EXIT_CANTRUN;

	x.sets = rs_calloc(x.n_sets + 1, sizeof(*x.sets));
	x.codes = rs_calloc(x.n + 1, sizeof(*x.codes));
	x.names = rs_calloc(x.n + 1, sizeof(*x.names));
	x.pids = rs_calloc(x.n + 1, sizeof(*x.pids));
	if (!x.sets || !x.codes || !x.names || !x.pids) {
		worst = rs_cmd_no_memory(cmd);
		goto out;
	}
	memcpy(x.sets, o->scn.sets, o->scn.n_sets * sizeof(*x.sets));
	for (unsigned long i = 0; i < x.n; i++) {
		struct rs_cell cell;

		x.codes[i] = cell_of(&x, i, &cell) ? -1 : -2;
		x.n_run += x.codes[i] == -1;
		memcpy(x.names[i], cell.name, sizeof(cell.name));
	}
	if (res)
		put_matrix(&x, rs_results_matrix(res));
	if (o->jobs > 1) {
		snprintf(x.dir, sizeof(x.dir), "%s/rdmascn.XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(x.dir)) {
			fprintf(stderr, "rdmascn run: --jobs: %s: %s\n", x.dir,
				strerror(errno));
			goto out;
		}
		run_parallel(&x);
	} else {
		run_serial(&x);
	}
	worst = summary(&x);
out:
	rs_free(x.sets);
	rs_free(x.codes);
	rs_free(x.names);
	rs_free(x.pids);
	return worst;
}
