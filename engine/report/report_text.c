// SPDX-License-Identifier: MIT
/*
 * The text reporter: the lines a user reads, printed as the record grows
 * and written out phase by phase (held()).  Numbers are formatted here
 * and nowhere before.  On a terminal it adds
 * colour and a status line at the bottom ("creating 1234 of 5000
 * objects", a running step's counts): every line printed clears that
 * line first and draws it again after (term.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "counters.h"
#include "escape.h"
#include "figures.h"
#include "gate.h"
#include "stragglers.h"
#include "report.h"
#include "term.h"
#include "value.h"

/* A record's text as printed: control characters escaped (escape.h). */
static const char *vtext(const struct rs_val *v, const char *key)
{
	return rs_esc(rs_val_text(v, key));
}

struct text {
	struct rs_reporter r;
	FILE *out;
	FILE *err;     /* errors, and the calls of a run with -v */
	bool dry_run;
	int width;     /* of the "kind 'id'" column of object lines */
	int id_width;  /* of the 'id' column of step lines */
	struct rs_text_opts o;
	struct rs_term_line line;
	char status[256];      /* the progress line's text, "" for none */
	uint64_t n_objects;    /* planned */
	uint64_t n_created;
	bool creating;         /* "creating n of N" is wanted */
};

/* Fewer objects than this are created too fast to need a count. */
#define CREATE_PROGRESS_MIN 50

#define TEXT(r) ((struct text *)(r))

static void text_begin(struct rs_reporter *r, const struct rs_val *rec)
{
	struct text *t = TEXT(r);
	const struct rs_val *objs = rs_val_get(rec, "objects");
	const struct rs_val *plan = rs_val_get(rec, "plan_steps");
	const struct rs_val *scn = rs_val_get(rec, "scenario");
	const char *name = rs_val_get_str(scn, "name");

	t->dry_run = rs_val_get_bool(rec, "dry_run");
	t->width = 24;
	for (size_t i = 0; i < rs_val_len(objs); i++) {
		/* (Read as the record holds it: a struct, not made into
		 * nodes.) */
		const char *n = rs_rec_obj_name(rs_val_at(objs, i));
		int w = n ? strlen(n) : 0;

		if (w > t->width)
			t->width = w;
	}
	t->id_width = 16;
	for (size_t i = 0; i < rs_val_len(plan); i++) {
		/* (As the record holds it: a struct, not made into
		 * nodes.) */
		const char *id = rs_rec_step_id(rs_val_at(plan, i));

		if (id && (int)strlen(id) + 2 > t->id_width)
			t->id_width = strlen(id) + 2;
	}
	t->n_objects = rs_val_len(objs);
	t->creating = t->o.progress && t->n_objects >= CREATE_PROGRESS_MIN;
	if (t->o.quiet)
		return;
	fprintf(t->out, "%s %s (%s)\n", t->dry_run ? "dry run" : "run",
		name ? rs_esc(name) : "-", vtext(scn, "file"));
	if (t->dry_run)
		fputs("create:\n", t->out);
}

/* Where a line goes: the progress line, if shown, leaves first. */
static FILE *out(struct text *t)
{
	rs_term_line_clear(&t->line);
	return t->out;
}

static FILE *err(struct text *t)
{
	rs_term_line_clear(&t->line);
	fflush(t->out);
	return t->err;
}

/* The progress line says @text from now on; drawn now unless it was
 * drawn less than RS_TERM_REDRAW_MS ago. */
static void status_set(struct text *t, const char *text)
{
	snprintf(t->status, sizeof(t->status), "%s", rs_esc(text));
	if (!*text)
		rs_term_line_clear(&t->line);
	else
		rs_term_line_draw(&t->line, t->status, false);
}

/* Counting the objects created, while there are many. */
static void create_progress(struct text *t, const struct rs_val *e)
{
	char text[64];

	if (!t->creating)
		return;
	if (strcmp(vtext(e, "outcome"), "created") ||
	    ++t->n_created >= t->n_objects) {
		t->creating = false;
		status_set(t, "");
		return;
	}
	snprintf(text, sizeof(text), "creating %llu of %llu objects",
		 (unsigned long long)t->n_created,
		 (unsigned long long)t->n_objects);
	status_set(t, text);
}

