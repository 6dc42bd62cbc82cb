// SPDX-License-Identifier: MIT
/*
 * Counted entries (scenario/count.c) on kinds of its own: elements and
 * their ids, pairing by bare id, sharing an uncounted object, steps run
 * once per element, lists and after:, the errors, and a big count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "dot.h"
#include "list.h"
#include "model.h"
#include "registry.h"
#include "schema.h"

struct cell {
	char *id;
	char *needs;
	char **after;
	unsigned after_count;
};
static const cyaml_schema_field_t cell_fields[] = {
	RS_FIELD_ID(struct cell),
	RS_FIELD_OPT_REF("needs", struct cell, needs),
	RS_FIELD_AFTER(struct cell),
	CYAML_FIELD_END
};
static const struct rdmascn_ref cell_refs[] = {
	RS_REF("needs", struct cell, needs, "cell"),
	RS_REF_AFTER(struct cell),
	RS_REF_END
};
static const struct rdmascn_kind cell_kind = {
	.name = "cell", .section = "cells", .fields = cell_fields,
	.size = sizeof(struct cell), .id_offset = offsetof(struct cell, id),
	.refs = cell_refs,
};

struct tap {
	struct rs_step_common common;
	char *cell;
	char **cells;
	unsigned cells_count;
	struct rs_step_entry *steps;
	unsigned steps_count;
};
static const cyaml_schema_field_t tap_fields[] = {
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			       struct tap, common.id, 1, RS_ID_MAX),
	RS_FIELD_OPT_REF("cell", struct tap, cell),
	RS_FIELD_REFS("cells", struct tap, cells),
	CYAML_FIELD_SEQUENCE("steps", CYAML_FLAG_POINTER | CYAML_FLAG_OPTIONAL,
			     struct tap, steps, &rs_step_entry_schema, 1,
			     CYAML_UNLIMITED),
	CYAML_FIELD_END
};
static const struct rdmascn_ref tap_refs[] = {
	RS_REF("cell", struct tap, cell, "cell"),
	RS_REF_LIST("cells", struct tap, cells, "cell"),
	RS_REF_END
};
static const struct rdmascn_kind tap_kind = {
	.name = "tap", .section = "tap", .fields = tap_fields,
	.size = sizeof(struct tap), .step = true,
	.id_offset = offsetof(struct tap, common.id), .refs = tap_refs,
	.children_offset = offsetof(struct tap, steps),
	.children_count_offset = offsetof(struct tap, steps_count),
};

static void add_kinds(void)
{
	CHECK_INT(rs_registry_add(&cell_kind), 0);
	CHECK_INT(rs_registry_add(&tap_kind), 0);
}

/* @text loaded: "" and *@ret, or the first error without the file name. */
static const char *load(const char *text, const struct rs_set *sets,
			unsigned n_sets, struct rs_scenario **ret)
{
	static char out[1024];
	static char path[64];
	struct rs_scenario *s = NULL;
	struct rs_diag d;
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "/tmp/rdmascn-test-count.%d.yaml",
		 getpid());
	f = fopen(path, "w");
	CHECK(f);
	fputs(text, f);
	fclose(f);
	rs_diag_init(&d, NULL);
	r = rs_scenario_load(path, sets, n_sets, &d, &s);
	unlink(path);
	if (!r) {
		CHECK_UINT(d.errors, 0);
		if (ret)
			*ret = s;
		else
			rs_scenario_free(s);
		return "";
	}
	CHECK_INT(r, -EINVAL);
	CHECK_UINT(d.errors, 1);
	snprintf(out, sizeof(out), "%s", d.first + strlen(path));
	return out;
}

static const struct rs_obj *by_id(const struct rs_scenario *s,
				  const char *id)
{
	for (unsigned i = 0; i < s->n_objs; i++)
		if (s->objs[i].id && !strcmp(s->objs[i].id, id))
			return &s->objs[i];
	CHECK(!id);
	return NULL;
}

static const struct rs_obj *edge(const struct rs_obj *o, const char *field,
				 unsigned nth)
{
	for (unsigned e = 0; e < o->n_edges; e++)
		if (!strcmp(rs_edge_field(o, &o->edges[e]), field) && !nth--)
			return o->edges[e].to;
	return NULL;
}

