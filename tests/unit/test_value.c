// SPDX-License-Identifier: MIT
/* The value tree and its JSON form: what every reporter prints from. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "alloc.h"
#include "check.h"
#include "escape.h"
#include "list.h"
#include "macros.h"
#include "outfile.h"
#include "record.h"
#include "run.h"
#include "value.h"
#include "value_fmt.h"

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

/* rs_val_check() walks no tree while no node was ever marked (a
 * process of its own: this is the first mark), and finds a mark deep
 * down once one was: in an array's object, in a real run's facts. */
TEST(value, check_deep_oom)
{
	struct rs_loc la = { .file = "f.yaml", .line = 3, .col = 5 };
	struct rs_val *root = rs_val_obj(), *arr, *deep, *e, *f;
	struct rs_record rec;

	arr = rs_val_put_arr(root, "list");
	for (unsigned i = 0; i < 100; i++)
		rs_val_put_u64(rs_val_push_obj(arr), "i", i);
	deep = rs_val_put_obj(rs_val_push_obj(arr), "deep");
	CHECK_INT(rs_val_check(root), 0);
	CHECK_INT(rs_val_check(deep), 0);
	rs_val_put(deep, "x", NULL);
	CHECK_INT(rs_val_check(deep), -ENOMEM);
	CHECK_INT(rs_val_check(arr), -ENOMEM);
	CHECK_INT(rs_val_check(root), -ENOMEM);
	CHECK_INT(rs_val_check(rs_val_at(arr, 0)), 0);
	rs_val_free(root);
	CHECK_INT(rs_val_check(NULL), -ENOMEM);

	CHECK_INT(rs_record_init(&rec, false, false), 0);
	e = rs_record_object(&rec, "a", "qp", "qp 'a'", &la, "pending");
	f = rs_rec_obj_facts(e);
	rs_val_put_u64(f, "cqe", 16);
	CHECK_INT(rs_val_check(rec.root), 0);
	rs_val_put(rs_val_put_obj(f, "settings"), "x", NULL);
	CHECK_INT(rs_val_check(rec.root), -ENOMEM);
	rs_record_free(&rec);
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

/*
 * The tree's JSON against json-c's, byte for byte: the record's files
 * were json-c's (NOSLASHESCAPE, PRETTY|SPACED or PLAIN) and stay as they
 * were.  The same random trees are built twice, once in each, and
 * written in both forms.
 */
static unsigned long lcg = 12345;

static unsigned rnd(unsigned n)
{
	lcg = lcg * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(lcg >> 33) % n;
}

/* A string with any byte but NUL: escapes, UTF-8, DEL, slashes. */
static void rnd_str(char *buf, size_t len)
{
	size_t n = rnd((unsigned)len - 1);

	for (size_t i = 0; i < n; i++)
		buf[i] = (char)(1 + rnd(255));
	buf[n] = '\0';
}

/* As rs_val_double() wrote a double into json-c before the tree was
 * ours (json_object_new_double_s): the fewest digits, from 15 up. */
static struct json_object *jc_double(double d)
{
	char buf[32];

	for (int prec = isnormal(d) || d == 0 ? 15 : 6; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	return json_object_new_double_s(d, buf);
}

static double rnd_double(void)
{
	static const double some[] = { 0, -0.0, 0.1, 704.9, 1e300, 5e-324,
				       2.2250738585072014e-308, 1.0 / 3,
				       123456789.125, -42 };

	if (rnd(2))
		return some[rnd(RS_N(some))];
	return (double)rnd(1000000) / (1 + rnd(997)) - 300;
}

/* A value of depth up to @depth, in @v (ours) and *@j (json-c's). */
static struct rs_val *rnd_val(unsigned depth, struct json_object **j)
{
	char s[24];
	unsigned kind = rnd(depth ? 9 : 6);
	struct rs_val *v;

	switch (kind) {
	case 0: {
		uint64_t u = rnd(3) ? rnd(100000) : UINT64_MAX - rnd(10);

		*j = json_object_new_uint64(u);
		return rs_val_u64(u);
	}
	case 1: {
		int64_t i = rnd(2) ? INT64_MIN + (int64_t)rnd(100000) :
			    -(int64_t)rnd(100000);

		*j = json_object_new_int64(i);
		return rs_val_i64(i);
	}
	case 2: {
		bool b = rnd(2);

		*j = json_object_new_boolean(b);
		return rs_val_bool(b);
	}
	case 3: {
		double d = rnd_double();

		*j = jc_double(d);
		return rs_val_double(d);
	}
	case 4:
	case 5:
		rnd_str(s, sizeof(s));
		*j = json_object_new_string(s);
		return rs_val_str(s);
	case 6:
	case 7: {
		unsigned n = rnd(5);

		*j = json_object_new_object();
		v = rs_val_obj();
		for (unsigned i = 0; i < n; i++) {
			struct json_object *cj;
			struct rs_val *c = rnd_val(depth - 1, &cj);

			/* A key again now and then: replaced in place. */
			if (rnd(4))
				rnd_str(s, 8);
			json_object_object_add(*j, s, cj);
			rs_val_put(v, s, c);
		}
		return v;
	}
	default: {
		unsigned n = rnd(5);

		*j = json_object_new_array();
		v = rs_val_arr();
		for (unsigned i = 0; i < n; i++) {
			struct json_object *cj;

			rs_val_push(v, rnd_val(depth - 1, &cj));
			json_object_array_add(*j, cj);
		}
		return v;
	}
	}
}

/* json-c's plain and pretty flags, as the writer's two forms. */
static const int jc_flags[2] = {
	JSON_C_TO_STRING_NOSLASHESCAPE | JSON_C_TO_STRING_PLAIN,
	JSON_C_TO_STRING_NOSLASHESCAPE | JSON_C_TO_STRING_PRETTY |
	JSON_C_TO_STRING_SPACED,
};

/* @v written both ways, to a file and to a string, is what json-c makes
 * of @j; whether its pretty form has an empty object and array. */
static bool as_json_c(const struct rs_val *v, struct json_object *j)
{
	bool empties = false;

	for (int p = 0; p < 2; p++) {
		const char *want = json_object_to_json_string_ext(j,
								  jc_flags[p]);
		char *got, *mem;
		int r;

		got = to_json(v, p, &r);
		CHECK_INT(r, 0);
		/* (rs_val_write_json() ends the line.) */
		got[strlen(got) - 1] = '\0';
		CHECK_STR(got, want);
		mem = rs_val_json_string(v, p);
		CHECK_STR(mem, want);
		empties |= strstr(want, "{\n") && strstr(want, "[\n");
		free(got);
		free(mem);
	}
	return empties;
}

TEST(value, json_as_json_c)
{
	unsigned empties = 0;

	for (unsigned t = 0; t < 2000; t++) {
		struct json_object *j;
		struct rs_val *v = rnd_val(1 + t % 5, &j);

		CHECK_INT(rs_val_check(v), 0);
		empties += as_json_c(v, j);
		rs_val_free(v);
		json_object_put(j);
	}
	/* The trees did have empty containers and nesting. */
	CHECK(empties > 10);
}

/* Nesting past the separators' run of spaces (16 and 64 levels) and
 * keys and values of every short length, clean and not: written as
 * json-c writes them, into a file, a growing string and each cut of a
 * caller's buffer (the writer's pieces take room once each). */
TEST(value, json_deep_as_json_c)
{
	struct json_object *j = json_object_new_object(), *jc = j;
	struct rs_val *v = rs_val_obj(), *c = v;
	char key[24], val[24], buf[512];
	unsigned deep = 0;

	for (unsigned lvl = 0; lvl < 80; lvl++) {
		for (unsigned k = 0; k < 3; k++) {
			size_t kl = (lvl + k) % 20, vl = (lvl * 3 + k) % 20;

			memset(key, 'a' + k, kl);
			key[kl] = '\0';
			if (lvl % 7 == 3 && kl)
				key[kl / 2] = '"';
			memset(val, 'v', vl);
			val[vl] = '\0';
			if (lvl % 5 == 2 && vl)
				val[0] = '\n';
			json_object_object_add(jc, key,
					       json_object_new_string(val));
			rs_val_put_str(c, key, val);
		}
		json_object_object_add(jc, "u",
				       json_object_new_uint64(lvl * 99991));
		rs_val_put_u64(c, "u", lvl * 99991);
		if (lvl % 2) {
			struct json_object *a = json_object_new_array();

			json_object_object_add(jc, "n", a);
			json_object_array_add(a, json_object_new_object());
			jc = json_object_array_get_idx(a, 0);
			c = rs_val_push_obj(rs_val_put_arr(c, "n"));
		} else {
			struct json_object *o = json_object_new_object();

			json_object_object_add(jc, "n", o);
			jc = o;
			c = rs_val_put_obj(c, "n");
		}
		deep++;
	}
	CHECK_INT(rs_val_check(v), 0);
	as_json_c(v, j);
	/* Plain, cut at every length up to the buffer's. */
	for (size_t len = 1; len <= sizeof(buf); len++) {
		const char *want = json_object_to_json_string_ext(j,
								  jc_flags[0]);

		CHECK(rs_val_text_of(v, buf, len) == buf);
		CHECK_INT(strlen(buf), len - 1);
		CHECK(!strncmp(buf, want, len - 1));
	}
	CHECK_INT(deep, 80);
	rs_val_free(v);
	json_object_put(j);
}

/* A member's key as long as its length byte holds and longer (read
 * from the key then), put as a value's and as a tree's added whole,
 * clean and with a quote: as json-c writes it. */
TEST(value, json_key_lengths)
{
	static const size_t lens[] = { 0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31,
				       64, 253, 254, 255, 256, 300, 4000 };
	struct json_object *j = json_object_new_object();
	struct rs_val *v = rs_val_obj();
	char *key = malloc(4001);

	CHECK(key);
	for (size_t i = 0; i < RS_N(lens); i++) {
		for (unsigned k = 0; k < 4; k++) {
			size_t n = lens[i];

			memset(key, 'a' + k, n);
			key[n] = '\0';
			if (k & 1 && n)
				key[n - 1 - n / 3] = '"';
			if (k < 2) {
				rs_val_put_u64(v, key, n);
				json_object_object_add(j, key,
					json_object_new_uint64(n));
			} else {
				rs_val_put(v, key, rs_val_str(key));
				json_object_object_add(j, key,
					json_object_new_string(key));
			}
		}
	}
	CHECK_INT(rs_val_check(v), 0);
	as_json_c(v, j);
	free(key);
	rs_val_free(v);
	json_object_put(j);
}

/* A file read with json-c is written again as it was: doubles keep
 * their digits ("1.50" is not 1.5), integers their sign. */
TEST(value, json_read_back)
{
	static const char text[] =
		"{\"a\":1.50,\"b\":-3,\"c\":18446744073709551615,"
		"\"d\":[true,false,null,\"x\\/y\\u0001\"],\"e\":{},\"f\":[],"
		"\"g\":1e3}";
	struct rs_val *v = rs_val_parse(text), *c;
	char *s;
	int r;

	CHECK(v);
	s = to_json(v, false, &r);
	CHECK_INT(r, 0);
	CHECK_STR(s, "{\"a\":1.50,\"b\":-3,\"c\":18446744073709551615,"
		  "\"d\":[true,false,null,\"x/y\\u0001\"],\"e\":{},\"f\":[],"
		  "\"g\":1e3}\n");
	free(s);
	CHECK_INT(rs_val_type_of(rs_val_get(v, "b")), RS_VAL_INT);
	CHECK_INT(rs_val_get_i64(v, "b"), -3);
	CHECK_UINT(rs_val_get_u64(v, "c"), UINT64_MAX);
	CHECK(rs_val_get_double(v, "a") == 1.5);
	/* A copy is equal, and a tree of its own. */
	c = rs_val_copy(v);
	CHECK(rs_val_equal(v, c));
	rs_val_free(v);
	s = to_json(c, false, &r);
	CHECK(strstr(s, "\"a\":1.50,"));
	free(s);
	rs_val_free(c);
	CHECK_PTR(rs_val_parse("{not json"), NULL);
}

/* An object's members in order (a key added again keeps its place);
 * an array's items by index in O(1), however many; trees made on their
 * own and added whole, and shared with rs_val_ref(). */
TEST(value, tree)
{
	struct rs_val *root = rs_val_obj(), *arr, *e, *shared;
	const char *keys[3];
	unsigned n = 0;
	char buf[32];

	rs_val_put_u64(root, "a", 1);
	rs_val_put_str(root, "b", "two");
	rs_val_put_u64(root, "a", 3);
	rs_val_put_str(root, "description", "first");
	rs_val_move_first(root, "description");
	rs_val_foreach(root, m)
		keys[n++ < 3 ? n - 1 : 2] = rs_val_key(m);
	CHECK_INT(n, 3);
	CHECK_STR(keys[0], "description");
	CHECK_STR(keys[1], "a");
	CHECK_STR(keys[2], "b");
	CHECK_UINT(rs_val_get_u64(root, "a"), 3);
	CHECK_INT(rs_val_len(root), 3);
	CHECK_STR(rs_val_text_of(rs_val_get(root, "a"), buf, sizeof(buf)),
		  "3");
	CHECK_STR(rs_val_text_of(rs_val_get(root, "b"), buf, sizeof(buf)),
		  "two");

	arr = rs_val_put_arr(root, "many");
	for (unsigned i = 0; i < 100000; i++) {
		e = rs_val_obj();
		rs_val_put_u64(e, "no", i);
		/* Added, then grown: it allocates from its own arena. */
		CHECK_PTR(rs_val_push(arr, e), e);
		rs_val_put_str(e, "outcome", "created");
	}
	CHECK_INT(rs_val_len(arr), 100000);
	CHECK_UINT(rs_val_get_u64(rs_val_at(arr, 76543), "no"), 76543);
	CHECK_STR(rs_val_get_str(rs_val_at(arr, 99999), "outcome"),
		  "created");
	CHECK_PTR(rs_val_at(arr, 100000), NULL);
	CHECK_INT(rs_val_check(root), 0);

	/* Held twice: freed twice; added somewhere, a copy goes in. */
	shared = rs_val_ref(root);
	CHECK_PTR(shared, root);
	e = rs_val_arr();
	CHECK(rs_val_push(e, rs_val_ref(root)) != root);
	CHECK(rs_val_equal(rs_val_at(e, 0), root));
	rs_val_free(e);
	rs_val_free(shared);
	CHECK_UINT(rs_val_get_u64(root, "a"), 3);
	rs_val_free(root);
}

/* A call's "fields", kept as its "args" text: written and read as the
 * object of its pairs (numbers typed, a key again in its first place
 * with its last value, a pair without '=' skipped), copied with the
 * entry into the record, and made members when something reads them. */
TEST(value, pairs)
{
	static const char args[] = "qp=a[0] psn=0 timeout=-14 key=0x1a "
				   "odd psn=7 id=007 flags=a|b c";
	static const uint16_t at[] = { 0, 8, 14, 26, 35, 39, 45, 52 };
	static const char want[] = "{\"qp\":\"a[0]\",\"psn\":7,"
		"\"timeout\":-14,\"key\":\"0x1a\",\"id\":\"007\","
		"\"flags\":\"a|b c\"}\n";
	struct rs_record rec;
	struct rs_val *e = rs_val_obj(), *kept;
	const struct rs_val *f;
	char *s;
	int r;

	rs_val_put_str(e, "args", args);
	rs_val_put_pairs(e, "fields", rs_val_get(e, "args"), at, RS_N(at));
	rs_val_put_pairs(e, "none", rs_val_get(e, "args"), at, 0);
	s = to_json(rs_val_get(e, "fields"), false, &r);
	CHECK_INT(r, 0);
	CHECK_STR(s, want);
	free(s);
	s = to_json(rs_val_get(e, "none"), true, &r);
	CHECK_STR(s, "{\n}\n");
	free(s);

	/* Into the record: a typed call whose tree reads the same. */
	CHECK_INT(rs_record_init(&rec, true, false), 0);
	CHECK(rs_record_call(&rec, 0, "ibv_modify_qp", args, at, RS_N(at),
			     NULL, false));
	kept = (struct rs_val *)rs_val_at(rec.calls, 0);
	CHECK(kept);
	s = to_json(rs_val_get(kept, "fields"), false, &r);
	CHECK_STR(s, want);
	free(s);

	/* Read: members of their own from then on, written the same. */
	f = rs_val_get(kept, "fields");
	CHECK_INT(rs_val_type_of(f), RS_VAL_OBJ);
	CHECK_INT(rs_val_len(f), 6);
	CHECK_UINT(rs_val_get_u64(f, "psn"), 7);
	CHECK_INT(rs_val_get_i64(f, "timeout"), -14);
	CHECK_STR(rs_val_get_str(f, "flags"), "a|b c");
	CHECK_PTR(rs_val_get(f, "odd"), NULL);
	s = to_json(f, false, &r);
	CHECK_STR(s, want);
	free(s);
	rs_record_free(&rec);
	rs_val_free(e);
}

/* Steps of a parallel add to the record from threads of their own: an
 * entry each (copied in under the record's lock), and members of
 * containers of their own in it (a tree added whole allocates under
 * the record's arena lock from then on). */
struct adder {
	struct rs_record *rec;
	struct rs_val *mine;
};

static void *add_many(void *arg)
{
	struct adder *a = arg;

	for (unsigned i = 0; i < 20000; i++) {
		static const uint16_t at[] = { 0 };
		char obj[16];

		/* A name of its own a thread: the record's last object is
		 * shared. */
		snprintf(obj, sizeof(obj), "qp %p", (void *)a);
		rs_val_put_u64(a->mine, "last", i);
		rs_val_push_str(rs_val_get_mut(a->mine, "list"), "x");
		rs_record_call(a->rec, i + 1, i & 1 ? "ibv_modify_qp" :
			       "ibv_create_qp", "qp_state=RTS", at, 1, obj,
			       false);
	}
	return NULL;
}

TEST(value, threads)
{
	struct rs_val *tree = rs_val_obj();
	struct rs_record rec;
	struct adder a[4];
	pthread_t t[4];

	CHECK_INT(rs_record_init(&rec, true, false), 0);
	/* Four containers of one tree, one arena: added whole. */
	for (unsigned i = 0; i < 4; i++) {
		char key[8];

		snprintf(key, sizeof(key), "t%u", i);
		a[i] = (struct adder){ &rec, rs_val_put_obj(tree, key) };
		rs_val_put_arr(a[i].mine, "list");
		CHECK(a[i].mine);
	}
	CHECK_PTR(rs_val_put(rec.root, "threads", tree), tree);
	/* Shared only now, as a parallel step does before its threads
	 * start: the tree added before takes the record's lock too. */
	CHECK_INT(rs_record_threads(&rec), 0);
	CHECK_INT(rs_record_threads(&rec), 0);
	for (unsigned i = 0; i < 4; i++)
		CHECK_INT(pthread_create(&t[i], NULL, add_many, &a[i]), 0);
	for (unsigned i = 0; i < 4; i++)
		CHECK_INT(pthread_join(t[i], NULL), 0);
	CHECK_INT(rs_val_check(rec.root), 0);
	CHECK_INT(rs_val_len(rec.calls), 80000);
	for (unsigned i = 0; i < 4; i++) {
		const struct rs_val *l = rs_val_get(a[i].mine, "list");

		CHECK_UINT(rs_val_get_u64(a[i].mine, "last"), 19999);
		CHECK_INT(rs_val_len(l), 20000);
		for (unsigned j = 0; j < 20000; j++)
			CHECK_STR(rs_val_str_of(rs_val_at(l, j)), "x");
	}
	rs_record_free(&rec);
}

/* The record's calls are typed structs (record.h), made as trees only
 * to be told and written: the same JSON as the tree the engine built
 * for each before, outcome and all, and one copy of a name however
 * many calls give it. */
TEST(value, record_calls)
{
	static const uint16_t at[] = { 0, 6 };
	static const char want[] = "[{\"no\":1,\"name\":\"ibv_create_qp\","
		"\"args\":\"pd=pd cqe=64\",\"fields\":{\"pd\":\"pd\","
		"\"cqe\":64},\"object\":\"qp 'a'\"},"
		"{\"name\":\"ibv_destroy_qp\",\"args\":\"\",\"fields\":{},"
		"\"ok\":false,\"errno\":12,\"error\":\"ENOMEM\","
		"\"injected\":true},"
		"{\"no\":3,\"name\":\"ibv_create_qp\",\"args\":\"pd=pd\","
		"\"fields\":{\"pd\":\"pd\"},\"object\":\"qp 'a'\","
		"\"ok\":true,\"duration_ns\":42}]\n";
	struct rs_rec_call *c1, *c2, *c3;
	char name[] = "ibv_create_qp";
	const char *kept = "qp 'a'";
	struct rs_record rec;
	char *s;
	int r;

	/* A run that makes its calls (-v): they have outcomes. */
	CHECK_INT(rs_record_init(&rec, false, true), 0);
	c1 = rs_record_call(&rec, 1, name, "pd=pd cqe=64", at, 2, "qp 'a'",
			    false);
	c2 = rs_record_call(&rec, 0, "ibv_destroy_qp", "", at, 0, NULL,
			    false);
	/* The same name from another buffer; an object the caller says
	 * the record holds already. */
	name[0] = 'i';
	c3 = rs_record_call(&rec, 3, name, "pd=pd", at, 1, kept, true);
	CHECK(c1 && c2 && c3);
	CHECK_PTR(rs_rec_call_name(c1), rs_rec_call_name(c3));
	CHECK(rs_rec_call_name(c1) != name);
	CHECK(c1->object != kept);
	CHECK_PTR(c3->object, kept);
	rs_rec_call_out(c2)->ok = false;
	rs_rec_call_out(c2)->err = ENOMEM;
	rs_rec_call_out(c2)->outcome = RS_REC_CALL_INJECTED;
	rs_rec_call_out(c3)->ok = true;
	rs_rec_call_out(c3)->duration_ns = 42;
	rs_rec_call_out(c3)->outcome = RS_REC_CALL_MADE;
	CHECK_INT(rs_val_len(rec.calls), 3);
	CHECK_INT(rs_val_type_of(rec.calls), RS_VAL_ARR);
	/* Written from the structs, then read: the same bytes both ways. */
	s = to_json(rec.calls, false, &r);
	CHECK_INT(r, 0);
	CHECK_STR(s, want);
	free(s);
	CHECK_STR(rs_val_get_str(rs_val_at(rec.calls, 2), "object"),
		  "qp 'a'");
	CHECK_UINT(rs_val_get_u64(rs_val_at(rec.calls, 1), "errno"), ENOMEM);
	s = to_json(rec.calls, false, &r);
	CHECK_STR(s, want);
	free(s);
	CHECK_INT(rs_val_check(rec.root), 0);
	rs_record_free(&rec);
}

/* A call whose keys an earlier call of its name had keeps only the
 * values that differ, and is written as the whole text it was. */
TEST(value, record_calls_shared_keys)
{
	static const char *texts[] = {
		"qp=a state=RTR psn=0",
		"qp=b state=RTR psn=0",
		"qp=bb state=RTR psn=10",
		"qp=a state=RTR psn=0",
		"qp=a stat=RTRR psn=0",   /* other keys: its own */
		"qp=a state=RTR psn=",    /* an empty value */
		"qp=a odd psn=0",         /* not pairs: its own */
	};
	const struct rs_rec_call *c[RS_N(texts)];
	struct rs_record rec;
	char *s;
	int r;

	CHECK_INT(rs_record_init(&rec, true, false), 0);
	for (unsigned i = 0; i < RS_N(texts); i++) {
		uint16_t at[3] = { 0 };
		unsigned n = 1;

		/* A key after each space, as rs_call_arg() notes them. */
		for (const char *p = texts[i]; *p; p++)
			if (*p == ' ')
				at[n++] = (uint16_t)(p + 1 - texts[i]);
		CHECK_INT(n, 3);
		c[i] = rs_record_call(&rec, i + 1, "ibv_modify_qp", texts[i],
				      at, n, "x", false);
		CHECK(c[i]);
	}
	/* A dry run's calls are not made: no room for what came of them. */
	CHECK_PTR(rs_rec_call_out((struct rs_rec_call *)c[0]), NULL);
	CHECK_PTR(rs_rec_call_base(c[0]), NULL);
	CHECK_PTR(rs_rec_call_base(c[1]), c[0]);
	CHECK_INT(c[1]->n_diff, 1);
	/* Against the first: "bb" and "10" differ in length too. */
	CHECK_PTR(rs_rec_call_base(c[2]), c[0]);
	CHECK_INT(c[2]->n_diff, 2);
	CHECK_PTR(rs_rec_call_base(c[3]), c[0]);
	CHECK_INT(c[3]->n_diff, 0);
	CHECK_PTR(rs_rec_call_base(c[4]), NULL);
	CHECK_PTR(rs_rec_call_base(c[5]), c[0]);
	CHECK_INT(c[5]->n_diff, 1);
	CHECK_PTR(rs_rec_call_base(c[6]), NULL);
	for (unsigned i = 0; i < RS_N(texts); i++) {
		struct rs_val *t = rs_rec_call_tree(c[i]);

		CHECK_STR(rs_val_get_str(t, "args"), texts[i]);
		CHECK_STR(rs_val_get_str(t, "object"), "x");
		rs_val_free(t);
	}
	s = to_json(rs_val_get(rs_val_at(rec.calls, 2), "fields"), false,
		    &r);
	CHECK_STR(s, "{\"qp\":\"bb\",\"state\":\"RTR\",\"psn\":10}\n");
	free(s);
	rs_record_free(&rec);
}

/* Calls fill blocks of their own, one after another: more than a
 * block's worth, with outcomes (a run that makes them) and without (a
 * dry run), read back in order, each whole. */
TEST(value, record_calls_blocks)
{
	enum { N = 3000 };
	static const uint16_t at[] = { 0, 5 };
	char args[64];

	for (int dry = 0; dry < 2; dry++) {
		struct rs_record rec;

		CHECK_INT(rs_record_init(&rec, dry, !dry), 0);
		for (unsigned i = 0; i < N; i++) {
			struct rs_rec_call *c;

			/* Own text every 7th (other keys), else against
			 * a base. */
			snprintf(args, sizeof(args), i % 7 ? "qp=q%u psn=%u" :
				 "qp=q%u xyz=%u", i, i * 3);
			c = rs_record_call(&rec, i + 1, i % 2 ?
					   "ibv_modify_qp" : "ibv_post_send",
					   args, at, 2, "qp 'q'", false);
			CHECK(c);
			if (!dry) {
				rs_rec_call_out(c)->ok = true;
				rs_rec_call_out(c)->duration_ns = i;
				rs_rec_call_out(c)->outcome =
					RS_REC_CALL_MADE;
			}
		}
		CHECK_INT(rs_val_len(rec.calls), N);
		for (unsigned i = 0; i < N; i++) {
			const struct rs_val *e = rs_val_at(rec.calls, i);

			snprintf(args, sizeof(args), i % 7 ? "qp=q%u psn=%u" :
				 "qp=q%u xyz=%u", i, i * 3);
			CHECK_UINT(rs_val_get_u64(e, "no"), i + 1);
			CHECK_STR(rs_val_get_str(e, "args"), args);
			CHECK_STR(rs_val_get_str(e, "name"), i % 2 ?
				  "ibv_modify_qp" : "ibv_post_send");
			if (!dry)
				CHECK_UINT(rs_val_get_u64(e, "duration_ns"),
					   i);
			else
				CHECK(!rs_val_get(e, "duration_ns"));
		}
		CHECK_INT(rs_val_check(rec.root), 0);
		rs_record_free(&rec);
	}
}

/* An object's entry and its teardown entry are structs in the record,
 * written as the members they were; adding to one (a real run's facts)
 * makes it an object of nodes that reads the same. */
/* Object and teardown entries, in a dry run's record or a real run's
 * (whose teardown entries are structs in an array, not a list). */
static void record_objects_in(bool dry_run)
{
	static const char want[] = "[{\"id\":\"a\",\"kind\":\"qp\","
		"\"name\":\"qp 'a'\",\"file\":\"f.yaml\",\"line\":3,"
		"\"col\":5,\"outcome\":\"created\",\"no\":1},"
		"{\"id\":\"b\",\"kind\":\"qp\",\"name\":\"qp 'b'\","
		"\"outcome\":\"pending\"},"
		"{\"id\":\"c\",\"kind\":\"cq\",\"name\":\"cq 'c'\","
		"\"file\":\"f.yaml\",\"line\":4,\"col\":5,"
		"\"outcome\":\"created\",\"no\":2,\"create_ms\":1.5}]\n";
	static const char want_down[] = "[{\"no\":2,\"id\":\"c\","
		"\"name\":\"cq 'c'\"},{\"no\":1,\"id\":\"a\","
		"\"name\":\"qp 'a'\"},{\"no\":3,\"id\":\"x\","
		"\"name\":\"x\"}]\n";
	struct rs_loc la = { .file = "f.yaml", .line = 3, .col = 5 };
	struct rs_loc lc = { .file = "f.yaml", .line = 4, .col = 5 };
	struct rs_val *a, *b, *c;
	const char *name_a;
	struct rs_record rec;
	char *s;
	int r;

	CHECK_INT(rs_record_init(&rec, dry_run, false), 0);
	a = rs_record_object(&rec, "a", "qp", "qp 'a'", &la, "pending");
	b = rs_record_object(&rec, "b", "qp", "qp 'b'", NULL, "pending");
	c = rs_record_object(&rec, "c", "cq", "cq 'c'", &lc, "pending");
	CHECK(a && b && c);
	name_a = rs_rec_obj_name(a);
	CHECK_STR(name_a, "qp 'a'");
	rs_rec_obj_no(a, 1);
	rs_rec_obj_outcome(a, "created");
	CHECK_STR(rs_rec_obj_outcome_of(a), "created");
	rs_rec_obj_no(c, 2);
	/* A member of its own: nodes from here on, in the same order. */
	rs_val_put_double(c, "create_ms", 1.5);
	rs_rec_obj_outcome(c, "created");
	CHECK_STR(rs_rec_obj_name(c), "cq 'c'");
	CHECK_STR(rs_rec_obj_outcome_of(c), "created");
	s = to_json(rec.objects, false, &r);
	CHECK_INT(r, 0);
	CHECK_STR(s, want);
	free(s);
	/* Teardown: the strings are the entries', or copies. */
	rs_record_destroyed(&rec, 2, c, "c", "cq 'c'");
	rs_record_destroyed(&rec, 1, a, "a", "qp 'a'");
	rs_record_destroyed(&rec, 3, NULL, "x", "x");
	s = to_json(rec.teardown, false, &r);
	CHECK_STR(s, want_down);
	free(s);
	CHECK_STR(rs_val_get_str(rs_val_at(rec.teardown, 1), "name"),
		  "qp 'a'");
	/* Read as nodes, the objects are the same JSON. */
	CHECK_STR(rs_val_get_str(rs_val_at(rec.objects, 0), "kind"), "qp");
	CHECK_STR(rs_rec_obj_name(rs_val_at(rec.objects, 0)), "qp 'a'");
	s = to_json(rec.objects, false, &r);
	CHECK_STR(s, want);
	free(s);
	CHECK_INT(rs_val_check(rec.root), 0);
	rs_record_free(&rec);
}

TEST(value, record_objects)
{
	record_objects_in(true);
	record_objects_in(false);
}

/* A real run's object entry, made the way run.c's record_created()
 * did before (its create_ms and facts put as members, which made the
 * struct nodes) or the way it does now (kept beside the struct). */
static void obj_made(struct rs_val *e, unsigned no, double ms, bool tree)
{
	struct rs_val *f;

	rs_rec_obj_no(e, no);
	if (tree) {
		rs_val_put_double(e, "create_ms", ms);
		f = rs_val_put_obj(e, "facts");
	} else {
		rs_rec_obj_create_ms(e, ms);
		f = rs_rec_obj_facts(e);
	}
	/* A QP's describe. */
	rs_val_put_strf(f, "qpn", "0x%06x", no);
	rs_val_put_str(f, "type", "RC");
	rs_val_put_u64(f, "max_send_wr", 16);
	rs_val_put_u64(f, "max_recv_wr", 16);
	rs_val_put_u64(f, "max_send_sge", 1);
	rs_val_put_u64(f, "max_recv_sge", 1);
	rs_val_put_u64(f, "max_inline_data", 0);
	rs_val_put_str(f, "state", "RESET");
	rs_rec_obj_outcome(e, "created");
}

/* A real run's N objects, the one way or the other: the record's
 * objects' JSON (to free()). */
static char *objects_run(unsigned n, bool tree, bool pretty)
{
	struct rs_loc loc = { .file = "f.yaml", .line = 3, .col = 5 };
	struct rs_record rec;
	char id[32], name[48];
	char *s;
	int r;

	CHECK_INT(rs_record_init(&rec, false, false), 0);
	for (unsigned i = 0; i < n; i++) {
		struct rs_val *e;

		snprintf(id, sizeof(id), "q[%u]", i);
		snprintf(name, sizeof(name), "qp 'q[%u]'", i);
		loc.line = 3 + i;
		e = rs_record_object(&rec, id, "qp", name, &loc, "pending");
		CHECK(e);
		/* Measured times: 16 and 17 digits as often as 15. */
		obj_made(e, i + 1, 0.0421 * (i + 1) + i / 3.0, tree);
	}
	CHECK_INT(rs_val_check(rec.root), 0);
	s = to_json(rec.objects, pretty, &r);
	CHECK_INT(r, 0);
	rs_record_free(&rec);
	return s;
}

/* The set-up proxy for callgrind, one way each (the tree way is
 * main's): --toggle-collect=objects_run_tree or objects_run_struct. */
__attribute__((noinline)) static char *objects_run_tree(unsigned n,
							bool pretty)
{
	return objects_run(n, true, pretty);
}

__attribute__((noinline)) static char *objects_run_struct(unsigned n,
							  bool pretty)
{
	return objects_run(n, false, pretty);
}

TEST(value, record_objects_run)
{
	/* As main (54e53cf) wrote it, create_ms and facts as members. */
	static const char want[] = "[{\"id\":\"a\",\"kind\":\"qp\","
		"\"name\":\"qp 'a'\",\"file\":\"f.yaml\",\"line\":3,"
		"\"col\":5,\"outcome\":\"created\",\"no\":1,"
		"\"create_ms\":0.12345678901234566,"
		"\"facts\":{\"qpn\":\"0x000001\",\"type\":\"RC\","
		"\"max_send_wr\":16,\"max_recv_wr\":16,\"max_send_sge\":1,"
		"\"max_recv_sge\":1,\"max_inline_data\":0,"
		"\"state\":\"RESET\"}}]\n";
	struct rs_loc la = { .file = "f.yaml", .line = 3, .col = 5 };
	const struct rs_val *f;
	struct rs_record rec;
	struct rs_val *a, *st;
	char *s, *t;
	int r;

	for (int tree = 0; tree < 2; tree++) {
		CHECK_INT(rs_record_init(&rec, false, false), 0);
		a = rs_record_object(&rec, "a", "qp", "qp 'a'", &la,
				     "pending");
		CHECK(a);
		obj_made(a, 1, 0.12345678901234566, tree);
		CHECK_STR(rs_rec_obj_name(a), "qp 'a'");
		CHECK_STR(rs_rec_obj_outcome_of(a), "created");
		s = to_json(rec.objects, false, &r);
		CHECK_INT(r, 0);
		CHECK_STR(s, want);
		free(s);
		/* Written twice (its facts linked to each tree written):
		 * the same. */
		s = to_json(rec.objects, false, &r);
		CHECK_STR(s, want);
		free(s);
		/* Made the new way, it is still the struct. */
		st = rs_val_struct_tree(a);
		CHECK(tree || st);
		rs_val_free(st);
		/* Read as nodes, then added to: the same members, then
		 * the new one last. */
		f = rs_val_get(a, "facts");
		CHECK_STR(rs_val_get_str(f, "state"), "RESET");
		CHECK(rs_val_get_double(a, "create_ms") ==
		      0.12345678901234566);
		s = to_json(rec.objects, false, &r);
		CHECK_STR(s, want);
		free(s);
		rs_val_put_str(a, "error", "EX");
		s = to_json(rec.objects, false, &r);
		CHECK(strstr(s, "\"state\":\"RESET\"},\"error\":\"EX\"}]"));
		free(s);
		CHECK_INT(rs_val_check(rec.root), 0);
		rs_record_free(&rec);
	}
	/* A thousand, plain and pretty: the same bytes both ways. */
	for (int pretty = 0; pretty < 2; pretty++) {
		s = objects_run_tree(1000, pretty);
		t = objects_run_struct(1000, pretty);
		CHECK(strlen(s) > 1000 * 200);
		CHECK_STR(t, s);
		free(s);
		free(t);
	}
}

/* A dry run's teardown entries are items of a list, in blocks: more
 * than a block's worth are written and read in the order given. */
TEST(value, record_teardown_blocks)
{
	enum { N = 1000 };
	static const char last[] = "{\"no\":1000,\"id\":\"q[0]\","
		"\"name\":\"renamed\"}]\n";
	struct rs_val *e[N];
	struct rs_record rec;
	char id[16], name[32];
	size_t len;
	char *s;
	int r;

	CHECK_INT(rs_record_init(&rec, true, false), 0);
	for (unsigned i = 0; i < N; i++) {
		snprintf(id, sizeof(id), "q[%u]", i);
		snprintf(name, sizeof(name), "qp 'q[%u]'", i);
		e[i] = rs_record_object(&rec, id, "qp", name, NULL, "pending");
		CHECK(e[i]);
	}
	for (unsigned i = N; i-- > 0;) {
		snprintf(id, sizeof(id), "q[%u]", i);
		snprintf(name, sizeof(name), "qp 'q[%u]'", i);
		/* The last one under another name: a copy of its own. */
		rs_record_destroyed(&rec, N - i, e[i], id,
				    i ? name : "renamed");
	}
	CHECK_INT(rs_val_len(rec.teardown), N);
	s = to_json(rec.teardown, false, &r);
	CHECK_INT(r, 0);
	len = strlen(s);
	CHECK(!strncmp(s, "[{\"no\":1,\"id\":\"q[999]\",\"name\":"
		       "\"qp 'q[999]'\"},{\"no\":2,", 45));
	CHECK(len > strlen(last) && !strcmp(s + len - strlen(last), last));
	free(s);
	/* Read as nodes: every one, in order. */
	for (unsigned i = 0; i < N; i++)
		CHECK_UINT(rs_val_get_u64(rs_val_at(rec.teardown, i), "no"),
			   i + 1);
	CHECK_STR(rs_val_get_str(rs_val_at(rec.teardown, 500), "id"),
		  "q[499]");
	CHECK_INT(rs_val_check(rec.root), 0);
	rs_record_free(&rec);
}

/* A reporter that wants no calls (the text reporter of a dry run with
 * -q) is not told of them, and a call's tree is not made for it; one
 * that wants them still is, beside it. */
static bool no_calls(struct rs_reporter *r, enum rs_rec_entry type)
{
	(void)r;
	return type != RS_REC_CALL;
}

static const struct rs_reporter_ops no_calls_ops = {
	.begin = count_begin, .entry = count_entry, .end = count_end,
	.free = count_free, .wants = no_calls,
};

TEST(value, record_wants)
{
	static const uint16_t at[] = { 0 };
	struct counting q = { .r.ops = &no_calls_ops }, all = q;
	struct rs_record rec;
	unsigned freed = 0;
	struct rs_val *o;

	q.freed = all.freed = &freed;
	all.r.ops = &count_ops;
	CHECK_INT(rs_record_init(&rec, true, false), 0);
	CHECK_INT(rs_record_add_reporter(&rec, &q.r), 0);
	rs_record_begin(&rec);
	CHECK(rs_record_call(&rec, 1, "ibv_create_cq", "cqe=1", at, 1, NULL,
			     false));
	o = rs_record_object(&rec, "cq", "cq", "cq 'cq'", NULL, "pending");
	rs_record_tell_obj(&rec, o);
	rs_record_destroyed(&rec, 1, o, "cq", "cq 'cq'");
	/* The object told, the call and the teardown entry (wanted) too. */
	CHECK_INT(q.entries, 2);
	CHECK_INT(rs_record_add_reporter(&rec, &all.r), 0);
	CHECK(rs_record_call(&rec, 2, "ibv_create_cq", "cqe=2", at, 1, NULL,
			     false));
	CHECK_INT(q.entries, 2);
	CHECK_INT(all.entries, 1);
	/* Kept all the same. */
	CHECK_INT(rs_val_len(rec.calls), 2);
	CHECK_INT(rs_val_len(rec.teardown), 1);
	CHECK_INT(rs_val_check(rec.root), 0);
	rs_record_free(&rec);
	CHECK_INT(freed, 2);
}

/* write(2)s this process made so far (/proc/self/io's syscw); -1 when
 * the kernel does not count them. */
static long writes_made(void)
{
	FILE *f = fopen("/proc/self/io", "r");
	char line[64];
	long n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "syscw: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* A record of megabytes reaches its file in writes of 256 KiB (a
 * write(2) each 8 KiB, a byte at a time into stdio, was a third of a
 * second in the VM), with json-c's bytes, a value longer than the
 * writer's buffer among them; the other two outputs (a string, a text
 * cut to its buffer) from the same writer. */
TEST(value, json_large_writes)
{
	struct rs_val *v = rs_val_arr(), *e;
	struct json_object *j = json_object_new_array(), *je;
	char path[] = "/tmp/rdmascn-json-XXXXXX", *s, *got, *mem, buf[8];
	size_t big = 600 << 10, len;
	const char *want;
	long before, after;
	struct rs_out o;
	FILE *f;
	int fd;

	s = malloc(big + 1);
	CHECK(s);
	for (size_t i = 0; i < big; i++)
		s[i] = i % 97 ? (char)('a' + i % 26) : (char)(1 + i % 40);
	s[big] = '\0';
	for (unsigned i = 0; i < 30000; i++) {
		static const char name[] = "qp 'a'[7] \\ \x7f";
		int64_t delta = -(int64_t)i * 977;

		e = rs_val_push_obj(v);
		je = json_object_new_object();
		rs_val_put_u64(e, "no", i);
		json_object_object_add(je, "no", json_object_new_uint64(i));
		rs_val_put_i64(e, "delta", delta);
		json_object_object_add(je, "delta",
				       json_object_new_int64(delta));
		rs_val_put_str(e, "name\t\"q\"", name);
		json_object_object_add(je, "name\t\"q\"",
				       json_object_new_string(name));
		if (i == 12345) {
			rs_val_put_str(e, "long", s);
			json_object_object_add(je, "long",
					       json_object_new_string(s));
		}
		json_object_array_add(j, je);
	}
	want = json_object_to_json_string_ext(j,
		JSON_C_TO_STRING_NOSLASHESCAPE | JSON_C_TO_STRING_PRETTY |
		JSON_C_TO_STRING_SPACED);
	len = strlen(want);
	CHECK(len > 4 * big);

	/* Through an output as --json opens it: to a file made for it. */
	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK_INT(rs_out_open(&o, "--json", path), 0);
	before = writes_made();
	CHECK_INT(rs_val_write_json(o.f, v, true), 0);
	CHECK_INT(rs_out_commit(&o), 0);
	after = writes_made();
	if (before >= 0)
		CHECK(after - before <= (long)(len / RS_OUT_BUF) + 2);
	f = fopen(path, "r");
	CHECK(f);
	got = malloc(len + 2);
	CHECK(got);
	CHECK_UINT(fread(got, 1, len + 2, f), len + 1);
	fclose(f);
	unlink(path);
	CHECK_MEM(got, want, len);
	CHECK(got[len] == '\n');
	free(got);

	mem = rs_val_json_string(v, true);
	CHECK_STR(mem, want);
	free(mem);

	/* Cut: seven bytes and the NUL. */
	CHECK_STR(rs_val_text_of(rs_val_at(v, 1), buf, sizeof(buf)),
		  "{\"no\":1");
	CHECK_STR(rs_val_text_of(rs_val_at(v, 1), buf, 1), "");

	free(s);
	rs_val_free(v);
	json_object_put(j);
}

/* What rs_val_write_json_to() handed on: its pieces, kept. */
struct pieces {
	char *all;
	size_t len, n, small;
	int fail_at;            /* the piece that fails (0: none) */
};

static int keep_piece(void *arg, const void *buf, size_t n)
{
	struct pieces *p = arg;

	p->n++;
	if ((int)p->n == p->fail_at)
		return -1;
	if (n < 64 << 10)
		p->small++;
	p->all = realloc(p->all, p->len + n + 1);
	CHECK(p->all);
	memcpy(p->all + p->len, buf, n);
	p->len += n;
	p->all[p->len] = '\0';
	return 0;
}

static int put_out(void *o, const void *buf, size_t n)
{
	return rs_out_write(o, buf, n);
}

/* The record's JSON handed on as the writer's own buffer fills, in
 * pieces of about 256 KiB (none small but the last), each one write(2)
 * of --json's file, not copied into its stream's buffer first; a failed
 * piece is the last one handed on, and the file's error is the
 * commit's to say. */
TEST(value, json_to_pieces)
{
	struct rs_val *v = rs_val_arr(), *e;
	struct pieces p = { 0 };
	struct rs_out o;
	char *want;
	long before, after;

	for (unsigned i = 0; i < 40000; i++) {
		e = rs_val_push_obj(v);
		rs_val_put_u64(e, "no", i);
		rs_val_put_str(e, "name", "qp 'a[1]'");
		rs_val_put_double(e, "create_ms", 0.1 * i + 1.0 / 3);
	}
	want = rs_val_json_string(v, true);
	CHECK(want);
	CHECK(strlen(want) > (size_t)4 * RS_OUT_BUF);
	CHECK_INT(rs_val_write_json_to(v, true, keep_piece, &p), 0);
	CHECK_UINT(p.len, strlen(want) + 1);
	CHECK_MEM(p.all, want, strlen(want));
	CHECK(p.all[p.len - 1] == '\n');
	CHECK_UINT(p.n, p.len / RS_OUT_BUF + 1);
	CHECK_UINT(p.small, 1);
	free(p.all);

	p = (struct pieces){ .fail_at = 2 };
	CHECK_INT(rs_val_write_json_to(v, true, keep_piece, &p), -EIO);
	CHECK_UINT(p.n, 2);
	free(p.all);

	/* The big buffer not to be had: all of it still, in pieces of the
	 * 4 KiB it began in; a short value asks for none. */
	p = (struct pieces){ 0 };
	rs_alloc_fail_at(1);
	CHECK_INT(rs_val_write_json_to(v, true, keep_piece, &p), 0);
	CHECK_INT(rs_alloc_count(), 1);
	rs_alloc_fail_at(0);
	CHECK_UINT(p.len, strlen(want) + 1);
	CHECK_MEM(p.all, want, strlen(want));
	CHECK_UINT(p.small, p.n);
	CHECK(p.n >= (p.len + 4095) / 4096);
	free(p.all);
	p = (struct pieces){ 0 };
	e = rs_val_obj();
	rs_val_put_str(e, "a", "b");
	rs_alloc_fail_at(0);
	CHECK_INT(rs_val_write_json_to(e, false, keep_piece, &p), 0);
	CHECK_INT(rs_alloc_count(), 0);
	CHECK_UINT(p.n, 1);
	CHECK_STR(p.all, "{\"a\":\"b\"}\n");
	free(p.all);
	rs_val_free(e);

	/* A file: a write each piece. */
	CHECK_INT(rs_out_open(&o, "--json", "/dev/null"), 0);
	before = writes_made();
	CHECK_INT(rs_val_write_json_to(v, true, put_out, &o), 0);
	after = writes_made();
	if (before >= 0)
		CHECK_INT(after - before,
			  (long)(strlen(want) / RS_OUT_BUF) + 1);
	CHECK_INT(rs_out_commit(&o), 0);
	/* A full disk: said by the commit. */
	CHECK_INT(rs_out_open(&o, "--json", "/dev/full"), 0);
	CHECK_INT(rs_val_write_json_to(v, true, put_out, &o), -EIO);
	CHECK_INT(rs_out_commit(&o), -ENOSPC);
	free(want);
	rs_val_free(v);
}

/* More pairs than the writer finds in the text once (64): a key given
 * again on either side of that still keeps its first place and takes
 * its last value, as json-c's object reads the same pairs. */
TEST(value, many_pairs)
{
	struct json_object *j = json_object_new_object();
	static const unsigned keys[] = { 3, 66, 70, 3, 70, 80 };
	struct rs_val *e = rs_val_obj();
	char args[2048], *p = args;
	uint16_t at[100];
	unsigned n = 0;
	const char *want;
	char *s;
	int r;

	for (unsigned i = 0; i < 90; i++) {
		/* Pairs 64-69 name keys seen before: 3, 66, 70, ... */
		unsigned key = i >= 64 && i < 70 ? keys[i - 64] : i;
		char name[8];

		snprintf(name, sizeof(name), "k%u", key);
		at[n++] = (uint16_t)(p - args);
		p += sprintf(p, "%s=%u", name, i);
		*p++ = ' ';
		json_object_object_add(j, name, json_object_new_uint64(i));
	}
	p[-1] = '\0';
	want = json_object_to_json_string_ext(j,
		JSON_C_TO_STRING_NOSLASHESCAPE | JSON_C_TO_STRING_PLAIN);
	rs_val_put_str(e, "args", args);
	rs_val_put_pairs(e, "fields", rs_val_get(e, "args"), at, n);
	s = to_json(rs_val_get(e, "fields"), false, &r);
	CHECK_INT(r, 0);
	s[strlen(s) - 1] = '\0';
	CHECK_STR(s, want);
	CHECK(strstr(s, "\"k3\":67,"));
	free(s);
	rs_val_free(e);
	json_object_put(j);
}

/* One double as the writer writes it and as json-c's shortest form
 * (jc_double) has it. */
static unsigned double_same(double d)
{
	struct json_object *j = jc_double(d);
	struct rs_val *v = rs_val_double(d);
	char *got = rs_val_json_string(v, false);
	const char *want = json_object_to_json_string_ext(j,
		JSON_C_TO_STRING_PLAIN), *p = want;
	unsigned digits = 0;

	CHECK_STR(got, want);
	/* Its significant digits: leading zeros and the point aside. */
	p += *p == '-';
	while (*p == '0' || *p == '.')
		p++;
	for (; *p && *p != 'e'; p++)
		digits += *p != '.';
	free(got);
	rs_val_free(v);
	json_object_put(j);
	return digits;
}

static double from_bits(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

/*
 * The writer rounds a double's 15 and 16 digits from its 17 itself (one
 * snprintf() where there were three): the same bytes as trying 15, 16
 * and 17 with printf, for times as a run measures them, any bit
 * pattern, decimals of 15, 16 and 17 digits, and the cases it leaves
 * to printf (ties in the dropped digits, carries, e-notation, powers
 * of two, subnormals).
 */
TEST(value, double_shortest)
{
	static const double some[] = {
		0.99999999999999994, 9.9999999999999982, 999999999999999.88,
		99999999999999.984, 0.00010000000000000002, 0.0001,
		9.9999999999999995e-05, 1e15, 1e16, 123456789012345.6,
		0.1, 0.2, 0.30000000000000004, 704.9, 1.0 / 3, 2.0 / 3,
		0.5, 1, 2, 1024, 0.125, 4503599627370496.5, 1e-5,
		1.2345678901234567e-4, 5e-324, 2.2250738585072014e-308,
		1.7976931348623157e308, -0.0, 0, -1.5, 0.05, 0.15, 0.25,
		1.0000000000000002, 0.9999999999999999,
	};
	unsigned digits[18] = { 0 };
	char buf[64];

	for (size_t i = 0; i < RS_N(some); i++) {
		double_same(some[i]);
		double_same(-some[i]);
	}
	/* Where the digits are made by integer arithmetic (1e-5 to 2^64)
	 * and just outside it: few bits (a 17-digit tie to round to even
	 * above 2^57), all 53, integers near 2^53 and 2^64. */
	for (int ex = -20; ex <= 66; ex++) {
		static const double m[] = { 1, 3, 5, 7, 0x1p53 - 1, 0x1p52 + 1,
					    12345, 0x1p52 * 1.5 };

		for (size_t i = 0; i < RS_N(m); i++) {
			double d = ldexp(m[i], ex - (m[i] > 1e6 ? 52 : 0));

			double_same(d);
			double_same(nextafter(d, 0));
			double_same(nextafter(d, INFINITY));
		}
	}
	for (unsigned t = 0; t < 100000; t++) {
		uint64_t u = (uint64_t)rnd(1u << 31) << 33 ^
			     (uint64_t)rnd(1u << 31) << 2 ^ rnd(4);
		double d = from_bits(u), a, b;
		unsigned k, n;

		if (!isnan(d) && !isinf(d))
			double_same(d);
		/* A phase's time: two clock readings' difference, ms. */
		a = rnd(100000) * 1000.0 + rnd(1000000) / 1e6;
		b = a + rnd(5000) / 1e3 + rnd(1000000) / 1e9;
		k = double_same(b - a);
		digits[k < 17 ? k : 17]++;
		/* A decimal of 15, 16 or 17 digits, read as a double. */
		n = 15 + rnd(3);
		for (k = 0; k < n; k++)
			buf[k] = (char)('0' + (k ? rnd(10) : 1 + rnd(9)));
		snprintf(buf + k, sizeof(buf) - k, "e%d", (int)rnd(40) - 30);
		double_same(strtod(buf, NULL));
	}
	/* Times took 17 digits, and 16, and fewer: each way out. */
	CHECK(digits[17] > 1000);
	CHECK(digits[16] > 1000);
	CHECK(digits[15] + digits[14] + digits[13] > 100);
}

/* Every byte but NUL, at every place of strings of 0 to 40 bytes (the
 * writer reads 8 at a time, and the last 8 again), as json-c writes it:
 * escapes, DEL, UTF-8 and bytes that are not. */
TEST(value, escape_every_byte)
{
	static const char utf8[] = "\xc3\xa9t\xc3\xa9 \xe2\x82\xac "
				   "\xf0\x9f\x98\x80";
	char s[41];
	unsigned n = 0;

	for (unsigned b = 1; b < 256; b++) {
		for (unsigned len = 1; len < sizeof(s); len += 1 + (b & 3)) {
			for (unsigned at = 0; at < len; at++) {
				struct json_object *j, *js;
				struct rs_val *v = rs_val_obj();
				char *got;
				int r;

				for (unsigned i = 0; i < len; i++)
					s[i] = utf8[i % (sizeof(utf8) - 1)];
				s[at] = (char)b;
				s[len] = '\0';
				rs_val_put_str(v, s, s);
				j = json_object_new_object();
				js = json_object_new_string(s);
				json_object_object_add(j, s, js);
				got = to_json(v, false, &r);
				CHECK_INT(r, 0);
				got[strlen(got) - 1] = '\0';
				CHECK_STR(got, json_object_to_json_string_ext(
					j, JSON_C_TO_STRING_NOSLASHESCAPE |
					JSON_C_TO_STRING_PLAIN));
				free(got);
				json_object_put(j);
				rs_val_free(v);
				n++;
			}
		}
	}
	CHECK(n > 40000);
}

/* A pair's value is a number when strtoll()/strtoull() read all of it
 * without ERANGE and it has no leading zero; else its text. */
TEST(value, pairs_numbers)
{
	static const char args[] =
		"a=0 b=-0 c=9223372036854775807 d=-9223372036854775808 "
		"e=-9223372036854775809 f=18446744073709551615 "
		"g=18446744073709551616 h=00 i=-01 j=- k= l=12x m=+1 "
		"n=99999999999999999999 o=-1 p=100000000000000000000";
	static const char want[] =
		"{\"a\":0,\"b\":0,\"c\":9223372036854775807,"
		"\"d\":-9223372036854775808,\"e\":\"-9223372036854775809\","
		"\"f\":18446744073709551615,\"g\":\"18446744073709551616\","
		"\"h\":\"00\",\"i\":\"-01\",\"j\":\"-\",\"k\":\"\","
		"\"l\":\"12x\",\"m\":\"+1\",\"n\":\"99999999999999999999\","
		"\"o\":-1,\"p\":\"100000000000000000000\"}\n";
	uint16_t at[32];
	unsigned n = 0;
	struct rs_val *e = rs_val_obj();
	const struct rs_val *f;
	char *s;
	int r;

	at[n++] = 0;
	for (unsigned i = 0; args[i]; i++)
		if (args[i] == ' ')
			at[n++] = (uint16_t)(i + 1);
	rs_val_put_str(e, "args", args);
	rs_val_put_pairs(e, "fields", rs_val_get(e, "args"), at, n);
	s = to_json(rs_val_get(e, "fields"), false, &r);
	CHECK_INT(r, 0);
	CHECK_STR(s, want);
	free(s);
	/* Read as members: the same types. */
	f = rs_val_get(e, "fields");
	CHECK_INT(rs_val_type_of(rs_val_get(f, "d")), RS_VAL_INT);
	CHECK_INT(rs_val_get_i64(f, "d"), INT64_MIN);
	CHECK_INT(rs_val_type_of(rs_val_get(f, "b")), RS_VAL_UINT);
	CHECK_UINT(rs_val_get_u64(f, "f"), UINT64_MAX);
	CHECK_INT(rs_val_type_of(rs_val_get(f, "g")), RS_VAL_STR);
	s = to_json(f, false, &r);
	CHECK_STR(s, want);
	free(s);
	rs_val_free(e);
}

/* A call that was made and failed, one whose errno has no name, a
 * modify written against an earlier one: written from their structs
 * (fields, no tree) as the trees made of them are, pretty and plain. */
TEST(value, record_calls_fields_as_tree)
{
	static const uint16_t at[][3] = { { 0, 13, 25 }, { 0, 13, 25 },
					  { 0, 13, 27 } };
	static const char *const args[] = {
		"qp_state=RTR dest_qpn=17 path_mtu=1024",
		"qp_state=RTR dest_qpn=18 path_mtu=1024",
		"qp_state=RTS dest_qpn=\"q\\\x01 path_mtu=-9",
	};
	struct rs_record rec;
	char *s[2][2];
	int r;

	CHECK_INT(rs_record_init(&rec, false, true), 0);
	for (unsigned i = 0; i < 3; i++) {
		struct rs_rec_call *c = rs_record_call(&rec, i + 1,
						       "ibv_modify_qp",
						       args[i], at[i], 3,
						       "qp 'a'", false);

		CHECK(c);
		rs_rec_call_out(c)->ok = i == 0;
		rs_rec_call_out(c)->err = i == 1 ? EIO : 9999;
		rs_rec_call_out(c)->duration_ns = 1000 + i;
		rs_rec_call_out(c)->outcome = RS_REC_CALL_MADE;
	}
	/* The second is held as its differences from the first. */
	for (int made = 0; made < 2; made++) {
		if (made)
			CHECK(rs_val_at(rec.calls, 0));
		for (int pretty = 0; pretty < 2; pretty++) {
			s[made][pretty] = to_json(rec.calls, pretty, &r);
			CHECK_INT(r, 0);
		}
	}
	CHECK(strstr(s[0][0], "\"dest_qpn\":18,\"path_mtu\":1024},"
		     "\"object\":\"qp 'a'\",\"ok\":false,\"errno\":5,"
		     "\"error\":\"EIO\",\"duration_ns\":1001}"));
	CHECK(strstr(s[0][0], "\"dest_qpn\":\"\\\"q\\\\\\u0001\","
		     "\"path_mtu\":-9},\"object\":\"qp 'a'\",\"ok\":false,"
		     "\"errno\":9999,\"duration_ns\":1002}"));
	CHECK(strstr(s[0][1], "\n    \"fields\": {\n      \"qp_state\": "));
	for (int pretty = 0; pretty < 2; pretty++) {
		CHECK_STR(s[0][pretty], s[1][pretty]);
		free(s[0][pretty]);
		free(s[1][pretty]);
	}
	rs_record_free(&rec);
}

/* rs_vfmt() against vsnprintf() at every buffer length from 0 to past
 * the text: the same return, the same bytes, nothing written past the
 * end. */
static __attribute__((format(printf, 1, 2))) void fmt_same(const char *fmt,
							    ...)
{
	char want[160], got[160];
	va_list ap, aq;
	int nw, ng;

	va_start(ap, fmt);
	va_copy(aq, ap);
	nw = vsnprintf(want, sizeof(want), fmt, aq);
	va_end(aq);
	CHECK(nw >= 0 && nw < (int)sizeof(want) - 2);
	for (size_t len = 0; len <= (size_t)nw + 2; len++) {
		memset(want, 0x5a, sizeof(want));
		memset(got, 0x5a, sizeof(got));
		va_copy(aq, ap);
		nw = vsnprintf(len ? want : NULL, len, fmt, aq);
		va_end(aq);
		va_copy(aq, ap);
		ng = rs_vfmt(len ? got : NULL, len, fmt, aq);
		va_end(aq);
		CHECK_INT(ng, nw);
		CHECK_MEM(got, want, sizeof(want));
	}
	va_end(ap);
}

TEST(value, fmt_as_vsnprintf)
{
	/* volatile: gcc would see the NULL and warn */
	const char *volatile none = NULL;

	/* the calls' own (exec, kinds, steps, plugins) */
	fmt_same("%s", "pd[0]");
	fmt_same("%s", "");
	fmt_same("%s", none);
	fmt_same("%u", 0u);
	fmt_same("%u", 4096u);
	fmt_same("%u", UINT_MAX);
	fmt_same("%d", 0);
	fmt_same("%d", -1);
	fmt_same("%d", INT_MIN);
	fmt_same("%d", INT_MAX);
	fmt_same("%i", -42);
	fmt_same("0x%x", 0u);
	fmt_same("0x%x", 0xdeadbeefu);
	fmt_same("%X", 0xabcdefu);
	fmt_same("%llu", 0ull);
	fmt_same("%llu", ULLONG_MAX);
	fmt_same("0x%llx", ULLONG_MAX);
	fmt_same("%lld", LLONG_MIN);
	fmt_same("%lu", ULONG_MAX);
	fmt_same("%ld", LONG_MIN);
	fmt_same("%lx", 0x1234ul);
	fmt_same("%zu", (size_t)SIZE_MAX);
	fmt_same("%zd", (ssize_t)-7);
	fmt_same("%zx", (size_t)0xfff);
	fmt_same("%jd", (intmax_t)INTMAX_MIN);
	fmt_same("%ju", (uintmax_t)UINTMAX_MAX);
	fmt_same("%td", (ptrdiff_t)-3);
	fmt_same("%tu", (ptrdiff_t)-3);
	fmt_same("%hhu", 300u);
	fmt_same("%hhd", 200);
	fmt_same("%hu", 70000u);
	fmt_same("%hd", 40000);
	fmt_same("%hx", 0x12345u);
	fmt_same("%" PRIu64, UINT64_MAX);
	fmt_same("%" PRIx64, (uint64_t)0x55d0c0a8f2b0);
	fmt_same("0x%" PRIx64, (uint64_t)1);
	fmt_same("%" PRId64, INT64_MIN);
	fmt_same("%" PRIu32, UINT32_MAX);
	fmt_same("%c", 'x');
	fmt_same("%c", 0x1ff);
	fmt_same("100%%");
	fmt_same("plain text, no conversion");
	fmt_same("%s(%s)+%llu", "mr[3]", "addr", 64ull);
	fmt_same("length(%s)-%llu", "mr[0]", 1ull);
	fmt_same("%d (%s)", -22, "EINVAL");
	fmt_same("#%u", 7u);
	fmt_same("wr[%u]", 15u);
	fmt_same("%s (%zd bytes)", "file", (ssize_t)4096);
	fmt_same("MAP_PRIVATE|MAP_ANONYMOUS%s", "|MAP_HUGETLB");
	fmt_same("%s%s%s", "a", none, "c");
	/* vsnprintf()'s, handed on whole: the arguments before are read
	 * again from the start */
	fmt_same("byte 0x%02x", 7u);
	fmt_same("%s then %#x", "a", 255u);
	fmt_same("%u then %5s", 3u, "ab");
	fmt_same("%-4d|", 5);
	fmt_same("%.3s", "abcdef");
	fmt_same("%p", (void *)0x1000);
	fmt_same("%p", (void *)NULL);
	fmt_same("%e", 1.5);
	fmt_same("%g %s", 0.25, "x");
	fmt_same("%ls", L"wide");
	fmt_same("%lc", (wint_t)'w');
}

/* rs_call_arg() as it was (snprintf "key=", vsnprintf the value): the
 * text a call's arguments must still be, byte for byte. */
static __attribute__((format(printf, 3, 4))) void call_arg_old(
	struct rs_call *c, const char *key, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->quiet || c->len >= sizeof(c->args) - 1)
		return;
	if (c->n_at < RS_N(c->at))
		c->at[c->n_at++] = (uint16_t)(c->len + (c->len ? 1 : 0));
	n = snprintf(c->args + c->len, sizeof(c->args) - c->len, "%s%s=",
		     c->len ? " " : "", key);
	if (n < 0 || (size_t)n >= sizeof(c->args) - c->len) {
		c->len = sizeof(c->args) - 1;
		return;
	}
	c->len += n;
	va_start(ap, fmt);
	n = vsnprintf(c->args + c->len, sizeof(c->args) - c->len, fmt, ap);
	va_end(ap);
	c->len = n < 0 || (size_t)n >= sizeof(c->args) - c->len ?
		 sizeof(c->args) - 1 : c->len + n;
}

static void calls_same(const struct rs_call *a, const struct rs_call *b)
{
	CHECK_UINT(a->len, b->len);
	CHECK_UINT(a->n_at, b->n_at);
	CHECK_MEM(a->at, b->at, sizeof(a->at));
	CHECK_MEM(a->args, b->args, sizeof(a->args));
}

/* The args text at its 1536-byte limit: cut in the separator, the key,
 * the '=' and the value at every place, as snprintf() cut it. */
TEST(value, call_args_cut_as_before)
{
	static char pad[1600];
	struct rs_call *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));

	CHECK(a && b);
	memset(pad, 'p', sizeof(pad) - 1);
	rs_call_want_args(true);
	for (size_t fill = 1480; fill < sizeof(a->args) + 2; fill++) {
		rs_call_init(a, RS_CALL_CREATE, "ibv_reg_mr");
		rs_call_init(b, RS_CALL_CREATE, "ibv_reg_mr");
		memset(a->args, 0x5a, sizeof(a->args));
		memset(b->args, 0x5a, sizeof(b->args));
		a->args[0] = b->args[0] = '\0';
		rs_call_arg(a, "pad", "%.*s", (int)fill, pad);
		call_arg_old(b, "pad", "%.*s", (int)fill, pad);
		calls_same(a, b);
		for (unsigned i = 0; i < 12; i++) {
			rs_call_arg(a, "max_send_wr", "%u", 100000u + i);
			call_arg_old(b, "max_send_wr", "%u", 100000u + i);
			rs_call_arg(a, "k", "0x%llx", 0x55d0c0a8f2b0ull);
			call_arg_old(b, "k", "0x%llx", 0x55d0c0a8f2b0ull);
			rs_call_arg(a, "name", "%s", "qp[17]");
			call_arg_old(b, "name", "%s", "qp[17]");
			rs_call_arg(a, "b", "byte 0x%02x", i);
			call_arg_old(b, "b", "byte 0x%02x", i);
			calls_same(a, b);
		}
	}
	rs_call_want_args(false);
	free(a);
	free(b);
}

