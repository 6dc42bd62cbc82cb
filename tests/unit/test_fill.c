// SPDX-License-Identifier: MIT
/* rs_fill(): the structs libcyaml fills, filled from the DOM with the same
 * schema; whatever libcyaml refuses is left to it (-EAGAIN). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cyaml/cyaml.h>
#include <yaml.h>

#include "alloc.h"
#include "check.h"
#include "diag.h"
#include "dom.h"
#include "fill.h"
#include "list.h"

struct t_inner {
	uint16_t a;
	char *s;
};

struct t_top {
	int8_t i8;
	int64_t i64;
	uint8_t u8;
	uint32_t u32;
	uint64_t u64;
	uint64_t *uptr;
	int e;
	int lax;
	uint32_t flags;
	uint16_t numflags;
	bool b;
	float f;
	double *d;
	char *str;
	char fixed[8];
	char **list;
	unsigned list_count;
	struct t_inner *inner;
	struct t_inner *many;
	uint8_t many_count;
	struct t_inner plain;
	unsigned req;
};

static const cyaml_strval_t names[] = {
	{ "zero", 0 }, { "one", 1 }, { "big", 70000 },
};

static const cyaml_strval_t bits[] = {
	{ "x", 1 }, { "y", 2 }, { "z", 0x80 },
};

static const cyaml_schema_value_t str_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 1, 5),
};

static const cyaml_schema_field_t inner_fields[] = {
	CYAML_FIELD_UINT("a", CYAML_FLAG_OPTIONAL, struct t_inner, a),
	CYAML_FIELD_STRING_PTR("s", CYAML_FLAG_POINTER, struct t_inner, s, 0,
			       CYAML_UNLIMITED),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t inner_value = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct t_inner, inner_fields),
};

static const cyaml_schema_field_t top_fields[] = {
	CYAML_FIELD_INT("i8", CYAML_FLAG_OPTIONAL, struct t_top, i8),
	CYAML_FIELD_INT("i64", CYAML_FLAG_OPTIONAL, struct t_top, i64),
	CYAML_FIELD_UINT("u8", CYAML_FLAG_OPTIONAL, struct t_top, u8),
	CYAML_FIELD_UINT("u32", CYAML_FLAG_OPTIONAL, struct t_top, u32),
	CYAML_FIELD_UINT("u64", CYAML_FLAG_OPTIONAL, struct t_top, u64),
	CYAML_FIELD_UINT_PTR("uptr", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct t_top, uptr),
	CYAML_FIELD_ENUM("e", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			 struct t_top, e, names, CYAML_ARRAY_LEN(names)),
	CYAML_FIELD_ENUM("lax", CYAML_FLAG_OPTIONAL, struct t_top, lax,
			 names, CYAML_ARRAY_LEN(names)),
	CYAML_FIELD_FLAGS("flags", CYAML_FLAG_OPTIONAL | CYAML_FLAG_STRICT,
			  struct t_top, flags, bits, CYAML_ARRAY_LEN(bits)),
	CYAML_FIELD_FLAGS("numflags", CYAML_FLAG_OPTIONAL, struct t_top,
			  numflags, bits, CYAML_ARRAY_LEN(bits)),
	CYAML_FIELD_BOOL("b", CYAML_FLAG_OPTIONAL, struct t_top, b),
	CYAML_FIELD_FLOAT("f", CYAML_FLAG_OPTIONAL, struct t_top, f),
	CYAML_FIELD_FLOAT_PTR("d", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			      struct t_top, d),
	CYAML_FIELD_STRING_PTR("str", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			       struct t_top, str, 0, CYAML_UNLIMITED),
	CYAML_FIELD_STRING("fixed", CYAML_FLAG_OPTIONAL, struct t_top, fixed,
			   0),
	CYAML_FIELD_SEQUENCE("list", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct t_top, list, &str_entry, 0, 3),
	CYAML_FIELD_MAPPING_PTR("inner", CYAML_FLAG_POINTER |
				CYAML_FLAG_OPTIONAL, struct t_top, inner,
				inner_fields),
	CYAML_FIELD_SEQUENCE("many", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct t_top, many, &inner_value, 1,
			     CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING("plain", CYAML_FLAG_OPTIONAL, struct t_top, plain,
			    inner_fields),
	CYAML_FIELD_IGNORE("skip", CYAML_FLAG_OPTIONAL),
	CYAML_FIELD_UINT("req", CYAML_FLAG_DEFAULT, struct t_top, req),
	CYAML_FIELD_END
};

static const cyaml_schema_value_t top_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER, struct t_top, top_fields),
};

static const cyaml_config_t cfg = {
	.log_level = CYAML_LOG_ERROR,
	.log_fn = NULL,
	.mem_fn = cyaml_mem,
	.flags = CYAML_CFG_NO_ALIAS,
};

/* @yaml through both: libcyaml's result in *@ret_ref, rs_fill()'s return
 * value returned, its struct in *@ret. */
