/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_REQUIRES_H
#define RDMASCN_REQUIRES_H

#include "model.h"

/* requires.facts: each names a known fact, gives a bound, and the
 * bound fits the fact's type (text: equals only).  Errors located. */
int rs_requires_check(struct rs_scenario *s, struct rs_diag *d);

/* Does @v meet @b?  When not, what it lacks, in @why: "device.max_dm_size
 * of at least 4096 (it has 0", the caller closes it. */
bool rs_requires_fact_met(const struct rs_fact_bound *b,
			  const struct rs_fact_val *v, char *why, size_t len);

#endif
