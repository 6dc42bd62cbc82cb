/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_MACROS_H
#define RDMASCN_MACROS_H

#include <stdint.h>

/* The number of elements of an array (not of a pointer). */
#define RS_N(a) (sizeof(a) / sizeof(*(a)))
/* A macro's value as a string literal. */
#define RS_STR_(x) #x
#define RS_STR(x) RS_STR_(x)

/* Flag bits and their names: IBV_ACCESS_*, IBV_DEVICE_*, send ops, ... */
struct rs_bit_name {
	uint64_t bit;
	const char *name;
};

#endif
