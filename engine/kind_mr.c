// SPDX-License-Identifier: MIT
/* mr: not written yet. */
#include "live.h"

const struct rdmascn_ops rs_ops_mr = {
	.rt_size = sizeof(struct rs_mr_rt),
};