/* Keys of 0-19 bytes sharing prefixes, then 21-byte ones that differ
 * only in their middle (one hash). */
static void put_again_key(char *key, size_t len, unsigned i)
{
	if (i < 20)
		snprintf(key, len, "%.*s", (int)i, "abcdefghijklmnopqrst");
	else
		snprintf(key, len, "aaaaaaaaa%03uzzzzzzzzz", i);
}

/* A key put again replaces the member where it stands, whatever the
 * keys share: their bit of the object's 64 (a put that finds its bit
 * clear does not look), their hash (made from the length and the
 * first and last 8 bytes: these differ only in the middle), or a
 * prefix; and after members appended unread (a struct's, F_DISTINCT). */
TEST(value, put_again_replaces)
{
	struct rs_val *o = rs_val_obj();
	const struct rs_val *m;
	char key[40];
	unsigned i;

	CHECK(o);
	for (i = 0; i < 300; i++) {
		put_again_key(key, sizeof(key), i);
		rs_val_put_u64(o, key, i);
	}
	CHECK_UINT(rs_val_len(o), 300);
	for (i = 0; i < 300; i++) {
		put_again_key(key, sizeof(key), i);
		rs_val_put_u64(o, key, 1000 + i);
	}
	CHECK_UINT(rs_val_len(o), 300);
	for (m = rs_val_first(o), i = 0; m; m = rs_val_next(m), i++)
		CHECK_UINT(rs_val_u64_of(m), 1000 + i);
	CHECK_UINT(i, 300);
	rs_val_put(o, "abc", rs_val_str("x"));
	CHECK_UINT(rs_val_len(o), 300);
	CHECK_STR(rs_val_get_str(o, "abc"), "x");
	CHECK_UINT(rs_val_get_u64(o, "abcd"), 1004);
	rs_val_free(o);

	/* read back: its members appended unread */
	o = rs_val_parse("{\"a\":1,\"b\":2,\"max_send_wr\":3}");
	CHECK(o);
	rs_val_put_u64(o, "max_send_wr", 4);
	rs_val_put_u64(o, "a", 5);
	rs_val_put_u64(o, "c", 6);
	CHECK_UINT(rs_val_len(o), 4);
	m = rs_val_first(o);
	CHECK_STR(rs_val_key(m), "a");
	CHECK_UINT(rs_val_u64_of(m), 5);
	m = rs_val_next(rs_val_next(m));
	CHECK_STR(rs_val_key(m), "max_send_wr");
	CHECK_UINT(rs_val_u64_of(m), 4);
	rs_val_free(o);
}