/* 52.1k: a rate, in three figures or so. */
static void human(char *buf, size_t len, double v)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

/* "step 3 write 'w': 12345 of 100000 completions, 52.1k/s, 1.7 s to go,
 * deadline in 8.2 s" */
static void step_progress(struct text *t, const struct rs_val *e)
{
	const char *id = rs_val_get_str(e, "id");
	const char *unit = rs_val_get_str(e, "unit");
	double ms = rs_val_get_double(e, "elapsed_ms");
	uint64_t done = rs_val_get_u64(e, "done");
	uint64_t total = rs_val_get_u64(e, "total");
	char text[sizeof(t->status)], rate[32];
	size_t n;

	n = snprintf(text, sizeof(text), "step %s %s%s%s%s:", vtext(e, "no"),
		     vtext(e, "type"), id ? " '" : "", id ? id : "",
		     id ? "'" : "");
	if (unit && total)
		n += snprintf(text + n, sizeof(text) - n, " %llu of %llu %s",
			      (unsigned long long)done,
			      (unsigned long long)total, unit);
	else if (unit)
		n += snprintf(text + n, sizeof(text) - n, " %llu %s",
			      (unsigned long long)done, unit);
	else
		n += snprintf(text + n, sizeof(text) - n, " %.1f s",
			      ms / 1e3);
	if (unit && done && ms > 0 && n < sizeof(text)) {
		double per_s = done * 1e3 / ms;

		human(rate, sizeof(rate), per_s);
		n += snprintf(text + n, sizeof(text) - n, ", %s/s", rate);
		if (total > done && n < sizeof(text))
			n += snprintf(text + n, sizeof(text) - n,
				      ", %.1f s to go",
				      (total - done) / per_s);
	}
	if (rs_val_get(e, "deadline_left_ms") && n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, ", deadline in %.1f s",
			 rs_val_get_double(e, "deadline_left_ms") / 1e3);
	status_set(t, text);
}

/* A fact of an object: "qpn 0x000011", "state RESET".  Facts that are
 * objects or arrays (a connection's settings) are the record's only. */
static void print_fact(FILE *f, const char *key, const struct rs_val *v)
{
	if (rs_val_type_of(v) == RS_VAL_OBJ || rs_val_type_of(v) == RS_VAL_ARR)
		return;
	fprintf(f, " %s ", key);
	switch (rs_val_type_of(v)) {
	case RS_VAL_STR:
		fputs(rs_esc(rs_val_str_of(v)), f);
		break;
	case RS_VAL_INT:
		fprintf(f, "%lld", (long long)rs_val_i64_of(v));
		break;
	case RS_VAL_UINT:
		fprintf(f, "%llu", (unsigned long long)rs_val_u64_of(v));
		break;
	case RS_VAL_BOOL:
		fputs(rs_val_bool_of(v) ? "yes" : "no", f);
		break;
	default:
		fputs("...", f);
	}
}

static void print_object(struct text *t, const struct rs_val *e)
{
	const char *outcome = vtext(e, "outcome");
	const char *needs = rs_val_get_str(e, "needs_name");
	const struct rs_val *facts;

	if (!strcmp(outcome, "failed")) {
		rs_text_outcome(out(t), &t->o, outcome);
		fprintf(out(t), "       %s\n", vtext(e, "name"));
		return;
	}
	/* expect: {create: fail}: what came, and what was expected. */
	if (!strcmp(outcome, "failed as expected")) {
		rs_text_outcome(out(t), &t->o, "passed");
		fprintf(out(t), "  %s: its create failed with %s, as "
			"expected\n", vtext(e, "name"),
			rs_val_get(e, "error") ? vtext(e, "error") :
			"an error");
		return;
	}
	if (t->dry_run && rs_val_get(e, "expect")) {
		const struct rs_val *x = rs_val_get(e, "expect");

		fprintf(out(t), "       expect: %s: its create fails with %s\n",
			vtext(e, "name"), rs_val_get(x, "error") ?
			vtext(x, "error") : "an error");
		return;
	}
	if (!strcmp(outcome, "not created")) {
		rs_text_outcome(out(t), &t->o, outcome);
		if (needs)
			fprintf(out(t), "  %s: needs %s, which failed\n",
				vtext(e, "name"), rs_esc(needs));
		else
			fprintf(out(t), "  %s: not reached\n",
				vtext(e, "name"));
		return;
	}
	if (t->dry_run)
		return;
	fprintf(out(t), "created %4llu %-*s",
		(unsigned long long)rs_val_get_u64(e, "no"), t->width,
		vtext(e, "name"));
	facts = rs_val_get(e, "facts");
	rs_val_foreach(facts, v)
		print_fact(out(t), rs_val_key(v), v);
	fputc('\n', out(t));
}