/* count: N makes N elements at the entry; a bare id pairs them. */
TEST(count, elements_pair)
{
	struct rs_scenario *s;
	const struct rs_obj *a1, *b2;

	add_kinds();
	CHECK_STR(load("cells:\n"
		       "  - {id: a, count: 3}\n"
		       "  - {id: b, needs: a}\n"
		       "  - {id: c, count: 3, needs: a}\n", NULL, 0, &s), "");
	CHECK_UINT(s->n_objects, 9);
	a1 = by_id(s, "a[1]");
	CHECK_STR(a1->name, "cell 'a[1]'");
	CHECK_STR(rs_obj_group(a1), "a");
	CHECK_UINT(rs_obj_elem(a1), 1);
	CHECK_UINT(rs_obj_count(a1), 3);
	CHECK_UINT(rs_obj_loc(a1, NULL)->line, 2);
	CHECK(rs_obj_first(a1) == by_id(s, "a[0]"));
	/* no reference of a's differs: one data for all */
	CHECK(by_id(s, "a[0]")->data == by_id(s, "a[2]")->data);
	/* b took a's count; b[i] needs a[i], in a copy of its own */
	b2 = by_id(s, "b[2]");
	CHECK_UINT(rs_obj_count(b2), 3);
	CHECK(edge(b2, "needs", 0) == by_id(s, "a[2]"));
	CHECK_STR(((struct cell *)b2->data)->needs, "a[2]");
	CHECK_STR(((struct cell *)by_id(s, "b[0]")->data)->needs, "a[0]");
	CHECK(edge(by_id(s, "c[1]"), "needs", 0) == a1);
	CHECK_UINT(rs_obj_loc(b2, "needs")->line, 3);
	/* creation: a before what needs it; teardown the reverse */
	CHECK(s->create[0] == by_id(s, "a[0]"));
	rs_scenario_free(s);
}

/* A counted entry naming an uncounted object shares it; "a[1]" names
 * one element from any entry. */
TEST(count, shared_and_one)
{
	struct rs_scenario *s;

	add_kinds();
	CHECK_STR(load("cells:\n"
		       "  - {id: p}\n"
		       "  - {id: m, count: 4, needs: p}\n"
		       "  - {id: x, needs: \"m[3]\"}\n"
		       "  - {id: y, count: 2, needs: \"m[1]\"}\n",
		       NULL, 0, &s), "");
	CHECK_UINT(s->n_objects, 1 + 4 + 1 + 2);
	for (unsigned i = 0; i < 4; i++) {
		char id[8];

		snprintf(id, sizeof(id), "m[%u]", i);
		CHECK(edge(by_id(s, id), "needs", 0) == by_id(s, "p"));
		CHECK(by_id(s, id)->data == by_id(s, "m[0]")->data);
	}
	CHECK(edge(by_id(s, "x"), "needs", 0) == by_id(s, "m[3]"));
	CHECK_UINT(rs_obj_count(by_id(s, "x")), 0);
	CHECK(edge(by_id(s, "y[1]"), "needs", 0) == by_id(s, "m[1]"));
	rs_scenario_free(s);
}

/* A step naming a counted entry runs once per element, in order; a list
 * names every element; after: pairs, or waits for all. */
TEST(count, steps_lists_after)
{
	struct rs_scenario *s;
	const struct tap *t;

	add_kinds();
	CHECK_STR(load("cells:\n"
		       "  - {id: a, count: 3}\n"
		       "  - {id: b, count: 3, after: [a]}\n"
		       "  - {id: z, after: [a]}\n"
		       "steps:\n"
		       "  - tap: {cell: a}\n"
		       "  - tap: {id: one, cell: \"a[2]\"}\n"
		       "  - tap: {id: all, cells: [z, a]}\n", NULL, 0, &s), "");
	CHECK_UINT(s->n_steps, 3 + 1 + 1);
	CHECK_STR(s->steps[0]->name, "step 1[0] (tap)");
	CHECK_STR(s->steps[2]->name, "step 1[2] (tap)");
	CHECK_STR(s->steps[2]->no, "1[2]");
	CHECK(edge(s->steps[1], "cell", 0) == by_id(s, "a[1]"));
	CHECK(edge(s->steps[1], "sequence", 0) == s->steps[0]);
	/* The field a byte (the ref's index, or steps/sequence): an edge
	 * is two words. */
	CHECK_UINT(sizeof(struct rs_edge), 16);
	/* for: is read from the entry's data, and the rarer facts are in
	 * a block of their own: a's elements share one, z has none. */
	CHECK_UINT(sizeof(struct rs_obj), 88);
	CHECK(by_id(s, "a[0]")->more && !by_id(s, "z")->more);
	CHECK(by_id(s, "a[0]")->more == by_id(s, "a[2]")->more);
	CHECK(by_id(s, "a[0]")->more != by_id(s, "b[0]")->more);
	CHECK_UINT(rs_obj_elem(by_id(s, "b[2]")), 2);
	CHECK_UINT(rs_obj_count(by_id(s, "b[2]")), 3);
	CHECK_STR(rs_obj_group(by_id(s, "b[2]")), "b");
	CHECK_UINT(rs_obj_elem(s->steps[2]), 2);
	CHECK(!rs_obj_group(by_id(s, "z")) && !rs_obj_count(by_id(s, "z")));
	CHECK_UINT(s->steps[1]->edges[s->steps[1]->n_edges - 1].field,
		   RS_EDGE_SEQUENCE);
	CHECK_STR(s->steps[3]->name, "step 'one'");
	t = s->steps[4]->data;
	CHECK_UINT(t->cells_count, 4);
	CHECK_STR(t->cells[0], "z");
	CHECK_STR(t->cells[3], "a[2]");
	CHECK(edge(s->steps[4], "cells", 3) == by_id(s, "a[2]"));
	CHECK(edge(by_id(s, "b[1]"), "after", 0) == by_id(s, "a[1]"));
	CHECK(!edge(by_id(s, "b[1]"), "after", 1));
	CHECK(edge(by_id(s, "z"), "after", 2) == by_id(s, "a[2]"));
	rs_scenario_free(s);
}