/* A struct as an empty object's members (rs_val_obj_struct()), with
 * objects of a part of it in it (RS_VAL_FIELD_STRUCT): a real run's
 * facts (a connection's: its settings, a side each). */
struct fx_side {
	uint32_t psn;
	bool global;
};

struct fx {
	struct fx_side side[2];
	bool read[2];           /* the side is in "settings" */
	char name[8];
};

static unsigned fx_side_fields(const void *data, struct rs_val_field *f,
			       void *room)
{
	const struct fx_side *sd = data;
	unsigned n = 0;

	(void)room;
	f[n++] = RS_VAL_F_U64("sq_psn", sd->psn);
	f[n++] = RS_VAL_F_BOOL("global", sd->global);
	if (!sd->global)
		f[n++] = RS_VAL_F_I64("sgid_index", -1);
	return n;
}

static const struct rs_val_struct fx_side_ops = {
	.fields = fx_side_fields,
};

/* One without fields: made as members. */
static void fx_side_members(struct rs_val *o, const void *data)
{
	const struct fx_side *sd = data;

	rs_val_put_u64(o, "psn", sd->psn);
}

static const struct rs_val_struct fx_side_members_ops = {
	.members = fx_side_members,
};

static unsigned fx_sides_fields(const void *data, struct rs_val_field *f,
				void *room)
{
	const struct fx *x = data;
	unsigned n = 0;

	(void)room;
	if (x->read[0])
		f[n++] = RS_VAL_F_STRUCT("a", &fx_side_ops, &x->side[0]);
	if (x->read[1])
		f[n++] = RS_VAL_F_STRUCT("b", &fx_side_ops, &x->side[1]);
	return n;
}