/* What a kind knows only at the end (a parent domain's allocator
 * counts) comes with its teardown line. */
static void print_destroyed(struct text *t, const struct rs_val *e)
{
	const struct rs_val *facts = rs_val_get(e, "facts");

	fprintf(out(t), "destroyed %llu %s",
		(unsigned long long)rs_val_get_u64(e, "no"),
		vtext(e, "name"));
	rs_val_foreach(facts, v)
		print_fact(out(t), rs_val_key(v), v);
	fputc('\n', out(t));
}

static void print_call(struct text *t, const struct rs_val *e)
{
	FILE *f = t->dry_run ? out(t) : err(t);
	uint64_t no = rs_val_get_u64(e, "no");
	const char *obj = rs_val_get_str(e, "object");

	if (no)
		fprintf(f, "  [%llu] ", (unsigned long long)no);
	else
		fputs("       ", f);
	fprintf(f, "%s(%s)", vtext(e, "name"), vtext(e, "args"));
	if (obj)
		fprintf(f, "  # %s", rs_esc(obj));
	/* Held with the other lines in a dry run (held()); with -v on
	 * stderr, which is unbuffered. */
	fputc('\n', f);
}

static void print_event(struct text *t, const struct rs_val *e)
{
	const char *ctx = rs_val_get_str(e, "context");

	if (ctx)
		fprintf(out(t), "event     %s on %s of context '%s'%s\n",
			vtext(e, "event"), vtext(e, "on"), rs_esc(ctx),
			rs_val_get(e, "provoked") ?
			" (a link step changed the port)" :
			rs_val_get(e, "tolerated") ?
			" (the step expects errors)" : "");
	else
		fprintf(out(t), "event     %s%s on %s of connection '%s'\n",
			vtext(e, "event"), vtext(e, "status"), vtext(e, "on"),
			vtext(e, "connection"));
}

static double num(const struct rs_val *v, const char *key)
{
	return rs_val_get_double(v, key);
}

/* One row's value of figure group @v (the group itself when the row has
 * no key), as the table says to show it. */
static void print_figure_value(FILE *f, const struct rs_figure_row *row,
			       const struct rs_val *v)
{
	const struct rs_val *x = row->key ? rs_val_get(v, row->key) : v;

	/* A record made before the figure was: nothing, not a 0. */
	if (!x)
		return;
	fputs(row->before ? row->before : "", f);
	switch (row->type) {
	case RS_FIGT_NUMBER:
		fprintf(f, "%.*f", row->digits, rs_val_double_of(x));
		break;
	case RS_FIGT_COUNT:
		fprintf(f, "%llu", (unsigned long long)rs_val_u64_of(x));
		break;
	case RS_FIGT_HEX:
		fprintf(f, "%llx", (unsigned long long)rs_val_u64_of(x));
		break;
	case RS_FIGT_UNIT:
	case RS_FIGT_ID:
	case RS_FIGT_TEXT:
		fputs(row->key ? vtext(v, row->key) : "", f);
		break;
	case RS_FIGT_HISTOGRAM:
	case RS_FIGT_COUNTERS:
		break;
	}
	fputs(row->after ? row->after : "", f);
}

/* The figures a step type reports, as perftest prints them: the rows of
 * the figure table for group @name; one it has none of (a plugin's) as
 * its JSON. */
static void print_figure(FILE *f, const char *name, const struct rs_val *v)
{
	bool known = false;

	for (unsigned i = 0; i < RS_FIGROW_COUNT; i++) {
		const struct rs_figure_row *row = &rs_figure_rows[i];

		if (strcmp(row->group, name) || !row->before)
			continue;
		print_figure_value(f, row, v);
		known = true;
	}
	if (!known) {
		char *s = rs_val_json_string(v, false);

		fprintf(f, "%s %s", name, s ? s : "");
		free(s);
	}
}

