// SPDX-License-Identifier: MIT
/*
 * JUnit XML from run records, with libxml2's xmlTextWriter: a testsuite
 * per cell, a testcase per step plus one for set-up and one for
 * teardown.  The element and attribute set is Jenkins' junit-10.xsd
 * (tests/junit/junit.xsd): GitLab and Jenkins read it.  classname is the
 * scenario file and the cell, name the step's id, times are seconds.
 * A run across nodes (`nodes:`) is one suite of every node's testcases,
 * the leader's first, then each record in `node_runs`: classname ends
 * in "@NODE", and a property "node.NAME" per node gives its host.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "escape.h"
#include "gate.h"
#include "macros.h"
#include "report.h"
#include "stragglers.h"
#include "value.h"
#include "xml_load.h"

#define NAME_MAX_LEN 512

/* libxml2, loaded by rs_junit_write() (xml_load.h). */
static const struct rs_xml *X;

/* A testcase's outcome, the counters of its suite. */
enum tc_result { TC_PASSED, TC_FAILED, TC_ERROR, TC_SKIPPED };

struct tc {
	const char *name;
	double time_s;
	enum tc_result result;
	char message[1024];
	const char *type;       /* failure or error type: the outcome */
	const struct rs_val *gates; /* a step's, judged: its system-out */
};

struct suite {
	const struct rs_val *rec;
	char name[NAME_MAX_LEN];
	char base[NAME_MAX_LEN];        /* the file and the cell */
	char classname[2 * NAME_MAX_LEN]; /* base, "@NODE" across nodes */
	unsigned tests, failures, errors, skipped;
};

/* "FILE:LINE:COL: message" where the entry is located. */

/* XML 1.0 cannot hold most control characters, not even as &#27;: a
 * name or message holding one is written escaped (escape.h), as the
 * terminal sees it. */
static int attr(xmlTextWriterPtr w, const xmlChar *name, const xmlChar *v)
{
	return X->WriteAttribute(w, name,
		BAD_CAST rs_esc((const char *)v));
}

static int text(xmlTextWriterPtr w, const char *v)
{
	return X->WriteString(w, BAD_CAST rs_esc(v));
}

static void located(char *buf, size_t size, const struct rs_val *e,
		    const char *msg)
{
	if (rs_val_get(e, "file") && rs_val_get(e, "line"))
		snprintf(buf, size, "%s:%llu:%llu: %s", rs_val_text(e, "file"),
			 (unsigned long long)rs_val_get_u64(e, "line"),
			 (unsigned long long)rs_val_get_u64(e, "col"), msg);
	else
		snprintf(buf, size, "%s", msg);
}

/* The cell's first error, located; the record's message otherwise. */
static void first_error(char *buf, size_t size, const struct rs_val *rec)
{
	const struct rs_val *errs = rs_val_get(rec, "errors");

	if (rs_val_len(errs))
		located(buf, size, rs_val_at(errs, 0),
			rs_val_text(rs_val_at(errs, 0), "message"));
	else
		snprintf(buf, size, "%s", rs_val_get_str(rec, "message") ?
			 rs_val_text(rec, "message") : rs_val_text(rec, "verdict"));
}

static double phase_s(const struct rs_val *rec, const char *phase)
{
	return rs_val_get_double(rs_val_get(rec, "durations_ms"), phase) /
	       1000.0;
}

/* A step's gates, a line each, as the text report says them: the
 * junit-10 schema has no properties in a testcase, and CI shows a
 * testcase's system-out beside it. */
static int put_gates(xmlTextWriterPtr w, const struct rs_val *gates)
{
	int r = 0;

	r |= X->StartElement(w, BAD_CAST "system-out") < 0;
	for (size_t i = 0; i < rs_val_len(gates); i++) {
		char text[256];

		rs_gate_result_text(rs_val_at(gates, i), text, sizeof(text));
		r |= X->WriteFormatString(w, "gate %s\n", text) < 0;
	}
	r |= X->EndElement(w) < 0;
	return r;
}

