// SPDX-License-Identifier: MIT
/*
 * The text reporter's writes: an object's, a step's, a destroyed
 * object's lines wait in the stream's buffer until a phase begins, the
 * engine is about to wait (rs_record_before_wait()) or the record ends;
 * what says something happened (a warning) leaves at once, after the
 * lines before it.  Both streams here write into one log through a
 * cookie, which counts the write()s each makes.
 */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "list.h"
#include "record.h"
#include "report.h"
#include "value.h"

struct log {
	char text[4096];
	size_t len;
	unsigned writes;  /* the stream's write()s: one per flush */
};

static ssize_t log_write(void *cookie, const char *buf, size_t len)
{
	struct log *l = cookie;
	size_t n = len < sizeof(l->text) - 1 - l->len ?
		   len : sizeof(l->text) - 1 - l->len;

	memcpy(l->text + l->len, buf, n);
	l->len += n;
	l->text[l->len] = '\0';
	l->writes++;
	return (ssize_t)len;
}

static FILE *log_open(struct log *l)
{
	static const cookie_io_functions_t io = { .write = log_write };
	FILE *f = fopencookie(l, "w", io);

	/* As glibc buffers stdout to a file or a pipe. */
	if (f)
		setvbuf(f, NULL, _IOFBF, BUFSIZ);
	return f;
}

static struct rs_val *object(const char *kind, unsigned no, const char *name)
{
	struct rs_val *e = rs_val_obj();

	rs_val_put_str(e, "kind", kind);
	rs_val_put_u64(e, "no", no);
	rs_val_put_str(e, "name", name);
	rs_val_put_str(e, "outcome", "created");
	return e;
}

static struct rs_val *phase(const char *name)
{
	struct rs_val *e = rs_val_obj();

	rs_val_put_str(e, "phase", name);
	return e;
}

static void begin(struct rs_record *rec, bool dry_run, struct log *out,
		  struct log *err, FILE **ret_out, FILE **ret_err)
{
	struct rs_val *scn;

	CHECK_INT(rs_record_init(rec, dry_run, false), 0);
	/* As the run's head says it (run_scenario.c). */
	rs_val_put_bool(rec->root, "dry_run", dry_run);
	scn = rs_val_put_obj(rec->root, "scenario");
	rs_val_put_str(scn, "name", "held");
	rs_val_put_str(scn, "file", "held.yaml");
	*ret_out = log_open(out);
	*ret_err = log_open(err);
	CHECK(*ret_out && *ret_err);
	CHECK_INT(rs_record_add_reporter(rec, rs_report_text(*ret_out,
							      *ret_err, NULL)),
		  0);
	rs_record_begin(rec);
	rs_record_add(rec, RS_REC_PHASE, NULL, phase("create"));
}

/* The record let go, both streams closed (begin()'s). */
static void finish(struct rs_record *rec, FILE *fo, FILE *fe)
{
	rs_record_free(rec);
	CHECK_INT(fclose(fo), 0);
	CHECK_INT(fclose(fe), 0);
}

TEST(text, held_until_wait)
{
	struct log out = { 0 }, err = { 0 };
	struct rs_record rec;
	FILE *fo, *fe;
	unsigned w;

	begin(&rec, false, &out, &err, &fo, &fe);
	/* The head left with the phase. */
	CHECK_INT(out.writes, 1);
	CHECK(strstr(out.text, "run held (held.yaml)\n"));
	for (unsigned i = 0; i < 3; i++)
		rs_record_add(&rec, RS_REC_OBJECT, rec.objects,
			      object("cq", i, i ? "cq1" : "cq0"));
	/* Three lines, not one of them written yet. */
	CHECK_INT(out.writes, 1);
	CHECK(!strstr(out.text, "cq0"));
	rs_record_before_wait(&rec);
	CHECK_INT(out.writes, 2);
	CHECK(strstr(out.text, "created    0 cq0"));
	CHECK(strstr(out.text, "created    2 cq1"));
	/* Nothing held: a second wait writes nothing. */
	rs_record_before_wait(&rec);
	CHECK_INT(out.writes, 2);

	/* The next phase takes the last one's lines out with it. */
	rs_record_add(&rec, RS_REC_OBJECT, rec.objects, object("mr", 3, "mr0"));
	w = out.writes;
	rs_record_add(&rec, RS_REC_PHASE, NULL, phase("teardown"));
	CHECK_INT(out.writes, w + 1);
	CHECK(strstr(out.text, "created    3 mr0"));
	rs_record_add(&rec, RS_REC_DESTROYED, rec.teardown,
		      object("mr", 3, "mr0"));
	CHECK(!strstr(out.text, "destroyed"));
	rs_val_put_str(rec.root, "verdict", "passed");
	CHECK_INT(rs_record_end(&rec), 0);
	CHECK(strstr(out.text, "destroyed 3 mr0\n"));
	CHECK(strstr(out.text, "passed: 4 objects, 0 steps\n"));
	CHECK_INT(err.writes, 0);
	finish(&rec, fo, fe);
}

/* A warning is on stderr at once, and what stdout held before it is
 * out before it. */