static int both(const char *yaml, struct rs_doc *doc, struct t_top **ret_ref,
		struct t_top **ret, cyaml_err_t *ret_ce)
{
	struct rs_diag d;

	*ret_ref = NULL;
	*ret = NULL;
	*ret_ce = cyaml_load_data((const uint8_t *)yaml, strlen(yaml), &cfg,
				  &top_schema, (cyaml_data_t **)ret_ref, NULL);
	rs_diag_init(&d, stderr);
	CHECK_INT(rs_doc_parse(doc, "t.yaml", rs_strdup(yaml), strlen(yaml),
			       &d), 0);
	return rs_fill(doc, doc->root, &top_schema, (void **)ret);
}

static void same_inner(const struct t_inner *a, const struct t_inner *b)
{
	CHECK_UINT(a->a, b->a);
	CHECK_STR(a->s, b->s);
}

TEST(fill, same_as_libcyaml)
{
	static const char yaml[] =
		"i8: -128\ni64: -0x7fffffffffffffff\nu8: 255\nu32: 0x10\n"
		"u64: 18446744073709551615\nuptr: 7\ne: big\nlax: 42\n"
		"flags: [x, z]\nnumflags: [y, 8]\nb: Off\nf: 1.5\nd: -2e300\n"
		"str: \"a \\\"quoted\\\" one\"\nfixed: short\n"
		"list: [a, bb, ccc]\ninner: {a: 3, s: in}\n"
		"many: [{s: m0}, {a: 9, s: ''}]\nplain: {s: p}\n"
		"skip: {anything: [at, all]}\nreq: 1\n";
	struct t_top *ref, *got;
	struct rs_doc doc;
	cyaml_err_t ce;

	CHECK_INT(both(yaml, &doc, &ref, &got, &ce), 0);
	CHECK_INT(ce, CYAML_OK);
	CHECK_INT(got->i8, ref->i8);
	CHECK_INT(got->i8, -128);
	CHECK(got->i64 == ref->i64);
	CHECK_UINT(got->u8, ref->u8);
	CHECK_UINT(got->u32, ref->u32);
	CHECK_UINT(got->u64, ref->u64);
	CHECK(got->uptr && ref->uptr);
	CHECK_UINT(*got->uptr, *ref->uptr);
	CHECK_INT(got->e, ref->e);
	CHECK_INT(got->e, 70000);
	CHECK_INT(got->lax, ref->lax);
	CHECK_INT(got->lax, 42);
	CHECK_UINT(got->flags, ref->flags);
	CHECK_UINT(got->flags, 0x81);
	CHECK_UINT(got->numflags, ref->numflags);
	CHECK_UINT(got->numflags, 10);
	CHECK_INT(got->b, ref->b);
	CHECK(!got->b);
	CHECK(got->f == ref->f);
	CHECK(got->d && *got->d == *ref->d);
	CHECK_STR(got->str, ref->str);
	CHECK_STR(got->fixed, ref->fixed);
	CHECK_UINT(got->list_count, ref->list_count);
	CHECK_UINT(got->list_count, 3);
	for (unsigned i = 0; i < 3; i++)
		CHECK_STR(got->list[i], ref->list[i]);
	CHECK(got->inner && ref->inner);
	same_inner(got->inner, ref->inner);
	CHECK_UINT(got->many_count, ref->many_count);
	CHECK_UINT(got->many_count, 2);
	same_inner(&got->many[0], &ref->many[0]);
	same_inner(&got->many[1], &ref->many[1]);
	same_inner(&got->plain, &ref->plain);
	CHECK_UINT(got->req, ref->req);
	cyaml_free(&cfg, &top_schema, ref, 0);
	rs_doc_free(&doc);

	/* Absent optional fields stay zero and NULL, as in libcyaml's. */
	CHECK_INT(both("req: 2\nlist: []\n", &doc, &ref, &got, &ce), 0);
	CHECK_INT(ce, CYAML_OK);
	CHECK(!got->list && !ref->list);
	CHECK_UINT(got->list_count, 0);
	CHECK(!got->inner && !got->uptr && !got->str && !got->many);
	CHECK_UINT(got->req, 2);
	cyaml_free(&cfg, &top_schema, ref, 0);
	rs_doc_free(&doc);
}

