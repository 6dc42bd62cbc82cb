// SPDX-License-Identifier: MIT
/* Ids to indexes: hits, misses, NULLs, duplicates, many ids, a struct
 * array, a failed allocation. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "check.h"
#include "idmap.h"

static void test_alloc_fails(void)
{
	const char *ids[] = { "a" };
	struct rs_idmap m = { 0 };

	/* The first allocation of the process fails (read once by alloc.c). */
	setenv("RDMASCN_FAIL_ALLOC", "1", 1);
	CHECK(rs_idmap_build(&m, ids, 1) == -ENOMEM);
	CHECK(!m.slots && m.n == 0);
	CHECK(rs_idmap_get(&m, "a") == RS_IDMAP_NONE);
	CHECK(rs_idmap_build(&m, ids, 1) == 0);
	CHECK(rs_idmap_get(&m, "a") == 0);
	rs_idmap_free(&m);
}

static void test_small(void)
{
	const char *ids[] = { "ctx", NULL, "pd", "qp_a", "pd", "", "qp_b" };
	struct rs_idmap m = { 0 };
	char key[8];

	/* Zeroed: empty. */
	CHECK(rs_idmap_get(&m, "ctx") == RS_IDMAP_NONE);
	CHECK(rs_idmap_build(&m, ids, 7) == 0);
	CHECK(m.n == 5);
	CHECK(rs_idmap_get(&m, "ctx") == 0);
	CHECK(rs_idmap_get(&m, "pd") == 2);      /* the first "pd" */
	CHECK(rs_idmap_get(&m, "qp_a") == 3);
	CHECK(rs_idmap_get(&m, "") == 5);
	CHECK(rs_idmap_get(&m, "qp_b") == 6);
	CHECK(rs_idmap_get(&m, "qp") == RS_IDMAP_NONE);
	CHECK(rs_idmap_get(&m, "qp_c") == RS_IDMAP_NONE);
	CHECK(rs_idmap_get(&m, NULL) == RS_IDMAP_NONE);
	/* Compared by content, not by pointer. */
	strcpy(key, "qp_b");
	CHECK(rs_idmap_get(&m, key) == 6);
	rs_idmap_free(&m);
	CHECK(!m.slots && rs_idmap_get(&m, "ctx") == RS_IDMAP_NONE);

	/* Nothing at all. */
	CHECK(rs_idmap_build(&m, NULL, 0) == 0);
	CHECK(rs_idmap_get(&m, "x") == RS_IDMAP_NONE);
	rs_idmap_free(&m);
}

/* Many ids, so that probes collide and wrap around the table. */
static void test_many(void)
{
	enum { N = 100000 };
	char (*names)[16] = calloc(N, sizeof(*names));
	const char **ids = calloc(N, sizeof(*ids));
	struct rs_idmap m = { 0 };
	char miss[16];

	CHECK(names && ids);
	for (unsigned i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "qp%u", i);
		ids[i] = names[i];
	}
	CHECK(rs_idmap_build(&m, ids, N) == 0);
	CHECK(m.n == N && m.mask + 1 >= 2 * N);
	for (unsigned i = 0; i < N; i++)
		CHECK(rs_idmap_get(&m, ids[i]) == i);
	for (unsigned i = 0; i < 1000; i++) {
		snprintf(miss, sizeof(miss), "cq%u", i);
		CHECK(rs_idmap_get(&m, miss) == RS_IDMAP_NONE);
	}
	rs_idmap_free(&m);
	free(ids);
	free(names);
}

/* From the id field of an array of structs, as the run's objects. */
static void test_stride(void)
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

	CHECK(rs_idmap_build_stride(&m, &objs[0].id, sizeof(objs[0]), 4) == 0);
	CHECK(m.n == 3);
	CHECK(rs_idmap_get(&m, "ctx") == 0);
	CHECK(rs_idmap_get(&m, "pd") == 1);
	CHECK(rs_idmap_get(&m, "cq") == 3);
	CHECK(objs[rs_idmap_get(&m, "cq")].kind == 4);
	rs_idmap_free(&m);
}

int main(void)
{
	test_alloc_fails();
	test_small();
	test_many();
	test_stride();
	return 0;
}