static int put_tc(xmlTextWriterPtr w, struct suite *s, const struct tc *t)
{
	static const char *const tags[] = {
		[TC_FAILED] = "failure", [TC_ERROR] = "error",
		[TC_SKIPPED] = "skipped",
	};
	int r = 0;

	r |= X->StartElement(w, BAD_CAST "testcase") < 0;
	r |= attr(w, BAD_CAST "classname", BAD_CAST s->classname) < 0;
	r |= attr(w, BAD_CAST "name", BAD_CAST t->name) < 0;
	r |= X->WriteFormatAttribute(w, BAD_CAST "time", "%.3f",
				     t->time_s) < 0;
	if (t->result != TC_PASSED) {
		r |= X->StartElement(w, BAD_CAST tags[t->result]) < 0;
		r |= attr(w, BAD_CAST "message", BAD_CAST t->message) < 0;
		if (t->type)
			r |= attr(w, BAD_CAST "type", BAD_CAST t->type) < 0;
		r |= text(w, t->message) < 0;
		r |= X->EndElement(w) < 0;
	}
	if (rs_val_len(t->gates))
		r |= put_gates(w, t->gates);
	r |= X->EndElement(w) < 0;
	return r ? -EIO : 0;
}

/* Set-up: the objects.  Failed when one was not created, skipped when
 * the device lacks what the scenario needs. */
static void setup_tc(const struct rs_val *rec, struct tc *t)
{
	const char *verdict = rs_val_text(rec, "verdict");
	const struct rs_val *objs = rs_val_get(rec, "objects");

	*t = (struct tc){ .name = "set-up", .time_s = phase_s(rec, "setup") };
	if (!strcmp(verdict, "skipped")) {
		t->result = TC_SKIPPED;
		first_error(t->message, sizeof(t->message), rec);
		return;
	}
	for (size_t i = 0; i < rs_val_len(objs); i++) {
		const struct rs_val *o = rs_val_at(objs, i);

		/* (The record's accessor: a struct is read as one.) */
		if (!strcmp(rs_rec_obj_outcome_of(o), "failed")) {
			t->result = TC_FAILED;
			t->type = "failed";
			first_error(t->message, sizeof(t->message), rec);
			return;
		}
	}
	/* Stopped before any object: no device, interrupted, or invalid
	 * (a matrix cell that did not load, device facts that make the
	 * file wrong): an error, or CI would show a green suite. */
	if (!strcmp(verdict, "could not run") ||
	    !strcmp(verdict, "interrupted") || !strcmp(verdict, "invalid")) {
		const struct rs_val *o = rs_val_at(objs, 0);

		if (rs_val_len(objs) &&
		    strcmp(rs_rec_obj_outcome_of(o), "pending"))
			return;
		t->result = TC_ERROR;
		t->type = verdict;
		first_error(t->message, sizeof(t->message), rec);
	}
}

static void step_tc(const struct rs_val *e, struct tc *t, char *name,
		    size_t size)
{
	const char *outcome = rs_val_text(e, "outcome");
	const char *id = rs_val_get_str(e, "id");

	if (id)
		snprintf(name, size, "%s", id);
	else
		snprintf(name, size, "step %s (%s)", rs_val_text(e, "no"),
			 rs_val_text(e, "type"));
	*t = (struct tc){
		.name = name,
		.time_s = rs_val_get_double(e, "duration_ms") / 1000.0,
		.gates = rs_val_get(e, "gates"),
	};
	if (!strcmp(outcome, "passed"))
		return;
	t->type = outcome;
	if (!strcmp(outcome, "failed")) {
		t->result = TC_FAILED;
	} else if (!strcmp(outcome, "not run") ||
		   !strcmp(outcome, "skipped")) {
		t->result = TC_SKIPPED;
		t->type = NULL;
	} else {
		t->result = TC_ERROR;
	}
	located(t->message, sizeof(t->message), e,
		rs_val_get_str(e, "message") ? rs_val_text(e, "message") : outcome);
}

/* A planned step that has no entry: the run stopped before it. */
static void unrun_tc(const struct rs_val *rec, const struct rs_val *plan,
		     struct tc *t, char *name, size_t size)
{
	const char *id = rs_val_get_str(plan, "id");
	bool dry = rs_val_get_bool(rec, "dry_run");

	if (id)
		snprintf(name, size, "%s", id);
	else
		snprintf(name, size, "step %s (%s)", rs_val_text(plan, "no"),
			 rs_val_text(plan, "type"));
	*t = (struct tc){ .name = name, .result = TC_SKIPPED };
	snprintf(t->message, sizeof(t->message), "not run: %s",
		 dry ? "dry run" :
		 !strcmp(rs_val_text(rec, "verdict"), "skipped") ?
		 "the device lacks what the scenario needs" :
		 "the run stopped before it");
}

