// SPDX-License-Identifier: MIT
/* The value tree and its JSON form: what every reporter prints from. */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "escape.h"
#include "list.h"
#include "record.h"
#include "value.h"

static char *to_json(const struct rs_val *v, bool pretty, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f);
	*ret = rs_val_write_json(f, v, pretty);
	fclose(f);
	return buf;
}

TEST(value, shapes)
{
	struct rs_val *root = rs_val_obj(), *arr, *o;
	char *s;
	int r;

	rs_val_put_str(root, "name", "rxe0 \"quoted\"\\\n\t\x01");
	rs_val_put_u64(root, "max", UINT64_MAX);
	rs_val_put_i64(root, "neg", -5);
	rs_val_put_bool(root, "ok", true);
	arr = rs_val_put_arr(root, "list");
	rs_val_push_str(arr, "a");
	o = rs_val_push_obj(arr);
	rs_val_put_strf(o, "gid", "::ffff:%d.%d.0.%d", 10, 99, 1);
	rs_val_put_obj(root, "empty");

	s = to_json(root, false, &r);
	CHECK_INT(r, 0);
	CHECK_STR(s, "{\"name\":\"rxe0 \\\"quoted\\\"\\\\\\n\\t\\u0001\","
		  "\"max\":18446744073709551615,\"neg\":-5,\"ok\":true,"
		  "\"list\":[\"a\",{\"gid\":\"::ffff:10.99.0.1\"}],"
		  "\"empty\":{}}\n");
	free(s);

	CHECK_STR(rs_val_get_str(o, "gid"), "::ffff:10.99.0.1");
	CHECK_UINT(rs_val_get_u64(root, "max"), UINT64_MAX);
	CHECK_PTR(rs_val_get(root, "nope"), NULL);

	s = to_json(arr, true, &r);
	CHECK_INT(r, 0);
	CHECK_STR(s, "[\n  \"a\",\n  {\n    \"gid\": \"::ffff:10.99.0.1\"\n  }\n]\n");
	free(s);
	rs_val_free(root);
}

/* A failed allocation anywhere is reported once, at the end, and the
 * partial tree still frees cleanly (ASan checks the latter). */
TEST(value, oom_is_sticky)
{
	struct rs_val *root = rs_val_obj();
	char *s;
	int r;

	CHECK_INT(rs_val_check(root), 0);
	rs_val_put(root, "x", NULL); /* what a failed child allocation does */
	CHECK_INT(rs_val_check(root), -ENOMEM);
	s = to_json(root, false, &r);
	CHECK_INT(r, -ENOMEM);
	free(s);
	rs_val_free(root);
	rs_val_free(NULL);
	/* Builders tolerate a NULL parent (the parent's allocation failed). */
	rs_val_put_str(NULL, "k", "v");
	CHECK_PTR(rs_val_put_obj(NULL, "k"), NULL);
}

/* What a terminal would act on is spelled out; the rest is as it was. */
TEST(value, escape)
{
	const char *clean = "qp 'a[3]' \u00e9\ttab";
	char small[8];

	CHECK_PTR(rs_esc(clean), clean);
	CHECK_PTR(rs_esc(NULL), NULL);
	CHECK_STR(rs_esc("t\x1b]0;title\a"), "t\\e]0;title\\x07");
	CHECK_STR(rs_esc("\x1b[2J\r\n\x7f"), "\\e[2J\\r\\n\\x7f");
	/* C1 CSI as UTF-8, and OSC 52 (the clipboard). */
	CHECK_STR(rs_esc("\xc2\x9b""31m"), "\\u009b31m");
	CHECK_STR(rs_esc("\x1b]52;c;aGk=\x07"), "\\e]52;c;aGk=\\x07");
	/* Cut short at an escape's edge, never in its middle. */
	CHECK_STR(rs_escape(small, sizeof(small), "ab\x1b\x1b\x1b"),
		  "ab\\e\\e");
	CHECK_INT(rs_escape_needed("plain"), 0);
	CHECK_INT(rs_escape_needed("a\nb"), 1);
}

/* A reporter that counts what it is told. */
struct counting {
	struct rs_reporter r;
	unsigned begun, entries, ended, *freed;
};

static void count_begin(struct rs_reporter *r, const struct rs_val *rec)
{
	(void)rec;
	((struct counting *)r)->begun++;
}

static void count_entry(struct rs_reporter *r, enum rs_rec_entry type,
			const struct rs_val *e)
{
	(void)type;
	(void)e;
	((struct counting *)r)->entries++;
}

static int count_end(struct rs_reporter *r, const struct rs_val *rec)
{
	(void)rec;
	((struct counting *)r)->ended++;
	return 0;
}

static void count_free(struct rs_reporter *r)
{
	(*((struct counting *)r)->freed)++;
}

static const struct rs_reporter_ops count_ops = {
	.begin = count_begin, .entry = count_entry, .end = count_end,
	.free = count_free,
};

/* A record takes any number of reporters (a fifth was "out of memory"
 * once), tells each, and frees each. */
TEST(value, many_reporters)
{
	struct counting c[9];
	struct rs_record rec;
	unsigned freed = 0;

	CHECK_INT(rs_record_init(&rec, true, false), 0);
	for (unsigned i = 0; i < 9; i++) {
		c[i] = (struct counting){ .r.ops = &count_ops, .freed = &freed };
		CHECK_INT(rs_record_add_reporter(&rec, &c[i].r), 0);
	}
	rs_record_begin(&rec);
	rs_record_add(&rec, RS_REC_OBJECT, rec.objects, rs_val_obj());
	CHECK_INT(rs_record_end(&rec), 0);
	for (unsigned i = 0; i < 9; i++) {
		CHECK_INT(c[i].begun, 1);
		CHECK_INT(c[i].entries, 1);
		CHECK_INT(c[i].ended, 1);
	}
	rs_record_free(&rec);
	CHECK_INT(freed, 9);
}