/* Elements' ids and names, written from the entry's id and the digits
 * (name_elements(), rs_obj_names()): across the digits' widths, at the
 * longest id, for a step's elements, and paired references' copies. */
TEST(count, element_names)
{
	static const char *const want[] = {
		"a[0]", "a[9]", "a[10]", "a[99]", "a[100]",
	};
	/* 59 bytes: with "[100]" the longest id, RDMASCN_ID_MAX. */
	const char *long_id =
		"l2345678901234567890123456789012345678901234567890123456789";
	char text[512], id[RDMASCN_ID_MAX + 1], name[RDMASCN_ID_MAX + 16];
	struct rs_scenario *s;
	const struct rs_obj *o;

	add_kinds();
	snprintf(text, sizeof(text), "cells:\n"
		 "  - {id: a, count: 101}\n"
		 "  - {id: b, needs: a}\n"
		 "  - {id: %s, count: 101}\n"
		 "steps:\n"
		 "  - tap: {id: t, cell: b}\n", long_id);
	CHECK_STR(load(text, NULL, 0, &s), "");
	for (unsigned i = 0; i < CYAML_ARRAY_LEN(want); i++) {
		o = by_id(s, want[i]);
		snprintf(name, sizeof(name), "cell '%s'", want[i]);
		CHECK_STR(o->name, name);
		CHECK_STR(o->id, want[i]);
	}
	CHECK_STR(by_id(s, "b[100]")->name, "cell 'b[100]'");
	CHECK_STR(((struct cell *)by_id(s, "b[10]")->data)->needs, "a[10]");
	CHECK(edge(by_id(s, "b[99]"), "needs", 0) == by_id(s, "a[99]"));
	snprintf(id, sizeof(id), "%s[100]", long_id);
	CHECK_UINT(strlen(id), RDMASCN_ID_MAX);
	snprintf(name, sizeof(name), "cell '%s'", id);
	CHECK_STR(by_id(s, id)->name, name);
	CHECK_STR(s->steps[0]->name, "step 't[0]'");
	CHECK_STR(s->steps[100]->name, "step 't[100]'");
	CHECK_STR(s->steps[100]->id, "t[100]");
	CHECK(edge(s->steps[100], "cell", 0) == by_id(s, "b[100]"));
	rs_scenario_free(s);
}

/* An entry's count:, for: and expect: are read into its object's block
 * and cut off what rs_fill() made: the entries are the kind's struct
 * apart, not 32 bytes more, and say the same. */
