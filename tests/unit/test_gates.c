// SPDX-License-Identifier: MIT
/*
 * A step's gate against figures of our own making, and latency samples
 * into their histogram and the samples file, without a device: the
 * scenario is loaded for real, the step is prepared as the executor
 * would and given figures as the pingpong would record them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "list.h"
#include "report.h"
#include "run_fixture.h"
#include "step.h"
#include "value.h"

static const char yaml[] =
	"contexts: [{id: ctx, device: any, port: 1}]\n"
	"pds: [{id: pd, context: ctx}]\n"
	"cqs: [{id: cq, context: ctx, cqe: 16}]\n"
	"mrs:\n"
	"  - {id: ma, pd: pd, length: 64, access: [local_write]}\n"
	"  - {id: mb, pd: pd, length: 64, access: [local_write]}\n"
	"qps:\n"
	"  - {id: a, pd: pd, type: rc, send_cq: cq, cap: {max_recv_wr: 4}}\n"
	"  - {id: b, pd: pd, type: rc, send_cq: cq, cap: {max_recv_wr: 4}}\n"
	"connections: [{id: ab, a: a, b: b}]\n"
	"steps:\n"
	"  - pingpong:\n"
	"      id: lat\n"
	"      qp: a\n"
	"      peer: b\n"
	"      local: ma\n"
	"      peer_local: mb\n"
	"      gate:\n"
	"        latency.typical: {max: 5}\n"
	"        latency.min: {min: 1, max: 2}\n";

struct fix {
	struct rs_scenario *s;
	struct rs_run run;
	struct rs_record rec;
	struct rs_steps st;
	struct rs_step_run sr;
};

static void fix_open(struct fix *f)
{
	memset(f, 0, sizeof(*f));
	fixture_run_open("gates.yaml", yaml, &f->s, &f->run, &f->rec);
	f->st.run = &f->run;
	pthread_mutex_init(&f->st.lock, NULL);
	f->sr.st = &f->st;
	f->sr.run = &f->run;
	f->sr.obj = f->s->steps[0];
	f->sr.ops = f->sr.obj->kind->step_ops;
	f->sr.label = "step 1 (pingpong) 'lat'";
	f->sr.no = "1";
	f->sr.result = RS_STEP_PASSED;
}

static void fix_close(struct fix *f)
{
	rs_step_release(&f->sr);
	pthread_mutex_destroy(&f->st.lock);
	fixture_run_close(f->s, &f->run, &f->rec);
}

static void latency(struct fix *f, double min, double typical)
{
	struct rs_val *lat = rs_val_put_obj(rs_step_figures(&f->sr), "latency");

	rs_val_put_double(lat, "min", min);
	rs_val_put_double(lat, "typical", typical);
}

/* Bounds that hold: passed, each gate with its value and where it is. */
TEST(gates, within)
{
	const struct rs_val *g;
	struct fix f;

	fix_open(&f);
	latency(&f, 1.5, 5);
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_PASSED);
	CHECK_UINT(rs_val_len(f.sr.gates), 2);
	/* In the table's order: latency.min first. */
	g = rs_val_at(f.sr.gates, 0);
	CHECK_STR(rs_val_get_str(g, "figure"), "latency.min");
	CHECK(rs_val_get_double(g, "value") == 1.5);
	CHECK(rs_val_get_double(g, "min") == 1 && rs_val_get_double(g, "max") == 2);
	CHECK(rs_val_bool_of(rs_val_get(g, "passed")));
	g = rs_val_at(f.sr.gates, 1);
	CHECK_STR(rs_val_get_str(g, "figure"), "latency.typical");
	CHECK_UINT(rs_val_get_u64(g, "line"), 19);
	CHECK_UINT(f.run.diag.errors, 0);
	fix_close(&f);
}

/* Out of bounds: failed, the message names the figure, the value, the
 * bound and its FILE:LINE:COL; a figure not recorded fails too. */
TEST(gates, missed)
{
	struct fix f;

	fix_open(&f);
	latency(&f, 0.5, 7.25);
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_FAILED);
	CHECK_UINT(f.run.diag.errors, 2);
	/* The first miss in the table's order says why, and where (the
	 * fixture's file name does not outlive its opening). */
	CHECK(!strncmp(f.sr.why, "gate: latency.min is 0.5 usec, below min 1 (",
		       44));
	CHECK(strstr(f.sr.why, ":20:28)"));
	CHECK(!rs_val_bool_of(rs_val_get(
		rs_val_at(f.sr.gates, 1), "passed")));
	fix_close(&f);

	fix_open(&f);
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_FAILED);
	CHECK(!strncmp(f.sr.why, "gate: latency.min was not recorded (", 36));
	CHECK(strstr(f.sr.why, ":20:9)"));
	fix_close(&f);

	/* A step that did not pass is not gated. */
	fix_open(&f);
	f.sr.result = RS_STEP_FAILED;
	rs_step_check_gates(&f.sr);
	CHECK(!f.sr.gates);
	CHECK_UINT(f.run.diag.errors, 0);
	fix_close(&f);
}

