// SPDX-License-Identifier: MIT
/* Bytes written into a scenario: hex digits, text, a file beside it. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "check.h"
#include "diag.h"
#include "dom.h"
#include "list.h"
#include "literal.h"

TEST(literal, hex_forms)
{
	static const uint8_t want[] = { 0xde, 0xad, 0xbe, 0xef };
	static const char *const forms[] = {
		"deadbeef", "de ad be ef", "DE:AD:BE:EF", "  de\tad\nbe:ef\n",
		"dEaD bEeF",
	};
	uint8_t out[8];
	size_t bad = 99;

	for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++) {
		memset(out, 0x55, sizeof(out));
		CHECK_INT(rs_hex_parse(forms[i], out, sizeof(out), &bad), 4);
		CHECK_MEM(out, want, 4);
		/* Nothing past the bytes is touched. */
		CHECK_UINT(out[4], 0x55);
	}
	/* Counting only, and a buffer too small: the count is still all. */
	CHECK_INT(rs_hex_parse("00 01 02", NULL, 0, &bad), 3);
	CHECK_INT(rs_hex_parse("00 01 02", out, 2, &bad), 3);
	CHECK_UINT(out[1], 1);
	CHECK_INT(rs_hex_parse("", out, sizeof(out), &bad), 0);
	CHECK_INT(rs_hex_parse(" : ", out, sizeof(out), &bad), 0);
	CHECK_UINT(bad, 99);
}

TEST(literal, hex_errors)
{
	/* Each: the string, and the offset of the character blamed. */
	static const struct { const char *s; size_t at; } cases[] = {
		{ "de ax", 4 },    /* 'x' is not a digit */
		{ "zz", 0 },       /* nor is the first 'z' */
		{ "dea", 2 },      /* odd count: the last one is alone */
		{ "d e", 1 },      /* a pair split by a space */
		{ "0xde", 1 },     /* no 0x prefix */
		{ "de-ad", 2 },    /* '-' is not a separator */
		{ "de ad g0", 6 },
		{ "de ad 0g", 7 },
	};
	uint8_t out[8];

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		size_t bad = 99;

		CHECK_INT(rs_hex_parse(cases[i].s, out, sizeof(out), &bad),
			  -EINVAL);
		CHECK_UINT(bad, cases[i].at);
	}
}

/* A relative path is beside the scenario file; an absolute one is kept;
 * a scenario named without a directory leaves it as written. */
TEST(literal, path_and_load)
{
	struct rs_doc doc, bare;
	struct rs_obj obj = { 0 };
	char path[64], tmpl[] = "/tmp/rdmascn-literal-XXXXXX";
	char err[128];
	struct rs_diag d;
	uint8_t *b;
	size_t n;
	int fd;

	/* The node knows its file through its document (rs_node_file()). */
	rs_diag_init(&d, stderr);
	CHECK_INT(rs_doc_parse(&doc, "some/dir/scn.yaml", rs_strdup("a: 1\n"),
			       5, &d), 0);
	CHECK_INT(rs_doc_parse(&bare, "scn.yaml", rs_strdup("a: 1\n"), 5,
			       &d), 0);
	obj.node = doc.root;
	CHECK_INT(rs_literal_path(&obj, "data.bin", path, sizeof(path)), 0);
	CHECK_STR(path, "some/dir/data.bin");
	CHECK_INT(rs_literal_path(&obj, "/abs/x", path, sizeof(path)), 0);
	CHECK_STR(path, "/abs/x");
	CHECK_INT(rs_literal_path(&obj, "data.bin", path, 8), -ENAMETOOLONG);
	obj.node = bare.root;
	CHECK_INT(rs_literal_path(&obj, "data.bin", path, sizeof(path)), 0);
	CHECK_STR(path, "data.bin");
	obj.node = doc.root;
	rs_doc_free(&bare);

	CHECK_INT(rs_literal_load(&obj, RS_LIT_TEXT, "hello", &b, &n, err,
				  sizeof(err)), 0);
	CHECK_UINT(n, 5);
	CHECK_MEM(b, "hello", 5);
	rs_free(b);
	CHECK_INT(rs_literal_load(&obj, RS_LIT_HEX, "00 ff:10", &b, &n, err,
				  sizeof(err)), 0);
	CHECK_UINT(n, 3);
	CHECK_MEM(b, "\x00\xff\x10", 3);
	rs_free(b);
	CHECK_INT(rs_literal_load(&obj, RS_LIT_HEX, "0g", &b, &n, err,
				  sizeof(err)), -EINVAL);
	CHECK_STR(err, "bad hex at character 2");

	fd = mkstemp(tmpl);
	CHECK(fd >= 0);
	CHECK_INT(write(fd, "\x01\x02\x03", 3), 3);
	close(fd);
	CHECK_INT(rs_literal_load(&obj, RS_LIT_FILE, tmpl, &b, &n, err,
				  sizeof(err)), 0);
	CHECK_UINT(n, 3);
	CHECK_MEM(b, "\x01\x02\x03", 3);
	rs_free(b);
	unlink(tmpl);
	CHECK_INT(rs_literal_load(&obj, RS_LIT_FILE, tmpl, &b, &n, err,
				  sizeof(err)), -ENOENT);
	CHECK(strstr(err, tmpl) != NULL);
	rs_doc_free(&doc);
}

/* What verify reports: the first differing offset, found by halving. */
TEST(literal, first_diff)
{
	uint8_t a[300], b[300];

	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = b[i] = (uint8_t)i;
	CHECK_UINT(rs_first_diff(a, b, sizeof(a)), sizeof(a));
	b[0] ^= 1;
	CHECK_UINT(rs_first_diff(a, b, sizeof(a)), 0);
	b[0] ^= 1;
	b[299] ^= 1;
	b[200] ^= 1;
	CHECK_UINT(rs_first_diff(a, b, sizeof(a)), 200);
	CHECK_UINT(rs_first_diff(a, b, 200), 200);
	CHECK_UINT(rs_first_diff((const uint8_t *)"hello",
				 (const uint8_t *)"hellO", 5), 4);
}