TEST(count, tail_cut)
{
	struct rs_scenario *s;
	const struct rs_obj *x, *v;
	const size_t size = RS_COUNT_AT(&cell_kind);

	add_kinds();
	CHECK_STR(load("cells:\n"
		       "  - {id: x}\n"
		       "  - {id: y, count: 2, needs: x}\n"
		       "  - {id: w, expect: {create: fail, errno: EINVAL}}\n"
		       "  - {id: v, needs: w}\n", NULL, 0, NULL),
		  ":5:20: cell 'v': needs: cell 'w' is expected to fail its "
		  "create (its expect: create: fail): nothing may name it or "
		  "come after it");
	CHECK_STR(load("cells:\n"
		       "  - {id: x}\n"
		       "  - {id: y, count: 2, needs: x}\n"
		       "  - {id: w, expect: {create: fail, errno: EINVAL}}\n"
		       "  - {id: v, needs: x}\n", NULL, 0, &s), "");
	CHECK(s->top_in_doc);
	x = by_id(s, "x");
	v = by_id(s, "v");
	CHECK(!x->more && !v->more);
	CHECK_UINT((size_t)((const char *)v->data - (const char *)x->data),
		   3 * size);
	CHECK_UINT(rs_obj_count(by_id(s, "y[1]")), 2);
	CHECK_UINT(rs_obj_elem(by_id(s, "y[1]")), 1);
	CHECK_STR(((struct cell *)by_id(s, "y[1]")->data)->needs, "x");
	CHECK(rs_obj_expect_fail(by_id(s, "w")));
	CHECK_INT(rs_obj_expect_errno(by_id(s, "w")), EINVAL);
	CHECK_STR(((struct cell *)v->data)->needs, "x");
	rs_scenario_free(s);
}

/* An edge names its reference in a byte: a kind with more references
 * than that holds is refused, and not registered. */
TEST(count, refs_max)
{
	static struct rdmascn_ref refs[RS_EDGE_STEPS + 1];
	static const struct rdmascn_kind many = {
		.name = "many", .section = "manys", .fields = cell_fields,
		.size = sizeof(struct cell),
		.id_offset = offsetof(struct cell, id), .refs = refs,
	};

	for (unsigned i = 0; i < RS_EDGE_STEPS; i++)
		refs[i] = (struct rdmascn_ref)RS_REF("needs", struct cell,
						     needs, "cell");
	CHECK_INT(rs_registry_add(&many), -E2BIG);
	CHECK(!rs_registry_find("manys", false));
	refs[RS_EDGE_STEPS - 1] = (struct rdmascn_ref)RS_REF_END;
	CHECK_INT(rs_registry_add(&many), 0);
	CHECK(rs_registry_find("manys", false) == &many);
}

TEST(count, params)
{
	struct rs_scenario *s;
	struct rs_set set = { "n", "5" };

	add_kinds();
	CHECK_STR(load("params: {n: 2}\ncells:\n  - {id: a, count: \"${n}\"}\n",
		       &set, 1, &s), "");
	CHECK_UINT(s->n_objects, 5);
	CHECK_STR(s->create[4]->id, "a[4]");
	rs_scenario_free(s);
}

TEST(count, errors)
{
	add_kinds();
	CHECK_STR(load("cells:\n  - {id: a, count: 0}\n", NULL, 0, NULL),
		  ":2:20: cell 'a': count: 0 is out of range: from 1 to 100000");
	CHECK_STR(load("cells:\n  - {id: a, count: 1.5}\n", NULL, 0, NULL),
		  ":2:20: cell 'a': count: expected a whole number from 1 to "
		  "100000, got '1.5'");
	CHECK_STR(load("cells:\n  - {id: a, count: 2}\n  - {id: b, count: 3, "
		       "needs: a}\n", NULL, 0, NULL),
		  ":3:30: cell 'b': needs: 'a' has 2 elements, cell 'b' has "
		  "count 3 (at 3:20): counts that pair must be equal");
	CHECK_STR(load("cells:\n  - {id: b, count: 3}\n"
		       "steps:\n  - tap: {steps: [{tap: {cell: b}}]}\n",
		       NULL, 0, NULL),
		  ":4:32: step 1.1 (tap): cell: 'b' is 3 objects, and a step "
		  "inside step 1 (tap) runs once: name one element ('b[0]')");
	CHECK_STR(load("cells:\n  - {id: b, count: 3}\n"
		       "steps:\n  - tap: {cell: b, steps: [{tap: {}}]}\n",
		       NULL, 0, NULL),
		  ":4:17: step 1 (tap): cell: 'b' is 3 objects, and a step "
		  "that holds steps runs once: name one element ('b[0]')");
	CHECK_STR(load("cells:\n  - {id: a, count: 2}\n  - {id: b, needs: "
		       "\"a[2]\"}\n", NULL, 0, NULL),
		  ":3:20: cell 'b': needs: 'a[2]' is out of range: 'a' has 2 "
		  "elements, a[0] to a[1]");
	CHECK_STR(load("cells:\n  - {id: a}\n  - {id: b, needs: \"a[0]\"}\n",
		       NULL, 0, NULL),
		  ":3:20: cell 'b': needs: 'a[0]' is not counted: name it 'a'");
	CHECK_STR(load("cells:\n  - {id: a, count: 2}\n  - {id: b, needs: "
		       "\"a[x]\"}\n", NULL, 0, NULL),
		  ":3:20: cell 'b': needs: 'a[x]': an element is named ID[N], "
		  "N from 0, as in a[3]");
	CHECK_STR(load("cells:\n  - {id: \"a[0]\"}\n", NULL, 0, NULL),
		  ":2:10: cell 'a[0]': id: an id cannot hold '[': 'a[3]' names "
		  "element 3 of counted 'a'");
	CHECK_STR(load("cells:\n  - {id: a, count: 2}\n  - {id: a}\n",
		       NULL, 0, NULL),
		  ":3:10: cell 'a': id: 'a' already names a cell (at 2:10)");
}