/* Samples: the CSV rows in the order given, one-way usec; the histogram
 * counts all of them in quarter-octave buckets. */
TEST(gates, samples)
{
	/* Round trips in ns: one way 1, 1.1, 2, 8 usec. */
	static const uint64_t ns[] = { 2000, 2200, 4000, 16000 };
	const struct rs_val *edges, *counts;
	char text[256] = "";
	uint64_t sum = 0;
	struct fix f;
	size_t len;

	fix_open(&f);
	f.run.samples = tmpfile();
	CHECK(f.run.samples);
	rs_step_samples(&f.sr, ns, 4, 2000.0);
	rewind(f.run.samples);
	len = fread(text, 1, sizeof(text) - 1, f.run.samples);
	text[len] = '\0';
	CHECK_STR(text, ",lat,0,1.000\n,lat,1,1.100\n,lat,2,2.000\n"
		  ",lat,3,8.000\n");
	fclose(f.run.samples);
	f.run.samples = NULL;

	CHECK(f.sr.histogram);
	CHECK_STR(rs_val_get_str(f.sr.histogram, "unit"), "usec");
	edges = rs_val_get(f.sr.histogram, "edges");
	counts = rs_val_get(f.sr.histogram, "counts");
	/* 1 usec to 8: bucket 0 to 12, 13 counts, 14 edges. */
	CHECK_UINT(rs_val_len(counts), 13);
	CHECK_UINT(rs_val_len(edges), 14);
	CHECK(rs_val_double_of(rs_val_at(edges, 0)) == 1);
	CHECK(rs_val_double_of(rs_val_at(edges, 4)) == 2);
	for (size_t i = 0; i < rs_val_len(counts); i++)
		sum += rs_val_u64_of(rs_val_at(counts, i));
	CHECK_UINT(sum, 4);
	/* 1 and 1.1 share [1, 1.19); 2 is in [2, 2.38); 8 in the last. */
	CHECK_UINT(rs_val_u64_of(rs_val_at(counts, 0)), 2);
	CHECK_UINT(rs_val_u64_of(rs_val_at(counts, 4)), 1);
	CHECK_UINT(rs_val_u64_of(rs_val_at(counts, 12)), 1);
	fix_close(&f);
}

/* Gates that held are shown, not only kept in the record: a line under
 * the step in the text report, and the step's system-out in JUnit. */
TEST(gates, shown)
{
	/* As XML writes them. */
	static const char held_typ[] =
		"gate latency.typical &lt;= 5 usec: 4.25 usec held\n";
	static const char held_min[] =
		"<system-out>gate 1 &lt;= latency.min &lt;= 2 usec: 1.5 usec "
		"held\n";
	struct rs_val *rec, *step;
	struct rs_cell_result cell;
	struct rs_reporter *r;
	char *text = NULL;
	size_t len = 0;
	struct fix f;
	FILE *mem;

	fix_open(&f);
	latency(&f, 1.5, 4.25);
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_PASSED);
	rec = rs_val_parse(
		"{\"scenario\": {\"file\": \"gates.yaml\"}, \"verdict\": "
		"\"passed\", \"dry_run\": false, \"durations_ms\": {\"setup\": "
		"0, \"steps\": 1, \"teardown\": 0, \"total\": 1}, \"objects\": "
		"[], \"plan_steps\": [{\"no\": \"1\", \"type\": \"pingpong\", "
		"\"id\": \"lat\"}], \"steps\": [{\"no\": \"1\", \"type\": "
		"\"pingpong\", \"id\": \"lat\", \"outcome\": \"passed\", "
		"\"duration_ms\": 1}]}");
	CHECK(rec);
	step = (struct rs_val *)rs_val_at(rs_val_get(rec, "steps"), 0);
	rs_val_put(step, "gates", f.sr.gates);
	f.sr.gates = NULL;

	mem = open_memstream(&text, &len);
	CHECK(mem);
	r = rs_report_text(mem, mem, NULL);
	CHECK(r);
	r->ops->entry(r, RS_REC_STEP, step);
	r->ops->free(r);
	fclose(mem);
	/* The step line, then its gates in the table's order. */
	CHECK(!strncmp(text, "step 1     pingpong   'lat'", 27));
	CHECK(strstr(text, "passed"));
	CHECK_STR(strchr(text, '\n') + 1, "  gate 1 <= latency.min <= 2 usec: "
		  "1.5 usec held\n  gate latency.typical <= 5 usec: 4.25 usec "
		  "held\n");
	free(text);

	text = NULL;
	mem = open_memstream(&text, &len);
	CHECK(mem);
	cell = (struct rs_cell_result){ .record = rec, .human = "" };
	CHECK_INT(rs_junit_write(mem, &cell, 1), 0);
	fclose(mem);
	CHECK(strstr(text, held_typ));
	CHECK(strstr(text, held_min));
	/* In the step's testcase, not the suite's report. */
	CHECK(strstr(text, "<testcase classname=\"gates.yaml\" name=\"lat\""));
	CHECK(strstr(strstr(text, "name=\"lat\""), held_min) <
	      strstr(text, "name=\"teardown\""));
	free(text);
	rs_val_free(rec);
	fix_close(&f);
}