static const struct rs_val_struct fx_sides_ops = {
	.fields = fx_sides_fields,
};

static unsigned fx_fields(const void *data, struct rs_val_field *f,
			  void *room)
{
	const struct fx *x = data;
	char *buf = room;
	unsigned n = 0;

	snprintf(buf, 32, "qpn %s", x->name);
	f[n++] = RS_VAL_F_STR("a", buf, strlen(buf));
	f[n++] = RS_VAL_F_STRUCT("first", &fx_side_members_ops, &x->side[0]);
	f[n++] = RS_VAL_F_STRUCT("settings", &fx_sides_ops, x);
	return n;
}

static const struct rs_val_struct fx_ops = { .fields = fx_fields };

/* The same facts as puts made them. */
static void fx_put(struct rs_val *v, const struct fx *x)
{
	struct rs_val *set, *o;

	rs_val_put_strf(v, "a", "qpn %s", x->name);
	rs_val_put_u64(rs_val_put_obj(v, "first"), "psn", x->side[0].psn);
	set = rs_val_put_obj(v, "settings");
	for (int i = 0; i < 2; i++) {
		if (!x->read[i])
			continue;
		o = rs_val_put_obj(set, i ? "b" : "a");
		rs_val_put_u64(o, "sq_psn", x->side[i].psn);
		rs_val_put_bool(o, "global", x->side[i].global);
		if (!x->side[i].global)
			rs_val_put_i64(o, "sgid_index", -1);
	}
}