/* Whether group @name is shown on lines of its own under the step's
 * (counters, which can be many), not on the step's line. */
static bool figure_below(const char *name)
{
	for (unsigned i = 0; i < RS_FIGROW_COUNT; i++)
		if (!strcmp(rs_figure_rows[i].group, name))
			return rs_figure_rows[i].type == RS_FIGT_COUNTERS;
	return false;
}

/* The counters that moved, a line each: the error ones, or with
 * --counters=all (-v) every one, by port or device, or by QP (the
 * per-QP counters).  The record has them all. */
static void print_counters(struct text *t, const char *head,
			   const struct rs_val *ctrs)
{
	if (!ctrs)
		return;
	rs_val_foreach(ctrs, per) {
		const char *where = rs_val_key(per);

		rs_val_foreach(per, j) {
			const char *name = rs_val_key(j);
			uint64_t v = rs_val_u64_of(j);
			bool error = rs_counter_is_error(name);
			const char *unit = rs_counter_unit(name);

			if (!v || (!error && !t->o.counters_all))
				continue;
			fprintf(out(t), "%s%s %s %llu%s%s%s\n", head,
				rs_esc(where), rs_esc(name),
				(unsigned long long)v, unit ? " " : "",
				unit ? unit : "",
				error && t->o.counters_all ? " (error)" : "");
		}
	}
}

static void print_step(struct text *t, const struct rs_val *e)
{
	const char *outcome = vtext(e, "outcome");
	const char *id = rs_val_get_str(e, "id");
	const char *msg = rs_val_get_str(e, "message");
	const struct rs_val *figs = rs_val_get(e, "figures");
	const struct rs_val *gates = rs_val_get(e, "gates");
	char qid[RS_REC_ID_MAX + 3] = "-";
	uint64_t wrs = rs_val_get_u64(e, "wrs");

	if (id)
		snprintf(qid, sizeof(qid), "'%s'", rs_esc(id));
	fprintf(out(t), "step %-5s %-10s %-*s ", vtext(e, "no"),
		vtext(e, "type"), t->id_width, qid);
	rs_text_outcome(out(t), &t->o, outcome);
	if (rs_val_get(e, "duration_ms"))
		fprintf(out(t), "%*s %9.1f ms", (int)(13 - strlen(outcome)),
			"", num(e, "duration_ms"));
	if (wrs)
		fprintf(out(t), "  %llu wr", (unsigned long long)wrs);
	if (figs) {
		rs_val_foreach(figs, v) {
			const char *key = rs_val_key(v);

			/* Lines of their own, below. */
			if (!strcmp(key, "counters") || figure_below(key))
				continue;
			fputs("  ", out(t));
			print_figure(out(t), key, v);
		}
	}
	if (msg && strcmp(outcome, "passed"))
		fprintf(out(t), ": %s", rs_esc(msg));
	fputc('\n', out(t));
	/* What was enforced, held or not: a log shows every bound. */
	for (size_t i = 0; i < rs_val_len(gates); i++) {
		char text[256];

		rs_gate_result_text(rs_val_at(gates, i), text, sizeof(text));
		fprintf(out(t), "  gate %s\n", text);
	}
	print_counters(t, "  counter ", rs_val_get(figs, "counters"));
	print_counters(t, "  counter qp ", rs_val_get(figs, "qp_counters"));
}

struct out {
	char *buf;
	size_t size, len;
};

static void __attribute__((format(printf, 2, 3)))
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* Counts on past the end, as snprintf does. */
	va_start(ap, fmt);
	if (o->len < o->size)
		n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	else
		n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

int rs_leak_text(const struct rs_val *leak, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	const struct rs_val *fs = rs_val_get(leak, "fields");

	if (size)
		buf[0] = '\0';
	put(&o, "%s %s", vtext(leak, "device"), vtext(leak, "kind"));
	if (fs) {
		rs_val_foreach(fs, j) {
			const char *key = rs_val_key(j);

			if (rs_val_type_of(j) == RS_VAL_STR)
				put(&o, " %s %s", key, rs_val_str_of(j));
			else
				put(&o, " %s %llu", key, (unsigned long long)
				    rs_val_u64_of(j));
		}
	}
	put(&o, " (pid %llu)",
	    (unsigned long long)rs_val_get_u64(leak, "pid"));
	return (int)o.len;
}

