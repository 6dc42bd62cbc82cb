// SPDX-License-Identifier: MIT
/* Ids to indexes: hits, misses, NULLs, duplicates, many ids, a struct
 * array, a failed allocation. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "list.h"
#include "idmap.h"

TEST(idmap, alloc_fails)
{
	const char *ids[] = { "a" };
	struct rs_idmap m = { 0 };

	/* The next allocation fails. */
	rs_alloc_fail_at(1);
	CHECK_INT(rs_idmap_build(&m, ids, 1), -ENOMEM);
	CHECK_PTR(m.slots, NULL);
	CHECK_UINT(m.n, 0);
	CHECK_UINT(rs_idmap_get(&m, "a"), RS_IDMAP_NONE);
	CHECK_INT(rs_idmap_build(&m, ids, 1), 0);
	CHECK_UINT(rs_idmap_get(&m, "a"), 0);
	rs_idmap_free(&m);
}

TEST(idmap, small)
{
	const char *ids[] = { "ctx", NULL, "pd", "qp_a", "pd", "", "qp_b" };
	struct rs_idmap m = { 0 };
	char key[8];

	/* Zeroed: empty. */
	CHECK_UINT(rs_idmap_get(&m, "ctx"), RS_IDMAP_NONE);
	CHECK_INT(rs_idmap_build(&m, ids, 7), 0);
	CHECK_UINT(m.n, 5);
	CHECK_UINT(rs_idmap_get(&m, "ctx"), 0);
	CHECK_UINT(rs_idmap_get(&m, "pd"), 2);      /* the first "pd" */
	CHECK_UINT(rs_idmap_get(&m, "qp_a"), 3);
	CHECK_UINT(rs_idmap_get(&m, ""), 5);
	CHECK_UINT(rs_idmap_get(&m, "qp_b"), 6);
	CHECK_UINT(rs_idmap_get(&m, "qp"), RS_IDMAP_NONE);
	CHECK_UINT(rs_idmap_get(&m, "qp_c"), RS_IDMAP_NONE);
	CHECK_UINT(rs_idmap_get(&m, NULL), RS_IDMAP_NONE);
	/* Compared by content, not by pointer. */
	strcpy(key, "qp_b");
	CHECK_UINT(rs_idmap_get(&m, key), 6);
	rs_idmap_free(&m);
	CHECK_PTR(m.slots, NULL);
	CHECK_UINT(rs_idmap_get(&m, "ctx"), RS_IDMAP_NONE);

	/* Nothing at all. */
	CHECK_INT(rs_idmap_build(&m, NULL, 0), 0);
	CHECK_UINT(rs_idmap_get(&m, "x"), RS_IDMAP_NONE);
	rs_idmap_free(&m);
}

/* Many ids, so that probes collide and wrap around the table. */
TEST(idmap, many)
{
	enum { N = 100000 };
	char (*names)[16] = calloc(N, sizeof(*names));
	const char **ids = calloc(N, sizeof(*ids));
	struct rs_idmap m = { 0 };
	char miss[16];

	CHECK(names);
	CHECK(ids);
	for (unsigned i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "qp%u", i);
		ids[i] = names[i];
	}
	/* A table this big (2 MiB) is of huge pages: failing too. */
	rs_alloc_fail_at(1);
	CHECK_INT(rs_idmap_build(&m, ids, N), -ENOMEM);
	CHECK_PTR(m.slots, NULL);
	rs_alloc_fail_at(0);
	CHECK_INT(rs_idmap_build(&m, ids, N), 0);
	CHECK_UINT(m.n, N);
	CHECK(m.mask + 1 >= 2 * N);
	/* An index and a hash a slot: the id is read from the array. */
	CHECK_UINT(sizeof(*m.slots), 8);
	for (unsigned i = 0; i < N; i++)
		CHECK_UINT(rs_idmap_get(&m, ids[i]), i);
	for (unsigned i = 0; i < 1000; i++) {
		snprintf(miss, sizeof(miss), "cq%u", i);
		CHECK_UINT(rs_idmap_get(&m, miss), RS_IDMAP_NONE);
	}
	rs_idmap_free(&m);
	free(ids);
	free(names);
}

/* From the id field of an array of structs, as the run's objects. */
TEST(idmap, stride)
{
	struct obj {
		int kind;
		const char *id;
		char pad[40];
	} objs[] = {
		{ 1, "ctx", "" }, { 2, "pd", "" }, { 3, NULL, "" },
		{ 4, "cq", "" },
	};
	struct rs_idmap m = { 0 };

	CHECK_INT(rs_idmap_build_stride(&m, &objs[0].id, sizeof(objs[0]), 4),
		  0);
	CHECK_UINT(m.n, 3);
	CHECK_UINT(rs_idmap_get(&m, "ctx"), 0);
	CHECK_UINT(rs_idmap_get(&m, "pd"), 1);
	CHECK_UINT(rs_idmap_get(&m, "cq"), 3);
	CHECK_INT(objs[rs_idmap_get(&m, "cq")].kind, 4);
	rs_idmap_free(&m);
}

/* Through a pointer to a block, NULL for the structs without one: the
 * counted entries' groups, kept out of every object. */
TEST(idmap, via)
{
	struct more {
		unsigned n;
		const char *group;
	} a = { 3, "a" }, b = { 2, "b" }, none = { 1, NULL };
	struct obj {
		const char *id;
		struct more *more;
	} objs[] = {
		{ "x", NULL }, { "a[0]", &a }, { "a[1]", &a }, { "y", &none },
		{ "b[0]", &b }, { "b[1]", &b },
	};
	struct rs_idmap m = { 0 };

	CHECK_INT(rs_idmap_build_via(&m, &objs[0].more, sizeof(objs[0]),
				     offsetof(struct more, group), 6), 0);
	CHECK_UINT(m.n, 2);
	/* Of equal ids the first: a counted entry's element 0. */
	CHECK_UINT(rs_idmap_get(&m, "a"), 1);
	CHECK_UINT(rs_idmap_get(&m, "b"), 4);
	CHECK_UINT(rs_idmap_get(&m, "x"), RS_IDMAP_NONE);
	CHECK_UINT(rs_idmap_get(&m, "a[0]"), RS_IDMAP_NONE);
	rs_idmap_free(&m);
}