/* each: on a counted pingpong across two nodes: element 2 of 4 out of
 * its bound. */
static const char each_yaml[] =
	"nodes: [{id: h0}, {id: h1}]\n"
	"contexts:\n"
	"  - {id: ca, node: h0, device: any, port: 1}\n"
	"  - {id: cb, node: h1, device: any, port: 1}\n"
	"pds: [{id: pa, context: ca}, {id: pb, context: cb}]\n"
	"cqs:\n"
	"  - {id: qa, context: ca, cqe: 16}\n"
	"  - {id: qb, context: cb, cqe: 16}\n"
	"mrs:\n"
	"  - {id: ma, count: 4, pd: pa, length: 64, access: [local_write]}\n"
	"  - {id: mb, count: 4, pd: pb, length: 64, access: [local_write]}\n"
	"qps:\n"
	"  - {id: a, count: 4, pd: pa, type: rc, send_cq: qa}\n"
	"  - {id: b, count: 4, pd: pb, type: rc, send_cq: qb}\n"
	"connections: [{id: ab, a: a, b: b}]\n"
	"steps:\n"
	"  - pingpong:\n"
	"      id: lat\n"
	"      qp: a\n"
	"      peer: b\n"
	"      local: ma\n"
	"      peer_local: mb\n"
	"      gate:\n"
	"        latency.min: {max: 10}\n"
	"        each: {latency.typical: {max: 20}}\n";

static void each_open(struct fix *f, unsigned elem)
{
	memset(f, 0, sizeof(*f));
	fixture_run_open("each.yaml", each_yaml, &f->s, &f->run, &f->rec);
	f->st.run = &f->run;
	pthread_mutex_init(&f->st.lock, NULL);
	f->sr.st = &f->st;
	f->sr.run = &f->run;
	CHECK_UINT(f->s->n_steps, 4);
	f->sr.obj = f->s->steps[elem];
	f->sr.ops = f->sr.obj->kind->step_ops;
	f->sr.label = "step 1[2] (pingpong) 'lat[2]'";
	f->sr.no = f->sr.obj->no;
	f->sr.result = RS_STEP_PASSED;
}

/* An element out of an each: bound fails, names itself, its nodes and
 * its value, and says the run may go on (each_missed); within it, it
 * passes; a plain bound missed as well stops the run as before. */
TEST(gates, each)
{
	const struct rs_val *g;
	struct fix f;

	each_open(&f, 2);
	CHECK_STR(f.sr.obj->id, "lat[2]");
	latency(&f, 1, 31.2);
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_FAILED);
	CHECK(f.sr.each_missed);
	CHECK(!strncmp(f.sr.why, "gate: latency.typical <= 20 usec each: "
		       "lat[2] (h0 -> h1) has 31.2 usec (", 72));
	/* At the bound: each:'s max, line 25. */
	CHECK(strstr(f.sr.why, ":25:"));
	CHECK_UINT(rs_val_len(f.sr.gates), 2);
	g = rs_val_at(f.sr.gates, 1);
	CHECK_STR(rs_val_get_str(g, "figure"), "latency.typical");
	CHECK(rs_val_bool_of(rs_val_get(g, "each")));
	CHECK(!rs_val_bool_of(rs_val_get(g, "passed")));
	CHECK(rs_val_get_double(g, "value") == 31.2);
	CHECK(!rs_val_get(rs_val_at(f.sr.gates, 0), "each"));
	fix_close(&f);

	each_open(&f, 0);
	latency(&f, 1, 19.5);
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_PASSED);
	CHECK(!f.sr.each_missed);
	CHECK_UINT(f.run.diag.errors, 0);
	fix_close(&f);

	/* The plain bound missed too: the run stops at it. */
	each_open(&f, 3);
	latency(&f, 11, 31.2);
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_FAILED);
	CHECK(!f.sr.each_missed);
	CHECK(!strncmp(f.sr.why, "gate: latency.min is 11 usec", 28));
	CHECK_UINT(f.run.diag.errors, 2);
	fix_close(&f);

	/* On h1, the peer's node, the step is its answering half: no
	 * figures there, and no gate judged. */
	each_open(&f, 2);
	f.run.node = 1;
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_PASSED);
	CHECK(!f.sr.gates);
	CHECK_UINT(f.run.diag.errors, 0);
	fix_close(&f);

	/* Not recorded: a miss of the element's too. */
	each_open(&f, 1);
	rs_val_put_double(rs_val_put_obj(rs_step_figures(&f.sr), "latency"),
			  "min", 1);
	rs_step_check_gates(&f.sr);
	CHECK(f.sr.each_missed);
	CHECK(strstr(f.sr.why, "each: lat[1] (h0 -> h1) has no "
		     "latency.typical"));
	fix_close(&f);
}