static void teardown_tc(const struct rs_val *rec, struct tc *t)
{
	const struct rs_val *leaks = rs_val_get(rec, "leaks");

	*t = (struct tc){ .name = "teardown",
			  .time_s = phase_s(rec, "teardown") };
	if (rs_val_get_bool(rec, "teardown_failed")) {
		t->result = TC_FAILED;
		t->type = "failed";
		first_error(t->message, sizeof(t->message), rec);
	} else if (rs_val_get_u64(leaks, "count")) {
		t->result = TC_FAILED;
		t->type = "leak";
		snprintf(t->message, sizeof(t->message),
			 "%llu kernel resources left after teardown",
			 (unsigned long long)rs_val_get_u64(leaks, "count"));
	}
}

/* The run's gates: (on its counter totals), a testcase of their own:
 * failed when one missed, the first miss its message. */
static void gates_tc(const struct rs_val *rec, struct tc *t)
{
	const struct rs_val *gates = rs_val_get(rec, "gates");

	*t = (struct tc){ .name = "run gates", .gates = gates };
	for (size_t i = 0; i < rs_val_len(gates); i++) {
		const struct rs_val *g = rs_val_at(gates, i);

		if (rs_val_get_bool(g, "passed") ||
		    rs_val_get_bool(g, "skipped"))
			continue;
		t->result = TC_FAILED;
		t->type = "failed";
		rs_gate_result_text(g, t->message, sizeof(t->message));
		return;
	}
}

static int no_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The numbers of the steps that ran, sorted to be searched: a plan of
 * n steps looked up in a scan of those that ran was n^2 strcmp()s. */
static const char **ran_sorted(const struct rs_val *steps)
{
	size_t n = rs_val_len(steps);
	const char **nos = rs_calloc(n ? n : 1, sizeof(*nos));

	if (!nos)
		return NULL;
	for (size_t k = 0; k < n; k++)
		nos[k] = rs_val_text(rs_val_at(steps, k), "no");
	qsort(nos, n, sizeof(*nos), no_cmp);
	return nos;
}

static bool step_ran(const char **nos, size_t n, const char *no)
{
	return bsearch(&no, nos, n, sizeof(*nos), no_cmp);
}

/* The testcases of one node's record (or the only one), in the order
 * they ran, to @fn. */
static int record_tcs(struct suite *s, const struct rs_val *rec,
		      int (*fn)(struct suite *s, const struct tc *t,
				void *ctx), void *ctx)
{
	const struct rs_val *steps = rs_val_get(rec, "steps");
	const struct rs_val *plan = rs_val_get(rec, "plan_steps");
	const char *node = rs_val_get_str(rs_val_get(rec, "node"), "name");
	char name[NAME_MAX_LEN];
	struct tc t;
	int ret;

	snprintf(s->classname, sizeof(s->classname), "%s%s%s", s->base,
		 node ? "@" : "", node ? node : "");
	setup_tc(rec, &t);
	if ((ret = fn(s, &t, ctx)))
		return ret;
	for (size_t i = 0; i < rs_val_len(steps); i++) {
		step_tc(rs_val_at(steps, i), &t, name, sizeof(name));
		if ((ret = fn(s, &t, ctx)))
			return ret;
	}
	if (rs_val_len(plan)) {
		const char **nos = ran_sorted(steps);

		if (!nos)
			return -ENOMEM;
		for (size_t i = 0; i < rs_val_len(plan); i++) {
			if (step_ran(nos, rs_val_len(steps),
				     rs_val_text(rs_val_at(plan, i), "no")))
				continue;
			unrun_tc(rec, rs_val_at(plan, i), &t, name,
				 sizeof(name));
			if ((ret = fn(s, &t, ctx))) {
				free(nos);
				return ret;
			}
		}
		free(nos);
	}
	if (rs_val_get(rec, "gates")) {
		gates_tc(rec, &t);
		if ((ret = fn(s, &t, ctx)))
			return ret;
	}
	teardown_tc(rec, &t);
	return fn(s, &t, ctx);
}

/* Every testcase of a cell: its record's, then every other node's. */
static int each_tc(struct suite *s,
		   int (*fn)(struct suite *s, const struct tc *t, void *ctx),
		   void *ctx)
{
	const struct rs_val *others = rs_val_get(s->rec, "node_runs");
	int ret;

	/* A matrix cell the run was interrupted before: one testcase. */
	if (!strcmp(rs_val_text(s->rec, "verdict"), "not run")) {
		struct tc t = { .name = "cell", .result = TC_SKIPPED };

		snprintf(s->classname, sizeof(s->classname), "%s", s->base);
		snprintf(t.message, sizeof(t.message), "not run: the matrix "
			 "was interrupted before this cell");
		return fn(s, &t, ctx);
	}
	ret = record_tcs(s, s->rec, fn, ctx);

	for (size_t i = 0; !ret && i < rs_val_len(others); i++)
		ret = record_tcs(s, rs_val_at(others, i), fn, ctx);
	return ret;
}

