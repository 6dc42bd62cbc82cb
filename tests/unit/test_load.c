// SPDX-License-Identifier: MIT
/*
 * The loader on kinds of its own (not the core tables): locations of
 * libcyaml's errors mapped through ${} substitution, references, ids,
 * cycles with their path, and a deterministic plan.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "list.h"
#include "model.h"
#include "registry.h"
#include "schema.h"

struct box {
	char *id;
	uint32_t size;
	int color;
	uint32_t tags;
	bool on;
	struct inner { uint8_t x; } *inner;
	char *needs;
	char **after;
	unsigned after_count;
};

static const cyaml_strval_t colors[] = { { "red", 0 }, { "blue", 1 } };
static const cyaml_strval_t tag_names[] = { { "a", 1 }, { "b", 2 } };
static const cyaml_schema_field_t inner_fields[] = {
	RS_FIELD_REQ_UINT("x", struct inner, x),
	CYAML_FIELD_END
};
static const cyaml_schema_field_t box_fields[] = {
	RS_FIELD_ID(struct box),
	RS_FIELD_REQ_UINT("size", struct box, size),
	RS_FIELD_ENUM("color", struct box, color, colors),
	RS_FIELD_FLAGS("tags", struct box, tags, tag_names),
	RS_FIELD_BOOL("on", struct box, on),
	RS_FIELD_MAP("inner", struct box, inner, inner_fields),
	RS_FIELD_OPT_REF("needs", struct box, needs),
	RS_FIELD_AFTER(struct box),
	CYAML_FIELD_END
};
static const struct rdmascn_ref box_refs[] = {
	RS_REF("needs", struct box, needs, "box"),
	RS_REF_AFTER(struct box),
	RS_REF_END
};
static const struct rdmascn_kind box_kind = {
	.name = "box", .section = "boxes", .fields = box_fields,
	.size = sizeof(struct box), .id_offset = offsetof(struct box, id),
	.refs = box_refs,
};

struct lid { char *id; char *on; };
static const cyaml_schema_field_t lid_fields[] = {
	RS_FIELD_ID(struct lid),
	RS_FIELD_REF("on", struct lid, on),
	CYAML_FIELD_END
};
static const struct rdmascn_ref lid_refs[] = {
	RS_REF("on", struct lid, on, "box"),
	RS_REF_END
};
static const struct rdmascn_kind lid_kind = {
	.name = "lid", .section = "lids", .fields = lid_fields,
	.size = sizeof(struct lid), .id_offset = offsetof(struct lid, id),
	.refs = lid_refs,
};

struct poke {
	struct rs_step_common common;
	char *box;
	struct rs_step_entry *steps;
	unsigned steps_count;
};
static const cyaml_schema_field_t poke_fields[] = {
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			       struct poke, common.id, 1, RS_ID_MAX),
	{ .key = "after", .data_offset = offsetof(struct poke, common.after),
	  .count_offset = offsetof(struct poke, common.after_count),
	  .count_size = sizeof(unsigned),
	  .value = { .type = CYAML_SEQUENCE,
		     .flags = CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
		     .data_size = sizeof(char *),
		     .sequence = { .entry = &rs_id_schema, .max = CYAML_UNLIMITED } } },
	RS_FIELD_OPT_REF("box", struct poke, box),
	CYAML_FIELD_SEQUENCE("steps", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct poke, steps, &rs_step_entry_schema, 1,
			     CYAML_UNLIMITED),
	CYAML_FIELD_END
};
static const struct rdmascn_ref poke_refs[] = {
	{ .field = "after", .offset = offsetof(struct poke, common.after),
	  .count_offset = offsetof(struct poke, common.after_count),
	  .after = true },
	RS_REF("box", struct poke, box, "box"),
	RS_REF_END
};
static const struct rdmascn_kind poke_kind = {
	.name = "poke", .section = "poke", .fields = poke_fields,
	.size = sizeof(struct poke), .step = true,
	.id_offset = offsetof(struct poke, common.id), .refs = poke_refs,
	.children_offset = offsetof(struct poke, steps),
	.children_count_offset = offsetof(struct poke, steps_count),
};

/* Each test runs in a process of its own, which registers these and
 * never the core kinds (only the commands do that). */
