// SPDX-License-Identifier: MIT
/*
 * Gates on counters, on another step's figure (ratios) and the run's
 * gates:, against figures of our own making in the shape the counters
 * are recorded in ({"counters": {"DEV/PORT": {NAME: delta}, "DEV":
 * {...}}}), without a device: the scenario is loaded for real and the
 * step prepared as the executor would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "exit.h"
#include "list.h"
#include "report.h"
#include "run_fixture.h"
#include "step.h"
#include "value.h"

#define OBJECTS                                                          \
	"contexts: [{id: ctx, device: any, port: 1}]\n"                   \
	"pds: [{id: pd, context: ctx}]\n"                                 \
	"cqs: [{id: cq, context: ctx, cqe: 16}]\n"                        \
	"mrs:\n"                                                          \
	"  - {id: ma, pd: pd, length: 64, access: [local_write]}\n"       \
	"  - {id: mb, pd: pd, length: 64, access: [local_write]}\n"       \
	"qps:\n"                                                          \
	"  - {id: a, pd: pd, type: rc, send_cq: cq, cap: {max_recv_wr: 4}}\n" \
	"  - {id: b, pd: pd, type: rc, send_cq: cq, cap: {max_recv_wr: 4}}\n" \
	"connections: [{id: ab, a: a, b: b}]\n"

static const char yaml[] =
	OBJECTS
	"gates:\n"
	"  counters.*discard*: {max: 0}\n"
	"  counters.retry_exceeded_err: {max: 0}\n"
	"steps:\n"
	"  - pingpong: {id: base, qp: a, peer: b, local: ma, peer_local: mb}\n"
	"  - pingpong:\n"
	"      id: lat\n"
	"      qp: a\n"
	"      peer: b\n"
	"      local: ma\n"
	"      peer_local: mb\n"
	"      gate:\n"
	"        counters.sent_pkts: {max: 10}\n"
	"        counters.rxe_a/1.rcvd_pkts: {equals: 2000}\n"
	"        counters.*_err: {max: 0}\n"
	"        counters.port_xmit_data: {equals_counter: port_rcv_data}\n"
	"        latency.typical: {max_ratio: 2, of: base}\n";

struct fix {
	struct rs_scenario *s;
	struct rs_run run;
	struct rs_record rec;
	struct rs_steps st;
	struct rs_step_run sr;
};

static void fix_open(struct fix *f, const char *text, unsigned step)
{
	memset(f, 0, sizeof(*f));
	fixture_run_open("gatec.yaml", text, &f->s, &f->run, &f->rec);
	f->st.run = &f->run;
	pthread_mutex_init(&f->st.lock, NULL);
	f->sr.st = &f->st;
	f->sr.run = &f->run;
	f->sr.obj = f->s->steps[step];
	f->sr.ops = f->sr.obj->kind->step_ops;
	f->sr.label = "step 2 (pingpong) 'lat'";
	f->sr.no = f->sr.obj->no;
	f->sr.result = RS_STEP_PASSED;
}

static void fix_close(struct fix *f)
{
	rs_step_release(&f->sr);
	pthread_mutex_destroy(&f->st.lock);
	fixture_run_close(f->s, &f->run, &f->rec);
}

/* @json, {"DEV/PORT": {...}, ...}, as the step's counters. */
static void counters(struct fix *f, const char *json)
{
	struct rs_val *c = rs_val_parse(json);

	CHECK(c);
	rs_val_put(rs_step_figures(&f->sr), "counters", c);
}

static void latency(struct fix *f, double typical)
{
	rs_val_put_double(rs_val_put_obj(rs_step_figures(&f->sr), "latency"),
			  "typical", typical);
}

/* Step 'base' in the record, with its typical latency. */
static void base_step(struct fix *f, double typical)
{
	struct rs_val *e = rs_val_obj();
	struct rs_val *fig = rs_val_put_obj(e, "figures");

	rs_val_put_str(e, "no", "1");
	rs_val_put_str(e, "id", "base");
	rs_val_put_double(rs_val_put_obj(fig, "latency"), "typical", typical);
	rs_val_push(f->rec.steps, e);
}

static const struct rs_val *entry(const struct fix *f, const char *figure)
{
	for (size_t i = 0; i < rs_val_len(f->sr.gates); i++) {
		const struct rs_val *g = rs_val_at(f->sr.gates, i);

		if (!strcmp(rs_val_get_str(g, "figure"), figure))
			return g;
	}
	return NULL;
}

static bool passed(const struct rs_val *g)
{
	return g && rs_val_bool_of(rs_val_get(g,
								   "passed"));
}

