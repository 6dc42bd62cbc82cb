/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_VALUE_H
#define RDMASCN_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The builder's calls are public (plugins use them); the tree's layout
 * is the engine's own. */
#include "rdmascn/value.h"

struct rs_val {
	enum rs_val_type type;
	bool oom;
	char *key; /* set when this value is an object member */
	union {
		bool b;
		int64_t i;
		uint64_t u;
		double d;
		char *s;
	};
	struct rs_val **items;
	size_t n, cap;
};

#endif