/* What the check said on stderr: the kinds an older kernel does not
 * list, why the kernel could not be asked, each resource left (and
 * with -v librdmacm's context and what was asked). */
static void print_leaked(struct text *t, const struct rs_val *e)
{
	const struct rs_val *un = rs_val_get(e, "unchecked");
	const struct rs_val *res = rs_val_get(e, "resources");
	const struct rs_val *asked = rs_val_get(e, "asked");
	char line[256];

	for (size_t i = 0; i < rs_val_len(un); i++) {
		const struct rs_val *u = rs_val_at(un, i);

		fprintf(err(t), "rdmascn: --check-leaks: %s: the kernel does "
			"not list %s resources (%s: %s); not checked\n",
			vtext(u, "device"), vtext(u, "kind"),
			vtext(u, "request"), vtext(u, "error"));
	}
	if (rs_val_get(e, "error"))
		fprintf(err(t), "rdmascn: --check-leaks: %s\n",
			vtext(e, "error"));
	for (size_t i = 0; i < rs_val_len(res); i++) {
		const struct rs_val *l = rs_val_at(res, i);
		const struct rs_val *own = rs_val_get(l, "librdmacm");

		rs_leak_text(l, line, sizeof(line));
		if (rs_val_bool_of(own))
			fprintf(err(t), "rdmascn: --check-leaks: %s: "
				"librdmacm's own, open until exit; not "
				"counted\n", line);
		else
			fprintf(err(t), "rdmascn: leak: %s\n", line);
	}
	if (asked)
		fprintf(err(t), "rdmascn: --check-leaks: %llu device(s) "
			"asked; %llu resource(s) of pid %llu (%llu "
			"librdmacm's), %llu of the kernel or other "
			"processes\n",
			(unsigned long long)rs_val_get_u64(e, "devices"),
			(unsigned long long)rs_val_get_u64(asked, "resources"),
			(unsigned long long)rs_val_get_u64(e, "pid"),
			(unsigned long long)rs_val_get_u64(asked, "librdmacm"),
			(unsigned long long)rs_val_get_u64(asked, "others"));
}

static void print_leaks(struct text *t, const struct rs_val *e)
{
	uint64_t n = rs_val_get_u64(e, "devices");
	double count = rs_val_get_double(e, "count");

	print_leaked(t, e);
	if (t->o.quiet)
		return;
	if (count < 0)          /* -errno: the check could not run */
		fprintf(out(t), "leaks: not checked (the kernel could not be "
			"asked: %s)\n", strerror((int)-count));
	else if (count)
		return; /* each leak is on stderr, above */
	else if (!n)
		fputs("leaks: not checked (no RDMA device left to ask)\n",
		      out(t));
	else
		fprintf(out(t), "leaks: none (kernel resources of pid %llu on "
			"%llu device%s after teardown)\n",
			(unsigned long long)rs_val_get_u64(e, "pid"),
			(unsigned long long)n, n == 1 ? "" : "s");
}

/*
 * Whether a line of @type may wait in the stream's buffer: an object's,
 * a step's, a destroyed object's, a call's are the bulk of a run's
 * output, one write() each (a syscall, dear in a VM under emulation:
 * 1000 CQ+MR+QP printed to a file took a fifth longer than with -q).
 * They leave when a phase begins (so each phase is out before the next
 * starts), when the buffer fills, before the engine waits
 * (rs_record_before_wait(): a step's loop, an rdma_cm event, a
 * rendezvous), and at the end; what says something went wrong or
 * happened (an event, an error, a warning, the leak check) leaves at
 * once.  A terminal's stream is line-buffered anyway.
 */
static bool held(enum rs_rec_entry type)
{
	return type == RS_REC_OBJECT || type == RS_REC_STEP ||
	       type == RS_REC_DESTROYED || type == RS_REC_CALL;
}

static bool text_wants(struct rs_reporter *r, enum rs_rec_entry type)
{
	struct text *t = TEXT(r);

	if (type == RS_REC_PROGRESS)
		return t->o.progress;
	/* -q: errors, leaks, and the calls -v asks for, still go to
	 * stderr. */
	return !t->o.quiet || type == RS_REC_ERROR ||
	       type == RS_REC_WARNING || type == RS_REC_LEAKS ||
	       (type == RS_REC_CALL && !t->dry_run);
}