/* Each of these libcyaml refuses, with a message of its own: rs_fill()
 * leaves it to libcyaml. */
TEST(fill, refused_is_libcyamls)
{
	static const char *const bad[] = {
		"req: 1\nnope: 2\n",            /* unknown key */
		"u8: 1\n",                      /* missing required field */
		"req: 1\nu8: 256\n",            /* out of range */
		"req: 1\ni8: -129\n",
		"req: 1\nu32: -1x\n",           /* not a number at all */
		"req: 1\ne: two\n",             /* strict enum */
		"req: 1\nflags: [x, w]\n",      /* strict flags */
		"req: 1\nflags: [[x]]\n",
		"req: 1\nlist: [a, b, c, d]\n", /* more than max */
		"req: 1\nmany: []\n",           /* fewer than min */
		"req: 1\nlist: [toolong]\n",    /* string longer than max */
		"req: 1\nlist: ['']\n",         /* shorter than min */
		"req: 1\ninner: 3\n",           /* a scalar for a mapping */
		"req: 1\nlist: {a: b}\n",       /* a mapping for a sequence */
		"req: 1\nstr: [a]\n",           /* a sequence for a scalar */
		"req: 1\nf: x\n",
		"req: [1]\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct t_top *ref, *got;
		struct rs_doc doc;
		cyaml_err_t ce;

		fprintf(stderr, "%s", bad[i]);
		CHECK_INT(both(bad[i], &doc, &ref, &got, &ce), -EAGAIN);
		CHECK(ce != CYAML_OK);
		CHECK(!got);
		rs_doc_free(&doc);
	}
}

/* Integers libcyaml reads its own way (2abc as 2, 010 as 8, -1 of a u64
 * as its largest): rs_fill() refuses them, so that the loader's
 * int_scalars.c walk, which runs only then, reports each. */
TEST(fill, int_syntax_refused)
{
	static const char *const odd[] = {
		"req: 1\nu32: 2abc\n",
		"req: 1\nu32: 010\n",
		"req: 1\ni64: 2.5\n",
		"req: 1\nu64: -1\n",
		"req: 1\ninner: {a: 07, s: x}\n",
		"req: 0x\n",
	};

	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		struct t_top *ref, *got;
		struct rs_doc doc;
		cyaml_err_t ce;

		fprintf(stderr, "%s", odd[i]);
		CHECK_INT(both(odd[i], &doc, &ref, &got, &ce), -EAGAIN);
		CHECK(!got);
		/* libcyaml takes every one ("0x" as 0). */
		CHECK_INT(ce, CYAML_OK);
		cyaml_free(&cfg, &top_schema, ref, 0);
		rs_doc_free(&doc);
	}
	CHECK(!rs_int_syntax("0x1F") && !rs_int_syntax("-12") &&
	      !rs_int_syntax("0"));
	CHECK(rs_int_syntax("012") && rs_int_syntax("1e3") &&
	      rs_int_syntax("0x"));
}

/* The DOM keeps one copy of a short text that repeats (dom.c's intern()):
 * what fill.c hands on as strings is shared, and still right. */
TEST(fill, dom_shares_texts)
{
	static const char yaml[] = "a: {x: rc, y: \"n\\0l\"}\n"
				   "b: {x: rc, y: n}\n";
	struct rs_node *a, *b;
	struct rs_doc doc;
	struct rs_diag d;

	rs_diag_init(&d, stderr);
	CHECK_INT(rs_doc_parse(&doc, "t.yaml", rs_strdup(yaml), strlen(yaml),
			       &d), 0);
	a = rs_node_get(doc.root, "a");
	b = rs_node_get(doc.root, "b");
	CHECK(a && b);
	CHECK_PTR(a->items[0].value, b->items[0].value); /* the key x */
	CHECK_PTR(rs_node_get(a, "x")->value, rs_node_get(b, "x")->value);
	CHECK_STR(rs_node_get(b, "x")->value, "rc");
	/* A text cut at its \0 is not another's "n". */
	CHECK(rs_node_nul(rs_node_get(a, "y")));
	CHECK_STR(rs_node_get(a, "y")->value, "n");
	CHECK(rs_node_get(a, "y")->value != rs_node_get(b, "y")->value);
	rs_doc_free(&doc);
}

/* A text that repeats is shared even when it first comes after more
 * unique ones than the cache has slots (a generated file's "4096" after
 * 25000 CQ ids): a slot goes to the latest text, not the first. */