#define HELD_COUNTERS                                                    \
	"{\"rxe_a/1\": {\"sent_pkts\": 4, \"rcvd_pkts\": 2000, "          \
	"\"port_xmit_data\": 100, \"port_rcv_data\": 100, "               \
	"\"retry_exceeded_err\": 0}, \"rxe_a\": {\"sent_pkts\": 3, "      \
	"\"send_err\": 0}}"

/* Every bound holds: a named counter summed over the places that have
 * it, one place's, each counter a glob matches, two deltas equal, and a
 * ratio to the earlier step; the figures table's first, then the
 * counters as written. */
TEST(gate_counters, held)
{
	const struct rs_val *g;
	struct fix f;

	fix_open(&f, yaml, 1);
	counters(&f, HELD_COUNTERS);
	latency(&f, 3);
	base_step(&f, 2);
	rs_step_check_gates(&f.sr);
	CHECK_STR(f.run.diag.first, "");
	CHECK_INT(f.sr.result, RS_STEP_PASSED);
	/* latency, sent_pkts, rcvd_pkts, two *_err, port_xmit_data */
	CHECK_UINT(rs_val_len(f.sr.gates), 6);
	CHECK_STR(rs_val_get_str(rs_val_at(f.sr.gates, 0), "figure"),
		  "latency.typical");
	g = entry(&f, "latency.typical");
	CHECK(passed(g));
	CHECK(rs_val_get_double(g, "ratio") == 1.5);
	CHECK(rs_val_get_double(g, "of_value") == 2);
	CHECK_STR(rs_val_get_str(g, "of"), "base");
	g = entry(&f, "counters.sent_pkts");
	CHECK(passed(g));
	CHECK(rs_val_get_double(g, "value") == 7);
	CHECK(rs_val_get_double(rs_val_get(g, "where"), "rxe_a/1") == 4);
	CHECK(rs_val_get_double(rs_val_get(g, "where"), "rxe_a") == 3);
	CHECK_UINT(rs_val_get_u64(g, "line"), 23);
	CHECK(passed(entry(&f, "counters.rxe_a/1.rcvd_pkts")));
	g = entry(&f, "counters.retry_exceeded_err");
	CHECK(passed(g));
	CHECK_STR(rs_val_get_str(g, "pattern"), "counters.*_err");
	CHECK(passed(entry(&f, "counters.send_err")));
	g = entry(&f, "counters.port_xmit_data");
	CHECK(passed(g));
	CHECK(rs_val_get_double(g, "other") == 100);
	fix_close(&f);
}

/* Out of bounds: the counter, its places and values, the bound, at the
 * bound's FILE:LINE:COL; every miss is an error, the first says why. */
TEST(gate_counters, missed)
{
	char text[256];
	struct fix f;

	fix_open(&f, yaml, 1);
	counters(&f, "{\"rxe_a/1\": {\"sent_pkts\": 8, \"rcvd_pkts\": 1999, "
		 "\"port_xmit_data\": 100, \"port_rcv_data\": 90, "
		 "\"retry_exceeded_err\": 2}, \"rxe_a\": {\"sent_pkts\": 3, "
		 "\"send_err\": 0}}");
	latency(&f, 5);
	base_step(&f, 2);
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_FAILED);
	CHECK_UINT(f.run.diag.errors, 5);
	CHECK(!strncmp(f.sr.why, "gate: latency.typical is 5 usec, 2.5 of step "
		       "'base''s 2 usec, above max_ratio 2 (", 78));
	CHECK(strstr(f.sr.why, ":27:38)"));
	CHECK(!passed(entry(&f, "counters.sent_pkts")));
	CHECK(!passed(entry(&f, "counters.rxe_a/1.rcvd_pkts")));
	CHECK(!passed(entry(&f, "counters.retry_exceeded_err")));
	CHECK(passed(entry(&f, "counters.send_err")));
	CHECK(!passed(entry(&f, "counters.port_xmit_data")));
	rs_gate_result_text(entry(&f, "counters.sent_pkts"), text,
			    sizeof(text));
	CHECK_STR(text, "counters.sent_pkts <= 10: 11 missed");
	rs_gate_result_text(entry(&f, "counters.port_xmit_data"), text,
			    sizeof(text));
	CHECK_STR(text, "counters.port_xmit_data == port_rcv_data: 100 vs 90 "
		  "missed");
	rs_gate_result_text(entry(&f, "latency.typical"), text, sizeof(text));
	CHECK_STR(text, "latency.typical <= 2 x base: 5 usec = 2.5 x 2 usec "
		  "missed");
	fix_close(&f);

	/* Only a counter out: its message names place, value and bound. */
	fix_open(&f, yaml, 1);
	counters(&f, "{\"rxe_a/1\": {\"sent_pkts\": 8, \"rcvd_pkts\": 2000, "
		 "\"port_xmit_data\": 7, \"port_rcv_data\": 7}, \"rxe_a\": "
		 "{\"sent_pkts\": 3}}");
	latency(&f, 2);
	base_step(&f, 2);
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_FAILED);
	CHECK(!strncmp(f.sr.why, "gate: counters.sent_pkts is 11 (rxe_a/1 8, "
		       "rxe_a 3), above max 10 (", 66));
	CHECK(strstr(f.sr.why, ":23:35)"));
	/* *_err matched nothing: not measured, which fails as well. */
	CHECK_UINT(f.run.diag.errors, 2);
	CHECK(!passed(entry(&f, "counters.*_err")));
	fix_close(&f);
}