static void text_entry(struct rs_reporter *r, enum rs_rec_entry type,
		       const struct rs_val *e)
{
	struct text *t = TEXT(r);

	if (!text_wants(r, type))
		return;
	if (type == RS_REC_PROGRESS) {
		step_progress(t, e);
		return;
	}
	switch (type) {
	case RS_REC_PHASE:
		if (t->dry_run && !strcmp(vtext(e, "phase"), "teardown") &&
		    rs_val_get_u64(e, "objects"))
			fputs("teardown:\n", out(t));
		if (t->dry_run && !strcmp(vtext(e, "phase"), "steps") &&
		    rs_val_get_u64(e, "steps"))
			fputs("steps:\n", out(t));
		break;
	case RS_REC_OBJECT:
		print_object(t, e);
		break;
	case RS_REC_CALL:
		print_call(t, e);
		break;
	case RS_REC_EVENT:
		print_event(t, e);
		break;
	case RS_REC_STEP:
		print_step(t, e);
		break;
	case RS_REC_DESTROYED:
		if (!t->dry_run)
			print_destroyed(t, e);
		break;
	case RS_REC_LEAKS:
		print_leaks(t, e);
		break;
	case RS_REC_ERROR:
		/* Errors go where the loader's go: stderr, FILE:LINE:COL. */
		if (rs_val_get(e, "file"))
			fprintf(err(t), "%s:%llu:%llu: %s\n", vtext(e, "file"),
				(unsigned long long)rs_val_get_u64(e, "line"),
				(unsigned long long)rs_val_get_u64(e, "col"),
				vtext(e, "message"));
		else
			fprintf(err(t), "%s\n", vtext(e, "message"));
		break;
	case RS_REC_WARNING:
		if (rs_val_get(e, "file"))
			fprintf(err(t), "%s:%llu:%llu: warning: %s\n",
				vtext(e, "file"),
				(unsigned long long)rs_val_get_u64(e, "line"),
				(unsigned long long)rs_val_get_u64(e, "col"),
				vtext(e, "message"));
		else
			fprintf(err(t), "warning: %s\n", vtext(e, "message"));
		break;
	case RS_REC_PROGRESS:
		break;
	}
	if (type == RS_REC_OBJECT)
		create_progress(t, e);
	else if (type == RS_REC_STEP)
		t->status[0] = '\0';
	/* What was at the bottom goes back there, under the new line. */
	if (t->status[0] && !t->line.shown) {
		fflush(t->err);
		rs_term_line_draw(&t->line, t->status, true);
	}
	if (held(type))
		return;
	fflush(t->out);
}

/* The engine waits: what is held goes out (held()). */
static void text_before_wait(struct rs_reporter *r)
{
	fflush(TEXT(r)->out);
}

/* What a dry run would check: each step's gate. */
static void print_plan_gates(struct text *t, const struct rs_val *plan)
{
	char text[256];

	for (size_t i = 0; i < rs_val_len(plan); i++) {
		const struct rs_val *st = rs_val_at(plan, i);
		const struct rs_val *gates = rs_rec_step_gates(st);
		const char *id;

		if (!gates)
			continue;
		id = rs_val_get_str(st, "id");

		for (size_t j = 0; j < rs_val_len(gates); j++) {
			rs_gate_text(rs_val_at(gates, j), text, sizeof(text));
			/* Its number: a counted step's elements and a
			 * nested step are not the list's i + 1. */
			fprintf(out(t), "gate      step %s%s%s%s (%s): %s\n",
				vtext(st, "no"), id ? " '" : "",
				id ? rs_esc(id) : "",
				id ? "'" : "", vtext(st, "type"), text);
		}
	}
}

/* The device facts ${} named: assumed in a dry run, else the
 * device's. */
static void print_device_facts(struct text *t, const struct rs_val *facts)
{
	for (size_t i = 0; i < rs_val_len(facts); i++) {
		const struct rs_val *f = rs_val_at(facts, i);
		const char *dev = rs_val_get_str(f, "device");

		char val[64];

		fprintf(out(t), "%-9s %s.%s = %s",
			rs_val_get_bool(f, "assumed") ? "assumed" : "fact",
			vtext(f, "context"), vtext(f, "fact"),
			rs_esc(rs_val_text_of(rs_val_get(f, "value"), val,
					      sizeof(val))));
		if (dev)
			fprintf(out(t), " (%s)", rs_esc(dev));
		fputc('\n', out(t));
	}
}