static int count_tc(struct suite *s, const struct tc *t, void *ctx)
{
	(void)ctx;
	s->tests++;
	s->failures += t->result == TC_FAILED;
	s->errors += t->result == TC_ERROR;
	s->skipped += t->result == TC_SKIPPED;
	return 0;
}

static int write_tc(struct suite *s, const struct tc *t, void *ctx)
{
	return put_tc(ctx, s, t);
}

static int suite_init(struct suite *s, const struct rs_val *rec)
{
	const struct rs_val *scn = rs_val_get(rec, "scenario");
	const char *cell = rs_val_get_str(rs_val_get(rec, "cell"), "name");
	const char *name = rs_val_get_str(scn, "name");

	*s = (struct suite){ .rec = rec };
	snprintf(s->base, sizeof(s->base), "%s%s%s%s",
		 rs_val_text(scn, "file"), cell ? "[" : "", cell ? cell : "",
		 cell ? "]" : "");
	snprintf(s->name, sizeof(s->name), "%s%s%s%s",
		 name ? name : rs_val_text(scn, "file"), cell ? "[" : "",
		 cell ? cell : "", cell ? "]" : "");
	return each_tc(s, count_tc, NULL);
}

static int put_property(xmlTextWriterPtr w, const char *name,
			const char *value)
{
	int r = 0;

	r |= X->StartElement(w, BAD_CAST "property") < 0;
	r |= attr(w, BAD_CAST "name", BAD_CAST name) < 0;
	r |= attr(w, BAD_CAST "value", BAD_CAST value) < 0;
	r |= X->EndElement(w) < 0;
	return r;
}

/* Each straggler summary as one property, "stragglers.STEP.FIGURE":
 * the text report's lines joined by "; ". */
static int put_stragglers(xmlTextWriterPtr w, const struct rs_val *all)
{
	static const char *const lists[] = { "slowest", "fastest" };
	char name[NAME_MAX_LEN], v[2048], line[512];
	int r = 0;

	for (size_t i = 0; i < rs_val_len(all); i++) {
		const struct rs_val *sum = rs_val_at(all, i);
		size_t o;

		snprintf(name, sizeof(name), "stragglers.%s.%s",
			 rs_val_text(sum, "step"), rs_val_text(sum, "figure"));
		rs_straggler_head(sum, v, sizeof(v));
		o = strlen(v);
		for (unsigned l = 0; l < 2; l++) {
			const struct rs_val *els = rs_val_get(sum, lists[l]);

			for (size_t j = 0; j < rs_val_len(els) &&
			     o < sizeof(v); j++) {
				rs_straggler_elem(sum, rs_val_at(els, j), line,
						  sizeof(line));
				o += snprintf(v + o, sizeof(v) - o, "; %s %s",
					      lists[l], line);
			}
		}
		r |= put_property(w, name, v);
	}
	return r;
}

static int put_properties(xmlTextWriterPtr w, const struct rs_val *rec)
{
	static const char *const keys[] = { "tool", "kernel", "verdict" };
	const struct rs_val *params =
		rs_val_get(rs_val_get(rec, "scenario"), "params");
	const struct rs_val *others = rs_val_get(rec, "node_runs");
	char name[NAME_MAX_LEN];
	int r = 0;

	r |= X->StartElement(w, BAD_CAST "properties") < 0;
	for (size_t i = 0; i < RS_N(keys); i++)
		if (rs_val_get(rec, keys[i]))
			r |= put_property(w, keys[i], rs_val_text(rec, keys[i]));
	/* A cell that never ran has none. */
	if (params) {
		rs_val_foreach(params, val) {
			char buf[256];

			snprintf(name, sizeof(name), "param.%s",
				 rs_val_key(val));
			r |= put_property(w, name, rs_val_text_of(val, buf,
								 sizeof(buf)));
		}
	}
	/* Across nodes: which node ran where. */
	for (size_t i = 0; rs_val_get(rec, "node") && i <= rs_val_len(others);
	     i++) {
		const struct rs_val *n = i ? rs_val_at(others, i - 1) : rec;

		snprintf(name, sizeof(name), "node.%s",
			 rs_val_text(rs_val_get(n, "node"), "name"));
		r |= put_property(w, name, rs_val_text(n, "host"));
	}
	r |= put_stragglers(w, rs_val_get(rec, "stragglers"));
	r |= X->EndElement(w) < 0;
	return r;
}