TEST(fill, dom_shares_late_texts)
{
	const unsigned n = 20000;
	size_t cap = n * 16 + 64, len = 0;
	char *yaml = rs_malloc(cap);
	struct rs_node *ids, *a, *b;
	struct rs_doc doc;
	struct rs_diag d;

	CHECK(yaml);
	len += (size_t)snprintf(yaml + len, cap - len, "ids: [");
	for (unsigned i = 0; i < n; i++)
		len += (size_t)snprintf(yaml + len, cap - len, "%su%u",
					i ? ", " : "", i);
	len += (size_t)snprintf(yaml + len, cap - len,
				"]\na: {len: 4096}\nb: {len: 4096}\n");
	rs_diag_init(&d, stderr);
	CHECK_INT(rs_doc_parse(&doc, "t.yaml", yaml, len, &d), 0);
	ids = rs_node_get(doc.root, "ids");
	a = rs_node_get(doc.root, "a");
	b = rs_node_get(doc.root, "b");
	CHECK(ids && a && b && ids->n == n);
	CHECK_STR(ids->items[0].value, "u0");
	CHECK_STR(ids->items[n - 1].value, "u19999");
	CHECK_STR(rs_node_get(b, "len")->value, "4096");
	CHECK_PTR(rs_node_get(a, "len")->value, rs_node_get(b, "len")->value);
	rs_doc_free(&doc);
}

/* A scalar's text and a collection's items share their place in a node:
 * rs_node_text() is NULL for a mapping or a sequence, even a non-empty
 * one, whose value field holds its items. */
TEST(fill, node_text_by_type)
{
	static const char yaml[] = "m: {k: v}\ns: [1, 2]\ne: []\nt: x\n";
	struct rs_doc doc;
	struct rs_diag d;
	struct rs_node *m, *s;

	rs_diag_init(&d, stderr);
	CHECK_INT(rs_doc_parse(&doc, "t.yaml", rs_strdup(yaml), strlen(yaml),
			       &d), 0);
	m = rs_node_get(doc.root, "m");
	s = rs_node_get(doc.root, "s");
	CHECK(m && s && m->n == 2 && s->n == 2);
	CHECK_PTR(rs_node_text(m), NULL);
	CHECK_PTR(rs_node_text(s), NULL);
	CHECK_PTR(rs_node_text(rs_node_get(doc.root, "e")), NULL);
	CHECK_PTR(rs_node_text(NULL), NULL);
	CHECK_STR(rs_node_text(rs_node_get(doc.root, "t")), "x");
	CHECK_STR(rs_node_text(&s->items[1]), "2");
	CHECK_STR(rs_node_text(rs_node_get(m, "k")), "v");
	CHECK(sizeof(struct rs_node) <= 24);
	rs_doc_free(&doc);
}

/* Compare every node's rs_node_loc() with the start mark libyaml gives
 * its event, in document order (the DOM's pre-order), and its end with
 * the end mark of its scalar or closing event (@ends; a scalar's only
 * while the document keeps them, an empty one's always). */
static unsigned locs_match(const struct rs_node *n, const yaml_mark_t *marks,
			   const size_t *ends, bool scalar_ends, unsigned i,
			   unsigned *bad)
{
	struct rs_loc at;

	rs_node_loc_to(n, &at);
	if (at.line != marks[i].line + 1 || at.col != marks[i].column + 1) {
		if (!(*bad)++)
			fprintf(stderr, "node %u: %u:%u, libyaml %zu:%zu\n",
				i, at.line, at.col, marks[i].line + 1,
				marks[i].column + 1);
	}
	if ((n->type != RS_NODE_SCALAR || scalar_ends ||
	     ends[i] == n->start) && rs_node_end(n) != ends[i] && !(*bad)++)
		fprintf(stderr, "node %u: ends at %u, libyaml %zu\n", i,
			rs_node_end(n), ends[i]);
	if (rs_node_empty(n) != (n->type == RS_NODE_SCALAR &&
				 ends[i] == n->start) && !(*bad)++)
		fprintf(stderr, "node %u: empty or not\n", i);
	i++;
	if (n->type != RS_NODE_SCALAR)
		for (unsigned k = 0; k < n->n; k++) {
			/* The key, found from the root, is the item before. */
			const struct rs_node *key = n->type == RS_NODE_MAP &&
				k % 2 ? &n->items[k - 1] : NULL;

			if (rs_node_key(&n->items[k]) != key && !(*bad)++)
				fprintf(stderr, "node %u: item %u: not its "
					"key\n", i, k);
			i = locs_match(&n->items[k], marks, ends, scalar_ends,
				       i, bad);
		}
	return i;
}