/* Each port's per-QP counters: with -v, bound or why not (a skip, not a
 * failure); a counter that would not unbind, always (--check-leaks
 * finds it too). */
static void print_qp_binding(struct text *t, const struct rs_val *qc)
{
	if (!qc)
		return;
	rs_val_foreach(qc, p) {
		const char *key = rs_val_key(p);
		const struct rs_val *failed = rs_val_get(p, "unbind_failed");
		const char *skipped = rs_val_get_str(p, "skipped");
		size_t n = rs_val_len(rs_val_get(p, "bound"));

		if (t->o.counters_all && skipped)
			fprintf(out(t), "qp counters: %s: none bound: %s\n",
				rs_esc(key), rs_esc(skipped));
		else if (t->o.counters_all)
			fprintf(out(t), "qp counters: %s: %zu QP%s bound, "
				"each to a counter of its own\n", rs_esc(key),
				n, n == 1 ? "" : "s");
		if (!failed)
			continue;
		rs_val_foreach(failed, why) {
			char buf[256];

			fprintf(err(t), "rdmascn: qp counters: %s: qp '%s': "
				"unbind failed: %s\n", rs_esc(key),
				rs_esc(rs_val_key(why)),
				rs_val_text_of(why, buf, sizeof(buf)));
		}
	}
}

/* The counted steps' slowest and fastest elements (the record's
 * stragglers), as nccl-tests ends a run. */
static void print_stragglers(struct text *t, const struct rs_val *all)
{
	static const char *const lists[] = { "slowest", "fastest" };
	char line[512];

	for (size_t i = 0; i < rs_val_len(all); i++) {
		const struct rs_val *sum = rs_val_at(all, i);

		rs_straggler_head(sum, line, sizeof(line));
		fprintf(out(t), "stragglers %s\n", rs_esc(line));
		for (unsigned l = 0; l < 2; l++) {
			const struct rs_val *els = rs_val_get(sum, lists[l]);

			for (size_t j = 0; j < rs_val_len(els); j++) {
				rs_straggler_elem(sum, rs_val_at(els, j), line,
						  sizeof(line));
				fprintf(out(t), "  %s %s\n", lists[l],
					rs_esc(line));
			}
		}
	}
}

static bool each_missed(const struct rs_val *step)
{
	const struct rs_val *gates = rs_val_get(step, "gates");

	for (size_t i = 0; i < rs_val_len(gates); i++) {
		const struct rs_val *g = rs_val_at(gates, i);

		if (rs_val_get_bool(g, "each") &&
		    !rs_val_get_bool(g, "passed"))
			return true;
	}
	return false;
}

/* The leader's: another node's element that missed an each: gate fails
 * the run without an abort, so nothing above names it but this. */
static void print_node_misses(struct text *t, const struct rs_val *rec)
{
	const struct rs_val *runs = rs_val_get(rec, "node_runs");

	for (size_t i = 0; i < rs_val_len(runs); i++) {
		const struct rs_val *r = rs_val_at(runs, i);
		const struct rs_val *steps = rs_val_get(r, "steps");

		for (size_t j = 0; j < rs_val_len(steps); j++) {
			const struct rs_val *st = rs_val_at(steps, j);
			const char *id = rs_val_get_str(st, "id");

			if (!each_missed(st))
				continue;
			fprintf(out(t), "node %s: step %s (%s)%s%s%s: %s\n",
				vtext(rs_val_get(r, "node"), "name"),
				vtext(st, "no"), vtext(st, "type"),
				id ? " '" : "", id ? rs_esc(id) : "",
				id ? "'" : "", vtext(st, "message"));
		}
	}
}

static int text_end_out(struct text *t, const struct rs_val *rec);

/* How to get a device when there was none, above the verdict; after
 * all, why the other nodes' records are missing, and the signal an
 * interrupted run was torn down after. */