TEST(text, warning_at_once)
{
	struct log out = { 0 }, err = { 0 };
	struct rs_record rec;
	struct rs_val *warn;
	FILE *fo, *fe;

	begin(&rec, false, &out, &err, &fo, &fe);
	rs_record_add(&rec, RS_REC_OBJECT, rec.objects, object("cq", 0, "cq0"));
	CHECK(!strstr(out.text, "cq0"));
	warn = rs_val_obj();
	rs_val_put_str(warn, "message", "it went on");
	rs_record_add(&rec, RS_REC_WARNING, rec.warnings, warn);
	CHECK(strstr(out.text, "created    0 cq0"));
	CHECK_INT(fflush(fe), 0);
	CHECK_STR(err.text, "warning: it went on\n");
	finish(&rec, fo, fe);
}

/* A dry run's calls are its bulk: held too, out at the end. */
TEST(text, dry_run_calls_held)
{
	struct log out = { 0 }, err = { 0 };
	struct rs_record rec;
	FILE *fo, *fe;
	unsigned w;

	begin(&rec, true, &out, &err, &fo, &fe);
	w = out.writes;
	for (unsigned i = 1; i <= 3; i++) {
		struct rs_val *c = rs_val_obj();

		rs_val_put_u64(c, "no", i);
		rs_val_put_str(c, "name", "ibv_create_cq");
		rs_val_put_str(c, "args", "cqe=16");
		rs_record_add(&rec, RS_REC_CALL, rec.calls, c);
	}
	CHECK_INT(out.writes, w);
	CHECK(!strstr(out.text, "ibv_create_cq"));
	rs_val_put_str(rec.root, "verdict", "passed");
	CHECK_INT(rs_record_end(&rec), 0);
	CHECK_INT(out.writes, w + 1);
	CHECK(strstr(out.text, "  [3] ibv_create_cq(cqe=16)\n"));
	CHECK(strstr(out.text, "dry run done: 0 objects, 0 steps\n"));
	CHECK_INT(err.writes, 0);
	finish(&rec, fo, fe);
}

/*
 * An object taken down is said so when memory runs out: its entry in
 * the record could not be kept (the run ends "out of memory"), but the
 * object is gone, and its line was lost with the entry.  Each call here
 * fails the first allocation it makes; the record's arena fills, so
 * that some of them do make one.
 */
TEST(text, destroyed_without_memory)
{
	struct log out = { 0 }, err = { 0 };
	struct rs_record rec;
	unsigned failed = 0;
	char id[16], name[32], line[64];
	FILE *fo, *fe;

	begin(&rec, false, &out, &err, &fo, &fe);
	rs_record_add(&rec, RS_REC_PHASE, NULL, phase("teardown"));
	for (unsigned i = 60; i > 0; i--) {
		snprintf(id, sizeof(id), "m%u", i);
		snprintf(name, sizeof(name), "mr '%s'", id);
		rs_alloc_fail_at(1);
		/* No object entry: its strings go into the record. */
		rs_record_destroyed(&rec, i, NULL, id, name);
		if (rs_alloc_count() >= 1)
			failed++;
		rs_alloc_fail_at(0);
	}
	CHECK(failed > 0);
	CHECK(rs_val_check(rec.root) < 0);
	rs_val_put_str(rec.root, "verdict", "passed");
	rs_record_end(&rec);
	for (unsigned i = 60; i > 0; i--) {
		snprintf(line, sizeof(line), "destroyed %u mr 'm%u'\n", i, i);
		CHECK(strstr(out.text, line));
	}
	CHECK_INT(err.writes, 0);
	finish(&rec, fo, fe);
}

/* Telling an object made, or a call, takes no memory at all: the line
 * is said whether or not any is left (the object exists, the call was
 * made). */
TEST(text, created_without_memory)
{
	struct log out = { 0 }, err = { 0 };
	struct rs_record rec;
	char id[16], name[32], line[64];
	FILE *fo, *fe;

	begin(&rec, false, &out, &err, &fo, &fe);
	for (unsigned i = 1; i <= 20; i++) {
		struct rs_val *e;

		snprintf(id, sizeof(id), "m%u", i);
		snprintf(name, sizeof(name), "mr '%s'", id);
		e = rs_record_object(&rec, id, "mr", name, NULL, "created");
		CHECK(e);
		rs_rec_obj_no(e, i);
		rs_val_put_u64(rs_rec_obj_facts(e), "lkey", 100 + i);
		rs_alloc_fail_at(1);
		rs_record_tell_obj(&rec, e);
		CHECK_INT(rs_alloc_count(), 0);
		rs_alloc_fail_at(0);
	}
	CHECK_INT(rs_val_check(rec.root), 0);
	rs_val_put_str(rec.root, "verdict", "passed");
	CHECK_INT(rs_record_end(&rec), 0);
	for (unsigned i = 1; i <= 20; i++) {
		snprintf(line, sizeof(line), "created %4u mr 'm%u'", i, i);
		CHECK(strstr(out.text, line));
		snprintf(line, sizeof(line), "lkey %u\n", 100 + i);
		CHECK(strstr(out.text, line));
	}
	finish(&rec, fo, fe);
}