static void check_locs(const char *file, const char *yaml, size_t len)
{
	size_t cap = 1024, n = 0, open[64], depth = 0;
	yaml_mark_t *marks = rs_malloc(cap * sizeof(*marks));
	size_t *ends = rs_malloc(cap * sizeof(*ends));
	unsigned bad = 0;
	yaml_parser_t p;
	yaml_event_t ev;
	struct rs_doc doc;
	struct rs_diag d;
	struct rs_loc at;

	CHECK(marks && ends && yaml_parser_initialize(&p));
	yaml_parser_set_input_string(&p, (const unsigned char *)yaml, len);
	do {
		CHECK(yaml_parser_parse(&p, &ev));
		if (ev.type == YAML_SCALAR_EVENT ||
		    ev.type == YAML_SEQUENCE_START_EVENT ||
		    ev.type == YAML_MAPPING_START_EVENT) {
			if (n == cap) {
				marks = rs_reallocarray(marks, cap * 2,
							sizeof(*marks));
				ends = rs_reallocarray(ends, cap *= 2,
						       sizeof(*ends));
			}
			CHECK(marks && ends);
			ends[n] = ev.end_mark.index;
			if (ev.type != YAML_SCALAR_EVENT) {
				CHECK(depth < 64);
				open[depth++] = n;
			}
			marks[n++] = ev.start_mark;
		} else if (ev.type == YAML_SEQUENCE_END_EVENT ||
			   ev.type == YAML_MAPPING_END_EVENT) {
			ends[open[--depth]] = ev.end_mark.index;
		}
	} while (ev.type != YAML_STREAM_END_EVENT &&
		 (yaml_event_delete(&ev), 1));
	yaml_event_delete(&ev);
	yaml_parser_delete(&p);

	rs_diag_init(&d, stderr);
	CHECK_INT(rs_doc_parse(&doc, file, rs_strndup(yaml, len), len, &d), 0);
	CHECK_UINT(locs_match(doc.root, marks, ends, true, 0, &bad), n);
	CHECK_UINT(bad, 0);
	/* Once the text goes: the collections' and the empty ones'. */
	rs_doc_ends_free(&doc);
	CHECK_UINT(locs_match(doc.root, marks, ends, false, 0, &bad), n);
	CHECK_UINT(bad, 0);
	CHECK_STR(rs_node_loc_to(doc.root, &at)->file, file);
	CHECK_STR(rs_node_file(doc.root), file);
	CHECK_PTR(rs_node_loc(NULL), NULL);
	CHECK_PTR(rs_node_key(doc.root), NULL);
	rs_doc_free(&doc);
	rs_free(marks);
	rs_free(ends);
}

/* A node holds no line, column, file, key nor end (issue 33: 16 bytes,
 * not 48): they are worked out from its start and the document's root,
 * and must be libyaml's marks, byte for byte, wherever messages point,
 * the key (rs_node_key()) the item before it in its mapping, and the end
 * (rs_node_end()) libyaml's end mark, a scalar's while the document
 * keeps it, a collection's and an empty value's always.  Blank and
 * comment lines, CRLF, a lone CR, tabs, multi-byte UTF-8 before a node,
 * empty values (block and flow), flow collections over lines, block
 * scalars, and a tree over several of the arena's chunks. */
TEST(fill, node_loc_is_libyamls)
{
	static const char yaml[] =
		"# a comment\n"
		"\n"
		"a: 1\r\n"
		"b:\n"
		"c:   \"q\"  # x\n"
		"d:\tno\n"
		"e: {x: [1,\n"
		"\n"
		"      2], y: \"\xc3\xa9t\xc3\xa9\", z: zz}\n"
		"\xc3\xa9\xc3\xa9: v\rw: 2\n"
		"f: |\n"
		"  text\n"
		"  more\n"
		"g:\n"
		"  - - k: v\n"
		"      l:\n"
		"    - \xe2\x82\xac: [a, b]\n"
		"h: {p: , q: , r: {s: }}\n"
		"i:\n"
		"  -\n"
		"  - j:\n"
		"    k:\n"
		"last:";
	const size_t n = 200000;
	char *big = rs_malloc(n * 16 + 1);
	size_t len = 0;

	check_locs("t.yaml", "x: 1\n", 5);
	check_locs("t.yaml", "a", 1);
	check_locs("u.yaml", yaml, strlen(yaml));
	CHECK(big);
	/* 600k nodes (14 MB) need several chunks, and the root's 200k
	 * items are one array of 4.8 MB in a chunk of its own: a node past
	 * its first huge page must still find its document. */
	for (size_t i = 0; i < n; i++)
		len += sprintf(big + len, "- {k: %zu}\n", i % 100000);
	check_locs("big.yaml", big, len);
	rs_free(big);
}