static int text_end(struct rs_reporter *r, const struct rs_val *rec)
{
	struct text *t = TEXT(r);
	const char *advice = rs_val_get_str(rec, "advice");
	const char *sig = rs_val_get_str(rec, "interrupted_by");
	int ret;

	if (advice)
		fputs(advice, err(t));
	ret = text_end_out(t, rec);
	if (rs_val_get(rec, "node_runs_error"))
		fprintf(err(t), "rdmascn: nodes: the other nodes' records: "
			"%s\n", vtext(rec, "node_runs_error"));
	if (sig)
		fprintf(err(t), "rdmascn: interrupted by %s; torn down\n",
			sig);
	return ret;
}

/* The run's gates: on its counter totals, each held or not, as a
 * step's are shown under it. */
static void print_run_gates(struct text *t, const struct rs_val *gates)
{
	for (size_t i = 0; i < rs_val_len(gates); i++) {
		char text[512];

		rs_gate_result_text(rs_val_at(gates, i), text, sizeof(text));
		fprintf(out(t), "run gate %s\n", rs_esc(text));
	}
}

/* Whether any object of @rec was made (its outcome is no longer
 * "pending"). */
static bool any_made(const struct rs_val *rec)
{
	const struct rs_val *objs = rs_val_get(rec, "objects");

	for (size_t i = 0; i < rs_val_len(objs); i++)
		if (strcmp(vtext(rs_val_at(objs, i), "outcome"), "pending"))
			return true;
	return false;
}

static int text_end_out(struct text *t, const struct rs_val *rec)
{
	const char *verdict = vtext(rec, "verdict");
	const char *msg = rs_val_get_str(rec, "message");
	uint64_t n_obj = rs_val_len(rs_val_get(rec, "objects"));
	const struct rs_val *plan = rs_val_get(rec, "plan_steps");
	uint64_t n_steps = rs_val_len(plan);

	rs_term_line_clear(&t->line);
	/* -q in a matrix: the matrix's summary says each cell's verdict. */
	if (t->o.quiet && rs_val_get(rec, "cell"))
		return fflush(t->out) ? -errno : 0;
	if (t->dry_run && !t->o.quiet)
		print_plan_gates(t, plan);
	if (!t->o.quiet) {
		print_device_facts(t, rs_val_get(rec, "device_facts"));
		print_node_misses(t, rec);
		print_stragglers(t, rs_val_get(rec, "stragglers"));
		print_counters(t, "counter   run ", rs_val_get(rec,
							       "counters"));
		print_run_gates(t, rs_val_get(rec, "gates"));
		print_qp_binding(t, rs_val_get(rec, "qp_counters"));
	}
	/* An interrupted run's line is text_end's, on stderr. */
	if (strcmp(verdict, "passed") && strcmp(verdict, "skipped") &&
	    strcmp(verdict, "could not run") && strcmp(verdict, "failed"))
		return fflush(t->out) ? -errno : 0;
	rs_text_outcome(out(t), &t->o, !strcmp(verdict, "passed") &&
			t->dry_run ? "dry run done" : verdict);
	if (!strcmp(verdict, "passed"))
		fprintf(out(t), ": %llu object%s, %llu step%s\n",
			(unsigned long long)n_obj, n_obj == 1 ? "" : "s",
			(unsigned long long)n_steps, n_steps == 1 ? "" : "s");
	else if (!strcmp(verdict, "skipped") && msg && any_made(rec))
		/* A step that cannot be what it says here (impair on a
		 * hardware NIC): it says why. */
		fprintf(out(t), ": %s\n", rs_esc(msg));
	else if (!strcmp(verdict, "skipped"))
		fputs(": the device lacks what the scenario needs; "
		      "nothing was created\n", out(t));
	else
		fprintf(out(t), ": %s\n", msg ? rs_esc(msg) : "see above");
	return fflush(t->out) ? -errno : 0;
}

static void text_free(struct rs_reporter *r)
{
	rs_free(TEXT(r));
}

static const struct rs_reporter_ops text_ops = {
	.begin = text_begin,
	.entry = text_entry,
	.wants = text_wants,
	.end = text_end,
	.free = text_free,
	.before_wait = text_before_wait,
};

struct rs_reporter *rs_report_text(FILE *out, FILE *err,
				   const struct rs_text_opts *o)
{
	struct text *t = rs_calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->r.ops = &text_ops;
	t->out = out;
	t->err = err;
	if (o)
		t->o = *o;
	t->line.f = out;
	return &t->r;
}
