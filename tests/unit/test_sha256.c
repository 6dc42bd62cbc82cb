// SPDX-License-Identifier: MIT
/* SHA-256 against FIPS 180-4's examples and every length around the
 * padding's edges (a block, the 55/56/64 bytes where the length moves
 * to a second block). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "list.h"
#include "sha256.h"

TEST(sha256, fips_examples)
{
	static const struct { const char *in, *want; } ex[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb924"
		      "27ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223"
			 "b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039"
		  "a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac4503"
		  "7afee9d1" },
	};
	static char million[1000000];
	char got[RS_SHA256_HEX];

	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		CHECK(rs_sha256_hex(ex[i].in, strlen(ex[i].in), got) == got);
		CHECK_STR(got, ex[i].want);
	}
	memset(million, 'a', sizeof(million));
	rs_sha256_hex(million, sizeof(million), got);
	CHECK_STR(got, "cdc76e5c9914fb9281a1c7e284d73e67"
		       "f1809a48a497200e046d39ccc7112cd0");
}

/* 'a' repeated n times, n = 0..130, as sha256sum(1) gives them: the
 * first and last of each padding case, checked by a digest of the
 * digests (Python's hashlib over the 131 lines, each digest and a
 * newline). */
TEST(sha256, padding_edges)
{
	char in[131], got[RS_SHA256_HEX], all[131 * 65];

	memset(in, 'a', sizeof(in));
	for (size_t n = 0; n <= 130; n++) {
		rs_sha256_hex(in, n, got);
		memcpy(all + 65 * n, got, 64);
		all[65 * n + 64] = '\n';
	}
	rs_sha256_hex(all, sizeof(all), got);
	CHECK_STR(got, "e305d281b5e91e526de6d81d7e932de6"
		       "5476d923607ac69ac85275a676c49660");
}