static void fx_fill(struct fx *x, unsigned k)
{
	x->side[0] = (struct fx_side){ .psn = 100 + k, .global = k & 1 };
	x->side[1] = (struct fx_side){ .psn = 200 + k, .global = true };
	x->read[0] = k != 2;
	x->read[1] = k < 2;
	snprintf(x->name, sizeof(x->name), "0x%02u", k);
}

/* A real run's record of three objects whose facts are the struct
 * (@st) or puts: its objects' JSON (to free()); @read: their facts
 * read as nodes first. */
static char *fx_record(bool st, bool read, bool pretty)
{
	struct rs_loc loc = { .file = "f.yaml", .line = 3, .col = 5 };
	struct rs_val *e[3];
	struct rs_record rec;
	char id[8];
	char *s;
	int r;

	CHECK_INT(rs_record_init(&rec, false, false), 0);
	for (unsigned k = 0; k < 3; k++) {
		struct rs_val *f;
		struct fx *x, put;

		snprintf(id, sizeof(id), "c%u", k);
		e[k] = rs_record_object(&rec, id, "connection", id, &loc,
					"pending");
		rs_rec_obj_no(e[k], k + 1);
		rs_rec_obj_create_ms(e[k], 0.5);
		f = rs_rec_obj_facts(e[k]);
		if (st) {
			x = rs_val_obj_struct(f, &fx_ops, sizeof(*x));
			CHECK(x);
			fx_fill(x, k);
			/* The struct's, while it is one. */
			CHECK(rs_val_struct_of(f, &fx_ops) == x);
		} else {
			fx_fill(&put, k);
			fx_put(f, &put);
		}
		rs_rec_obj_outcome(e[k], "created");
	}
	if (read) {
		const struct rs_val *f = rs_val_get(e[0], "facts");

		CHECK(rs_val_type_of(f) == RS_VAL_OBJ);
		CHECK_STR(rs_val_get_str(f, "a"), "qpn 0x00");
		CHECK_UINT(rs_val_get_u64(rs_val_get(rs_val_get(f,
				"settings"), "b"), "sq_psn"), 200);
		CHECK(!rs_val_struct_of(f, &fx_ops));
		/* As the text reporter is told one: its facts linked. */
		rs_val_free(rs_val_struct_tree(e[1]));
	}
	CHECK_INT(rs_val_check(rec.root), 0);
	s = to_json(rec.objects, pretty, &r);
	CHECK_INT(r, 0);
	rs_record_free(&rec);
	return s;
}