static void add_kinds(void)
{
	CHECK_INT(rs_registry_add(&box_kind), 0);
	CHECK_INT(rs_registry_add(&lid_kind), 0);
	CHECK_INT(rs_registry_add(&poke_kind), 0);
}

static char *write_tmp(const char *text)
{
	static char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/rdmascn-test-load.%d.yaml", getpid());
	f = fopen(path, "w");
	CHECK(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* Load @text; return the first error line with the file name cut off, or
 * "" when it loaded. */
static const char *try_load(const char *text, const struct rs_set *sets,
			    unsigned n_sets, struct rs_scenario **ret)
{
	static char out[1024];
	struct rs_scenario *s = NULL;
	struct rs_diag d;
	char *path = write_tmp(text);
	int r;

	rs_diag_init(&d, NULL);
	r = rs_scenario_load(path, sets, n_sets, &d, &s);
	unlink(path);
	if (r == 0) {
		CHECK_UINT(d.errors, 0);
		if (ret)
			*ret = s;
		else
			rs_scenario_free(s);
		return "";
	}
	CHECK_INT(r, -EINVAL);
	CHECK(d.errors >= 1);
	CHECK(!strncmp(d.first, path, strlen(path)));
	snprintf(out, sizeof(out), "%s", d.first + strlen(path));
	return out;
}

#define ERR(text, want) CHECK_STR(try_load(text, NULL, 0, NULL), want)

TEST(load, register)
{
	add_kinds();
	CHECK_INT(rs_registry_add(&box_kind), -EEXIST);
}

TEST(load, valid_and_plan)
{
	struct rs_scenario *s;
	struct rs_set set = { "n", "7" };
	struct box *b;

	add_kinds();
	CHECK_STR(try_load(
		"params: {n: 3, c: {default: blue}}\n"
		"lids:\n"
		"  - {id: l, on: b2}\n"
		"boxes:\n"
		"  - {id: b2, size: \"${n}\", needs: b1, color: \"${c}\", tags: [a, b], on: yes}\n"
		"  - {id: b1, size: 1, inner: {x: 255}}\n"
		"  - {id: b0, size: 1, after: [b2]}\n"
		"steps:\n"
		"  - poke: {box: b1}\n"
		"  - poke:\n"
		"      id: p2\n"
		"      steps:\n"
		"        - poke: {box: b0}\n"
		"  - poke: {id: p3, after: [p2]}\n", &set, 1, &s), "");
	/* objects in section order of registration: boxes, then lids */
	CHECK_UINT(s->n_objects, 4);
	CHECK_UINT(s->n_steps, 4);
	CHECK_STR(s->create[0]->id, "b1");
	CHECK_STR(s->create[1]->id, "b2");
	CHECK_STR(s->create[2]->id, "b0");
	CHECK_STR(s->create[3]->id, "l");
	b = s->create[1]->data;
	CHECK_UINT(b->size, 7);   /* --set beat the default */
	CHECK_INT(b->color, 1);   /* ${c} in an enum field */
	CHECK_UINT(b->tags, 3);
	CHECK(b->on);
	CHECK_STR(s->steps[0]->name, "step 1 (poke)");
	CHECK_STR(s->steps[1]->name, "step 'p2'");
	CHECK_STR(s->steps[2]->name, "step 2.1 (poke)"); /* nested one */
	CHECK_STR(s->steps[3]->name, "step 'p3'");
	CHECK_UINT(rs_obj_loc(s->create[1], "size")->line, 5);
	CHECK_UINT(rs_obj_loc(s->create[1], "size")->col, 20);
	CHECK(rs_obj_has(s->create[0], "inner.x"));
	CHECK(!rs_obj_has(s->create[0], "inner.y"));
	rs_scenario_free(s);
}

/* rs_obj_has(): a key, a path through one, and what is not there, by
 * its first byte or past it (a check asks for what it may refuse). */
TEST(load, obj_has)
{
	struct rs_scenario *s;
	const struct rs_obj *o;

	add_kinds();
	CHECK_STR(try_load("boxes:\n"
			   "  - {id: b, size: 1, inner: {x: 2}, on: no}\n",
			   NULL, 0, &s), "");
	o = s->create[0];
	CHECK(rs_obj_has(o, "size"));
	CHECK(rs_obj_has(o, "on"));
	CHECK(rs_obj_has(o, "inner"));
	CHECK(rs_obj_has(o, "inner.x"));
	CHECK(!rs_obj_has(o, "inner.y"));
	CHECK(!rs_obj_has(o, "inner.x.z"));
	/* A first byte some key has, and one none has. */
	CHECK(!rs_obj_has(o, "sizes"));
	CHECK(!rs_obj_has(o, "s"));
	CHECK(!rs_obj_has(o, "color"));
	CHECK(!rs_obj_has(o, "needs"));
	CHECK(!rs_obj_has(o, "tags.a"));
	/* No element of a mapping; no key "". */
	CHECK(!rs_obj_has(o, "[0]"));
	CHECK(!rs_obj_has(o, ".size"));
	/* The object itself. */
	CHECK(rs_obj_has(o, ""));
	CHECK(rs_obj_has(o, NULL));
	rs_scenario_free(s);
}

TEST(load, errors)
{
	add_kinds();
	/* libcyaml's own checks, located and named */
	ERR("boxes:\n  - {id: a, size: abc}\n",
	    ":2:19: box 'a': size: expected an integer, got 'abc'");
	ERR("boxes:\n  - {id: a, size: 4294967296}\n",
	    ":2:19: box 'a': size: 4294967296 is out of range (0..4294967295)");
	ERR("boxes:\n  - {id: a, size: -1}\n",
	    ":2:19: box 'a': size: -1 is out of range (0..4294967295)");
	ERR("boxes:\n  - {id: a, size: 1, colour: red}\n",
	    ":2:22: box 'a': unknown field 'colour', "
	    "did you mean 'color'?");
	ERR("boxes:\n  - {id: a}\n",
	    ":2:5: box 'a': missing field 'size'");
	ERR("boxes:\n  - {id: a, size: 1, color: green}\n",
	    ":2:29: box 'a': color: unknown value 'green' (expected one of: red, blue)");
	ERR("boxes:\n  - {id: a, size: 1, on: maybe}\n",
	    ":2:26: box 'a': on: unknown value 'maybe' (expected one of: false, true, no, yes, off, on)");
	ERR("boxes:\n  - {id: a, size: 1, tags: [a, c]}\n",
	    ":2:32: box 'a': tags: unknown flag 'c' (expected some of: a, b)");
	ERR("boxes:\n  - {id: a, size: 1, tags: a}\n",
	    ":2:28: box 'a': tags: expected a list of flags, got a scalar");
	ERR("boxes:\n  - {id: a, size: 1, inner: {x: 256}}\n",
	    ":2:33: box 'a': inner.x: 256 is out of range (0..255)");
	ERR("boxes:\n  - {id: a, size: 1, inner: {}}\n",
	    ":2:29: box 'a': missing field 'inner.x'");
	ERR("boxes:\n  - {id: a, size: 1, inner: {x: 1, y: 2}}\n",
	    ":2:36: box 'a': inner: unknown field 'y' "
	    "(expected one of: x)");
	/* an empty value is named by its key, with what it could be */
	ERR("boxes:\n  - {id: a, size: 1, color: }\n",
	    ":2:22: box 'a': color: unknown value '' (expected one of: red, blue)");
	ERR("boxes:\n  - {id: a, size: }\n",
	    ":2:13: box 'a': size: expected an integer, got ''");
	ERR("boxes:\n  - id: a\n    on:\n    size: 1\n",
	    ":3:5: box 'a': on: unknown value '' (expected one of: false, true, no, yes, off, on)");
	/* ... also as the last bytes of a file without a newline */
	ERR("boxes:\n  - id: a\n    size: 1\n    on:",
	    ":4:5: box 'a': on: unknown value '' (expected one of: false, true, no, yes, off, on)");
	ERR("boxes: 5\n", ":1:8: boxes: expected a sequence, got a scalar");
	ERR("boxez: []\n",
	    ":1:1: unknown section 'boxez', did you mean 'boxes'?");
	ERR("boxes:\n  - {id: '', size: 1}\n", ":2:10: box #1: id: must not be empty");
	ERR("boxes:\n  - {size: 1}\n", ":2:5: box #1: missing field 'id'");
	/* the DOM's own */
	ERR("boxes:\n  - {id: a, size: 1\n", ":2:5: YAML syntax error: did not "
	    "find expected ',' or '}' while parsing a flow mapping (gave up at 3:1)");
	ERR("boxes:\n  - {id: a, size: 1, size: 2}\n",
	    ":2:22: box 'a': duplicate key 'size' (first at line 2)");
	/* past 8 keys the check hashes them: still the first one is named */
	ERR("params:\n  a: 1\n  b: 1\n  c: 1\n  d: 1\n  e: 1\n  f: 1\n"
	    "  g: 1\n  h: 1\n  c: 2\n  i: 1\n  c: 3\n",
	    ":10:3: params: duplicate key 'c' (first at line 4)");
	/* keys equal only once ${} is substituted */
	ERR("params: {k: size}\nboxes:\n  - {id: a, size: 1, \"${k}\": 2}\n",
	    ":3:22: box 'a': duplicate key 'size' (first at line 3)");
	/* \0 would cut a string short: refused, at its escape */
	ERR("boxes:\n  - {id: \"\xc3\xa9\\u0000\", size: 1}\n",
	    ":2:12: box '\xc3\xa9': id: a value cannot hold \\0 (NUL)");
	ERR("boxes:\n  - {id: a, size: \"1\\\\\\\n  \\x00\"}\n",
	    ":3:3: box 'a': size: a value cannot hold \\0 (NUL)");
	ERR("params: {\"k\\0a\": 1, \"k\\0b\": 2}\n",
	    ":1:12: params: a key cannot hold \\0 (NUL)");
	ERR("- a\n", ":1:1: a scenario is a mapping of sections (contexts:, "
	    "pds:, qps:, steps:, ...)");
	ERR("a: &x 1\nb: *x\n", ":2:4: YAML aliases are not supported (use params)");
	/* params */
	ERR("boxes:\n  - id: a\n    size: ${nope}\n", ":3:11: box 'a': size: unknown param 'nope'");
	ERR("boxes:\n  - id: a\n    size: x${nope\n",
	    ":3:12: box 'a': size: unterminated '${' (write '$${' for a literal)");
	ERR("boxes:\n  - {id: a, size: ${n}}\n", ":2:20: YAML syntax error: did not "
	    "find expected ',' or '}' while parsing a flow mapping (in {...} or "
	    "[...] quote it: \"${name}\")");
	ERR("params: {n: x}\nboxes:\n  - {id: a, size: \"${n}\"}\n",
	    ":3:19: box 'a': size: expected an integer, got 'x'");
	/* positions after a substitution on the same line still map back */
	ERR("params: {n: 1, c: zz}\nboxes:\n  - {id: a, size: \"${n}\", color: \"${c}\"}\n",
	    ":3:34: box 'a': color: unknown value 'zz' (expected one of: red, blue)");
	ERR("params: {n: 1234567}\nboxes:\n  - {id: a, size: \"${n}\", on: 2}\n",
	    ":3:31: box 'a': on: unknown value '2' (expected one of: false, true, no, yes, off, on)");
	ERR("params:\n  t: |\n    multi\n    line\nboxes:\n  - id: a\n    size: 1\n"
	    "    needs: ${t}\n    on: 7\n",
	    ":9:9: box 'a': on: unknown value '7' (expected one of: false, true, no, yes, off, on)");
	ERR("params: {n: {env: X}}\n",
	    ":1:10: param 'n' has no default; give it with --set n=VALUE");
	ERR("params: {n: {dflt: 1}}\n",
	    ":1:14: param 'n': unknown field 'dflt' (default, env, description)");
	/* references and ids */
	ERR("boxes:\n  - {id: a, size: 1, needs: zz}\n",
	    ":2:29: box 'a': needs: no object with id 'zz'");
	ERR("boxes:\n  - {id: a, size: 1}\nlids:\n  - {id: l, on: l}\n",
	    ":4:17: lid 'l': on: refers to itself");
	ERR("boxes:\n  - {id: a, size: 1}\nlids:\n  - {id: l, on: a}\n  - {id: m, on: l}\n",
	    ":5:17: lid 'm': on: 'l' is a lid, not a box");
	ERR("boxes:\n  - {id: a, size: 1}\nsteps:\n  - poke: {box: a, after: [x]}\n",
	    ":4:28: step 1 (poke): after[0]: no object with id 'x' "
	    "(expected one of: a)");
	ERR("boxes:\n  - {id: a, size: 1, after: [s]}\nsteps:\n  - poke: {id: s}\n",
	    ":2:30: box 'a': after[0]: 's' is a step; objects are all created before steps run");
	ERR("steps:\n  - {}\n", ":2:5: step 1: empty step (give one step type, e.g. write:)");
	ERR("steps:\n  - poke: {}\n  - poke:\n      steps:\n        - poke: {}\n        - {}\n",
	    ":6:11: step 2.2: empty step (give one step type, e.g. write:)");
	ERR("steps:\n  - poke:\n      steps:\n        - poke: {bogus: 1}\n",
	    ":4:18: step 1.1 (poke): unknown field 'bogus' "
	    "(expected one of: id, after, box, steps)");
	ERR("steps:\n  - pokr: {}\n",
	    ":2:5: step 1: unknown step type 'pokr', did you mean 'poke'? "
	    "(expected one of: poke)");
	ERR("steps:\n  - poke: {box: 3, bogus: 1}\n",
	    ":2:20: step 1 (poke): unknown field 'bogus' "
	    "(expected one of: id, after, box, steps)");
	/* cycles, with the whole path */
	ERR("boxes:\n  - {id: a, size: 1, needs: b}\n  - {id: b, size: 1, after: [c]}\n"
	    "  - {id: c, size: 1, needs: a}\n",
	    ":2:29: box 'a': needs: dependency cycle: box 'a' -(needs)-> box 'b' "
	    "-(after)-> box 'c' -(needs)-> box 'a'");
	ERR("steps:\n  - poke: {id: x, after: [y]}\n  - poke: {id: y}\n",
	    ":2:26: step 'x': after: dependency cycle: step 'x' -(after)-> "
	    "step 'y' -(sequence)-> step 'x'");
}

/* Values from outside the file must be text the file could hold; the
 * file's own escapes of what libyaml will not read raw survive ${}. */
TEST(load, outside_values)
{
	const char *text = "params:\n  n: 1\n  e: {default: 1, env: RDMASCN_T_E}\n"
			   "boxes:\n  - {id: a, size: \"${n}\", inner: {x: \"${e}\"}}\n";
	struct rs_set del = { "n", "1\x7f" }, c1 = { "n", "\xc2\x9f" };
	struct rs_set bad = { "n", "1\xff" }, cut = { "n", "\xe2\x82" };
	struct rs_set ok = { "e", "2" };
	struct rs_scenario *s;

	add_kinds();
	CHECK_STR(try_load(text, &del, 1, NULL),
		  ":2:3: --set n=...: the value holds U+007F at byte 2, "
		  "which YAML does not allow");
	CHECK_STR(try_load(text, &c1, 1, NULL),
		  ":2:3: --set n=...: the value holds U+009F at byte 1, "
		  "which YAML does not allow");
	CHECK_STR(try_load(text, &bad, 1, NULL),
		  ":2:3: --set n=...: the value is not UTF-8 (byte 2 is 0xff)");
	CHECK_STR(try_load(text, &cut, 1, NULL),
		  ":2:3: --set n=...: the value is not UTF-8 (byte 1 is 0xe2)");
	setenv("RDMASCN_T_E", "\xef\xbf\xbf", 1);
	CHECK_STR(try_load(text, NULL, 0, NULL),
		  ":3:24: param 'e': environment variable RDMASCN_T_E: the "
		  "value holds U+FFFF at byte 1, which YAML does not allow");
	/* --set wins over the environment: its value is the one checked */
	CHECK_STR(try_load(text, &ok, 1, NULL), "");
	unsetenv("RDMASCN_T_E");
	/* C0 controls were always escaped, and still are */
	CHECK_STR(try_load("params: {i: a}\nboxes:\n  - {id: \"${i}\", size: 1}\n",
			   &(struct rs_set){ "i", "a\tb\x01" }, 1, &s), "");
	CHECK_STR(s->objs[0].id, "a\tb\x01");
	rs_scenario_free(s);
	CHECK_STR(try_load("params: {i: \"a\\x7fb\\x85c\\uFFFEd\\x9f\"}\n"
			   "boxes:\n  - {id: \"${i}\", size: 1}\n", NULL, 0, &s), "");
	CHECK_STR(s->objs[0].id, "a\x7f" "b\xc2\x85" "c\xef\xbf\xbe" "d\xc2\x9f");
	rs_scenario_free(s);
}

TEST(load, duplicate_names_first)
{
	add_kinds();
	ERR("boxes:\n  - {id: a, size: 1}\nlids:\n  - {id: a, on: a}\n",
	    ":4:10: lid 'a': id: 'a' already names a box (at 2:10)");
	ERR("boxes:\n  - {id: a, size: 1}\nsteps:\n  - poke: {id: a}\n",
	    ":4:16: step 'a': id: 'a' already names a box (at 2:10)");
}

/* One mistyped id is one error, however often it is used. */
TEST(load, missing_id_once)
{
	struct rs_scenario *s = NULL;
	struct rs_diag d;
	char *path = write_tmp("boxes:\n  - {id: a, size: 1, needs: x}\n"
			       "  - {id: b, size: 1, needs: x}\n"
			       "lids:\n  - {id: l, on: y}\n");

	add_kinds();
	rs_diag_init(&d, NULL);
	CHECK_INT(rs_scenario_load(path, NULL, 0, &d, &s), -EINVAL);
	CHECK_UINT(d.errors, 2); /* x once, y once */
	unlink(path);
}

/* The same file gives the same plan, byte for byte, however built. */
TEST(load, deterministic)
{
	const char *text = "boxes:\n  - {id: z, size: 1, needs: y}\n"
			   "  - {id: y, size: 1}\n  - {id: x, size: 1}\n"
			   "  - {id: w, size: 1, after: [z, x]}\n";
	struct rs_scenario *s1, *s2;

	add_kinds();
	CHECK_STR(try_load(text, NULL, 0, &s1), "");
	CHECK_STR(try_load(text, NULL, 0, &s2), "");
	for (unsigned i = 0; i < 4; i++)
		CHECK_STR(s1->create[i]->id, s2->create[i]->id);
	CHECK_STR(s1->create[0]->id, "y");
	CHECK_STR(s1->create[1]->id, "z");
	CHECK_STR(s1->create[2]->id, "x");
	CHECK_STR(s1->create[3]->id, "w");
	rs_scenario_free(s1);
	rs_scenario_free(s2);
}

/* Integer fields take decimal and 0x hex, from the file or from ${};
 * what libcyaml would cut short (2abc, 2.5, 0x, 010 read as octal) is
 * an error at the value (int_scalars.c). */
TEST(load, int_scalars)
{
	struct rs_scenario *s;

	add_kinds();
	CHECK_STR(try_load(
		"params: {n: 3}\n"
		"boxes:\n"
		"  - {id: a, size: 0x10, inner: {x: 0XfF}}\n"
		"  - {id: b, size: \"${n * 4}\"}\n"
		"  - {id: c, size: \"${0x20}\"}\n"
		"  - {id: d, size: 0}\n", NULL, 0, &s), "");
	CHECK_UINT(((struct box *)s->create[0]->data)->size, 16);
	CHECK_UINT(((struct box *)s->create[0]->data)->inner->x, 255);
	CHECK_UINT(((struct box *)s->create[1]->data)->size, 12);
	CHECK_UINT(((struct box *)s->create[2]->data)->size, 32);
	CHECK_UINT(((struct box *)s->create[3]->data)->size, 0);
	rs_scenario_free(s);
	ERR("boxes:\n  - {id: a, size: 2abc}\n",
	    ":2:19: box 'a': size: expected an integer, got '2abc'");
	ERR("boxes:\n  - {id: a, size: 1, inner: {x: 2.5}}\n",
	    ":2:33: box 'a': inner.x: expected an integer, got '2.5'");
	ERR("boxes:\n  - {id: a, size: 0x}\n",
	    ":2:19: box 'a': size: expected an integer, got '0x': no hex "
	    "digits after 0x");
	ERR("boxes:\n  - {id: a, size: 0x1g}\n",
	    ":2:19: box 'a': size: expected an integer, got '0x1g'");
	ERR("boxes:\n  - {id: a, size: 010}\n",
	    ":2:19: box 'a': size: expected an integer, got '010': a leading "
	    "0 is not octal here: write it in decimal or 0x hex");
	ERR("params: {n: 4x}\nboxes:\n  - {id: a, size: \"${n}\"}\n",
	    ":3:19: box 'a': size: expected an integer, got '4x'");
}

/* The registry is sealed once a scenario was loaded. */
TEST(load, sealed)
{
	add_kinds();
	CHECK_STR(try_load("boxes:\n  - {id: a, size: 1}\n", NULL, 0, NULL),
		  "");
	CHECK_INT(rs_registry_add(&lid_kind), -ENOSPC);
}

/* A `steps:` entry holds a pointer per step type: past RS_MAX_STEP_TYPES
 * a step type is refused, while object kinds still have room. */
TEST(load, step_types_max)
{
	static struct rdmascn_kind more[RS_MAX_STEP_TYPES];
	static char names[RS_MAX_STEP_TYPES][16];

	add_kinds();
	for (unsigned i = 0; i < RS_MAX_STEP_TYPES; i++) {
		snprintf(names[i], sizeof(names[i]), "poke%u", i);
		more[i] = poke_kind;
		more[i].name = more[i].section = names[i];
	}
	/* poke is one already. */
	for (unsigned i = 0; i + 1 < RS_MAX_STEP_TYPES; i++)
		CHECK_INT(rs_registry_add(&more[i]), 0);
	CHECK_UINT(rs_registry_count(true), RS_MAX_STEP_TYPES);
	CHECK_INT(rs_registry_add(&more[RS_MAX_STEP_TYPES - 1]), -ENOSPC);
	CHECK_STR(try_load("boxes:\n  - {id: a, size: 1}\n"
			   "steps:\n  - poke30: {box: a}\n", NULL, 0, NULL),
		  "");
}

/* A param's value may use other params, in any order, through --set
 * too; $${ stays literal. */
TEST(load, param_uses_param)
{
	struct rs_scenario *s;
	struct rs_set set = { "base", "100" };

	add_kinds();
	CHECK_STR(try_load(
		"params:\n"
		"  total: \"${half * 2 + 1}\"\n"
		"  half: {default: \"${base / 2}\"}\n"
		"  base: 10\n"
		"  lit: \"$${base}\"\n"
		"boxes:\n"
		"  - {id: \"b${lit}\", size: \"${total}\"}\n", &set, 1, &s), "");
	CHECK_UINT(((struct box *)s->create[0]->data)->size, 101);
	CHECK_STR(s->create[0]->id, "b${base}");
	CHECK_STR(s->params[0].value, "101");
	rs_scenario_free(s);
	CHECK_STR(try_load(
		"params: {a: 3, b: \"${a}${a}\"}\n"
		"boxes:\n"
		"  - {id: x, size: \"${b}\"}\n", NULL, 0, &s), "");
	CHECK_UINT(((struct box *)s->create[0]->data)->size, 33);
	rs_scenario_free(s);
}

/* A loop is an error at the ${ that closes it, with its path; so is
 * an unknown param in a default; never a literal ${b} further on. */
TEST(load, param_loop)
{
	add_kinds();
	ERR("params:\n  a: ${b}\n  b: ${a}\nboxes:\n  - {id: x, size: 1}\n",
	    ":3:6: params.b: params loop: a -> b -> a");
	ERR("params:\n  a: ${a}\nboxes:\n  - {id: x, size: 1}\n",
	    ":2:6: params.a: params loop: a -> a");
	ERR("params:\n  a: 1${c}\n  b: ${a}\n  c: x${b}\nboxes:\n"
	    "  - {id: x, size: 1}\n",
	    ":3:6: params.b: params loop: a -> c -> b -> a");
	ERR("params:\n  a: {default: \"${nosuch}\"}\nboxes:\n"
	    "  - {id: x, size: 1}\n",
	    ":2:16: params.a.default: unknown param 'nosuch' "
	    "(expected one of: a)");
}

/* A scenario loaded to be looked at (validate, plan) drops its file's
 * text once filled, the same objects and locations otherwise; a matrix
 * keeps it, its cells load from it; rs_scenario_load() always keeps it. */
TEST(load, look_drops_text)
{
	static const char text[] =
		"boxes:\n"
		"  - {id: b1, size: 1}\n"
		"  - {id: b2, size: 2, needs: b1}\n"
		"steps:\n"
		"  - poke: {box: b2}\n";
	static const char matrix[] =
		"params: {n: 1}\n"
		"matrix: {n: [1, 2]}\n"
		"boxes:\n"
		"  - {id: b1, size: \"${n}\"}\n";
	struct rs_scenario *s, *l;
	struct rs_diag d;
	char *path;

	add_kinds();
	rs_diag_init(&d, NULL);
	path = write_tmp(text);
	CHECK_INT(rs_scenario_look(path, NULL, 0, &d, &l), 0);
	CHECK_INT(rs_scenario_load(path, NULL, 0, &d, &s), 0);
	CHECK_PTR(l->doc.text, NULL);
	CHECK(s->doc.text && !strcmp(s->doc.text, text));
	CHECK_UINT(l->n_objects, s->n_objects);
	CHECK_UINT(l->n_steps, 1);
	CHECK_STR(l->create[1]->id, "b2");
	CHECK_UINT(rs_obj_loc(l->create[1], "needs")->line, 3);
	CHECK_UINT(rs_obj_loc(l->create[1], "needs")->col, 30);
	CHECK_UINT(rs_obj_loc(l->steps[0], NULL)->line, 5);
	CHECK_UINT(rs_obj_loc(l->steps[0], NULL)->col, 5);   /* poke: */
	CHECK_STR(rs_obj_loc(l->steps[0], NULL)->file, path);
	rs_scenario_free(l);
	rs_scenario_free(s);
	path = write_tmp(matrix);
	CHECK_INT(rs_scenario_look(path, NULL, 0, &d, &l), 0);
	CHECK(l->doc.text && !strcmp(l->doc.text, matrix));
	rs_scenario_free(l);
	unlink(path);
	CHECK_UINT(d.errors, 0);
}

/* The steps: list as filled holds a pointer for each step type in each
 * entry (256 bytes), read only to make the step objects: a long one is
 * freed before the checks (2.5 MB, a chunk of its own), a short one
 * stays in the arena; the steps, their data and their places are the
 * same. */
TEST(load, steps_entries_freed)
{
	enum { N = 10000 };
	size_t len = 0, cap = 64 + N * 32;
	char *text = malloc(cap);
	struct rs_scenario *s;
	struct rs_diag d;
	char *path;

	add_kinds();
	rs_diag_init(&d, NULL);
	CHECK(text);
	len += snprintf(text + len, cap - len,
			"boxes:\n  - {id: b1, size: 1}\nsteps:\n");
	for (unsigned i = 0; i < N; i++)
		len += snprintf(text + len, cap - len,
				"  - poke: {box: b1}\n");
	path = write_tmp(text);
	CHECK_INT(rs_scenario_look(path, NULL, 0, &d, &s), 0);
	CHECK(s->top_in_doc);
	CHECK_PTR(s->top->steps, NULL);
	CHECK_UINT(s->n_steps, N);
	CHECK_STR(s->steps[N - 1]->kind->name, "poke");
	CHECK_UINT(rs_obj_loc(s->steps[N - 1], "box")->line, N + 3);
	CHECK_UINT(rs_obj_loc(s->steps[N - 1], "box")->col, 17);
	CHECK_STR(((struct poke *)s->steps[N - 1]->data)->box, "b1");
	rs_scenario_free(s);
	/* Ten entries: 2.5 KiB inside a chunk, kept. */
	text[strlen("boxes:\n  - {id: b1, size: 1}\nsteps:\n") +
	     10 * strlen("  - poke: {box: b1}\n")] = '\0';
	path = write_tmp(text);
	CHECK_INT(rs_scenario_look(path, NULL, 0, &d, &s), 0);
	CHECK(s->top->steps);
	CHECK_UINT(s->n_steps, 10);
	rs_scenario_free(s);
	unlink(path);
	free(text);
	CHECK_UINT(d.errors, 0);
}