static const char skip_yaml[] =
	OBJECTS
	"steps:\n"
	"  - pingpong:\n"
	"      id: lat\n"
	"      qp: a\n"
	"      peer: b\n"
	"      local: ma\n"
	"      peer_local: mb\n"
	"      gate:\n"
	"        counters.rdma_sends: {max: 0, missing: skip}\n"
	"        counters.rxe_a.send_err: {max: 0}\n";

/* A counter no place has is not measured: a failure that names where it
 * looked, or with missing: skip, a skipped step. */
TEST(gate_counters, not_measured)
{
	char text[256];
	struct fix f;

	fix_open(&f, skip_yaml, 0);
	counters(&f, "{\"rxe_a/1\": {\"sent_pkts\": 8}, \"rxe_a\": "
		 "{\"send_err\": 0}}");
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_SKIPPED);
	CHECK_UINT(f.run.diag.errors, 0);
	CHECK(!strncmp(f.sr.why, "gate: counters.rdma_sends: not measured: "
		       "rxe_a/1 and rxe_a have no such counter (missing: "
		       "skip, ", 95));
	rs_gate_result_text(entry(&f, "counters.rdma_sends"), text,
			    sizeof(text));
	CHECK_STR(text, "counters.rdma_sends <= 0: not measured, skipped");
	CHECK(passed(entry(&f, "counters.rxe_a.send_err")));
	fix_close(&f);

	/* The scoped one absent: it fails, and a failure beats a skip. */
	fix_open(&f, skip_yaml, 0);
	counters(&f, "{\"rxe_a/1\": {\"sent_pkts\": 8}}");
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_FAILED);
	CHECK(!strncmp(f.sr.why, "gate: counters.rxe_a.send_err: not "
		       "measured: rxe_a has no counters recorded (", 77));
	CHECK(strstr(f.sr.why, ":20:9)"));
	fix_close(&f);

	/* No counters read at all (a step inside another, a run without
	 * them): said so. */
	fix_open(&f, yaml, 1);
	latency(&f, 2);
	base_step(&f, 2);
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_FAILED);
#define WANT "gate: counters.sent_pkts: not measured: no counters were " \
	     "read (none are with --counters=off)"
	CHECK_STR(f.run.diag.first + strlen(f.run.diag.first) - strlen(WANT),
		  WANT);
#undef WANT
	fix_close(&f);
}

/* The run's gates: against the record root's counters, into its gates;
 * a miss fails the run, named. */
TEST(gate_counters, run_gates)
{
	const struct rs_val *gates;
	struct fix f;

	fix_open(&f, yaml, 1);
	CHECK(f.s->gates);
	rs_val_put(f.rec.root, "counters", rs_val_parse(
		"{\"mlx5_0/1\": {\"port_xmit_discards\": 0, "
		"\"port_rcv_discards\": 3, \"retry_exceeded_err\": 0}}"));
	CHECK_INT(rs_run_check_gates(&f.run), RS_EXIT_FAILED);
	CHECK_UINT(f.run.diag.errors, 1);
	CHECK(strstr(f.run.diag.first, ":12:29: gates: counters."
		     "port_rcv_discards is 3 (mlx5_0/1 3), above max 0"));
	gates = rs_val_get(f.rec.root, "gates");
	CHECK_UINT(rs_val_len(gates), 3);
	CHECK_STR(rs_val_get_str(rs_val_at(gates, 1), "figure"),
		  "counters.port_rcv_discards");
	fix_close(&f);

	fix_open(&f, yaml, 1);
	rs_val_put(f.rec.root, "counters", rs_val_parse(
		"{\"mlx5_0/1\": {\"port_xmit_discards\": 0, "
		"\"retry_exceeded_err\": 0}}"));
	CHECK_INT(rs_run_check_gates(&f.run), 0);
	CHECK_UINT(f.run.diag.errors, 0);
	fix_close(&f);
}

static const char param_yaml[] =
	"params: {iters: 2000}\n"
	OBJECTS
	"steps:\n"
	"  - pingpong:\n"
	"      id: lat\n"
	"      qp: a\n"
	"      peer: b\n"
	"      local: ma\n"
	"      peer_local: mb\n"
	"      iterations: ${iters}\n"
	"      gate: {counters.rdma_sends: {equals: \"${iters}\"}}\n";