static int put_suite(xmlTextWriterPtr w, struct suite *s, const char *human)
{
	const struct rs_val *rec = s->rec;
	time_t start = (time_t)rs_val_get_u64(rec, "start");
	char stamp[32] = "";
	struct tm tm;
	int r = 0;

	if (gmtime_r(&start, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	r |= X->StartElement(w, BAD_CAST "testsuite") < 0;
	r |= attr(w, BAD_CAST "name", BAD_CAST s->name) < 0;
	r |= X->WriteFormatAttribute(w, BAD_CAST "tests", "%u",
				     s->tests) < 0;
	r |= X->WriteFormatAttribute(w, BAD_CAST "failures", "%u",
				     s->failures) < 0;
	r |= X->WriteFormatAttribute(w, BAD_CAST "errors", "%u",
				     s->errors) < 0;
	r |= X->WriteFormatAttribute(w, BAD_CAST "skipped", "%u",
				     s->skipped) < 0;
	r |= X->WriteFormatAttribute(w, BAD_CAST "time", "%.3f",
		rs_val_get_double(rs_val_get(rec, "durations_ms"), "total") /
		1000.0) < 0;
	r |= attr(w, BAD_CAST "timestamp", BAD_CAST stamp) < 0;
	r |= attr(w, BAD_CAST "hostname",
		  BAD_CAST rs_val_text(rec, "host")) < 0;
	r |= attr(w, BAD_CAST "file", BAD_CAST
		rs_val_text(rs_val_get(rec, "scenario"), "file")) < 0;
	r |= put_properties(w, rec);
	r |= each_tc(s, write_tc, w) != 0;
	r |= X->WriteElement(w, BAD_CAST "system-out",
				       BAD_CAST human) < 0;
	r |= X->EndElement(w) < 0;
	return r;
}

/* libxml2 says "I/O error" on stderr when a write fails; the output's
 * owner says it with the path and errno instead. */
static void quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

int rs_junit_write(FILE *f, const struct rs_cell_result *cells, size_t n)
{
	xmlOutputBufferPtr out;
	struct suite *suites = calloc(n ? n : 1, sizeof(*suites));
	struct suite all = { 0 };
	xmlTextWriterPtr w;
	double total = 0;
	char err[256];
	int r;

	if (!suites)
		return -ENOMEM;
	r = rs_xml_load(&X, err, sizeof(err));
	if (r) {
		/* The caller names the file with strerror(ELIBACC). */
		fprintf(stderr, "rdmascn: JUnit XML needs libxml2: %s\n", err);
		free(suites);
		return r;
	}
	for (size_t i = 0; i < n; i++) {
		if (suite_init(&suites[i], cells[i].record)) {
			free(suites);
			return -ENOMEM;
		}
		all.tests += suites[i].tests;
		all.failures += suites[i].failures;
		all.errors += suites[i].errors;
		total += rs_val_get_double(rs_val_get(cells[i].record,
						      "durations_ms"), "total");
	}
	X->SetGenericErrorFunc(NULL, quiet);
	out = X->OutputBufferCreateFile(f, NULL);
	w = out ? X->NewTextWriter(out) : NULL;
	if (!w) {
		if (out)
			X->OutputBufferClose(out);
		X->SetGenericErrorFunc(NULL, NULL);
		free(suites);
		return -ENOMEM;
	}
	r |= X->SetIndent(w, 1) < 0;
	r |= X->SetIndentString(w, BAD_CAST "  ") < 0;
	r |= X->StartDocument(w, NULL, "UTF-8", NULL) < 0;
	r |= X->StartElement(w, BAD_CAST "testsuites") < 0;
	r |= attr(w, BAD_CAST "name", BAD_CAST "rdmascn") < 0;
	r |= X->WriteFormatAttribute(w, BAD_CAST "tests", "%u",
				     all.tests) < 0;
	r |= X->WriteFormatAttribute(w, BAD_CAST "failures", "%u",
				     all.failures) < 0;
	r |= X->WriteFormatAttribute(w, BAD_CAST "errors", "%u",
				     all.errors) < 0;
	r |= X->WriteFormatAttribute(w, BAD_CAST "time", "%.3f",
				     total / 1000.0) < 0;
	for (size_t i = 0; i < n; i++)
		r |= put_suite(w, &suites[i], cells[i].human);
	r |= X->EndElement(w) < 0;
	r |= X->EndDocument(w) < 0;
	r |= X->Flush(w) < 0;
	X->FreeTextWriter(w);  /* and out, which leaves @f open */
	X->SetGenericErrorFunc(NULL, NULL);
	free(suites);
	return r ? -EIO : 0;
}
