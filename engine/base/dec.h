/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_DEC_H
#define RDMASCN_DEC_H

#include <stdint.h>
#include <string.h>

/* The longest unsigned 64-bit number in decimal, without its NUL. */
#define RS_DEC_MAX 20

/*
 * @u in decimal, written backwards to end just before @end (at most
 * RS_DEC_MAX bytes, no NUL); where its first digit is.  Two digits a
 * division: the JSON writer (a real run's record has 21k numbers), a
 * call's arguments and a connection's facts all write numbers so.
 */
static inline char *rs_dec(char *end, uint64_t u)
{
	static const char digits2[200] =
		"0001020304050607080910111213141516171819"
		"2021222324252627282930313233343536373839"
		"4041424344454647484950515253545556575859"
		"6061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char *p = end;

	while (u >= 100) {
		p -= 2;
		memcpy(p, digits2 + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, digits2 + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	return p;
}

#endif