TEST(value, obj_struct)
{
	static const char want0[] = "\"facts\":{\"a\":\"qpn 0x00\","
		"\"first\":{\"psn\":100},\"settings\":{\"a\":{\"sq_psn\":100,"
		"\"global\":false,\"sgid_index\":-1},\"b\":{\"sq_psn\":200,"
		"\"global\":true}}}}";
	struct rs_val *o, *p;
	struct fx *x;
	char *s, *t;

	/* Written from the struct, read first or not, plain or pretty:
	 * as the puts' tree was. */
	for (int pretty = 0; pretty < 2; pretty++) {
		s = fx_record(false, false, pretty);
		CHECK(pretty || strstr(s, want0));
		/* An empty "settings" as an empty object. */
		CHECK(pretty || strstr(s, "\"settings\":{}"));
		for (int read = 0; read < 2; read++) {
			t = fx_record(true, read, pretty);
			CHECK_STR(t, s);
			free(t);
		}
		free(s);
	}
	/* A tree of its own: copied and compared as its members. */
	o = rs_val_obj();
	x = rs_val_obj_struct(o, &fx_ops, sizeof(*x));
	CHECK(x);
	fx_fill(x, 0);
	s = rs_val_json_string(o, false);
	p = rs_val_copy(o);
	CHECK(p && rs_val_equal(o, p));
	t = rs_val_json_string(p, false);
	CHECK_STR(t, s);
	free(s);
	free(t);
	/* Added to: the struct's members first. */
	rs_val_put_u64(o, "z", 1);
	s = rs_val_json_string(o, false);
	CHECK(!strncmp(s, "{\"a\":\"qpn 0x00\",\"first\":", 24));
	CHECK(strstr(s, "}},\"z\":1}"));
	free(s);
	rs_val_free(p);
	/* Only an empty object becomes one: else marked. */
	CHECK_PTR(rs_val_obj_struct(o, &fx_ops, sizeof(*x)), NULL);
	CHECK_INT(rs_val_check(o), -ENOMEM);
	rs_val_free(o);
	CHECK_PTR(rs_val_obj_struct(NULL, &fx_ops, 8), NULL);
}