/* A param in a bound is the param's value: params are applied to the
 * text before the gate is read. */
TEST(gate_counters, equals_param)
{
	struct fix f;

	fix_open(&f, param_yaml, 0);
	counters(&f, "{\"rxe_a\": {\"rdma_sends\": 2000}}");
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_PASSED);
	CHECK(rs_val_get_double(rs_val_at(f.sr.gates, 0), "equals") == 2000);
	fix_close(&f);

	fix_open(&f, param_yaml, 0);
	counters(&f, "{\"rxe_a\": {\"rdma_sends\": 1999}}");
	rs_step_check_gates(&f.sr);
	CHECK_INT(f.sr.result, RS_STEP_FAILED);
	CHECK(!strncmp(f.sr.why, "gate: counters.rdma_sends is 1999 (rxe_a "
		       "1999), not 2000 (", 57));
	fix_close(&f);
}

/* The run's gates are shown: a line each above the verdict in the text
 * report, and a testcase of their own in JUnit, failed by a miss. */
TEST(gate_counters, run_gates_shown)
{
	struct rs_cell_result cell;
	struct rs_reporter *r;
	struct rs_val *rec;
	char *text = NULL;
	size_t len = 0;
	struct fix f;
	FILE *mem;

	fix_open(&f, yaml, 1);
	rec = rs_val_parse(
		"{\"scenario\": {\"file\": \"gatec.yaml\"}, \"verdict\": "
		"\"failed\", \"dry_run\": false, \"durations_ms\": {\"setup\": "
		"0, \"steps\": 1, \"teardown\": 0, \"total\": 1}, \"objects\": "
		"[], \"plan_steps\": [], \"steps\": [], \"counters\": "
		"{\"mlx5_0/1\": {\"port_rcv_discards\": 3, "
		"\"retry_exceeded_err\": 0}}}");
	CHECK(rec);
	rs_val_put(f.rec.root, "counters",
		   rs_val_copy(rs_val_get(rec, "counters")));
	CHECK_INT(rs_run_check_gates(&f.run), RS_EXIT_FAILED);
	rs_val_put(rec, "gates", rs_val_copy(rs_val_get(f.rec.root, "gates")));

	mem = open_memstream(&text, &len);
	CHECK(mem);
	r = rs_report_text(mem, mem, NULL);
	CHECK(r);
	CHECK_INT(r->ops->end(r, rec), 0);
	r->ops->free(r);
	fclose(mem);
	CHECK(strstr(text, "run gate counters.port_rcv_discards <= 0: 3 "
		     "missed\nrun gate counters.retry_exceeded_err <= 0: 0 "
		     "held\n"));
	free(text);

	text = NULL;
	mem = open_memstream(&text, &len);
	CHECK(mem);
	cell = (struct rs_cell_result){ .record = rec, .human = "" };
	CHECK_INT(rs_junit_write(mem, &cell, 1), 0);
	fclose(mem);
	CHECK(strstr(text, "name=\"run gates\""));
	CHECK(strstr(text, "<failure message=\"counters.port_rcv_discards "
		     "&lt;= 0: 3 missed\""));
	CHECK(strstr(text, "gate counters.retry_exceeded_err &lt;= 0: 0 "
		     "held\n"));
	free(text);
	rs_val_free(rec);
	fix_close(&f);
}

/* requires.counters looks a name up where the counters are read: the
 * port's counters/ and hw_counters/, the device's hw_counters/. */
TEST(gate_counters, requires_lookup)
{
	char root[] = "/tmp/rdmascn-ctr-XXXXXX", cmd[1024];

	CHECK(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/rxe_a/ports/1/hw_counters "
		 "%s/rxe_a/hw_counters %s/mlx5_0/ports/1/counters && touch "
		 "%s/rxe_a/ports/1/hw_counters/rdma_sends "
		 "%s/rxe_a/hw_counters/dev_only "
		 "%s/mlx5_0/ports/1/counters/port_xmit_data", root, root,
		 root, root, root, root);
	CHECK_INT(system(cmd), 0);
	CHECK(rs_dev_has_counter(root, "rxe_a", 1, "rdma_sends"));
	CHECK(rs_dev_has_counter(root, "rxe_a", 1, "dev_only"));
	CHECK(!rs_dev_has_counter(root, "rxe_a", 2, "rdma_sends"));
	CHECK(!rs_dev_has_counter(root, "rxe_a", 1, "port_xmit_data"));
	CHECK(rs_dev_has_counter(root, "mlx5_0", 1, "port_xmit_data"));
	CHECK(!rs_dev_has_counter(root, "rxe_a", 1, "../hw_counters"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK_INT(system(cmd), 0);
}