/* rs_count_parse(): the spelling of an element. */
TEST(count, parse)
{
	size_t len = 0;
	unsigned elem = 0;

	CHECK_INT(rs_count_parse("a", &len, &elem), 0);
	CHECK_INT(rs_count_parse("ab[17]", &len, &elem), 1);
	CHECK_UINT(len, 2);
	CHECK_UINT(elem, 17);
	CHECK_INT(rs_count_parse("a[0]", &len, &elem), 1);
	CHECK_UINT(elem, 0);
	CHECK_INT(rs_count_parse("a[00]", &len, &elem), -1);
	CHECK_INT(rs_count_parse("a[-1]", &len, &elem), -1);
	CHECK_INT(rs_count_parse("a[1]x", &len, &elem), -1);
	CHECK_INT(rs_count_parse("[1]", &len, &elem), -1);
	CHECK_INT(rs_count_parse("a[]", &len, &elem), -1);
	CHECK_INT(rs_count_parse("a[100000]", &len, &elem), -1);
}

/* The most one entry may make, paired with as many: ids through the
 * hash, one edge each. */
TEST(count, big)
{
	struct rs_scenario *s;
	const struct rs_obj *last;

	add_kinds();
	CHECK_STR(load("cells:\n  - {id: a, count: 100000}\n"
		       "  - {id: b, needs: a}\nsteps:\n  - tap: {cell: b}\n",
		       NULL, 0, &s), "");
	CHECK_UINT(s->n_objects, 200000);
	CHECK_UINT(s->n_steps, 100000);
	last = by_id(s, "b[99999]");
	CHECK_UINT(last->n_edges, 1);
	CHECK(edge(last, "needs", 0) == by_id(s, "a[99999]"));
	CHECK_STR(s->steps[99999]->name, "step 1[99999] (tap)");
	CHECK(edge(s->steps[99999], "cell", 0) == last);
	rs_scenario_free(s);
}

/* The graph: a counted entry is one node, its edges drawn once; coloured
 * by a run, a node whose elements differ says which and how many. */
TEST(count, graph_folded)
{
	struct rs_scenario *s;
	const char *outcome[16] = { 0 };
	struct rs_dot_run run = { .outcome = outcome };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	add_kinds();
	CHECK_STR(load("cells:\n  - {id: a, count: 3}\n  - {id: b, needs: a}\n",
		       NULL, 0, &s), "");
	for (unsigned i = 0; i < s->n_objs; i++)
		outcome[i] = "created";
	outcome[by_id(s, "b[1]")->index] = "failed";
	outcome[by_id(s, "b[2]")->index] = "not created";
	f = open_memstream(&text, &len);
	CHECK(f);
	CHECK_INT(rs_dot_write_run(f, s, &run), 0);
	fclose(f);
	CHECK(strstr(text, "\"a\" [label=\"cell\\na \u00d73\", style=\"filled\""));
	CHECK(strstr(text, "tooltip=\"created\""));
	CHECK(strstr(text, "\"b\" [label=\"cell\\nb \u00d73\""));
	CHECK(strstr(text, "tooltip=\"1 of 3 created; b[1]: failed\""));
	CHECK(!strstr(text, "a[1]"));
	/* one edge b -> a, not three */
	CHECK(strstr(text, "\"b\" -> \"a\" [label=\"needs\"];"));
	CHECK(!strstr(strstr(text, "\"b\" -> \"a\"") + 1, "\"b\" -> \"a\""));
	free(text);
	rs_scenario_free(s);
}
